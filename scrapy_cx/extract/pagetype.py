"""What kind of page this is: article, thread, listing or other.

Two signals, both the page's own: the schema.org / Open Graph types it declares
(a forum post, a Q&A page, a collection, a product), and its block structure
(the selection found a list of teaser cards, a region made mostly of links, or
a region of several posts, each under its own dated header line).
The URL is not read. Declared types are trusted only when they are specific:
nearly every page declares an ``Organization`` or a ``WebPage``.
"""

from __future__ import annotations

import re
from itertools import islice

from ._page import Page
from .lines import is_headline_link
from .posts import MIN_POSTS, post_headers

__all__ = ["PAGE_TYPES", "find_page_type"]

PAGE_TYPES = ("article", "thread", "listing", "other")

# Declared types, by what they say about the page (schema.org names; og: for Open Graph).
THREAD_TYPES = frozenset(("DiscussionForumPosting", "QAPage", "Comment", "og:forum"))
LISTING_TYPES = frozenset(("CollectionPage", "SearchResultsPage", "og:product.group"))
OTHER_TYPES = frozenset(
    ("Product", "og:product", "SoftwareApplication", "Service", "Course", "JobPosting")
)
ARTICLE_TYPES = frozenset(
    (
        "Article",
        "NewsArticle",
        "BlogPosting",
        "ReportageNewsArticle",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "ReviewNewsArticle",
        "LiveBlogPosting",
        "ScholarlyArticle",
        "og:article",
    )
)
# A region whose text is mostly link text is a list of links, not a text.
LISTING_LINK_SHARE = 0.5
# ... and so is one where linked headlines open every few lines: teasers, products.
MIN_TEASERS = 4
TEASER_LINE_SHARE = 0.25
_MAX_DECLARING = 50  # elements read for declared types
# One XPath pass (C speed) for every element that declares a type; itemtype is
# found through the attributes (``//@itemtype/..``), faster than testing every element.
_DECLARING = (
    "//script[@type='application/ld+json'] | //@itemtype/.. | //meta[@property='og:type']"
)
_MAX_SCRIPT = 100_000  # characters of one script searched
_TYPE = re.compile(r'"@type"\s*:\s*\[?\s*"([A-Za-z]+)"')


def declared_types(page: Page) -> set[str]:
    """schema.org types of the page's JSON-LD and microdata, and its og:type (as og:...)."""
    types: set[str] = set()
    for el in islice(page.root.xpath(_DECLARING), _MAX_DECLARING):
        if el.tag == "script":
            types.update(_TYPE.findall((el.text or "")[:_MAX_SCRIPT]))
        elif el.tag == "meta":
            types.add("og:" + (el.get("content") or "").strip().lower())
        else:
            types.add((el.get("itemtype") or "").rstrip("/").rsplit("/", 1)[-1])
    return types


def find_page_type(page: Page) -> None:
    """Fill ``page.page_type``; a specific declared type wins, then the block structure."""
    if not page.lines:
        page.page_type = "other"  # nothing shown: not an article of any kind
        return
    types = declared_types(page)
    if types & THREAD_TYPES:
        page.page_type = "thread"
    elif types & LISTING_TYPES:
        page.page_type = "listing"
    elif types & ARTICLE_TYPES:
        page.page_type = "article"
    elif types & OTHER_TYPES:
        page.page_type = "other"
    elif page.listing or _linked_region(page):
        page.page_type = "listing"
    elif len(post_headers(page)) >= MIN_POSTS:
        page.page_type = "thread"
    else:
        page.page_type = "article"


def _linked_region(page: Page) -> bool:
    """Mostly link text, or a run of linked headlines with a line or two each (a grid)."""
    lines = [line for line in page.lines[page.start : page.end] if not line.boilerplate]
    total = sum(line.length for line in lines)
    links = sum(line.link_length for line in lines)
    heads = sum(1 for line in lines if is_headline_link(line))
    return total > 0 and (
        links > LISTING_LINK_SHARE * total
        or (heads >= MIN_TEASERS and heads >= TEASER_LINE_SHARE * len(lines))
    )
