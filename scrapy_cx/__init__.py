"""scrapy-cx: news articles out of every page a Scrapy crawl sees.

The core (:func:`extract_article`, :class:`Article`) is pure and imports no
Scrapy; the Scrapy components are imported on first use. Modules that moved
into the feature subpackages still import from their old paths, with a
DeprecationWarning naming the new one.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

from .article import DEFAULT_FORMATS, FORMATS, Article, Breadcrumb, Image, Post
from .extract import extract_article

__all__ = [
    "Addon",
    "Article",
    "ArticleItem",
    "ArticleMiddleware",
    "ArticlePipeline",
    "ArticleSpiderMiddleware",
    "Breadcrumb",
    "DEFAULT_FORMATS",
    "FORMATS",
    "Image",
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
    "DedupPipeline": "scrapy_cx.dedup",
}


def __getattr__(name: str) -> Any:
    """Import the Scrapy glue lazily so ``import scrapy_cx`` stays Scrapy-free."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'scrapy_cx' has no attribute {name!r}")


#: Old module paths (before the feature subpackages) -> their new homes.
MOVED_MODULES = {
    "scrapy_cx.dedup_pipeline": "scrapy_cx.dedup.pipeline",
    "scrapy_cx.leases": "scrapy_cx.distributed._leases",
    "scrapy_cx.progress": "scrapy_cx.bulk._progress",
    "scrapy_cx.records": "scrapy_cx.bulk._records",
    "scrapy_cx.sources": "scrapy_cx.bulk._sources",
    "scrapy_cx.warc": "scrapy_cx.bulk._warc",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module path as the module that now lives elsewhere.

    A finder, not a file per old path: settings that name ``scrapy_cx.leases.LeasedQueue``
    keep loading (Scrapy's ``load_object`` imports the module by name), and the
    package keeps one file per job.
    """

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED_MODULES[spec.name].rpartition(".")[0]  # the package that re-exports it
        warnings.warn(
            f"{spec.name} moved: import from {new} instead", DeprecationWarning, stacklevel=2
        )
        return importlib.import_module(MOVED_MODULES[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was imported at its new path."""


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())
