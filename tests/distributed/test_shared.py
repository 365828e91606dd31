"""The shared-queue helpers on their own (the end-to-end test is tests/e2e/test_redis.py)."""

from __future__ import annotations

import asyncio
import runpy
from collections.abc import AsyncIterator
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.test import get_crawler

from scrapy_cx.distributed import IdleClose, SharedStartRequests
from scrapy_cx.distributed import _shared as distributed
from tests.support.crawl import EXAMPLE_PROJECT


def test_start_requests_go_through_the_dupefilter() -> None:
    start = [Request("http://a.test/", dont_filter=True), {"item": 1}, Request("http://b.test/")]

    async def gen() -> AsyncIterator[Any]:
        for item in start:
            yield item

    async def collect() -> list[Any]:
        return [item async for item in SharedStartRequests().process_start(gen())]

    out = asyncio.run(collect())
    assert [getattr(r, "dont_filter", None) for r in out] == [False, None, False]
    assert out[0].url == "http://a.test/" and out[1] == {"item": 1}
    legacy = list(SharedStartRequests().process_start_requests(start, Spider("s")))
    assert [getattr(r, "dont_filter", None) for r in legacy] == [False, None, False]


def test_idle_close_waits_then_lets_the_spider_close(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(distributed.time, "monotonic", lambda: now[0])
    ext = IdleClose.from_crawler(get_crawler(settings_dict={"CX_REDIS_IDLE_CLOSE": 10}))
    spider = Spider("s")
    with pytest.raises(DontCloseSpider):
        ext.spider_idle(spider)
    now[0] += 5
    with pytest.raises(DontCloseSpider):
        ext.spider_idle(spider)
    ext.busy()  # work arrived from the shared queue: the wait starts over
    now[0] += 6
    with pytest.raises(DontCloseSpider):
        ext.spider_idle(spider)
    now[0] += 10
    ext.spider_idle(spider)  # idle long enough: no exception, Scrapy closes the spider


def test_idle_close_off_with_zero() -> None:
    with pytest.raises(NotConfigured):
        IdleClose.from_crawler(get_crawler(settings_dict={"CX_REDIS_IDLE_CLOSE": 0}))
    assert IdleClose.from_crawler(get_crawler()).timeout == distributed.DEFAULT_IDLE_CLOSE


def test_idle_close_reads_the_checked_settings() -> None:
    ext = IdleClose.from_crawler(get_crawler(settings_dict={"CX_REDIS_IDLE_CLOSE": "2.5"}))
    assert ext.timeout == 2.5
    with pytest.raises(ValueError, match="CX_REDIS_IDLE_CLOSE"):  # not silently "close at once"
        IdleClose.from_crawler(get_crawler(settings_dict={"CX_REDIS_IDLE_CLOSE": -1}))


SETTINGS = EXAMPLE_PROJECT / "news" / "settings.py"


@pytest.mark.parametrize("variable", ["CX_REDIS_URL", "REDIS_URL"])
def test_example_project_shares_its_queue_when_a_redis_url_is_set(
    variable: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CX_REDIS_URL", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    alone = runpy.run_path(str(SETTINGS))
    assert "SCHEDULER" not in alone and "DUPEFILTER_CLASS" not in alone
    monkeypatch.setenv(variable, "redis://10.1.2.3:6379/2")
    shared = runpy.run_path(str(SETTINGS))
    assert shared["REDIS_URL"] == "redis://10.1.2.3:6379/2"
    assert shared["SCHEDULER"] == "scrapy_cx.distributed.Scheduler"
    assert shared["DUPEFILTER_CLASS"] == "scrapy_redis.dupefilter.RFPDupeFilter"
    assert shared["SCHEDULER_PERSIST"] is True
    assert "scrapy_cx.distributed.SharedStartRequests" in shared["SPIDER_MIDDLEWARES"]
    assert "scrapy_cx.distributed.IdleClose" in shared["EXTENSIONS"]
    assert shared["ADDONS"] == alone["ADDONS"]  # scrapy-cx itself is unchanged
