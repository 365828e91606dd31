"""``NewsSpider``: a news crawler that finds the news itself, fetches each article once,
and exports it whole.

Where the pages come from (one of)::

    scrapy crawl news -a site=https://example.com/ [-a since=2d] [-s JOBDIR=state/]
    scrapy crawl news -a urls=urls.txt          # one URL per line
    scrapy crawl news -a dir=saved/             # saved *.html / *.htm (offline)
    scrapy crawl news -a start_url=https://example.com/ -a follow=1 -a depth=2
    scrapy crawl news -a url=https://example.com/ [-a crawl_strategy=direct_item]

The last is zyte-spider-templates' ArticleSpider's (``url``, ``urls`` as URLs,
``crawl_strategy``: ``full`` is ``site=``, ``direct_item`` the pages themselves).

``site=`` reads the site's robots.txt ``Sitemap:`` lines (else ``/sitemap.xml``),
sitemap indexes, news and plain sitemaps (gzipped too), its RSS/Atom/RDF feeds
(declared on the home and section pages, else the usual paths), and its listing
pages (``page_type == "listing"``: their ``article_links`` and ``next_page``,
never exported). Articles split over pages are merged (``CX_MAX_ARTICLE_PAGES``).
The other sources yield ``{"url": response.url}`` for every HTML page, as
before; the scrapy-cx add-on fills in the article or drops the page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Response
from scrapy.linkextractors import LinkExtractor
from scrapy.settings import BaseSettings
from twisted.python.failure import Failure

from ..article import Article
from ..settings import CxSettings
from ._args import article_spider_arguments, check_arguments, site_urls
from ._boundary import ORDER as BOUNDARY_ORDER
from ._boundary import BoundaryMiddleware
from ._exported import ExportLedger
from ._feeds import STORAGES
from ._legacy import flag, html_files, local_path, read_url_list
from ._lock import lock_jobdir
from ._resume import RunMarker, resume_site_crawl
from ._since import parse_since
from ._site import SiteCrawl

__all__ = ["NewsSpider"]

LOCAL_SLOT = "local-files"  # a project's DOWNLOAD_SLOTS may give it no delay


class NewsSpider(SiteCrawl, scrapy.Spider):
    """Yield the articles of news sites (``site=``) or of given pages; scrapy-cx
    extracts each. Subclass it in a project (``name``, ``default_pages``)."""

    name = "news"
    #: Pages crawled when no argument names any (the example project's bundled pages).
    default_pages: Path | None = None
    ledger: ExportLedger | None = None
    run_marker: RunMarker | None = None
    #: Polite defaults for real sites; the project's ``-s`` or a subclass overrides them.
    custom_settings: dict[str, Any] | None = {
        "ROBOTSTXT_OBEY": True,
        "AUTOTHROTTLE_ENABLED": True,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    }

    def __init__(
        self,
        site: str | None = None,
        urls: str | None = None,
        dir: str | None = None,  # the documented argument name
        start_url: str | None = None,
        follow: str | bool = False,
        depth: str | int = 2,
        since: str | None = None,
        **kwargs: Any,
    ) -> None:
        # ArticleSpider's (zyte-spider-templates) arguments as ours.
        site, urls, pages = article_spider_arguments(kwargs, site, urls)
        start_url = start_url or (pages[0] if pages else None)
        # Every argument checked before anything else: one line names a bad one (_args).
        check_arguments(
            {"site": site, "urls": urls, "dir": dir, "start_url": start_url, "follow": follow,
             "depth": depth, "since": since, **kwargs}
        )
        for page in pages[1:]:
            check_arguments({"start_url": page})
        super().__init__(**kwargs)
        self.follow = flag(follow)
        self.max_depth = int(depth)
        self.since = parse_since(since)
        self.sites = site_urls(site) if site else []
        self.start_urls = pages or self._start_urls(urls, dir, start_url)
        if self.sites:
            self.init_site(self.sites)
        elif not self.start_urls:
            self.logger.warning("Nothing to crawl: no URLs or no *.html / *.htm pages given")
        # Following stays on the start pages' own hosts (not their subdomains).
        self.follow_hosts = {urlsplit(u).hostname for u in self.start_urls} - {None}
        self.links = LinkExtractor()

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        """The spider's settings, and its boundary middleware: a ``site=`` crawl's every
        request (redirects and meta refreshes too) is checked just before it is fetched.

        Set as a whole at spider priority, the project's middlewares and this one: a
        key added inside the project's dict would be lost when the crawler process
        applies its settings to the crawler again (Scrapy 2.19 does), and a
        ``custom_settings`` dict would replace the project's middlewares."""
        super().update_settings(settings)
        middlewares = BaseSettings(settings["DOWNLOADER_MIDDLEWARES"])
        path = f"{BoundaryMiddleware.__module__}.{BoundaryMiddleware.__qualname__}"
        middlewares.set(path, BOUNDARY_ORDER, "spider")
        settings.set("DOWNLOADER_MIDDLEWARES", middlewares, "spider")
        # Local feed files synced per item (_feeds.py); a project's own storages stand.
        settings.set("FEED_STORAGES", {**STORAGES, **settings.getdict("FEED_STORAGES")}, "spider")

    def _start_urls(self, urls: str | None, dir: str | None, start_url: str | None) -> list[str]:
        if urls:
            return read_url_list(Path(urls).expanduser())
        if dir:
            folder = Path(dir).expanduser()
            return html_files(folder)
        if start_url:
            return [start_url]
        if self.sites or self.default_pages is None:
            return []
        return html_files(self.default_pages)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider: NewsSpider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        lock_jobdir(crawler)
        cx = CxSettings.from_settings(settings)
        spider.max_article_pages = cx.max_article_pages
        spider.min_content_length = cx.min_content_length
        if spider.sites:
            resume_site_crawl(spider, crawler)
        return spider

    # Scrapy >= 2.13 calls start(); 2.11 and 2.12 call start_requests().
    async def start(self) -> AsyncIterator[scrapy.Request]:
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        if self.sites:
            yield from self.site_requests()
            return
        # Through the dupefilter like every other request (Scrapy's default start
        # requests skip it): with follow=1 the home page's own "Home" link, or a
        # URL listed twice, must not fetch the same page again.
        for url in self.start_urls:
            yield self._request(url)

    def _request(self, url: str, **kwargs: Any) -> scrapy.Request:
        meta: dict[str, Any] = {}
        if url.startswith("file:"):
            # Local files: no politeness delay, and AutoThrottle leaves the slot alone.
            meta = {"download_slot": LOCAL_SLOT, "autothrottle_dont_adjust_delay": True}
        return scrapy.Request(url, callback=self.parse, errback=self.failed, meta=meta, **kwargs)

    def parse(self, response: Response, **kwargs: Any) -> Iterable[Any]:
        # A PDF, an image or a JSON API reply is a plain Response or a
        # TextResponse: not a page, and response.text would fail on binaries.
        if not isinstance(response, HtmlResponse):
            self.logger.debug("Not an HTML page: %s", response.url)
            return
        # scrapy-cx already looked and said why this is no page (a PDF labelled
        # text/html, an empty body): it is counted under cx/skipped/<reason>.
        skipped = response.meta.get("cx_skipped")
        if skipped:
            self.logger.debug("Skipped by scrapy-cx (%s): %s", skipped, response.url)
            return
        article = response.meta.get("cx_article")
        if not (isinstance(article, Article) and self.too_old(article)):
            yield {"url": response.url}
        depth = response.meta.get("depth", 0)
        if depth == 0 and response.url.startswith("http"):
            # example.com often redirects to www.example.com (or to https):
            # the site is wherever the start page ended up, too.
            self.follow_hosts.add(urlsplit(response.url).hostname)
        if self.follow and depth < self.max_depth:
            for link in self.links.extract_links(response):
                if urlsplit(link.url).hostname in self.follow_hosts:
                    yield self._request(link.url)

    def failed(self, failure: Failure) -> Failure:
        """Count every request that ended in an error, by its kind, then let Scrapy go on.

        Some failures (a body that does not decompress) reach no stat of
        Scrapy's own; this gives one ``cx/failed/<Error>`` count per URL for all.
        The failure is handed back, so Scrapy logs and counts it as usual.
        """
        request = getattr(failure, "request", None)
        url = request.url if request is not None else "?"
        kind = failure.type.__name__ if failure.type else "Error"
        self.count(f"cx/failed/{kind}")
        self.logger.debug("Failed %s: %s", url, failure.getErrorMessage())
        return failure

    def closed(self, reason: str) -> None:
        """Say where the articles went: the first thing a new user wants to know."""
        if self.ledger is not None:
            self.ledger.close()
        if self.run_marker is not None and reason == "finished":
            self.run_marker.finished()
        stats = self.crawler.stats
        count = stats.get_value("item_scraped_count", 0) if stats else 0
        feeds = list(self.settings.getdict("FEEDS"))
        if not feeds:
            self.logger.info(
                "Extracted %d articles (not saved: add -O articles.jsonl to write them)", count
            )
        counts = stats.get_stats() if stats else {}
        failed = any(key.startswith("feedexport/failed_count/") for key in counts)
        for uri in feeds:
            where = str(uri)
            local = local_path(where)
            if local is not None and not local.is_absolute():
                where = f"{where} ({local.resolve()})"
            # With no item the feed is written after this runs (FEED_STORE_EMPTY): no file yet.
            if failed or (local is not None and count and not local.is_file()):
                # Scrapy logs the feed's error but goes on: say plainly the articles are lost.
                self.logger.error("Could not write the articles to %s (errors above)", where)
            else:
                self.logger.info("Wrote %d articles to %s", count, where)
        if reason != "finished":
            self.logger.warning("The crawl stopped early: %s", reason)
