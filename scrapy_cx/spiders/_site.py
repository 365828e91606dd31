"""The ``site=`` crawl: robots.txt, sitemaps, feeds and listings lead to the articles,
each article page is fetched once (and never again once exported), and an article
split over pages is read whole before it is exported.

Every request here is ``dont_filter``: Scrapy's dupefilter, kept in ``JOBDIR``
across runs, would stop the next run from reading the feeds and listings again,
and would drop an article that was requested but never exported (a crash). The
spider keeps its own sets instead: sources read in this run (a sitemap index
naming itself is read once), pages requested in this run, and the exported
articles (:class:`~._seen.SeenStore`, across runs). Off-site requests are
refused here and again just before they are fetched (:mod:`._boundary`: Scrapy's
offsite check lets ``dont_filter`` requests pass, and never sees a redirect).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

import scrapy
from scrapy.http import HtmlResponse, Response
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import sitemap_urls_from_robots
from twisted.python.failure import Failure

from ..article import Article
from ..items import ArticleItem
from ._args import check_bound
from ._boundary import Boundary, shown
from ._seen import SeenStore
from ._since import older_than
from ._sources import Listed, feed_entries, feed_links, sitemap_entries
from ._split import merge_pages, same_article

__all__ = ["SiteCrawl"]

logger = logging.getLogger(__name__)

#: Paths tried for a feed when the home page declares none.
FEED_PATHS = ("/feed", "/rss", "/rss.xml", "/atom.xml", "/feed.xml", "/index.xml")
#: What is read first: the sources before the articles they list, the articles before
#: the listings (whose teasers the sitemaps and feeds have then mostly given).
PRIORITY = {"robots": 20, "sitemap": 10, "feed": 10, "probe": 5, "section": -10, "listing": -10}
BOUNDS = (
    "robots_max_size",
    "sitemap_max_size",
    "feed_max_size",
    "max_urls_per_source",
    "max_sections",
    "max_listing_pages",
)
PAGES = ("home", "section", "listing")  # the sources that are HTML pages
ROLE = "cx_news"  # request.meta: what a page is to this crawl
PARTS = "cx_news_parts"  # request.meta: the pages of a split article read so far
LISTING_PAGE = "cx_news_listing_page"  # request.meta: how deep in a pager
SITEMAP_DEPTH = "cx_news_sitemap_depth"  # request.meta: sitemap indexes above this one
#: Sitemap indexes read below the first: the protocol allows none, some sites nest a
#: few (by year, then month); a site nesting them without end is stopped here.
MAX_SITEMAP_DEPTH = 3


class SiteCrawl:
    """The ``site=`` half of :class:`~scrapy_cx.spiders.NewsSpider` (a mixin)."""

    crawler: Any
    logger: Any
    since: datetime | None
    #: Bounds on what one source may cost (bytes of robots.txt, of a sitemap or a
    #: feed, inflated; URLs read from one sitemap or feed; sections read from the
    #: home page's menus; pages of one listing's pager): a subclass's attributes,
    #: or ``-a max_listing_pages=3``.
    robots_max_size = 512 * 1024
    sitemap_max_size = 50 * 1024 * 1024  # the sitemap protocol's own limit
    feed_max_size = 10 * 1024 * 1024
    max_urls_per_source = 50_000  # the sitemap protocol's own limit
    max_sections = 50
    max_listing_pages = 10
    max_article_pages = 20  # CX_MAX_ARTICLE_PAGES, read in from_crawler
    min_content_length = 200  # CX_MIN_CONTENT_LENGTH, read in from_crawler
    #: Keep the exported set in Redis when CX_REDIS_URL is set (else in JOBDIR).
    seen_in_redis = True
    seen: SeenStore | None = None

    def init_site(self, sites: list[str]) -> None:
        for name in BOUNDS:  # -a max_listing_pages=3 arrives as a string
            setattr(self, name, check_bound(name, getattr(self, name)))
        self.boundary = Boundary.of(sites)
        self.allowed_domains = self.boundary.domains
        self._offsite_logged: set[tuple[str, str]] = set()
        self._sources: set[str] = set()
        self._requested: set[str] = set()
        self._yielded: set[str] = set()
        self._sections: set[str] = set()
        self._listed_as: dict[str, list[str]] = {}  # a split article's first page: redirects
        self.section_links = LinkExtractor(restrict_xpaths=("//nav", "//header"))

    def count(self, key: str, value: int = 1) -> None:
        if self.crawler.stats:
            self.crawler.stats.inc_value(key, value)

    def on_site(self, url: str) -> bool:
        """Whether ``url`` is inside the sites' :class:`~._boundary.Boundary`."""
        return self.boundary.why(url) is None

    def off_site(self, url: str, source: str = "") -> bool:
        """Whether ``url`` is outside the sites' boundary; if so it is counted
        (``cx/news/offsite/<why>``) and logged once per source and reason."""
        why = self.boundary.why(url)
        if why is None:
            return False
        self.count(f"cx/news/offsite/{why}")
        if (source, why) not in self._offsite_logged:
            self._offsite_logged.add((source, why))
            logger.warning(
                "Not fetched, off the site (%s): %s, from %s (further ones from there counted)",
                why, shown(url), shown(source) if source else "the crawl's start",
            )
        return True

    def exported_urls(self, item: Any, response: Any = None) -> list[str]:
        """An exported article's URLs a later run need not fetch again: its pages, and
        the URLs it was listed under that redirected to them."""
        try:
            url = item.get("url")
            pages = list(item.get("pages") or ())
        except AttributeError:
            return []
        listed = list(getattr(response, "meta", {}).get("redirect_urls") or ())
        listed += getattr(self, "_listed_as", {}).pop(url, [])
        return [url, *pages, *listed] if url else [*pages, *listed]

    # ----------------------------------------------------------------- requests

    def site_requests(self) -> Iterator[scrapy.Request]:
        unreadable = getattr(self.seen, "unreadable", 0)
        if unreadable:  # counted here: the stats exist once the crawl starts
            self.count("cx/news/seen_unreadable", unreadable)
        for site in getattr(self, "sites", []):
            home = site if urlsplit(site).path else site + "/"
            robots = self.source(urljoin(home, "/robots.txt"), self.parse_robots, "robots")
            for request in (robots, self.source(home, self.parse_page, "home")):
                if request is not None:
                    yield request

    def source(
        self, url: str, callback: Any, role: str, origin: str = "", **meta: Any
    ) -> scrapy.Request | None:
        """A request for a page that lists others (read again every run), once per run."""
        url = url.split("#", 1)[0]
        if role == "section":
            self._sections.add(url)  # a menu's page is a section, however it was reached
        if url in self._sources or (role in PAGES and url in self._requested):
            self.count("cx/news/source_repeated")
            logger.debug("Already read in this crawl: %s", url)
            return None
        if self.off_site(url, origin):
            return None
        self._sources.add(url)
        self._requested.add(url)
        limits = {
            "robots": self.robots_max_size,
            "sitemap": self.sitemap_max_size,
            "feed": self.feed_max_size,
            "probe": self.feed_max_size,
        }
        if role in limits:
            meta.update(download_maxsize=limits[role], download_warnsize=0)
        meta.update({ROLE: role, "handle_httpstatus_all": True})
        return scrapy.Request(
            url,
            callback=callback,
            errback=self.source_failed,
            meta=meta,
            dont_filter=True,
            priority=PRIORITY.get(role, 0),
        )

    def article_request(
        self, url: str, date: str | None = None, origin: str = ""
    ) -> scrapy.Request | None:
        """A request for a page that may be an article: not one exported before, not one
        older than ``since`` by its listed date, not one already asked for in this run."""
        url = url.strip().split("#", 1)[0]
        if self.off_site(url, origin):
            return None
        if older_than(date, self.since):
            self.count("cx/news/too_old_listed")
            return None
        if self.seen is not None and url in self.seen:
            self.count("cx/skipped/seen")
            return None
        if url in self._requested:
            return None
        self._requested.add(url)
        return scrapy.Request(
            url,
            callback=self.parse_page,
            errback=getattr(self, "failed", None),
            meta={ROLE: "article"},
            dont_filter=True,
        )

    def source_failed(self, failure: Failure) -> Iterator[scrapy.Request]:
        """A source that could not be read (too big, refused, no answer): counted, logged."""
        request = failure.request  # type: ignore[attr-defined]  # set by Scrapy
        role = request.meta.get(ROLE, "source")
        kind = failure.type.__name__ if failure.type else "Error"
        self.count(f"cx/news/{role}_failed")
        logger.warning("Could not read %s %s: %s", role, request.url, kind)
        if role == "robots":
            yield from self._default_sitemap(request.url)

    def _default_sitemap(self, url: str) -> Iterator[scrapy.Request]:
        request = self.source(urljoin(url, "/sitemap.xml"), self.parse_sitemap, "sitemap")
        if request is not None:
            yield request

    # ----------------------------------------------------------------- sources

    def parse_robots(self, response: Response) -> Iterator[scrapy.Request]:
        body = response.body if response.status == 200 else b""
        if response.status != 200:
            self.count("cx/news/robots_missing")
        try:  # bytes from Scrapy 2.13 on (str deprecated), str before
            urls = list(sitemap_urls_from_robots(body, base_url=response.url))
        except TypeError:
            text = body.decode("utf-8", "replace")
            urls = list(sitemap_urls_from_robots(text, base_url=response.url))
        found = 0
        for url in urls:
            request = self.source(url, self.parse_sitemap, "sitemap", response.url)
            if request is not None:
                found += 1
                yield request
        if not found:
            yield from self._default_sitemap(response.url)

    def _read(self, response: Response, role: str) -> bytes | None:
        """The body of a sitemap or feed, inflated within its limit; None if unusable."""
        if response.status != 200:
            self.count(f"cx/news/{role}_status")
            logger.info("No %s at %s (HTTP %d)", role, response.url, response.status)
            return None
        body = response.body
        if gzip_magic_number(response):
            limit = self.sitemap_max_size if role == "sitemap" else self.feed_max_size
            try:
                body = gunzip(body, max_size=limit)
            except (ValueError, OSError, EOFError):
                self.count(f"cx/news/{role}_too_large")
                logger.warning("%s %s: bad gzip, or over %d bytes", role, response.url, limit)
                return None
        return body

    def _listed(self, listed: Listed, response: Response, role: str) -> bool:
        if not listed.kind:
            self.count(f"cx/news/{role}_unreadable")
            if role != "probe" or listed.why.startswith("over"):
                logger.warning(
                    "Not a readable %s: %s%s", role, response.url,
                    f" ({listed.why})" if listed.why else "",
                )
            return False
        if listed.bad:
            self.count(f"cx/news/{role}_bad_entries", listed.bad)
            logger.warning(
                "%s %s: %d entries without a usable URL left out (none, or one an entity"
                " reference would cut)", role, response.url, listed.bad,
            )
        self.count(f"cx/news/{role}_entries", len(listed.entries))
        if listed.capped:
            self.count(f"cx/news/{role}_capped", listed.capped)
            logger.warning(
                "%s %s lists more than %d URLs: %d left out",
                role, response.url, self.max_urls_per_source, listed.capped,
            )
        return True

    def parse_sitemap(self, response: Response) -> Iterator[scrapy.Request | None]:
        body = self._read(response, "sitemap")
        listed = sitemap_entries(body, self.max_urls_per_source) if body else Listed("", [])
        if body is None or not self._listed(listed, response, "sitemap"):
            return
        self.count("cx/news/sitemaps")
        depth = response.meta.get(SITEMAP_DEPTH, 0)
        if listed.kind == "sitemapindex" and depth >= MAX_SITEMAP_DEPTH:
            self.count("cx/news/sitemap_too_deep")
            logger.warning(
                "Sitemap index %s is nested deeper than %d indexes: its %d sitemaps not read",
                response.url, MAX_SITEMAP_DEPTH, len(listed.entries),
            )
            return
        for entry in listed.entries:
            url = urljoin(response.url, entry.url)
            if listed.kind == "sitemapindex":
                if older_than(entry.date, self.since):
                    self.count("cx/news/too_old_listed")
                    continue
                yield self.source(
                    url, self.parse_sitemap, "sitemap", response.url, **{SITEMAP_DEPTH: depth + 1}
                )
            else:
                yield self.article_request(url, entry.date, response.url)

    def parse_feed(self, response: Response) -> Iterator[scrapy.Request | None]:
        role = response.meta.get(ROLE, "feed")
        body = self._read(response, "feed")
        listed = feed_entries(body, self.max_urls_per_source) if body else Listed("", [])
        if body is None or not self._listed(listed, response, role):
            return
        self.count("cx/news/feeds")
        for entry in listed.entries:
            yield self.article_request(urljoin(response.url, entry.url), entry.date, response.url)

    # ----------------------------------------------------------------- pages

    def parse_page(self, response: Response) -> Iterator[Any]:
        """A page of the site: the home page or a section (feeds, sections, teasers), a
        listing (teasers, next page; never exported), or an article (exported)."""
        for obj in self._parse_page(response):
            if obj is not None:
                yield obj

    def _parse_page(self, response: Response) -> Iterator[Any]:
        if not isinstance(response, HtmlResponse):
            return
        role = response.meta.get(ROLE, "article")
        if role == "article" and response.url in self._sections:
            role = "section"  # listed in a sitemap, and in the menus
        if role in ("home", "section"):
            yield from self._feeds_and_sections(response, role)
        article = response.meta.get("cx_article")
        if not isinstance(article, Article):
            return  # not extracted: counted under cx/skipped/<reason>
        if role in ("home", "section", "listing") or article.page_type == "listing":
            self.count("cx/news/listings")
            yield from self._follow_listing(response, article)
            return
        yield from self._article(response, article)

    def _feeds_and_sections(self, response: HtmlResponse, role: str) -> Iterator[Any]:
        links = (
            (el.attrib.get("rel", ""), el.attrib.get("type", ""), el.attrib.get("href", ""))
            for el in response.xpath("//link[@href]")
        )
        feeds = feed_links(links)
        for href in feeds:
            yield self.source(response.urljoin(href), self.parse_feed, "feed", response.url)
        if role != "home":
            return
        if not feeds:
            for path in FEED_PATHS:
                yield self.source(response.urljoin(path), self.parse_feed, "probe")
        for link in self.section_links.extract_links(response)[: self.max_sections]:
            if self.on_site(link.url):
                yield self.source(
                    link.url, self.parse_page, "section", response.url, **{LISTING_PAGE: 0}
                )

    def _follow_listing(self, response: Response, article: Article) -> Iterator[Any]:
        new = 0
        for url in article.article_links:
            request = self.article_request(url, origin=response.url)
            if request is not None:
                new += 1
                yield request
        depth = response.meta.get(LISTING_PAGE, 0) + 1
        if not article.next_page or depth >= self.max_listing_pages:
            return
        if not new and self.seen is not None and self.seen.rerun:
            # A rerun, and every teaser here was exported or asked for already (or none
            # was found): the older pages of this listing hold nothing new either. A
            # first run reads on: a sitemap or feed of the newest stories gave them all.
            self.count("cx/news/listing_caught_up")
            return
        yield self.source(
            article.next_page, self.parse_page, "listing", response.url, **{LISTING_PAGE: depth}
        )

    def too_old(self, article: Article) -> bool:
        """Published before ``since`` (counted ``cx/dropped/too_old``); undated is not."""
        if self.since is None or not older_than(article.published, self.since):
            return False
        self.count("cx/dropped/too_old")
        logger.debug("Published before %s: %s", self.since.isoformat(), article.url)
        return True

    def _article(self, response: Response, article: Article) -> Iterator[Any]:
        if self.too_old(article):
            return
        if self.seen is not None and response.url in self.seen:
            # A listed URL that redirected to an article exported already (a later
            # run does not resume Scrapy's queue: _resume.py).
            self.count("cx/skipped/seen")
            return
        if (
            article.next_page
            and self.max_article_pages > 1
            and article.page_type == "article"
            and len(article.content) >= self.min_content_length  # else no article to merge
            and same_article(article, article.next_page)
            and not self.off_site(article.next_page, response.url)
        ):
            # the URLs it was listed under, recorded with the merged article's own
            self._listed_as[article.url or response.url] = response.meta.get("redirect_urls", [])
            yield self._next_part([article], article.next_page)
            return
        if response.url in self._yielded:
            return
        self._yielded.add(response.url)
        yield {"url": response.url}

    # ----------------------------------------------------------------- split articles

    def _next_part(self, parts: list[Article], url: str) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.parse_part,
            errback=self.part_failed,
            meta={ROLE: "part", PARTS: parts},
            dont_filter=True,
            priority=5,  # a split article's pages wait in memory: finish it first
        )

    def parse_part(self, response: Response) -> Iterator[Any]:
        """The next page of a split article: read on, or end the article here."""
        parts: list[Article] = response.meta[PARTS]
        article = response.meta.get("cx_article")
        if not isinstance(article, Article) or response.status != 200:
            yield from self._finish(parts, "unreadable", response.url)
            return
        if response.url in {p.url for p in parts}:
            # Redirected back to a page read already: the final URL says so, not the next link.
            yield from self._finish(parts, "loop", response.url)
            return
        if not same_article(parts[0], response.url, article.title):
            yield from self._finish(parts, "another_article", response.url)
            url = response.url
            if url not in self._requested and not (self.seen is not None and url in self.seen):
                self._requested.add(url)
                yield from self._parse_page(response)  # an article of its own, maybe
            return
        parts = [*parts, article]
        following = article.next_page
        read = {p.url for p in parts}
        if not following or not same_article(parts[0], following):
            yield from self._finish(parts, "", response.url)
        elif following in read:
            yield from self._finish(parts, "loop", following)
        elif len(parts) >= self.max_article_pages:
            yield from self._finish(parts, "max_pages", following)
        elif self.off_site(following, response.url):
            yield from self._finish(parts, "offsite", following)
        else:
            yield self._next_part(parts, following)

    def part_failed(self, failure: Failure) -> Iterator[Any]:
        """A next page that failed (404, no answer): the article ends before it."""
        request = failure.request  # type: ignore[attr-defined]  # set by Scrapy
        yield from self._finish(request.meta[PARTS], "missing", request.url)

    def _finish(self, parts: list[Article], why: str, url: str) -> Iterable[Any]:
        first = parts[0]
        if why:
            self.count(f"cx/news/split_ended/{why}")
            logger.info("Article %s ends before %s (%s)", first.url, url, why)
        if first.url in self._yielded:
            return
        self._yielded.add(first.url or "")
        if len(parts) > 1:
            self.count("cx/news/split_articles")
            self.count("cx/news/split_pages", len(parts))
        yield ArticleItem.from_article(merge_pages(parts))
