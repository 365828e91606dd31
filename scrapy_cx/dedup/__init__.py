"""Reposts: an index of main-text fingerprints that finds near duplicates, and
the item pipeline that drops (or marks) them.

The index is Scrapy-free (the bulk command uses it too); the pipeline is
imported on first use, so ``import scrapy_cx.dedup`` does not import Scrapy.
"""

from typing import Any

from ._index import BANDS, DEFAULT_THRESHOLD, ROWS, DedupIndex, MemoryIndex, RedisIndex

__all__ = [
    "BANDS",
    "DEFAULT_THRESHOLD",
    "ROWS",
    "DedupIndex",
    "DedupPipeline",
    "MemoryIndex",
    "RedisIndex",
]


def __getattr__(name: str) -> Any:
    """The pipeline on first use: it imports Scrapy."""
    if name == "DedupPipeline":
        from .pipeline import DedupPipeline

        return DedupPipeline
    raise AttributeError(f"module 'scrapy_cx.dedup' has no attribute {name!r}")
