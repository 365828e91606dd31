"""scrapy-cx: news articles out of every page a Scrapy crawl sees.

The core (:func:`extract_article`, :class:`Article`) is pure and imports no
Scrapy; the Scrapy components are imported on first use.
"""

from __future__ import annotations

from typing import Any

from .article import Article, Post
from .extract import extract_article

__all__ = [
    "Addon",
    "Article",
    "ArticleItem",
    "ArticleMiddleware",
    "ArticlePipeline",
    "ArticleSpiderMiddleware",
    "Post",
    "DedupPipeline",
    "extract_article",
]
__version__ = "0.1.0"

_LAZY = {
    "Addon": "scrapy_cx.addon",
    "ArticleItem": "scrapy_cx.items",
    "ArticleMiddleware": "scrapy_cx.middleware",
    "ArticlePipeline": "scrapy_cx.pipeline",
    "ArticleSpiderMiddleware": "scrapy_cx.spidermw",
    "DedupPipeline": "scrapy_cx.dedup_pipeline",
}


def __getattr__(name: str) -> Any:
    """Import the Scrapy glue lazily so ``import scrapy_cx`` stays Scrapy-free."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'scrapy_cx' has no attribute {name!r}")
