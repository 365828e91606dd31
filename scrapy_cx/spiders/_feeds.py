"""Local feed files that hold each item once Scrapy's exporter has written it.

Scrapy's ``FileFeedStorage`` opens the feed buffered: a SIGKILL loses the items in
the buffer, while the spider has already recorded them as exported (issue 43,
item 3). :class:`SyncedFileFeedStorage` writes each exporter write straight to the
file, so by the time the ``item_scraped`` handlers that run after the feed
exporter's own see an item, the file holds it (synced to disk once recorded). A
feed that is not such a file (S3, FTP, stdout, a post-processed one) holds its
items only once closed: :func:`synced_per_item` tells the spider to record those
at the end.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy.extensions.feedexport import FileFeedStorage
from scrapy.settings import BaseSettings
from scrapy.utils.misc import load_object

__all__ = ["STORAGES", "SyncedFile", "SyncedFileFeedStorage", "synced_per_item"]


class SyncedFile(io.FileIO):
    """An unbuffered file: every ``write`` is in the file (the kernel's, which a
    SIGKILL does not lose) when it returns; :meth:`sync` puts it on disk."""

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):  # a short write: write the rest, never leave half an item
            done += super().write(view[done:]) or 0
        return done

    def sync(self) -> None:
        if not self.closed:
            os.fsync(self.fileno())


class SyncedFileFeedStorage(FileFeedStorage):
    """``FileFeedStorage`` (same URIs, same ``overwrite``) writing through :class:`SyncedFile`.

    In a crawl that keeps what it exported across runs, each file opened is handed
    to the spider's :class:`~._exported.ExportLedger`, which syncs it (``fsync``, about
    2 ms on ext4) right after recording an item's URLs: a power cut then cannot
    leave an article recorded and not in the feed, and a SIGKILL finds no window of
    an fsync's length between the item's write and its record."""

    ledger: Any = None

    @classmethod
    def from_crawler(
        cls, crawler: Any, uri: str, *, feed_options: dict[str, Any] | None = None
    ) -> SyncedFileFeedStorage:
        storage = cls(uri, feed_options=feed_options)
        storage.ledger = getattr(getattr(crawler, "spider", None), "ledger", None)
        return storage

    def open(self, spider: Any) -> Any:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        file = SyncedFile(self.path, "w" if self.write_mode == "wb" else "a")
        if self.ledger is not None:
            self.ledger.watch(file)
        return file


_PATH = f"{__name__}.SyncedFileFeedStorage"
#: ``FEED_STORAGES`` for the news spider: local paths and file: URIs are synced.
STORAGES = {"": _PATH, "file": _PATH}


def synced_per_item(settings: BaseSettings) -> bool:
    """Whether every feed holds an item as soon as it is exported (no feed: true)."""
    storages = settings.getwithbase("FEED_STORAGES")
    for uri, options in settings.getdict("FEEDS").items():
        scheme = urlsplit(str(uri)).scheme
        if len(scheme) == 1:  # a Windows drive letter
            scheme = ""
        path = storages.get(scheme)
        if path is None or (options or {}).get("postprocessing"):
            return False
        storage = load_object(path) if isinstance(path, str) else path
        if not (isinstance(storage, type) and issubclass(storage, SyncedFileFeedStorage)):
            return False
    return True
