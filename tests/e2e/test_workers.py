"""Real crawls and bulk runs with extraction in worker processes.

A real ``scrapy crawl news -a urls=FILE`` against a local server, on the
default Twisted reactor and on the asyncio one, with an extractor that hangs
on one page and kills its process on another (``tests/support/faulty.py``):
every good page must still give its article, the two bad ones pass on counted
(``cx/skipped/timeout``, ``cx/skipped/worker_died``), workers are recycled,
and when the crawl ends, or is stopped by SIGTERM, no worker is left. The same
for ``scrapy-cx extract -j 2`` stopped by SIGTERM.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.e2e.test_faults import article, scrapy_stats
from tests.support.crawl import EXAMPLE_PROJECT, run_crawl
from tests.support.faulty import SLOW_SECONDS, STALL_SECONDS
from tests.support.procs import alive, descendants
from tests.support.server import Handler, Route, serve

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

REPO = Path(__file__).resolve().parents[2]
GOOD = 30
PAGE_TIMEOUT = 5
SETTINGS = {
    "CX_WORKERS": "2",
    "CX_PAGE_TIMEOUT": str(PAGE_TIMEOUT),
    "CX_WORKER_MAX_PAGES": "7",
    "DOWNLOADER_MIDDLEWARES": json.dumps(
        {"scrapy_cx.ArticleMiddleware": None, "tests.support.faulty.FaultyMiddleware": 540}
    ),
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
    "ROBOTSTXT_OBEY": "False",
}
REACTORS = {
    "twisted": "twisted.internet.selectreactor.SelectReactor",
    "asyncio": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
}
HTML = {"Content-Type": "text/html; charset=utf-8"}


def routes() -> tuple[dict[str, Route], dict[str, str]]:
    """Good pages with the hanging and the dying page among them; ``path -> title``."""
    good = {f"/story/{i}": article(i) for i in range(GOOD)}
    served = {path: Route(body, headers=HTML) for path, (_, body) in good.items()}
    served["/story/hang"] = Route(article(90)[1], headers=HTML)
    served["/story/die"] = Route(article(91)[1], headers=HTML)
    order = sorted(served, key=lambda p: (hash(p) % 7, p))  # the bad ones among the good
    return {p: served[p] for p in order}, {p: title for p, (title, _) in good.items()}


@pytest.mark.parametrize("reactor", sorted(REACTORS))
def test_crawl_with_workers_survives_a_hanging_and_a_dying_page(
    reactor: str, tmp_path: Path
) -> None:
    served, titles = routes()
    with serve(served) as (base, _hits):
        url_file = tmp_path / "urls.txt"
        url_file.write_text("\n".join(base + p for p in served) + "\n", encoding="utf-8")
        started = time.monotonic()
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"],
            tmp_path / "items.jsonl",
            # The warm fork server (the default; off in the other crawls of the tests) with
            # workers dying, timing out and recycled every 7 pages.
            settings={
                **SETTINGS,
                "TWISTED_REACTOR": REACTORS[reactor],
                "CX_WORKER_WARM_UP": "True",
            },
            env={"PYTHONPATH": str(REPO)},
            timeout=180,
        )
        elapsed = time.monotonic() - started
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    assert "2 extraction worker process(es)" in log
    # Every good page, once, with its own article.
    got = {str(item["url"]).removeprefix(base): item for item in items}
    summary = [line for line in log.splitlines() if "scrapy-cx" in line or "Error" in line]
    assert len(items) == len(got) == GOOD, "\n".join(summary)
    assert {p: got[p]["title"] for p in got} == titles
    # The two bad pages passed on, counted, each logged with its URL.
    stats = scrapy_stats(log)
    assert stats["cx/skipped/timeout"] == 1
    assert stats["cx/skipped/worker_died"] == 1
    assert stats["cx/pages"] == GOOD
    assert f"extraction of {base}/story/hang took over {PAGE_TIMEOUT} s" in log
    assert f"the worker died on {base}/story/die" in log
    assert "cx/errors" not in stats
    assert elapsed < 120  # the hang is 300 s: it was cut, not waited for


@pytest.mark.parametrize("reactor", sorted(REACTORS))
def test_a_crawl_whose_workers_cannot_start_stops_with_a_reason_and_exit_1(
    reactor: str, tmp_path: Path
) -> None:
    """Once three failed starts switched extraction off: every page then passed on
    without it, and the crawl ended ``finished``, exit 0, as if all was well."""
    served, _ = routes()
    with serve(served) as (base, _hits):
        url_file = tmp_path / "urls.txt"
        url_file.write_text("\n".join(base + p for p in served) + "\n", encoding="utf-8")
        middlewares = {
            "scrapy_cx.ArticleMiddleware": None,
            "tests.support.faulty.WorkersNeverStartMiddleware": 540,
        }
        started = time.monotonic()
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"],
            tmp_path / "items.jsonl",
            settings={
                **SETTINGS,
                "DOWNLOADER_MIDDLEWARES": json.dumps(middlewares),
                "TWISTED_REACTOR": REACTORS[reactor],
            },
            env={"PYTHONPATH": str(REPO)},
            timeout=180,
        )
        elapsed = time.monotonic() - started
    log = proc.stderr
    assert proc.returncode == 1, log[-3000:]
    assert not items
    stopping = [line for line in log.splitlines() if "stopping the crawl" in line]
    assert len(stopping) == 1, log[-3000:]
    assert "cx_workers_failed" in stopping[0] and "exit code 3" in stopping[0]
    assert "'finish_reason': 'cx_workers_failed'" in log
    stats = scrapy_stats(log)
    assert stats["cx/workers/start_failures"] >= 5
    assert "cx/pages" not in stats
    assert elapsed < 60  # given up after a bounded time (here 4 s of failed starts)


def test_a_reactor_stall_past_the_deadline_loses_no_article(tmp_path: Path) -> None:
    """A pipeline holds the reactor past CX_PAGE_TIMEOUT while the workers have pages in
    hand: once their finished extractions were taken for timeouts and lost."""
    good = {f"/story/slow-{i}": article(i) for i in range(GOOD)}
    served = {path: Route(body, headers=HTML) for path, (_, body) in good.items()}
    with serve(served) as (base, _hits):
        url_file = tmp_path / "urls.txt"
        url_file.write_text("\n".join(base + p for p in served) + "\n", encoding="utf-8")
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"],
            tmp_path / "items.jsonl",
            settings={
                **SETTINGS,
                "CX_PAGE_TIMEOUT": str(STALL_SECONDS - 1.5),
                "CX_WORKER_MAX_PAGES": "0",
                "ITEM_PIPELINES": json.dumps({"tests.support.faulty.StallingPipeline": 50}),
            },
            env={"PYTHONPATH": str(REPO)},
            timeout=180,
        )
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    stats = scrapy_stats(log)
    assert "cx/skipped/timeout" not in stats, log[-3000:]
    assert len(items) == GOOD and stats["cx/pages"] == GOOD


def test_an_extractor_slow_to_import_is_imported_before_the_first_deadline(
    tmp_path: Path,
) -> None:
    """A subclass's extractor whose module takes longer to import than a page may take:
    each new worker imported it while running its first page, which timed out (under
    load, a module importing Scrapy did this to the first page of every worker)."""
    pages = 6
    served = {f"/story/{i}": Route(article(i)[1], headers=HTML) for i in range(pages)}
    with serve(served) as (base, _hits):
        url_file = tmp_path / "urls.txt"
        url_file.write_text("\n".join(base + p for p in served) + "\n", encoding="utf-8")
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"],
            tmp_path / "items.jsonl",
            settings={
                **SETTINGS,
                "CX_PAGE_TIMEOUT": "2",  # the module takes 3 s to import
                "DOWNLOADER_MIDDLEWARES": json.dumps(
                    {
                        "scrapy_cx.ArticleMiddleware": None,
                        "tests.support.slow_import.SlowImportMiddleware": 540,
                    }
                ),
            },
            env={"PYTHONPATH": str(REPO)},
            timeout=180,
        )
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    stats = scrapy_stats(log)
    assert "cx/skipped/timeout" not in stats, log[-3000:]
    assert len(items) == pages and stats["cx/articles"] == pages


def test_a_stuck_redis_dedup_holds_neither_the_crawl_nor_the_deadlines(tmp_path: Path) -> None:
    """A Redis that takes connections and never answers: each duplicate check once held
    the reactor (for good: no timeout), now it waits in a thread, bounded, and the item
    goes on unchecked, counted."""
    pytest.importorskip("redis")  # (the Scrapy 2.11 leg of CI installs no Redis client)
    pages = 12
    good = {f"/story/slow-{i}": article(i) for i in range(pages)}
    served = {path: Route(body, headers=HTML) for path, (_, body) in good.items()}
    with socket.socket() as silent, serve(served) as (base, _hits):
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)  # connections complete in the kernel; nothing ever answers
        url_file = tmp_path / "urls.txt"
        url_file.write_text("\n".join(base + p for p in served) + "\n", encoding="utf-8")
        started = time.monotonic()
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"],
            tmp_path / "items.jsonl",
            settings={
                **SETTINGS,
                "CX_PAGE_TIMEOUT": "2",
                "CX_DEDUP": "True",
                "CX_REDIS_URL": f"redis://127.0.0.1:{silent.getsockname()[1]}/0",
            },
            env={"PYTHONPATH": str(REPO)},
            timeout=90,
        )
        elapsed = time.monotonic() - started
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    stats = scrapy_stats(log)
    assert "cx/skipped/timeout" not in stats, log[-3000:]
    assert len(items) == pages and stats["cx/dedup_errors"] == pages
    assert elapsed < 60


def test_a_slow_pool_slows_downloads_down(tmp_path: Path) -> None:
    """Pages waiting for their article still count against CONCURRENT_REQUESTS, so the
    crawl fetches no further ahead than that: memory stays bounded, whatever the pool."""
    pages, concurrency = 16, 4
    fetched: list[float] = []

    def timed(body: bytes) -> Handler:
        def send(handler: BaseHTTPRequestHandler) -> None:
            fetched.append(time.monotonic())
            handler.send_response(200)
            handler.send_header("Content-Type", "text/html; charset=utf-8")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)

        return send

    served: dict[str, Route | Handler] = {
        f"/story/slow-{i}": timed(article(i)[1]) for i in range(pages)
    }
    with serve(served) as (base, _hits):
        url_file = tmp_path / "urls.txt"
        url_file.write_text("\n".join(base + p for p in served) + "\n", encoding="utf-8")
        proc, items = run_crawl(
            ["-a", f"urls={url_file}"],
            tmp_path / "items.jsonl",
            settings={
                **SETTINGS,
                "CX_WORKERS": "1",
                "CONCURRENT_REQUESTS": str(concurrency),
                "CONCURRENT_REQUESTS_PER_DOMAIN": str(concurrency),
            },
            env={"PYTHONPATH": str(REPO)},
            timeout=180,
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(items) == pages
    # One worker, SLOW_SECONDS a page: the last fetch waits for the pages before it
    # to be extracted, all but the `concurrency` first ones at least.
    spread = max(fetched) - min(fetched)
    assert spread >= 0.8 * (pages - concurrency) * SLOW_SECONDS, fetched


def wait_for(predicate: Callable[[], object], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def sigterm(proc: subprocess.Popen[bytes], ready: Callable[[], object]) -> tuple[set[int], str]:
    """Once ``ready()``, SIGTERM ``proc``: its processes then, and its stderr."""
    try:
        wait_for(ready)
        time.sleep(0.5)  # the workers have pages in hand
        workers = descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return workers, err.decode("utf-8", "replace")


def test_sigterm_stops_a_crawl_and_leaves_no_worker(tmp_path: Path) -> None:
    served, _ = routes()
    with serve(served) as (base, hits):
        url_file = tmp_path / "urls.txt"
        # The hanging page first, so a worker is busy on it when the signal comes.
        urls = [base + "/story/hang"] + [base + p for p in served if p != "/story/hang"]
        url_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
        cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"urls={url_file}",
               "-O", str(tmp_path / "items.jsonl")]
        for name, value in {**SETTINGS, "CX_PAGE_TIMEOUT": "30"}.items():
            cmd += ["-s", f"{name}={value}"]
        env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
        proc = subprocess.Popen(
            cmd, cwd=EXAMPLE_PROJECT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        workers, log = sigterm(
            proc, lambda: hits.get("/story/hang") and len(descendants(proc.pid)) >= 2
        )
    assert "Received SIGTERM, shutting down gracefully" in log, log[-3000:]
    wait_for(lambda: not any(alive(pid) for pid in workers), 10)


def test_sigterm_stops_bulk_extraction_and_leaves_no_worker(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    # Enough pages that the run is still extracting when the signal comes (it is
    # sent as soon as the workers exist). Named pipes are skipped, not waited on.
    for i in range(3000):
        (pages / f"{i:04}.html").write_bytes(article(i % 20)[1])
    cmd = [sys.executable, "-m", "scrapy_cx", "extract", str(pages), "-j", "2",
           "-q", "-o", str(tmp_path / "out.jsonl")]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Three processes: the fork server and two workers.
    workers, log = sigterm(proc, lambda: len(descendants(proc.pid)) >= 3)
    assert proc.returncode == 130, log[-3000:]
    assert "interrupted" in log
    wait_for(lambda: not any(alive(pid) for pid in workers), 10)


UNGUARDED_SCRIPT = """
import sys
from scrapy import Spider
from scrapy.crawler import CrawlerProcess

class Probe(Spider):
    name = "probe"
    start_urls = sys.argv[1:-1]
    def parse(self, response):
        yield {"url": response.url, "title": response.meta["cx_article"].title}

# No `if __name__ == "__main__"` guard, as in Scrapy's "run from a script" docs.
process = CrawlerProcess({
    "ADDONS": {"scrapy_cx.Addon": 500}, "CX_WORKERS": 2, "ROBOTSTXT_OBEY": False,
    "FEEDS": {sys.argv[-1]: {"format": "jsonlines"}},
})
process.crawl(Probe)
process.start()
"""


def test_a_crawl_script_without_a_main_guard_is_not_run_again_in_the_workers(
    tmp_path: Path,
) -> None:
    script = tmp_path / "crawl.py"
    script.write_text(UNGUARDED_SCRIPT, encoding="utf-8")
    served = {f"/story/{i}": Route(article(i)[1], headers=HTML) for i in range(3)}
    with serve(served) as (base, hits):
        output = tmp_path / "items.jsonl"
        proc = subprocess.run(
            [sys.executable, str(script), *(base + p for p in served), str(output)],
            cwd=tmp_path,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        fetched = dict(hits)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.count("Spider opened") == 1, proc.stderr[-3000:]
    assert fetched == {p: 1 for p in served}
    titles = [json.loads(line)["title"] for line in output.read_text("utf-8").splitlines()]
    assert sorted(titles) == sorted(article(i)[0] for i in range(3))


RAW_HTML_SCRIPT = """
import sys
import scrapy
from scrapy.crawler import CrawlerProcess


class RawHtml(scrapy.Spider):
    name = "raw"

    async def start(self):
        for url in sys.argv[1:-1]:
            yield scrapy.Request(url)

    def start_requests(self):  # Scrapy before 2.13
        for url in sys.argv[1:-1]:
            yield scrapy.Request(url)

    def parse(self, response):
        yield {"url": response.url, "html": response.text}


if __name__ == "__main__":
    process = CrawlerProcess({
        "ITEM_PIPELINES": {"tests.support.faulty.FaultyPipeline": 100},
        "CX_WORKERS": 2, "CX_PAGE_TIMEOUT": PAGE_TIMEOUT, "CX_WORKER_WARM_UP": False,
        "ROBOTSTXT_OBEY": False, "FEEDS": {sys.argv[-1]: {"format": "jsonlines"}},
    })
    process.crawl(RawHtml)
    process.start()
""".replace("PAGE_TIMEOUT", str(PAGE_TIMEOUT))


def test_raw_html_items_are_extracted_in_the_workers_within_the_deadline(
    tmp_path: Path,
) -> None:
    """The pipeline's raw HTML items go through the crawl's pool and its deadline: the
    hanging page costs one item, not the reactor (it hangs 300 s)."""
    script = tmp_path / "crawl.py"
    script.write_text(RAW_HTML_SCRIPT, encoding="utf-8")
    served = {f"/story/{i}": Route(article(i)[1], headers=HTML) for i in range(4)}
    served["/story/hang"] = Route(article(90)[1], headers=HTML)
    with serve(served) as (base, _hits):
        output = tmp_path / "items.jsonl"
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, str(script), *(base + p for p in served), str(output)],
            cwd=tmp_path,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        elapsed = time.monotonic() - started
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    titles = [json.loads(line)["title"] for line in output.read_text("utf-8").splitlines()]
    assert sorted(titles) == sorted(article(i)[0] for i in range(4))
    stats = scrapy_stats(log)
    assert stats["cx/skipped/timeout"] == 1
    assert stats["cx/pages"] == 4
    assert f"extraction of {base}/story/hang took over {PAGE_TIMEOUT} s" in log
    assert f"page not extracted (timeout): {base}/story/hang" in log
    assert elapsed < 100  # the hang was cut, not waited for


@pytest.mark.parametrize("reactor", sorted(REACTORS))
def test_workers_export_exactly_what_extraction_in_the_crawl_process_exports(
    reactor: str, tmp_path: Path
) -> None:
    # The article crosses back from a worker as a packed record with the worker's
    # verdict: every item, every format, every drop must be what CX_WORKERS=0 gives.
    from tests.e2e.site import build_site

    served: dict[str, Route] = {}
    with serve(served) as (base, _):
        site = build_site(base)
        served.update(site.routes)
        listed = tmp_path / "urls.txt"
        # Articles in English and Chinese, and the index pages (dropped as listings).
        pages = [*list(site.articles)[::2], *(p for p in site.routes if p.endswith("/"))]
        listed.write_text("\n".join(base + p for p in pages) + "\n", encoding="utf-8")
        exports = {}
        # The feed's lines too, byte for byte (Scrapy's exporter writes both).
        for run, workers in (("0", "0"), ("2", "2")):
            settings = {
                "CX_WORKERS": workers,
                "CX_FORMATS": "html,markdown,images",
                "CX_PAGE_TIMEOUT": "60",
                "TWISTED_REACTOR": REACTORS[reactor],
                "DOWNLOAD_DELAY": "0",
                "AUTOTHROTTLE_ENABLED": "False",
                "ROBOTSTXT_OBEY": "False",
            }
            output = tmp_path / f"{len(exports)}.jsonl"
            proc, items = run_crawl(["-a", f"urls={listed}"], output, settings=settings)
            assert proc.returncode == 0, proc.stderr[-3000:]
            stats = scrapy_stats(proc.stderr)
            counts = {k: v for k, v in stats.items() if k.startswith("cx/")}
            lines = sorted(output.read_bytes().splitlines(), key=lambda b: json.loads(b)["url"])
            exports[run] = (sorted(items, key=lambda i: i["url"]), counts, lines)
    assert len(exports["0"][0]) >= 10 and exports["0"][1].get("cx/dropped/page_type_listing")
    assert any(item["language"] == "zh" for item in exports["0"][0])
    assert exports["2"] == exports["0"]
