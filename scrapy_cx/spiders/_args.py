"""The news spider's ``-a`` arguments, checked before its first request like ``-s`` settings.

A bad one is one line naming the argument, the value and what is allowed
(:class:`ArgumentError`, a :class:`~scrapy_cx.settings.SettingError`): before,
``since=yesterday`` or ``dir=/missing`` ended in a traceback, ``site=notaurl``
or ``site=ftp://...`` crawled nothing and exited 0, and ``sitemap_max_size=-1``
refused every sitemap.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..settings import SettingError
from ._legacy import flag
from ._since import parse_since

__all__ = [
    "ArgumentError",
    "article_spider_arguments",
    "check_arguments",
    "check_bound",
    "site_urls",
]

FLAGS = frozenset("1 0 yes no true false on off".split())
#: zyte-spider-templates' ArticleSpider ``crawl_strategy`` values we take.
CRAWL_STRATEGIES = ("full", "direct_item")
#: Each bound an argument may set, and its least value.
BOUND_MINIMUMS = {
    "robots_max_size": 1,
    "sitemap_max_size": 1,
    "feed_max_size": 1,
    "max_urls_per_source": 1,
    "max_sections": 0,
    "max_listing_pages": 1,
}


class ArgumentError(SettingError, SystemExit):
    """A spider argument with a value it cannot take.

    Also a :class:`SystemExit` whose code is the one line: raised while ``scrapy
    crawl`` creates the spider, it ends the process with that line and exit
    status 1, as a bad ``-s`` setting does; a script or test catches it as the
    :class:`SettingError` (a ``ValueError``) it also is."""

    def __init__(self, name: str, value: Any, allowed: str) -> None:
        message = f"-a {name} must be {allowed}, not {value!r}"
        super().__init__(message)
        self.code = f"scrapy-cx: {message}"


def site_urls(value: str) -> list[str]:
    """``site=``'s URLs (comma-separated): http(s), with a host, no user or password."""
    sites = [s.strip() for s in value.split(",") if s.strip()]
    for site in sites:
        try:
            parts = urlsplit(site)
            usable = (
                parts.scheme in ("http", "https")
                and bool(parts.hostname)
                and parts.username is None
                and (parts.port or 1) > 0
            )
        except ValueError:
            usable = False
        if not usable:
            raise ArgumentError(
                "site", value, "http(s) URLs with a host and no user:password (comma-separated)"
            )
    if not sites:
        raise ArgumentError("site", value, "one or more http(s) URLs")
    return sites


def check_bound(name: str, value: Any) -> int:
    """A bound given as ``-a max_listing_pages=3``: a whole number, at least its minimum."""
    least = BOUND_MINIMUMS[name]
    try:
        number = int(str(value).strip())
    except ValueError:
        number = least - 1
    if number < least:
        raise ArgumentError(name, value, f"a whole number >= {least}")
    return number


def check_arguments(given: dict[str, Any]) -> None:
    """Raise :class:`ArgumentError` for the first bad argument of ``given`` (the
    spider's keyword arguments as ``scrapy crawl -a`` passes them: strings)."""
    chosen = [name for name in ("site", "urls", "dir", "start_url") if given.get(name)]
    if len(chosen) > 1:
        raise ArgumentError(
            chosen[1],
            given[chosen[1]],
            f"given alone (one of site, urls, dir, start_url: {chosen[0]} is given too)",
        )
    if given.get("site"):
        site_urls(str(given["site"]))
    urls = given.get("urls")
    if urls and not Path(str(urls)).expanduser().is_file():
        raise ArgumentError("urls", urls, "a text file of URLs, one a line")
    folder = given.get("dir")
    if folder and not Path(str(folder)).expanduser().is_dir():
        raise ArgumentError("dir", folder, "a folder of saved *.html / *.htm pages")
    start = given.get("start_url")
    if start and urlsplit(str(start)).scheme not in ("http", "https", "file"):
        raise ArgumentError("start_url", start, "an http(s) or file: URL")
    follow = given.get("follow")
    if follow is not None and not isinstance(follow, bool):
        if str(follow).strip().lower() not in FLAGS:
            raise ArgumentError("follow", follow, "1 or 0 (yes/no, true/false, on/off)")
    depth = given.get("depth")
    if depth is not None:
        try:
            ok = int(str(depth).strip()) >= 0
        except ValueError:
            ok = False
        if not ok:
            raise ArgumentError("depth", depth, "a whole number >= 0")
    since = given.get("since")
    try:
        parse_since(since)
    except ValueError:
        raise ArgumentError(
            "since", since, "a date (2024-05-01), an ISO 8601 time or a duration (2d, 12h, 1w, 30m)"
        ) from None
    for name in BOUND_MINIMUMS:
        if given.get(name) is not None:
            check_bound(name, given[name])


def article_spider_arguments(
    given: dict[str, Any], site: str | None, urls: str | None
) -> tuple[str | None, str | None, list[str]]:
    """zyte-spider-templates' ArticleSpider arguments as ours: ``(site, urls, pages)``.

    ``given`` (the spider's other keyword arguments) loses ``url``, ``crawl_strategy``
    and ``incremental``. ``url=`` and ``urls=`` that are URLs (not a file: ours) are
    a site crawl (``site=``) under ``crawl_strategy=full``, the default, and the
    pages to extract (``pages``, as ``start_url=``) under ``direct_item``.
    ``incremental=true`` is refused, naming ours: ``-s JOBDIR=DIR``.
    """
    strategy = str(given.pop("crawl_strategy", None) or "full").strip().lower()
    if strategy not in CRAWL_STRATEGIES:
        raise ArgumentError("crawl_strategy", strategy, f"one of {', '.join(CRAWL_STRATEGIES)}")
    incremental = given.pop("incremental", None)
    if incremental is not None and flag(incremental):
        raise ArgumentError(
            "incremental", incremental, "left out: -s JOBDIR=DIR skips what earlier runs exported"
        )
    url = given.pop("url", None)
    listed = [url] if url else []
    if urls and not Path(str(urls)).expanduser().is_file():
        words = str(urls).replace(",", " ").split()
        if words and all(urlsplit(word).scheme in ("http", "https") for word in words):
            listed, urls = listed + words, None
    if not listed:
        return site, urls, []
    if strategy == "direct_item":
        return site, urls, listed
    if site:
        raise ArgumentError("url", listed[0], "given alone (site is given too)")
    return ",".join(listed), urls, []
