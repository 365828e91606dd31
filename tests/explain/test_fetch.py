"""Fetching a page for ``scrapy-cx explain``: bounded in time and size, real HTTP on 127.0.0.1."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest

from scrapy_cx.explain._fetch import FetchError, fetch, is_url

from ..support.server import Route, serve

TIMEOUT = 0.5  # seconds given to fetch() in the slow-server test
BODY = b"<html><body><p>" + b"word " * 200 + b"</p></body></html>"


def test_url_or_path() -> None:
    assert is_url("https://example.org/a") and is_url("HTTP://example.org")
    assert not is_url("page.html") and not is_url("file:///tmp/page.html")


def test_fetch_keeps_bytes_charset_and_final_url() -> None:
    routes = {
        "/a": Route(BODY, headers={"Content-Type": "text/html; charset=gb2312"}),
        "/old": Route(b"", status=301, headers={"Location": "/a"}),
    }
    with serve(routes) as (base, _hits):
        page = fetch(f"{base}/old")
    assert page.body == BODY and page.encoding == "gb2312"
    assert page.source == f"{base}/old" and page.url == f"{base}/a"


def test_fetch_refuses_a_body_past_the_limit() -> None:
    with serve({"/big": Route(BODY)}) as (base, _hits):
        assert fetch(f"{base}/big", max_bytes=len(BODY)).body == BODY
        with pytest.raises(FetchError, match=f"{base}/big: page larger than 100 bytes"):
            fetch(f"{base}/big", max_bytes=100)


def test_fetch_gives_up_on_a_silent_server() -> None:
    release = threading.Event()

    def silent(handler: BaseHTTPRequestHandler) -> None:
        release.wait(10)

    with serve({"/slow": silent}) as (base, _hits):
        started = time.monotonic()
        with pytest.raises(FetchError, match=f"{base}/slow: .*timed out"):
            fetch(f"{base}/slow", timeout=TIMEOUT)
        release.set()
    assert time.monotonic() - started < 10 * TIMEOUT


def test_fetch_bounds_the_whole_fetch_not_each_read() -> None:
    # A byte every tenth of a second never lets one read time out: the fetch as a
    # whole must still end at its timeout.
    def trickle(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.end_headers()
        for _ in range(100):
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.1)

    with serve({"/trickle": trickle}) as (base, _hits):
        started = time.monotonic()
        with pytest.raises(FetchError, match=f"{base}/trickle: .*timed out"):
            fetch(f"{base}/trickle", timeout=1.0)
        assert time.monotonic() - started < 3


def test_fetch_says_why_it_failed() -> None:
    with serve({}) as (base, _hits):
        with pytest.raises(FetchError, match="HTTP 404"):
            fetch(f"{base}/missing")
    with pytest.raises(FetchError, match="http://127.0.0.1:9/"):
        fetch("http://127.0.0.1:9/", timeout=TIMEOUT)  # discard port: nothing listens
