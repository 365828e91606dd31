"""Crawls that share one scrapy-redis queue across processes and machines.

The components that make Scrapy's one-process assumptions hold for many
(start requests queued once, close only when every process is idle, export each
article once) and the leased queue that survives a process dying. Settings
paths: ``scrapy_cx.distributed.SharedStartRequests`` and the others below.
``python -m scrapy_cx.distributed REDIS_URL SPIDER -o FILE`` exports the articles.
"""

from typing import Any

from ._shared import (
    DEFAULT_IDLE_CLOSE,
    ExportFailed,
    ExportOnce,
    IdleClose,
    SharedStartRequests,
    export_items,
)

__all__ = [
    "DEFAULT_IDLE_CLOSE",
    "ExportFailed",
    "ExportOnce",
    "IdleClose",
    "LeaseAcks",
    "LeasedQueue",
    "META_LEASE",
    "Scheduler",
    "SharedStartRequests",
    "export_items",
]


def __getattr__(name: str) -> Any:
    """The leased queue and the scheduler on first use: they import scrapy-redis (the
    ``redis`` extra)."""
    if name in ("LeaseAcks", "LeasedQueue", "META_LEASE", "Scheduler"):
        from . import _leases

        return getattr(_leases, name)
    raise AttributeError(f"module 'scrapy_cx.distributed' has no attribute {name!r}")
