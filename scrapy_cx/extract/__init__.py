"""Pure extraction: ``html + url -> Article``. Nothing here imports Scrapy."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from operator import attrgetter
from typing import Any

from ..article import Article
from .page import Page
from .authors import find_authors
from .blocks import find_blocks
from .dates import find_modified, find_published
from .decode import decode_page
from .dom import parse_document
from .fingerprint import fingerprint as _text_fingerprint
from .image import find_image
from .language import guess_language
from .lines import (
    CARD_LINK_DENSITY,
    SECTIONS_BOILERPLATE_WORDS,
    SKIP_TAGS,
    Line,
    LineOptions,
    PageLines,
    is_headline_link,
    lead_caption,
    lead_start,
    main_text,
    page_lines,
    remark_lines,
    select_headlines,
    select_main,
    select_sections,
    thread_lines,
)
from .meta import read_meta
from .pagetype import PAGE_TYPES, find_page_type, headline_page, settle_page_type, story_head
from .posts import (
    MAX_LABEL,
    MIN_LABEL_REPEATS,
    find_posts,
    frame_labels,
    merge_units,
    post_chrome,
    post_units,
    said,
)
from .title import find_headline, find_list_headline, find_site_name

__all__ = ["extract_article", "LineOptions", "PAGE_TYPES"]

_DEFAULT_OPTIONS = LineOptions()  # frozen: one instance serves every call


def extract_article(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    reference_time: datetime | None = None,
    date_languages: list[str] | None = None,
    **options: Any,
) -> Article:
    """Extract one article from a page.

    ``html`` may be bytes (decoded as a crawler would; ``encoding`` is the HTTP
    header's charset if known). ``options`` are :class:`LineOptions` fields
    (``block_size``, ``line_cost``, ...). Never raises on bad markup or bytes.
    """
    return extract_page(
        html,
        url,
        encoding=encoding,
        reference_time=reference_time,
        date_languages=date_languages,
        **options,
    ).article()


def extract_page(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    reference_time: datetime | None = None,
    date_languages: list[str] | None = None,
    **options: Any,
) -> Page:
    """Run every stage on one page and return the whole :class:`Page` (lines,
    regions, evidence...), not only its article: what ``scrapy-cx explain`` draws."""
    text, page_encoding, utf8 = decode_page(html, encoding)
    parsed = parse_document(text, utf8)
    page = Page(
        parsed.root,
        url,
        LineOptions(**options) if options else _DEFAULT_OPTIONS,
        page_encoding,
        reference_time,
        date_languages,
        parsed.elements,
        parsed.markup,
    )
    page.truncated = parsed.truncated
    for stage in STAGES:
        stage(page)
    return page


def _meta(page: Page) -> None:
    page.meta = read_meta(page.root, page.url, page.elements)


# A page showing less text than this is not readable as served: script-built
# pages (forum software) put their text for non-JS readers in <noscript>.
MIN_VISIBLE_TEXT = 200
_SKIP_BUT_NOSCRIPT = SKIP_TAGS - {"noscript"}
_LENGTH = attrgetter("length")


def _lines(page: Page) -> None:
    page.lines = _walk(page)


def _walk(page: Page) -> PageLines:
    lines = page_lines(page.root, page.options)
    if sum(map(_LENGTH, lines)) < MIN_VISIBLE_TEXT:
        fallback = page_lines(page.root, page.options, _SKIP_BUT_NOSCRIPT)
        if sum(map(_LENGTH, fallback)) >= MIN_VISIBLE_TEXT:
            lines = fallback
    page.truncated = page.truncated or lines.truncated
    return lines


def _select(page: Page) -> None:
    """Select the main text, find the headline beside it (``title.find_headline``,
    the one place it is decided: a headline sits just above its text), then, when
    the headline lies inside that text, select again leaving it out (above or
    below the text, leaving it out moves nothing)."""
    _choose(page)
    find_headline(page)
    if page.start <= page.headline < page.end:
        _choose(page)


def _choose(page: Page) -> None:
    page.regions = [select_main(page.lines, page.options, page.headline)]
    page.content = main_text(page.lines[page.start : page.end], page.lines)
    page.listing = False
    if not page.content and page.options.card_share > 0:
        # A list of teaser cards (a section front, a product grid): its text is the
        # list's, and the page is a listing, not an empty article.
        _select_in(page, replace(page.options, card_share=0.0))
        page.listing = bool(page.content)
    if not page.content:
        _fallback(page)


def _lead(page: Page) -> None:
    """Start an article's text at its lead: the lead paragraph the narrowing to the
    body's container left between the headline and the body, and the lead
    picture's caption right above, even one named "caption" or "credit" (the
    article's own words about its first picture)."""
    if page.page_type != "article" or not page.content:
        return
    start, end = page.regions[0]
    first = lead_caption(page.lines, lead_start(page.lines, page.options, page.headline, start))
    if first < start:
        for line in page.lines[first:start]:
            line.boilerplate = False
        page.regions[0] = (first, end)
        page.content = main_text(page.lines[first:end], page.lines)


def _select_in(page: Page, options: LineOptions) -> None:
    region = select_main(page.lines, options, headline=page.headline)
    content = main_text(page.lines[region[0] : region[1]], page.lines)
    if content:
        page.regions, page.content = [region], content


def _fallback(page: Page) -> None:
    """No main text although the page has some: select again, trusting no boilerplate mark.

    Sites name the article's own containers "widget" or "modal"; when their marks
    leave nothing, the densest run of the page, marks ignored, is the best guess.
    """
    lines = page.lines
    if sum(line.length for line in lines if line.boilerplate) < MIN_VISIBLE_TEXT:
        return
    marks = [line.boilerplate for line in lines]
    for line in lines:
        line.boilerplate = False
    _select_in(page, page.options)
    if not page.content:
        for line, mark in zip(lines, marks, strict=True):
            line.boilerplate = mark


# A thread's posts are many sibling groups of a few lines each: no narrowing to
# one group or container, and a lower line cost, so short replies count.
THREAD_COST_SHARE = 0.75


def _thread(page: Page) -> None:
    """Select again for a thread: the posts, not the longest one.

    Forum software names each post a "comment": the thread's lines are marked
    again with those elements read as text (from what the walk kept: no second
    walk). That reading is kept only when it keeps what the first one selected,
    or that was too short to be an article: an article followed by its comment
    section stays the article.
    """
    if page.page_type != "thread":
        return
    if page.replies:
        _replies(page)
        return
    options = replace(
        page.options,
        container_share=0.0,
        card_share=0.0,
        body_share=0.0,
        line_cost=int(page.options.line_cost * THREAD_COST_SHARE),
    )
    _select_in(page, options)
    before = page.lines, page.regions, page.content, page.headline, page.title
    evidence = page.evidence.get("title")
    page.lines, page.regions, page.content = thread_lines(page.lines, page.options), [], ""
    page.headline = -1
    _select_in(page, options)
    find_headline(page)
    if page.headline >= 0:
        _select_in(page, options)
    if not page.content or (
        len(before[2]) >= THREAD_MIN_ARTICLE and not _keeps(page.content, before[2])
    ):
        page.lines, page.regions, page.content, page.headline, page.title = before
        page.evidence.pop("title", None)
        if evidence is not None:
            page.evidence["title"] = evidence
    _span_units(page)
    start, end = page.start, page.end
    labels = frame_labels(page.lines)
    posts = [line for line in page.lines[start:end] if said(line, page.lines, options, labels)]
    page.content = main_text(posts, page.lines) or page.content


# The posts outweigh a selection made inside one of them this many times: short
# replies in big frames (an author panel of ten lines each) lost to the one post
# the line-block selection kept; the posts, first to last, are the content.
UNITS_SHARE = 2


def _span_units(page: Page) -> None:
    """Widen a thread's selection made inside one of its post units to all of them."""
    units = post_units(page)
    if not units or not any(first <= page.start < last for first, last in units):
        return
    first, last = units[0][0], max(end for _start, end in units)
    lines = page.lines
    spanned = sum(line.length for line in lines[first:last] if not line.boilerplate)
    selected = sum(line.length for line in lines[page.start : page.end] if not line.boilerplate)
    if spanned >= UNITS_SHARE * selected:
        page.regions = [(min(first, page.start), max(last, page.end))]


def _replies(page: Page) -> None:
    """A discussion's content (``page.replies``, pagetype._discussion): the lines
    from its headline through the selection (the post, or the few lines of a
    submitted link), then the replies' text, the page's "comment" elements read
    as text (from what the walk kept: no second walk). Controls ("reply",
    "permalink", an author's linked name) are left out. Not a new line
    selection: that would keep the densest few replies only, a discussion's
    replies being short and each carrying its links."""
    lines = thread_lines(page.lines, page.options)
    top = page.headline + 1 if 0 <= page.headline < page.start else page.start
    kept = [line for line in lines[top : page.start] if not post_chrome(line, page.options)]
    kept += (line for line in lines[page.start : page.end] if not line.boilerplate)
    replies, _ = merge_units(page.replies)
    labels = frame_labels(lines)
    for first, last in replies:
        kept += (line for line in lines[first:last] if said(line, lines, page.options, labels))
    page.lines = lines
    page.regions = [*page.regions[:1], *replies]
    page.content = main_text(kept, lines) or page.content


# Share of the first selection's text the comment-reading selection must keep,
# when that text is long enough (characters) to be an article of its own.
THREAD_KEEP_SHARE = 0.5
THREAD_MIN_ARTICLE = 500


def _keeps(content: str, earlier: str) -> bool:
    """Whether ``content`` holds most of ``earlier``'s lines (as whole lines)."""
    kept = set(content.split("\n"))
    lines = earlier.split("\n")
    total = sum(map(len, lines))
    return sum(len(x) for x in lines if x in kept) >= THREAD_KEEP_SHARE * total


# A selection this short (characters), with no paragraph of MIN_PARAGRAPH, is a
# stray blurb (a cookie notice) when the page is one of headlines, unless it
# stands under the page's dated headline (pagetype.story_head): a short story.
TINY_CONTENT = 300
MIN_PARAGRAPH = 100


def _headlines(page: Page) -> None:
    """Tell a page of headlines (:func:`headline_page`, decided here once, for
    settle_page_type too); on one, a stray blurb gives way to the headlines,
    and a page whose text is a list of headlines is a listing."""
    if page.page_type == "thread":
        return
    page.headlines = headline_page(page)
    content = page.content
    if not page.headlines or len(content) >= TINY_CONTENT:
        return
    if any(line.length >= MIN_PARAGRAPH for line in page.lines[page.start : page.end]):
        return
    if story_head(page):
        return  # a story a few lines long under its dated head: no stray blurb
    start, end = select_headlines(page.lines, page.options)
    text = main_text(page.lines[start:end], page.lines)
    if len(text) > len(content):
        page.regions, page.content = [(start, end)], text
        page.listing, page.page_type = True, "listing"


def _listing_headline(page: Page) -> None:
    """A listing's text is its list: its headline is the one above the list."""
    if page.page_type == "listing":
        find_list_headline(page)


# A region weighing this share of the page's densest one is one of its sections (a
# product's one-paragraph promise between lists of links weighs a fifth of its
# description; 0.15 keeps it, and on wceb_dev gained product must-haves, lost no must-not).
SECTION_SHARE = 0.15
SECTION_TYPES = ("listing", "other")
# A line of a section outside the main region shorter than this (non-space
# characters) is a button, a price or a tab's name, not the section's text.
MIN_SECTION_LINE = 20


def _sections(page: Page) -> None:
    """A page that is not one article (a product, a service's landing page, a
    listing) holds its text in several regions: a product's description above
    its specs and reviews, a landing page's sections between promos, a
    listing's intro and its cards. Its content is, in page order, the text
    lines of the main region, of every other dense run of the line pass (the
    main one before its narrowing to one container, too) and of its lead (the
    text right below its headline: a product's blurb, a landing page's hero,
    a listing's intro). Link lines (buttons, "Learn more", logos) are left out,
    except a link within a paragraph of text and a listing's linked headlines
    (its items); so are the other runs' short lines (prices, tabs' names) and
    the controls every card repeats (:func:`_card_controls`).
    The lines are marked again first, names that mark a product's or a landing
    page's content (``lines.SECTION_WORDS``) taken as content (no second walk).
    After the last page-type stage: the type says which pages have sections."""
    if page.page_type not in SECTION_TYPES or not page.regions:
        return
    listing = page.page_type == "listing"
    lines = page.lines
    remark_lines(lines, SECTIONS_BOILERPLATE_WORDS, page.options)  # read as a product's
    sections, weights = select_sections(
        lines, page.options, page.headline, SECTION_SHARE, listing=listing
    )
    main = page.regions[0]
    keep = [weights[i] > 0 and i in range(*main) for i in range(len(lines))]
    _keep_headings(lines, weights, main, keep)
    texts = {lines[i].block for i in range(*main) if keep[i]}
    for i in range(*main):
        keep[i] = keep[i] or lines[i].block in texts  # a link within a paragraph
    for start, end in sections:
        for i in range(start, end):
            line = lines[i]
            keep[i] = keep[i] or (
                weights[i] > 0
                and (line.length >= MIN_SECTION_LINE or (listing and is_headline_link(line)))
            )
    lead = end = page.headline + 1 if page.headline >= 0 else len(lines)
    while end < len(lines) and (weights[end] > 0 or lines[end].boilerplate):
        keep[end] = keep[end] or weights[end] > 0  # the lead, up to its first link
        end += 1
    if end > lead:
        sections.append((lead, end))
        sections.sort()
    controls = _card_controls(lines)
    kept = [line for line, k in zip(lines, keep, strict=True) if k and line.text not in controls]
    text = main_text(kept, lines)
    if text:
        page.regions = [main, *(region for region in sections if region != main)]
        page.content = text


def _card_controls(lines: PageLines) -> set[str]:
    """The short link texts cards repeat, each time to another page: every card's
    "See all reviews", "Add to cart", "Read more" (:data:`MIN_LABEL_REPEATS`
    addresses or more). A name linked to one place (a blog's author on each of
    its teasers) is the same link shown again, not a control."""
    targets: dict[str, set[str | None]] = {}
    for line in lines:
        if line.length <= MAX_LABEL and line.link_density > CARD_LINK_DENSITY:
            targets.setdefault(line.text, set()).add(line.href)
    return {text for text, hrefs in targets.items() if len(hrefs) >= MIN_LABEL_REPEATS}


# A heading needs this many letters of its own: "2" over a step is a number, not a heading.
MIN_HEADING_LETTERS = 2


def _keep_headings(
    lines: list[Line], weights: list[float], region: tuple[int, int], keep: list[bool]
) -> None:
    """Keep the headings of ``region`` that head its text: the next line that is not
    a heading carries text. Docs link their headings (a permalink, a link back to
    the contents), so a heading's link does not make it a button; a heading over
    nothing, or over lines weighing nothing (a menu's), is left out."""
    start, end = region
    heads = False  # whether the lines below, up to the next text, are under a heading
    for i in range(end - 1, start - 1, -1):
        line = lines[i]
        if not line.is_heading:
            heads = weights[i] > 0
        elif heads and sum(c.isalpha() for c in line.text) >= MIN_HEADING_LETTERS:
            keep[i] = True


def _fingerprint(page: Page) -> None:
    page.fingerprint = _text_fingerprint(page.content)


def _language(page: Page) -> None:
    page.language = guess_language(page.meta.language, page.content)


#: The extraction, in order: each stage reads what earlier ones filled in the page.
STAGES: tuple[Callable[[Page], None], ...] = (
    _meta,
    _lines,
    _select,
    find_page_type,
    _thread,
    _headlines,
    _listing_headline,
    _lead,
    _language,
    find_published,
    find_modified,
    find_site_name,
    find_authors,
    settle_page_type,
    _sections,
    find_posts,
    find_blocks,
    find_image,
    _fingerprint,
)
