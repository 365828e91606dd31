"""join_url gives urljoin's answer, on the common cases it takes itself and on the rest."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from urllib.parse import urljoin

import pytest

from scrapy_cx.extract._urls import absolute_url, join_url

BASES = [
    "https://example.com/news/2020/story.html?x=1#top",
    "http://user@example.com:8080/a/b/",
    "HTTPS://Example.com",
    "http:/no-host",
    "ftp://example.com/pub/",
    "https://example.com/a;params/b",
]
URLS = [
    "/news/other.html",
    "/news/other.html?id=2#comments",
    "/",
    "//cdn.example.com/x.jpg",
    "https://other.org/a/b?c=d",
    "http://other.org",
    "https://",
    "http:///path",
    "HTTP://Other.org/x",
    "/a/./b/../c",
    "/.well-known/x",
    "/a;b",
    "/a?",
    "/a#",
    "/a?#f",
    "/a\tb",
    "/caf\u00e9",
    "story.html",
    "../up.html",
    "?page=2",
    "#section",
    "javascript:void(0)",
    "mailto:x@example.com",
    "https://[::1]/x",
    "https://[bad/x",
    "",
]


def _answer(function: Callable[[str, str], str], base: str, url: str) -> object:
    try:
        return function(base, url)
    except ValueError as error:
        return ("ValueError", str(error))


@pytest.mark.parametrize(("base", "url"), list(product(BASES, URLS)))
def test_join_url_is_urljoin(base: str, url: str) -> None:
    assert _answer(join_url, base, url) == _answer(urljoin, base, url)


def test_no_base_keeps_the_url() -> None:
    assert join_url(None, "/a") == "/a"
    assert join_url("", "/a") == "/a"


def test_absolute_url_is_none_where_urljoin_fails() -> None:
    # An unclosed IPv6 bracket: urljoin raises; the address is left out instead.
    assert absolute_url("https://example.com/a", "http://[::1") is None
    assert absolute_url(None, "http://[::1") == "http://[::1"  # nothing to resolve
    assert absolute_url("https://example.com/a/b", "c") == "https://example.com/a/c"
