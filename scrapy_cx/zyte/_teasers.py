"""A listing's teaser headlines, for ``ArticleFromList.headline``.

The article the crawl extracts keeps a listing's teaser links (``article_links``)
but not their text; a callback asking for ``ArticleList`` gets them read again in
the crawl's worker processes, within their deadline (a second pass over that page
only, never in the reactor thread): each teaser's headline is the text of the first
link to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from ..extract import extract_page

__all__ = ["Teasers", "teaser_headlines"]


@dataclass(frozen=True, slots=True)
class Teasers:
    """A listing's teaser URLs and the headline each shows (a page object's input)."""

    headlines: dict[str, str] = field(default_factory=dict)


def teaser_headlines(html: str | bytes, url: str, **kwargs: Any) -> dict[str, str]:
    """Each of the page's ``article_links`` and the text of the first link to it that
    has text; runs in a worker (``kwargs``: ``extract_page``'s, as the crawl's settings
    say). The link's own text: a card's line also holds its date or section."""
    page = extract_page(html, url, formats=(), **kwargs)
    wanted = set(page.article_links)
    headlines: dict[str, str] = {}
    for anchor in page.root.iter("a"):
        if len(headlines) == len(wanted):
            break  # every teaser has its headline: the page's other links cannot add one
        href = anchor.get("href")
        if not href:
            continue
        address = urljoin(url, href.strip()).split("#", 1)[0]
        if address in wanted and address not in headlines:
            text = " ".join("".join(anchor.itertext()).split())
            if text:
                headlines[address] = text
    return headlines
