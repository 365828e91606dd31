"""JSON Feed (https://jsonfeed.org, versions 1.0 and 1.1), read as JSON.

Sites declare it as ``application/feed+json``; before, it went to the XML
parser and failed every time. Bounded like the XML feeds: the body is the
download's (``feed_max_size``, inflated within it), at most ``limit`` entries
are kept, and a document nested past Python's recursion limit is unreadable,
never a crash. Only ``url`` (the item's own page) is read, not ``external_url``
(the page it comments on, usually another site's).
"""

from __future__ import annotations

import json
from typing import Any

from ._listed import Entry, Listed

__all__ = ["json_feed_entries"]

VERSION_PREFIX = "https://jsonfeed.org/version/1"


def json_feed_entries(body: bytes, limit: int) -> Listed:
    """A JSON Feed's item URLs and dates (``date_published``, else ``date_modified``)."""
    try:
        feed: Any = json.loads(body)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return Listed("", [], why="not JSON")
    version = feed.get("version") if isinstance(feed, dict) else None
    items = feed.get("items") if isinstance(feed, dict) else None
    if not (isinstance(version, str) and version.startswith(VERSION_PREFIX)):
        return Listed("", [], why="JSON, but no JSON Feed version")
    if not isinstance(items, list):
        return Listed("", [], why="a JSON Feed without items")
    listed = Listed("feed", [])
    for item in items:
        url = item.get("url") if isinstance(item, dict) else None
        if not isinstance(url, str) or not url.strip():
            listed.bad += 1
            continue
        if len(listed.entries) >= limit:
            listed.capped += 1
            continue
        date = item.get("date_published") or item.get("date_modified")
        listed.entries.append(Entry(url.strip(), date if isinstance(date, str) else None))
    return listed
