"""Bulk extraction: one outcome per page, in order, bounded read-ahead, crashes survived."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator

import pytest

from scrapy_cx import Article
from scrapy_cx.bulk import Options, Outcome, RawPage, Skip, Summary, extract_all, extract_one
from scrapy_cx.bulk import _runner as bulk
from scrapy_cx.settings import CxSettings

from ..sample_pages import article_html, listing_html


def page(i: int, html: str | None = None) -> RawPage:
    body = (html or article_html(f"Story number {i}")).encode()
    return RawPage(f"p{i}", f"http://news.test/{i}", body)


def test_article_becomes_one_json_line() -> None:
    outcome = extract_one(page(1), Options())
    assert outcome.reason is None and outcome.line is not None
    record = json.loads(outcome.line)
    assert record["url"] == "http://news.test/1"
    assert record["title"] == "Story number 1"
    assert record["published"].startswith("2024-03-05")
    assert "northern tram line" in record["content"]
    assert list(record) == list(Article.field_names())


def test_non_ascii_is_written_as_is() -> None:
    html = article_html("Трамвай", charset="windows-1251").encode("cp1251")
    outcome = extract_one(RawPage("ru", None, html), Options())
    assert outcome.line is not None and '"title": "Трамвай"'.encode() in outcome.line


def test_encoding_option_applies_when_nothing_is_declared() -> None:
    html = article_html("Ça coûte cher").replace('<meta charset="utf-8">', "")
    body = html.encode("cp1252")
    forced = extract_one(RawPage("f", None, body), Options(encoding="cp1252"))
    assert forced.line is not None and json.loads(forced.line)["title"] == "Ça coûte cher"
    header_wins = extract_one(RawPage("f", None, body, "cp1252"), Options(encoding="koi8-r"))
    assert header_wins.line is not None and "Ça coûte".encode() in header_wins.line


def test_short_or_untitled_pages_are_skipped_with_a_reason() -> None:
    assert extract_one(page(1, listing_html()), Options()).reason == (
        "no article (main text too short)"
    )
    strict = Options(CxSettings(min_content_length=100_000))
    assert extract_one(page(1), strict).reason == "no article (main text too short)"
    assert extract_one(page(1), Options(CxSettings(min_content_length=0))).line is not None
    skip = Skip("x", "page too large")
    assert extract_one(skip, Options()) == Outcome("x", reason="page too large")


def test_bulk_defaults_are_the_crawls() -> None:
    """Both ways of extracting agree on what an article is: the same defaults."""
    from scrapy.settings import Settings

    from scrapy_cx.__main__ import build_parser

    crawl = CxSettings.from_settings(Settings())
    assert Options().settings == crawl
    args = build_parser().parse_args(["extract", "x.html"])
    assert args.min_content_length == crawl.min_content_length
    assert args.page_timeout == crawl.page_timeout
    assert args.format == crawl.formats


def test_size_limit_matches_the_crawl_default() -> None:
    """A 12 MB page is skipped as too large by `scrapy-cx extract` and by a crawl alike."""
    from scrapy_cx.__main__ import build_parser
    from scrapy_cx.settings import DEFAULTS

    args = build_parser().parse_args(["extract", "x.html"])
    assert args.max_page_bytes == DEFAULTS["CX_MAX_BODY_SIZE"] == 5 * 1024 * 1024


def test_settings_reach_the_extractor_as_in_the_crawl(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []

    def recording(*args: object, **kwargs: object) -> Article:
        calls.append(kwargs)
        return Article(url="http://news.test/1")

    monkeypatch.setattr(bulk, "extract_article", recording)
    cx = CxSettings(date_languages=["en"], line_options={"block_size": 4}, formats=["markdown"])
    extract_one(page(1), Options(cx, encoding="cp1252"))
    assert calls == [cx.extract_kwargs("cp1252")] == [
        {
            "encoding": "cp1252",
            "reference_time": None,
            "date_languages": ["en"],
            "formats": frozenset({"markdown"}),
            "block_size": 4,
        }
    ]


def test_extraction_error_is_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RecursionError("deep")

    monkeypatch.setattr(bulk, "extract_article", broken)
    assert extract_one(page(1), Options()).reason == "extraction error (RecursionError)"


@pytest.mark.parametrize("jobs", [1, 2])
def test_outcomes_keep_input_order(jobs: int) -> None:
    items: list[RawPage | Skip] = []
    for i in range(40):
        items.append(page(i) if i % 5 else Skip(f"s{i}", "empty page"))
    outcomes = list(extract_all(items, Options(), jobs))
    assert [o.source for o in outcomes] == [i.source for i in items]
    titles = [json.loads(o.line)["title"] for o in outcomes if o.line]
    assert titles == [f"Story number {i}" for i in range(40) if i % 5]


class Endless:
    """An endless source of pages (``make(i)``), counting the pages taken from it."""

    def __init__(self, make: Callable[[int], RawPage] = page) -> None:
        self.make = make
        self.consumed = 0

    def __iter__(self) -> Iterator[RawPage]:
        while True:
            self.consumed += 1
            yield self.make(self.consumed - 1)


def test_pool_reads_only_a_bounded_window_ahead() -> None:
    source = Endless()
    results = extract_all(iter(source), Options(), 2, in_flight=3)
    first = [next(results) for _ in range(10)]
    results.close()  # shuts the pool down
    assert [o.source for o in first] == [f"p{i}" for i in range(10)]
    assert source.consumed <= 10 + 3  # what was yielded plus the window


def test_read_ahead_is_bounded_by_bytes_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Large pages stop the reading ahead before the window's count does. Each page
    holds 60 KB of article text, so its line holds more: read ahead and not yet
    written, a page counts for 60 KB or more whether its worker is done with it or not."""
    monkeypatch.setattr(bulk, "HELD_BYTES_PER_JOB", 100_000)
    body = [f"Witness {j} told the council what happened on the pier." for j in range(1000)]
    source = Endless(lambda i: page(i, article_html(f"Story number {i}", body=body)))
    results = extract_all(iter(source), Options(), 2)  # a window of 32 pages by count
    first = [next(results) for _ in range(6)]
    results.close()
    assert [o.source for o in first] == [f"p{i}" for i in range(6)]
    # 200 000 bytes for 2 jobs: the fourth page of 60 KB or more is past it
    assert source.consumed <= 6 + 4


def misbehave_on_marker(html: bytes, url: str | None = None, **kwargs: object) -> object:
    if b"CRASH" in html:
        os._exit(3)  # what a segfault or the OOM killer does to a worker
    if b"HANG" in html:
        time.sleep(120)  # what a page with a quadratic path does to a worker
    from scrapy_cx.extract import extract_article

    return extract_article(html, url, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("marker", "reason"),
    [(b"CRASH", "worker process died on page"), (b"HANG", "timeout (over 1 s)")],
)
def test_a_page_that_kills_or_hangs_its_worker_is_skipped_and_the_rest_survives(
    monkeypatch: pytest.MonkeyPatch, marker: bytes, reason: str
) -> None:
    monkeypatch.setattr(bulk, "extract_article", misbehave_on_marker)
    items: list[RawPage | Skip] = [page(i) for i in range(12)]
    items[5] = RawPage("p5", None, b"<html>" + marker + b"</html>")
    started = time.monotonic()
    outcomes = list(
        extract_all(
            items, Options(), 2, timeout=1.0, mp_context=multiprocessing.get_context("fork")
        )
    )
    assert time.monotonic() - started < 60  # not the 120 s the hanging page asks for
    assert [o.source for o in outcomes] == [f"p{i}" for i in range(12)]
    assert outcomes[5].reason == reason
    assert all(o.line for i, o in enumerate(outcomes) if i != 5)


def test_a_page_too_big_to_read_whole_says_so_in_its_record() -> None:
    lines = "<div>" + "row<br>" * 30_000 + "</div>"  # past extract.parse.lines.MAX_LINES
    big = page(1, article_html("Budget").replace("</body>", lines + "</body>"))
    outcome = extract_one(big, Options())
    assert outcome.truncated and outcome.line is not None
    assert json.loads(outcome.line)["truncated"] is True
    assert not extract_one(page(1), Options()).truncated


def test_summary_counts_and_formats() -> None:
    summary = Summary()
    for outcome in [
        Outcome("a", line="{}"),
        Outcome("b", reason="empty page"),
        Outcome("c", reason="HTTP status 404"),
        Outcome("d", reason="empty page"),
        Outcome("e", line="{}", truncated=True),
    ]:
        summary.add(outcome)
    summary.stop()
    summary.seconds = 2.0
    assert summary.pages == 5 and summary.articles == 2 and summary.truncated == 1
    assert summary.format(2).splitlines() == [
        "5 pages, 2 articles in 2.0 s (2.5 pages/s, 2 jobs)",
        "1 too big to read whole: extracted from their start",
        "skipped 3:",
        "         2  empty page",
        "         1  HTTP status 404",
    ]


class Clock:
    """``time.monotonic`` and ``time.sleep`` of the runner, turned by hand."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_lines_gather_before_the_parent_wakes_only_while_workers_have_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(bulk, "time", clock)
    lull = bulk._Lull(jobs=2)
    lull.wait(backlog=8)
    assert clock.slept == []  # no line yet: no pace to go by
    for _ in range(bulk.LINES_PER_WAKE):
        lull.took()
        clock.now += 0.02  # a line every 20 ms
    lull.wait(backlog=1)  # a worker holds only the page it runs: wake for it at once
    assert clock.slept == []
    lull.wait(backlog=8)  # four lines' time (80 ms), at most MAX_LULL
    assert clock.slept == [bulk.MAX_LULL]
    interval = (clock.now - 100.0) / lull.taken  # the pace so far, the sleep in it
    lull.wait(backlog=2)  # one page in hand behind the running one: half its time
    assert clock.slept[-1] == pytest.approx(interval * 2 / 2)
    for _ in range(1000):  # a fast pace (many workers): four lines' time
        lull.took()
    interval = (clock.now - 100.0) / lull.taken
    lull.wait(backlog=8)
    assert clock.slept[-1] == pytest.approx(bulk.LINES_PER_WAKE * interval)


def test_a_run_whose_parent_lets_lines_gather_keeps_every_page_in_order() -> None:
    pages = [page(i) for i in range(40)]
    outcomes = list(extract_all(iter(pages), Options(), 2))
    assert [o.source for o in outcomes] == [p.source for p in pages]
    assert outcomes == [extract_one(p, Options()) for p in pages]
