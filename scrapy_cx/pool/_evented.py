"""The worker pool driven by an event loop: no thread, no hop between threads.

:class:`~scrapy_cx.pool.WorkerPool` waits on its workers' pipes in a thread of
its own. Beside a crawl that thread competes with the reactor for the one GIL,
and every article it takes back costs a wake-up of the reactor from another
thread (``callFromThread``: a write to the reactor's wake-up pipe, a lock, a
queue); beside the bulk command's writer it cost the parent three quarters of
its CPU per page. Here the loop the caller already runs watches each worker's
socket (``addReader``: Twisted's reactor in a crawl, which the asyncio reactor
maps to ``loop.add_reader``; :class:`~scrapy_cx.pool._loop.SelectorLoop` in
the bulk command): an article is read (one packed record, :mod:`._codec`) and
handed to the waiting caller in the same turn, a page is written without ever
blocking and without a pickled copy (what the socket does not take now is
written when it becomes writable), and each page's deadline is a ``callLater``.

The scheduling itself (prefetch, deadlines, replacing, recycling, closing) is
:class:`WorkerPool`'s, unchanged; only the waiting differs. Every method runs in
the loop's thread. Nothing here imports Twisted: the loop is any object with the
reactor's ``addReader``, ``addWriter``, ``removeReader``, ``removeWriter``,
``callLater`` and ``seconds``.
"""

from __future__ import annotations

import logging
import os
import pickle
import socket
import struct
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from functools import partial
from itertools import islice
from typing import Any

from ._future import LoopFuture, Room
from ._shared import Ring, header
from ._workers import _COUNT, _READY, OUT_OF_BAND, WorkerPool, _Task, _Worker

__all__ = ["EventPool", "frame", "unframe"]

logger = logging.getLogger(__name__)

#: Bytes read from a worker's socket per turn of the loop: an article or two at once.
READ_SIZE = 1 << 20
#: Send buffer asked for each worker's socket: two large pages go in one write each
#: instead of a write per ~200 KB (the default) and a turn of the loop between them.
#: The system caps it (``net.core.wmem_max``).
SEND_BUFFER = 4 << 20
#: ``multiprocessing.connection``'s frame header: a signed length, or -1 then 8 bytes.
_HEADER = struct.Struct("!i")
_LONG_HEADER = struct.Struct("!Q")
_LONG = 0x7FFFFFFF
#: Parts one ``writev`` takes at most (the system's ``IOV_MAX`` is 1024 on Linux).
_IOV_MAX = 64


def frame(payload: bytes) -> list[bytes]:
    """``payload`` framed as ``Connection.send_bytes`` frames it (the worker reads it so)."""
    if len(payload) > _LONG:
        return [_HEADER.pack(-1), _LONG_HEADER.pack(len(payload)), payload]
    return [_HEADER.pack(len(payload)), payload]


def unframe(buffer: bytearray, load: Callable[[memoryview], Any] = bytes) -> list[Any]:
    """Take every complete frame off the front of ``buffer``, each read by ``load`` from a
    view of its bytes (``pickle.loads`` reads a message without a copy of its frame)."""
    with memoryview(buffer) as view:
        payloads, used = _frames(view, load)
    del buffer[:used]
    return payloads


def _frames(view: memoryview, load: Callable[[memoryview], Any]) -> tuple[list[Any], int]:
    """Every complete frame at the front of ``view``, read by ``load``, and the bytes they
    took (what follows is the start of a frame still to come)."""
    payloads = []
    start = 0
    end = len(view)
    while end - start >= _HEADER.size:
        (size,) = _HEADER.unpack_from(view, start)
        head = _HEADER.size
        if size == -1:
            if end - start < head + _LONG_HEADER.size:
                break
            (size,) = _LONG_HEADER.unpack_from(view, start + head)
            head += _LONG_HEADER.size
        if end - start < head + size:
            break
        with view[start + head : start + head + size] as part:
            payloads.append(load(part))
        start += head + size
    return payloads, start


class _Link:
    """The parent's end of one worker's socket, registered with the loop (Twisted's
    ``IReadDescriptor`` and ``IWriteDescriptor``: :mod:`._reactor` declares them)."""

    def __init__(
        self,
        loop: Any,
        fd: int,
        on_messages: Callable[[list[Any]], None],
        on_eof: Callable[[], None],
        ring: Ring | None = None,
    ) -> None:
        os.set_blocking(fd, False)
        with socket.socket(fileno=os.dup(fd)) as sock:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            except OSError:  # not allowed: the default buffer works too, in more writes
                pass
        self._loop = loop
        self._fd = fd
        self._on_messages = on_messages
        self._on_eof = on_eof
        self._inbox = bytearray()
        # Read into: the same pages each time, not a new megabyte allocated (and its pages
        # faulted in) per read.
        self._chunk = bytearray(READ_SIZE)
        # What is left to write, each part with what to call once it is written.
        self._outbox: deque[tuple[memoryview, Callable[[], None] | None]] = deque()
        self._writing = False  # registered with the loop as a writer: the socket was full
        self._open = True
        self._ring = ring  # the worker's (:mod:`._shared`), or None
        loop.addReader(self)

    def fileno(self) -> int:
        return self._fd

    def logPrefix(self) -> str:  # noqa: N802 - Twisted's name
        return "scrapy-cx-worker"

    def send(
        self,
        message: Any,
        on_written: Callable[[], None] | None = None,
        *,
        write: bool = True,
    ) -> int:
        """Pickle and queue ``message``; write what the socket takes now (unless not
        ``write``: then at :meth:`flush`, with what else is queued by then), and call
        ``on_written`` once all of it is written (the worker can start on it). Returns
        how many regions of the worker's ring it holds until the worker answers it.

        Bytes the message wraps in a ``pickle.PickleBuffer`` (a page's body) are not
        copied into the pickle (protocol 5's out-of-band buffers): they are copied
        into the worker's ring when it has room, else they follow the pickle as frames
        of their own, written from the caller's bytes."""
        if not self._open:
            raise BrokenPipeError("the worker is gone")
        buffers: list[pickle.PickleBuffer] = []
        payload = pickle.dumps(message, pickle.HIGHEST_PROTOCOL, buffer_callback=buffers.append)
        regions = None
        if buffers and self._ring is not None:
            regions = self._ring.put([buffer.raw() for buffer in buffers])
        if regions is not None:
            parts = frame(header(regions) + payload)
            buffers = []
        elif buffers:
            parts = frame(OUT_OF_BAND + _COUNT.pack(len(buffers)) + payload)
        else:
            parts = frame(payload)
        for buffer in buffers:
            parts += frame(buffer.raw())  # type: ignore[arg-type]
        self._outbox.extend((memoryview(part), None) for part in parts[:-1])
        self._outbox.append((memoryview(parts[-1]), on_written))
        if write:
            self.flush()
        return len(regions) if regions else 0

    def flush(self) -> None:
        """Write what is queued, in one system call, unless the socket was full (then the
        loop writes it when the socket is writable); what it does not take waits so."""
        if self._writing or not self._outbox or not self._open:
            return
        self.doWrite()
        if self._outbox and self._open:
            self._writing = True
            self._loop.addWriter(self)

    def doWrite(self) -> None:  # noqa: N802 - Twisted's name
        """Write what is queued, in one system call for all the parts the socket takes."""
        while self._outbox:
            try:
                written = os.writev(self._fd, [part for part, _ in islice(self._outbox, _IOV_MAX)])
            except BlockingIOError:
                return
            except OSError:  # the worker is gone: its end-of-file comes to doRead
                self._outbox.clear()
                break
            while self._outbox and len(self._outbox[0][0]) <= written:
                head, on_written = self._outbox.popleft()
                written -= len(head)
                if on_written is not None:
                    on_written()
            if written:  # the socket is full inside this part: the rest when it is writable
                head, on_written = self._outbox[0]
                self._outbox[0] = (head[written:], on_written)
                return
        if self._writing:
            self._writing = False
            self._loop.removeWriter(self)

    def doRead(self) -> None:  # noqa: N802 - Twisted's name
        messages = self._read()
        if messages is None:
            self._lost()
        elif messages:
            self._on_messages(messages)

    def _read(self) -> list[Any] | None:
        """One read's complete messages; None at end of file or on a garbled stream."""
        try:
            size = os.readv(self._fd, [self._chunk])
        except BlockingIOError:
            return []
        except OSError:
            size = 0
        if not size:
            return None
        try:
            with memoryview(self._chunk) as chunk, chunk[:size] as data:
                if self._inbox:  # the rest of a frame begun in an earlier read
                    self._inbox += data
                else:  # read in place: only a frame still to come is kept (copied)
                    messages, used = _frames(data, pickle.loads)
                    self._inbox += data[used:]
                    return messages
            return unframe(self._inbox, pickle.loads)
        except Exception:  # noqa: BLE001 - a garbled stream: the worker is no use any more
            logger.exception("scrapy-cx: unreadable message from a worker: replacing it")
            return None

    def read_pending(self) -> list[Any]:
        """The messages the worker has written so far, read now, not in the loop's turn:
        a reply written while the loop was held must not count as late. An end of file
        is left to the loop's next turn."""
        messages: list[Any] = []
        while self._open:
            before = len(self._inbox)
            got = self._read()
            if got is None:
                self._loop.callLater(0, self._lost)
                break
            messages += got
            if not got and len(self._inbox) == before:  # nothing more to read now
                break
        return messages

    def connectionLost(self, reason: object) -> None:  # noqa: N802 - Twisted's name
        """The loop gave up on the socket (an error in a handler): replace the worker."""
        self._lost()

    def _lost(self) -> None:
        if self._open:
            self.stop()
            self._on_eof()

    def answered(self, regions: int) -> None:
        """The worker answered the oldest task it was sent, which held ``regions`` of its
        ring: it copied them out when it got the task, so their room is free again."""
        if regions and self._ring is not None:
            self._ring.free(regions)

    def stop(self) -> None:
        """Stop watching the socket (closing it is the Connection's job) and unmap the
        ring: the worker is gone or going."""
        if self._open:
            self._open = False
            self._outbox.clear()
            self._writing = False
            self._loop.removeReader(self)
            self._loop.removeWriter(self)
            if self._ring is not None:
                self._ring.close()
                self._ring = None


class EventPool(WorkerPool):
    """A :class:`WorkerPool` that waits in ``loop``; create and use it in the loop's
    thread. Futures are resolved in that thread, so their callbacks may touch what the
    loop runs (the crawl); they are :class:`~._future.LoopFuture`: no locks, and not
    to be waited on (``result()`` of one not yet settled raises)."""

    _future_type = LoopFuture
    _room_type = Room

    def __init__(self, workers: int, *, loop: Any, **options: Any) -> None:
        self._loop = loop
        self._handling = False
        self._assigning = False
        self._pump_pending = False
        self._shut = False
        self._timer: Any = None
        self._timer_at: float | None = None
        super().__init__(workers, **options)

    def _start(self) -> None:
        """No thread: the workers' sockets are already registered by :meth:`_spawn`."""

    def _spawn(self, *extra: Any) -> _Worker:
        ring, handle = Ring.create() or (None, None)
        try:
            worker = super()._spawn(*extra, handle)
        except BaseException:
            if ring is not None:
                ring.close()
            raise
        finally:
            if handle is not None:
                handle.close()  # the worker has its own copy now (or never will)
        worker.link = _Link(
            self._loop,
            worker.conn.fileno(),
            partial(self._event, self._take_and_check, worker),
            partial(self._event, self._lost, worker),
            ring,
        )
        return worker

    def _send(self, worker: _Worker, message: Any, task: _Task | None = None) -> None:
        on_written = None if task is None else partial(_mark_sent, task)
        # Tasks handed out in one pass go out together (:meth:`_assign` flushes).
        regions = worker.link.send(message, on_written, write=not self._assigning)
        if task is not None:
            task.regions = regions

    def _assign(self) -> None:
        if not (self._queue or self._retry):  # nothing to hand out
            return
        self._assigning = True
        try:
            super()._assign()
        finally:
            self._assigning = False
            for worker in self._workers:
                worker.link.flush()

    def _take(self, worker: _Worker, messages: list[Any]) -> None:
        answers = sum(message != _READY for message in messages)
        for task in islice(worker.tasks, answers):  # answered in the order sent
            worker.link.answered(task.regions)
        super()._take(worker, messages)

    def _pending(self, worker: _Worker) -> list[Any]:
        return list(worker.link.read_pending())

    def _disconnect(self, worker: _Worker) -> None:
        worker.link.stop()
        worker.conn.close()

    def submit(
        self, function: Callable[..., Any], *args: Any, block: bool = False, **kwargs: Any
    ) -> Future[Any]:
        """Queue ``function(*args, **kwargs)`` and send it to a worker at once if one has
        room; ``block`` must stay False (the loop's thread must never wait)."""
        future = super().submit(function, *args, block=block, **kwargs)
        if not self._handling:  # else the handler running now (or :meth:`batch`) sends it
            self._event(None)
        return future

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Hand out the tasks submitted inside together, on leaving: one pass of the pool
        and one write per worker for them all, not one per task."""
        if self._handling:  # inside a handler or a batch already: it hands them out
            yield
            return
        self._handling = True
        try:
            yield
        finally:
            self._handling = False
        self._event(None)

    def _wake(self) -> None:  # called with the lock held: only say there is work
        self._pump_pending = True

    def close(self) -> None:
        """Kill every worker now; tasks not finished fail with :class:`PoolClosed`."""
        if self._shut:
            return
        self._shut = self._closed = True
        self._cancel_timer()
        self._shutdown()
        self._flush()

    def _take_and_check(self, worker: _Worker, messages: list[Any]) -> None:
        if worker in self._workers:
            self._take(worker, messages)
            self._check(worker, alive=True)

    def _lost(self, worker: _Worker) -> None:
        """End of file on a worker's socket: it exited (or is exiting: wait for its code)."""
        if worker in self._workers:
            worker.process.join(_EXIT_WAIT_SECONDS)
            if worker.process.exitcode is None:  # alive but no use (a garbled stream)
                worker.process.kill()
            self._check(worker, alive=False)

    def _event(self, handler: Callable[..., None] | None, *args: Any) -> None:
        """Run ``handler``, then hand out tasks, enforce deadlines, reap, and only then
        resolve the futures settled meanwhile."""
        if self._closed:
            return
        self._handling = True
        try:
            if handler is not None:
                handler(*args)
            self._pump_pending = True
            while self._pump_pending and not self._closed:
                self._pump_pending = False
                self._respawn()
                self._assign()
                self._expire()
                self._reap()
                self._flush()  # callbacks that submit set _pump_pending
        finally:
            self._handling = False
        if self._closed:  # broken: workers kept failing to start
            self.close()
        else:
            self._schedule_deadline()

    def _expire(self) -> None:
        """Pass over the workers' deadlines only once the timer set for the earliest is
        due (or none is set): every event ran a pass over all of them, and with 15
        workers the pool's events were 0.7 ms of a 16-core crawl's process per page
        (cProfile)."""
        if self._timer_at is None or self._loop.seconds() >= self._timer_at:
            super()._expire()

    def _on_deadline(self) -> None:
        self._timer = self._timer_at = None
        self._event(None)

    def _schedule_deadline(self) -> None:
        if self._timer is not None and not self._respawns:
            # A deadline set since the timer is ``timeout`` after a moment at or after
            # the timer was set, so never earlier than the deadlines it was set for:
            # the timer stays the earliest (firing early at worst, when that task
            # ended in time: then the pass looks again and sets the next).
            return
        wait = self._next_deadline()
        if wait is None:
            self._cancel_timer()
            return
        at = self._loop.seconds() + wait
        if self._timer is not None and self._timer_at is not None and self._timer_at <= at:
            return  # an earlier (or the same) wake-up is set: _expire looks at them all
        self._cancel_timer()
        self._timer = self._loop.callLater(wait, self._on_deadline)
        self._timer_at = at

    def _cancel_timer(self) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = self._timer_at = None


def _mark_sent(task: _Task) -> None:
    """The worker has all of ``task`` now: its deadline counts from here."""
    task.sent = time.monotonic()


#: Seconds to wait, after a worker's socket closed, for its exit code.
_EXIT_WAIT_SECONDS = 1.0
