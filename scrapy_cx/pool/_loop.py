"""The few reactor calls :class:`~._pool.EventPool` makes, for a caller with no reactor.

The bulk command has no event loop of its own: it hands pages out and writes
lines. Turning this loop in its own thread, between pages, does the pool's
waiting with no thread of its own; it is not a reactor (no transports, no
signals), only readiness on file descriptors and timers.
"""

from __future__ import annotations

import heapq
import itertools
import selectors
import time
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["SelectorLoop"]


class Descriptor(Protocol):
    """What the loop watches (Twisted's ``IReadDescriptor``/``IWriteDescriptor`` shape)."""

    def fileno(self) -> int: ...

    def doRead(self) -> object: ...  # noqa: N802 - Twisted's name

    def doWrite(self) -> object: ...  # noqa: N802 - Twisted's name


class _Call:
    """A pending ``callLater`` (Twisted's ``IDelayedCall``: ``active``, ``cancel``)."""

    __slots__ = ("at", "call", "done")

    def __init__(self, at: float, call: Callable[[], object]) -> None:
        self.at = at
        self.call = call
        self.done = False

    def active(self) -> bool:
        return not self.done

    def cancel(self) -> None:
        self.done = True


class SelectorLoop:
    """Readiness of file descriptors and timers, turned by :meth:`run_once`."""

    def __init__(self) -> None:
        self._selector = selectors.DefaultSelector()
        self._readers: set[Descriptor] = set()
        self._writers: set[Descriptor] = set()
        self._calls: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()  # equal times fire in the order they were asked

    def seconds(self) -> float:
        return time.monotonic()

    def addReader(self, descriptor: Descriptor) -> None:  # noqa: N802 - Twisted's name
        self._readers.add(descriptor)
        self._watch(descriptor)

    def removeReader(self, descriptor: Descriptor) -> None:  # noqa: N802 - Twisted's name
        self._readers.discard(descriptor)
        self._watch(descriptor)

    def addWriter(self, descriptor: Descriptor) -> None:  # noqa: N802 - Twisted's name
        self._writers.add(descriptor)
        self._watch(descriptor)

    def removeWriter(self, descriptor: Descriptor) -> None:  # noqa: N802 - Twisted's name
        self._writers.discard(descriptor)
        self._watch(descriptor)

    def callLater(self, delay: float, call: Callable[..., object], *args: Any) -> _Call:  # noqa: N802
        delayed = _Call(time.monotonic() + max(0.0, delay), lambda: call(*args))
        heapq.heappush(self._calls, (delayed.at, next(self._order), delayed))
        return delayed

    def _watch(self, descriptor: Descriptor) -> None:
        """Register ``descriptor`` for the events it is wanted for now (none: unregister)."""
        events = (selectors.EVENT_READ if descriptor in self._readers else 0) | (
            selectors.EVENT_WRITE if descriptor in self._writers else 0
        )
        fd = descriptor.fileno()
        key = self._selector.get_map().get(fd)
        if key is None:
            if events:
                self._selector.register(fd, events, descriptor)
        elif not events:
            self._selector.unregister(fd)
        elif events != key.events or key.data is not descriptor:
            self._selector.modify(fd, events, descriptor)

    def run_once(self, timeout: float | None) -> None:
        """Wait up to ``timeout`` seconds (None: until something happens) for a descriptor
        or the next timer, then run what is ready: reads, writes, timers that are due."""
        if self._calls:
            wait = max(0.0, self._calls[0][0] - time.monotonic())
            timeout = wait if timeout is None else min(timeout, wait)
        if self._selector.get_map():
            ready = self._selector.select(timeout)
        else:  # nothing to watch (epoll with no descriptor waits all the same)
            if timeout:
                time.sleep(timeout)
            ready = []
        for key, events in ready:
            descriptor = key.data
            # A handler run before this one may have stopped watching it.
            if events & selectors.EVENT_READ and descriptor in self._readers:
                descriptor.doRead()
            if events & selectors.EVENT_WRITE and descriptor in self._writers:
                descriptor.doWrite()
        now = time.monotonic()
        while self._calls and self._calls[0][0] <= now:
            _, _, delayed = heapq.heappop(self._calls)
            if not delayed.done:
                delayed.done = True
                delayed.call()

    def close(self) -> None:
        self._selector.close()
