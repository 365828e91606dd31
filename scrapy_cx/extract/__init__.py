"""Pure extraction: ``html + url -> Article``. Nothing here imports Scrapy."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from ..article import DEFAULT_FORMATS, Article, check_formats
from .classify.pagetype import (
    PAGE_TYPES,
    find_headline_page,
    find_page_type,
    settle_page_type,
    type_headline_list,
)
from .classify.probability import find_probability
from .content.blocks import find_blocks
from .content.choose import select_headline_list, select_lead, select_text
from .content.learned import select_learned
from .content.live import find_live_posts
from .content.posts import find_posts
from .content.sections import join_sections
from .content.thread import select_thread
from .fields.access import find_access
from .fields.authors import find_authors
from .fields.breadcrumbs import find_breadcrumbs
from .fields.dates import date_by_htmldate, find_modified, find_published
from .fields.fingerprint import find_fingerprint
from .fields.image import find_image
from .fields.language import find_language
from .fields.navigation import find_navigation
from .fields.title import find_list_headline, find_site_name
from .page import Evidence, Page, Selection
from .parse.decode import decode_page
from .parse.dom import parse_document
from .parse.lines import LineOptions
from .parse.read import read_lines, read_page_meta
from .render.structure import find_structure

__all__ = [
    "Evidence", "LineOptions", "PAGE_TYPES", "Page", "STAGES", "Selection",
    "extract_article", "extract_page",
]  # fmt: skip

_DEFAULT_OPTIONS = LineOptions()  # frozen: one instance serves every call


def extract_article(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    reference_time: datetime | str | None = None,
    date_languages: list[str] | None = None,
    formats: Iterable[str] = DEFAULT_FORMATS,
    **options: Any,
) -> Article:
    """Extract one article from a page.

    ``html`` may be bytes (decoded as a crawler would; ``encoding`` is the HTTP
    header's charset if known). ``reference_time``: when the page was fetched, what
    relative dates ("3 hours ago") count from: a datetime, or its ISO 8601 string.
    ``options`` are :class:`LineOptions` fields (``block_size``, ``learned``...).
    ``formats``: which of :data:`~scrapy_cx.article.FORMATS` to make beside the
    text (``html``, ``markdown``, ``images``); the others stay None, cost nothing.
    Never raises on bad markup or bytes (ValueError on an unknown format or a
    ``reference_time`` string that is not ISO 8601).
    """
    return extract_page(
        html,
        url,
        encoding=encoding,
        reference_time=reference_time,
        date_languages=date_languages,
        formats=formats,
        **options,
    ).article()


def extract_page(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    reference_time: datetime | str | None = None,
    date_languages: list[str] | None = None,
    formats: Iterable[str] = DEFAULT_FORMATS,
    **options: Any,
) -> Page:
    """Run every stage on one page and return the whole :class:`Page` (lines,
    regions, evidence...), not only its article: what ``scrapy-cx explain`` draws."""
    if isinstance(reference_time, str):
        # How the crawl hands it to a worker: a string pickles in a fifth of the time of
        # a datetime with its time zone, a cost its process pays per page.
        reference_time = datetime.fromisoformat(reference_time)
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
    page.formats = formats if formats is DEFAULT_FORMATS else check_formats(formats)
    for stage in STAGES:
        stage(page)
    return page


#: The extraction, in order: each stage reads what earlier ones filled in the page.
#: Only the page-typing stages (pagetype.py) write ``page_type``; the stages choosing
#: the text replace ``page.selection`` (page.Selection) as a whole.
STAGES: tuple[Callable[[Page], None], ...] = (
    read_page_meta,  # tree, URL -> meta
    read_lines,  # tree -> selection (the walk's lines, nothing selected), truncated
    select_text,  # lines, meta -> selection: main text, its headline and title
    find_page_type,  # declared types, lines, selection -> page_type, declared, replies
    select_thread,  # a thread: its posts read as text -> selection (lines re-marked)
    find_headline_page,  # lines, selection -> headline_page (a page of linked headlines)
    select_headline_list,  # headline_page: a stray blurb gives way -> selection (headlines)
    type_headline_list,  # selection of kind headlines -> page_type listing
    find_list_headline,  # a listing: the headline above its list -> selection
    select_lead,  # an article: its lead and lead caption -> selection
    find_language,  # meta, content -> language
    find_published,  # meta, lines, headline, URL -> published, evidence
    find_modified,  # meta -> modified, evidence
    find_site_name,  # meta, title -> site_name, evidence
    find_authors,  # meta, lines, headline, site_name -> authors, source, evidence
    settle_page_type,  # dates, authors, headline_page, lines -> page_type
    date_by_htmldate,  # no date yet, page_type, markup -> published, evidence (htmldate)
    join_sections,  # not one article: its sections -> selection
    find_posts,  # a thread: its post units -> posts
    find_live_posts,  # no posts yet: a live blog's entries (JSON-LD, stamps) -> posts
    select_learned,  # not an article: the learned labeller's lines -> selection, line_scores
    find_blocks,  # lines, regions -> kinds, related
    find_image,  # meta, tree -> image, evidence
    find_breadcrumbs,  # JSON-LD, microdata, breadcrumb navigation -> breadcrumbs
    find_access,  # JSON-LD / microdata isAccessibleForFree -> accessible_for_free
    find_fingerprint,  # content -> fingerprint
    find_probability,  # page_type, declared, dates, authors, headline, URL, body -> probability
    find_structure,  # formats, body, lines, image -> content_html, content_markdown, images
    find_navigation,  # page_type, lines, links, anchors -> article_links, next_page
)
