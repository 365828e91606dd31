"""When an exported article counts as seen: once its feeds hold it, not before.

A URL recorded as seen is never fetched again; recorded before the feed file
holds the item, a kill between the two loses the article for good (issue 43,
item 3). Scrapy builds the spider before its extensions, so a handler the
spider connects to ``item_scraped`` at once runs before the feed exporter's;
this one is connected at ``spider_opened``, after it. Every feed a
:class:`~._feeds.SyncedFile` (or none, with the item through the pipelines): the
URLs are recorded per item. Otherwise (S3, stdout, a gzipped feed) they are
recorded when the feed exporter has closed every feed without an error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler

from ._feeds import SyncedFile, synced_per_item
from ._seen import SeenStore

__all__ = ["ExportLedger"]

logger = logging.getLogger(__name__)


class ExportLedger:
    """Move an exported item's URLs into ``seen`` once the item is durably out."""

    def __init__(
        self,
        crawler: Crawler,
        seen: SeenStore,
        urls_of: Callable[[Any, Any], Iterable[str]],
    ) -> None:
        self.crawler = crawler
        self.seen = seen
        self.urls_of = urls_of
        self.per_item = synced_per_item(crawler.settings)
        self.pending: list[str] = []
        self.files: list[SyncedFile] = []
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        if not self.per_item:
            crawler.signals.connect(self.feeds_closed, signal=signals.feed_exporter_closed)

    def spider_opened(self, spider: Any) -> None:
        # Connected now, after the feed exporter's own item_scraped handler.
        self.crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)

    def watch(self, file: SyncedFile) -> None:
        """A feed file to put on disk after each record (kept sets only)."""
        if self.seen.kept:
            self.files.append(file)

    def item_scraped(self, item: Any, response: Any = None, spider: Any = None) -> None:
        urls = self.urls_of(item, response)
        if not self.per_item:
            self.pending.extend(urls)
            return
        # The item is in the feed (the kernel's) already; recorded at once, then the
        # feed put on disk: a kill between the two syscalls is all that could repeat it.
        self.seen.add(urls)
        self.files = [f for f in self.files if not f.closed]
        for file in self.files:
            file.sync()

    def feeds_closed(self) -> None:
        stats = self.crawler.stats.get_stats() if self.crawler.stats else {}
        if any(key.startswith("feedexport/failed_count/") for key in stats):
            logger.warning(
                "A feed failed: %d exported URLs not recorded as seen (fetched again next run)",
                len(self.pending),
            )
        else:
            self.seen.add(self.pending)
        self.pending = []
        self.seen.close()

    def close(self) -> None:
        """At the spider's close: the store stays open for a feed still to be stored."""
        if self.per_item:
            self.seen.close()
