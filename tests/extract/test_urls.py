"""join_url gives urljoin's answer, on the common cases it takes itself and on the rest;
http_url lets out only absolute http(s) addresses, read as a browser reads them."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from urllib.parse import urljoin

import pytest

from scrapy_cx.extract._urls import absolute_url, http_url, join_url, with_root_path

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


PAGE = "https://town.test/news/bridge"
# Addresses no output may hold: other schemes in any case, behind spaces or controls, or
# split by a tab or newline (a browser removes those anywhere in a URL, WHATWG URL).
HOSTILE = [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "\x01\x1fjavascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "\tjava\r\nscript:alert(1)\n",
    "jAvAsCrIpT:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "DATA:image/png;base64,iVBORw0KGgo=",
    "vbscript:msgbox(1)",
    "VBScript:msgbox(1)",
    "file:///etc/passwd",
    "mailto:editor@town.test",
    "tel:+15550100",
    "ftp://files.town.test/pub/x.jpg",
    "FTP://files.town.test/pub/x.jpg",
]
# Ordinary links, and what they come out as.
ORDINARY = [
    ("/news/other", "https://town.test/news/other"),
    ("other.html", "https://town.test/news/other.html"),
    ("../sport/x?id=2#c", "https://town.test/sport/x?id=2#c"),
    ("https://other.test/a/b", "https://other.test/a/b"),
    ("http://other.test/a", "http://other.test/a"),
    ("//cdn.town.test/x.jpg", "https://cdn.town.test/x.jpg"),
    (" /news/other\n", "https://town.test/news/other"),
    ("\u00a0/news/other\u3000", "https://town.test/news/other"),
    ("HTTP://Other.test/A", "http://Other.test/A"),
    ("Https://other.test/a", "https://other.test/a"),
    ("ht\ttps://other.test/a", "https://other.test/a"),
    ("/news/ot\nher", "https://town.test/news/other"),
]


@pytest.mark.parametrize("url", HOSTILE)
@pytest.mark.parametrize("base", [PAGE, "http://town.test/", None])
def test_http_url_lets_out_no_other_scheme(base: str | None, url: str) -> None:
    assert http_url(base, url) is None


@pytest.mark.parametrize(("url", "expected"), ORDINARY)
def test_http_url_reads_links_as_a_browser(url: str, expected: str) -> None:
    assert http_url(PAGE, url) == expected


def test_http_url_needs_an_http_base_for_a_relative_link() -> None:
    assert http_url(None, "/news/other") is None
    assert http_url(None, "//cdn.town.test/x.jpg") is None  # no scheme to take
    assert http_url("file:///home/me/page.html", "other.html") is None
    assert http_url("http://town.test/a", "//cdn.town.test/x.jpg") == "http://cdn.town.test/x.jpg"
    assert http_url(PAGE, "https://[bad/x") is None  # urljoin's ValueError
    assert http_url(None, "http://") is None  # no host
    assert http_url(None, "HTTPS:///path") is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://town.test", "https://town.test/"),
        ("https://town.test?id=3", "https://town.test/?id=3"),
        ("https://town.test:8080#top", "https://town.test:8080/#top"),
        ("http://town.test/", "http://town.test/"),
        ("http://town.test/a?b=//c", "http://town.test/a?b=//c"),
        (
            "https://go.town.test/?id=1&url=https://x.test",
            "https://go.town.test/?id=1&url=https://x.test",
        ),
    ],
)
def test_an_empty_path_is_written_as_a_browser_writes_it(url: str, expected: str) -> None:
    assert with_root_path(url) == expected
