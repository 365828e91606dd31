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

from ..article import Article, Image
from ..extract.fields.fingerprint import fingerprint
from ..extract.fields.navigation import continues

__all__ = ["merge_pages", "same_article"]

_TITLE_NOISE = re.compile(r"[\W\d_]+")


def _title_key(title: str | None) -> str:
    return _TITLE_NOISE.sub("", (title or "").lower())


def same_article(first: Article, url: str, title: str | None = None) -> bool:
    """Whether ``url`` (whose title is ``title``, if read) continues ``first``: its
    address is the first page's with a page marker, and its title the same."""
    if not first.url or not continues(first.url, url):
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
