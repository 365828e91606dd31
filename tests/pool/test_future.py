"""The event pool's futures: a Future's behaviour, in one thread, without its locks."""

from __future__ import annotations

import threading
from concurrent.futures import CancelledError, InvalidStateError, TimeoutError, wait
from typing import Any

import pytest

from scrapy_cx.pool._future import LoopFuture, Room


def test_a_result_reaches_the_callbacks_in_order_and_later_ones_at_once() -> None:
    future = LoopFuture()
    seen: list[Any] = []
    future.add_done_callback(lambda f: seen.append(("first", f.result())))
    future.add_done_callback(lambda f: seen.append(("second", f.done())))
    assert not future.done() and not future.running()
    assert future.set_running_or_notify_cancel() and future.running()
    future.set_result(7)
    future.add_done_callback(lambda f: seen.append(("late", f.result())))
    assert seen == [("first", 7), ("second", True), ("late", 7)]
    assert future.exception() is None
    with pytest.raises(InvalidStateError):
        future.set_result(8)


def test_an_exception_is_raised_by_result_and_returned_by_exception() -> None:
    future = LoopFuture()
    error = ValueError("bad page")
    future.set_exception(error)
    assert future.done() and future.exception() is error
    with pytest.raises(ValueError, match="bad page"):
        future.result()


def test_a_callback_that_raises_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    future = LoopFuture()
    seen: list[int] = []
    future.add_done_callback(lambda f: 1 / 0)
    future.add_done_callback(lambda f: seen.append(f.result()))
    future.set_result(1)
    assert seen == [1] and "exception calling callback" in caplog.text


def test_a_pending_future_is_never_waited_on() -> None:
    # Waiting in the loop's thread would stop the loop that settles it: it says so.
    future = LoopFuture()
    with pytest.raises(TimeoutError):
        future.result()
    with pytest.raises(TimeoutError):
        future.exception(timeout=0)


def test_cancel_before_running_only() -> None:
    queued, running = LoopFuture(), LoopFuture()
    seen: list[bool] = []
    queued.add_done_callback(lambda f: seen.append(f.cancelled()))
    assert queued.cancel() and queued.cancel() and queued.done() and seen == [True]
    assert not queued.set_running_or_notify_cancel()  # a pool skips it
    with pytest.raises(CancelledError):
        queued.result()
    assert running.set_running_or_notify_cancel()
    assert not running.cancel() and not running.cancelled()


def test_concurrent_futures_wait_still_works_from_another_thread() -> None:
    future = LoopFuture()
    threading.Timer(0.05, future.set_result, (1,)).start()
    done, pending = wait([future], timeout=10)
    assert done == {future} and not pending


def test_room_counts_places_and_never_waits() -> None:
    room = Room(2)
    assert room.acquire(blocking=False) and room.acquire(blocking=False)
    assert not room.acquire(blocking=False)
    with pytest.raises(RuntimeError):
        room.acquire()  # blocking would stop the loop that frees it
    room.release()
    assert room.acquire(blocking=False)
