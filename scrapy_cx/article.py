"""The article record: what every extractor in scrapy-cx returns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

#: The optional outputs an extraction may be asked for, beside the text (always
#: made: the article rule, the fingerprint and deduplication read it):
#: ``html`` (``content_html``, each ``Post.html``), ``markdown``
#: (``content_markdown``) and ``images``.
FORMATS = ("html", "markdown", "images")
#: What a news crawler gets unless it says otherwise: the body as published (an
#: archive's record, and what a reader shows) and its pictures. Markdown, for
#: language-model and search pipelines, is one setting away.
DEFAULT_FORMATS = frozenset({"html", "images"})


def check_formats(formats: Iterable[str]) -> frozenset[str]:
    """``formats`` as a set, or ValueError naming the unknown ones and the known."""
    if isinstance(formats, str):
        formats = formats.replace(",", " ").split()
    chosen = frozenset(formats)
    unknown = sorted(chosen.difference(FORMATS))
    if unknown:
        raise ValueError(
            f"unknown format(s) {', '.join(map(repr, unknown))}: choose among {', '.join(FORMATS)}"
        )
    return chosen


@dataclass(frozen=True, slots=True)
class Post:
    """One post of a thread: who wrote it, when (ISO 8601), its text and, where
    ``html`` is among the formats asked for, its HTML (None otherwise)."""

    author: str | None = None
    published: str | None = None
    text: str = ""
    html: str | None = None


@dataclass(frozen=True, slots=True)
class Image:
    """One picture of the article's body: its absolute URL, its ``alt`` text and its
    caption (the ``figcaption``, or the caption line under it), each None if absent."""

    url: str
    alt: str | None = None
    caption: str | None = None


@dataclass(frozen=True, slots=True)
class Breadcrumb:
    """One step of the page's breadcrumb trail: its name and its absolute http(s)
    URL, None where the page links none (the last crumb, the page itself, usually)."""

    name: str
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Article:
    """One extracted news article.

    Immutable so a result attached to a response can be shared between the
    middleware, the spider and the pipeline without defensive copies.
    ``published`` is ISO 8601 (``2009-11-09`` or ``2009-11-09T13:57:00+08:00``);
    ``published_raw`` is the text it was read from, kept for auditing;
    ``modified`` is the last-modified date the page declares, never used as
    ``published``. ``content`` holds the main text, one paragraph per line;
    ``content_html`` the same text with its structure (headings, lists, tables,
    quotes, code, figures, links) as clean HTML, ``content_markdown`` as
    CommonMark with GFM tables, and ``images`` the body's pictures in order: each
    None unless asked for (``formats``, the ``CX_FORMATS`` setting).
    ``authors`` are people only; a news agency or the outlet a story was taken
    from (新华社, Reuters) is ``source``. ``image`` is the lead image's absolute
    URL and ``site_name`` the publication's name. ``page_type`` is
    what the extractor judged the page to be (``article``, ``thread``,
    ``listing``, ``other``); None on a record the extractor did not make.
    ``article_probability`` (0 to 1) is how sure the extractor is that the page
    is one article or one thread, not a listing or another kind of page:
    calibrated on the dev sets (of pages scored about 0.8, about 80% are one).
    ``article_links`` are a listing's teasers (absolute URLs on its site, in page
    order; empty on other pages) and ``next_page`` the page after this one (a
    pager's, a split article's), None if none: what a crawler goes on to.
    ``pages``: the URLs an article split over several pages was read from, in
    order (filled by the crawler that merged them; empty for one page).
    ``breadcrumbs``: the page's breadcrumb trail (JSON-LD or microdata
    ``BreadcrumbList``, or breadcrumb navigation), home first; empty if none.
    ``accessible_for_free``: what the page declares (schema.org
    ``isAccessibleForFree``, a paywalled ``hasPart``): False for a paywalled story,
    None where it says nothing. ``posts`` are a thread's posts, or a live blog's
    entries (``LiveBlogPosting.liveBlogUpdate``, or its timestamped entries), each
    with its ``published`` time where the page gives one.
    ``truncated``: the page was too big to read whole (more tags, attributes on
    one tag, lines or characters in one line than any real page has: the bounds
    in ``extract.parse.dom`` and ``extract.parse.lines``); the fields come from what was read.
    """

    url: str | None = None
    title: str | None = None
    published: str | None = None
    published_raw: str | None = None
    modified: str | None = None
    content: str = ""
    content_html: str | None = None
    content_markdown: str | None = None
    authors: tuple[str, ...] = field(default_factory=tuple)
    source: str | None = None
    keywords: tuple[str, ...] = field(default_factory=tuple)
    description: str | None = None
    image: str | None = None
    images: tuple[Image, ...] | None = None  # None: not asked for (formats)
    site_name: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    breadcrumbs: tuple[Breadcrumb, ...] = field(default_factory=tuple)  # home first
    accessible_for_free: bool | None = None  # None: the page does not say
    page_type: str | None = None  # article, thread, listing or other; None: not extracted
    article_probability: float | None = None  # in [0, 1]; None: not extracted
    related: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (title, URL)
    article_links: tuple[str, ...] = field(default_factory=tuple)  # a listing's teasers
    next_page: str | None = None  # the page after this one (a pager, a split article)
    pages: tuple[str, ...] = field(default_factory=tuple)  # a split article's pages, in order
    posts: tuple[Post, ...] = field(default_factory=tuple)  # a thread's posts, in page order
    fingerprint: str | None = None
    duplicate_of: str | None = None
    truncated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (tuples become lists), in field order.

        Built field by field rather than with ``dataclasses.asdict``, which deep-copies
        every value: the fields are immutable, and a crawl's process calls this once
        per page (filling the item), where ``asdict`` cost more than the rest of the
        plugin's per-page work together.
        """
        data = {name: getattr(self, name) for name in _ARTICLE_FIELDS}
        data["authors"] = list(self.authors)
        data["keywords"] = list(self.keywords)
        if self.images is not None:
            data["images"] = [
                {name: getattr(image, name) for name in _IMAGE_FIELDS} for image in self.images
            ]
        data["article_links"] = list(self.article_links)
        data["pages"] = list(self.pages)
        data["related"] = [{"title": title, "url": url} for title, url in self.related]
        data["breadcrumbs"] = [{"name": c.name, "url": c.url} for c in self.breadcrumbs]
        data["posts"] = [
            {name: getattr(post, name) for name in _POST_FIELDS} for post in self.posts
        ]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Article:
        """The article :meth:`to_dict` made ``data`` of (a JSON line read back, too):
        lists become tuples again, ``images``, ``breadcrumbs`` and ``posts`` their records,
        ``related`` its (title, URL) pairs; keys that are not fields are ignored. Strings are
        shared, not copied: the crawl's process rebuilds each article so from the
        worker's fields, which its item takes as they are."""
        values = {name: data[name] for name in _ARTICLE_FIELDS if name in data}
        for name in _TUPLE_FIELDS:
            if name in values:
                values[name] = tuple(values[name])
        images = values.get("images")
        if images is not None:
            values["images"] = tuple(Image(**image) for image in images)
        if "related" in values:
            values["related"] = tuple((pair["title"], pair["url"]) for pair in values["related"])
        if "breadcrumbs" in values:
            values["breadcrumbs"] = tuple(Breadcrumb(**c) for c in values["breadcrumbs"])
        if "posts" in values:
            values["posts"] = tuple(Post(**post) for post in values["posts"])
        return cls(**values)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Field names in export order."""
        return tuple(f.name for f in fields(cls))


_ARTICLE_FIELDS = Article.field_names()
_TUPLE_FIELDS = ("authors", "keywords", "article_links", "pages")
_POST_FIELDS = tuple(f.name for f in fields(Post))
_IMAGE_FIELDS = tuple(f.name for f in fields(Image))


def as_fields(result: Any) -> Any:
    """An :class:`Article` as its fields (:meth:`Article.to_dict`), anything else as it is:
    what a worker sends back, so the crawl's process fills items from the fields as they
    come and rebuilds the article with :meth:`Article.from_dict` (an article of a subclass
    keeps its class: it crosses whole)."""
    return result.to_dict() if type(result) is Article else result
