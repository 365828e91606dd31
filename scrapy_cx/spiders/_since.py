"""The date window (``-a since=``) and the dates feeds and sitemaps write."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

__all__ = ["older_than", "parse_date", "parse_since"]

_DURATION = re.compile(r"^\s*(\d+)\s*([dhwm])\s*$", re.I)
_UNITS = {"d": "days", "h": "hours", "w": "weeks", "m": "minutes"}


def parse_since(value: str | None, now: datetime | None = None) -> datetime | None:
    """``2024-05-01`` (from its midnight, UTC), an ISO 8601 time, or a duration back from
    now (``2d``, ``12h``, ``1w``, ``30m``); None for none. ValueError names what is allowed."""
    if value is None or not str(value).strip():
        return None
    text = str(value).strip()
    match = _DURATION.match(text)
    if match:
        now = now or datetime.now(timezone.utc)
        return now - timedelta(**{_UNITS[match.group(2).lower()]: int(match.group(1))})
    found = parse_date(text)
    if found is None:
        raise ValueError(
            f"since={value!r}: give a date (2024-05-01), an ISO 8601 time or a duration "
            "(2d, 12h, 1w, 30m)"
        )
    return found


def parse_date(text: str | None) -> datetime | None:
    """A feed's or sitemap's date, aware (UTC when it names no zone), or None: ISO 8601
    (sitemaps, Atom, ``dc:date``, Article.published) or RFC 822 (RSS ``pubDate``)."""
    if not text:
        return None
    text = text.strip()
    if not text:
        return None
    found = _iso(text.replace("Z", "+00:00").replace("z", "+00:00"))
    if found is None:
        try:
            found = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            found = _iso(text[:10])  # "2024-05-01 09:00 CET": its day at least
    if found is None:
        return None
    if found.tzinfo is None:
        found = found.replace(tzinfo=timezone.utc)
    return found


def _iso(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def older_than(text: str | None, since: datetime | None) -> bool:
    """Whether a date (as written) is before ``since``; an unknown date is not."""
    if since is None:
        return False
    found = parse_date(text)
    return found is not None and found < since
