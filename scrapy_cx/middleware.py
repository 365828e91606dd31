"""Downloader middleware: one extraction per HTML response, attached to its meta.

It sits below HttpCompressionMiddleware (590), MetaRefreshMiddleware (580) and
RetryMiddleware (550) in ``DOWNLOADER_MIDDLEWARES``, so ``process_response``
sees decompressed bodies of final pages only: a redirect, a meta refresh or a
retried error never costs an extraction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Response
from scrapy.http.request import NO_CALLBACK
from w3lib.encoding import http_content_type_encoding

from ._sniff import looks_binary
from .article import Article
from .extract import extract_article
from .settings import CxSettings
from .stats import CxStats

__all__ = [
    "ArticleMiddleware",
    "META_ARTICLE",
    "META_SKIPPED",
    "looks_binary",
    "response_date",
    "skip_reason",
]

logger = logging.getLogger(__name__)

#: ``request.meta`` / ``response.meta`` key holding the extracted Article.
META_ARTICLE = "cx_article"
#: ``response.meta`` key holding why a response was not extracted.
META_SKIPPED = "cx_skipped"
#: Scrapy's own priority for this middleware (the add-on uses it).
ORDER = 540

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def _content_type(response: Response) -> str:
    raw = response.headers.get(b"Content-Type") or b""
    return raw.split(b";", 1)[0].strip().lower().decode("latin-1")


def skip_reason(response: Response, max_body_size: int) -> str | None:
    """Why ``response`` is not extracted, or None if it is an HTML page to extract."""
    if response.status != 200:
        return "status"
    content_type = _content_type(response)
    if content_type:
        if content_type not in HTML_TYPES:
            return "not_html"
    elif not isinstance(response, HtmlResponse):
        return "not_html"
    body = response.body
    if max_body_size and len(body) > max_body_size:
        return "too_large"
    if not body.strip():
        return "empty"
    if looks_binary(body):
        return "binary"
    return None


def response_date(response: Response) -> datetime | None:
    """The server's ``Date`` header: the moment "3 hours ago" on the page counts from.

    Saved pages (``file://``) have none, so their relative dates stay unread
    rather than being counted from today.
    """
    raw = response.headers.get(b"Date")
    if not raw:
        return None
    try:
        moment = parsedate_to_datetime(raw.decode("latin-1"))
    except (TypeError, ValueError, IndexError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def declared_encoding(response: Response) -> str | None:
    """The charset of the Content-Type header, if any.

    Only the server's declaration is passed on: with none, the core reads
    ``<meta charset>`` and detects legacy CJK encodings itself, which Scrapy's
    own fallback (UTF-8, then cp1252) would get wrong.
    """
    raw = response.headers.get(b"Content-Type")
    if not raw:
        return None
    return http_content_type_encoding(raw.decode("latin-1"))


class ArticleMiddleware:
    """Attach ``extract_article(body, url)`` to every HTML response's meta.

    Skipped responses get ``meta["cx_skipped"] = reason`` instead (``status``,
    ``not_html``, ``empty``, ``too_large``, ``binary``, ``error``). The
    response itself is returned unchanged, whatever happens.
    """

    #: The extractor, ``extract_article``'s signature; a subclass may plug in another.
    extract: Callable[..., Article] = staticmethod(extract_article)

    def __init__(self, crawler: Crawler, settings: CxSettings) -> None:
        self.crawler = crawler
        self.settings = settings
        self.stats = CxStats(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArticleMiddleware:
        return cls(crawler, CxSettings.for_crawler(crawler))

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        if request.callback is NO_CALLBACK:
            # Not the spider's request (robots.txt, a media pipeline's download): its
            # response never reaches a callback, so it is neither extracted nor counted.
            return response
        meta = request.meta
        # A spider that copies meta into a follow-up request must not carry the
        # previous page's article over to this one.
        meta.pop(META_ARTICLE, None)
        meta.pop(META_SKIPPED, None)
        reason = skip_reason(response, self.settings.max_body_size)
        if reason is None:
            reason = self._extract(response, meta)
        if reason is not None:
            meta[META_SKIPPED] = reason
            if reason != "error":
                self.stats.skipped(reason)
                logger.debug("scrapy-cx: not extracted (%s): %s", reason, response.url)
        return response

    def _extract(self, response: Response, meta: dict[str, Any]) -> str | None:
        try:
            article = self.extract(
                response.body,
                response.url,
                encoding=declared_encoding(response),
                reference_time=response_date(response),
                date_languages=self.settings.date_languages,
                **self.settings.line_options,
            )
        except Exception:
            # The core promises not to raise on bad pages: this is a bug to report,
            # with the URL to reproduce it. The crawl goes on.
            logger.exception("scrapy-cx: extraction failed for %s", response.url)
            self.stats.error()
            return "error"
        meta[META_ARTICLE] = article
        self.stats.page()
        return None
