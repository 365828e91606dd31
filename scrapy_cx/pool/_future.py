"""A Future settled and read in one thread: the event loop's (:mod:`._evented`).

``concurrent.futures.Future`` takes its condition's lock around every look and
every change (``done()``, ``result()``, a callback added), Python-level locks
of 1-2 µs each: the bulk command's parent took 16 of them per page, and a lock
again for the pool's room (a ``threading.Semaphore``). An :class:`~._evented.EventPool`'s
futures are settled in the loop's thread and read there, so they need none.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, InvalidStateError, TimeoutError
from concurrent.futures._base import (
    CANCELLED,
    CANCELLED_AND_NOTIFIED,
    FINISHED,
    PENDING,
    RUNNING,
)
from typing import Any

__all__ = ["LoopFuture", "Room"]

logger = logging.getLogger(__name__)

_DONE = (CANCELLED, CANCELLED_AND_NOTIFIED, FINISHED)


class LoopFuture(Future[Any]):
    """A :class:`~concurrent.futures.Future` without locks, for one thread.

    It cannot be waited on: ``result()`` and ``exception()`` of one not yet
    settled raise :class:`~concurrent.futures.TimeoutError` at once (waiting in the
    loop's thread would stop the loop that settles it). ``concurrent.futures.wait``
    still works from another thread (a lock shared by all, used by nothing else)."""

    _condition = threading.Condition()  # for concurrent.futures.wait only

    def __init__(self) -> None:  # no Condition of its own: that is the point
        self._state = PENDING
        self._result: Any = None
        self._exception: BaseException | None = None
        self._waiters: list[Any] = []
        self._done_callbacks: list[Callable[[Future[Any]], object]] = []

    def cancel(self) -> bool:
        if self._state in (RUNNING, FINISHED):
            return False
        if self._state == PENDING:
            self._state = CANCELLED
            self._invoke()
        return True

    def cancelled(self) -> bool:
        return self._state in (CANCELLED, CANCELLED_AND_NOTIFIED)

    def running(self) -> bool:
        return self._state == RUNNING

    def done(self) -> bool:
        return self._state in _DONE

    def result(self, timeout: float | None = None) -> Any:
        error = self.exception()  # raises as result() must for a pending or cancelled one
        if error is not None:
            raise error
        return self._result

    def exception(self, timeout: float | None = None) -> BaseException | None:
        if self._state == FINISHED:
            return self._exception
        if self._state in (CANCELLED, CANCELLED_AND_NOTIFIED):
            raise CancelledError()
        raise TimeoutError("not settled yet: the event loop settles it")

    def add_done_callback(self, fn: Callable[[Future[Any]], object]) -> None:
        if self._state in _DONE:
            self._call(fn)
        else:
            self._done_callbacks.append(fn)

    def set_running_or_notify_cancel(self) -> bool:
        if self._state == CANCELLED:
            self._state = CANCELLED_AND_NOTIFIED
            for waiter in self._waiters:
                waiter.add_cancelled(self)
            return False
        if self._state == PENDING:
            self._state = RUNNING
            return True
        raise RuntimeError(f"Future in unexpected state: {self._state}")

    def set_result(self, result: Any) -> None:
        self._finish(result, None, failed=False)

    def set_exception(self, exception: BaseException | None) -> None:
        self._finish(None, exception, failed=True)

    def _finish(self, result: Any, exception: BaseException | None, *, failed: bool) -> None:
        if self._state in _DONE:
            raise InvalidStateError(f"{self._state}: {self!r}")
        self._result = result
        self._exception = exception
        self._state = FINISHED
        for waiter in self._waiters:  # concurrent.futures.wait's, from another thread
            if not failed:
                waiter.add_result(self)
            else:
                waiter.add_exception(self)
        self._invoke()

    def _invoke(self) -> None:
        for callback in self._done_callbacks:
            self._call(callback)

    def _call(self, callback: Callable[[Future[Any]], object]) -> None:
        try:
            callback(self)
        except Exception:  # noqa: BLE001 - as concurrent.futures does
            logger.exception("exception calling callback for %r", self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x} state={self._state.lower()}>"


class Room:
    """A count of free places, taken and given back in one thread: the pool's
    ``capacity`` without a ``threading.Semaphore``'s lock and condition."""

    def __init__(self, places: int) -> None:
        self._free = places

    def acquire(self, blocking: bool = True) -> bool:
        if self._free <= 0:
            if blocking:  # would wait for the thread that is waiting
                raise RuntimeError("no room, and waiting here would stop the loop")
            return False
        self._free -= 1
        return True

    def release(self) -> None:
        self._free += 1
