"""The pool as the crawl and the bulk command drive it: from the loop's thread, without
a thread of its own.

Each test runs twice: on a real Twisted reactor of its own (a ``SelectReactor``
instance, not installed as the global one: the crawl's :class:`ReactorPool`) and on
a :class:`SelectorLoop` (the bulk command's), turned by hand until the futures are done.
"""

from __future__ import annotations

import os
import pickle
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from twisted.internet.selectreactor import SelectReactor

from scrapy_cx.pool import _workers
from scrapy_cx.pool._evented import _Link, frame, unframe
from scrapy_cx.pool._loop import SelectorLoop
from scrapy_cx.pool._reactor import ReactorPool
from scrapy_cx.pool._workers import PoolClosed, RemoteError, TaskTimeout, WorkerDied
from tests.pool.test_workers import BIG, alive
from tests.support.faulty import fail_first_starts, never_start

#: Seconds a test may turn its reactor before it fails instead of hanging.
LIMIT = 60


class TurnedLoop(SelectorLoop):
    """A :class:`SelectorLoop` with the two reactor calls these tests turn and inspect it by."""

    def iterate(self, delay: float) -> None:
        self.run_once(delay)

    def getReaders(self) -> list[Any]:  # noqa: N802 - Twisted's name
        return list(self._readers)

    def getWriters(self) -> list[Any]:  # noqa: N802 - Twisted's name
        return list(self._writers)


@pytest.fixture(params=["twisted", "selector"])
def reactor(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield SelectReactor() if request.param == "twisted" else TurnedLoop()


def turn(reactor: Any, futures: list[Future[Any]]) -> None:
    """Run ``reactor`` until every future is done."""
    started = time.monotonic()
    while not all(f.done() for f in futures):
        assert time.monotonic() - started < LIMIT, "the pool is stuck"
        reactor.iterate(0.05)


def test_frames_cross_in_any_pieces() -> None:
    payloads = [b"", b"x", os.urandom(70_000)]
    stream = b"".join(b"".join(frame(p)) for p in payloads)
    buffer = bytearray()
    out = []
    for start in range(0, len(stream), 999):  # arriving in pieces, cut anywhere
        buffer += stream[start : start + 999]
        out += unframe(buffer)
    assert out == payloads and not buffer


def test_results_large_pages_and_large_articles_cross_without_blocking(
    reactor: Any,
) -> None:
    pool = ReactorPool(2, reactor=reactor, capacity=8, warm_up=None)
    try:
        futures: list[Future[Any]] = [pool.submit(pow, i, 2) for i in range(5)]
        futures += [pool.submit(bytes, BIG), pool.submit(len, b"x" * BIG)]
        turn(reactor, futures)
        assert [f.result() for f in futures[:5]] == [i * i for i in range(5)]
        assert len(futures[5].result()) == BIG and futures[6].result() == BIG
        assert pool.cpu_seconds > 0
    finally:
        pool.close()


def test_the_pool_starts_no_thread(reactor: Any) -> None:
    # The point of this pool: nothing competes with the reactor for the GIL.
    before = threading.active_count()
    pool = ReactorPool(2, reactor=reactor, warm_up=None)
    try:
        future = pool.submit(abs, -1)
        turn(reactor, [future])
        assert future.result() == 1
        assert threading.active_count() == before
    finally:
        pool.close()


def test_callbacks_run_in_the_reactor_thread_and_may_submit_again(
    reactor: Any,
) -> None:
    pool = ReactorPool(1, reactor=reactor, warm_up=None)
    threads: list[threading.Thread] = []
    chained: list[Future[Any]] = []

    def again(done: Future[Any]) -> None:
        threads.append(threading.current_thread())
        chained.append(pool.submit(abs, -done.result()))

    try:
        first = pool.submit(abs, -7)
        first.add_done_callback(again)
        turn(reactor, [first])
        turn(reactor, chained)
        assert chained[0].result() == 7
        assert threads == [threading.current_thread()]
    finally:
        pool.close()


def test_a_task_past_its_deadline_is_killed_and_its_worker_replaced(
    reactor: Any,
) -> None:
    pool = ReactorPool(1, reactor=reactor, timeout=0.5, warm_up=None)
    try:
        first = pool.pids()
        hung = pool.submit(time.sleep, 60)
        after = pool.submit(pow, 2, 10)
        turn(reactor, [hung, after])
        assert isinstance(hung.exception(), TaskTimeout)
        assert after.result() == 1024  # the queue goes on with the new worker
        assert pool.timeouts == 1
        assert pool.pids() != first and not alive(first[0])
    finally:
        pool.close()


def test_a_worker_that_dies_is_replaced_and_an_error_comes_back(
    reactor: Any,
) -> None:
    pool = ReactorPool(1, reactor=reactor, warm_up=None)
    try:
        died = pool.submit(os._exit, 3)
        raised = pool.submit(int, "x")
        fine = pool.submit(pow, 3, 3)
        turn(reactor, [died, raised, fine])
        error = died.exception()
        assert isinstance(error, WorkerDied) and "code 3" in str(error)
        assert isinstance(raised.exception(), RemoteError)
        assert fine.result() == 27
        assert pool.deaths == 1
    finally:
        pool.close()


def test_workers_are_recycled_after_max_tasks(reactor: Any) -> None:
    pool = ReactorPool(1, reactor=reactor, max_tasks=3, warm_up=None)
    try:
        seen: set[int] = set()
        for i in range(7):
            future = pool.submit(abs, -i)
            turn(reactor, [future])
            assert future.result() == i
            seen.update(pool.pids())
        assert pool.recycled == 2 and len(seen) == 3
    finally:
        pool.close()


def test_close_kills_busy_workers_and_fails_what_is_left(reactor: Any) -> None:
    pool = ReactorPool(2, reactor=reactor, warm_up=None)
    futures = [pool.submit(time.sleep, 60) for _ in range(4)]
    for _ in range(20):  # let the workers start and take their tasks
        reactor.iterate(0.05)
    pids = pool.pids()
    pool.close()
    for future in futures:
        assert isinstance(future.exception(timeout=0), PoolClosed)
    assert not any(alive(pid) for pid in pids)
    assert isinstance(pool.submit(abs, 1).exception(timeout=0), PoolClosed)
    watched = reactor.getReaders() + reactor.getWriters()
    assert not [w for w in watched if isinstance(w, _Link)]


def test_a_reactor_stall_past_the_deadline_does_not_turn_a_finished_task_into_a_timeout(
    reactor: Any,
) -> None:
    # A callback holding the reactor 1.5 s (the crawl's 6 s against a 5 s deadline):
    # the 25 ms tasks ended long before; their replies wait unread in the socket.
    pool = ReactorPool(1, reactor=reactor, timeout=0.5, warm_up=None)
    try:
        turn(reactor, [pool.submit(abs, 0)])  # the worker is up
        futures = [pool.submit(time.sleep, 0.025) for _ in range(2)]
        time.sleep(1.5)  # the stall
        turn(reactor, futures)
        assert [f.exception() for f in futures] == [None, None]
        assert pool.timeouts == 0
    finally:
        pool.close()


def test_a_deadline_counts_from_when_the_worker_started_the_task(
    reactor: Any,
) -> None:
    # The second task started when the first ended (0.3 s in), by the worker's clock:
    # after a 2 s stall it is already late, not given a new second from then.
    pool = ReactorPool(1, reactor=reactor, timeout=1.0, warm_up=None)
    try:
        turn(reactor, [pool.submit(abs, 0)])
        first = pool.submit(time.sleep, 0.3)
        hung = pool.submit(time.sleep, 60)
        time.sleep(2)  # the stall
        stalled = time.monotonic()
        turn(reactor, [first, hung])
        assert first.exception() is None
        assert isinstance(hung.exception(), TaskTimeout)
        assert time.monotonic() - stalled < 0.5
        assert pool.timeouts == 1
    finally:
        pool.close()


def test_workers_that_fail_to_start_are_replaced_after_a_back_off(
    reactor: Any, tmp_path: Path
) -> None:
    warm_up = partial(fail_first_starts, str(tmp_path / "starts"), 4)
    pool = ReactorPool(1, reactor=reactor, warm_up=warm_up)
    try:
        futures = [pool.submit(pow, i, 3) for i in range(3)]
        turn(reactor, futures)
        assert [f.result() for f in futures] == [0, 1, 8]
        assert pool.start_failures == 4 and pool.broken is None
    finally:
        pool.close()


def test_a_pool_whose_workers_never_start_gives_up(
    reactor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_workers, "START_GIVE_UP_SECONDS", 1.0)
    pool = ReactorPool(2, reactor=reactor, warm_up=never_start)
    try:
        future = pool.submit(abs, -1)
        turn(reactor, [future])
        assert isinstance(future.exception(), PoolClosed)
        assert pool.broken is not None and "exit code 3" in pool.broken
        watched = reactor.getReaders() + reactor.getWriters()
        assert not [w for w in watched if isinstance(w, _Link)]
    finally:
        pool.close()


def test_a_page_wrapped_in_a_pickle_buffer_crosses_whole_without_a_pickled_copy(
    reactor: Any,
) -> None:
    # Out-of-band: the page is written from the caller's own bytes, after the pickle.
    pages = [os.urandom(BIG), b"", os.urandom(3 * BIG + 7)]
    pool = ReactorPool(2, reactor=reactor, capacity=8, warm_up=None)
    try:
        futures = [pool.submit(bytes, pickle.PickleBuffer(page)) for page in pages]
        futures.append(pool.submit(len, pickle.PickleBuffer(pages[2])))
        turn(reactor, futures)
        assert [f.result() for f in futures[:3]] == pages
        assert futures[3].result() == len(pages[2])
    finally:
        pool.close()
    sent: list[pickle.PickleBuffer] = []
    call = (bytes, (pickle.PickleBuffer(pages[0]),), {})
    payload = pickle.dumps(call, 5, buffer_callback=sent.append)
    assert len(payload) < 200 and len(sent) == 1  # the page is not in the pickle


def test_tasks_submitted_in_a_batch_reach_a_worker_in_one_write(
    reactor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = ReactorPool(1, reactor=reactor, warm_up=None, prefetch=4)
    try:
        turn(reactor, [pool.submit(abs, 0)])  # the worker is ready
        link = pool._workers[0].link
        writes: list[int] = []
        write = link.doWrite

        def counted() -> None:
            writes.append(1)
            write()

        monkeypatch.setattr(link, "doWrite", counted)
        with pool.batch():
            batch = [pool.submit(abs, -i) for i in range(4)]
        assert len(writes) == 1  # four tasks, one write (and one wake-up of the worker)
        turn(reactor, batch)
        one_by_one = [pool.submit(abs, -i) for i in range(2)]
        turn(reactor, one_by_one)
        assert len(writes) == 3  # outside a batch, each task is written as submitted
        assert [f.result() for f in batch + one_by_one] == [0, 1, 2, 3, 0, 1]
    finally:
        pool.close()


def test_a_worker_is_topped_up_once_it_holds_half_its_prefetch(reactor: Any) -> None:
    pool = ReactorPool(1, reactor=reactor, warm_up=None, prefetch=4, capacity=16)
    try:
        assert pool.backlog() == 0  # not ready yet: nothing to lean on
        turn(reactor, [pool.submit(abs, 0)])
        with pool.batch():
            futures = [pool.submit(time.sleep, 0.3) for _ in range(6)]
        assert pool.backlog() == 4 and len(pool._queue) == 2
        turn(reactor, futures[:1])
        assert pool.backlog() == 3 and len(pool._queue) == 2  # 3 > 4 // 2: not yet
        turn(reactor, futures[:2])
        assert pool.backlog() == 4 and not pool._queue  # 2: topped up to 4, one write
        turn(reactor, futures)
    finally:
        pool.close()
