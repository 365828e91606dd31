"""Downloader middleware: a compressed response is measured before it is decompressed.

Scrapy's HttpCompressionMiddleware (590) inflates the whole body; Scrapy
2.11.0 does it without any limit, later versions stop at ``DOWNLOAD_MAXSIZE``
only after holding that much. This middleware sits just before it (595:
``process_response`` runs from high orders to low) and inflates the body chunk
by chunk, keeping nothing, to learn whether it would pass the limit. A
compression bomb then costs its compressed bytes plus one chunk, in every
Scrapy version; a response that fits is handed on untouched, and Scrapy
decompresses it as usual.

Responses over the limit, compressed or not (the download handler cancels
those on the wire), are counted as ``cx/skipped/too_large`` and logged once
with their URL, and dropped with IgnoreRequest, which Scrapy does not log as
an error.
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response

from .body import decoded_size_over, supported_coding
from .settings import CxSettings
from .stats import CxStats

__all__ = ["SizeGuardMiddleware", "request_too_large"]

logger = logging.getLogger(__name__)

#: Signal sent with ``request=`` for each request this middleware drops: an
#: exception raised in ``process_response`` reaches no other middleware, and a
#: distributed crawl must still learn the request is over (scrapy_cx.leases).
request_too_large = object()

#: Just before HttpCompressionMiddleware (590), after RedirectMiddleware (600).
ORDER = 595


def _codings(response: Response) -> list[str]:
    raw = b",".join(response.headers.getlist(b"Content-Encoding"))
    return [c.strip() for c in raw.decode("latin-1").split(",") if c.strip()]


class SizeGuardMiddleware:
    """Drop responses whose decompressed body would pass ``DOWNLOAD_MAXSIZE``."""

    def __init__(self, crawler: Crawler, max_size: int) -> None:
        self.crawler = crawler
        self.max_size = max_size
        self.stats = CxStats(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SizeGuardMiddleware:
        CxSettings.for_crawler(crawler)  # NotConfigured when CX_ENABLED is off
        return cls(crawler, crawler.settings.getint("DOWNLOAD_MAXSIZE"))

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        limit = int(request.meta.get("download_maxsize", self.max_size) or 0)
        codings = _codings(response)
        if not limit or not codings or not all(supported_coding(c) for c in codings):
            return response  # nothing to inflate, or an encoding only Scrapy knows (zstd)
        if decoded_size_over(response.body, codings, limit):
            self._skip(
                request,
                f"{response.url} decompresses to more than DOWNLOAD_MAXSIZE ({limit} bytes)",
            )
        return response

    def process_exception(
        self, request: Request, exception: BaseException, spider: Spider | None = None
    ) -> None:
        # The download handler cancels a body larger than DOWNLOAD_MAXSIZE on the
        # wire (CancelledError in Scrapy 2.11, DownloadCancelledError later) and
        # has logged it with the URL already: count it, and let Scrapy not log it
        # a second time as a download error.
        if "Cancelled" in type(exception).__name__ and "max size" in str(exception):
            self._dropped(request)
            raise IgnoreRequest(str(exception)) from exception

    def _skip(self, request: Request, message: str) -> None:
        logger.warning("scrapy-cx: skipped %s", message)
        self._dropped(request)
        raise IgnoreRequest(message)

    def _dropped(self, request: Request) -> None:
        self.stats.skipped("too_large")
        self.crawler.signals.send_catch_log(signal=request_too_large, request=request)
