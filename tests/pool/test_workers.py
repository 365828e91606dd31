"""The worker pool: results, a deadline per task, dead and recycled workers, closing."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial
from pathlib import Path

import pytest

from scrapy_cx.pool import _workers
from scrapy_cx.pool._workers import (
    PoolClosed,
    PoolError,
    RemoteError,
    TaskTimeout,
    WorkerDied,
    WorkerPool,
    auto_workers,
    resolve_workers,
)
from tests.support.faulty import fail_first_starts, never_start


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_results_come_back_per_task() -> None:
    with WorkerPool(2) as pool:
        futures = [pool.submit(pow, i, 2) for i in range(20)]
        assert [f.result(timeout=60) for f in futures] == [i * i for i in range(20)]
        spin = pool.submit(sum, range(3_000_000))
        assert spin.result(timeout=60) == sum(range(3_000_000))
        assert pool.cpu_seconds > 0


def test_a_task_past_its_deadline_is_killed_and_its_worker_replaced() -> None:
    with WorkerPool(1, timeout=0.5) as pool:
        first = pool.pids()
        started = time.monotonic()
        hung = pool.submit(time.sleep, 60)
        after = pool.submit(pow, 2, 10)
        with pytest.raises(TaskTimeout):
            hung.result(timeout=60)
        assert after.result(timeout=60) == 1024  # the queue goes on with the new worker
        assert time.monotonic() - started < 30
        assert pool.timeouts == 1
        assert pool.pids() != first and not alive(first[0])


def test_a_worker_that_dies_is_replaced() -> None:
    with WorkerPool(1) as pool:
        with pytest.raises(WorkerDied, match="code 3"):
            pool.submit(os._exit, 3).result(timeout=60)
        assert pool.submit(pow, 3, 3).result(timeout=60) == 27
        assert pool.deaths == 1


def test_an_exception_comes_back_with_its_traceback_and_the_worker_stays() -> None:
    with WorkerPool(1) as pool:
        pids = pool.pids()
        with pytest.raises(RemoteError, match="ValueError: invalid literal"):
            pool.submit(int, "x").result(timeout=60)
        assert pool.submit(int, "7").result(timeout=60) == 7
        assert pool.pids() == pids


def test_workers_are_recycled_after_max_tasks() -> None:
    with WorkerPool(1, max_tasks=3) as pool:
        seen = set()
        for i in range(7):
            assert pool.submit(abs, -i).result(timeout=60) == i
            seen.update(pool.pids())
        assert pool.recycled == 2
        assert len(seen) == 3


def test_the_queue_is_bounded() -> None:
    with WorkerPool(1, capacity=2) as pool:
        first = pool.submit(time.sleep, 0.5)
        pool.submit(time.sleep, 0)
        with pytest.raises(PoolError, match="full"):
            pool.submit(abs, 1, block=False)
        first.result(timeout=60)
        assert pool.submit(abs, -1).result(timeout=60) == 1  # blocks until there is room


def test_close_kills_busy_workers_and_fails_what_is_left() -> None:
    pool = WorkerPool(2)
    futures: list[Future[object]] = [pool.submit(time.sleep, 60) for _ in range(4)]
    time.sleep(1)  # let the workers start and take their tasks
    pids = pool.pids()
    started = time.monotonic()
    pool.close()
    assert time.monotonic() - started < 10
    for future in futures:
        with pytest.raises(PoolClosed):
            future.result(timeout=1)
    assert not any(alive(pid) for pid in pids)
    assert isinstance(pool.submit(abs, 1).exception(timeout=1), PoolClosed)


def split_regexes_built() -> int:
    """How many locales' word splitters dateparser has built in this process."""
    from dateparser.languages.dictionary import Dictionary

    return sum(len(by_name) for by_name in Dictionary._split_regex_cache.values())


def test_workers_inherit_the_fork_servers_warm_dateparser() -> None:
    """Each worker used to build every locale's splitter itself (seconds) on its first
    date string no locale takes; the fork server builds them once for all."""
    if _workers.default_context().get_start_method() != "forkserver":
        pytest.skip("no fork server on this platform: each worker warms itself")
    with WorkerPool(2, warm_up=None) as pool:
        built = [pool.submit(split_regexes_built).result(timeout=120) for _ in range(2)]
    assert min(built) >= 100  # dateparser has about 200 locales


def local_function() -> None:
    """Importable by name, unlike a lambda."""


def test_a_function_the_worker_cannot_import_fails_that_task_only() -> None:
    with WorkerPool(1) as pool:
        with pytest.raises(RemoteError):
            pool.submit(lambda: None).result(timeout=60)
        assert pool.submit(local_function).result(timeout=60) is None


def test_workers_setting_values() -> None:
    assert resolve_workers("auto") == auto_workers() >= 2
    assert resolve_workers("0") == 0
    assert resolve_workers(4) == 4
    for bad in ("-1", "x", -1, True, 2.5, None):
        with pytest.raises(ValueError):
            resolve_workers(bad)


#: Larger than what a socket between two processes holds (about 200 KB here), as the
#: bodies of many real pages are.
BIG = 2_000_000


def _results(pool: WorkerPool, futures: list[Future[object]]) -> list[object]:
    """The results; a pool stuck on a full pipe fails the test instead of hanging it."""
    try:
        return [future.result(timeout=60) for future in futures]
    except FutureTimeout:
        closer = threading.Thread(target=pool.close, daemon=True)
        closer.start()
        for _ in range(60):  # each kill unblocks a dispatcher stuck in a send
            for pid in pool.pids():
                os.kill(pid, signal.SIGKILL)
            closer.join(0.5)
            if not closer.is_alive():
                break
        pytest.fail("the pool is stuck")


def test_large_tasks_and_large_results_cross_without_a_deadlock() -> None:
    # The dispatcher sends a worker its next page while the worker still works on
    # one; a page larger than the pipe holds must not leave both ends waiting on
    # each other's full pipe (the worker sending a large result back, the pool
    # sending it a large page).
    with WorkerPool(1, warm_up=None) as pool:
        futures: list[Future[object]] = [
            pool.submit(bytes, BIG),  # a large result...
            pool.submit(len, b"x" * BIG),  # ...while a large page is sent behind it
            pool.submit(bytes, BIG),
            pool.submit(len, b"y" * BIG),
        ]
        results = _results(pool, futures)
        assert [len(r) if isinstance(r, bytes) else r for r in results] == [BIG] * 4


def test_a_busy_worker_with_a_large_page_queued_does_not_hold_up_the_others() -> None:
    with WorkerPool(2, warm_up=None) as pool:
        time.sleep(1)  # both workers ready
        slow = pool.submit(time.sleep, 5)
        queued = pool.submit(len, b"x" * BIG)  # sent ahead to the busy worker
        quick = pool.submit(abs, -1)
        assert _results(pool, [quick]) == [1]
        assert not slow.done()  # the other worker answered while this one still slept
        assert _results(pool, [slow, queued]) == [None, BIG]


def test_workers_that_fail_to_start_are_replaced_after_a_back_off(tmp_path: Path) -> None:
    # Four failed starts in a row: once the pool gave up after three, and every task
    # after it failed; a fault that passes must cost a little time, no task.
    warm_up = partial(fail_first_starts, str(tmp_path / "starts"), 4)
    with WorkerPool(1, warm_up=warm_up) as pool:
        started = time.monotonic()
        futures = [pool.submit(pow, i, 2) for i in range(4)]
        assert [f.result(timeout=60) for f in futures] == [0, 1, 4, 9]
        assert pool.start_failures == 4 and pool.broken is None
        # Backed off (0.1 + 0.2 + 0.4 + 0.8 s), not retried in a spin.
        assert time.monotonic() - started >= 1.5


def test_a_pool_whose_workers_never_start_gives_up_with_a_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_workers, "START_GIVE_UP_SECONDS", 1.0)
    pool = WorkerPool(1, warm_up=never_start)
    try:
        future = pool.submit(abs, -1)
        error = future.exception(timeout=60)
        assert isinstance(error, PoolClosed)
        assert pool.broken is not None and "exited before they were ready" in pool.broken
        assert "exit code 3" in pool.broken
        assert pool.start_failures >= _workers.MAX_START_FAILURES
        assert isinstance(pool.submit(abs, 1).exception(timeout=0), PoolClosed)
    finally:
        pool.close()
