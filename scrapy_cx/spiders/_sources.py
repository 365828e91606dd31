"""Where a news site lists its articles: robots.txt, sitemaps and feeds, read within bounds.

Sitemaps are read by Scrapy's own :class:`~scrapy.utils.sitemap.Sitemap` (lxml,
entities never resolved), with the ``news:publication_date`` and ``news:title``
of a Google News sitemap read beside each ``loc``. Feeds (RSS 2.0, RSS 1.0/RDF,
Atom) are read with lxml directly rather than feedparser: the spider needs only
each entry's link and date, lxml is already a dependency, and its parser can be
told to expand no entity, load no DTD and fetch nothing (``resolve_entities``,
``load_dtd``, ``no_network``; ``huge_tree`` off bounds depth and text nodes),
where feedparser would add a dependency with its own, looser, entity handling.
Not through parsel either: its Selector hides the parser's error log, which is
how a feed stopped by lxml's limits (a billion laughs: entity amplification) is
told from an empty one, and its XML default is ``huge_tree`` on. A feed that hits
such a limit is unreadable (counted, logged), never an empty feed; an entry whose
link holds an entity reference is left out and counted (its URL would be cut at
the reference). JSON Feed (1.0, 1.1) is read as JSON (:mod:`._jsonfeed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO
from typing import Any

from lxml import etree
from scrapy.utils.sitemap import Sitemap

from ._jsonfeed import json_feed_entries
from ._listed import Entry, Listed

__all__ = ["Entry", "Listed", "feed_entries", "feed_links", "sitemap_entries"]

#: URLs read from one sitemap or feed: the sitemap protocol's own limit per file.
MAX_ENTRIES = 50_000
FEED_TYPES = frozenset(
    "application/rss+xml application/atom+xml application/rdf+xml application/xml "
    "text/xml application/feed+json".split()
)
_ATOM = "{http://www.w3.org/2005/Atom}"
_RSS1 = "{http://purl.org/rss/1.0/}"
_DC_DATE = "{http://purl.org/dc/elements/1.1/}date"
_RDF_ABOUT = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}about"


_NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"


def _news_dates(body: bytes) -> dict[str, str]:
    """A Google News sitemap's ``news:publication_date`` by ``loc`` (Scrapy's Sitemap
    keeps only the text of the ``news:news`` element, which has none)."""
    if _NEWS.encode()[1:-1] not in body:
        return {}
    dates: dict[str, str] = {}
    try:
        for _, url in etree.iterparse(
            BytesIO(body), tag="{*}url", **_SAFE, remove_blank_text=True
        ):
            loc = url.findtext("{*}loc")
            date = url.findtext(f"{_NEWS}news/{_NEWS}publication_date")
            if loc and date:
                dates[loc.strip()] = date.strip()
            url.clear()
    except etree.XMLSyntaxError:
        pass  # what was read before the break is kept
    return dates


def sitemap_entries(body: bytes, limit: int = MAX_ENTRIES) -> Listed:
    """A sitemap's or sitemap index's URLs with their dates (news publication date,
    else ``lastmod``), at most ``limit`` of them (the rest counted in ``capped``)."""
    try:
        sitemap = Sitemap(body)
        kind = sitemap.type if sitemap.type in ("sitemapindex", "urlset") else ""
    except (etree.XMLSyntaxError, ValueError, AttributeError, StopIteration):
        return Listed("", [])  # not XML, or no root element at all
    listed = Listed(kind, [])
    if not kind:
        return listed
    news = _news_dates(body) if kind == "urlset" else {}
    for d in sitemap:
        loc = d.get("loc")
        if not loc:
            continue
        if len(listed.entries) >= limit:
            listed.capped += 1
            continue
        listed.entries.append(Entry(loc, news.get(loc) or d.get("lastmod") or None))
    return listed


# No entity expanded (a billion laughs stays one reference), no DTD loaded, nothing
# fetched; huge_tree off keeps lxml's own depth and text-size limits; recover reads
# what it can of a broken file.
_SAFE: dict[str, Any] = {
    "resolve_entities": False,
    "load_dtd": False,
    "no_network": True,
    "huge_tree": False,
    "recover": True,
    "remove_comments": True,
    "remove_pis": True,
}


def _feed_parser() -> etree.XMLParser:
    return etree.XMLParser(**_SAFE)


#: libxml2's errors for a document stopped by its limits (entity amplification, depth,
#: text size): what is left of it is not the feed.
_LIMIT_ERRORS = ("RESOURCE_LIMIT", "ENTITY_LOOP", "ENTITY_AMPLIFICATION", "HUGE")


def feed_entries(body: bytes, limit: int = MAX_ENTRIES) -> Listed:
    """An RSS 2.0, RSS 1.0 (RDF), Atom or JSON Feed's entry links and dates, in feed order."""
    if body.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        return json_feed_entries(body, limit)
    parser = _feed_parser()
    try:
        root = etree.fromstring(body, parser=parser)
    except (etree.XMLSyntaxError, ValueError):
        return Listed("", [], why="not XML")
    limited = [e.type_name for e in parser.error_log if e.type_name.endswith(_LIMIT_ERRORS)]
    if limited:
        return Listed("", [], why=f"over the XML parser's limits ({limited[0]})")
    if root is None or not isinstance(root.tag, str):
        return Listed("", [], why="not XML")
    listed = Listed("feed", [])
    for item in root.iter("item", f"{_RSS1}item", f"{_ATOM}entry"):
        entry = _rss_entry(item) if item.tag != f"{_ATOM}entry" else _atom_entry(item)
        if entry is None:
            continue
        if not entry.url:
            listed.bad += 1
            continue
        if len(listed.entries) >= limit:
            listed.capped += 1
            continue
        listed.entries.append(entry)
    if not listed.entries and root.tag.rsplit("}", 1)[-1] not in ("rss", "RDF", "feed"):
        listed.kind = ""  # not a feed at all (an HTML page at /feed)
    return listed


def _child_text(item: etree._Element, *tags: str) -> str | None:
    for tag in tags:
        child = item.find(tag)
        if child is not None and child.text and child.text.strip():
            return child.text.strip()
    return None


def _whole(item: etree._Element, *tags: str) -> bool:
    """Whether the first of ``tags`` under ``item`` holds text only: an entity reference
    (never expanded) or an element inside would cut its text where it starts."""
    for tag in tags:
        child = item.find(tag)
        if child is not None:
            return len(child) == 0
    return True


def _rss_entry(item: etree._Element) -> Entry | None:
    """The entry's link and date; an Entry with no URL when its link is cut."""
    if not _whole(item, "link", f"{_RSS1}link") or not _whole(item, "guid"):
        return Entry("")
    link = _child_text(item, "link", f"{_RSS1}link") or item.get(_RDF_ABOUT)
    if not link:
        guid = item.find("guid")
        if guid is not None and guid.get("isPermaLink", "true") == "true" and guid.text:
            link = guid.text.strip()
    if not link:
        return None
    return Entry(link, _child_text(item, "pubDate", _DC_DATE))


def _atom_entry(item: etree._Element) -> Entry | None:
    link = None
    for el in item.iterfind(f"{_ATOM}link"):
        if el.get("rel", "alternate") == "alternate" and el.get("href"):
            link = el.get("href")
            break
    if not link:
        return None
    return Entry(link, _child_text(item, f"{_ATOM}published", f"{_ATOM}updated"))


def feed_links(links: Iterator[tuple[str, str, str]]) -> list[str]:
    """The feeds among a page's ``<link>`` elements, given as (rel, type, href)."""
    found: list[str] = []
    for rel, kind, href in links:
        words = rel.lower().split()
        if "alternate" in words and kind.lower().strip() in FEED_TYPES and href.strip():
            if href.strip() not in found:
                found.append(href.strip())
    return found
