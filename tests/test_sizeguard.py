"""SizeGuardMiddleware on its own: measure, never keep; count and drop what passes the limit."""

from __future__ import annotations

import gzip
import importlib.util
import zlib

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse

from scrapy_cx.body._inflate import decoded_size_over, inflate
from scrapy_cx.sizeguard import SizeGuardMiddleware
from tests.crawler import make_crawler

URL = "http://news.test/a.html"
LIMIT = 100_000


def guard(**settings: object) -> SizeGuardMiddleware:
    return SizeGuardMiddleware.from_crawler(
        make_crawler(settings={"DOWNLOAD_MAXSIZE": LIMIT, **settings})
    )


def response(body: bytes, coding: str | None, meta: dict[str, int] | None = None) -> HtmlResponse:
    headers = {"Content-Type": "text/html"}
    if coding:
        headers["Content-Encoding"] = coding
    request = Request(URL, meta=meta or {})
    return HtmlResponse(URL, body=body, headers=headers, request=request)


def skipped(mw: SizeGuardMiddleware) -> int:
    stats = mw.stats._crawler.stats
    assert stats is not None
    return int(stats.get_value("cx/skipped/too_large", 0))


#: br only where a brotli module is installed (Scrapy's optional dependency).
CODINGS = ["gzip", "x-gzip", "deflate"] + (["br"] if importlib.util.find_spec("brotli") else [])


@pytest.mark.parametrize("coding", CODINGS)
def test_a_body_that_inflates_past_the_limit_is_dropped_and_counted(
    coding: str, caplog: pytest.LogCaptureFixture
) -> None:
    payload = b" " * (LIMIT + 1)
    if coding == "br":
        import brotli

        body = brotli.compress(payload)
    elif coding == "deflate":
        body = zlib.compress(payload)
    else:
        body = gzip.compress(payload)
    mw = guard()
    with pytest.raises(IgnoreRequest):
        mw.process_response(Request(URL), response(body, coding))
    assert skipped(mw) == 1
    assert [r.getMessage() for r in caplog.records if URL in r.getMessage()] == [
        f"scrapy-cx: skipped {URL} decompresses to more than DOWNLOAD_MAXSIZE ({LIMIT} bytes)"
    ]


def test_a_body_that_fits_is_handed_on_untouched() -> None:
    mw = guard()
    fits = response(gzip.compress(b"<p>x</p>" * 100), "gzip")
    assert mw.process_response(fits.request, fits) is fits
    plain = response(b"<p>x</p>" * 20_000, None)  # over the limit but not compressed: Scrapy's
    assert mw.process_response(plain.request, plain) is plain
    assert skipped(mw) == 0


def test_per_request_limit_and_unknown_encodings() -> None:
    mw = guard()
    body = gzip.compress(b" " * 5000)
    small = response(body, "gzip", meta={"download_maxsize": 1000})
    with pytest.raises(IgnoreRequest):
        mw.process_response(small.request, small)
    zstd = response(b"\x28\xb5\x2f\xfd" + b"x" * 100, "zstd")  # left to Scrapy's middleware
    assert mw.process_response(zstd.request, zstd) is zstd


def test_stacked_and_multi_member_encodings_are_measured_whole() -> None:
    twice = gzip.compress(gzip.compress(b" " * 6000))
    assert decoded_size_over(twice, ["gzip", "gzip"], 5000)
    assert not decoded_size_over(twice, ["gzip", "gzip"], 7000)
    members = gzip.compress(b"a" * 3000) + gzip.compress(b"b" * 3000)
    assert decoded_size_over(members, ["gzip"], 5000)
    assert inflate(members, "gzip", 0) == b"a" * 3000 + b"b" * 3000


def test_a_download_cancelled_over_the_limit_is_counted_and_not_an_error() -> None:
    class CancelledError(Exception):  # Twisted's and Scrapy's share this name
        pass

    mw = guard()
    cancelled = CancelledError(
        "Received 30000000 bytes which is larger than download max size (20971520) "
        f"in request <GET {URL}>."
    )
    with pytest.raises(IgnoreRequest):
        mw.process_exception(Request(URL), cancelled)
    assert mw.process_exception(Request(URL), CancelledError("timeout")) is None
    assert skipped(mw) == 1


def test_off_with_cx_enabled_false() -> None:
    with pytest.raises(NotConfigured):
        SizeGuardMiddleware.from_crawler(make_crawler(settings={"CX_ENABLED": False}))
