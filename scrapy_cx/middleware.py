"""Downloader middleware: one extraction per HTML response, attached to its meta.

It sits below HttpCompressionMiddleware (590), MetaRefreshMiddleware (580) and
RetryMiddleware (550) in ``DOWNLOADER_MIDDLEWARES``, so ``process_response``
sees decompressed bodies of final pages only: a redirect, a meta refresh or a
retried error never costs an extraction.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Coroutine
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from functools import partial
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import DeferredSemaphore
from w3lib.encoding import http_content_type_encoding

from .article import Article, as_fields
from .body import looks_binary
from .extract import extract_article
from .pool import (
    PoolClosed,
    PoolError,
    ReactorPool,
    RemoteError,
    TaskTimeout,
    WorkerDied,
    call_prepared,
    default_context,
    prepare_call,
    prestart,
    warm_up_extractor,
    warm_up_for,
)
from .settings import CxSettings
from .stats import CxStats
from .verdict import article_reason
from .zyte import not_downloaded

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
#: ``response.meta`` key holding the article rule's verdict on the article, made in
#: the worker (:func:`~scrapy_cx.verdict.article_reason`): the pipeline reuses it
#: for an item whose judged fields are the article's own.
META_VERDICT = "_cx_verdict"
#: ``response.meta`` key holding the article and its fields as the worker sent them
#: (:meth:`Article.to_dict`): the spider middleware fills items of this article from them
#: as they are, not from a second ``to_dict`` of it.
META_FIELDS = "_cx_fields"
#: Scrapy's own priority for this middleware (the add-on uses it).
ORDER = 540

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: The spider's close reason when extraction workers cannot be started.
WORKERS_FAILED = "cx_workers_failed"


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
    if not body or body.isspace():  # not strip(): that copies the whole body
        return "empty"
    if looks_binary(body):
        return "binary"
    return None


def response_date(response: Response) -> datetime | None:
    """The server's ``Date`` header, else (none sent) the crawl's own clock: the
    moment "3 hours ago" and a year-less "09-30 22:46" on the page count from.

    Saved pages (``file://``) have neither, so their relative dates stay unread
    rather than being counted from today.
    """
    if response.url.startswith("file:"):
        return None
    raw = response.headers.get(b"Date")
    if not raw:
        return datetime.now(timezone.utc)  # fetched just now
    try:
        moment = parsedate_to_datetime(raw.decode("latin-1"))
    except (TypeError, ValueError, IndexError, OverflowError):  # a year past C's long
        return None  # a server whose clock says nonsense: no guess
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _iso(moment: datetime | None) -> str | None:
    """``moment`` as the worker gets it: an ISO 8601 string (``extract_article`` reads
    either) pickles in 2 us, a datetime with its time zone in 9 (alone; 3-5 times that
    in a crawl's process)."""
    return None if moment is None else moment.isoformat()


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


def stop_crawl(crawler: Crawler, reason: str, why: str) -> None:
    """Fail the crawl through Scrapy's own means: log ``why`` as an error, close the
    spider with ``reason`` (its ``finish_reason`` in the stats), and make ``scrapy
    crawl`` exit 1 (:func:`_exit_status_1`). Each caller calls it once per crawler (it
    keeps whether it did: one line per failure)."""
    logger.error("scrapy-cx: stopping the crawl (%s): %s", reason, why)
    # Connected once per crawler however often asked (Scrapy's signal manager).
    crawler.signals.connect(_exit_status_1, signal=signals.engine_stopped)
    engine = crawler.engine
    if hasattr(engine, "close_spider_async"):  # Scrapy 2.14+
        deferred_from_coro(engine.close_spider_async(reason=reason))
    elif crawler.spider is not None:
        engine.close_spider(crawler.spider, reason)


def _exit_status_1(sender: Crawler) -> None:
    """Make ``scrapy crawl`` exit with status 1: the one place scrapy-cx does this.

    Scrapy (2.11 to 2.19 at least) gives a component no way to set the exit status: it
    is 1 only when the runner's ``bootstrap_failed`` is set, which it is when the crawl
    raised or when, once the crawl has ended, the crawler has no spider. A crawl that
    cannot do its job (no extraction worker can start, Redis gone for good) must not
    end in status 0 as if all went well, so once the engine has stopped (stats dumped,
    every ``spider_closed`` handler run) the crawler's ``spider`` is cleared, on either
    reactor. ``tests/e2e/test_workers.py`` holds that this still gives exit 1.
    """
    sender.spider = None


def pool_failure(error: PoolError, url: str | None) -> str:
    """Log why the crawl's pool gave back no article for ``url``, and name it as a skip:
    ``timeout`` or ``worker_died`` (the worker was replaced), else ``error``."""
    if isinstance(error, TaskTimeout):
        logger.warning("scrapy-cx: extraction of %s took %s: worker replaced", url, error)
        return "timeout"
    if isinstance(error, WorkerDied):
        logger.error("scrapy-cx: the worker died on %s (%s): replaced", url, error)
        return "worker_died"
    if isinstance(error, RemoteError):
        logger.error("scrapy-cx: extraction failed for %s\n%s", url, error)
    else:
        logger.error("scrapy-cx: no extraction for %s: %s", url, error)
    return "error"


#: Each crawler's ArticleMiddleware (:meth:`ArticleMiddleware.of`).
_middlewares: weakref.WeakKeyDictionary[Crawler, ArticleMiddleware] = weakref.WeakKeyDictionary()

#: Each crawler's extraction pool, shared by the middleware and the pipeline (raw HTML
#: items): one set of workers and one deadline per crawl.
_pools: weakref.WeakKeyDictionary[Crawler, ReactorPool] = weakref.WeakKeyDictionary()


def crawl_pool(
    crawler: Crawler,
    settings: CxSettings,
    warm_up: Callable[[], object] = warm_up_extractor,
) -> ReactorPool:
    """``crawler``'s extraction pool, started by its first user (``warm_up``: what that
    user's workers run first, see :func:`~scrapy_cx.pool.warm_up_for`) and closed with
    the spider (or the engine): none outlives the crawl."""
    pool = _pools.get(crawler)
    if pool is None:
        pool = _pools[crawler] = ReactorPool(
            settings.worker_count,
            timeout=settings.page_timeout,
            max_tasks=settings.worker_max_pages,
            warm_up=warm_up,
            context=default_context(warm=settings.worker_warm_up),
        )

        def close() -> None:
            _close_pool(crawler, pool)

        crawler.signals.connect(close, signal=signals.spider_closed, weak=False)
        crawler.signals.connect(close, signal=signals.engine_stopped, weak=False)
        logger.info(
            "scrapy-cx: %d extraction worker process(es), %g s per page",
            settings.worker_count,
            settings.page_timeout,
        )
    return pool


def _close_pool(crawler: Crawler, pool: ReactorPool) -> None:
    """Stop the workers and say in the stats what happened to them."""
    pool.close()
    counts = {"timeouts": pool.timeouts, "deaths": pool.deaths}
    counts |= {"recycled": pool.recycled, "start_failures": pool.start_failures}
    for name, count in counts.items():
        if count and crawler.stats is not None:
            crawler.stats.set_value(f"cx/workers/{name}", count)


class ArticleMiddleware:
    """Attach ``extract_article(body, url)`` to every HTML response's meta.

    Skipped responses get ``meta["cx_skipped"] = reason`` instead (``status``,
    ``not_html``, ``empty``, ``too_large``, ``binary``, ``error``, and with
    workers ``timeout``, ``worker_died`` and ``workers_failed``). The response itself
    is returned unchanged, whatever happens.

    With ``CX_WORKERS`` > 0 the extraction runs in worker processes and
    ``process_response`` returns a coroutine that Scrapy awaits: the response
    goes on when its article is back, and the reactor keeps downloading
    meanwhile. At most ``3 * workers`` pages wait for the pool; the others wait
    in the downloader, which counts them against ``CONCURRENT_REQUESTS``, so a
    slow pool slows downloads down instead of growing memory. A worker that fails to
    start is replaced after a back-off; when none can start for long (see
    :class:`~scrapy_cx.pool.EventPool`) the crawl is stopped (``cx_workers_failed``,
    exit status 1) rather than passing its pages on without extraction.
    """

    #: The extractor, ``extract_article``'s signature; a subclass may plug in another.
    extract: Callable[..., Article] = staticmethod(extract_article)
    #: What a new worker runs before its first page (outside the page's deadline; the
    #: worker imports ``extract``'s module then too).
    warm_up: Callable[[], object] = staticmethod(warm_up_extractor)

    def __init__(self, crawler: Crawler, settings: CxSettings) -> None:
        self.crawler = crawler
        self.settings = settings
        self.stats = CxStats(crawler)
        self.workers = settings.worker_count
        self._pool: ReactorPool | None = None
        self._room: DeferredSemaphore | None = None
        # The part of every page's task that is the same for the whole crawl (extractor,
        # its options, the article rule, the fields' shape), pickled once (pool.prepare_call).
        self._call: bytes | None = None
        self._stopped = False  # whether it stopped the crawl (stop_crawl: once)
        # Responses this middleware has had: one extraction each, whether scrapy-poet's
        # injection (above it, scrapy_cx.zyte) asked first or the response came its way.
        self._seen: weakref.WeakSet[Response] = weakref.WeakSet()
        _middlewares[crawler] = self
        if self.workers:
            # The fork server imports (and warms) the extractor for every worker (seconds,
            # see pool._forkserver): from now on, beside the engine's start and the first
            # downloads, not in the reactor's wait for the first worker.
            prestart(default_context(warm=settings.worker_warm_up))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArticleMiddleware:
        return cls(crawler, CxSettings.for_crawler(crawler))

    @classmethod
    def of(cls, crawler: Crawler) -> ArticleMiddleware:
        """``crawler``'s middleware, or a new one where the crawl lists none (a project
        that asks scrapy-poet for our page objects without the add-on): either way the
        crawl's one pool and deadline. NotConfigured if ``CX_ENABLED`` is False."""
        return _middlewares.get(crawler) or cls.from_crawler(crawler)

    async def extract_now(self, request: Request, response: Response) -> None:
        """Extract ``response`` before its turn here comes: scrapy-poet builds a
        callback's page objects above this middleware (543 > 540), and ours need the
        article. Its turn then passes the response on as it is (one extraction)."""
        result = self.process_response(request, response)
        if not isinstance(result, Response):
            await result

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response | Coroutine[Any, Any, Response]:
        if response in self._seen:  # extracted already (extract_now)
            return response
        self._seen.add(response)
        if request.callback is NO_CALLBACK or not_downloaded(response):
            # Not the spider's request (robots.txt, a media pipeline's download): its
            # response never reaches a callback, so it is neither extracted nor counted;
            # nor is scrapy-poet's DummyResponse (a page it did not download).
            return response
        meta = request.meta
        # A spider that copies meta into a follow-up request must not carry the
        # previous page's article over to this one.
        meta.pop(META_ARTICLE, None)
        meta.pop(META_SKIPPED, None)
        meta.pop(META_VERDICT, None)
        meta.pop(META_FIELDS, None)
        reason = skip_reason(response, self.settings.max_body_size)
        if reason is None:
            if self.workers:
                # A coroutine, not a Deferred: Scrapy 2.14+ deprecates returned Deferreds
                # and 2.11+ awaits coroutines from either reactor.
                return self._extract_in_pool(response, meta)
            reason = self._extract(response, meta)
        self._skip(meta, reason, response.url)
        return response

    def _skip(self, meta: dict[str, Any], reason: str | None, url: str) -> None:
        if reason is not None:
            meta[META_SKIPPED] = reason
            if reason != "error":
                self.stats.skipped(reason)
                logger.debug("scrapy-cx: not extracted (%s): %s", reason, url)

    def _arguments(self, response: Response) -> tuple[tuple[Any, ...], dict[str, Any]]:
        kwargs = self.settings.extract_kwargs(declared_encoding(response), response_date(response))
        return (response.body, response.url), kwargs

    async def _extract_in_pool(self, response: Response, meta: dict[str, Any]) -> Response:
        if self._pool is None:
            self._start_pool()
        assert self._pool is not None and self._room is not None
        room = self._room.acquire()
        if not room.called:  # the pool is full: wait here, holding the download slot
            await maybe_deferred_to_future(room)
        try:
            # The article comes back with its verdict.
            result = self._pool.submit(
                call_prepared,
                self._call,
                response.body,
                response.url,
                encoding=declared_encoding(response),
                reference_time=_iso(response_date(response)),
            )
            reason: str | None = None
            try:
                value, verdict = await maybe_deferred_to_future(result)
                article = value
                if type(value) is dict:  # an Article's fields, as its item takes them
                    article = Article.from_dict(value)
                    meta[META_FIELDS] = (article, value)
            except PoolError as error:
                reason = self._pool_failure(error, response.url)
            except Exception:  # noqa: BLE001 - a record it cannot read: a bug, the crawl goes on
                logger.exception("scrapy-cx: unreadable result for %s", response.url)
                self.stats.error()
                reason = "error"
            else:
                meta[META_ARTICLE] = article
                meta[META_VERDICT] = verdict
                self.stats.page(article, response.url)
        finally:
            self._room.release()
        self._skip(meta, reason, response.url)
        return response

    def _pool_failure(self, error: PoolError, url: str) -> str:
        if isinstance(error, PoolClosed) and self._pool is not None and self._pool.broken:
            if not self._stopped:
                self._stopped = True
                why = f"extraction workers cannot run: {self._pool.broken}"
                stop_crawl(self.crawler, WORKERS_FAILED, why)
            return "workers_failed"
        reason = pool_failure(error, url)
        if reason == "error":
            self.stats.error()
        return reason

    def _start_pool(self) -> None:
        self._call = prepare_call(
            self.extract,
            self.settings.extract_kwargs(),
            partial(article_reason, *self.settings.rule()),
            as_fields,
        )
        warm_up = partial(warm_up_for, self.extract, self.warm_up)
        self._pool = crawl_pool(self.crawler, self.settings, warm_up)
        # Pages in the pool's hands at most: one running and the ones sent ahead, per worker.
        self._room = DeferredSemaphore((self._pool.prefetch + 1) * self._pool.size)

    def _extract(self, response: Response, meta: dict[str, Any]) -> str | None:
        args, kwargs = self._arguments(response)
        try:
            article = self.extract(*args, **kwargs)
        except Exception:
            # The core promises not to raise on bad pages: this is a bug to report,
            # with the URL to reproduce it. The crawl goes on.
            logger.exception("scrapy-cx: extraction failed for %s", response.url)
            self.stats.error()
            return "error"
        meta[META_ARTICLE] = article
        self.stats.page(article, response.url)
        return None
