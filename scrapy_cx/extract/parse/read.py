"""The first readings of a page: its metadata and its lines (the walk)."""

from __future__ import annotations

from operator import attrgetter

from ..page import Page, Selection
from .lines import SKIP_TAGS, PageLines, page_lines
from .meta import read_meta


def read_page_meta(page: Page) -> None:
    """Reads the tree and URL; writes ``page.meta``."""
    page.meta = read_meta(page.root, page.url, page.elements)


# A page showing less text than this is not readable as served: script-built
# pages (forum software) put their text for non-JS readers in <noscript>.
MIN_VISIBLE_TEXT = 200
_SKIP_BUT_NOSCRIPT = SKIP_TAGS - {"noscript"}
_LENGTH = attrgetter("length")


def read_lines(page: Page) -> None:
    """Reads the tree; writes the selection's lines, none selected yet (the walk,
    again with ``<noscript>`` read when the page shows too little) and
    ``page.truncated``."""
    page.selection = Selection(_walk(page))


def _walk(page: Page) -> PageLines:
    lines = page_lines(page.root, page.options)
    if sum(map(_LENGTH, lines)) < MIN_VISIBLE_TEXT:
        fallback = page_lines(page.root, page.options, _SKIP_BUT_NOSCRIPT)
        if sum(map(_LENGTH, fallback)) >= MIN_VISIBLE_TEXT:
            lines = fallback
    page.truncated = page.truncated or lines.truncated
    return lines

