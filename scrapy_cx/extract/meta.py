"""What a page says about itself: meta tags, JSON-LD, <link rel=canonical>, <html lang>."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from lxml import etree


@dataclass(slots=True)
class PageMeta:
    """Metadata candidates, gathered before the main text is chosen."""

    title_tag: str | None = None  # text of <title>
    titles: list[tuple[str, str]] = field(default_factory=list)  # (value, source)
    published: list[tuple[str, str]] = field(default_factory=list)  # (raw, source)
    modified: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    description: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None


_PUBLISHED_META = (
    "article:published_time",
    "og:published_time",
    "datepublished",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "date",
    "dc.date",
    "dc.date.issued",
    "dcterms.created",
    "sailthru.date",
    "parsely-pub-date",
    "cxenseparse:recs:publishtime",
    "article.published",
    "published_time",
    "release_date",
    "originalpublicationdate",
)
_TITLE_META = ("og:title", "twitter:title", "headline", "dc.title", "sailthru.title")


def _jsonld_nodes(data: Any) -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = []
    stack = [data]
    while stack and len(nodes) < 200:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            nodes.append(item)
            graph = item.get("@graph")
            if graph is not None:
                stack.append(graph)
    return nodes


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return _names(value.get("name"))
    if isinstance(value, list):
        return [n for v in value for n in _names(v)]
    return []


def read_meta(root: etree._Element) -> PageMeta:
    """Collect metadata from the head and JSON-LD; tolerant of any garbage."""
    meta = PageMeta()
    title = root.find(".//title")
    if title is not None:
        meta.title_tag = " ".join("".join(title.itertext()).split()) or None
    lang = root.get("lang") or root.get("xml:lang")
    if lang:
        meta.language = lang.strip()
    for el in root.iter("meta"):
        key = (
            (
                el.get("property")
                or el.get("name")
                or el.get("itemprop")
                or el.get("http-equiv")
                or ""
            )
            .strip()
            .lower()
        )
        value = (el.get("content") or "").strip()
        if not key or not value:
            continue
        if key in _PUBLISHED_META:
            meta.published.append((value, f"meta:{key}"))
        elif key in (
            "article:modified_time",
            "og:updated_time",
            "datemodified",
            "lastmod",
            "last-modified",
        ):
            meta.modified.append(value)
        elif key in _TITLE_META:
            meta.titles.append((value, f"meta:{key}"))
        elif key in (
            "author",
            "article:author",
            "dc.creator",
            "byl",
            "sailthru.author",
            "parsely-author",
        ):
            if not value.startswith("http"):
                meta.authors.append(value)
        elif key in ("keywords", "news_keywords", "article:tag"):
            meta.keywords.extend(
                k.strip()
                for k in value.replace("，", ",").replace(";", ",").split(",")
                if k.strip()
            )
        elif (
            key in ("description", "og:description", "twitter:description") and not meta.description
        ):
            meta.description = value
        elif key in ("og:site_name", "application-name") and not meta.site_name:
            meta.site_name = value
        elif (
            key in ("content-language", "language", "og:locale", "dc.language")
            and not meta.language
        ):
            meta.language = value
    for el in root.iter("link"):
        if (el.get("rel") or "").lower() == "canonical" and el.get("href"):
            meta.canonical_url = el.get("href", "").strip() or None
            break
    for el in root.iter("time"):
        value = el.get("datetime")
        if value and (el.get("itemprop") == "datePublished" or el.get("pubdate") is not None):
            meta.published.append((value.strip(), "time"))
    for el in root.iter("script"):
        if (el.get("type") or "").lower() != "application/ld+json" or not el.text:
            continue
        try:
            data = json.loads(el.text)
        except ValueError:
            continue
        for node in _jsonld_nodes(data):
            if isinstance(node.get("datePublished"), str):
                meta.published.append((node["datePublished"], "jsonld"))
            if isinstance(node.get("headline"), str):
                meta.titles.append((node["headline"], "jsonld"))
            meta.authors.extend(_names(node.get("author")))
    return meta
