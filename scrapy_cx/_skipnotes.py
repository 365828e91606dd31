"""Why an item's page was not extracted, handed from the spider middleware to the pipeline.

An item like ``{"url": response.url}`` from a page the downloader middleware
skipped (too large, a PDF, JSON) reaches the pipeline empty; without this the
pipeline could only call it ``no_content``, which hides the real reason. The
note lives only between the callback yielding the item and the item leaving
the pipelines: the pipeline takes it, and Scrapy's item signals clear what no
pipeline took (our pipeline switched off, an earlier pipeline dropping it).
"""

from __future__ import annotations

import weakref
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler

__all__ = ["SkipNotes"]

_notes: weakref.WeakKeyDictionary[Crawler, SkipNotes] = weakref.WeakKeyDictionary()


class SkipNotes:
    """One crawler's notes: item (by identity) -> the reason its page was skipped."""

    def __init__(self) -> None:
        # id -> (item, reason): the item is held so its id cannot be reused meanwhile.
        self._by_id: dict[int, tuple[Any, str]] = {}

    @classmethod
    def of(cls, crawler: Crawler) -> SkipNotes:
        """The crawler's notes, created (and wired to its item signals) on first use."""
        notes = _notes.get(crawler)
        if notes is None:
            notes = _notes[crawler] = cls()
            for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
                crawler.signals.connect(notes._forget, signal=signal)
        return notes

    def note(self, item: Any, reason: str) -> None:
        self._by_id[id(item)] = (item, reason)

    def take(self, item: Any) -> str | None:
        """The reason noted for ``item`` (and forget it), or None."""
        entry = self._by_id.pop(id(item), None)
        return entry[1] if entry is not None and entry[0] is item else None

    def __len__(self) -> int:
        return len(self._by_id)

    def _forget(self, item: Any, **kwargs: Any) -> None:
        self.take(item)
