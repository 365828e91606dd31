"""Why a page gave the article it gave: the data behind ``scrapy-cx explain``.

:func:`explain_page` runs the core once and keeps what it saw (the page's
lines, what kind of text each is, the selected region, where the title, date
and authors were found); :func:`render_html` draws it as a self-contained
report (inline SVG, no script, no network) and :func:`render_text` as a
terminal summary. Nothing here decides anything: every figure is the core's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..article import Article
from ..extract import Evidence, Page, extract_page
from ..extract.lines import Line

__all__ = ["Explanation", "FieldSource", "Kind", "ShownLine", "explain_page"]


@dataclass(frozen=True, slots=True)
class Kind:
    """A type of text on the page, as the report names and colours it."""

    name: str
    colour: str
    meaning: str


CONTENT = Kind("content", "#2e7d32", "the article's text")
RELATED = Kind("related", "#ef6c00", "lists of linked headlines (related, read more, most read)")
NAVIGATION = Kind("navigation", "#1565c0", "menus and other mostly-linked lines")
BOILERPLATE = Kind("boilerplate", "#9e9e9e", "the rest outside the article: footers, bylines...")
# The core's block kinds (Quark's page segmentation), in legend order.
CORE_KINDS = {kind.name: kind for kind in (CONTENT, RELATED, NAVIGATION, BOILERPLATE)}


@dataclass(frozen=True, slots=True)
class ShownLine:
    """One line of the page as the core cut it, with its kind."""

    text: str
    length: int  # non-space characters
    link_length: int  # of which inside links
    tag: str  # the block element holding it
    kind: Kind


@dataclass(frozen=True, slots=True)
class FieldSource:
    """Where one field's value was found, in words for the report."""

    field: str  # "title", "published", "authors"
    value: str | None
    where: str  # in words: "<h1> on line 12", "meta article:published_time", ...
    line: int | None = None  # index of the page line it was read from, if any


@dataclass(frozen=True, slots=True)
class Explanation:
    """Everything one report shows, for one page."""

    source: str  # the file or URL as the user named it
    article: Article
    lines: tuple[ShownLine, ...]
    regions: tuple[tuple[int, int], ...]  # selected line ranges, end exclusive
    evidence: tuple[FieldSource, ...]  # title, published, authors
    kinds: tuple[Kind, ...]  # the kinds the lines use, in legend order
    block_size: int  # K: lines per block
    line_cost: float  # what a block must outweigh to join the region


def explain_page(
    body: str | bytes,
    url: str | None = None,
    *,
    source: str | None = None,
    encoding: str | None = None,
    reference_time: datetime | None = None,
) -> Explanation:
    """Run the extraction on one page and keep what it saw (never raises on bad input)."""
    return explanation(
        extract_page(body, url, encoding=encoding, reference_time=reference_time),
        source or url or "<page>",
    )


def explanation(page: Page, source: str) -> Explanation:
    """The one adapter from the core's :class:`Page` to what the report draws."""
    options = page.options
    lines = page.lines
    article = page.article()
    values = {
        "title": article.title,
        "published": article.published_raw,
        "authors": ", ".join(article.authors) or None,
    }
    # The core gives every line a kind (extract/blocks.py): one per line, in order.
    shown = tuple(
        ShownLine(line.text, line.length, line.link_length, line.tag, CORE_KINDS[kind])
        for line, kind in zip(lines, page.kinds, strict=True)
    )
    return Explanation(
        source=source,
        article=article,
        lines=shown,
        regions=tuple((a, b) for a, b in page.regions if b > a),
        evidence=tuple(
            _field_source(field, value, page.evidence_of(field), lines)
            for field, value in values.items()
        ),
        kinds=tuple(CORE_KINDS.values()),
        block_size=options.block_size,
        line_cost=options.line_cost,
    )


_MISSING = {
    "title": "no headline in the page or its metadata",
    "published": "no date in the page, its metadata or its URL",
    "authors": "no byline near the headline and no author metadata",
}


def _field_source(
    field: str, value: str | None, evidence: Evidence | None, lines: list[Line]
) -> FieldSource:
    """Say where ``value`` came from, from the core's evidence for ``field``."""
    if value is None:
        return FieldSource(field, None, _MISSING[field])
    if evidence is None:
        return FieldSource(field, value, "not recorded")
    index = evidence.line
    if index is not None and 0 <= index < len(lines):
        where = f"<{lines[index].tag}> on line {index + 1} of the page"
        return FieldSource(
            field, value, ("byline, " if evidence.source == "byline" else "") + where, index
        )
    where = _metadata(evidence.source)
    if evidence.raw and evidence.raw != value and field != "published":
        where += f": “{evidence.raw}”"
    return FieldSource(field, value, where)


def _metadata(source: str) -> str:
    """A source as the core names it ("meta:og:title", "title_tag", "url"...), in words."""
    kind, _, name = source.partition(":")
    if kind == "meta":
        return f"<meta> {name}" if name else "author metadata (<meta name=author>, JSON-LD)"
    if kind == "jsonld":
        return f"JSON-LD {name or 'headline'}"
    if kind == "itemprop":
        return f"microdata itemprop={name}"
    if kind == "time":
        return "<time datetime> (pubdate)" if name else "<time datetime> in the page"
    if kind == "title_tag":
        return "<title>"
    if kind == "url":
        return "the URL"
    return source or "the page's text (no single line holds it)"
