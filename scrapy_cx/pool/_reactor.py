"""The crawl's worker pool: :class:`~._evented.EventPool` on Twisted's reactor.

Kept apart from :mod:`._evented` so the bulk command, which drives the same pool
from a :class:`~._loop.SelectorLoop`, never imports Twisted (about 70 ms of its
start-up, measured on this project's 2-core machine).
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IReadDescriptor, IWriteDescriptor
from zope.interface import classImplements

from ._evented import EventPool, _Link

__all__ = ["ReactorPool"]

classImplements(_Link, IReadDescriptor, IWriteDescriptor)


class ReactorPool(EventPool):
    """An :class:`EventPool` that waits in the crawl's reactor (the running one unless
    ``reactor`` names another); create and use it in the reactor thread."""

    def __init__(self, workers: int, *, reactor: Any = None, **options: Any) -> None:
        if reactor is None:
            from twisted.internet import reactor
        super().__init__(workers, loop=reactor, **options)
