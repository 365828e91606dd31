"""The ``cx/*`` stats and the one summary line logged when the spider closes.

Every component counts into the crawler's stats collector (so the counts show
up in Scrapy's stats dump, in scrapy-redis stats, in monitoring); the summary
is logged once per crawler however many scrapy-cx components are enabled.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler

from .article import Article

logger = logging.getLogger(__name__)

PREFIX = "cx/"


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
    """Log :func:`summary` on ``spider_closed``, once per crawler: Scrapy's signal
    manager connects a receiver once per signal and crawler, however often it is asked
    (every component asks), and a module's function lives as long as the process."""
    crawler.signals.connect(_log_summary, signal=signals.spider_closed)


def _log_summary(spider: Any, reason: str | None = None) -> None:
    stats_collector = getattr(getattr(spider, "crawler", None), "stats", None)
    stats = stats_collector.get_stats() if stats_collector is not None else {}
    logger.info(summary(stats), extra={"spider": spider})
