"""The ``cx/*`` stats and the one summary line logged when the spider closes.

Every component counts into the crawler's stats collector (so the counts show
up in Scrapy's stats dump, in scrapy-redis stats, in monitoring); the summary
is connected once per crawler however many scrapy-cx components are enabled.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler

from .article import Article

logger = logging.getLogger("scrapy_cx")

PREFIX = "cx/"
# crawler -> its summary receiver; the signal manager holds receivers weakly, this
# keeps each alive exactly as long as its crawler.
_receivers: weakref.WeakKeyDictionary[Crawler, Any] = weakref.WeakKeyDictionary()


class CxStats:
    """Counts under ``cx/`` in one crawler's stats collector."""

    def __init__(self, crawler: Crawler) -> None:
        self._crawler = crawler
        connect_summary(crawler)

    def inc(self, key: str, count: int = 1) -> None:
        stats = self._crawler.stats
        if stats is not None:
            stats.inc_value(PREFIX + key, count)

    def page(self, article: Article, url: str | None) -> None:
        """One page extracted: counted, and under ``truncated`` (with a log line
        naming it) when it was too big to read whole (``Article.truncated``)."""
        self.inc("pages")
        if article.truncated:
            self.inc("truncated")
            logger.info("scrapy-cx: page too big to read whole, extracted from its start: %s", url)

    def article(self) -> None:
        self.inc("articles")

    def skipped(self, reason: str) -> None:
        self.inc(f"skipped/{reason}")

    def dropped(self, reason: str) -> None:
        self.inc(f"dropped/{reason}")

    def error(self) -> None:
        self.inc("errors")


def summary(stats: dict[str, Any]) -> str:
    """``scrapy-cx: N pages, M articles, skipped {...}, dropped {...}, errors E``."""
    skipped = _group(stats, "skipped/")
    dropped = _group(stats, "dropped/")
    return (
        f"scrapy-cx: {stats.get(PREFIX + 'pages', 0)} pages, "
        f"{stats.get(PREFIX + 'articles', 0)} articles, "
        f"skipped {skipped}, dropped {dropped}, errors {stats.get(PREFIX + 'errors', 0)}"
    )


def _group(stats: dict[str, Any], sub: str) -> dict[str, int]:
    start = PREFIX + sub
    return {
        key[len(start) :]: value for key, value in sorted(stats.items()) if key.startswith(start)
    }


def connect_summary(crawler: Crawler) -> None:
    """Log :func:`summary` on ``spider_closed``, once per crawler."""
    if crawler in _receivers:
        return

    def log_summary(spider: Any, reason: str | None = None) -> None:
        # The crawler comes from the spider, so this closure does not keep it alive.
        stats_collector = getattr(getattr(spider, "crawler", None), "stats", None)
        stats = stats_collector.get_stats() if stats_collector is not None else {}
        logger.info(summary(stats), extra={"spider": spider})

    _receivers[crawler] = log_summary
    crawler.signals.connect(log_summary, signal=signals.spider_closed)
