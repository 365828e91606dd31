"""What kind of page this is: article, thread, listing or other.

Two signals, both the page's own: the schema.org / Open Graph types it declares
(a forum post, a Q&A page, a collection, a product), and its block structure
(the selection found a list of teaser cards, a region made mostly of links, or
a region of several posts, each under its own dated header line).
Declared types are trusted only when they are specific: nearly every page
declares an ``Organization`` or a ``WebPage``, and site builders stamp
``og:type=article`` on every page, products and docs included.

Two stages. :func:`find_page_type` runs right after the selection, since a
thread is selected again as posts. :func:`settle_page_type` runs once the date
and the authors are known: a news article shows a date or a byline; a page
that shows neither, and carries the marks of another kind
(code blocks, price tags, a wall of buttons; a page of linked teasers; a site's
front page), is not an article. It only re-types a page, never changes its text.
"""

from __future__ import annotations

import re
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree

from ._page import Page
from .lines import is_headline_link
from .posts import MIN_POSTS, post_headers

__all__ = ["PAGE_TYPES", "find_page_type", "settle_page_type"]

PAGE_TYPES = ("article", "thread", "listing", "other")

# Declared types, by what they say about the page (schema.org names; og: for Open Graph).
THREAD_TYPES = frozenset(("DiscussionForumPosting", "QAPage", "Comment", "og:forum"))
LISTING_TYPES = frozenset(("CollectionPage", "SearchResultsPage", "og:product.group"))
OTHER_TYPES = frozenset(
    ("Product", "og:product", "SoftwareApplication", "Service", "Course", "JobPosting")
)
# Types a site declares only for its articles (not its generic "Article" / og:article).
SPECIFIC_ARTICLE_TYPES = frozenset(
    (
        "NewsArticle",
        "BlogPosting",
        "ReportageNewsArticle",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "ReviewNewsArticle",
        "LiveBlogPosting",
        "ScholarlyArticle",
    )
)
ARTICLE_TYPES = SPECIFIC_ARTICLE_TYPES | {"Article"}
GENERIC_ARTICLE_TYPES = frozenset(("og:article",))  # weaker than a declared product
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

# settle_page_type: what a page that is not an article shows instead of a dated byline.
# A page of teasers: linked headlines make this share of its (non-boilerplate) lines...
TEASER_PAGE_SHARE = 0.3
# ... while the selected text is less than this share of the page's text.
TEASER_REGION_SHARE = 0.2
# A product grid: this many price tags, and as many linked headlines.
GRID_PRICES = 20
MIN_PRICES = 3  # price tags that make a page a shop's (product, plans and prices)
MIN_CODE_BLOCKS = 3  # <pre> blocks that make a page documentation
MIN_BUTTONS = 20  # buttons that make a page an application's or a shop's
MAX_PRICE_TAG = 30  # characters of a line that is a price tag, not a sentence about money
_PRICE = re.compile(r"[$€£¥₹]\s?\d|\d(?:[.,]\d\d)?\s?(?:€|£|USD|EUR|GBP)(?!\w)")
_BUTTONS = "count(//button)"


# With the parse's index at hand, only the microdata needs a pass over the tree.
_TYPED = etree.XPath("//@itemtype/..")
_JSONLD = "application/ld+json"


def _declaring(page: Page) -> list[etree._Element]:
    """The first ``_MAX_DECLARING`` elements of ``_DECLARING``; the JSON-LD scripts and
    the og:type come from the parse's index when there is one (the same elements)."""
    if page.elements is not None:
        found = [
            el
            for el in page.elements
            if (el.tag == "script" and el.get("type") == _JSONLD)
            or (el.tag == "meta" and el.get("property") == "og:type")
        ]
        found += _TYPED(page.root)
        if len(found) <= _MAX_DECLARING:
            return found  # all of them: their order does not matter
    return list(islice(page.root.xpath(_DECLARING), _MAX_DECLARING))


def declared_types(page: Page) -> set[str]:
    """schema.org types of the page's JSON-LD and microdata, and its og:type (as og:...)."""
    types: set[str] = set()
    for el in _declaring(page):
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
    page.declared = types = frozenset(declared_types(page))
    if types & THREAD_TYPES:
        page.page_type = "thread"
    elif types & LISTING_TYPES:
        page.page_type = "listing"
    elif types & ARTICLE_TYPES:
        page.page_type = "article"
    elif types & OTHER_TYPES:
        page.page_type = "other"
    elif types & GENERIC_ARTICLE_TYPES:
        page.page_type = "article"
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


def settle_page_type(page: Page) -> None:
    """Re-type an article that shows no article's marks: a listing or an other page.

    Reads the date and authors found (a dated byline is the article's mark) and
    the whole page's lines; an article a site declares as such stays one.
    """
    if page.page_type != "article" or page.declared & SPECIFIC_ARTICLE_TYPES:
        return
    front = _front_page(page.url)
    if not front and (page.published or page.authors):
        return  # a dated or bylined article: the common case, decided before any count
    lines = [line for line in page.lines if not line.boilerplate]
    teasers = sum(1 for line in lines if is_headline_link(line))
    many_teasers = teasers >= MIN_TEASERS and teasers >= TEASER_PAGE_SHARE * len(lines)
    if front:
        page.page_type = "listing" if many_teasers else "other"
        return
    prices = sum(1 for line in lines if line.length <= MAX_PRICE_TAG and _PRICE.search(line.text))
    total = sum(line.length for line in page.lines)
    region = sum(line.length for line in page.lines[page.start : page.end] if not line.boilerplate)
    if (many_teasers and region < TEASER_REGION_SHARE * total) or (
        prices >= GRID_PRICES and teasers >= GRID_PRICES
    ):
        page.page_type = "listing"
    elif (
        prices >= MIN_PRICES
        or page.lines.tags.count("pre") >= MIN_CODE_BLOCKS
        or page.root.xpath(_BUTTONS) >= MIN_BUTTONS
    ):
        page.page_type = "other"


def _front_page(url: str | None) -> bool:
    """A site's home page (no path, no query): its news are teasers, never one article."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:  # a malformed address ("http://[x") is no site's home
        return False
    return bool(parts.netloc) and not parts.path.strip("/") and not parts.query
