"""Two small components for crawls that share one queue (scrapy-redis) across processes.

Scrapy was written for one process owning its queue, and two of its defaults
hurt when several processes share one:

* start requests are sent with ``dont_filter=True``, so every process fetches
  every start URL (with ``-a urls=list.txt`` every article would be exported
  once per process). :class:`SharedStartRequests` lets the shared dupefilter
  hand each start URL to exactly one process.
* a spider closes as soon as it is idle, but with a shared queue "nothing to do
  right now" is not "done": another process may be about to push the links of
  the page it is parsing. :class:`IdleClose` keeps the spider open until it has
  been idle for ``CX_REDIS_IDLE_CLOSE`` seconds (an idle spider looks at the
  shared queue again at each Scrapy heartbeat, every 5 seconds).

Neither keeps state about other processes: all shared state lives in Redis.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured

from .settings import DEFAULTS

__all__ = ["IdleClose", "SharedStartRequests", "DEFAULT_IDLE_CLOSE"]

#: Seconds an idle spider waits for other processes to refill the shared queue.
DEFAULT_IDLE_CLOSE: float = DEFAULTS["CX_REDIS_IDLE_CLOSE"]


def _shared(item: Any) -> Any:
    if isinstance(item, Request) and item.dont_filter:
        return item.replace(dont_filter=False)
    return item


class SharedStartRequests:
    """Spider middleware: start requests go through the (shared) dupefilter like any other."""

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for item in start:
            yield _shared(item)

    def process_start_requests(
        self, start_requests: Iterable[Any], spider: Spider
    ) -> Iterator[Any]:
        """Scrapy < 2.13 calls this instead of :meth:`process_start`."""
        for item in start_requests:
            yield _shared(item)


class IdleClose:
    """Extension: close the spider only after ``CX_REDIS_IDLE_CLOSE`` seconds without work."""

    def __init__(self, crawler: Crawler, timeout: float) -> None:
        self.crawler = crawler
        self.timeout = timeout
        self.idle_since: float | None = None
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.busy, signal=signals.request_reached_downloader)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> IdleClose:
        timeout = crawler.settings.getfloat("CX_REDIS_IDLE_CLOSE", DEFAULT_IDLE_CLOSE)
        if timeout <= 0:
            raise NotConfigured("CX_REDIS_IDLE_CLOSE is 0: close as soon as idle")
        return cls(crawler, timeout)

    def busy(self, *args: Any, **kwargs: Any) -> None:
        self.idle_since = None

    def spider_idle(self, spider: Spider) -> None:
        now = time.monotonic()
        if self.idle_since is None:
            self.idle_since = now
        if now - self.idle_since < self.timeout:
            raise DontCloseSpider
