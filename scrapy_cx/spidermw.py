"""Spider middleware: complete the items a callback yields from its response's article.

The article travels on the response (``meta["cx_article"]``) and is copied
into items as they leave the callback, so nothing is cached per URL in the
process: memory stays flat on long crawls, and it works unchanged when
requests come from a shared queue (scrapy-redis) on many machines.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from itemadapter import ItemAdapter
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.http import Response

from .article import Article
from .items import ArticleItem, fill_item
from .middleware import META_ARTICLE, META_FIELDS, META_SKIPPED, META_VERDICT
from .settings import CxSettings
from .verdict import SkipNotes
from .zyte import is_zyte_item

__all__ = ["ArticleSpiderMiddleware"]

#: ``request.meta`` key: True/False fills items of this response or not, whatever
#: ``CX_FILL_ITEMS`` says (a listing page's callback can opt out).
META_FILL = "cx_fill"
#: Scrapy's own priority for this middleware (the add-on uses it): close to the
#: spider, so project spider middlewares already see complete items.
ORDER = 950


def _response_article(response: Response | None, fill: bool) -> Article | str | None:
    """The article to fill items with, or why the page has none (its ``cx_skipped``
    reason), or None (nothing attached, or filling is off)."""
    if response is None:
        return None
    try:
        meta = response.meta
    except AttributeError:  # a response built without a request has no meta
        return None
    if not meta.get(META_FILL, fill):
        return None
    article = meta.get(META_ARTICLE)
    if isinstance(article, Article):
        return article
    skipped = meta.get(META_SKIPPED)
    return skipped if isinstance(skipped, str) else None


def _urls(response: Response, article: Article | None) -> set[str]:
    """Addresses an item may give for this page: final, canonical, before redirects."""
    urls = {response.url}
    if article is not None:
        urls.update((article.url or "", article.canonical_url or ""))
    if response.request is not None:
        urls.add(response.request.url)
        urls.update(response.request.meta.get("redirect_urls") or ())
    urls.discard("")
    return urls


class ArticleSpiderMiddleware:
    """Turn ``{"url": response.url}`` (or a yielded Article) into a full article item.

    Only empty fields the item can hold are filled, and only for items about
    this page: an item whose ``url`` is set to another address (a listing
    page yielding one item per link) is left alone. Requests pass through.
    """

    def __init__(self, settings: CxSettings, notes: SkipNotes | None = None) -> None:
        self.settings = settings
        # Items about skipped pages get the skip reason noted for the pipeline.
        self.notes = notes

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArticleSpiderMiddleware:
        return cls(CxSettings.for_crawler(crawler), SkipNotes.of(crawler))

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        article = _response_article(response, self.settings.fill_items)
        for obj in result:
            yield self.complete(response, article, obj)

    async def process_spider_output_async(
        self,
        response: Response | None,
        result: AsyncIterator[Any],
        spider: Spider | None = None,
    ) -> AsyncIterator[Any]:
        article = _response_article(response, self.settings.fill_items)
        async for obj in result:
            yield self.complete(response, article, obj)

    def complete(
        self, response: Response | None, article: Article | str | None, obj: Any
    ) -> Any:
        """``obj`` with the response's article filled in, where it belongs.

        ``article`` may be the reason the page has none: an item about the page
        then gets that reason noted, so the pipeline drops it for what it is
        (``too_large``, ``not_html``...), not for an empty ``content``.
        """
        if isinstance(obj, Request):
            return obj
        if isinstance(obj, Article):
            return ArticleItem.from_article(obj)
        if article is None or response is None or not ItemAdapter.is_item(obj):
            return obj
        if is_zyte_item(obj):  # Zyte's schema, whole (a page object's): no field of ours
            return obj
        page = article if isinstance(article, Article) else None
        url = ItemAdapter(obj).get("url")
        if url and url not in _urls(response, page):
            return obj
        if page is None:
            if self.notes is not None:
                self.notes.note(obj, str(article))
        else:
            meta = response.meta
            sent = meta.get(META_FIELDS)
            # The worker's fields of this very article (a spider may have put another in
            # meta since): the item takes them, no second to_dict of it.
            fill_item(obj, page, sent[1] if sent is not None and sent[0] is page else None)
            if self.notes is not None and META_VERDICT in meta:  # judged in the worker
                self.notes.judged(obj, page, meta[META_VERDICT])
        return obj
