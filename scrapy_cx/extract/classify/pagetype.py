"""What kind of page this is: article, thread, listing or other.

Two signals, both the page's own: the schema.org / Open Graph types it declares
(a forum post, a Q&A page, a collection, a list of products, a product) or the
generator it names (one that builds manuals and online books), and its
block structure (the selection found a list of teaser cards, a region made
mostly of links, a region of several posts each under its own dated header
line, a post among the page's repeated dated post units (or a run across
many undated ones), dated headers numbering posts #1 and #2, or a run of sibling
cards each a linked title, a date and a short excerpt: a blog's index).
Declared types are trusted only when they are specific: nearly every page
declares an ``Organization`` or a ``WebPage``, and site builders stamp
``og:type=article`` on every page, products and docs included.

The page-typing stages, the only ones that write ``page_type``:
:func:`find_page_type` runs right after the selection, since a thread is
selected again as posts; :func:`find_headline_page` tells a page of linked
headlines before a stray blurb on it may give way to them, and
:func:`type_headline_list` types a page whose text became its headlines a
listing. :func:`settle_page_type` runs once the date
and the authors are known: a news article shows a date or a byline; a page
that shows neither, and carries the marks of another kind
(code blocks, price tags, a wall of buttons, short blurbs instead of prose; a
page of linked headlines or of cards, each a link and a line of text; a
site's front page: a listing when its text is dated stories), is not an article; nor is a
page of code blocks beside a documentation tree, or one under a documentation
path, dated or not, that names no author; nor is an undated, unbylined page
whose schema.org data types nothing as an article. A date read from the
metadata alone, written in none of the page's lines, is a site builder's
stamp, not a shown date (a page of headlines so stamped is a listing); and a
grid of priced items is a listing whatever its date. It only re-types a page, never changes
its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree

from ..content.posts import (
    MIN_POSTS,
    PostUnits,
    dated_header,
    merge_units,
    numbered_posts,
    opening_headers,
    post_headers,
)
from ..content.regions import is_headline_link
from ..fields.dates import shows_day
from ..fields.navigation import shows_pager
from ..page import Evidence, Page
from ..parse.dom import may_name
from ..parse.lines import Line, PageLines

__all__ = [
    "PAGE_TYPES",
    "docs_generator",
    "docs_path",
    "find_headline_page",
    "find_page_type",
    "front_page",
    "headline_page",
    "price_tags",
    "settle_page_type",
    "story_head",
    "type_headline_list",
]

PAGE_TYPES = ("article", "thread", "listing", "other")

# Declared types, by what they say about the page (schema.org names; og: for Open Graph).
THREAD_TYPES = frozenset(
    ("DiscussionForumPosting", "SocialMediaPosting", "QAPage", "Comment", "og:forum")
)
LISTING_TYPES = frozenset(("CollectionPage", "SearchResultsPage", "og:product.group"))
# An ItemList of these: a listing (a shop's grid, a chart of films), unless the
# page declares itself an article (a review of ten products lists them too).
LISTED_TYPES = frozenset(("Product", "Offer", "Movie", "Book", "Recipe", "Event"))
OTHER_TYPES = frozenset(
    ("Product", "og:product", "SoftwareApplication", "Service", "Course", "JobPosting")
)
# Generators of manuals and online books, as a page's <meta name="generator"> names
# them ("GitBook (aa87699)", "bookdown 0.37 and GitBook 2.6.7", "mkdocs-1.6.1"): what
# they build is a chapter or a manual's page, never a story. Measured on every set:
# the 3 pages that name one (wceb_dev) are documentation. Left out: blog builders
# (Hugo, Jekyll, Docusaurus, which builds a blog beside its docs) and Docutils (2
# wceb_dev manuals built by Sphinx name it, but rst2html renders standalone essays).
DOC_GENERATORS = frozenset(
    ("gitbook", "bookdown", "mkdocs", "mdbook", "sphinx", "doxygen", "rustdoc", "pkgdown")
)
_GENERATOR_WORD = re.compile(r"[a-z]+")
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
# Markup characters (bytes) per block element above which the microdata pass is made
# without a scan of the markup first: the scan (lower-casing it) costs about 0.8 ns a
# byte, the pass 200 to 350 ns a block element (its inline ones included).
# Measured on aeb and wceb_dev (sum of both, ms): scan first always 27 + 166, pass
# always 14 + 172, by this threshold 17 + 143.
SCAN_CHARS_PER_BLOCK = 400

# settle_page_type: what a page that is not an article shows instead of a dated byline.
# A page of headlines: its linked headlines hold this many times the selected text.
HEADLINES_SHARE = 4
# A product grid: this many price tags, and as many linked headlines.
GRID_PRICES = 20
MIN_PRICES = 3  # price tags that make a page a shop's (product, plans and prices)
MIN_CODE_BLOCKS = 3  # <pre> blocks that make a page documentation
# ... or fewer beside a documentation tree (a tutorial's chapter index shows a
# command or two): no article in the bench sets, bylined or not, has two code
# blocks beside such a tree; one manual's page does (wceb_dev).
MIN_DOC_CODE_BLOCKS = 2
MIN_BUTTONS = 20  # buttons that make a page an application's or a shop's
MAX_PRICE_TAG = 30  # characters of a line that is a price tag, not a sentence about money
# A documentation tree: links in lists nested in lists of a side or navigation menu.
MIN_TREE_LINKS = 30
# Whether there are that many: the MIN_TREE_LINKS-th such link, found by one pass
# testing each link's ancestors (the same links as //nav//li//li//a | //aside//li//li//a,
# whose chained // steps merge their node-sets again and again).
_TREE_LINKS = etree.XPath(
    "boolean(/descendant::a[ancestor::li[ancestor::li[ancestor::nav or ancestor::aside]]]"
    f"[{MIN_TREE_LINKS}])"
)
# Prose: lines this long (characters), barely linked, hold this share of an article's text.
MIN_PROSE_LINE = 100
PROSE_LINK_DENSITY = 0.3
PROSE_SHARE = 0.4
#: ...and the blurbs stand under section headings: a short news item (a few
#: short paragraphs, often undated when the date sits in a script) has none.
MIN_SECTION_HEADINGS = 3
#: A landing page's body may hold longer blurbs (up to this share of prose) when
#: it is a minor part of the page: under :data:`LANDING_BODY_SHARE` of all its
#: text, the rest calls to action, plans, menus and footers. An article's body
#: under headings is most of its page. Measured on every set (undated or stamped,
#: unbylined pages under 3+ headings): 4 service/product pages of wceb_dev gained,
#: 1 article (readability) lost.
LANDING_PROSE_SHARE = 0.6
LANDING_BODY_SHARE = 0.65
_PRICE = re.compile(r"[$€£¥₹]\s?\d|\d(?:[.,]\d\d)?\s?(?:€|£|USD|EUR|GBP)(?!\w)")
# Where a date was read that the page shows as it is: a line of it, the URL.
_SHOWN_SOURCES = frozenset(("line", "url"))
# PageMeta's source names of <time datetime> elements: a date the page shows, though
# maybe in a shape no date scan reads ("3 hours ago").
_TIME_SOURCES = ("time",)


# With the parse's index at hand, only the microdata needs a pass over the tree: the
# attribute axis of every element (no //, which gathers every text node first).
_TYPED = etree.XPath("/descendant::*/@itemtype/..")
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
        markup = page.markup
        if (
            markup is None
            or not scan_first(len(markup), len(page.lines.tags))
            or may_name(markup, ("itemtype",))
        ):
            found += _TYPED(page.root)  # a pass over every attribute: unless none is spelled
        if len(found) <= _MAX_DECLARING:
            return found  # all of them: their order does not matter
    return list(islice(page.root.xpath(_DECLARING), _MAX_DECLARING))


def scan_first(chars: int, blocks: int) -> bool:
    """Whether scanning ``chars`` of markup for "itemtype" costs less than the
    microdata pass over its ``blocks`` block elements it may spare: long markup over
    few elements (big inline scripts and styles) is cheaper walked than scanned."""
    return chars <= SCAN_CHARS_PER_BLOCK * blocks


def declared_types(page: Page) -> set[str]:
    """schema.org types of the page's JSON-LD and microdata, and its og:type (as og:...)."""
    types: set[str] = set()
    for el in _declaring(page):
        if el.tag == "script":
            types.update(_TYPE.findall((el.text or "")[:_MAX_SCRIPT]))
        elif el.tag == "meta":
            # Some sites write the namespace into the value too: "og:product".
            kind = (el.get("content") or "").strip().lower().removeprefix("og:")
            types.add("og:" + kind)
        else:
            types.add((el.get("itemtype") or "").rstrip("/").rsplit("/", 1)[-1])
    return types



def docs_generator(page: Page) -> str | None:
    """The documentation or book generator the page's ``<meta name="generator">``
    names (:data:`DOC_GENERATORS`), if any: read in the head alone, where it stands."""
    head = page.root.find("head")
    if head is None:
        return None
    for meta in head.iter("meta"):
        if (meta.get("name") or "").lower() == "generator":
            content = (meta.get("content") or "").lower()
            for word in _GENERATOR_WORD.findall(content):
                if word in DOC_GENERATORS:
                    return word
    return None


# A page that says it is none: an HTTP error's ("404 Page Not Found", "Seite nicht
# gefunden") or a bot check's ("Making sure you're not a bot!", "Just a moment...").
# Read in its headline or its <title>, short ones only: a story's headline may
# report that something was "not found".
_NO_PAGE = re.compile(
    r"^\W*(?:error\s*)?(?:404|410)(?!\d)|\bpage\s+(?:was\s+)?not\s+found\b"
    r"|\bseite\s+nicht\s+gefunden\b|\bpage\s+introuvable\b|\bp[áa]gina\s+no\s+encontrada\b"
    r"|\bnot\s+a\s+(?:ro)?bot\b|^\W*just\s+a\s+moment\b|^\W*access\s+denied\b",
    re.IGNORECASE,
)
MAX_NO_PAGE = 60  # characters of a headline or title read for it


def no_page(page: Page) -> bool:
    """The page's headline or <title> says it is an error or a bot check."""
    texts = [page.meta.title_tag or ""]
    if page.headline is not None:
        texts.append(page.lines[page.headline].text)
    return any(len(text) <= MAX_NO_PAGE and _NO_PAGE.search(text) for text in texts)


def _typed(page: Page, kind: str, why: str) -> None:
    """Write ``page.page_type`` and its evidence: why, in words (explain shows it)."""
    page.page_type = kind
    page.evidence["page_type"] = Evidence("page_type", None, why)


def _named(types: frozenset[str] | set[str]) -> str:
    return "/".join(sorted(types))

def find_page_type(page: Page) -> None:
    """Fill ``page.page_type``; a specific declared type wins, then the block structure.

    Reads the tree's declared types, the lines and the selection (its kind); writes
    ``page.page_type``, ``page.declared`` and a discussion's ``page.replies``."""
    if not page.lines:
        _typed(page, "other", "the page shows no text")
        return
    if no_page(page):
        _typed(page, "other", "its headline says it is an error or a bot check")
        return
    page.declared = types = frozenset(declared_types(page))
    units = PostUnits(page)  # read once for _in_posts, _discussion and the posts
    if types & THREAD_TYPES:
        _typed(page, "thread", f"it declares {_named(types & THREAD_TYPES)}")
    elif types & LISTING_TYPES:
        _typed(page, "listing", f"it declares {_named(types & LISTING_TYPES)}")
    elif types & ARTICLE_TYPES:
        _typed(page, "article", f"it declares {_named(types & ARTICLE_TYPES)}")
    elif "ItemList" in types and types & LISTED_TYPES:
        # a list of products or films, not one of them
        _typed(page, "listing", f"it declares an ItemList of {_named(types & LISTED_TYPES)}")
    elif types & OTHER_TYPES:
        _typed(page, "other", f"it declares {_named(types & OTHER_TYPES)}")
    elif generator := docs_generator(page):
        _typed(page, "other", f"a manual's or a book's page: {generator} built it")
    elif types & GENERIC_ARTICLE_TYPES:
        # Site builders stamp og:article on forum threads too: their posts tell.
        if _in_posts(page, units) or _discussion(page, units):
            _typed(page, "thread", "a generic article type, but its text is posts")
        elif _teaser_list(page):
            _typed(page, "listing", "a generic article type, but its text is dated teasers")
        else:
            _typed(page, "article", f"it declares {_named(types & GENERIC_ARTICLE_TYPES)}")
    elif _discussion(page, units):
        _typed(page, "thread", "a discussion: replies under a submission")  # no listing
    elif page.selection.kind == "cards" or (_linked_region(page) and not story_head(page)):
        # a story under its dated head is none, whatever its links
        _typed(page, "listing", "its text is teaser cards or linked lines, under no dated headline")
    elif _headed_posts(page) or _in_posts(page, units):
        _typed(page, "thread", "its text is posts, each opened by its author and date")
    elif _undated_posts(page, units):
        _typed(page, "thread", "its text runs across many repeated post units")
    elif numbered_posts(page) and not front_page(page.url):
        _typed(page, "thread", "its text is in posts numbered #1, #2 under dated headers")
    elif _teaser_list(page):
        _typed(page, "listing", "its text is dated teasers (a blog's index)")
    else:
        _typed(page, "article", "one run of text, neither posts nor teasers")


# A dated line beside a linked line of this many words or more heads a teaser (a
# blog index's, an episode list's): a post carries an author's name at most.
TEASER_TITLE_WORDS = 4
# Dated lines this share of which head teasers make a list of teasers, not posts.
TEASER_HEADER_SHARE = 0.5


# ... or, in a script written without spaces (Chinese, Japanese), of this many
# characters: four words of two.
TEASER_TITLE_WIDE = 8
_WIDE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")


def _teaser_title(line: Line) -> bool:
    """A linked title of :data:`TEASER_TITLE_WORDS` words or more (of
    :data:`TEASER_TITLE_WIDE` characters in a script without spaces)."""
    if line.link_density <= LISTING_LINK_SHARE:
        return False
    text = line.text
    if len(text.split()) >= TEASER_TITLE_WORDS:
        return True
    return line.length >= TEASER_TITLE_WIDE and _WIDE.search(text) is not None


def _heads_teaser(lines: PageLines, i: int, marked: bool = True) -> bool:
    """Line ``i`` stands beside a teaser's linked title (:func:`_teaser_title`);
    one in boilerplate (a share bar's row of links) counts only when ``marked``."""
    return any(
        0 <= j < len(lines) and (marked or not lines[j].boilerplate) and _teaser_title(lines[j])
        for j in (i - 1, i + 1)
    )


def _dated_headers(page: Page) -> tuple[int, int]:
    """The selection's short dated lines (:func:`post_headers`) and how many of
    them head a teaser: a linked title of :data:`TEASER_TITLE_WORDS` words beside it."""
    headers = post_headers(page)
    teasers = sum(1 for i in headers if _heads_teaser(page.lines, i))
    return len(headers), teasers


# An article's head: its date line (a byline, "Posted on ...") stands this many
# lines or fewer under its headline, below a dek or a credit at most. Measured
# on the news sets (aeb, cwce_zh_dev, mercury_dev, newspaper4k, readability): of
# the stories with a date line in the 12 lines under the headline, 271 of 282
# show it in the first 5.
STORY_HEAD_LINES = 5


def story_head(page: Page) -> bool:
    """The page's headline has a date line of its own under it (the first short
    dated line within :data:`STORY_HEAD_LINES` lines), and it heads no teaser:
    no linked title stands beside it, as one does beside each teaser's date in
    a list. A story under its head stays one when links fill its text (a link
    roundup, a "read more" list, embedded posts) or when it is a few lines long
    beside many headlines; a section front's title ("News") has its first
    teaser, dated, under it."""
    lines = page.lines
    headline = page.headline
    if headline is None:
        return False
    for i in range(headline + 1, min(len(lines), headline + 1 + STORY_HEAD_LINES)):
        if dated_header(lines[i]):
            return not _heads_teaser(lines, i, marked=False)
    return False


def _headed_posts(page: Page) -> bool:
    """The selection holds :data:`MIN_POSTS` short dated lines or more (the
    posts' headers), most of them not a teaser's (a linked title beside it), on
    a page that is not a site's home, and as many open a post (posts.opening_headers:
    not a notice's labelled dates, nor a table's or a list's dated rows)."""
    headers, teasers = _dated_headers(page)
    if headers < MIN_POSTS or front_page(page.url):
        return False
    return teasers < TEASER_HEADER_SHARE * headers and len(opening_headers(page)) >= MIN_POSTS


# A list of cards (a blog's index, an episode list, a category of guides): the
# selection is cut into this many sibling units or more (one tag under one
# parent), each holding a link and a line of text: a list repeats its item a
# dozen times or so; the "latest news" box under a short story, a landing
# page's features, a footer's columns come in fewer. Measured on wceb_dev:
# indexes 18 to 20 cards, a law firm's story over its 4 latest posts 4.
MIN_CARDS = 10
# ... that hold this share of its text ...
CARD_SHARE = 0.5
# ... each a teaser, not a post: the middle unit holds at most this many
# characters (a title, a date, an excerpt of a paragraph or two).
MAX_TEASER = 800
# Block elements above a line searched for the card holding it (a card nests its
# title a few levels deep; deeper, it is the page's frame).
MAX_CARD_DEPTH = 8


def card_units(page: Page, start: int, end: int, marked: bool = False) -> list[int]:
    """Characters of each unit of the largest run of cards among the lines
    ``start:end``: sibling block elements of one tag, each holding a mostly
    linked line (a title, a name) and an unlinked one (a date, an excerpt, a
    price). Empty when there is none. Quark's repeated "record" of a navigation
    page, found as Wang et al. find posts. Boilerplate lines count only when
    ``marked``: shops and catalogues name their cards "widget" or "promo"."""
    lines = page.lines
    parents = lines.parents
    linked: set[int] = set()
    unlinked: set[int] = set()
    chars: dict[int, int] = {}
    for line in lines[start:end]:
        if (line.boilerplate and not marked) or not line.length:
            continue
        held = linked if line.link_density > LISTING_LINK_SHARE else unlinked
        block, depth = line.block, 0
        while block >= 0 and depth < MAX_CARD_DEPTH:
            held.add(block)
            chars[block] = chars.get(block, 0) + line.length
            block, depth = parents[block], depth + 1
    groups: dict[tuple[int, str], list[int]] = {}
    for block in linked & unlinked:
        if parents[block] >= 0:
            groups.setdefault((parents[block], lines.tags[block]), []).append(chars[block])
    if not groups:
        return []
    return max(groups.values(), key=lambda units: (len(units), sum(units)))


def _teaser_list(page: Page) -> bool:
    """The selection is a list of dated teasers: :data:`MIN_POSTS` short dated
    lines or more, most beside a linked title (:func:`_dated_headers`), in
    :data:`MIN_CARDS` cards or more that hold :data:`CARD_SHARE` of its text,
    the middle one no longer than :data:`MAX_TEASER`. A bylined story's
    teasers below it, or a review's dated items each a long text, are not."""
    headers, teasers = _dated_headers(page)
    if headers < MIN_POSTS or teasers < TEASER_HEADER_SHARE * headers:
        return False
    units = sorted(card_units(page, page.start, page.end))
    return (
        len(units) >= MIN_CARDS
        and sum(units) >= CARD_SHARE * _selected_length(page)
        and units[len(units) // 2] <= MAX_TEASER
    )


def _in_posts(page: Page, units: PostUnits) -> bool:
    """The page repeats dated post units and its selection opens inside one of
    them: the posts are the content. An article followed by its comments is
    not: its selection opens before the first comment."""
    if front_page(page.url):
        return False  # a site's home shows teasers, never one thread
    start = page.start
    return any(first <= start < last for first, last in units.units())


# Undated post units (a forum whose dates a script writes): a thread shows this
# many of one post-named element or more across its selection...
MIN_UNDATED_POSTS = 5
# ... none of which holds this share of the selected text (an article's own
# "post" element holds nearly all of it, its related posts below it the rest).
MAX_UNDATED_POST_SHARE = 0.5


def _undated_posts(page: Page, units: PostUnits) -> bool:
    """The selection opens inside a group of repeated post-named units, dated or
    not, and runs across :data:`MIN_UNDATED_POSTS` of them, none holding
    :data:`MAX_UNDATED_POST_SHARE` of its text, which is mostly unlinked (posts,
    not a list of teasers named "post")."""
    if front_page(page.url):
        return False
    lines, start, end = page.lines, page.start, page.end
    selected = _selected_length(page)
    if not selected:
        return False
    for blocks in units.groups():
        spans = [lines.spans[block] for block in blocks]
        met = [(first, last) for first, last in spans if first < end and last > start]
        if len(met) < MIN_UNDATED_POSTS or not any(a <= start < b for a, b in met):
            continue
        held, links = [], 0
        for a, b in met:  # one pass over each unit's selected lines: text and links
            shown = [line for line in lines[max(a, start) : min(b, end)] if not line.boilerplate]
            held.append(sum(line.length for line in shown))
            links += sum(line.link_length for line in shown)
        if max(held) < MAX_UNDATED_POST_SHARE * selected and links < LISTING_LINK_SHARE * sum(held):
            return True
    return False


# A discussion page (a submitted link or a few lines, then the replies: Hacker
# News, Slashdot, Reddit) against an article followed by its comments: the
# replies' text outweighs the selected text this many times over when the
# replies nest (a reply inside the post it answers: a tree). Measured on the
# dev sets: discussions 11 to 32 times, no article's comments nest; a news brief
# with a threaded comment section can still draw a few times its length.
NESTED_DISCUSSION_SHARE = 8
# ... and this many times when they do not (a flat list, or one indented by
# styling only, as Hacker News does): articles' flat comment sections reach 16
# times a short blog post (an "open thread" post), a submitted link draws 100+.
FLAT_DISCUSSION_SHARE = 40


def _discussion(page: Page, units: PostUnits) -> bool:
    """The selection opens before a run of dated post units that outweigh it
    (:data:`NESTED_DISCUSSION_SHARE`, :data:`FLAT_DISCUSSION_SHARE`): the
    replies, not the few lines above them, are the content. Fills
    ``page.replies`` when so (the thread stage reads them)."""
    if front_page(page.url):
        return False
    found = units.units(above=True)
    if not found or any(first <= page.start < last for first, last in found):
        return False  # no replies, or a selection inside one: _in_posts's case
    lines = page.lines
    merged, nested = merge_units(found)
    replies = sum(line.length for first, last in merged for line in lines[first:last])
    selected = sum(line.length for line in lines[page.start : page.end] if not line.boilerplate)
    selected -= sum(
        line.length
        for first, last in merged
        for line in lines[max(first, page.start) : min(last, page.end)]
        if not line.boilerplate
    )
    share = NESTED_DISCUSSION_SHARE if nested else FLAT_DISCUSSION_SHARE
    if replies < share * max(selected, 1):
        return False
    page.replies = found
    return True


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

    Reads the date and authors found (a byline, or a date the page shows, is
    the article's mark), ``page.headline_page`` and the whole page's lines; an
    article a site declares as such stays one, unless it is the site's front
    page. An unbylined listing under a documentation path is a manual's page.
    Writes ``page.page_type``.
    """
    if page.page_type == "listing" and not page.authors and docs_path(page.url):
        # A manual's reference page lists its members' links (a class's methods):
        # measured on the bench sets, every page under a docs path is a manual's.
        _typed(page, "other", "documentation: a page of links under a documentation path")
        return
    if page.page_type != "article":
        return
    front = front_page(page.url)
    if page.declared & SPECIFIC_ARTICLE_TYPES:
        if front:  # a blog's or a newsroom's home: its latest post declares itself
            _typed(page, "listing", "the site's front page, whatever its latest post declares")
        return
    if not page.authors and _documentation(page):
        # its date is the last edit's, not a publication's
        _typed(page, "other", "documentation: no byline, a docs page's marks")
        return
    if not page.authors and docs_path(page.url):
        _typed(page, "other", "documentation: no byline, under a documentation path")
        return
    dated = bool(page.published or page.authors)
    # A date the page shows nowhere (a site builder's stamp) is no story's mark either,
    # nor is a generic Article type beside headlines that outweigh the text: wikis and
    # CMSs stamp it on their list pages too (wceb_dev 2905, a wiki's "List of" page,
    # the one bench page it re-types; text F1 0.295 -> 0.834).
    if (front or not dated or (not page.authors and _stamped(page, declared=False))) and (
        page.headline_page or _card_grid(page)
    ):
        where = (
            "the site's front page"
            if front
            else "no byline and a date it shows nowhere" if dated else "no date and no byline"
        )
        _typed(page, "listing", f"{where}, and its lines are mostly headlines or cards")
        return
    if front:
        if len(post_headers(page)) >= MIN_POSTS:
            # a news site's front of whole stories, each under its dated header
            _typed(page, "listing", "the site's front page, its text dated stories")
        else:
            _typed(page, "other", "the site's front page, neither headlines nor an article")
        return
    if page.authors:
        return  # a bylined article: the common case
    lines = [line for line in page.lines if not line.boilerplate]
    teasers = sum(1 for line in lines if is_headline_link(line))
    prices = price_tags(lines)
    if prices >= GRID_PRICES and teasers >= GRID_PRICES:
        # a shop's grid, dated or not: shops date their pages too
        _typed(page, "listing", f"a grid of {prices} price tags and {teasers} teasers")
        return
    if not page.published and _declares_no_article(page):
        # its structured data names what it is, not an article
        _typed(page, "other", "no date, and its structured data names no article")
        return
    if teasers and _mostly_links(lines) and shows_pager(page):
        # a listing's last page of one teaser: a linked headline and its date, no text
        _typed(page, "listing", "no byline, teasers and no prose over a run of page numbers")
        return
    if dated and not _stamped(page):
        return  # a dated article: the common case
    # A stamped page of linked headlines stays an article: a short news item
    # dated in its metadata alone often stands beside many headlines.
    if (
        max(prices, _region_prices(page)) >= MIN_PRICES
        or (not dated and page.lines.tags.count("pre") >= MIN_CODE_BLOCKS)
        or sum(1 for _ in islice(page.root.iter("button"), MIN_BUTTONS)) >= MIN_BUTTONS
        or _blurbs(page)
    ):
        # Code blocks mark an undated page only: a dated post shows code too.
        _typed(page, "other", "no byline and the marks of a product, app or docs page")


# A line this long and mostly unlinked is a story's text, never a teaser's date or blurb.
PROSE_LINE = 120


def _mostly_links(lines: list[Line]) -> bool:
    """More linked text than unlinked, and no line of prose: headlines, not a story."""
    linked = sum(line.link_length for line in lines)
    unlinked = 0
    for line in lines:
        text = line.length - line.link_length
        if text >= PROSE_LINE:
            return False
        unlinked += text
    return linked > unlinked


def price_tags(lines: Iterable[Line]) -> int:
    """How many of ``lines`` are a price tag: a short line holding an amount of money."""
    return sum(1 for line in lines if line.length <= MAX_PRICE_TAG and _PRICE.search(line.text))


def _region_prices(page: Page) -> int:
    """Price tags in the selected region, the lines the walk marked included: a
    plans table between a service page's lead and its blurbs is marked (a promo),
    and the text keeps it out, yet it is the page's. Measured: wceb_dev 0028 (an
    SEO tool's page) lost 2 of its 3 price tags to boilerplate when the lead step
    stopped unmarking the gap under the lead (fcadcad) and became an article; no
    other page of any set changes type."""
    return price_tags(page.lines[page.start : page.end])


def _declares_no_article(page: Page) -> bool:
    """The page writes schema.org structured data (JSON-LD, microdata) and types
    nothing in it as an article: it declares a web page, an organization, a
    business, a product. A site that writes structured data types its stories
    (``Article``, ``NewsArticle``, ``BlogPosting``: what search engines read for
    a story), so a page it does not, which shows no date and names no author,
    is a service's, a product's, an about page. Open Graph's ``og:type`` does
    not count: site builders stamp ``website`` (or ``article``) on every page."""
    schema = {kind for kind in page.declared if kind and not kind.startswith("og:")}
    return bool(schema) and not schema & ARTICLE_TYPES


def _stamped(page: Page, declared: bool = True) -> bool:
    """The page's date is a site builder's stamp: read from its metadata (JSON-LD,
    meta tags, a script, an upload path) and written in none of its lines. A
    story shows its day (under the headline, in a byline); a product's,
    service's or manual's page is dated by the CMS's last save, shown nowhere.
    A page that declares itself a schema.org ``Article`` is trusted with its
    date (unless ``declared`` is false), and so is a date in the URL (sites put
    days in their stories' URLs) and a page with a ``<time>`` element (it shows
    a date, if as "3 hours ago")."""
    evidence = page.evidence.get("published")
    if page.published is None or evidence is None or evidence.source in _SHOWN_SOURCES:
        return False
    if declared and "Article" in page.declared:
        return False
    if any(source.startswith(_TIME_SOURCES) for _raw, source in page.meta.published):
        return False  # a <time> element: shown
    return not shows_day(page.lines, date.fromisoformat(page.published[:10]))


def headline_page(page: Page) -> bool:
    """A page of linked headlines (a section front, a blog's index, search results):
    at least :data:`MIN_TEASERS` of them, outweighing the selected text
    :data:`HEADLINES_SHARE` times. The one test of it, made once after the
    selection (:func:`find_headline_page`): a stray blurb on such a page gives
    way to the headlines, and :func:`settle_page_type` types an undated one a
    listing."""
    heads = [
        line.length for line in page.lines if is_headline_link(line) and not line.boilerplate
    ]
    return len(heads) >= MIN_TEASERS and sum(heads) >= HEADLINES_SHARE * _selected_length(page)


def find_headline_page(page: Page) -> None:
    """Reads the lines and the selection; writes ``page.headline_page`` (not on a
    thread: its posts are its text, whatever headlines stand beside them)."""
    if page.page_type != "thread":
        page.headline_page = headline_page(page)


def type_headline_list(page: Page) -> None:
    """A page whose text is a list of headlines is a listing. Reads the selection's
    kind (content.choose.select_headline_list); writes ``page.page_type``."""
    if page.selection.kind == "headlines":
        _typed(page, "listing", "its text is a list of linked headlines")


def _selected_length(page: Page) -> int:
    """Characters of the selected region's lines that are not boilerplate."""
    return sum(line.length for line in page.lines[page.start : page.end] if not line.boilerplate)


def _card_grid(page: Page) -> bool:
    """A grid of cards (a ranking, a profile's list of papers, a catalogue):
    :data:`MIN_CARDS` cards or more on the page (:func:`card_units`, the
    lines marked boilerplate too) whose text outweighs the selected text
    :data:`HEADLINES_SHARE` times. Items named in a word or two (a product's
    name, a price beside it) are no linked headlines, so :func:`headline_page`
    misses them."""
    units = card_units(page, 0, len(page.lines), marked=True)
    return len(units) >= MIN_CARDS and sum(units) >= HEADLINES_SHARE * _selected_length(page)


def _documentation(page: Page) -> bool:
    """Code blocks beside a documentation tree: a side menu of nested lists of links
    (a manual's chapters and sections). News menus nest too, but carry no code."""
    return (
        page.lines.tags.count("pre") >= MIN_DOC_CODE_BLOCKS
        and bool(_TREE_LINKS(page.root))
    )


def _blurbs(page: Page) -> bool:
    """A landing page's text: short blurbs under headings, few paragraphs of prose,
    or somewhat more prose when the blurbs are a minor part of the page's text
    (:data:`LANDING_BODY_SHARE`). An article's text, even a guide's, is mostly
    paragraphs, and most of its page."""
    lines = [line for line in page.lines[page.start : page.end] if not line.boilerplate]
    if sum(1 for line in lines if line.is_heading) < MIN_SECTION_HEADINGS:
        return False
    total = sum(line.length for line in lines)
    prose = sum(
        line.length
        for line in lines
        if line.length >= MIN_PROSE_LINE and line.link_density <= PROSE_LINK_DENSITY
    )
    if prose < PROSE_SHARE * total:
        return True
    page_total = sum(line.length for line in page.lines)
    return prose < LANDING_PROSE_SHARE * total and total < LANDING_BODY_SHARE * page_total


# Path segments (and a host's first label) under which sites serve their manuals:
# docs.python.org, /en-US/docs/Web/..., /doc/html/latest/...
DOC_SEGMENTS = frozenset(("doc", "docs", "documentation"))


def docs_path(url: str | None) -> bool:
    """The URL is a manual's: a ``docs`` (``doc``, ``documentation``) segment of its
    path, or a host named so. A manual's page reads like an article (prose under
    headings, a date of its last edit) and names no author; a blog post filed
    under such a path declares itself a post (``BlogPosting``) or is bylined."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return False
    if host.split(".", 1)[0] in DOC_SEGMENTS:
        return True
    return any(segment.lower() in DOC_SEGMENTS for segment in parts.path.split("/"))


def front_page(url: str | None) -> bool:
    """A site's home page (no path, no query): its news are teasers, never one article."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:  # a malformed address ("http://[x") is no site's home
        return False
    return bool(parts.netloc) and not parts.path.strip("/") and not parts.query
