"""Item pipeline: drop (or mark) reposts of an article already seen in this crawl.

Runs after :class:`~scrapy_cx.ArticlePipeline`, so it only sees articles.
The main text's fingerprint (``fingerprint``, filled by the extraction, or
computed here from ``content`` for items that carry none) is looked up in a
:mod:`scrapy_cx.dedup` index: in this process, or in ``CX_REDIS_URL`` when
the crawl is shared, so two processes never both keep the same story. A
failing Redis is logged and counted, and the item goes on: a dedup step never
loses an article. A check in Redis runs in a thread, bounded by
:data:`REDIS_TIMEOUT`: a Redis slow or gone must not hold the crawl's reactor
(and with it every page's deadline in the extraction workers).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Coroutine
from typing import Any

from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from ..article import Article
from ..extract.fields.fingerprint import fingerprint, signature
from ..items import ArticleItem, can_hold
from ..settings import CxSettings, SettingError
from ..stats import CxStats
from ..verdict import drop_log_level
from ._index import DedupIndex, MemoryIndex, RedisIndex

__all__ = ["DedupPipeline"]

logger = logging.getLogger(__name__)

#: After ArticlePipeline (100), before the project's pipelines (300 in the template).
ORDER = 150
#: Redis keys of the shared index: ``<spider name>`` then this.
REDIS_SUFFIX = "cx-dedup"
#: Seconds one check in Redis may take before the item goes on unchecked.
REDIS_TIMEOUT = 5.0


class DedupPipeline:
    """Near-duplicate main texts: the first article is kept, its reposts dropped or marked."""

    def __init__(self, crawler: Crawler, settings: CxSettings) -> None:
        self.crawler = crawler
        self.settings = settings
        self.stats = CxStats(crawler)
        self.drop_log_level = drop_log_level(crawler)
        self.index: DedupIndex | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DedupPipeline:
        settings = CxSettings.for_crawler(crawler)
        if not settings.dedup:
            raise NotConfigured("CX_DEDUP is False")
        if settings.redis_url:
            try:
                import redis  # noqa: F401 - only whether it is there
            except ImportError:  # else every item failed its check: a crawl of 0 items, exit 0
                raise SettingError(
                    "CX_DEDUP with CX_REDIS_URL needs the redis package: "
                    "pip install redis (in a checkout: pip install -e '.[redis]')"
                ) from None
        return cls(crawler, settings)

    def _open_index(self, spider: Spider | None) -> DedupIndex:
        threshold = self.settings.dedup_threshold
        if not self.settings.redis_url:
            return MemoryIndex(threshold)
        spider = spider or self.crawler.spider
        name = getattr(spider, "name", None) or "scrapy"
        prefix = f"{name}:{REDIS_SUFFIX}"
        return RedisIndex.from_url(self.settings.redis_url, prefix, threshold, REDIS_TIMEOUT)

    def process_item(
        self, item: Any, spider: Spider | None = None
    ) -> Any | Coroutine[Any, Any, Any]:
        if isinstance(item, Article):
            item = ArticleItem.from_article(item)
        if not ItemAdapter.is_item(item):
            return item
        adapter = ItemAdapter(item)
        fp = _fingerprint(adapter)
        if fp is None:  # no text, or too short to tell a repost from a coincidence
            return item
        url = str(adapter.get("url") or "")
        if self.index is None:
            self.index = self._open_index(spider)
        if isinstance(self.index, RedisIndex):
            reactor = _running_reactor()
            if reactor is not None:  # a crawl: Scrapy awaits the coroutine
                return self._add_in_thread(reactor, self.index, item, fp, url)
            try:
                first = self.index.add(fp, url)
            except Exception as error:  # a Redis gone away: keep the item, say so
                return self._failed(item, url, error)
            return self._verdict(item, first, url)
        return self._verdict(item, self.index.add(fp, url), url)

    async def _add_in_thread(
        self, reactor: Any, index: DedupIndex, item: Any, fp: str, url: str
    ) -> Any:
        check = deferToThread(index.add, fp, url)
        check.addTimeout(REDIS_TIMEOUT, reactor)
        try:
            first = await maybe_deferred_to_future(check)
        except Exception as error:  # a Redis gone away or stuck: keep the item, say so
            return self._failed(item, url, error)
        return self._verdict(item, first, url)

    def _failed(self, item: Any, url: str, error: Exception) -> Any:
        logger.error("scrapy-cx: duplicate check failed for %s: %r", url, error)
        self.stats.inc("dedup_errors")
        return item

    def _verdict(self, item: Any, first: str | None, url: str) -> Any:
        """``item`` kept (``first`` None), marked, or dropped as a repost of ``first``."""
        adapter = ItemAdapter(item)
        if first is None:
            return item
        if self.settings.dedup_mode == "mark":
            self.stats.inc("duplicates")
            if can_hold(adapter, "duplicate_of"):
                adapter["duplicate_of"] = first
            return item
        self.stats.dropped("duplicate")
        drop = DropItem(f"scrapy-cx: duplicate of {first}: {url}")
        drop.log_level = self.drop_log_level  # newer Scrapy reads it; older logs WARNING
        raise drop


def _running_reactor() -> Any:
    """The installed Twisted reactor if it runs (a crawl), else None; never installs one."""
    reactor = sys.modules.get("twisted.internet.reactor")
    return reactor if reactor is not None and getattr(reactor, "running", False) else None


def _fingerprint(adapter: ItemAdapter) -> str | None:
    """The item's own fingerprint if it is one of ours, else one made from its content."""
    fp = adapter.get("fingerprint")
    if isinstance(fp, str) and fp:
        try:
            signature(fp)
        except ValueError:  # another scheme's: make ours
            pass
        else:
            return fp
    content = adapter.get("content")
    if isinstance(content, (list, tuple)):
        content = "\n".join(map(str, content))
    return fingerprint(content) if isinstance(content, str) else None
