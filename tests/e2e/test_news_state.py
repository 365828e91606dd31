"""A ``site=`` crawl's state across runs (issue 43, items 3, 4, 7, 8, 10): every
article exported exactly once over a kill and a rerun, a torn or corrupt seen file
reported and read around, one crawl at a time on a JOBDIR, redirected listed URLs
not fetched again. Real ``scrapy crawl`` runs against a site served on 127.0.0.1.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.newssite import NewsSite, build_news_site
from scrapy_cx.spiders._seen import FILE_NAME
from tests.e2e.test_newscrawl import FAST, _Served
from tests.support.crawl import EXAMPLE_PROJECT, ONE_LINE_ERRORS, crawl_command, run_crawl
from tests.support.server import Route, serve

LOCK = "cx-news.lock"


@pytest.fixture
def small_site() -> Iterator[tuple[NewsSite, dict[str, int]]]:
    routes = _Served()
    with serve(routes) as (base, hits):
        routes.site = build_news_site(base, count=80)
        yield routes.site, hits


def _lines(path: Path) -> list[dict[str, Any]]:
    """The whole JSON lines of a feed (a kill may tear the last one: not an export)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_bytes().split(b"\n")[:-1] if line.strip()]


def _start(news: NewsSite, output: Path, jobdir: Path, **settings: str) -> subprocess.Popen[bytes]:
    command = crawl_command(
        ["-a", f"site={news.base}/"],
        output,
        {**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": "", **settings},
    )
    return subprocess.Popen(
        command, cwd=EXAMPLE_PROJECT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def _wait_for_records(proc: subprocess.Popen[bytes], seen: Path, count: int) -> None:
    """Until the crawl has recorded ``count`` URLs as seen, or (0) has taken its JOBDIR."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if count == 0 and (seen.parent / LOCK).exists():
            return
        if seen.is_file() and seen.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.01)


def test_a_kill_at_any_moment_then_a_rerun_exports_every_article_exactly_once(small_site, tmp_path):
    news, _ = small_site
    jobdir = tmp_path / "job"
    first, second = tmp_path / "out1.jsonl", tmp_path / "out2.jsonl"
    # Killed after a random number of recorded articles (the seen file's records say
    # where the crawl is), so every run kills it at another point of its export.
    # A jitter after that moment lands the kill anywhere between two records: inside a
    # feed write, between it and the record, in the scheduler's queue writes.
    at, jitter = random.randint(0, 50), random.uniform(0, 0.05)
    proc = _start(news, first, jobdir, DOWNLOAD_DELAY="0.02")
    try:
        _wait_for_records(proc, jobdir / FILE_NAME, at)
        time.sleep(jitter)
        assert proc.poll() is None, f"the crawl ended before the kill at {at} records"
    finally:
        proc.kill()  # SIGKILL: no clean shutdown, nothing flushed on close
        proc.communicate()
    exported_first = [item["url"] for item in _lines(first)]
    assert len(exported_first) < len(news.stories), "killed mid-run"
    # (Scrapy may log a traceback reading the request queue the kill tore, and go on.)
    proc2, items = run_crawl(
        ["-a", f"site={news.base}/"],
        second,
        settings={**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
    )
    assert proc2.returncode == 0, proc2.stderr[-3000:]
    counts = Counter(exported_first + [item["url"] for item in items])
    expected = {news.base + s.path for s in news.stories}
    twice = sorted(url for url, n in counts.items() if n > 1)
    lost = sorted(expected - set(counts))
    assert not twice and not lost, f"killed at {at}+{jitter:.3f}s: twice {twice}, lost {lost}"
    assert set(counts) == expected


def test_a_torn_last_line_and_junk_in_the_seen_file_are_reported_once_and_read_around(
    small_site, tmp_path
):
    news, hits = small_site
    jobdir = tmp_path / "job"
    jobdir.mkdir()
    stories = [news.base + s.path for s in news.stories if len(s.pages) == 1]
    kept, torn = stories[0], stories[1]
    seen = jobdir / FILE_NAME
    # Binary junk, a good record, and a record a kill tore before its newline.
    seen.write_bytes(b"\xff\xfe\x00junk\x80\n" + kept.encode() + b"\n" + torn.encode())
    proc, items = run_crawl(
        ["-a", f"site={news.base}/"],
        tmp_path / "out.jsonl",
        settings={**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    report = [line for line in proc.stderr.splitlines() if str(seen) in line]
    assert len(report) == 1 and "unreadable" in report[0] and "torn" in report[0], report
    assert "'cx/news/seen_unreadable': 2" in proc.stderr, proc.stderr[-3000:]
    exported = {item["url"] for item in items}
    assert kept not in exported  # the good record still counts
    assert torn in exported  # the torn one did not: fetched and exported again
    assert len(exported) == len(news.stories) - 1
    # Every record this run wrote is whole, on its own line: a rerun exports nothing.
    lines = seen.read_bytes().split(b"\n")
    assert torn.encode() + b"\n" in seen.read_bytes()
    assert all(line.startswith(b"http") for line in lines[2:-1])
    hits.clear()
    proc, again = run_crawl(
        ["-a", f"site={news.base}/"],
        tmp_path / "again.jsonl",
        settings={**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert again == []
    assert not set(hits) & news.article_paths()


def test_a_second_crawl_on_a_jobdir_in_use_ends_at_start_in_one_line(small_site, tmp_path):
    news, _ = small_site
    jobdir = tmp_path / "job"
    first = _start(news, tmp_path / "out1.jsonl", jobdir, DOWNLOAD_DELAY="0.2")
    try:
        _wait_for_records(first, jobdir / FILE_NAME, 1)
        assert first.poll() is None, "the first crawl ended too soon"
        second = subprocess.run(
            crawl_command(
                ["-a", f"site={news.base}/"],
                tmp_path / "out2.jsonl",
                {**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
            ),
            cwd=EXAMPLE_PROJECT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert first.poll() is None, "the first crawl ended while the second ran"
    finally:
        first.kill()
        first.communicate()
    assert second.returncode != 0
    last = second.stderr.strip().splitlines()[-1]
    assert str(jobdir) in last and "in use by another crawl" in last, second.stderr[-3000:]
    if ONE_LINE_ERRORS:
        assert "Traceback" not in second.stderr, second.stderr[-3000:]
        # Scrapy's start-up log (its version, the versions of its parts), then one line.
        lines = [line for line in second.stderr.splitlines() if "scrapy-cx" in line]
        assert lines == [last], second.stderr[-3000:]
    assert not (tmp_path / "out2.jsonl").exists() or _lines(tmp_path / "out2.jsonl") == []
    assert (jobdir / LOCK).exists()
    # The kill let the lock go with the process: the next crawl runs.
    proc, items = run_crawl(
        ["-a", f"site={news.base}/"],
        tmp_path / "out3.jsonl",
        settings={**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def _page(title: str, body: str) -> Route:
    sentence = "Sentence {} of the story goes on for a while."
    paras = "".join(f"<p>{body} {sentence.format(i)}</p>" for i in range(6))
    return Route(
        f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<article><h1>{title}</h1><p>By Jane Example, 12 May 2024</p>{paras}</article>"
        "</body></html>".encode()
    )


def test_a_listed_url_that_redirects_is_not_fetched_again_on_a_rerun(tmp_path):
    routes: dict[str, Any] = {}
    with serve(routes) as (base, hits):
        ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        urls = "".join(f"<url><loc>{base}{p}</loc></url>" for p in ("/old/a.html", "/b.html"))
        routes.update(
            {
                "/robots.txt": Route(b"User-agent: *\n", headers={"Content-Type": "text/plain"}),
                "/": Route(b"<html><body><h1>Home</h1></body></html>"),
                "/sitemap.xml": Route(
                    f'<?xml version="1.0"?><urlset {ns}>{urls}</urlset>'.encode(),
                    headers={"Content-Type": "application/xml"},
                ),
                "/old/a.html": Route(b"", status=301, headers={"Location": f"{base}/a.html"}),
                "/a.html": _page("Moved story", "Alpha."),
                "/b.html": _page("Plain story", "Beta."),
            }
        )
        settings = {**FAST, "JOBDIR": str(tmp_path / "job")}
        proc, items = run_crawl(["-a", f"site={base}/"], tmp_path / "one.jsonl", settings=settings)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert sorted(item["url"] for item in items) == [f"{base}/a.html", f"{base}/b.html"]
        hits.clear()
        proc, items = run_crawl(["-a", f"site={base}/"], tmp_path / "two.jsonl", settings=settings)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert items == []
    assert "/sitemap.xml" in hits
    assert not {"/old/a.html", "/a.html", "/b.html"} & set(hits), hits


def test_a_feed_that_holds_items_only_once_closed_records_them_at_its_close(
    small_site, tmp_path
):
    # stdout: no synced file, so the URLs are recorded when the feed exporter has closed it.
    news, hits = small_site
    jobdir = tmp_path / "job"
    command = crawl_command(
        ["-a", f"site={news.base}/"],
        Path("-:jsonlines"),
        {**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
    )
    proc = subprocess.run(
        command, cwd=EXAMPLE_PROJECT, capture_output=True, text=True, timeout=180, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    exported = {json.loads(line)["url"] for line in proc.stdout.splitlines() if line.strip()}
    assert exported == {news.base + s.path for s in news.stories}
    recorded = set((jobdir / FILE_NAME).read_text(encoding="utf-8").splitlines())
    assert exported <= recorded
    hits.clear()
    _, again = run_crawl(
        ["-a", f"site={news.base}/"],
        tmp_path / "again.jsonl",
        settings={**FAST, "JOBDIR": str(jobdir), "CX_FORMATS": ""},
    )
    assert again == []
    assert not set(hits) & news.article_paths()
