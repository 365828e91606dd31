"""The ``cx/*`` counters and the closing summary line (scrapy_cx/stats.py)."""

from __future__ import annotations

import logging

import pytest
from scrapy import Spider, signals

from scrapy_cx import Article
from scrapy_cx.stats import CxStats, summary
from tests.crawler import make_crawler


def test_counts_go_under_cx_in_the_crawlers_stats() -> None:
    crawler = make_crawler()
    stats = CxStats(crawler)
    stats.page(Article(url="http://a.test/", content="text"), "http://a.test/")
    stats.article()
    stats.skipped("not_html")
    stats.skipped("not_html")
    stats.dropped("short_content")
    stats.error()
    assert crawler.stats is not None
    assert {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("cx/")} == {
        "cx/pages": 1,
        "cx/articles": 1,
        "cx/skipped/not_html": 2,
        "cx/dropped/short_content": 1,
        "cx/errors": 1,
    }


def test_a_truncated_page_is_counted_and_logged_with_its_url(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = make_crawler()
    with caplog.at_level(logging.INFO, logger="scrapy_cx"):
        CxStats(crawler).page(Article(url="http://a.test/big", truncated=True), "http://a.test/big")
    assert crawler.stats is not None
    assert crawler.stats.get_value("cx/truncated") == 1
    assert any("http://a.test/big" in r.getMessage() for r in caplog.records)


def test_summary_groups_skips_and_drops_and_ignores_other_stats() -> None:
    line = summary(
        {
            "cx/pages": 3,
            "cx/articles": 2,
            "cx/skipped/status": 1,
            "cx/dropped/no_title": 1,
            "cx/dropped/bad_published": 2,
            "downloader/request_count": 9,
        }
    )
    assert line == (
        "scrapy-cx: 3 pages, 2 articles, skipped {'status': 1}, "
        "dropped {'bad_published': 2, 'no_title': 1}, errors 0"
    )


def test_the_summary_is_logged_once_per_crawler_however_many_components_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = make_crawler()
    CxStats(crawler).article()
    CxStats(crawler)  # a second component of the same crawler
    spider = Spider.from_crawler(crawler, name="news")
    with caplog.at_level(logging.INFO, logger="scrapy_cx"):
        crawler.signals.send_catch_log(signals.spider_closed, spider=spider, reason="finished")
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("scrapy-cx:")]
    assert lines == ["scrapy-cx: 0 pages, 1 articles, skipped {}, dropped {}, errors 0"]


def test_each_crawler_of_a_process_logs_its_own_summary_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    first, second = make_crawler(), make_crawler()
    for crawler, articles in ((first, 1), (second, 2)):
        for _ in range(articles):
            CxStats(crawler).article()  # one component per count: each connects
    spiders = [Spider.from_crawler(c, name=n) for c, n in ((first, "a"), (second, "b"))]
    with caplog.at_level(logging.INFO, logger="scrapy_cx"):
        for crawler, spider in zip((first, second), spiders, strict=True):
            crawler.signals.send_catch_log(signals.spider_closed, spider=spider, reason="finished")
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("scrapy-cx:")]
    assert lines == [
        "scrapy-cx: 0 pages, 1 articles, skipped {}, dropped {}, errors 0",
        "scrapy-cx: 0 pages, 2 articles, skipped {}, dropped {}, errors 0",
    ]
