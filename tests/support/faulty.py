"""An extractor that misbehaves on marked URLs, for crawls with worker processes.

Importable by name (``tests.support.faulty``), so a worker process can load it:
``FaultyMiddleware`` replaces ``ArticleMiddleware`` in a real ``scrapy crawl``.
"""

from __future__ import annotations

import os
import time
from typing import Any

from scrapy_cx import Article, ArticleMiddleware, ArticlePipeline, extract_article
from scrapy_cx.pool import _pool

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


class FaultyPipeline(ArticlePipeline):
    """The real pipeline with :func:`extract` as its extractor (raw HTML items)."""

    extract = staticmethod(extract)


def fail_first_starts(counter: str, failures: int) -> None:
    """A worker warm-up that exits its process (before the worker is ready) the first
    ``failures`` times, counted in the file ``counter``: a fault that passes."""
    with open(counter, "ab") as fh:
        fh.write(b"x")
        count = fh.tell()
    if count <= failures:
        os._exit(3)


def never_start() -> None:
    """A worker warm-up that always exits its process: workers that cannot run."""
    os._exit(3)


#: Seconds of failed starts before :class:`WorkersNeverStartMiddleware`'s pool gives up:
#: the pool's rule (five failures in a row *and* this long) with a shorter wait than
#: the real 20 s, which cost CI a minute over the two reactors and two Scrapy versions.
NEVER_START_GIVE_UP_SECONDS = 4.0


class WorkersNeverStartMiddleware(ArticleMiddleware):
    """The real middleware whose workers all exit before they are ready (its pool gives
    up after :data:`NEVER_START_GIVE_UP_SECONDS`)."""

    warm_up = staticmethod(never_start)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _pool.START_GIVE_UP_SECONDS = NEVER_START_GIVE_UP_SECONDS  # this crawl's process only
        super().__init__(*args, **kwargs)


#: Seconds :class:`StallingPipeline` holds the reactor: past the tests' page deadline.
STALL_SECONDS = 3.5


class StallingPipeline:
    """Holds the reactor :data:`STALL_SECONDS` on the first item (a slow callback),
    while the workers have pages in hand."""

    def __init__(self) -> None:
        self.stalled = False

    def process_item(self, item: Any, spider: Any = None) -> Any:
        if not self.stalled:
            self.stalled = True
            time.sleep(STALL_SECONDS)
        return item
