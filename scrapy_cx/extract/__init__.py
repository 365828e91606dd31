"""Pure extraction: ``html + url -> Article``. Nothing here imports Scrapy."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..article import Article
from ._page import Page
from .authors import find_authors
from .dates import find_published
from .decode import decode_page
from .dom import parse_html
from .language import guess_language
from .lines import LineOptions, find_headline, main_text, page_lines, select_main
from .meta import read_meta
from .title import find_title

__all__ = ["extract_article", "LineOptions"]

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
    text, page_encoding, utf8 = decode_page(html, encoding)
    page = Page(
        parse_html(text, utf8),
        url,
        LineOptions(**options) if options else _DEFAULT_OPTIONS,
        page_encoding,
        reference_time,
        date_languages,
    )
    for stage in STAGES:
        stage(page)
    return page.article()


def _meta(page: Page) -> None:
    page.meta = read_meta(page.root, page.url)


def _lines(page: Page) -> None:
    page.lines = page_lines(page.root, page.options)


def _headline(page: Page) -> None:
    """The headline line the selection leaves out (one ``<h1>``, else the title's line)."""
    page.headline = find_headline(page.lines, page.title_sources())


def _select(page: Page) -> None:
    page.regions = [select_main(page.lines, page.options, headline=page.headline)]
    page.content = main_text(page.lines[page.start : page.end])


def _language(page: Page) -> None:
    page.language = guess_language(page.meta.language, page.content)


#: The extraction, in order: each stage reads what earlier ones filled in the page.
STAGES: tuple[Callable[[Page], None], ...] = (
    _meta,
    _lines,
    _headline,
    _select,
    find_title,
    _language,
    find_published,
    find_authors,
)
