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

from .article import Article
from .extract import LineOptions
from .extract.authors import byline_authors, find_authors
from .extract.dates import find_published
from .extract.decode import decode_page
from .extract.dom import parse_html
from .extract.language import guess_language
from .extract.lines import Line, main_text, page_lines, select_main
from .extract.meta import PageMeta, read_meta
from .extract.title import find_title

__all__ = ["Evidence", "Explanation", "Kind", "ShownLine", "explain_page"]


@dataclass(frozen=True, slots=True)
class Kind:
    """A type of text on the page, as the report names and colours it."""

    name: str
    colour: str
    meaning: str


CONTENT = Kind("content", "#2e7d32", "article text")
LINKS = Kind("links", "#ef6c00", "mostly link text (lists of headlines, related links)")
BOILERPLATE = Kind("boilerplate", "#9e9e9e", "menus, asides, footers, share bars (by markup)")
# Until the core labels blocks itself, these three are read off its lines.
DERIVED_KINDS = (CONTENT, LINKS, BOILERPLATE)


@dataclass(frozen=True, slots=True)
class ShownLine:
    """One line of the page as the core cut it, with its kind."""

    text: str
    length: int  # non-space characters
    link_length: int  # of which inside links
    tag: str  # the block element holding it
    kind: Kind


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where one field's value was found."""

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
    headline: int | None  # line index of the headline, if shown in the page
    evidence: tuple[Evidence, ...]
    kinds: tuple[Kind, ...]  # the kinds the lines use, in legend order
    kinds_from_core: bool  # False: kinds derived here from boilerplate/link marks
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
    options = LineOptions()
    text, _codec, utf8 = decode_page(body, encoding)
    root = parse_html(text, utf8)
    meta = read_meta(root, url)
    lines = page_lines(root, options)
    titles = [meta.title_tag or "", *(value for value, _source in meta.titles)]
    start, end = select_main(lines, options, titles)
    content = main_text(lines[start:end])
    title, title_index = find_title(meta, lines, start, end, url)
    language = guess_language(meta.language, content)
    published, published_raw = find_published(
        meta, lines, title_index, start, url, reference_time, None, language, end
    )
    authors = find_authors(meta.authors, lines, title_index, start)
    article = Article(
        url=url,
        title=title,
        published=published,
        published_raw=published_raw,
        content=content,
        authors=authors,
        keywords=tuple(meta.keywords),
        description=meta.description,
        language=language,
        canonical_url=meta.canonical_url,
    )
    evidence = (
        _title_evidence(meta, lines, title, title_index),
        _date_evidence(meta, lines, url, published_raw),
        _author_evidence(meta, lines, authors, title_index, start),
    )
    return Explanation(
        source=source or url or "<page>",
        article=article,
        lines=tuple(_shown(line, options) for line in lines),
        regions=((start, end),) if end > start else (),
        headline=title_index,
        evidence=evidence,
        kinds=DERIVED_KINDS,
        kinds_from_core=False,
        block_size=options.block_size,
        line_cost=options.line_cost,
    )


def _shown(line: Line, options: LineOptions) -> ShownLine:
    if line.boilerplate:
        kind = BOILERPLATE
    elif line.link_density > options.max_link_density:
        kind = LINKS
    else:
        kind = CONTENT
    return ShownLine(line.text, line.length, line.link_length, line.tag, kind)


def _on_line(lines: list[Line], index: int) -> str:
    return f"<{lines[index].tag}> on line {index + 1} of the page"


def _metadata(source: str) -> str:
    """A metadata source as ``read_meta`` names it ("meta:og:title"), in words."""
    kind, _, name = source.partition(":")
    if kind == "meta":
        return f"<meta> {name}"
    if kind == "jsonld":
        return f"JSON-LD {name or 'headline'}"
    if kind == "itemprop":
        return f"microdata itemprop={name}"
    if kind == "time":
        return "<time datetime> (pubdate)" if name else "<time datetime> in the page"
    return source


def _title_evidence(
    meta: PageMeta, lines: list[Line], title: str | None, index: int | None
) -> Evidence:
    if title is None:
        return Evidence("title", None, "no headline in the page or its metadata")
    if index is not None:
        return Evidence("title", title, _on_line(lines, index), index)
    sources = ([(meta.title_tag, "<title>")] if meta.title_tag else []) + meta.titles
    for value, where in sources:
        if title in value:
            return Evidence("title", title, _metadata(where) + " (not shown as a heading)")
    return Evidence("title", title, "metadata")


def _date_evidence(meta: PageMeta, lines: list[Line], url: str | None, raw: str | None) -> Evidence:
    if raw is None:
        return Evidence("published", None, "no date in the page, its metadata or its URL")
    for value, where in meta.published:
        if value == raw:
            return Evidence("published", raw, _metadata(where))
    for i, line in enumerate(lines):
        if raw in line.text:
            return Evidence("published", raw, _on_line(lines, i), i)
    if url and raw in url:
        return Evidence("published", raw, "the URL")
    return Evidence("published", raw, "a relative date in the page")


def _author_evidence(
    meta: PageMeta,
    lines: list[Line],
    authors: tuple[str, ...],
    title_index: int | None,
    start: int,
) -> Evidence:
    value = ", ".join(authors) or None
    if not authors:
        return Evidence("authors", None, "no byline near the headline and no author metadata")
    if byline_authors(lines, title_index, start):
        # The byline is the first line below the headline (or near the text) naming them.
        first, lo = authors[0], title_index if title_index is not None else 0
        for i in range(lo, len(lines)):
            if first in lines[i].text:
                return Evidence("authors", value, "byline, " + _on_line(lines, i), i)
    return Evidence("authors", value, "metadata (author meta tag or JSON-LD)")
