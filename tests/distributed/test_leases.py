"""LeasedQueue, LeaseAcks and ExportOnce against a real redis-server (crash test: tests/e2e)."""

from __future__ import annotations

import gzip
import logging
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from scrapy import Request, Spider
from scrapy.exceptions import DropItem, IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse

from scrapy_cx.distributed import ExportOnce, export_items
from scrapy_cx.distributed._health import SETTLE_SECONDS
from scrapy_cx.distributed._leases import META_LEASE, LeaseAcks, LeasedQueue, Scheduler
from scrapy_cx.sizeguard import SizeGuardMiddleware
from tests.crawler import make_crawler
from tests.support.redis import running_redis

# Seconds. Long enough that two back-to-back pops on a loaded machine never straddle an
# expiry (0.3 did: the second pop got the request back); the tests wait for expiry by
# Redis's clock, not by a sleep.
LEASE = 2.0


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with running_redis(tmp_path) as url:
        yield url


def wait_until_leases_expire(server: Any, key: str = "news:requests:leases") -> None:
    """Return once every lease in ``key`` is past its deadline by Redis's own clock (the
    one the pop script reads), so the next pop hands expired work out again."""
    give_up = time.monotonic() + 30 * LEASE
    while True:
        seconds, micros = server.time()
        latest = server.zrange(key, -1, -1, withscores=True)
        if not latest or latest[0][1] <= seconds * 1000 + micros // 1000:
            return
        assert time.monotonic() < give_up, f"a lease of {LEASE} s never expired"
        time.sleep(0.05)


def at_once(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that must not wait (Redis answers): its result, or what it raised."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise AssertionError("it waited: Redis should have answered at once")


def setup(url: str, **settings: Any) -> tuple[LeasedQueue, LeaseAcks, Any]:
    config = {
        "REDIS_URL": url,
        "SCHEDULER_QUEUE_CLASS": "scrapy_cx.distributed.LeasedQueue",
        "CX_REDIS_LEASE_TIMEOUT": LEASE,
        **settings,
    }
    crawler = make_crawler(Spider, config)
    spider = Spider("news")
    spider.crawler = crawler
    server = redis.Redis.from_url(url)
    queue = LeasedQueue(server, spider, "%(spider)s:requests")
    acks = LeaseAcks.from_crawler(crawler)
    acks.spider_opened(spider)
    return queue, acks, server


def test_a_popped_request_is_leased_then_handed_out_again_when_not_acknowledged(
    redis_url: str,
) -> None:
    queue, _acks, server = setup(redis_url)
    queue.push(Request("http://a.test/1"))
    first = queue.pop()
    assert first is not None and first.url == "http://a.test/1"
    assert META_LEASE in first.meta
    assert queue.pop() is None  # leased: not handed out twice...
    assert len(queue) == 1  # ...but still pending work
    wait_until_leases_expire(server)
    again = queue.pop()  # its process "died": the lease expired
    assert again is not None and again.url == "http://a.test/1"
    assert server.hget("news:requests:deliveries", again.meta[META_LEASE]) == b"2"


def test_a_request_given_out_too_often_goes_to_the_dead_list(redis_url: str) -> None:
    queue, _acks, server = setup(redis_url, CX_REDIS_MAX_DELIVERIES=2)
    queue.push(Request("http://a.test/poison"))
    for _ in range(2):
        assert queue.pop() is not None
        wait_until_leases_expire(server)
    assert queue.pop() is None
    assert len(queue) == 0 and server.llen("news:requests:dead") == 1


def test_queue_reads_the_checked_settings(redis_url: str) -> None:
    queue, _acks, _server = setup(redis_url, CX_REDIS_MAX_DELIVERIES="5")
    assert (queue.lease_ms, queue.max_deliveries) == (int(1000 * LEASE), 5)
    with pytest.raises(ValueError, match="CX_REDIS_LEASE_TIMEOUT"):  # every lease would expire
        setup(redis_url, CX_REDIS_LEASE_TIMEOUT=0)


def test_acknowledged_after_the_output_and_its_items_are_done(redis_url: str) -> None:
    queue, acks, server = setup(redis_url)
    queue.push(Request("http://a.test/page"))
    request = queue.pop()
    assert request is not None
    response = HtmlResponse(request.url, body=b"<p>x</p>", request=request)
    follow = Request("http://a.test/next", meta=dict(response.meta))  # meta copied
    output = list(acks.process_spider_output(response, [{"url": request.url}, follow], Spider("n")))
    assert META_LEASE not in output[1].meta  # the follow-up carries no lease
    assert server.zcard("news:requests:leases") == 1  # the item is still in the pipelines
    acks.item_done({"url": request.url}, response=response)
    assert server.zcard("news:requests:leases") == 0
    assert not acks.pending


def test_a_redirect_or_retry_takes_over_its_parents_lease(redis_url: str) -> None:
    queue, acks, server = setup(redis_url)
    queue.push(Request("http://a.test/old"))
    request = queue.pop()
    assert request is not None
    queue.push(request.replace(url="http://a.test/new"))  # what RedirectMiddleware yields
    assert server.zcard("news:requests:leases") == 0
    moved = queue.pop()
    assert moved is not None and moved.url == "http://a.test/new"
    acks.request_dropped(moved, Spider("news"))  # e.g. filtered as a duplicate
    assert server.zcard("news:requests:leases") == 0


def test_a_failed_download_is_acknowledged(redis_url: str) -> None:
    queue, acks, server = setup(redis_url)
    queue.push(Request("http://a.test/down"))
    request = queue.pop()
    assert request is not None
    acks.process_exception(request, ConnectionError("refused"), Spider("news"))
    assert server.zcard("news:requests:leases") == 0 and len(queue) == 0


def test_export_once_keeps_the_first_item_per_url(redis_url: str, tmp_path: Path) -> None:
    crawler = make_crawler(Spider, {"REDIS_URL": redis_url})
    pipeline = ExportOnce.from_crawler(crawler)
    pipeline.spider_opened(Spider("news"))
    at_once(pipeline.process_item({"url": "http://a.test/1", "title": "One"}))
    with pytest.raises(DropItem):
        at_once(pipeline.process_item({"url": "http://a.test/1", "title": "One, fetched again"}))
    at_once(pipeline.process_item({"url": "http://a.test/2", "title": "Two"}))
    out = tmp_path / "articles.jsonl"
    with out.open("wb") as fh:
        assert export_items(redis_url, "news", fh) == 2
    assert out.read_text().splitlines() == [
        '{"url": "http://a.test/1", "title": "One"}',
        '{"url": "http://a.test/2", "title": "Two"}',
    ]


def test_lease_acks_need_the_leased_queue() -> None:
    with pytest.raises(NotConfigured):
        LeaseAcks.from_crawler(make_crawler(Spider, {}))


def test_a_response_dropped_as_too_large_is_acknowledged(redis_url: str) -> None:
    queue, acks, server = setup(redis_url, DOWNLOAD_MAXSIZE=1000)
    queue.push(Request("http://a.test/bomb"))
    request = queue.pop()
    assert request is not None
    guard = SizeGuardMiddleware.from_crawler(acks.crawler)
    bomb = HtmlResponse(
        request.url,
        body=gzip.compress(b" " * 5000),
        headers={"Content-Encoding": "gzip"},
        request=request,
    )
    with pytest.raises(IgnoreRequest):
        guard.process_response(request, bomb)
    assert server.zcard("news:requests:leases") == 0


# ---------------------------------------------------------- Redis full or gone (issue 27 #7)


def scheduler_for(url: str, **settings: Any) -> tuple[Scheduler, Any]:
    config = {
        "REDIS_URL": url,
        "SCHEDULER_QUEUE_CLASS": "scrapy_cx.distributed.LeasedQueue",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,
        **settings,
    }
    crawler = make_crawler(Spider, config)
    spider = Spider.from_crawler(crawler, "news")
    scheduler = Scheduler.from_crawler(crawler)
    scheduler.open(spider)
    return scheduler, redis.Redis.from_url(url)


def test_an_item_whose_export_failed_is_not_acknowledged(redis_url: str) -> None:
    """ExportOnce failed (Redis full): the item counted as done and its lease was deleted,
    so the page was never fetched again (599 of 600 exported). Now its lease stays and
    expires: the page is handed out again."""
    queue, acks, server = setup(redis_url)
    queue.push(Request("http://a.test/page"))
    request = queue.pop()
    assert request is not None
    response = HtmlResponse(request.url, body=b"<p>x</p>", request=request)
    list(acks.process_spider_output(response, [{"url": request.url}], Spider("n")))
    acks.item_failed({"url": request.url}, response=response)
    assert server.zcard("news:requests:leases") == 1 and not acks.pending
    assert acks.crawler.stats.get_value("cx/redis/not_acknowledged") == 1
    wait_until_leases_expire(server)
    again = queue.pop()
    assert again is not None and again.url == request.url


def test_requests_are_kept_while_redis_is_full_and_queued_when_it_has_room(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    scheduler, server = scheduler_for(redis_url)
    server.config_set("maxmemory", 1)  # full: every write is refused (OOM)
    with caplog.at_level(logging.INFO):
        assert scheduler.enqueue_request(Request("http://a.test/1"))
        assert scheduler.enqueue_request(Request("http://a.test/2"))
        assert scheduler.next_request() is None
        assert scheduler.has_pending_requests()  # kept here: not done
        server.config_set("maxmemory", 0)
        time.sleep(SETTLE_SECONDS + 0.1)  # a write this soon after a failure ends no outage
        first = scheduler.next_request()
    assert first is not None and first.url == "http://a.test/1"
    assert not scheduler.kept and server.zcard("news:requests") == 1
    said = [r.getMessage() for r in caplog.records if r.name.startswith("scrapy_cx")]
    assert len(said) == 2, said  # one line when it stops answering, one when it answers
    assert "Redis does not answer (OutOfMemoryError" in said[0]
    assert "Redis answers again" in said[1]
    assert "Traceback" not in caplog.text


def test_a_redis_gone_is_waited_out_without_raising_into_the_engine(tmp_path: Path) -> None:
    with running_redis(tmp_path) as url:
        scheduler, _server = scheduler_for(url)
        assert scheduler.enqueue_request(Request("http://a.test/1"))
    # redis-server stopped for good:
    assert scheduler.enqueue_request(Request("http://a.test/2"))  # kept, not raised
    assert scheduler.next_request() is None
    assert scheduler.has_pending_requests()
    assert scheduler.health.down and list(scheduler.kept)[0].url == "http://a.test/2"
