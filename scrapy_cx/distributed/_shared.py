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

A process that dies (SIGKILL, OOM, a lost machine) must not take work with
it: :mod:`scrapy_cx.leases` leases requests instead of popping them, so a
request taken by a dead process is fetched again by another, and
:class:`ExportOnce` makes every article exported exactly once even then: it
records the URL and appends the item to one shared Redis list in a single
atomic step, so a page fetched twice is exported once, and an item is either
in the list or its request is still leased and will be fetched again.
:func:`export_items` (``python -m scrapy_cx.distributed``) writes that list
out as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any, BinaryIO

from itemadapter import ItemAdapter
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, DropItem, NotConfigured

from ..settings import CxSettings
from ._health import RedisHealth, redis_errors

__all__ = [
    "DEFAULT_IDLE_CLOSE",
    "ExportFailed",
    "ExportOnce",
    "IdleClose",
    "SharedStartRequests",
    "export_items",
]

#: Redis keys of ExportOnce, per spider: the URLs exported and the items, in order.
EXPORTED_KEY = "%(spider)s:exported"
ITEMS_KEY = "%(spider)s:articles"
_EXPORT = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  return 1
end
return 0
"""
_EXPORT_BATCH = 1000
#: Seconds before an export record Redis did not take is tried again; doubled each
#: time up to RETRY_MOST (a full Redis is usually relieved within seconds).
RETRY_FIRST = 0.25
RETRY_MOST = 4.0

#: Seconds an idle spider waits for other processes to refill the shared queue.
DEFAULT_IDLE_CLOSE = CxSettings.redis_idle_close


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
        timeout = CxSettings.from_settings(crawler.settings).redis_idle_close
        if timeout == 0:
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


class ExportFailed(DropItem):
    """The export record could not be written while Redis answered: the item is dropped
    (one log line, not a traceback) and its page not acknowledged (``LeaseAcks``)."""


class ExportOnce:
    """Item pipeline: each URL's item goes to the shared Redis list once, whoever fetched it.

    The last pipeline (order 900): what reaches it is an article. Recording the
    URL and appending the item is one Lua script, so it happens entirely or
    not at all; a second item for the same URL (the page fetched again after
    its first process died before acknowledging it) is dropped, so the
    per-process feeds hold no duplicates either. Items without a ``url`` are
    passed on unrecorded.
    """

    def __init__(self, crawler: Crawler) -> None:
        from scrapy_redis.connection import get_redis_from_settings

        self.server = get_redis_from_settings(crawler.settings)
        self.script = self.server.register_script(_EXPORT)
        self.health = RedisHealth.of(crawler)
        self.errors = redis_errors()
        self.keys: list[str] = []
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExportOnce:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        names = {"spider": spider.name}
        self.keys = [EXPORTED_KEY % names, ITEMS_KEY % names]

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        adapter = ItemAdapter(item)
        url = adapter.get("url")
        if not url:
            return item
        line = json.dumps(adapter.asdict(), ensure_ascii=False, default=str)
        if not await self._record(url, line):
            raise DropItem(f"already exported: {url}")
        return item

    async def _record(self, url: str, line: str) -> bool:
        """Run the export script; while Redis does not answer (unreachable, or full: the
        script then writes nothing), wait and try again, up to ``CX_REDIS_GIVE_UP``.
        Past that it is dropped as :class:`ExportFailed`, and its page is not acknowledged
        (``LeaseAcks``), so it is fetched and exported again later, never lost."""
        from scrapy.utils.defer import maybe_deferred_to_future
        from twisted.internet import reactor
        from twisted.internet.task import deferLater

        delay = RETRY_FIRST
        while True:
            try:
                added = bool(self.script(keys=self.keys, args=[url, line]))
            except self.errors as exc:
                self.health.failed(exc, "recording an exported article")
                down = self.health.down_since
                if down is not None and time.monotonic() - down >= self.health.give_up:
                    raise ExportFailed(
                        f"not exported: Redis did not take its record ({type(exc).__name__}); "
                        f"its page stays leased and is fetched again: {url}"
                    ) from None
                await maybe_deferred_to_future(deferLater(reactor, delay, lambda: None))
                delay = min(2 * delay, RETRY_MOST)
                continue
            self.health.answered()
            return added


def export_items(redis_url: str, spider: str, out: BinaryIO) -> int:
    """Write the spider's exactly-once items as JSON lines; returns how many."""
    import redis

    server = redis.Redis.from_url(redis_url)
    key = ITEMS_KEY % {"spider": spider}
    written = 0
    while True:
        lines = server.lrange(key, written, written + _EXPORT_BATCH - 1)
        if not lines:
            return written
        for line in lines:
            out.write((line if isinstance(line, bytes) else line.encode("utf-8")) + b"\n")
        written += len(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m scrapy_cx.distributed REDIS_URL SPIDER [-o FILE]``."""
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_cx.distributed",
        description="Write the articles a distributed crawl exported (once each) as JSON lines.",
    )
    parser.add_argument("redis_url")
    parser.add_argument("spider")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args(argv)
    if args.output == "-":
        count = export_items(args.redis_url, args.spider, sys.stdout.buffer)
    else:
        with open(args.output, "wb") as out:
            count = export_items(args.redis_url, args.spider, out)
    print(f"{count} articles", file=sys.stderr)
    return 0

