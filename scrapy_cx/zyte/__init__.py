"""Zyte's schema for scrapy-cx (the ``zyte`` extra): zyte-common-items items from our
articles, scrapy-poet page objects for every URL, and the provider they read.

``import scrapy_cx.zyte`` needs no extra: the names below are imported on first use
(zyte-common-items, and scrapy-poet for the page objects), so the add-on and the
settings can ask :func:`installed` and :func:`is_zyte_item` in any install.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._addon import arrange_settings
from ._check import (
    INSTALL,
    SCHEMA_ORDER,
    info_drop,
    installed,
    is_zyte_item,
    not_downloaded,
    poet_installed,
)

__all__ = [
    "INSTALL",
    "SCHEMA_ORDER",
    "arrange_settings",
    "CxArticle",
    "CxArticleListPage",
    "CxArticleNavigationPage",
    "CxArticlePage",
    "CxFullArticlePage",
    "CxImage",
    "CxLink",
    "CxPost",
    "Extraction",
    "ExtractionProvider",
    "Teasers",
    "TeasersProvider",
    "downloaded_at",
    "info_drop",
    "installed",
    "is_zyte_item",
    "not_downloaded",
    "poet_installed",
    "zyte_article",
    "zyte_article_list",
    "zyte_item",
    "zyte_navigation",
    "zyte_record",
    "SchemaPipeline",
]

_LAZY = {
    "CxArticle": "._items",
    "CxImage": "._items",
    "CxLink": "._items",
    "CxPost": "._items",
    "downloaded_at": "._convert",
    "zyte_article": "._convert",
    "zyte_article_list": "._convert",
    "zyte_navigation": "._convert",
    "zyte_record": "._convert",
    "zyte_item": "._convert",
    "SchemaPipeline": "._pipeline",
    "Extraction": "._provider",
    "ExtractionProvider": "._provider",
    "TeasersProvider": "._provider",
    "Teasers": "._teasers",
    "CxArticlePage": "._pages",
    "CxFullArticlePage": "._pages",
    "CxArticleListPage": "._pages",
    "CxArticleNavigationPage": "._pages",
}


def __getattr__(name: str) -> Any:
    """The extra's names on first use: ImportError naming the extra if it is missing."""
    if name not in _LAZY:
        raise AttributeError(f"module 'scrapy_cx.zyte' has no attribute {name!r}")
    try:
        module = importlib.import_module(_LAZY[name], __name__)
    except ImportError as exc:
        raise ImportError(f"scrapy_cx.zyte.{name} needs the zyte extra: {INSTALL}") from exc
    return getattr(module, name)
