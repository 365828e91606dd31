"""Worker processes driven by the caller's event loop: a deadline per task, nothing left behind.

Not ``concurrent.futures.ProcessPoolExecutor``: it cannot kill the one worker stuck
on one page, never recycles a worker, and its workers outlive a parent killed by
SIGTERM. Here each worker has a socket of its own (:mod:`._worker`), and the pool
no thread: the loop its caller runs (Twisted's reactor, or
:class:`~._loop.SelectorLoop`: anything with the reactor's ``addReader``,
``addWriter``, ``removeReader``, ``removeWriter`` and ``callLater``) watches the
sockets, so a reply is handed to the caller in the turn it is read, and a page is
written without ever blocking. Nothing here imports Twisted or Scrapy.
"""

from __future__ import annotations

import atexit
import logging
import pickle
import socket
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

from ._start import _main_hidden, default_context, warm_up_extractor
from ._worker import HEADER, READY, frame, worker_main

__all__ = ["EventPool", "PoolClosed", "PoolError", "RemoteError", "TaskTimeout", "WorkerDied"]

logger = logging.getLogger(__name__)

#: Tasks sent ahead to each worker: its next page is there when it ends one.
PREFETCH = 2
#: Workers that die before they are ready, in a row, at least, before the pool gives up...
MAX_START_FAILURES = 5
#: ... and seconds since the first of them at least: a pool that cannot start a worker
#: for this long will not, and a crawl must stop rather than pass its pages on unread.
START_GIVE_UP_SECONDS = 20.0
#: Seconds before a worker that failed to start is replaced: doubled per failure in a
#: row, up to :data:`MAX_START_BACKOFF` (a fault that passes costs little, one that
#: stays does not spin).
START_BACKOFF = 0.1
MAX_START_BACKOFF = 4.0
#: Seconds to wait for a killed worker's exit, and for the exit code of one whose
#: socket closed.
REAP_SECONDS = 5.0
EXIT_WAIT_SECONDS = 1.0
#: Bytes read from a worker's socket per turn of the loop.
READ_SIZE = 1 << 20
#: Send buffer asked for each worker's socket (the system caps it): a large page in
#: one write rather than a write per default-sized buffer and a turn of the loop.
SEND_BUFFER = 4 << 20


class PoolError(Exception):
    """A task the pool could not run to its end."""


class TaskTimeout(PoolError):
    """The task ran past its deadline; its worker was killed and replaced."""


class WorkerDied(PoolError):
    """The worker exited (crash, out of memory, killed) while running the task."""


class PoolClosed(PoolError):
    """The pool was closed before the task ran."""


class RemoteError(PoolError):
    """The task raised in its worker; ``str()`` carries the worker's traceback."""


#: What the caller is told when a task ends: ``(True, result)`` or ``(False, error)``.
Settle = Callable[[bool, Any], object]


@dataclass(eq=False)
class _Task:
    parts: list[bytes]  # its frame, pickled when submitted
    settle: Settle
    sent: float | None = None  # when the worker had all of it (monotonic)


class _Link:
    """The parent's end of one worker's socket, registered with the loop (Twisted's
    ``IReadDescriptor`` and ``IWriteDescriptor``: :mod:`._reactor` declares them)."""

    def __init__(
        self,
        loop: Any,
        sock: socket.socket,
        on_messages: Callable[[list[Any]], None],
        on_eof: Callable[[], None],
    ) -> None:
        sock.setblocking(False)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:  # not allowed: the default buffer works too, in more writes
            pass
        self._loop = loop
        self._sock = sock
        self._on_messages = on_messages
        self._on_eof = on_eof
        self._inbox = bytearray()
        self._chunk = bytearray(READ_SIZE)  # read into: not a new megabyte per read
        # What is left to write, each part with what to call once it is written.
        self._outbox: deque[tuple[memoryview, Callable[[], None] | None]] = deque()
        self._writing = False  # registered as a writer: the socket was full
        self.open = True
        loop.addReader(self)

    def fileno(self) -> int:
        return self._sock.fileno()

    def logPrefix(self) -> str:  # noqa: N802 - Twisted's name
        return "scrapy-cx-worker"

    def send(self, parts: list[bytes], on_written: Callable[[], None] | None = None) -> None:
        """Queue a frame; ``on_written`` is called once all of it is written. Nothing is
        written before :meth:`flush`, so that tasks handed out together go in one call."""
        if self.open:
            self._outbox.extend((memoryview(part), None) for part in parts[:-1])
            self._outbox.append((memoryview(parts[-1]), on_written))

    def flush(self) -> None:
        """Write what the socket takes now; the loop writes the rest when it can."""
        if self._writing or not self._outbox or not self.open:
            return
        self.doWrite()
        if self._outbox and self.open:
            self._writing = True
            self._loop.addWriter(self)

    def doWrite(self) -> None:  # noqa: N802 - Twisted's name
        while self._outbox:
            try:
                written = self._sock.sendmsg([part for part, _ in list(self._outbox)[:64]])
            except BlockingIOError:
                return
            except OSError:  # the worker is gone: its end of file comes to doRead
                self._outbox.clear()
                break
            while self._outbox and len(self._outbox[0][0]) <= written:
                head, on_written = self._outbox.popleft()
                written -= len(head)
                if on_written is not None:
                    on_written()
            if written:  # the socket is full inside this part: the rest when writable
                head, on_written = self._outbox[0]
                self._outbox[0] = (head[written:], on_written)
                return
        if self._writing:
            self._writing = False
            self._loop.removeWriter(self)

    def doRead(self) -> None:  # noqa: N802 - Twisted's name
        messages = self.read()
        if messages is None:
            self.lost()
        elif messages:
            self._on_messages(messages)

    def read(self) -> list[Any] | None:
        """The messages complete so far; None at end of file or on a garbled stream."""
        messages = []
        try:
            while True:
                count = self._sock.recv_into(self._chunk)
                if not count:
                    return None
                with memoryview(self._chunk) as chunk:
                    self._inbox += chunk[:count]
                if count < READ_SIZE:
                    break
        except BlockingIOError:
            pass
        except OSError:
            return None
        try:
            start = 0
            while len(self._inbox) - start >= HEADER.size:
                (size,) = HEADER.unpack_from(self._inbox, start)
                end = start + HEADER.size + size
                if len(self._inbox) < end:
                    break
                with memoryview(self._inbox)[start + HEADER.size : end] as payload:
                    messages.append(pickle.loads(payload))
                start = end
            del self._inbox[:start]
        except Exception:  # noqa: BLE001 - a garbled stream: the worker is no use any more
            logger.exception("scrapy-cx: unreadable message from a worker: replacing it")
            return None
        return messages

    def connectionLost(self, reason: object) -> None:  # noqa: N802 - Twisted's name
        """The loop gave up on the socket (an error in a handler): replace the worker."""
        self.lost()

    def lost(self) -> None:
        if self.open:
            self.stop()
            self._on_eof()

    def stop(self) -> None:
        """Stop watching and close the socket: the worker reads end of file and exits."""
        if self.open:
            self.open = False
            self._outbox.clear()
            self._writing = False
            self._loop.removeReader(self)
            self._loop.removeWriter(self)
            self._sock.close()


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    link: _Link = field(init=False)
    ready: bool = False
    tasks: deque[_Task] = field(default_factory=deque)  # sent, in order; the first runs
    done: int = 0
    finished: float = 0.0  # when its last task ended, by its own report (monotonic)


class EventPool:
    """``workers`` processes running submitted calls, waited on in ``loop``.

    ``timeout`` (seconds, None for none) is each task's deadline, from when the worker
    had it and had ended the one before (by its own clock); a reply already written is
    read before a task is judged late, so a parent held elsewhere does not turn a
    finished task into a timeout. ``warm_up`` runs in each new worker, outside any
    deadline; ``prefetch`` tasks go ahead to each worker; ``max_tasks`` (0: never)
    retires a worker, bounding a leak; ``capacity`` (None: no bound) bounds the tasks
    not settled. A worker that dies before it is ready is replaced after a back-off;
    when none is for :data:`START_GIVE_UP_SECONDS` (and :data:`MAX_START_FAILURES`
    tries) the pool is ``broken`` (why) and every task fails with :class:`PoolClosed`.
    ``timeouts``, ``deaths``, ``recycled``, ``start_failures`` and ``cpu_seconds`` count.
    """

    def __init__(
        self,
        workers: int,
        *,
        loop: Any,
        timeout: float | None = None,
        max_tasks: int = 0,
        capacity: int | None = None,
        context: BaseContext | None = None,
        warm_up: Callable[[], object] | None = warm_up_extractor,
        prefetch: int = PREFETCH,
    ) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        if prefetch < 1:
            raise ValueError("a worker needs at least one task at a time (prefetch >= 1)")
        self.size = workers
        self.timeout = timeout if timeout else None
        self.max_tasks = max_tasks
        self.prefetch = prefetch
        self.capacity = capacity
        self.timeouts = self.deaths = self.recycled = self.start_failures = 0
        self.cpu_seconds = 0.0
        self.broken: str | None = None  # why the pool gave up, if it did
        self._loop = loop
        self._warm_up = warm_up
        self._context = context or default_context()
        self._queue: deque[_Task] = deque()
        self._unsettled = 0
        self._closed = False
        self._handling = False  # inside _event (or a batch): it hands out what is queued
        self._again = False
        # Tasks settled while the pool's state changes, told to their callers after it:
        # a caller's callback may submit again.
        self._settled: deque[tuple[Settle, bool, Any]] = deque()
        self._failing_since: float | None = None  # the first start failure in a row
        self._failures_in_row = 0
        self._respawns: list[float] = []  # when each worker owed after a failed start starts
        self._retiring: list[BaseProcess] = []
        self._timer: Any = None
        self._timer_at: float | None = None
        # At the interpreter's exit, before multiprocessing's own handler (registered
        # when it was imported) terminates the workers and waits on every child.
        atexit.register(self._at_exit)
        self._workers = [self._spawn() for _ in range(workers)]

    # --- caller side ------------------------------------------------------------------

    def submit(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        """``function(*args, **kwargs)`` in a worker (``function`` importable by name):
        a :class:`~concurrent.futures.Future` settled in the loop's thread."""
        future: Future[Any] = Future()
        self.run(partial(_settle_future, future), function, *args, **kwargs)
        return future

    def run(self, settle: Settle, function: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Queue ``function(*args, **kwargs)``; ``settle(ok, result_or_error)`` is called
        in the loop's thread when it ends. Raises :class:`PoolError` at ``capacity``."""
        if self.capacity is not None and self._unsettled >= self.capacity:
            raise PoolError("pool queue is full")
        if self._closed:
            settle(False, PoolClosed(self.broken or "pool is closed"))
            return
        try:
            parts = frame((function, args, kwargs))
        except Exception as exc:  # noqa: BLE001 - e.g. an unpicklable argument
            settle(False, RemoteError(f"cannot send the task: {exc!r}"))
            return
        self._unsettled += 1
        self._queue.append(_Task(parts, settle))
        if self._handling:  # the handler running now (or the batch) hands it out
            self._again = True
        else:
            self._event(None)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Hand out the tasks submitted inside together, on leaving: one write per worker
        for them all, not one per task."""
        if self._handling:
            yield
            return
        self._handling = True
        try:
            yield
        finally:
            self._handling = False
        self._event(None)

    def close(self) -> None:
        """Kill every worker now; tasks not finished fail with :class:`PoolClosed`."""
        atexit.unregister(self._at_exit)
        if self._closed and not self._workers:
            return
        self._closed = True
        self._cancel_timer()
        error = PoolClosed(self.broken or "pool closed")
        self._at_exit()  # kills them all
        for worker in self._workers:
            worker.link.stop()
            self._settled.extend((task.settle, False, error) for task in worker.tasks)
        self._settled.extend((task.settle, False, error) for task in self._queue)
        self._workers, self._retiring, self._queue = [], [], deque()
        self._flush()

    def backlog(self) -> int:
        """The fewest tasks any worker holds (running and sent ahead); 0 while one starts."""
        if not self._workers or not all(worker.ready for worker in self._workers):
            return 0
        return min(len(worker.tasks) for worker in self._workers)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and monitoring)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def _at_exit(self) -> None:
        """Kill the workers: a pool whose loop still runs (``scrapy shell``'s reactor
        thread) would otherwise replace them as multiprocessing's handler kills them,
        and that handler then waited on the new ones for good."""
        self._closed = True
        processes = self._retiring + [worker.process for worker in self._workers]
        for process in processes:
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join(REAP_SECONDS)

    # --- the loop's side --------------------------------------------------------------

    def _spawn(self) -> _Worker:
        parent, child = socket.socketpair()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=worker_main, args=(child, self._warm_up), name="scrapy-cx-worker", daemon=True
        )
        with _main_hidden():
            process.start()
        child.close()
        worker = _Worker(process)
        on_messages = partial(self._event, self._take, worker)
        on_eof = partial(self._event, self._lost, worker)
        worker.link = _Link(self._loop, parent, on_messages, on_eof)
        return worker

    def _event(self, handler: Callable[..., None] | None, *args: Any) -> None:
        """Run ``handler``, then hand out tasks, enforce deadlines, reap, and only then
        tell the callers of the tasks settled meanwhile."""
        if self._closed:
            return
        self._handling = True
        try:
            if handler is not None:
                handler(*args)
            self._again = True
            while self._again and not self._closed:
                self._again = False
                self._respawn()
                self._assign()
                self._reap()
                self._flush()  # callbacks that submit set _again
        finally:
            self._handling = False
        if self.broken is not None:
            self.close()
        elif not self._closed:
            self._schedule()

    def _assign(self) -> None:
        """Top each ready worker up to ``prefetch`` once it holds half of that or less:
        with a deep prefetch (the bulk command's) tasks go in batches, one write and one
        wake-up of the worker for several."""
        for worker in self._workers:
            if not worker.ready or len(worker.tasks) > self.prefetch // 2 or not self._queue:
                continue
            while self._queue and len(worker.tasks) < self.prefetch:
                if self.max_tasks and worker.done + len(worker.tasks) >= self.max_tasks:
                    break  # it retires after these
                task = self._queue.popleft()
                task.sent = None  # a task sent again starts its clock again
                worker.tasks.append(task)
                worker.link.send(task.parts, partial(_mark_sent, task))
            worker.link.flush()

    def _take(self, worker: _Worker, messages: list[Any]) -> None:
        """Settle the tasks ``messages`` (from ``worker``, in order) answer, then retire
        ``worker`` if it has done its share."""
        if worker not in self._workers:
            return
        for message in messages:
            if message == READY:
                worker.ready = True
                self._failures_in_row = 0
                self._failing_since = None
                continue
            ok, value, cpu, worker.finished = message
            self.cpu_seconds += cpu
            worker.done += 1
            task = worker.tasks.popleft()
            self._settle(task, ok, value if ok else RemoteError(value))
        if self.max_tasks and worker.done >= self.max_tasks and not worker.tasks:
            self.recycled += 1
            self._replace(worker, None)

    def _lost(self, worker: _Worker) -> None:
        """End of file on a worker's socket: it exited (or is exiting: wait for its code)."""
        if worker in self._workers:
            worker.process.join(EXIT_WAIT_SECONDS)
            if worker.process.exitcode is None:  # alive but no use (a garbled stream)
                worker.process.kill()
            code = worker.process.exitcode
            self._replace(worker, WorkerDied(f"worker exited with code {code}"))

    def _settle(self, task: _Task, ok: bool, value: Any) -> None:
        self._unsettled -= 1
        self._settled.append((task.settle, ok, value))

    def _flush(self) -> None:
        while self._settled:
            settle, ok, value = self._settled.popleft()
            try:
                settle(ok, value)
            except Exception:  # noqa: BLE001 - a caller's bug must not stop the pool
                logger.exception("scrapy-cx: a pool task's callback failed")

    def _replace(self, worker: _Worker, error: PoolError | None) -> None:
        """Swap ``worker`` for a new one: its running task fails with ``error``, the tasks
        sent after it go to another worker."""
        if worker.tasks and error is not None:
            self.deaths += isinstance(error, WorkerDied)
            self._settle(worker.tasks.popleft(), False, error)
        self._queue.extendleft(reversed(worker.tasks))
        worker.tasks.clear()
        worker.link.stop()
        self._workers.remove(worker)
        self._retiring.append(worker.process)
        self._again = True
        if worker.ready:
            self._workers.append(self._spawn())
        else:
            self._failed_start(worker)

    def _failed_start(self, worker: _Worker) -> None:
        """``worker`` died before it was ready: start another after a back-off, or give up
        when none has started for long enough."""
        now = time.monotonic()
        self.start_failures += 1
        self._failures_in_row += 1
        if self._failing_since is None:
            self._failing_since = now
        failing = now - self._failing_since
        if self._failures_in_row >= MAX_START_FAILURES and failing >= START_GIVE_UP_SECONDS:
            self.broken = (
                f"{self._failures_in_row} workers in a row exited before they were ready, "
                f"over {failing:.0f} s (last exit code {worker.process.exitcode})"
            )
            return
        backoff = min(MAX_START_BACKOFF, START_BACKOFF * 2 ** (self._failures_in_row - 1))
        self._respawns.append(now + backoff)

    def _respawn(self) -> None:
        """Start the workers owed whose back-off is over."""
        now = time.monotonic()
        for at in [at for at in self._respawns if at <= now]:
            self._respawns.remove(at)
            self._workers.append(self._spawn())

    def _reap(self) -> None:
        for process in [p for p in self._retiring if p.exitcode is not None]:
            process.join(0)
            self._retiring.remove(process)

    # --- deadlines --------------------------------------------------------------------

    def _deadline(self, worker: _Worker) -> float | None:
        """When ``worker``'s running task is late, None if it runs none."""
        head = worker.tasks[0] if worker.tasks else None
        if self.timeout is None or head is None or head.sent is None:
            return None
        return max(head.sent, worker.finished) + self.timeout

    def _schedule(self) -> None:
        """Set the timer for the next deadline or owed start, unless one as early is set."""
        moments = [d for d in map(self._deadline, self._workers) if d is not None]
        moments += self._respawns
        if not moments:
            return
        at = min(moments)
        if self._timer_at is not None and self._timer_at <= at:
            return
        self._cancel_timer()
        self._timer = self._loop.callLater(max(0.0, at - time.monotonic()), self._on_timer)
        self._timer_at = at

    def _on_timer(self) -> None:
        self._timer = self._timer_at = None
        self._event(self._expire)

    def _expire(self) -> None:
        """Kill and replace each worker whose task is past its deadline, reading what it
        has written first: a reply that waited on a busy parent is not late."""
        now = time.monotonic()
        for worker in list(self._workers):
            deadline = self._deadline(worker)
            if deadline is None or deadline > now:
                continue
            messages = worker.link.read()
            if messages is None:
                self._lost(worker)
                continue
            self._take(worker, messages)
            deadline = self._deadline(worker)
            if worker in self._workers and deadline is not None and deadline <= now:
                self.timeouts += 1
                worker.process.kill()
                worker.process.join(REAP_SECONDS)
                self._replace(worker, TaskTimeout(f"over {self.timeout:g} s"))

    def _cancel_timer(self) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = self._timer_at = None


def _mark_sent(task: _Task) -> None:
    """The worker has all of ``task`` now: its deadline counts from here."""
    task.sent = time.monotonic()


def _settle_future(future: Future[Any], ok: bool, value: Any) -> None:
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
