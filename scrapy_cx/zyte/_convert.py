"""scrapy-cx's :class:`~scrapy_cx.Article` in Zyte's schema (zyte-common-items).

Every field we have goes where Zyte's schema has room for it, and nothing is
made up: no ``nameRaw`` (we keep no byline as written), no ``dateModifiedRaw``,
no per-link probability, no ``videos`` or ``audios``. What Zyte's ``Article``
has no field for goes on :class:`~scrapy_cx.zyte.CxArticle`.
"""

from __future__ import annotations

from collections import deque
from datetime import datetime, timezone
from typing import Any, TypeVar

from itemadapter import ItemAdapter
from zyte_common_items import (
    Article,
    ArticleFromList,
    ArticleList,
    ArticleListMetadata,
    ArticleMetadata,
    ArticleNavigation,
    ArticleNavigationMetadata,
    Author,
    Breadcrumb,
    Image,
    ProbabilityRequest,
    Request,
    ZyteItemAdapter,
)

from .. import article as cx
from ._items import CxArticle, CxImage, CxLink, CxPost

__all__ = [
    "FIELD_MAP",
    "downloaded_at",
    "zyte_article",
    "zyte_article_list",
    "zyte_item",
    "zyte_navigation",
    "zyte_record",
]

ArticleT = TypeVar("ArticleT", bound=Article)

#: Where each field of :class:`scrapy_cx.Article` goes in :class:`CxArticle` (Zyte's
#: ``Article`` and ours): ``tests/zyte/test_convert.py`` fails when a field of ours has
#: no place here, or is not carried over.
FIELD_MAP = {
    "url": "url",
    "title": "headline",
    "published": "datePublished",
    "published_raw": "datePublishedRaw",
    "modified": "dateModified",
    "content": "articleBody",
    "content_html": "articleBodyHtml",
    "content_markdown": "articleBodyMarkdown",
    "authors": "authors",
    "source": "source",
    "keywords": "keywords",
    "description": "description",
    "image": "mainImage",
    "images": "imageDetails",  # and their URLs in images, after mainImage's
    "site_name": "siteName",
    "language": "inLanguage",
    "canonical_url": "canonicalUrl",
    "breadcrumbs": "breadcrumbs",
    "accessible_for_free": "isAccessibleForFree",
    "page_type": "pageType",
    "article_probability": "metadata.probability",
    "related": "related",
    "article_links": "articleLinks",
    "next_page": "nextPageUrl",
    "pages": "pages",
    "posts": "posts",
    "fingerprint": "fingerprint",
    "duplicate_of": "duplicateOf",
    "truncated": "truncated",
}


def downloaded_at(moment: datetime | None = None) -> str:
    """``metadata.dateDownloaded``: ``moment`` (now if None) in UTC, as Zyte writes it."""
    moment = moment or datetime.now(timezone.utc)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def body_html(content_html: str | None) -> str | None:
    """``articleBodyHtml``: our body HTML in one ``<article>``, as Zyte's normaliser
    (clear-html) wraps it; the tags inside are ours (README: where the two differ)."""
    return f"<article>{content_html}</article>" if content_html else None


def _images(article: cx.Article) -> list[Image] | None:
    """The lead image, then the body's pictures, each URL once ("all images")."""
    lead = [article.image] if article.image else []
    urls = dict.fromkeys(lead + [image.url for image in article.images or ()])
    return [Image(url=url) for url in urls] or None


def zyte_article(
    article: cx.Article,
    downloaded: str | None = None,
    cls: type[ArticleT] = Article,  # type: ignore[assignment]
) -> ArticleT:
    """``article`` as ``cls`` (Zyte's ``Article``, or :class:`CxArticle` for all of
    ours); ``downloaded``: when the page was fetched (:func:`downloaded_at`)."""
    values: dict[str, Any] = {
        "url": article.url or article.canonical_url or "",
        "headline": article.title,
        "datePublished": article.published,
        "datePublishedRaw": article.published_raw,
        "dateModified": article.modified,
        "authors": [Author(name=name) for name in article.authors] or None,
        "inLanguage": article.language,
        "mainImage": Image(url=article.image) if article.image else None,
        "images": _images(article),
        "description": article.description,
        "articleBody": article.content or None,
        "articleBodyHtml": body_html(article.content_html),
        "canonicalUrl": article.canonical_url,
        "breadcrumbs": [Breadcrumb(name=c.name, url=c.url) for c in article.breadcrumbs] or None,
        "metadata": ArticleMetadata(
            probability=article.article_probability, dateDownloaded=downloaded
        ),
    }
    if issubclass(cls, CxArticle):
        values.update(_ours(article))
    return cls(**values)


def _ours(article: cx.Article) -> dict[str, Any]:
    """The fields of :class:`CxArticle` that Zyte's ``Article`` lacks."""
    return {
        "articleBodyMarkdown": article.content_markdown,
        "source": article.source,
        "keywords": list(article.keywords) or None,
        "siteName": article.site_name,
        "pageType": article.page_type,
        "isAccessibleForFree": article.accessible_for_free,
        "imageDetails": [
            CxImage(url=image.url, alt=image.alt, caption=image.caption)
            for image in article.images or ()
        ]
        or None,
        "related": [CxLink(name=title, url=url) for title, url in article.related] or None,
        "articleLinks": list(article.article_links) or None,
        "nextPageUrl": article.next_page,
        "pages": list(article.pages) or None,
        "posts": [
            CxPost(author=p.author, datePublished=p.published, text=p.text or None, html=p.html)
            for p in article.posts
        ]
        or None,
        "fingerprint": article.fingerprint,
        "duplicateOf": article.duplicate_of,
        "truncated": article.truncated or None,
    }


def zyte_article_list(
    article: cx.Article, downloaded: str | None = None, headlines: dict[str, str] | None = None
) -> ArticleList:
    """A listing's teasers as ``ArticleList``: each ``ArticleFromList`` has its URL and,
    where ``headlines`` has it (:class:`~scrapy_cx.zyte.Teasers`), the teaser's headline
    (no card's date or picture: the extraction does not read them)."""
    headlines = headlines or {}
    return ArticleList(
        url=article.url or article.canonical_url or "",
        canonicalUrl=article.canonical_url,
        articles=[
            ArticleFromList(url=url, headline=headlines.get(url)) for url in article.article_links
        ]
        or None,
        metadata=ArticleListMetadata(dateDownloaded=downloaded),
    )


def zyte_navigation(article: cx.Article, downloaded: str | None = None) -> ArticleNavigation:
    """What a crawler goes on to: ``items`` the teasers, ``nextPage`` the page after
    this one, ``categoryName`` a listing's headline. No ``subCategories`` (the
    extraction does not tell section links from others) and no probability per link."""
    return ArticleNavigation(
        url=article.url or article.canonical_url or "",
        categoryName=article.title if article.page_type == "listing" else None,
        items=[ProbabilityRequest(url=url) for url in article.article_links] or None,
        nextPage=Request(url=article.next_page) if article.next_page else None,
        metadata=ArticleNavigationMetadata(dateDownloaded=downloaded),
    )


class _ZyteAdapter(ItemAdapter):
    """Zyte's own adapter alone: its items as Zyte exports them, empty fields left out."""

    ADAPTER_CLASSES = deque([ZyteItemAdapter])


def zyte_record(article: cx.Article, downloaded: str | None = None) -> dict[str, Any]:
    """``article`` as a :class:`CxArticle`'s JSON-ready dict (``scrapy-cx extract``'s line
    with ``--schema zyte``)."""
    return _ZyteAdapter(zyte_article(article, downloaded, CxArticle)).asdict()


def zyte_item(fields: dict[str, Any], downloaded: str | None = None) -> CxArticle:
    """An item's fields (``Article.to_dict``'s, and any of the spider's own) as a
    :class:`CxArticle`: the spider's keys stay, as Zyte's items keep fields they do not
    declare; ``downloaded`` is now unless given."""
    article = cx.Article.from_dict(fields)
    known = set(cx.Article.field_names())
    extra = {name: value for name, value in fields.items() if name not in known}
    record = zyte_record(article, downloaded or downloaded_at())
    return CxArticle.from_dict({**extra, **record})
