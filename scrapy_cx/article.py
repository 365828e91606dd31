"""The article record: what every extractor in scrapy-cx returns."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Article:
    """One extracted news article.

    Immutable so a result attached to a response can be shared between the
    middleware, the spider and the pipeline without defensive copies.
    ``published`` is ISO 8601 (``2009-11-09`` or ``2009-11-09T13:57:00+08:00``);
    ``published_raw`` is the text it was read from, kept for auditing.
    ``content`` holds the main text, one paragraph per line; ``fingerprint``
    is its near-duplicate fingerprint (:mod:`scrapy_cx.extract.fingerprint`),
    None when the text is too short to have one. ``duplicate_of`` is set by
    the crawl's dedup step (``CX_DEDUP_MODE = "mark"``), never by extraction:
    the URL of the first article this one reposts.
    """

    url: str | None = None
    title: str | None = None
    published: str | None = None
    published_raw: str | None = None
    content: str = ""
    authors: tuple[str, ...] = field(default_factory=tuple)
    keywords: tuple[str, ...] = field(default_factory=tuple)
    description: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    fingerprint: str | None = None
    duplicate_of: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (tuples become lists), in field order."""
        data = asdict(self)
        data["authors"] = list(self.authors)
        data["keywords"] = list(self.keywords)
        return data

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Field names in export order."""
        return tuple(f.name for f in fields(cls))
