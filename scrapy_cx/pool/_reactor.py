"""The crawl's worker pool: :class:`~._pool.EventPool` on Twisted's reactor, handing
out Deferreds.

Kept apart from :mod:`._pool` so the bulk command, which drives the same pool from a
:class:`~._loop.SelectorLoop`, never imports Twisted (about 70 ms of its start-up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReadDescriptor, IWriteDescriptor
from zope.interface import classImplements

from ._pool import EventPool, _Link

__all__ = ["ReactorPool"]

classImplements(_Link, IReadDescriptor, IWriteDescriptor)


class ReactorPool(EventPool):
    """An :class:`EventPool` that waits in the crawl's reactor (the running one unless
    ``reactor`` names another); create and use it in the reactor thread."""

    def __init__(self, workers: int, *, reactor: Any = None, **options: Any) -> None:
        if reactor is None:
            from twisted.internet import reactor
        super().__init__(workers, loop=reactor, **options)

    def submit(  # type: ignore[override]  # a Deferred: the reactor's own kind of result
        self, function: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Deferred[Any]:
        """``function(*args, **kwargs)`` in a worker: a Deferred fired in the reactor."""
        deferred: Deferred[Any] = Deferred()
        self.run(_firing(deferred), function, *args, **kwargs)
        return deferred


def _firing(deferred: Deferred[Any]) -> Callable[[bool, Any], None]:
    """What settles ``deferred``: its callback with a result, its errback with an error."""

    def fire(ok: bool, value: Any) -> None:
        if ok:
            deferred.callback(value)
        else:
            deferred.errback(value)

    return fire
