"""What one sitemap or feed gave the spider: its entries, and what was left out."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Entry", "Listed"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One URL a sitemap or feed lists, with its date as written (None if none)."""

    url: str
    date: str | None = None


@dataclass(slots=True)
class Listed:
    """What one sitemap or feed gave: the entries read, and how many were left out."""

    kind: str  # "sitemapindex", "urlset", "feed", or "" (unreadable)
    entries: list[Entry]
    capped: int = 0
    #: Why it is unreadable, when a reason is known ("entity expansion", "not JSON"...).
    why: str = ""
    #: Entries left out as unusable (a link holding an entity reference).
    bad: int = 0
