"""An article split over several pages: whether a next page is the same article, and
the one article read from all of them.

The same article: the next page's address is the first's with a page marker
changed (``_2.shtml``, ``index_1.html``, ``/2/``, ``/page/2``, ``?page=2``) and its
title (when both have one) is the first's, page numbers and punctuation aside.
A WordPress ``<link rel="next">`` to the next post, or a "Next" link to another
story, fails the first test.
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode, urlsplit

from ..article import Article, Image
from ..extract.fingerprint import fingerprint

__all__ = ["merge_pages", "same_article", "url_stem"]

_PAGE_PARAMS = frozenset("page p pg pn paged pageno pagenum pagenumber currentpage".split())
_LAST_SEGMENT_NUMBER = re.compile(r"[_-]\d{1,2}(?=\.[a-z]{2,6}$)", re.I)
_TRAILING_NUMBER = re.compile(r"(?:/page)?/\d{1,3}/?$", re.I)
_TITLE_NOISE = re.compile(r"[\W\d_]+")


def url_stem(url: str) -> str:
    """``url`` without the page markers of a split article's pages."""
    parts = urlsplit(url)
    path = _TRAILING_NUMBER.sub("", parts.path) or "/"
    path = _LAST_SEGMENT_NUMBER.sub("", path.rstrip("/")) or "/"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    kept = urlencode([(k, v) for k, v in query if k.lower() not in _PAGE_PARAMS])
    return f"{(parts.hostname or '').lower()}{path}?{kept}"


def _title_key(title: str | None) -> str:
    return _TITLE_NOISE.sub("", (title or "").lower())


def same_article(first: Article, url: str, title: str | None = None) -> bool:
    """Whether ``url`` (whose title is ``title``, if read) continues ``first``."""
    if not first.url or url_stem(url) != url_stem(first.url):
        return False
    a, b = _title_key(first.title), _title_key(title)
    if not a or not b:
        return True
    short, long = sorted((a, b), key=len)
    return long.startswith(short)


def merge_pages(parts: list[Article]) -> Article:
    """One article from its pages, in order: the first page's fields, the text, HTML,
    Markdown and pictures of all, its fingerprint made again, ``pages`` their URLs."""
    first = parts[0]
    if len(parts) == 1:
        return first
    html = [p.content_html for p in parts if p.content_html]
    markdown = [p.content_markdown for p in parts if p.content_markdown]
    images: tuple[Image, ...] | None = None
    if first.images is not None:
        by_url: dict[str, Image] = {}
        for part in parts:
            for image in part.images or ():
                by_url.setdefault(image.url, image)
        images = tuple(by_url.values())
    content = "\n".join(p.content for p in parts if p.content)
    return replace(
        first,
        content=content,
        content_html="\n".join(html) if first.content_html is not None else None,
        content_markdown="\n\n".join(markdown) if first.content_markdown is not None else None,
        images=images,
        fingerprint=fingerprint(content),
        next_page=None,
        pages=tuple(p.url or "" for p in parts),
    )
