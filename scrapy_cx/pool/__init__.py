"""Worker processes for extraction: a deadline per page, a bounded queue, a dead
worker replaced, and nothing left behind.

:class:`WorkerPool` serves the bulk command (its results waited on in a
thread); :class:`ReactorPool`, the crawl (its pipes read by Twisted's reactor,
imported on first use so the bulk command never imports Twisted). Results cross back
as one compact record (:func:`pack`, :func:`unpack`; :func:`call_packed` in the worker).
"""

from typing import Any

from ._codec import call_packed, pack, unpack
from ._workers import (
    PoolClosed,
    PoolError,
    RemoteError,
    TaskTimeout,
    WorkerDied,
    WorkerPool,
    auto_workers,
    resolve_workers,
    warm_up_extractor,
    warm_up_for,
)

__all__ = [
    "PoolClosed",
    "PoolError",
    "ReactorPool",
    "RemoteError",
    "TaskTimeout",
    "WorkerDied",
    "WorkerPool",
    "auto_workers",
    "call_packed",
    "pack",
    "resolve_workers",
    "unpack",
    "warm_up_extractor",
    "warm_up_for",
]


def __getattr__(name: str) -> Any:
    """The reactor's pool on first use: it imports Twisted."""
    if name == "ReactorPool":
        from ._reactor import ReactorPool

        return ReactorPool
    raise AttributeError(f"module 'scrapy_cx.pool' has no attribute {name!r}")
