"""What happens to an item: kept as an article, or dropped, and why.

One rule for the crawl's pipelines and for bulk extraction (:func:`invalid_reason`:
a short reason, a stats key, or None), the notes that carry a skipped page's
reason from the spider middleware to the pipeline (:class:`SkipNotes`), and the
level drops are logged at. Scrapy-free at import, so ``python -m scrapy_cx``
(bulk) and the pipeline decide alike on the same fields.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Collection, Mapping
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from .settings import CxSettings

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = [
    "SkipNotes",
    "article_reason",
    "content_length",
    "drop_log_level",
    "invalid_reason",
    "is_empty",
    "is_iso_date",
]

_ISO_DATE_LENGTH = 10  # "2009-11-09": the shortest ISO 8601 value we accept
# Wide (CJK) characters: one says about as much as two Latin letters, so a
# 120-character Chinese news item is as long as a 240-letter English one.
_WIDE = re.compile(
    r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3"  # Hangul Jamo; CJK, kana, Yi; Hangul
    r"\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60]"  # CJK compatibility; full-width forms
)


def content_length(text: str) -> int:
    """The length the minimum is checked against: characters, wide ones counted twice."""
    text = text.strip()
    if text.isascii():  # (a flag of the string: no scan of a long text)
        return len(text)
    return len(text) + len(_WIDE.findall(text))


def is_empty(value: Any) -> bool:
    """Whether a field counts as not filled in (None, blank text, empty collection)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return not value
    return False


def is_iso_date(value: Any) -> bool:
    """ISO 8601 date or date-time (``2009-11-09``, ``2009-11-09T13:57:00+08:00``)."""
    if isinstance(value, (date, datetime)):
        return True
    if not isinstance(value, str) or len(value) < _ISO_DATE_LENGTH:
        return False
    text = value.strip()
    if text.endswith(("Z", "z")):  # Python < 3.11 does not read the Z suffix
        text = text[:-1] + "+00:00"
    try:
        if len(text) == _ISO_DATE_LENGTH:
            date.fromisoformat(text)
        else:
            datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def invalid_reason(
    fields: Mapping[str, Any],
    min_content_length: int,
    require_published: bool,
    page_types: Collection[str] = CxSettings.page_types,
    min_probability: float = CxSettings.min_article_probability,
) -> str | None:
    """Why these fields are not a usable article (a stats key), or None.

    ``fields`` is any mapping of the article's fields: an ``ItemAdapter`` in the
    pipeline, ``Article.to_dict()`` in bulk extraction. A page the extractor
    judged to be of a type not in ``page_types`` is ``page_type_<type>``; one
    it is less sure than ``min_probability`` is an article (its
    ``article_probability``) is ``low_probability``; the length minimum is a
    sanity check after that.
    """
    content = fields.get("content")
    if content is None or is_empty(content):
        return "no_content"
    page_type = fields.get("page_type")
    if isinstance(page_type, str) and page_type and page_type not in page_types:
        return f"page_type_{page_type}"
    probability = fields.get("article_probability")
    if isinstance(probability, (int, float)) and probability < min_probability:
        return "low_probability"
    if isinstance(content, str):
        text = content
    elif isinstance(content, (list, tuple)):  # paragraphs
        text = "\n".join(map(str, content))
    else:
        text = str(content)
    if content_length(text) < min_content_length:
        return "short_content"
    if is_empty(fields.get("title")):
        return "no_title"
    published = fields.get("published")
    if is_empty(published):
        return "no_published" if require_published else None
    if not is_iso_date(published):
        return "bad_published"
    return None


def article_reason(
    min_content_length: int,
    require_published: bool,
    page_types: Collection[str],
    min_probability: float,
    article: Any,
) -> str | None:
    """:func:`invalid_reason` of an :class:`~scrapy_cx.Article`, made where it was
    extracted (a worker process) so the crawl's process need not judge it again."""
    return invalid_reason(
        article.to_dict(), min_content_length, require_published, page_types, min_probability
    )


#: The fields :func:`invalid_reason` reads: an item whose values of these are the very
#: objects of the article it was filled from is judged as the article was.
JUDGED_FIELDS = ("content", "page_type", "title", "published", "article_probability")


# Why an item's page was not extracted, handed from the spider middleware to the
# pipeline.
# An item like ``{"url": response.url}`` from a page the downloader middleware
# skipped (too large, a PDF, JSON) reaches the pipeline empty; without this the
# pipeline could only call it ``no_content``, which hides the real reason. The
# note lives only between the callback yielding the item and the item leaving
# the pipelines: the pipeline takes it, and Scrapy's item signals clear what no
# pipeline took (our pipeline switched off, an earlier pipeline dropping it).
_notes: weakref.WeakKeyDictionary[Crawler, SkipNotes] = weakref.WeakKeyDictionary()


class SkipNotes:
    """One crawler's notes: item (by identity) -> the reason its page was skipped, or
    the article it was filled from and that article's verdict (:meth:`judged`)."""

    def __init__(self) -> None:
        # id -> (item, reason, article): the item is held so its id cannot be reused
        # meanwhile; article None: the reason is why the page was skipped.
        self._by_id: dict[int, tuple[Any, str | None, Any]] = {}

    @classmethod
    def of(cls, crawler: Crawler) -> SkipNotes:
        """The crawler's notes, created (and wired to its item signals) on first use."""
        notes = _notes.get(crawler)
        if notes is None:
            notes = _notes[crawler] = cls()
            from scrapy import signals

            for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
                crawler.signals.connect(notes._forget, signal=signal)
        return notes

    def note(self, item: Any, reason: str) -> None:
        self._by_id[id(item)] = (item, reason, None)

    def judged(self, item: Any, article: Any, reason: str | None) -> None:
        """``item`` was filled from ``article``, whose verdict (made where it was
        extracted) is ``reason``."""
        self._by_id[id(item)] = (item, reason, article)

    def take(self, item: Any) -> str | None:
        """The reason noted for ``item``'s skipped page (and forget it), or None."""
        entry = self._by_id.pop(id(item), None)
        return entry[1] if entry is not None and entry[0] is item and entry[2] is None else None

    def take_note(self, item: Any) -> tuple[str | None, Any] | None:
        """``(reason, article)`` noted for ``item`` (and forget it): a skip reason with
        article None, else the article's verdict; None if nothing was noted."""
        entry = self._by_id.pop(id(item), None)
        return (entry[1], entry[2]) if entry is not None and entry[0] is item else None

    def __len__(self) -> int:
        return len(self._by_id)

    def _forget(self, item: Any, **kwargs: Any) -> None:
        self.take(item)


def drop_log_level(crawler: Crawler) -> str | None:
    """INFO for our drops (expected, not a warning), unless the project chose a level.

    The project chooses with ``DEFAULT_DROPITEM_LOG_LEVEL``; None leaves it to Scrapy.
    """
    user_level = (crawler.settings.getpriority("DEFAULT_DROPITEM_LOG_LEVEL") or 0) > 0
    return None if user_level else "INFO"
