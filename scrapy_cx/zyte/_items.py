"""Our fields that Zyte's ``Article`` lacks, on a subclass of it.

zyte-common-items is extended by subclassing an item with ``attrs.define`` and
adding fields (its documented way): :class:`CxArticle` is a
``zyte_common_items.Article`` (``isinstance`` holds, ``DropLowProbabilityItemPipeline``
reads its ``metadata.probability``), with every other field of
:class:`scrapy_cx.Article` in Zyte's camelCase. Exports leave empty fields out, as
Zyte's own do (its ``ZyteItemAdapter``).
"""

from __future__ import annotations

import attrs
from zyte_common_items import Article, Item

__all__ = ["CxArticle", "CxImage", "CxLink", "CxPost"]


@attrs.define(kw_only=True)
class CxPost(Item):
    """One post of a thread (:class:`scrapy_cx.Post`)."""

    author: str | None = None
    datePublished: str | None = None
    text: str | None = None
    html: str | None = None


@attrs.define(kw_only=True)
class CxLink(Item):
    """A related link (``Article.related``): its title and URL."""

    name: str | None = None
    url: str | None = None


@attrs.define(kw_only=True)
class CxImage(Item):
    """A picture of the body with what Zyte's ``Image`` (a URL alone) has no room for."""

    url: str
    alt: str | None = None
    caption: str | None = None


@attrs.define(kw_only=True)
class CxArticle(Article):
    """Zyte's ``Article`` and the rest of scrapy-cx's: what ``CX_ITEM_SCHEMA = "zyte"``
    makes and what a callback asking for ``CxArticle`` gets."""

    articleBodyMarkdown: str | None = None
    """``content_markdown``: the body as CommonMark with GFM tables."""
    source: str | None = None
    """The news agency or outlet the story was taken from (not an author)."""
    keywords: list[str] | None = None
    siteName: str | None = None
    pageType: str | None = None
    """article, thread, listing or other."""
    isAccessibleForFree: bool | None = None
    """``accessible_for_free``: False for a paywalled story; None where the page says
    nothing."""
    imageDetails: list[CxImage] | None = None
    """The body's pictures with their ``alt`` text and caption (``images`` has URLs)."""
    related: list[CxLink] | None = None
    articleLinks: list[str] | None = None
    """A listing's teaser links (also ``ArticleNavigation.items``)."""
    nextPageUrl: str | None = None
    """The page after this one: a pager's, a split article's."""
    pages: list[str] | None = None
    """The pages a split article was read from, in order."""
    posts: list[CxPost] | None = None
    fingerprint: str | None = None
    duplicateOf: str | None = None
    truncated: bool | None = None
