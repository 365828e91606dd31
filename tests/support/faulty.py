"""An extractor that misbehaves on marked URLs, for crawls with worker processes.

Importable by name (``tests.support.faulty``), so a worker process can load it:
``FaultyMiddleware`` replaces ``ArticleMiddleware`` in a real ``scrapy crawl``.
"""

from __future__ import annotations

import os
import time
from typing import Any

from scrapy_cx import Article, ArticleMiddleware, extract_article

#: Seconds the "/hang" page takes: far past any CX_PAGE_TIMEOUT of the tests.
HANG_SECONDS = 300
#: Seconds a "/slow-N" page takes: a slow pool, within any deadline.
SLOW_SECONDS = 0.3


def extract(html: bytes | str, url: str | None = None, **kwargs: Any) -> Article:
    """``extract_article``, except: ``/hang`` never ends, ``/die`` kills its process,
    ``/slow-N`` takes :data:`SLOW_SECONDS`."""
    if url and "/slow-" in url:
        time.sleep(SLOW_SECONDS)
    if url and url.endswith("/hang"):
        time.sleep(HANG_SECONDS)
    if url and url.endswith("/die"):
        os._exit(9)  # what a segfault or the OOM killer does
    return extract_article(html, url, **kwargs)


class FaultyMiddleware(ArticleMiddleware):
    """The real middleware with :func:`extract` as its extractor."""

    extract = staticmethod(extract)
