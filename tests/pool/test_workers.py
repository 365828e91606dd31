"""The worker pool as the crawl and the bulk command drive it, from the loop's thread.

Each pool test runs twice: on a real Twisted reactor of its own (a ``SelectReactor``
instance, not installed as the global one: the crawl's :class:`ReactorPool`, whose
Deferreds are read through :func:`submit`) and on a :class:`SelectorLoop` (the bulk
command's :class:`EventPool`), turned by hand until the results are in. Deadlines are
seconds long and stalls longer, so a loaded machine does not turn a quick task late.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.selectreactor import SelectReactor

from scrapy_cx.pool import (
    EventPool,
    PoolClosed,
    PoolError,
    RemoteError,
    SelectorLoop,
    TaskTimeout,
    WorkerDied,
    _pool,
    default_context,
    resolve_workers,
)
from scrapy_cx.pool._pool import _Link
from scrapy_cx.pool._reactor import ReactorPool
from scrapy_cx.pool._start import auto_workers
from scrapy_cx.pool._worker import frame
from tests.support.faulty import fail_first_starts, never_start

#: Seconds a test may turn its loop before it fails instead of hanging.
LIMIT = 60
#: Larger than what a socket between two processes holds (about 200 KB here), as the
#: bodies of many real pages are.
BIG = 2_000_000


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class TurnedLoop(SelectorLoop):
    """A :class:`SelectorLoop` with the reactor calls these tests turn and inspect it by."""

    def iterate(self, delay: float) -> None:
        self.run_once(delay)

    def getReaders(self) -> list[Any]:  # noqa: N802 - Twisted's name
        return list(self._readers)

    def getWriters(self) -> list[Any]:  # noqa: N802 - Twisted's name
        return list(self._writers)


@pytest.fixture(params=["twisted", "selector"])
def loop(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield SelectReactor() if request.param == "twisted" else TurnedLoop()


def make_pool(loop: Any, workers: int, **options: Any) -> EventPool:
    """The crawl's pool on a reactor, the bulk command's on a :class:`SelectorLoop`."""
    options.setdefault("warm_up", None)
    if isinstance(loop, SelectorLoop):
        return EventPool(workers, loop=loop, **options)
    return ReactorPool(workers, reactor=loop, **options)


def submit(pool: EventPool, function: Callable[..., Any], *args: Any) -> Future[Any]:
    """``pool.submit``, a Deferred (the reactor's pool) read as a Future."""
    result = pool.submit(function, *args)
    if not isinstance(result, Deferred):
        return result
    future: Future[Any] = Future()
    result.addCallbacks(future.set_result, lambda failure: future.set_exception(failure.value))
    return future


def turn_until(loop: Any, done: Callable[[], bool]) -> None:
    """Turn ``loop`` until ``done()``."""
    started = time.monotonic()
    while not done():
        assert time.monotonic() - started < LIMIT, "the pool is stuck"
        loop.iterate(0.05)


def turn(loop: Any, futures: list[Future[Any]]) -> None:
    turn_until(loop, lambda: all(f.done() for f in futures))


def ready(pool: EventPool) -> bool:
    return all(worker.ready for worker in pool._workers)


def links(loop: Any) -> list[Any]:
    return [w for w in loop.getReaders() + loop.getWriters() if isinstance(w, _Link)]


def test_messages_cross_in_any_pieces() -> None:
    loop = TurnedLoop()
    ours, theirs = socket.socketpair()
    got: list[Any] = []
    link = _Link(loop, ours, got.extend, lambda: got.append("eof"))
    messages = [b"", "x", os.urandom(70_000), {"a": (1, 2)}]
    stream = b"".join(b"".join(frame(m)) for m in messages)
    with theirs:
        for start in range(0, len(stream), 999):  # arriving in pieces, cut anywhere
            theirs.sendall(stream[start : start + 999])
            loop.iterate(0.01)
        turn_until(loop, lambda: len(got) == len(messages))
    turn_until(loop, lambda: got[-1:] == ["eof"])
    assert got == [*messages, "eof"] and not link.open and not links(loop)


def test_results_large_pages_and_large_results_cross_without_blocking(loop: Any) -> None:
    # A worker is sent its next page while it sends a large result back: neither end
    # may wait on the other's full socket.
    pool = make_pool(loop, 2)
    try:
        futures = [submit(pool, pow, i, 2) for i in range(5)]
        futures += [submit(pool, bytes, BIG), submit(pool, len, b"x" * BIG)]
        futures += [submit(pool, bytes, BIG), submit(pool, len, b"y" * BIG)]
        turn(loop, futures)
        assert [f.result() for f in futures[:5]] == [i * i for i in range(5)]
        assert [len(f.result()) for f in futures[5::2]] == [BIG, BIG]
        assert [f.result() for f in futures[6::2]] == [BIG, BIG]
        assert pool.cpu_seconds > 0
    finally:
        pool.close()


def test_the_pool_starts_no_thread_and_callbacks_run_in_the_loops(loop: Any) -> None:
    before = threading.active_count()
    pool = make_pool(loop, 1)
    threads: list[threading.Thread] = []
    chained: list[Future[Any]] = []

    def again(done: Future[Any]) -> None:
        threads.append(threading.current_thread())
        chained.append(submit(pool, abs, -done.result()))

    try:
        first = submit(pool, abs, -7)
        first.add_done_callback(again)
        turn(loop, [first])
        turn(loop, chained)
        assert chained[0].result() == 7
        assert threads == [threading.current_thread()]
        assert threading.active_count() == before
    finally:
        pool.close()


def test_a_task_past_its_deadline_is_killed_and_its_worker_replaced(loop: Any) -> None:
    pool = make_pool(loop, 1, timeout=2)
    try:
        turn_until(loop, lambda: ready(pool))
        first = pool.pids()
        hung = submit(pool, time.sleep, 60)
        after = submit(pool, pow, 2, 10)
        turn(loop, [hung, after])
        assert isinstance(hung.exception(), TaskTimeout)
        assert after.result() == 1024  # the queue goes on with the new worker
        assert pool.timeouts == 1 and pool.deaths == 0
        assert pool.pids() != first and not alive(first[0])
    finally:
        pool.close()


def test_a_worker_that_dies_is_replaced_and_an_error_comes_back(loop: Any) -> None:
    pool = make_pool(loop, 1)
    try:
        died = submit(pool, os._exit, 3)
        raised = submit(pool, int, "x")
        fine = submit(pool, pow, 3, 3)
        unimportable = submit(pool, lambda: None)
        turn(loop, [died, raised, fine, unimportable])
        error = died.exception()
        assert isinstance(error, WorkerDied) and "code 3" in str(error)
        assert isinstance(raised.exception(), RemoteError)
        assert "ValueError: invalid literal" in str(raised.exception())
        assert fine.result() == 27
        assert isinstance(unimportable.exception(), RemoteError)
        assert pool.deaths == 1
    finally:
        pool.close()


def test_workers_are_recycled_after_max_tasks_and_the_old_ones_exit(loop: Any) -> None:
    pool = make_pool(loop, 1, max_tasks=3)
    try:
        seen: set[int] = set()
        for i in range(7):
            future = submit(pool, abs, -i)
            turn(loop, [future])
            assert future.result() == i
            seen.update(pool.pids())
        assert pool.recycled == 2 and len(seen) == 3
        # A retired worker reads the end of its socket and exits by itself.
        turn_until(loop, lambda: not any(alive(pid) for pid in seen - set(pool.pids())))
    finally:
        pool.close()


def test_the_queue_is_bounded(loop: Any) -> None:
    pool = make_pool(loop, 1, capacity=2)
    try:
        futures = [submit(pool, abs, -1), submit(pool, abs, -2)]
        with pytest.raises(PoolError, match="full"):
            submit(pool, abs, -3)
        turn(loop, futures)
        assert submit(pool, abs, -4) is not None  # room again
    finally:
        pool.close()


def test_close_kills_busy_workers_and_fails_what_is_left(loop: Any) -> None:
    pool = make_pool(loop, 2)
    futures = [submit(pool, time.sleep, 60) for _ in range(4)]
    # Every worker started and took its first task.
    turn_until(loop, lambda: all(w.tasks and w.tasks[0].sent for w in pool._workers))
    pids = pool.pids()
    pool.close()
    for future in futures:
        assert isinstance(future.exception(timeout=0), PoolClosed)
    assert not any(alive(pid) for pid in pids)
    assert isinstance(submit(pool, abs, 1).exception(timeout=0), PoolClosed)
    assert not links(loop)


def test_a_loop_stall_past_the_deadline_does_not_turn_a_finished_task_into_a_timeout(
    loop: Any,
) -> None:
    # A callback holding the reactor 3 s (a crawl's 6 s against a 5 s deadline): the
    # 25 ms tasks ended long before; their replies wait unread in the socket.
    pool = make_pool(loop, 1, timeout=2)
    try:
        turn(loop, [submit(pool, abs, 0)])  # the worker is up
        futures = [submit(pool, time.sleep, 0.025) for _ in range(2)]
        time.sleep(3)  # the stall (the loop is not turned)
        turn(loop, futures)
        assert [f.exception() for f in futures] == [None, None]
        assert pool.timeouts == 0
    finally:
        pool.close()


def test_a_deadline_counts_from_when_the_worker_started_the_task(loop: Any) -> None:
    # The second task started when the first ended (0.3 s in), by the worker's clock:
    # after a 4 s stall it is already late, not given 3 s more from then.
    pool = make_pool(loop, 1, timeout=3)
    try:
        turn(loop, [submit(pool, abs, 0)])
        first = submit(pool, time.sleep, 0.3)
        hung = submit(pool, time.sleep, 60)
        time.sleep(4)  # the stall (the loop is not turned)
        stalled = time.monotonic()
        turn(loop, [first, hung])
        assert first.exception() is None
        assert isinstance(hung.exception(), TaskTimeout)
        assert time.monotonic() - stalled < 2
        assert pool.timeouts == 1
    finally:
        pool.close()


def test_workers_that_fail_to_start_are_replaced_after_a_back_off(
    loop: Any, tmp_path: Path
) -> None:
    # Four failed starts in a row: a fault that passes costs a little time, no task.
    warm_up = partial(fail_first_starts, str(tmp_path / "starts"), 4)
    pool = make_pool(loop, 1, warm_up=warm_up)
    try:
        started = time.monotonic()
        futures = [submit(pool, pow, i, 3) for i in range(3)]
        turn(loop, futures)
        assert [f.result() for f in futures] == [0, 1, 8]
        assert pool.start_failures == 4 and pool.broken is None
        # Backed off (0.1 + 0.2 + 0.4 + 0.8 s), not retried in a spin.
        assert time.monotonic() - started >= 1.5
    finally:
        pool.close()


def test_a_pool_whose_workers_never_start_gives_up_with_a_reason(
    loop: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_pool, "START_GIVE_UP_SECONDS", 1.0)
    pool = make_pool(loop, 2, warm_up=never_start)
    try:
        future = submit(pool, abs, -1)
        turn(loop, [future])
        assert isinstance(future.exception(), PoolClosed)
        assert pool.broken is not None and "exited before they were ready" in pool.broken
        assert "exit code 3" in pool.broken
        assert pool.start_failures >= _pool.MAX_START_FAILURES
        assert isinstance(submit(pool, abs, 1).exception(timeout=0), PoolClosed)
        assert not links(loop)
    finally:
        pool.close()


def test_tasks_submitted_in_a_batch_reach_a_worker_in_one_write(
    loop: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = make_pool(loop, 1, prefetch=4)
    try:
        turn(loop, [submit(pool, abs, 0)])  # the worker is ready
        link = pool._workers[0].link
        writes: list[int] = []
        write = link.doWrite

        def counted() -> None:
            writes.append(1)
            write()

        monkeypatch.setattr(link, "doWrite", counted)
        with pool.batch():
            batch = [submit(pool, abs, -i) for i in range(4)]
        assert len(writes) == 1  # four tasks, one write (and one wake-up of the worker)
        turn(loop, batch)
        one_by_one = [submit(pool, abs, -i) for i in range(2)]
        turn(loop, one_by_one)
        assert len(writes) == 3  # outside a batch, each task is written as submitted
        assert [f.result() for f in batch + one_by_one] == [0, 1, 2, 3, 0, 1]
    finally:
        pool.close()


def test_a_worker_is_topped_up_once_it_holds_half_its_prefetch(loop: Any) -> None:
    pool = make_pool(loop, 1, prefetch=4, capacity=16)
    try:
        assert pool.backlog() == 0  # not ready yet: nothing to lean on
        turn(loop, [submit(pool, abs, 0)])
        with pool.batch():
            futures = [submit(pool, time.sleep, 0.3) for _ in range(6)]
        assert pool.backlog() == 4 and len(pool._queue) == 2
        turn(loop, futures[:1])
        assert pool.backlog() == 3 and len(pool._queue) == 2  # 3 > 4 // 2: not yet
        turn(loop, futures[:2])
        assert pool.backlog() == 4 and not pool._queue  # 2: topped up to 4, one write
        turn(loop, futures)
    finally:
        pool.close()


def split_regexes_built() -> int:
    """How many locales' word splitters dateparser has built in this process."""
    from dateparser.languages.dictionary import Dictionary

    return sum(len(by_name) for by_name in Dictionary._split_regex_cache.values())


def test_workers_inherit_the_fork_servers_warm_dateparser() -> None:
    """Each worker used to build every locale's splitter itself (seconds) on its first
    date string no locale takes; the fork server builds them once for all."""
    if default_context().get_start_method() != "forkserver":
        pytest.skip("no fork server on this platform: each worker warms itself")
    loop = TurnedLoop()
    pool = EventPool(2, loop=loop, warm_up=None)
    try:
        futures = [pool.submit(split_regexes_built) for _ in range(2)]
        turn(loop, futures)
        assert min(f.result() for f in futures) >= 100  # dateparser has about 200 locales
    finally:
        pool.close()


def test_workers_setting_values() -> None:
    assert resolve_workers("auto") == auto_workers() >= 2
    assert resolve_workers("0") == 0
    assert resolve_workers(4) == 4
    for bad in ("-1", "x", -1, True, 2.5, None):
        with pytest.raises(ValueError):
            resolve_workers(bad)
