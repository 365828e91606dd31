"""The worker's side: read a task, run it, write the reply; exit when the parent is gone.

A worker talks to the pool over one socket (a ``socketpair``). A message is a pickle
(protocol 5) behind an 8-byte big-endian length: :func:`frame` here, the pool's
reader in :mod:`._pool`. A thread of the worker takes each task off the socket as
soon as it comes, while the worker runs the one before: a page larger than the
socket holds is then written whole at once, not the rest of it only when the
parent's busy loop next turns (the worker would wait on that turn for every such
page). An end of file (the parent closed the socket, or died) makes the worker
exit, so no worker outlives its pool, whatever killed the parent.

Nothing here imports Scrapy.
"""

from __future__ import annotations

import pickle
import queue
import signal
import socket
import struct
import threading
import time
import traceback
from collections.abc import Callable
from functools import lru_cache
from typing import Any

__all__ = ["READY", "call_prepared", "frame", "loads_once", "prepare_call", "worker_main"]

#: A message's length, before its pickle.
HEADER = struct.Struct("!Q")
#: The worker's first message: it has warmed up and takes tasks.
READY = "ready"


def frame(message: Any) -> list[bytes]:
    """``message`` as the parts of one frame: its length, then its pickle."""
    payload = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return [HEADER.pack(len(payload)), payload]


def _read_exactly(sock: socket.socket, size: int) -> bytearray | None:
    """``size`` bytes from ``sock``, or None at end of file."""
    buffer = bytearray(size)
    with memoryview(buffer) as view:
        got = 0
        while got < size:
            count = sock.recv_into(view[got:])
            if not count:
                return None
            got += count
    return buffer


def _receive(sock: socket.socket) -> Any:
    """The next message's pickle (unread: a task it cannot unpickle is a reply), or None
    at end of file."""
    head = _read_exactly(sock, HEADER.size)
    if head is None:
        return None
    (size,) = HEADER.unpack(head)
    return _read_exactly(sock, size)


def _read_tasks(sock: socket.socket, inbox: queue.SimpleQueue[bytearray | None]) -> None:
    """Put every task's pickle in ``inbox`` as it comes; None at end of file."""
    try:
        while (data := _receive(sock)) is not None:
            inbox.put(data)
    except OSError:
        pass
    inbox.put(None)


def worker_main(sock: socket.socket, warm_up: Callable[[], object] | None) -> None:
    """Run ``(function, args, kwargs)`` tasks from ``sock`` until the parent is gone."""
    # Ctrl-C reaches the whole process group: the parent decides what happens to
    # the page in hand, so a worker does not die of it half way through.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if warm_up is not None:
        warm_up()
    inbox: queue.SimpleQueue[bytearray | None] = queue.SimpleQueue()
    threading.Thread(target=_read_tasks, args=(sock, inbox), daemon=True).start()
    sock.sendall(b"".join(frame(READY)))
    while True:
        data = inbox.get()
        if data is None:  # the pool closed its end (retired, closed) or its process died
            return
        started = time.process_time()
        reply: tuple[bool, Any]
        try:
            function, args, kwargs = pickle.loads(data)
            reply = (True, function(*args, **kwargs))
        except BaseException:  # noqa: BLE001 - reported to the parent, the worker goes on
            reply = (False, traceback.format_exc())
        data = args = kwargs = None  # a page's bytes go now, not when the next page comes
        # When it ended, on the clock all processes share: the parent starts the next
        # task's deadline from it, not from when it got round to reading this reply.
        ended = (time.process_time() - started, time.monotonic())
        try:
            parts = frame((*reply, *ended))
        except Exception:  # noqa: BLE001 - a result it cannot pickle fails its task only
            parts = frame((False, traceback.format_exc(), *ended))
        try:
            sock.sendall(b"".join(parts))
        except OSError:
            return


def prepare_call(
    function: Callable[..., Any],
    kwargs: dict[str, Any],
    judge: Callable[[Any], Any] | None = None,
    shape: Callable[[Any], Any] | None = None,
) -> bytes:
    """What every task of a run shares, pickled once: a task carries these bytes and
    its own arguments (:func:`call_prepared`), not a new pickle of them per page."""
    return pickle.dumps((function, kwargs, judge, shape), pickle.HIGHEST_PROTOCOL)


@lru_cache(maxsize=8)
def loads_once(blob: bytes) -> Any:
    """What a run pickled once for all its tasks (a prepared call, the bulk command's
    options), unpickled once per worker: the same bytes come with every task."""
    return pickle.loads(blob)


def call_prepared(call: bytes, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """Run the call :func:`prepare_call` made with this task's own arguments (its keyword
    arguments over the fixed ones), in a worker. Returns ``(shape(result),
    judge(result))``, None for a judge not given: ``judge`` does in the worker what the
    parent would do next with the result (the article rule), ``shape`` says what of it
    crosses."""
    function, fixed, judge, shape = loads_once(call)
    result = function(*args, **{**fixed, **kwargs})
    verdict = None if judge is None else judge(result)
    return (result if shape is None else shape(result), verdict)
