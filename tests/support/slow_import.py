"""An extractor in a module that takes :data:`IMPORT_SECONDS` to import (as one that
imports Scrapy does on a busy machine), for a crawl with worker processes."""

from __future__ import annotations

import time
from typing import Any

from scrapy_cx import Article, ArticleMiddleware, extract_article

#: Seconds this module takes to import: past the page deadline of the test using it.
IMPORT_SECONDS = 3.0

time.sleep(IMPORT_SECONDS)


def extract(html: bytes | str, url: str | None = None, **kwargs: Any) -> Article:
    """``extract_article`` itself, from this module."""
    return extract_article(html, url, **kwargs)


class SlowImportMiddleware(ArticleMiddleware):
    """The real middleware with :func:`extract`, from a module slow to import."""

    extract = staticmethod(extract)
