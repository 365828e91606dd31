"""Worker processes for extraction: a deadline per page, a dead or stuck worker
replaced, and nothing left behind.

:class:`EventPool` waits in the loop its caller runs: the bulk command's
:class:`SelectorLoop` (``submit`` returns a ``concurrent.futures.Future``), or the
crawl's reactor (:class:`ReactorPool`, which returns Deferreds; imported on first
use so the bulk command never imports Twisted).
"""

from typing import Any

from ._loop import SelectorLoop
from ._pool import EventPool, PoolClosed, PoolError, RemoteError, TaskTimeout, WorkerDied
from ._start import (
    default_context,
    prestart,
    resolve_workers,
    warm_up_extractor,
    warm_up_for,
)
from ._worker import call_prepared, loads_once, prepare_call

__all__ = [
    "EventPool",
    "PoolClosed",
    "PoolError",
    "ReactorPool",
    "RemoteError",
    "SelectorLoop",
    "TaskTimeout",
    "WorkerDied",
    "call_prepared",
    "default_context",
    "loads_once",
    "prepare_call",
    "prestart",
    "resolve_workers",
    "warm_up_extractor",
    "warm_up_for",
]


def __getattr__(name: str) -> Any:
    """The reactor's pool on first use: it imports Twisted."""
    if name == "ReactorPool":
        from ._reactor import ReactorPool

        return ReactorPool
    raise AttributeError(f"module 'scrapy_cx.pool' has no attribute {name!r}")
