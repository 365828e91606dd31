"""Worker processes for extraction: a deadline per page, a bounded queue, a dead
worker replaced, and nothing left behind.

:class:`WorkerPool` waits on its workers in a thread of its own; :class:`EventPool`
in the loop its caller runs: the bulk command's :class:`SelectorLoop`, or the
crawl's reactor (:class:`ReactorPool`, imported on first use so the bulk command
never imports Twisted). Results cross back
as one compact record (:func:`pack`, :func:`unpack`; :func:`call_packed` in the worker).
"""

from typing import Any

from ._codec import call_packed, call_prepared, loads_once, pack, prepare_call, unpack
from ._evented import EventPool
from ._loop import SelectorLoop
from ._workers import (
    PoolClosed,
    PoolError,
    RemoteError,
    TaskTimeout,
    WorkerDied,
    WorkerPool,
    auto_workers,
    default_context,
    prestart,
    resolve_workers,
    warm_up_extractor,
    warm_up_for,
)

__all__ = [
    "EventPool",
    "PoolClosed",
    "PoolError",
    "ReactorPool",
    "RemoteError",
    "SelectorLoop",
    "TaskTimeout",
    "WorkerDied",
    "WorkerPool",
    "auto_workers",
    "call_packed",
    "call_prepared",
    "default_context",
    "loads_once",
    "pack",
    "prepare_call",
    "prestart",
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
