"""scrapy-poet's way to our extraction: the :class:`Extraction` a page object asks for.

The article is made by the crawl's :class:`~scrapy_cx.ArticleMiddleware`, in its worker
processes and within its deadline, never in the reactor thread: scrapy-poet builds a
callback's page objects in its own downloader middleware (543), above ours (540), so
the provider asks ours to extract the response now (``extract_now``), and ours then
lets the response pass without a second extraction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Set
from dataclasses import dataclass
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy_poet import PageObjectInputProvider

from ..article import Article
from ..middleware import (
    META_ARTICLE,
    META_SKIPPED,
    ArticleMiddleware,
    crawl_pool,
    declared_encoding,
    skip_reason,
)
from ..pool import PoolError
from ..settings import CxSettings
from ._convert import downloaded_at
from ._teasers import Teasers, teaser_headlines

__all__ = ["Extraction", "ExtractionProvider", "TeasersProvider"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Extraction:
    """What scrapy-cx made of one response: a page object's input.

    ``article`` is None when the page was not extracted, and ``skipped`` then says why
    (``not_html``, ``status``, ``timeout``..., ``disabled`` with ``CX_ENABLED`` False);
    ``downloaded`` is when the response came (``metadata.dateDownloaded``).
    """

    url: str
    article: Article | None
    skipped: str | None
    downloaded: str


class ExtractionProvider(PageObjectInputProvider):
    """Provides :class:`Extraction` (``SCRAPY_POET_PROVIDERS``; the add-on lists it)."""

    provided_classes = {Extraction}

    async def __call__(
        self,
        to_provide: Set[Callable[..., Any]],
        request: Request,
        response: Response,
        crawler: Crawler,
    ) -> list[Extraction]:
        downloaded = downloaded_at()
        try:
            middleware = ArticleMiddleware.of(crawler)
        except NotConfigured:
            return [Extraction(response.url, None, "disabled", downloaded)]
        await middleware.extract_now(request, response)
        # The request's meta: a response reaches its request only past the downloader.
        article = request.meta.get(META_ARTICLE)
        if not isinstance(article, Article):
            skipped = request.meta.get(META_SKIPPED)
            return [Extraction(response.url, None, str(skipped or "error"), downloaded)]
        return [Extraction(response.url, article, None, downloaded)]


class TeasersProvider(PageObjectInputProvider):
    """Provides :class:`Teasers` (``SCRAPY_POET_PROVIDERS``; the add-on lists it): only
    for a callback asking for ``ArticleList``, in the crawl's workers and deadline."""

    provided_classes = {Teasers}

    async def __call__(
        self, to_provide: Set[Callable[..., Any]], response: Response, crawler: Crawler
    ) -> list[Teasers]:
        try:
            settings = CxSettings.for_crawler(crawler)
        except NotConfigured:
            return [Teasers()]
        if skip_reason(response, settings.max_body_size) is not None:
            return [Teasers()]  # no article either: the list is empty
        kwargs = settings.extract_kwargs(declared_encoding(response))
        del kwargs["formats"], kwargs["reference_time"]  # no text is made, no date read
        if not settings.worker_count:
            return [Teasers(teaser_headlines(response.body, response.url, **kwargs))]
        pool = crawl_pool(crawler, settings)
        task = pool.submit(teaser_headlines, response.body, response.url, **kwargs)
        try:
            headlines = await maybe_deferred_to_future(task)
        except PoolError as error:  # the listing keeps its URLs, without headlines
            logger.warning("scrapy-cx: no teaser headlines for %s: %s", response.url, error)
            return [Teasers()]
        return [Teasers(headlines)]
