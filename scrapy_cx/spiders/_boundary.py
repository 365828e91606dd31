"""The site as a boundary: which URLs a ``site=`` crawl may fetch, checked on every request.

A URL is on the site when it is http(s), names no user or password, its host is
on one of the sites' registrable domains (the Public Suffix List:
``news.example.com`` is on ``example.com``, ``bar.blogspot.com`` is not on
``foo.blogspot.com``), and its port is the one that site was given with (the
http <-> https switch of a site given on a default port is allowed: 80 and 443).
Anything else (another host, ``site:6379``, ``user:pass@site``, ``file:``) is
not fetched. Several sites (``-a site=A,B``) make one boundary of them all.

The spider checks each URL it is about to ask for (:meth:`Boundary.why`), and
:class:`BoundaryMiddleware` checks every request again just before it is
fetched, which is where the requests Scrapy makes for the spider pass: redirects
and meta refreshes (Scrapy's redirect middlewares schedule a new request) and
the pages of a split article. A request outside is dropped (IgnoreRequest),
counted ``cx/news/offsite/<why>`` and logged once per source.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest

from ..extract.fields.navigation import site_of

__all__ = ["ORDER", "Boundary", "BoundaryMiddleware", "shown"]

logger = logging.getLogger(__name__)

#: Before Scrapy's robots.txt middleware (100): an off-site URL does not even cost
#: a robots.txt request to its host.
ORDER = 50
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True, slots=True)
class Boundary:
    """The (registrable domain, port) pairs a crawl may fetch from."""

    endpoints: frozenset[tuple[str, int]]

    @classmethod
    def of(cls, sites: Iterable[str]) -> Boundary:
        """The boundary of the sites a crawl was given (absolute http(s) URLs)."""
        endpoints: set[tuple[str, int]] = set()
        for site in sites:
            parts = urlsplit(site)
            domain = site_of(parts.hostname)
            port = parts.port or _DEFAULT_PORTS.get(parts.scheme, 0)
            if port == _DEFAULT_PORTS.get(parts.scheme):
                endpoints.update((domain, p) for p in _DEFAULT_PORTS.values())
            else:
                endpoints.add((domain, port))
        return cls(frozenset(endpoints))

    @property
    def domains(self) -> list[str]:
        return sorted({domain for domain, _ in self.endpoints})

    def why(self, url: str) -> str | None:
        """None when ``url`` is on the site, else why not: ``scheme``, ``userinfo``,
        ``domain``, ``port`` or ``bad_url``."""
        try:
            parts = urlsplit(url)
            scheme = parts.scheme.lower()
            if scheme not in _DEFAULT_PORTS:
                return "scheme"
            if parts.username is not None or parts.password is not None or "@" in parts.netloc:
                return "userinfo"
            domain = site_of(parts.hostname)
            port = parts.port or _DEFAULT_PORTS[scheme]
        except ValueError:  # a port out of range, a broken IPv6 address
            return "bad_url"
        if not domain:
            return "bad_url"
        if (domain, port) in self.endpoints:
            return None
        if any(d == domain for d, _ in self.endpoints):
            return "port"
        return "domain"


def shown(url: str) -> str:
    """``url`` for a log line: a password in it is not written out."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    if not sep or "@" not in host:
        return url
    return f"{scheme}://***@{host.rpartition('@')[2]}{slash}{path}"


class BoundaryMiddleware:
    """A downloader middleware the news spider enables: every request a ``site=``
    crawl is about to fetch (its own, a redirect's, a meta refresh's) is checked
    against the spider's :class:`Boundary`; one outside is not fetched."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> BoundaryMiddleware:
        return cls(crawler)

    def process_request(self, request: Any, spider: Any = None) -> None:
        spider = self.crawler.spider
        refuse = getattr(spider, "off_site", None)
        if refuse is None or getattr(spider, "boundary", None) is None:
            return  # not a site= crawl: the start pages and follow= rules stand
        redirects = request.meta.get("redirect_urls") or ()
        referer = request.headers.get("Referer")
        source = redirects[-1] if redirects else (referer.decode("latin-1") if referer else "")
        if refuse(request.url, source):
            raise IgnoreRequest(f"Off the site: {request.url}")
