"""One page as the extraction stages see it: what each stage read and what it found.

The stages (metadata, line walk, selection and headline, language, date,
authors) used to hand each other long positional argument lists; now each reads
the fields earlier stages filled and fills its own, so a new stage or a report
(``explain``) sees everything in one place. Nothing here imports Scrapy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import datetime
from typing import Any, Literal, TypeVar

from lxml import etree

from ..article import DEFAULT_FORMATS, Article, Breadcrumb, Image, Post
from ._urls import http_url
from .content.text import joined
from .parse.lines import Line, LineOptions, PageLines
from .parse.lines import without_controls as text_without_controls
from .parse.meta import PageMeta

__all__ = ["Evidence", "Page", "Region", "Selection", "SelectionKind"]

Region = tuple[int, int]  # a slice of Page.lines: (start, end)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a field's value was read, kept for audits and the explain report.

    ``source`` is ``line`` (a line of the page, ``line`` is its index),
    ``byline`` (names in a line near the headline), ``title_tag``, ``url``, or
    a metadata source as :class:`PageMeta` names it (``meta:og:title``,
    ``jsonld``, ``itemprop:headline``...); ``raw`` is the text it was read from.
    """

    source: str
    line: int | None
    raw: str


# What the selected text is: one text; a list of teaser cards (a section front, a
# product grid: choose.py found no text but the cards'); the page's run of linked
# headlines, in place of a stray blurb (choose.select_headline_list).
SelectionKind = Literal["text", "cards", "headlines"]


@dataclass(frozen=True, slots=True)
class Selection:
    """The main text as chosen, and the reading of the page it was chosen on.

    ``lines`` (the walk's, or a thread's reading of them: lines.thread_lines),
    ``regions`` (slices of ``lines`` holding the text, best first), ``body`` (the
    lines of the text) and ``content`` (their text),
    the ``headline``'s line (None when the page does not show it), the ``title``
    and where it was read. The stages choosing the text (choose.py, thread.py,
    sections.py) replace it as a whole, so one that tries another reading keeps
    it or drops it in one assignment. Only the lines' boilerplate marks change
    in place (choose.select_lead, the fallback, sections.join_sections).
    """

    lines: PageLines = field(default_factory=PageLines)
    regions: tuple[Region, ...] = ()
    # The lines of the main text, in page order (text.main_lines): ``content`` is
    # their text, one paragraph per line, and the structured body is rebuilt from
    # them (structure.py), so the two always hold the same text.
    body: tuple[Line, ...] = ()
    content: str = field(init=False, default="")
    headline: int | None = None
    title: str | None = None
    title_evidence: Evidence | None = None
    kind: SelectionKind = "text"

    def __post_init__(self) -> None:
        # content is made from body, never set apart from it (frozen: set once here).
        object.__setattr__(self, "content", joined(self.body))


@dataclass(slots=True)
class Page:
    """Everything known about one page, filled stage by stage.

    Inputs first (the parsed tree, the URL, the caller's options), then what
    the stages add in order: ``meta``, the ``selection`` (the lines, the main
    text's regions, ``content``, ``headline`` and ``title``: read through the
    properties of the same names), ``page_type``, ``language``, ``published``,
    ``modified``, ``site_name``, ``authors`` and ``source``, ``image``,
    ``breadcrumbs``, ``accessible_for_free``, and the ``evidence`` of where each was
    read (:meth:`evidence_of`).
    """

    root: etree._Element
    url: str | None = None
    options: LineOptions = field(default_factory=LineOptions)
    encoding: str | None = None  # the charset the page was decoded with
    reference_time: datetime | None = None
    date_languages: list[str] | None = None
    # The parse's index (dom.parse_document): the tree's dom.INDEXED_TAGS elements in
    # document order, so the stages need not walk the tree for them; None: not known.
    elements: list[etree._Element] | None = None
    # What ``root`` was parsed from (dom.Parsed.markup), if known: a scan of it tells
    # whether an XPath pass over every attribute can find anything.
    markup: str | bytes | None = None
    meta: PageMeta = field(default_factory=PageMeta)
    selection: Selection = field(default_factory=Selection)
    # A page of linked headlines (pagetype.headline_page, decided once before the
    # selection may give way to them): settle_page_type reads it too.
    headline_page: bool = False
    formats: frozenset[str] = DEFAULT_FORMATS  # article.FORMATS asked for
    page_type: str = "article"  # article, thread, listing or other (pagetype.py)
    declared: frozenset[str] = frozenset()  # schema.org / og: types the page declares
    kinds: list[str] = field(default_factory=list)  # per line: blocks.BLOCK_KINDS
    related: list[tuple[str, str]] = field(default_factory=list)  # (title, URL)
    # What a crawler goes on to (navigation.py): a listing's teasers, the next page.
    article_links: list[str] = field(default_factory=list)
    next_page: str | None = None
    posts: list[Post] = field(default_factory=list)  # a thread's posts, in page order
    # The lines of each post's text (posts.py), and each post's HTML (structure.py).
    post_bodies: list[tuple[Line, ...]] = field(default_factory=list)
    post_html: list[str] = field(default_factory=list)
    # A discussion's replies (pagetype): line ranges of its reply units, in page order.
    replies: list[Region] = field(default_factory=list)
    # Its repeated post-named elements, read once (posts.PostUnits) for page typing,
    # the thread stage and the posts: their groups of block ids (None: not read yet)
    # and, per block read, whether it shows a date at its edges. Plain data, so this
    # module needs nothing of posts.py (which needs a Page).
    unit_groups: list[list[int]] | None = None
    unit_dated: dict[int, bool] = field(default_factory=dict)
    language: str | None = None
    published: str | None = None
    published_raw: str | None = None
    modified: str | None = None
    site_name: str | None = None
    authors: tuple[str, ...] = ()
    source: str | None = None
    image: str | None = None
    breadcrumbs: list[Breadcrumb] = field(default_factory=list)  # breadcrumbs.py
    accessible_for_free: bool | None = None  # access.py; None: the page does not say
    fingerprint: str | None = None
    # How sure the extractor is that the page is one article or thread (probability.py).
    article_probability: float | None = None
    # The structured body (body.py), each None unless its format was asked for.
    content_html: str | None = None
    content_markdown: str | None = None
    images: tuple[Image, ...] | None = None
    # Line index -> what the line became in the body's structure ("h2", "p", "li",
    # "quote", "code", "row", "cell", "caption", "dt", "dd"): for explain.
    shapes: dict[int, str] = field(default_factory=dict)
    # Read only in part (Article.truncated): the parse's bounds (dom.MAX_TAGS tags,
    # dom.MAX_ATTRIBUTES on one tag) or the walk's (lines.MAX_LINES, MAX_LINE_CHARS).
    truncated: bool = False
    # Where each field after the selection was read (the title's is the selection's).
    evidence: dict[str, Evidence] = field(default_factory=dict)
    # P(main) of each of the selection's lines when the learned labeller chose the
    # text (content/learned.py), else empty: for explain.
    line_scores: tuple[float, ...] = ()

    @property
    def lines(self) -> PageLines:
        """The lines the text was selected on."""
        return self.selection.lines

    @property
    def regions(self) -> tuple[Region, ...]:
        """Slices of :attr:`lines` holding the main text, best first."""
        return self.selection.regions

    @property
    def content(self) -> str:
        return self.selection.content

    @property
    def headline(self) -> int | None:
        """The headline's line, None when the page does not show it (the selection
        leaves it out; the date and byline searches start under it)."""
        return self.selection.headline

    @property
    def title(self) -> str | None:
        return self.selection.title

    @property
    def start(self) -> int:
        """First line of the main region (0 when nothing was selected)."""
        return self.regions[0][0] if self.regions else 0

    @property
    def end(self) -> int:
        """End (exclusive) of the main region."""
        return self.regions[0][1] if self.regions else 0

    @property
    def base_url(self) -> str | None:
        """What the page's relative addresses are read against (a ``<base href>`` aside):
        its own http(s) address; a page without one (a saved file's ``file:`` address,
        or none) is read against the address it declares (``<link rel=canonical>``, else
        ``og:url``: ``meta.canonical_url``), so a saved copy resolves its pictures and
        links as the page did where it was published, and as a crawl of it does."""
        url = self.url
        if url is not None and url[:8].lower().startswith(("http://", "https://")):
            return url
        return self.meta.canonical_url or url

    def link_base(self) -> str | None:
        """What the markup's relative links are read against, as a browser reads them:
        the head's ``<base href>`` (itself read against :attr:`base_url`), else
        :attr:`base_url` (the body's rendering and the breadcrumbs read it alike)."""
        base = self.root.find("head/base[@href]") if isinstance(self.root.tag, str) else None
        if base is not None:
            joined = http_url(self.base_url, base.get("href") or "")
            if joined is not None:
                return joined
        return self.base_url

    def evidence_of(self, name: str) -> Evidence | None:
        """Where field ``name`` (``title``, ``published``...) was read, if known."""
        if name == "title":
            return self.selection.title_evidence
        return self.evidence.get(name)

    def line_with(self, raw: str, first: int = 0) -> int | None:
        """Index of the first line from ``first`` on whose text holds ``raw``, or None."""
        lines = self.lines
        for i in range(max(0, first), len(lines)):
            if raw in lines[i].text:
                return i
        return None

    def _posts(self) -> list[Post]:
        """The posts, with their HTML where it was made."""
        if not self.post_html:
            return self.posts
        pairs = zip(self.posts, self.post_html, strict=True)
        return [replace(post, html=html) for post, html in pairs]

    def article(self) -> Article:
        """The public record of what the stages found, without control characters."""
        meta = self.meta
        article = Article(
            url=self.url,
            title=self.title,
            published=self.published,
            published_raw=self.published_raw,
            modified=self.modified,
            content=self.content,
            content_html=self.content_html,
            content_markdown=self.content_markdown,
            authors=self.authors,
            source=self.source,
            keywords=tuple(meta.keywords),
            description=meta.description,
            image=self.image,
            images=self.images,
            site_name=self.site_name,
            language=self.language,
            canonical_url=meta.canonical_url,
            breadcrumbs=tuple(self.breadcrumbs),
            accessible_for_free=self.accessible_for_free,
            page_type=self.page_type,
            article_probability=self.article_probability,
            related=tuple(self.related),
            article_links=tuple(self.article_links),
            next_page=self.next_page,
            posts=tuple(self._posts()),
            fingerprint=self.fingerprint,
            truncated=self.truncated,
        )
        clean = without_controls(article)
        return clean if clean is article else _tidied(clean)


_T = TypeVar("_T")


def _tidied(article: Article) -> Article:
    """An article whose control characters were taken out, its texts put back in their
    shape: a line of the text that held only controls is no line, spaces left beside
    them are squeezed, a title or name left blank is none."""

    def text(value: str) -> str:
        return "\n".join(" ".join(line.split()) for line in value.split("\n") if line.strip())

    posts = tuple(replace(post, text=text(post.text)) for post in article.posts)
    return replace(
        article,
        title=(" ".join(article.title.split()) or None) if article.title is not None else None,
        content=text(article.content),
        authors=tuple(name for name in (" ".join(a.split()) for a in article.authors) if name),
        posts=posts,
    )


def without_controls(value: _T) -> _T:
    """``value`` with control characters out of every string in it: a string, a tuple,
    a dataclass (Article, its Posts and Images) field by field. One place for every text
    field of the article; what holds none is returned as it is."""
    if isinstance(value, str):
        return text_without_controls(value)  # type: ignore[return-value]
    if isinstance(value, tuple):
        items = tuple(without_controls(item) for item in value)
        same = all(a is b for a, b in zip(items, value, strict=True))
        return value if same else items  # type: ignore[return-value]
    if is_dataclass(value) and not isinstance(value, type):
        changed: dict[str, Any] = {}
        for f in fields(value):
            old = getattr(value, f.name)
            new = without_controls(old)
            if new is not old:
                changed[f.name] = new
        return replace(value, **changed) if changed else value
    return value
