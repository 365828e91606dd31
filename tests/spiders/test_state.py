"""The JOBDIR lock and the synced feed files (spiders/_lock.py, spiders/_feeds.py)."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from scrapy_cx.spiders._feeds import STORAGES, SyncedFile, synced_per_item
from scrapy_cx.spiders._lock import JobdirBusy, JobdirLock


def test_a_jobdir_is_locked_until_released(tmp_path):
    lock = JobdirLock(tmp_path / "job")
    with pytest.raises(JobdirBusy, match="is in use by another crawl"):
        JobdirLock(tmp_path / "job")
    lock.release()
    JobdirLock(tmp_path / "job").release()


def test_a_synced_file_holds_each_write_at_once(tmp_path):
    path = tmp_path / "out.jsonl"
    with SyncedFile(path, "w") as fh:
        fh.write(b'{"a": 1}\n')
        assert path.read_bytes() == b'{"a": 1}\n'  # no buffer between the write and the file
        fh.sync()


@pytest.mark.parametrize(
    ("feeds", "expected"),
    [
        ({}, True),
        ({"out.jsonl": {"format": "jsonlines"}}, True),
        ({"file:///tmp/out.jsonl": {"format": "jsonlines"}, "b.csv": {"format": "csv"}}, True),
        ({"out.jsonl.gz": {"format": "jsonlines", "postprocessing": ["gzip"]}}, False),
        ({"s3://bucket/out.jsonl": {"format": "jsonlines"}}, False),
        ({"stdout:": {"format": "jsonlines"}}, False),
    ],
)
def test_items_count_as_out_per_item_only_when_every_feed_is_a_synced_file(feeds, expected):
    settings = Settings({"FEEDS": feeds, "FEED_STORAGES": STORAGES})
    assert synced_per_item(settings) is expected


def test_without_the_synced_storage_a_local_feed_waits_for_its_close():
    assert not synced_per_item(Settings({"FEEDS": {"out.jsonl": {"format": "jsonlines"}}}))


def test_the_news_spider_s_local_feeds_are_synced_and_fsynced_with_a_jobdir(tmp_path):
    from scrapy.utils.test import get_crawler

    from scrapy_cx.spiders import NewsSpider
    from scrapy_cx.spiders._feeds import SyncedFileFeedStorage

    out = str(tmp_path / "out.jsonl")
    for jobdir, watched in ((str(tmp_path / "job"), 1), (None, 0)):
        feeds = {out: {"format": "jsonlines"}}
        crawler = get_crawler(NewsSpider, {"FEEDS": feeds, "JOBDIR": jobdir})
        crawler.spider = spider = NewsSpider.from_crawler(crawler, site="https://x.test/")
        assert synced_per_item(crawler.settings)
        storage = SyncedFileFeedStorage.from_crawler(crawler, out)
        file = storage.open(spider)
        assert len(spider.ledger.files) == watched  # fsynced after each record: kept sets only
        file.close()
        spider.ledger.close()


def test_a_site_crawl_resumes_no_request_queue_and_knows_whether_the_last_run_finished(
    tmp_path,
):
    from scrapy_cx.spiders._resume import FINISHED, QUEUE, RunMarker, drop_request_queue

    (tmp_path / QUEUE).mkdir()
    (tmp_path / QUEUE / "p0").write_bytes(b"\x00\x01")  # torn by a kill
    drop_request_queue(str(tmp_path))
    assert not (tmp_path / QUEUE).exists()
    first = RunMarker(str(tmp_path))
    assert not first.finished_before
    first.finished()
    second = RunMarker(str(tmp_path))
    assert second.finished_before and not (tmp_path / FINISHED).exists()  # until it finishes
    assert not RunMarker(str(tmp_path)).finished_before  # the second was killed


def test_a_split_article_listed_under_a_redirect_records_the_listed_url_too():
    import scrapy
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from scrapy_cx import Article
    from scrapy_cx.spiders import NewsSpider

    site = "https://www.x.test"
    spider = NewsSpider.from_crawler(get_crawler(NewsSpider, {}), site=site + "/")
    one = Article(url=site + "/s.html", title="Story", page_type="article",
                  next_page=site + "/s.html?page=2", content="One. " * 60)
    meta = {"cx_article": one, "redirect_urls": [site + "/old/s.html"]}
    first = HtmlResponse(one.url, body=b"<html></html>", request=scrapy.Request(one.url, meta=meta))
    [part] = list(spider.parse_page(first))
    two = Article(url=site + "/s.html?page=2", title="Story", page_type="article",
                  content="Two. " * 60)
    last = HtmlResponse(two.url, body=b"<html></html>",
                        request=scrapy.Request(two.url, meta={**part.meta, "cx_article": two}))
    [item] = list(spider.parse_part(last))
    assert set(spider.exported_urls(item, last)) == {one.url, two.url, site + "/old/s.html"}
