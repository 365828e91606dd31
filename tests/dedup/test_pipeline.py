"""DedupPipeline: reposts dropped or marked, short texts let through, Redis shared, never lost."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured

from scrapy_cx import Article, ArticleItem, DedupPipeline
from scrapy_cx.dedup import RedisIndex
from scrapy_cx.settings import SettingError
from tests.crawler import make_crawler
from tests.extract.prose import BRIDGE_STORY
from tests.support.redis import running_redis

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")

STORY = "\n".join(BRIDGE_STORY)
REPOST = "\n".join([*BRIDGE_STORY[:2], *BRIDGE_STORY[3:]]).replace(", ", " , ")
OTHER = "\n".join(
    f"The harbour authority said on Monday that ferry route {i} would stop at the island "
    f"pier {i + 2} times a day from June, after a survey of {100 * i} passengers."
    for i in range(1, 6)
)


def pipeline(**settings: Any) -> tuple[DedupPipeline, Crawler]:
    crawler = make_crawler(Spider, {"CX_DEDUP": True, **settings})
    return DedupPipeline.from_crawler(crawler), crawler


def item(url: str, content: str) -> ArticleItem:
    return ArticleItem.from_article(Article(url=url, title="Bridge", content=content))


def stats(crawler: Crawler) -> dict[str, Any]:
    assert crawler.stats is not None
    return {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("cx/")}


def test_repost_is_dropped_and_logged_with_both_urls() -> None:
    pipe, crawler = pipeline()
    pipe.process_item(item("http://a/bridge", STORY))
    pipe.process_item(item("http://a/ferry", OTHER))
    with pytest.raises(DropItem, match="duplicate of http://a/bridge: http://b/copy"):
        pipe.process_item(item("http://b/copy", REPOST))
    assert stats(crawler) == {"cx/dropped/duplicate": 1}


def test_mark_mode_keeps_the_repost_with_the_first_url() -> None:
    pipe, crawler = pipeline(CX_DEDUP_MODE="mark")
    first = pipe.process_item(item("http://a/bridge", STORY))
    assert first["duplicate_of"] is None
    marked = pipe.process_item(item("http://b/copy", REPOST))
    assert marked["duplicate_of"] == "http://a/bridge"
    assert stats(crawler) == {"cx/duplicates": 1}


def test_dict_items_without_a_fingerprint_get_one_from_their_content() -> None:
    pipe, _crawler = pipeline()
    pipe.process_item({"url": "http://a/1", "content": BRIDGE_STORY})  # paragraphs
    with pytest.raises(DropItem):
        pipe.process_item({"url": "http://b/1", "content": REPOST, "fingerprint": "md5:x"})


def test_short_and_empty_texts_are_never_duplicates() -> None:
    pipe, crawler = pipeline()
    for n in range(3):
        for content in ("", "Brief.", "Breaking: more soon."):
            pipe.process_item(item(f"http://a/{n}/{len(content)}", content))
    assert stats(crawler) == {}


def test_off_by_default_and_wired_by_the_addon_when_on() -> None:
    with pytest.raises(NotConfigured):
        DedupPipeline.from_crawler(make_crawler(Spider, {}))
    addon = {"ADDONS": {"scrapy_cx.Addon": 500}}
    assert "scrapy_cx.DedupPipeline" not in make_crawler(Spider, addon).settings["ITEM_PIPELINES"]
    on = make_crawler(Spider, {**addon, "CX_DEDUP": True}).settings["ITEM_PIPELINES"]
    assert dict(on) == {"scrapy_cx.ArticlePipeline": 100, "scrapy_cx.DedupPipeline": 150}


@pytest.mark.parametrize("name,value", [("CX_DEDUP_MODE", "delete"), ("CX_DEDUP_THRESHOLD", 0)])
def test_bad_settings_fail_at_start(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=name):
        pipeline(**{name: value})


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with running_redis(tmp_path) as url:
        yield url


def test_two_crawlers_share_the_index_in_redis(redis_url: str) -> None:
    first, _ = pipeline(CX_REDIS_URL=redis_url)
    second, crawler = pipeline(CX_REDIS_URL=redis_url)
    spider = Spider(name="news")
    first.process_item(item("http://a/bridge", STORY), spider)
    with pytest.raises(DropItem, match="duplicate of http://a/bridge"):
        second.process_item(item("http://b/copy", REPOST), spider)
    assert isinstance(second.index, RedisIndex)
    assert second.index.keys[0] == "news:cx-dedup:bands"
    assert stats(crawler) == {"cx/dropped/duplicate": 1}


def test_redis_gone_keeps_the_item_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with running_redis(tmp_path) as url:
        pipe, crawler = pipeline(CX_REDIS_URL=url)
    # the server is stopped now
    kept = item("http://a/bridge", STORY)
    with caplog.at_level(logging.ERROR):
        assert pipe.process_item(kept, Spider(name="news")) is kept
    assert "duplicate check failed for http://a/bridge" in caplog.text
    assert stats(crawler) == {"cx/dedup_errors": 1}


def test_a_shared_index_without_the_redis_package_fails_at_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without redis-py every item's check failed: the crawl gave 0 items and exit 0."""
    monkeypatch.setitem(sys.modules, "redis", None)  # `import redis` raises ImportError
    crawler = make_crawler(Spider, {"CX_DEDUP": True, "CX_REDIS_URL": "redis://127.0.0.1:1/0"})
    with pytest.raises(SettingError, match="CX_DEDUP with CX_REDIS_URL needs the redis package"):
        DedupPipeline.from_crawler(crawler)
