"""Worker processes with a deadline per task, a bounded queue, and nothing left behind.

Shared by the crawl (the downloader middleware) and ``scrapy-cx extract``. Not
``concurrent.futures.ProcessPoolExecutor``, because it cannot kill the one worker
stuck on one page (a hung task hangs the pool; a dead worker breaks all of it),
never recycles a worker, and its workers inherit the queue's pipe, so a parent
killed by SIGTERM leaves them running. Here each worker has its own pipe: a task
past its deadline gets its worker killed and replaced, a dead worker is replaced,
a worker is retired after ``max_tasks`` tasks, and a worker whose parent is gone
reads end-of-file and exits. In :class:`WorkerPool` one dispatcher thread in the
parent does all the waiting; callers get ``concurrent.futures.Future`` objects.
The crawl and the bulk command drive the same logic from the loop they run instead
(:mod:`scrapy_cx.pool._evented`), with no thread.

Nothing here imports Scrapy.
"""

from __future__ import annotations

import atexit
import mmap
import multiprocessing
import multiprocessing.util  # registers its exit handler now, so ours (below) runs first
import os
import pickle
import queue
import select
import selectors
import signal
import struct
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any
from weakref import WeakSet

from ._shared import SHARED, RingHandle, read_regions

__all__ = [
    "PoolClosed",
    "PoolError",
    "RemoteError",
    "TaskTimeout",
    "WorkerDied",
    "WorkerPool",
    "auto_workers",
    "resolve_workers",
]

#: Modules the fork server imports once, so a new worker starts in milliseconds...
PRELOAD = ["scrapy_cx.extract"]
#: ... and with the extractor warmed there too (:mod:`._forkserver`): each worker
#: inherits what the server built.
WARM_PRELOAD = ["scrapy_cx.pool._forkserver"]
#: Workers that die before they are ready, in a row, at least, before the pool gives up...
MAX_START_FAILURES = 5
#: ... and seconds since the first of them at least: a pool that cannot start a
#: worker for this long will not, and a crawl must stop rather than pass its pages
#: on without extraction.
START_GIVE_UP_SECONDS = 20.0
#: Seconds before a worker that failed to start is replaced: doubled per failure in a
#: row, up to :data:`MAX_START_BACKOFF` (a fault that passes costs little, one that
#: stays does not spin).
START_BACKOFF = 0.1
MAX_START_BACKOFF = 4.0
#: Tasks sent ahead to each worker: it starts the next page as soon as it is done with
#: one, without waiting for the parent (whose threads share one GIL with the crawl).
PREFETCH = 2
#: Seconds to wait for a worker to exit after it is killed.
_REAP_SECONDS = 5.0
_READY = "ready"


#: Every pool not yet closed, so the interpreter's exit can stop them first.
_LIVE: WeakSet[WorkerPool] = WeakSet()
_exiting = False


@atexit.register
def _stop_at_exit() -> None:
    """Kill every pool's workers before multiprocessing's own exit handler runs.

    That handler terminates daemonic children and then joins every child still
    alive: a pool whose crawl never stopped (``scrapy shell``, a script that
    returns with the reactor running in a thread) would see its workers die and
    start new ones, which the handler then waited on for good, and the killed
    workers' pipes raised EOFError tracebacks on the way out. No new worker
    starts from here on; nothing is waited on but the killed workers' exits.
    """
    global _exiting
    _exiting = True
    for pool in list(_LIVE):
        pool._closed = True
        processes = [w.process for w in list(pool._workers)] + list(pool._retiring)
        for process in processes:
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join(_REAP_SECONDS)


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


#: Workers ``auto`` starts at least: with one, a page that takes its full deadline
#: holds up every other page's article meanwhile.
MIN_AUTO_WORKERS = 2


def auto_workers() -> int:
    """One worker per core this process may run on, less one for the process itself,
    and at least :data:`MIN_AUTO_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(MIN_AUTO_WORKERS, cores - 1)


def resolve_workers(value: object) -> int:
    """``auto`` -> :func:`auto_workers`; a number (also as text) >= 0 -> itself."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return auto_workers()
    number = -1
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    if number < 0:
        raise ValueError(f"workers must be 'auto' or a number >= 0, not {value!r}")
    return number


def prestart(context: BaseContext | None = None) -> None:
    """Start ``context``'s fork server now (default: :func:`default_context`), so that
    its imports and warm-up overlap what the caller does before its first page:
    the first worker's start waits for them (seconds), and a crawl's reactor with it."""
    context = context or default_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def default_context(*, warm: bool = True) -> BaseContext:
    """A fork server where there is one: a crawl's process has threads, which plain
    ``fork`` must not copy, and ``spawn`` would import the extractor per worker.

    ``warm``: the server also warms the extractor for all its workers (seconds, once;
    :mod:`._forkserver`). A process has one fork server: the first pool to start it
    decides."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(WARM_PRELOAD if warm else PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


_WARM_UP_PAGE = (
    "<html lang='en'><head><title>Warm-up page | Gazette</title></head><body>"
    "<h1>Warm-up page</h1><p>Published on 3 March 2024 at 09:00, 2 hours ago.</p>"
    "<p>This paragraph is long enough to be taken for the main text of an article.</p>"
    "</body></html>"
)


def warm_up_extractor() -> None:
    """Extract one small page: a worker's first real page then costs what the others do
    (the first date parse loads dateparser's language data, seconds on a busy machine).
    Every format is made, so whichever ``CX_FORMATS`` asks for is warm too."""
    from ..article import FORMATS
    from ..extract import extract_article

    extract_article(_WARM_UP_PAGE, "http://warm.up/", formats=FORMATS)


#: A date string that no dateparser locale takes: trying it builds every locale's
#: word splitter, which any later string no locale takes would otherwise build.
_NO_LOCALE_DATE = "0 qqqq 0"


def warm_up_locales() -> None:
    """Build dateparser's splitter of every locale now, once, in the fork server.

    Asked for a date with no language given, dateparser tries its ~200 locales in
    turn and compiles a word-splitting regex for each one it tries; a string none
    takes tries them all. htmldate's scan of an undated story sends it such
    strings on most pages it reads, so each worker paid that in full on its first
    one: 3.2-3.5 s of CPU and 55 MB here, and again every ``max_tasks`` pages
    (7 ms a page at the crawl's 500). On 16 cores wceb_dev's pages cost the
    workers 44.9 ms each in a crawl, 19 in one warm process.
    """
    import dateparser

    dateparser.DateDataParser().get_date_data(_NO_LOCALE_DATE)


def warm_up_for(extract: Callable[..., object], warm_up: Callable[[], object]) -> None:
    """Run ``warm_up``; ``extract`` is an argument only so that it is unpickled, that is
    its module imported, when the worker starts. A subclass's extractor in a module of
    its own (which may import Scrapy: seconds on a busy machine) was imported by the
    first page's task, inside that page's deadline: the first page of each new worker
    timed out under load."""
    del extract
    warm_up()


#: Leads a task whose large bytes follow it as frames of their own (``pickle`` protocol
#: 5's out-of-band buffers: a crawl's page is written from the response's own bytes,
#: never copied into a pickle first), then the count of those frames.
OUT_OF_BAND = b"O"
_COUNT = struct.Struct("!I")

#: A task as the worker's reader hands it on: the pickle, and its out-of-band buffers.
_Message = tuple[bytes, list[bytes]]


def _read_tasks(
    conn: Connection, inbox: queue.SimpleQueue[_Message | None], ring: mmap.mmap | None = None
) -> None:
    """Take every task off the pipe as soon as it comes (None: the parent is gone).

    The pool sends a worker its next page while the worker is busy on one, and a
    page is often larger than the pipe holds (~200 KB): unread, it would hold the
    pool's one dispatcher thread in its send, so no other worker got a page or
    had its article taken until this one finished, and a large article sent back
    meanwhile would leave both ends waiting on each other for good.
    """
    while True:
        try:
            data = conn.recv_bytes()
            buffers = []
            if data[:1] == OUT_OF_BAND:
                (count,) = _COUNT.unpack_from(data, 1)
                buffers = [conn.recv_bytes() for _ in range(count)]
                data = data[1 + _COUNT.size :]
            elif data[:1] == SHARED and ring is not None:  # out of the ring now
                data, buffers = read_regions(data, ring)
            inbox.put((data, buffers))
        except (EOFError, OSError):
            inbox.put(None)
            return


def _worker_main(
    conn: Connection, warm_up: Callable[[], object] | None, ring: RingHandle | None = None
) -> None:
    """Run ``(function, args, kwargs)`` tasks from ``conn`` until told to stop or orphaned;
    a page the parent put in ``ring`` (:mod:`._shared`) is read from there."""
    # Ctrl-C reaches the whole process group: the parent decides what happens to
    # the page in hand, so a worker does not die of it half way through.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    mapped = ring.attach() if ring is not None else None
    if warm_up is not None:
        warm_up()
    inbox: queue.SimpleQueue[_Message | None] = queue.SimpleQueue()
    threading.Thread(target=_read_tasks, args=(conn, inbox, mapped), daemon=True).start()
    conn.send(_READY)
    while True:
        message = inbox.get()
        if message is None:  # the parent is gone
            return
        started = time.process_time()
        reply: tuple[bool, Any]
        task: Any = None
        try:
            # Here, not in recv(): a function it cannot import is a reply.
            task = pickle.loads(message[0], buffers=message[1])
            if task is None:
                return
            function, args, kwargs = task
            reply = (True, function(*args, **kwargs))
        except BaseException:  # noqa: BLE001 - reported to the parent, the worker goes on
            reply = (False, traceback.format_exc())
        message = task = args = kwargs = None  # a page's bytes go now, not when the next page comes
        try:
            # When it ended, on the clock all processes share: the parent starts the next
            # task's deadline from it, not from when it got round to reading this reply.
            conn.send((*reply, time.process_time() - started, time.monotonic()))
        except (BrokenPipeError, OSError):
            return


def _readable(conn: Connection) -> bool:
    """Whether ``conn`` has something to read now (a message, or its end).

    ``Connection.poll`` builds a selector per call (``multiprocessing.connection.wait``),
    once per message; one ``poll`` system call does here."""
    if _poll is None:  # no poll(2) on this system
        return conn.poll()
    poller = _poll()
    poller.register(conn.fileno(), _POLL_IN)
    return bool(poller.poll(0))


_poll = getattr(select, "poll", None)
_POLL_IN = getattr(select, "POLLIN", 1)


class _main_hidden:  # noqa: N801 - used as a statement, like contextlib's
    """Start a worker without running the parent's ``__main__`` script in it.

    A fork server or spawned process imports the script the parent was started
    with; a crawl script without an ``if __name__ == "__main__"`` guard (as in
    Scrapy's "run from a script" docs) would start its whole crawl again in
    every worker. Workers need only importable modules, so the script is hidden
    from multiprocessing while a worker starts.
    """

    def __enter__(self) -> None:
        main = sys.modules.get("__main__")
        self._saved = (main, getattr(main, "__file__", None), getattr(main, "__spec__", None))
        if main is not None:
            main.__spec__ = None
            if self._saved[1] is not None:
                del main.__file__

    def __exit__(self, *exc: object) -> None:
        main, path, spec = self._saved
        if main is not None:
            main.__spec__ = spec
            if path is not None:
                main.__file__ = path


@dataclass
class _Task:
    call: tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]
    future: Future[Any]
    sent: float | None = None  # when the worker had all of it (monotonic)
    regions: int = 0  # of its worker's ring (EventPool) its pages hold until answered


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    link: Any = None  # the reactor's reader and writer of ``conn`` (ReactorPool)
    ready: bool = False
    tasks: deque[_Task] = field(default_factory=deque)  # sent, in order; the first is running
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    finished: float = 0.0  # when its last task ended, by its own report (monotonic)
    watched: bool = False  # its pipe and sentinel are in the dispatcher's selector


class WorkerPool:
    """``workers`` processes running submitted calls, at most ``capacity`` at once.

    ``timeout`` (seconds, None for none) is each task's deadline, counted from
    the moment a worker takes it; a new worker runs ``warm_up`` before it takes
    any, outside the deadline. Up to ``prefetch`` tasks are sent ahead to each
    worker (its next one is there the moment it is done with one). ``max_tasks``
    (0: never) retires a worker after that many tasks, bounding what a leak in the
    extractor can grow to. Counters
    ``timeouts``, ``deaths``, ``recycled`` and ``start_failures`` say what happened,
    ``cpu_seconds`` what the finished tasks cost the workers.

    A deadline measures the worker's time: it starts when the worker had the task
    (the task was written and the one before it had ended, by the worker's report),
    and a reply already written is read before a task is judged late, so a parent
    that was busy elsewhere (a crawl's reactor held by a slow callback) does not turn
    a finished task into a timeout. A worker that dies before it is ready is
    replaced after a back-off; when none gets ready for :data:`START_GIVE_UP_SECONDS`
    (and :data:`MAX_START_FAILURES` tries) the pool is broken: ``broken`` says why,
    and every task fails with :class:`PoolClosed`.
    """

    #: What :meth:`submit` returns, and what bounds the tasks pending (``capacity``):
    #: made for any thread here, for the loop's thread alone in an ``EventPool``.
    _future_type: Callable[[], Future[Any]] = Future
    _room_type: Callable[[int], Any] = threading.Semaphore

    def __init__(
        self,
        workers: int,
        *,
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
        self.capacity = capacity or (prefetch + 1) * workers
        self.timeouts = 0
        self.deaths = 0
        self.recycled = 0
        self.start_failures = 0
        self.cpu_seconds = 0.0
        self._warm_up = warm_up
        self._context = context or default_context()
        self._room = self._room_type(self.capacity)
        self._lock = threading.Lock()
        self._queue: deque[_Task] = deque()
        self._retry: deque[_Task] = deque()  # taken from a worker that died before them
        self._closed = False
        self._broken: str | None = None
        self._failing_since: float | None = None  # the first start failure in a row
        self._failures_in_row = 0
        self._respawns: list[float] = []  # when each worker owed after a failed start starts
        # Futures settled while the pool's state is being changed, resolved after it:
        # a future's callbacks may run a caller's code that submits again.
        self._settled: deque[tuple[Future[Any], bool, Any]] = deque()
        self._retiring: list[BaseProcess] = []
        self._workers = [self._spawn() for _ in range(workers)]
        _LIVE.add(self)
        self._start()

    def _start(self) -> None:
        self._wake_r, self._wake_w = self._context.Pipe(duplex=False)
        self._woken = False
        # One selector for the pool's life, each worker's pipe and sentinel registered
        # once: ``multiprocessing.connection.wait`` builds and fills a new one per call,
        # several calls per page, which was most of what the parent paid per page.
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._thread = threading.Thread(target=self._run, name="scrapy-cx-pool", daemon=True)
        self._thread.start()

    # --- caller side ------------------------------------------------------------------

    def submit(
        self, function: Callable[..., Any], *args: Any, block: bool = True, **kwargs: Any
    ) -> Future[Any]:
        """Queue ``function(*args, **kwargs)``; with ``capacity`` tasks pending, wait for room
        (``block``) or raise :class:`PoolError`. ``function`` must be importable by name."""
        if not self._room.acquire(blocking=block):
            raise PoolError("pool queue is full")
        future: Future[Any] = self._future_type()
        future.add_done_callback(lambda _: self._room.release())
        with self._lock:
            if self._closed or self._broken:
                future.set_exception(PoolClosed(self._broken or "pool is closed"))
                return future
            self._queue.append(_Task((function, args, kwargs), future))
            self._wake()
        return future

    def close(self) -> None:
        """Kill every worker now; tasks not finished fail with :class:`PoolClosed`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake()
        if threading.current_thread() is not self._thread:
            self._thread.join()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def broken(self) -> str | None:
        """Why the pool gave up (its workers kept failing to start), or None."""
        return self._broken

    def backlog(self) -> int:
        """The fewest tasks any worker holds (running and sent ahead); 0 while one is
        starting. Read in the dispatching thread (an ``EventPool``'s loop)."""
        workers = list(self._workers)
        if not workers or not all(worker.ready for worker in workers):
            return 0
        return min(len(worker.tasks) for worker in workers)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and monitoring)."""
        return [w.process.pid for w in list(self._workers) if w.process.pid is not None]

    def _wake(self) -> None:  # called with the lock held
        if not self._woken:
            self._woken = True
            self._wake_w.send_bytes(b"")

    # --- dispatcher thread ------------------------------------------------------------

    def _spawn(self, *extra: Any) -> _Worker:
        """Start a worker; ``extra``: more arguments of :func:`_worker_main` (its ring)."""
        parent, child = self._context.Pipe()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=_worker_main,
            args=(child, self._warm_up, *extra),
            name="scrapy-cx-worker",
            daemon=True,
        )
        with _main_hidden():
            process.start()
        child.close()
        if _exiting:  # a dispatcher racing the interpreter's exit: start nothing to wait on
            process.kill()
        return _Worker(process, parent)

    def _run(self) -> None:
        try:
            while not self._closed:
                self._respawn()
                self._assign()
                self._flush()
                self._watch()
                ready: list[_Worker] = []
                for key, _ in self._selector.select(self._next_deadline()):
                    if key.data is None:  # the wake-up pipe
                        with self._lock:
                            self._wake_r.recv_bytes()
                            self._woken = False
                    elif not any(key.data is worker for worker in ready):
                        ready.append(key.data)
                for worker in list(self._workers):
                    if any(worker is r for r in ready):
                        self._collect(worker)
                self._expire()
                self._reap()
                self._flush()
        finally:
            self._shutdown()
            self._selector.close()
            self._wake_r.close()
            self._wake_w.close()

    def _watch(self) -> None:
        """Register the pipe and sentinel of each worker started since the last look."""
        for worker in self._workers:
            if not worker.watched:
                self._selector.register(worker.conn, selectors.EVENT_READ, worker)
                self._selector.register(worker.process.sentinel, selectors.EVENT_READ, worker)
                worker.watched = True

    def _settle(self, future: Future[Any], ok: bool, value: Any) -> None:
        self._settled.append((future, ok, value))

    def _flush(self) -> None:
        """Resolve the futures settled so far (their callbacks run here)."""
        while self._settled:
            future, ok, value = self._settled.popleft()
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _send(self, worker: _Worker, message: Any, task: _Task | None = None) -> None:
        """Send ``message`` to ``worker`` (``task``'s, noting when it was sent); raises
        OSError or EOFError if it is gone."""
        worker.conn.send(message)
        if task is not None:
            task.sent = time.monotonic()

    def _assign(self) -> None:
        # A worker is topped up to ``prefetch`` once it holds half of that or less: with
        # a deep prefetch (the bulk command's) its tasks go in batches, one write and one
        # wake-up of the worker for several; with 2 (a crawl's) it is every task.
        for worker in list(self._workers):
            if len(worker.tasks) > self.prefetch // 2:
                continue
            while worker.ready and len(worker.tasks) < self.prefetch:
                if self.max_tasks and worker.done + len(worker.tasks) >= self.max_tasks:
                    break  # it retires after these
                task = self._next_task()
                if task is None:
                    return
                task.sent = None  # a task retried here starts its clock again
                try:
                    self._send(worker, task.call, task)
                except (BrokenPipeError, EOFError, OSError):
                    self._retry.appendleft(task)  # the worker is gone: _collect replaces it
                    break
                except Exception as exc:  # noqa: BLE001 - e.g. an unpicklable argument
                    self._settle(task.future, False, RemoteError(f"cannot send the task: {exc!r}"))
                    continue
                worker.tasks.append(task)

    def _deadline(self, worker: _Worker) -> float | None:
        """When ``worker``'s running task is late: ``timeout`` after the worker started it
        (it had the task, and the one before it had ended), None if it has none yet."""
        head = worker.tasks[0] if worker.tasks else None
        if self.timeout is None or head is None or head.sent is None:
            return None
        return max(head.sent, worker.finished) + self.timeout

    def _next_task(self) -> _Task | None:
        if self._retry:
            return self._retry.popleft()
        with self._lock:
            while self._queue:
                task = self._queue.popleft()
                if task.future.set_running_or_notify_cancel():
                    return task
        return None

    def _next_deadline(self) -> float | None:
        """Seconds until the next deadline or owed worker start, None if there is none."""
        moments = [d for d in map(self._deadline, self._workers) if d is not None]
        moments += self._respawns
        if not moments:
            return None
        return max(0.0, min(moments) - time.monotonic())

    def _collect(self, worker: _Worker) -> None:
        self._take(worker, self._pending(worker))
        self._check(worker, alive=worker.process.is_alive())

    def _pending(self, worker: _Worker) -> list[Any]:
        """The messages ``worker`` has written so far, read without waiting for more."""
        messages = []
        try:
            while _readable(worker.conn):
                messages.append(worker.conn.recv())
        except (EOFError, OSError):
            pass
        return messages

    def _take(self, worker: _Worker, messages: list[Any]) -> None:
        """Settle the tasks ``messages`` (from ``worker``, in order) answer."""
        for message in messages:
            if message == _READY:
                worker.ready = True
                self._failures_in_row = 0
                self._failing_since = None
                continue
            ok, value, cpu, worker.finished = message
            self.cpu_seconds += cpu
            worker.done += 1
            task = worker.tasks.popleft()
            self._settle(task.future, ok, value if ok else RemoteError(value))

    def _check(self, worker: _Worker, *, alive: bool) -> None:
        """Replace ``worker`` if it is gone, retire it if it has done its share."""
        if not alive:
            self._replace(worker, WorkerDied(f"worker exited with code {worker.process.exitcode}"))
        elif self.max_tasks and worker.done >= self.max_tasks and not worker.tasks:
            self.recycled += 1
            try:
                self._send(worker, None)
            except OSError:
                pass
            self._retiring.append(worker.process)
            self._replace(worker, None)

    def _expire(self) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            deadline = self._deadline(worker)
            if deadline is None or deadline > now:
                continue
            # Its reply may be written and unread (this process was busy): read it first.
            self._take(worker, self._pending(worker))
            deadline = self._deadline(worker)
            if deadline is not None and deadline <= now:
                self.timeouts += 1
                worker.process.kill()
                worker.process.join(_REAP_SECONDS)
                self._replace(worker, TaskTimeout(f"over {self.timeout:g} s"), died=False)
            else:  # it was done in time: it may have done its share too
                self._check(worker, alive=True)

    def _replace(self, worker: _Worker, error: PoolError | None, *, died: bool = True) -> None:
        """Swap ``worker`` for a new one: its running task fails with ``error``, the tasks
        sent after it go to another worker."""
        if worker.tasks and error is not None:
            if died:
                self.deaths += 1
            self._settle(worker.tasks.popleft().future, False, error)
        self._retry.extendleft(reversed(worker.tasks))
        worker.tasks.clear()
        self._disconnect(worker)
        self._workers.remove(worker)
        if worker.process not in self._retiring:
            self._retiring.append(worker.process)
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
            self._break(
                f"{self._failures_in_row} workers in a row exited before they were ready, "
                f"over {failing:.0f} s (last exit code {worker.process.exitcode})"
            )
            return
        backoff = min(MAX_START_BACKOFF, START_BACKOFF * 2 ** (self._failures_in_row - 1))
        self._respawns.append(now + backoff)

    def _respawn(self) -> None:
        """Start the workers owed whose back-off is over."""
        now = time.monotonic()
        due = [at for at in self._respawns if at <= now]
        for at in due:
            self._respawns.remove(at)
            self._workers.append(self._spawn())

    def _disconnect(self, worker: _Worker) -> None:
        if worker.watched:  # before the close: a new pipe may get the same number
            self._selector.unregister(worker.conn)
            self._selector.unregister(worker.process.sentinel)
            worker.watched = False
        worker.conn.close()

    def _break(self, reason: str) -> None:
        with self._lock:
            self._broken = reason
        self._closed = True  # _shutdown fails what is queued

    def _reap(self) -> None:
        for process in list(self._retiring):
            if process.exitcode is not None:
                process.join(0)
                self._retiring.remove(process)

    def _shutdown(self) -> None:
        _LIVE.discard(self)
        with self._lock:
            self._closed = True
            queued = list(self._queue)
            self._queue.clear()
        self._flush()
        reason = PoolClosed(self._broken or "pool closed")
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.kill()
            for task in worker.tasks:
                task.future.set_exception(reason)
        for task in self._retry:
            task.future.set_exception(reason)
        for task in queued:
            if task.future.set_running_or_notify_cancel():
                task.future.set_exception(reason)
        for process in self._retiring:
            if process.is_alive():
                process.kill()
        for process in [w.process for w in self._workers] + self._retiring:
            process.join(_REAP_SECONDS)
        for worker in self._workers:
            self._disconnect(worker)
