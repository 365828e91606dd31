"""Feed exports that write the worker's JSON of an article's long texts as it is.

:func:`fragments` runs in the worker (Scrapy-free); :func:`offer` and
:func:`forget` in the crawl's process; the exporters
(:class:`JsonLinesItemExporter`, :class:`JsonItemExporter`, imported on first use:
they import Scrapy) write the offered fragments, byte for byte what Scrapy's
exporters write.
"""

from typing import Any

from ._fragments import Fragments, forget, fragments, offer

__all__ = [
    "Fragments",
    "JsonItemExporter",
    "JsonLinesItemExporter",
    "forget",
    "fragments",
    "json_forms",
    "offer",
]

_SCRAPY_NAMES = frozenset({"JsonItemExporter", "JsonLinesItemExporter", "json_forms"})


def __getattr__(name: str) -> Any:
    """The exporters on first use: they import Scrapy (the worker imports this package)."""
    if name in _SCRAPY_NAMES:
        from . import _exporters

        return getattr(_exporters, name)
    raise AttributeError(f"module 'scrapy_cx.feeds' has no attribute {name!r}")
