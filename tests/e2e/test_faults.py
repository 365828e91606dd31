"""A crawl under network faults: it finishes, keeps every good page, counts every failure.

A real ``scrapy crawl news -a urls=FILE`` (the example project, add-on enabled)
runs against a local server whose routes misbehave the way real servers do:
no answer (timeout), a reset connection, 5xx, a body cut before its
Content-Length, gzip that is not gzip, HTML labelled gzip, and slow bodies
(one within DOWNLOAD_TIMEOUT, one beyond it). The good pages are interleaved
with the faults, so a fault that stalled or killed the crawl would lose them.

Every good page must give exactly one complete item; every fault must be
counted, under ``cx/`` or in Scrapy's own stats, with its reason.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.support.crawl import EXAMPLE_PROJECT, run_crawl
from tests.support.server import Route, serve

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

TIMEOUT = 2  # DOWNLOAD_TIMEOUT, seconds
SETTINGS = {
    "DOWNLOAD_TIMEOUT": str(TIMEOUT),
    "RETRY_TIMES": "1",
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "32",
    "CONCURRENT_REQUESTS": "32",
    "ROBOTSTXT_OBEY": "False",
}
TOPICS = ("budget", "harbour", "election", "bridge", "museum", "floods", "rail", "schools")


def article(i: int, town: str = "Ashcombe") -> tuple[str, bytes]:
    """A good article page: its headline and its bytes."""
    topic = TOPICS[i % len(TOPICS)]
    title = f"Council approves the {topic} plan after a long debate, number {i}"
    paragraphs = "".join(
        f"<p>Paragraph {j} of story {i}: the council of {town} approved the {topic} plan "
        f"on Tuesday evening after a debate that lasted more than four hours, and the mayor "
        f"said work would start in the spring.</p>"
        for j in range(5)
    )
    html = (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title} | Ashcombe Gazette</title>"
        f"<meta property='article:published_time' content='2024-03-{10 + i % 18:02d}T09:00:00Z'>"
        f"</head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>{title}</h1>{paragraphs}</article>"
        f"<footer>Copyright Ashcombe Gazette</footer></body></html>"
    )
    return title, html.encode("utf-8")


# --- misbehaving routes (each runs in the server's handler thread) ---------------------

Handler = Callable[[BaseHTTPRequestHandler], None]


def no_answer(handler: BaseHTTPRequestHandler) -> None:
    """Read the request, then say nothing until the client has given up."""
    time.sleep(TIMEOUT + 1.5)
    handler.close_connection = True


def reset(handler: BaseHTTPRequestHandler) -> None:
    """Abort the connection: SO_LINGER 0 makes close() send a TCP RST."""
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.close_connection = True
    handler.connection.close()  # now, before http.server's polite shutdown(SHUT_WR)


def headers_then_reset(handler: BaseHTTPRequestHandler) -> None:
    """Status and headers, half a body, then a TCP RST."""
    _, body = article(99)
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body[: len(body) // 2])
    handler.wfile.flush()
    reset(handler)


def truncated(handler: BaseHTTPRequestHandler) -> None:
    """A Content-Length the body never reaches, then a clean close."""
    _, body = article(98)
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(len(body) + 5000))
    handler.end_headers()
    handler.wfile.write(body)
    handler.close_connection = True


def raw(status: int, headers: dict[str, str], body: bytes) -> Handler:
    def send(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return send


def slow(body: bytes, seconds: float, pieces: int = 10) -> Handler:
    """Headers at once, then the body in ``pieces`` spread over ``seconds``."""

    def send(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        step = len(body) // pieces + 1
        try:
            for start in range(0, len(body), step):
                handler.wfile.write(body[start : start + step])
                handler.wfile.flush()
                time.sleep(seconds / pieces)
        except OSError:  # the client gave up: that is the point of the slowest route
            handler.close_connection = True

    return send


GARBAGE = bytes((i * 131 + 7) % 256 for i in range(3000))


def fault_routes() -> dict[str, Route | Handler]:
    _, good = article(97)
    return {
        "/fault/timeout": no_answer,
        "/fault/reset": reset,
        "/fault/reset-mid-body": headers_then_reset,
        "/fault/truncated": truncated,
        "/fault/500": Route(b"<html><body><h1>Internal error</h1></body></html>", status=500),
        "/fault/503": Route(b"<html><body><h1>Busy</h1></body></html>", status=503),
        "/fault/gzip-garbage": raw(
            200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}, GARBAGE
        ),
        "/fault/gzip-plain-html": raw(
            200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}, good
        ),
        "/fault/too-slow": slow(good, seconds=TIMEOUT + 2, pieces=8),
    }


TIMED_OUT = ("/fault/timeout", "/fault/too-slow")
CUT_OFF = ("/fault/reset", "/fault/reset-mid-body", "/fault/truncated")
SERVER_ERRORS = ("/fault/500", "/fault/503")
NOT_DECOMPRESSED = ("/fault/gzip-garbage", "/fault/gzip-plain-html")


def hostile_routes() -> tuple[dict[str, Route], dict[str, tuple[str, bytes]]]:
    """Hostile pages served correctly: ``(routes, the good ones among them)``."""
    html = {"Content-Type": "text/html"}
    good: dict[str, tuple[str, bytes]] = {}
    title, body = article(60)
    deep = body.replace(b"<body>", b"<body>" + b"<div>" * 100_000).replace(
        b"</body>", b"</div>" * 100_000 + b"</body>"
    )
    good["/hostile/deep"] = (title, deep)
    title, body = article(61)
    good["/hostile/nul"] = (title, body.replace(b"</p>", b"</p>\x00\x00"))
    title, body = article(62, town="Besançon")
    good["/hostile/wrong-charset"] = (title, body.replace(b"utf-8", b"iso-8859-1"))
    title, body = article(64)  # read up to extract.parse.lines.MAX_LINES (10 000): truncated
    lines = b"<div>" + b"line<br>" * 30_000 + b"</div>"
    good["/hostile/lines"] = (title, body.replace(b"</footer>", b"</footer>" + lines))
    routes = {path: Route(body, headers=html) for path, (_, body) in good.items()}
    pdf = b"%PDF-1.7\n" + bytes((i * 73 + 41) % 256 for i in range(20_000)) + b"\n%%EOF\n"
    routes["/hostile/empty"] = Route(b"", headers=html)
    routes["/hostile/pdf"] = Route(pdf, headers=html)
    _, body = article(63)
    big = body.replace(b"</footer>", b"</footer>" + b"<a href='/x'>more</a>" * 300_000)
    routes["/hostile/too-large"] = Route(big, headers=html)  # over CX_MAX_BODY_SIZE (5 MB)
    return routes, good


SKIPPED = {"status": 2, "empty": 1, "binary": 1, "too_large": 1}
STAT = re.compile(r"'([^']+)': (\d+)")


def scrapy_stats(log: str) -> dict[str, int]:
    """Every integer counter of the stats dump at the end of a Scrapy log."""
    dump = log.rsplit("Dumping Scrapy stats:", 1)
    assert len(dump) == 2, "no stats dump in the log:\n" + log[-3000:]
    body = dump[1][dump[1].index("{") :]
    body = body[: body.index("}\n") + 1]
    return {key: int(value) for key, value in STAT.findall(body)}


def failures(stats: dict[str, int], prefix: str) -> dict[str, int]:
    return {k[len(prefix) :]: v for k, v in stats.items() if k.startswith(prefix)}


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    good = {f"/story/{i}": article(i) for i in range(12)}
    routes: dict[str, Route | Handler] = {}
    faults = fault_routes()
    fault_paths = list(faults)
    # Good pages between faults, and a page that is good but slow (within the timeout).
    for i, (path, (_, body)) in enumerate(good.items()):
        routes[path] = Route(body, headers={"Content-Type": "text/html; charset=utf-8"})
        if i < len(fault_paths):
            routes[fault_paths[i]] = faults[fault_paths[i]]
    slow_title, slow_body = article(50)
    routes["/story/slow"] = slow(slow_body, seconds=TIMEOUT * 0.5, pieces=5)
    good["/story/slow"] = (slow_title, slow_body)
    gz_title, gz_body = article(51)
    routes["/story/gzip"] = raw(
        200,
        {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"},
        gzip.compress(gz_body),
    )
    good["/story/gzip"] = (gz_title, gz_body)
    more, hostile_good = hostile_routes()
    routes.update(more)
    good.update(hostile_good)

    tmp = tmp_path_factory.mktemp("faults")
    with serve(routes) as (base, hits):
        url_file = tmp / "urls.txt"
        url_file.write_text("\n".join(base + path for path in routes) + "\n", encoding="utf-8")
        started = time.monotonic()
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"], tmp / "items.jsonl", settings=SETTINGS, timeout=120
        )
        elapsed = time.monotonic() - started
        hit_counts = dict(hits)
    return {
        "proc": proc,
        "items": items,
        "base": base,
        "good": good,
        "hits": hit_counts,
        "elapsed": elapsed,
        "stats": scrapy_stats(proc.stderr),
    }


def test_the_crawl_finishes_in_bounded_time(crawl: dict[str, object]) -> None:
    proc = crawl["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]  # type: ignore[attr-defined]
    assert "finish_reason': 'finished'" in proc.stderr  # type: ignore[attr-defined]
    assert crawl["elapsed"] < 60  # generous: DOWNLOAD_TIMEOUT is 2 s, one retry


def test_every_good_page_gives_exactly_one_complete_item(crawl: dict[str, object]) -> None:
    base: str = crawl["base"]  # type: ignore[assignment]
    good: dict[str, tuple[str, bytes]] = crawl["good"]  # type: ignore[assignment]
    items: list[dict[str, object]] = crawl["items"]  # type: ignore[assignment]
    urls = Counter(str(item["url"]) for item in items)
    assert urls == Counter(base + path for path in good)
    for item in items:
        title, _ = good[str(item["url"])[len(base) :]]
        assert item["title"] == title
        content = str(item["content"])
        assert content.count("\n") == 4 and content.startswith("Paragraph 0 of story")
        assert str(item["published"]).startswith("2024-03-")
    stats: dict[str, int] = crawl["stats"]  # type: ignore[assignment]
    assert stats.get("cx/articles") == len(good)
    assert stats.get("cx/errors", 0) == 0


def test_retried_faults_were_retried(crawl: dict[str, object]) -> None:
    hits: dict[str, int] = crawl["hits"]  # type: ignore[assignment]
    for path in TIMED_OUT + SERVER_ERRORS:
        assert hits.get(path) == 2, (path, hits.get(path))  # RETRY_TIMES=1
    for path in CUT_OFF:
        # Twisted itself repeats a GET once when a reused keep-alive connection
        # drops before the answer, so a cut-off route may see 3 or 4 requests.
        assert 2 <= hits.get(path, 0) <= 4, (path, hits.get(path))
    for path in crawl["good"]:  # type: ignore[attr-defined]
        assert hits.get(path) == 1, path


def test_every_network_failure_is_counted_with_its_reason(crawl: dict[str, object]) -> None:
    stats: dict[str, int] = crawl["stats"]  # type: ignore[assignment]
    exceptions = failures(stats, "downloader/exception_type_count/")
    # Exception class names differ across Scrapy/Twisted versions
    # (DownloadTimeoutError / TimeoutError, ResponseDataLossError / _DataLoss ...).
    timeouts = sum(n for name, n in exceptions.items() if "Timeout" in name)
    assert timeouts == 2 * len(TIMED_OUT), exceptions  # the try and its retry
    assert sum(exceptions.values()) == 2 * (len(TIMED_OUT) + len(CUT_OFF)), exceptions
    assert stats.get("downloader/exception_count") == sum(exceptions.values())
    # Each of those, and each 5xx, retried once and then given up, with a reason.
    gave_up = len(TIMED_OUT) + len(CUT_OFF) + len(SERVER_ERRORS)
    assert stats.get("retry/max_reached") == gave_up
    assert sum(failures(stats, "retry/reason_count/").values()) == gave_up


def test_server_errors_are_counted_by_scrapy_and_scrapy_cx(crawl: dict[str, object]) -> None:
    stats: dict[str, int] = crawl["stats"]  # type: ignore[assignment]
    assert stats.get("downloader/response_status_count/500") == 2
    assert stats.get("downloader/response_status_count/503") == 2
    ignored = failures(stats, "httperror/response_ignored_status_count/")
    assert ignored == {"500": 1, "503": 1}
    # The final 5xx responses reach scrapy-cx, which says why it did not extract them,
    # as it does for an empty body, a PDF served as HTML and a page over CX_MAX_BODY_SIZE.
    assert failures(stats, "cx/skipped/") == SKIPPED
    assert stats.get("cx/pages") == len(crawl["good"])  # type: ignore[arg-type]


def test_bodies_that_fail_to_decompress_are_counted(crawl: dict[str, object]) -> None:
    stats: dict[str, int] = crawl["stats"]  # type: ignore[assignment]
    assert stats.get("httpcompression/response_count") == 1  # only the real gzip page
    counted = {k: n for k, n in stats.items() if "BadGzipFile" in k or "decompress" in k.lower()}
    assert sum(counted.values()) == len(NOT_DECOMPRESSED), stats


def test_the_log_names_every_failed_url_and_no_good_one(crawl: dict[str, object]) -> None:
    log: str = crawl["proc"].stderr  # type: ignore[attr-defined]
    base: str = crawl["base"]  # type: ignore[assignment]
    errors = [line for line in log.splitlines() if " ERROR: " in line]
    for path in TIMED_OUT + CUT_OFF + SERVER_ERRORS + NOT_DECOMPRESSED:
        assert any(f"<GET {base}{path}>" in line for line in errors), path
    for path in crawl["good"]:  # type: ignore[attr-defined]
        assert not any(f"<GET {base}{path}>" in line for line in errors), path
    assert "scrapy-cx: extraction failed" not in log


def test_hostile_pages_in_the_crawl(crawl: dict[str, object]) -> None:
    base: str = crawl["base"]  # type: ignore[assignment]
    items = {str(item["url"]): item for item in crawl["items"]}  # type: ignore[attr-defined]
    # 100 000 nested divs, NUL bytes, a wrong <meta charset>: each still one full article.
    for path in ("/hostile/deep", "/hostile/nul", "/hostile/wrong-charset"):
        assert str(items[base + path]["content"]).count("\n") == 4, path
    assert "\x00" not in str(items[base + "/hostile/nul"]["content"])
    assert "council of Besançon approved" in str(items[base + "/hostile/wrong-charset"]["content"])
    for path in ("/hostile/empty", "/hostile/pdf", "/hostile/too-large"):
        assert base + path not in items
    # 30 000 lines: read to the walk's budget, the article kept, marked, counted, logged.
    assert [url for url, item in items.items() if item["truncated"]] == [base + "/hostile/lines"]
    stats: dict[str, int] = crawl["stats"]  # type: ignore[assignment]
    assert stats.get("cx/truncated") == 1
    log: str = crawl["proc"].stderr  # type: ignore[attr-defined]
    assert f"too big to read whole, extracted from its start: {base}/hostile/lines" in log


def test_slow_page_within_the_timeout_is_kept(crawl: dict[str, object]) -> None:
    base: str = crawl["base"]  # type: ignore[assignment]
    urls = {str(item["url"]) for item in crawl["items"]}  # type: ignore[attr-defined]
    assert f"{base}/story/slow" in urls
    assert f"{base}/story/gzip" in urls


# --- an extraction that raises inside Scrapy ----------------------------------------------

RAISING_CRAWL = r"""
import json, sys
from scrapy import Spider
from scrapy.crawler import CrawlerProcess
from scrapy.utils.project import get_project_settings

import scrapy_cx.middleware
from scrapy_cx.extract import extract_article

def extract(html, url=None, **kwargs):
    if url.endswith("/boom"):
        raise RuntimeError("synthetic extractor bug")
    return extract_article(html, url, **kwargs)

# What a bug in the core would do: the middleware's extractor raises for one page.
scrapy_cx.middleware.ArticleMiddleware.extract = staticmethod(extract)

class Probe(Spider):
    name = "probe"
    start_urls = sys.argv[1:-1]
    def parse(self, response):
        self.logger.info("SPIDER-SAW %s", json.dumps(
            {"url": response.url, "skipped": response.meta.get("cx_skipped"),
             "article": response.meta.get("cx_article") is not None}))
        yield {"url": response.url}

settings = get_project_settings()
# In the reactor thread: a worker process could not import this script's extract().
settings.setdict({"CX_WORKERS": 0, "DOWNLOAD_DELAY": 0, "AUTOTHROTTLE_ENABLED": False,
                  "ROBOTSTXT_OBEY": False, "FEEDS": {sys.argv[-1]: {"format": "jsonlines"}}},
                 priority="cmdline")
process = CrawlerProcess(settings)
process.crawl(Probe)
process.start()
"""


def test_an_extraction_that_raises_is_logged_once_counted_and_reaches_the_spider(
    tmp_path: Path,
) -> None:
    pages = {f"/story/{i}": article(i)[1] for i in range(3)}
    pages["/boom"] = article(7)[1]
    routes = {
        p: Route(b, headers={"Content-Type": "text/html; charset=utf-8"}) for p, b in pages.items()
    }
    with serve(routes) as (base, _hits):
        output = tmp_path / "items.jsonl"
        proc = subprocess.run(
            [sys.executable, "-c", RAISING_CRAWL, *(base + p for p in pages), str(output)],
            cwd=EXAMPLE_PROJECT,
            env=dict(os.environ, SCRAPY_SETTINGS_MODULE="news.settings", PYTHONUNBUFFERED="1"),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    boom = f"{base}/boom"
    # Logged once, with the URL and the traceback that explains it.
    failed = [line for line in log.splitlines() if "scrapy-cx: extraction failed" in line]
    assert failed == [line for line in failed if boom in line] and len(failed) == 1, failed
    assert log.count("RuntimeError: synthetic extractor bug") == 1
    # Counted.
    stats = scrapy_stats(log)
    assert stats.get("cx/errors") == 1
    assert stats.get("cx/pages") == 3
    # The response still reached the spider, marked as not extracted; the others extracted.
    saw = {
        d["url"]: d
        for d in (
            json.loads(line.split("SPIDER-SAW ", 1)[1])
            for line in log.splitlines()
            if "SPIDER-SAW " in line
        )
    }
    assert set(saw) == {base + p for p in pages}
    assert saw[boom]["skipped"] == "error" and not saw[boom]["article"]
    assert all(d["article"] for url, d in saw.items() if url != boom)
    # The other pages' articles were exported; the failed page's bare item was not.
    exported = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert sorted(item["url"] for item in exported) == sorted(
        base + f"/story/{i}" for i in range(3)
    )
