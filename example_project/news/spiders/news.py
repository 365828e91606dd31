"""The ``news`` spider: feed pages to scrapy-cx, one way or another.

Where the pages come from (pick one; with none, the bundled sample pages)::

    scrapy crawl news -O articles.jsonl                        # bundled pages, no network
    scrapy crawl news -a urls=urls.txt -O articles.jsonl       # one URL per line (online mode)
    scrapy crawl news -a dir=saved/ -O articles.jsonl          # saved *.html / *.htm (offline)
    scrapy crawl news -a start_url=https://example.com/ -a follow=1 -a depth=2 -O articles.jsonl

The spider itself knows nothing about articles: for every HTML page it yields
``{"url": response.url}`` and the scrapy-cx add-on fills in the article (or
drops the item, with a reason in the ``cx/dropped/*`` stats, when the page is
not one: an index page, an error page, a PDF served as HTML).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import scrapy
from scrapy.http import HtmlResponse, Response
from scrapy.linkextractors import LinkExtractor
from twisted.python.failure import Failure

SAMPLE_PAGES = Path(__file__).resolve().parent.parent / "pages"
HTML_SUFFIXES = (".html", ".htm")
LOCAL_SLOT = "local-files"  # DOWNLOAD_SLOTS in settings.py gives it no delay


def _flag(value: Any) -> bool:
    """Spider arguments arrive as strings: ``-a follow=1`` / ``yes`` / ``true``."""
    return str(value).strip().lower() in {"1", "yes", "true", "on"}


def _read_url_list(path: Path) -> list[str]:
    """URLs from a text file: one per line, blank lines and ``#`` comments ignored.

    A line that names a saved page instead (``pages/a.html``, relative to the
    list's folder) becomes its ``file://`` URL.
    """
    urls = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "://" not in line and (path.parent / line).expanduser().is_file():
            line = (path.parent / line).expanduser().resolve().as_uri()
        urls.append(line)
    return urls


def _html_files(folder: Path) -> list[str]:
    """``file://`` URLs of every saved page under ``folder``, in a stable order."""
    files = sorted(
        p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in HTML_SUFFIXES
    )
    return [p.resolve().as_uri() for p in files]


class NewsSpider(scrapy.Spider):
    """Yield one item per HTML page; scrapy-cx turns it into an article or drops it."""

    name = "news"

    def __init__(
        self,
        urls: str | None = None,
        dir: str | None = None,  # the documented argument name
        start_url: str | None = None,
        follow: str | bool = False,
        depth: str | int = 2,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        given = (("urls", urls), ("dir", dir), ("start_url", start_url))
        chosen = [name for name, value in given if value]
        if len(chosen) > 1:
            raise ValueError(f"give only one of urls=, dir=, start_url= (got {', '.join(chosen)})")
        self.follow = _flag(follow)
        self.max_depth = int(depth)
        if urls:
            self.start_urls = _read_url_list(Path(urls).expanduser())
        elif dir:
            folder = Path(dir).expanduser()
            if not folder.is_dir():
                raise ValueError(f"dir={dir!r} is not a folder")
            self.start_urls = _html_files(folder)
        elif start_url:
            self.start_urls = [start_url]
        else:
            self.start_urls = _html_files(SAMPLE_PAGES)
        if not self.start_urls:
            self.logger.warning("Nothing to crawl: no URLs or no *.html / *.htm pages given")
        # Following stays on the start pages' own hosts (not their subdomains).
        self.follow_hosts = {urlsplit(u).hostname for u in self.start_urls} - {None}
        self.links = LinkExtractor()

    # Scrapy >= 2.13 calls start(); 2.11 and 2.12 call start_requests().
    async def start(self) -> AsyncIterator[scrapy.Request]:
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
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
        if self.crawler.stats:
            self.crawler.stats.inc_value(f"cx/failed/{kind}")
        self.logger.debug("Failed %s: %s", url, failure.getErrorMessage())
        return failure

    def closed(self, reason: str) -> None:
        """Say where the articles went: the first thing a new user wants to know."""
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
            local = _local_path(where)
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


def _local_path(uri: str) -> Path | None:
    """The file a feed URI names on this machine (a path or a ``file://`` URI), else None."""
    if uri.startswith("file://"):
        return Path(url2pathname(urlsplit(uri).path))
    if "://" in uri:
        return None
    return Path(uri)
