"""Why a page gave the article it gave: the data behind ``scrapy-cx explain``.

:func:`explain_page` runs the core once and keeps what it saw (the page's
lines, what kind of text each is, the selected region, where the title, date
and authors were found); :func:`render_html` draws it as a self-contained
report (inline SVG, no script, no network) and :func:`render_text` as a
terminal summary. Nothing here decides anything: every figure is the core's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from ..article import FORMATS, Article
from ..extract import Evidence, Page, extract_page
from ..extract.parse.lines import Line
from ..settings import CxSettings
from ..verdict import content_length, invalid_reason

__all__ = [
    "Explanation",
    "FieldSource",
    "Kind",
    "ShownLine",
    "explain_page",
    "line_spans",
    "structure_summary",
    "text_size",
    "verdict_summary",
]


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
    shape: str | None = None  # what it became in the body's HTML (h2, p, li, row...), if kept
    score: float | None = None  # P(main), where the learned labeller chose the text


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
    evidence: tuple[FieldSource, ...]  # title, published, authors, breadcrumbs...
    kinds: tuple[Kind, ...]  # the kinds the lines use, in legend order
    block_size: int  # K: lines per block
    line_cost: float  # what a block must outweigh to join the region
    verdict: str | None = None  # why the crawl would drop it (a cx/dropped/ key); None: kept
    structure: Mapping[str, int] | None = None  # what the body kept; None: no body HTML
    overrides: tuple[str, ...] = ()  # NAME=VALUE settings the verdict was given under
    page_type_why: str | None = None  # the core's reason for the page type, in words
    chosen_by: str | None = None  # the learned labeller's cut-offs, when it chose the text


def explain_page(
    body: str | bytes,
    url: str | None = None,
    *,
    source: str | None = None,
    encoding: str | None = None,
    reference_time: datetime | None = None,
    settings: CxSettings | None = None,
    overrides: tuple[str, ...] = (),
) -> Explanation:
    """Run the extraction on one page and keep what it saw (never raises on bad input).

    ``settings`` (the defaults if None) extract the page and give the verdict, as
    a crawl with them would; ``overrides`` says which were set, for the report.
    Every format is made, so the report can show the structure the body kept.
    """
    settings = settings or CxSettings()
    options = {**settings.extract_kwargs(encoding, reference_time), "formats": FORMATS}
    page = extract_page(body, url, **options)
    return explanation(page, source or url or "<page>", settings, overrides)


def explanation(
    page: Page,
    source: str,
    settings: CxSettings | None = None,
    overrides: tuple[str, ...] = (),
) -> Explanation:
    """The one adapter from the core's :class:`Page` to what the report draws."""
    settings = settings or CxSettings()
    options = page.options
    lines = page.lines
    article = page.article()
    values = {
        "title": article.title,
        "published": article.published_raw,
        "authors": ", ".join(article.authors) or None,
        "breadcrumbs": " › ".join(crumb.name for crumb in article.breadcrumbs) or None,
        "accessible_for_free": _FREE[article.accessible_for_free],
    }
    if page.evidence_of("posts") is not None:  # a live blog's entries (a thread's: none)
        values["posts"] = f"{len(article.posts)} entries"
    # The core gives every line a kind (extract/content/blocks.py): one per line, in order;
    # the renderer what each kept line became (a core without one: none).
    shapes: Mapping[int, str] = getattr(page, "shapes", None) or {}
    scores = page.line_scores or (None,) * len(lines)
    shown = tuple(
        ShownLine(
            line.text,
            line.length,
            line.link_length,
            line.tag,
            CORE_KINDS[kind],
            shapes.get(i),
            score,
        )
        for i, (line, kind, score) in enumerate(zip(lines, page.kinds, scores, strict=True))
    )
    learned = page.evidence.get("content")
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
        verdict=invalid_reason(article.to_dict(), *settings.rule()),
        structure=_structure(article),
        overrides=overrides,
        page_type_why=_why_typed(page),
        chosen_by=learned.raw if learned is not None else None,
    )


def _why_typed(page: Page) -> str | None:
    evidence = page.evidence.get("page_type")
    return evidence.raw if evidence is not None else None


# The body HTML's elements the report counts (its text is escaped: a "<" is a tag).
_COUNTED = re.compile(r"<(h[2-6]|li|table|tr|blockquote|pre|article)[\s>]")
_NAMES = {"li": "list item", "blockquote": "quote", "pre": "code block", "article": "post"}


def _structure(article: Article) -> dict[str, int] | None:
    """How many headings, list items, tables, rows... the body's HTML holds, and pictures."""
    if article.content_html is None:
        return None
    counts: dict[str, int] = {}
    for match in _COUNTED.finditer(article.content_html):
        tag = match.group(1)
        name = "heading" if tag[0] == "h" else _NAMES.get(tag, tag)
        counts[name] = counts.get(name, 0) + 1
    counts["image"] = len(article.images or ())
    return counts


def structure_summary(expl: Explanation) -> str:
    """``3 headings, 12 list items, 1 table of 5 rows, 2 images``: what the body kept."""
    counts = expl.structure
    if counts is None:
        return "not made (no body HTML)"
    parts = []
    for name in ("heading", "list item", "table", "quote", "code block", "image", "post"):
        n = counts.get(name, 0)
        if n:
            part = f"{n} {name}{'s' if n != 1 else ''}"
            if name == "table":
                rows = counts.get("tr", 0)
                part += f" of {rows} row{'s' if rows != 1 else ''}"
            parts.append(part)
    return ", ".join(parts) or "paragraphs only"


def verdict_summary(expl: Explanation) -> str:
    """What a crawl with the default settings does with the page, in words."""
    kind = expl.article.page_type or "not judged"
    if expl.article.article_probability is not None:
        kind += f" (article_probability {expl.article.article_probability:.2f})"
    under = ", ".join(expl.overrides) if expl.overrides else "default CX_* settings"
    if expl.verdict is None:
        return f"{kind}: kept ({under})"
    return f"{kind}: dropped as {expl.verdict} (cx/dropped/{expl.verdict}; {under})"


def text_size(expl: Explanation) -> str:
    """The main text's length as ``CX_MIN_CONTENT_LENGTH`` measures it, saying how."""
    n = content_length(expl.article.content)
    return f"{n:,} characters (as CX_MIN_CONTENT_LENGTH counts them: wide ones twice)"


def line_spans(regions: tuple[tuple[int, int], ...]) -> str:
    """The selected lines as sorted, merged 1-based ranges ("5, 7-18"): the core keeps
    its regions best first, and they may overlap (a headline line inside a run)."""
    merged: list[list[int]] = []
    for start, end in sorted(regions):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return ", ".join(f"{a + 1}" if b == a + 1 else f"{a + 1}-{b}" for a, b in merged)


_MISSING = {
    "title": "no headline in the page or its metadata",
    "published": "no date in the page, its metadata or its URL",
    "authors": "no byline near the headline and no author metadata",
    "breadcrumbs": "no BreadcrumbList and no breadcrumb navigation",
    "accessible_for_free": "the page does not say (no isAccessibleForFree)",
}
_FREE: dict[bool | None, str | None] = {True: "yes", False: "no (paywalled)", None: None}


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
    where = _metadata(evidence.source, field)
    if evidence.raw and evidence.raw != value and field != "published":
        where += f": “{evidence.raw}”"
    return FieldSource(field, value, where)


#: What a JSON-LD source without a key read for each field.
_JSONLD_KEYS = {"title": "headline", "authors": "author", "published": "datePublished"}


def _metadata(source: str, field: str) -> str:
    """A source as the core names it ("meta:og:title", "title_tag", "url"...), in words."""
    kind, _, name = source.partition(":")
    if kind == "meta":
        return f"<meta> {name}" if name else "author metadata (<meta name=author>, JSON-LD)"
    if kind == "jsonld":
        return f"JSON-LD {name or _JSONLD_KEYS.get(field, field)}"
    if kind == "htmldate":
        return "htmldate's reading of the page (no date found by scrapy-cx's own rules)"
    if kind == "itemprop":
        return f"microdata itemprop={name}"
    if kind == "time":
        return "<time datetime> (pubdate)" if name else "<time datetime> in the page"
    if kind == "title_tag":
        return "<title>"
    if kind == "url":
        return "the URL"
    return source or "the page's text (no single line holds it)"
