"""NewsSpider's arguments and its wiring into a crawler (spiders/_news.py)."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from scrapy import signals
from scrapy.utils.test import get_crawler

from scrapy_cx.settings import SettingError
from scrapy_cx.spiders import NewsSpider
from scrapy_cx.spiders._seen import FILE_NAME


def _spider(settings: dict | None = None, **kwargs) -> NewsSpider:
    crawler = get_crawler(NewsSpider, settings or {})
    return NewsSpider.from_crawler(crawler, **kwargs)


def test_site_arguments():
    sites = "https://www.example.com/, https://news.example.co.uk"
    spider = _spider(site=sites, since="2024-05-01")
    assert spider.sites == ["https://www.example.com/", "https://news.example.co.uk"]
    assert spider.allowed_domains == ["example.co.uk", "example.com"]
    assert spider.since == datetime(2024, 5, 1, tzinfo=timezone.utc)
    assert spider.start_urls == []
    assert spider.on_site("https://m.example.com/a") and not spider.on_site("https://x.org/")


def test_bounds_given_as_arguments_are_numbers():
    spider = _spider(site="https://x.test/", max_listing_pages="3", sitemap_max_size="1000")
    assert spider.max_listing_pages == 3 and spider.sitemap_max_size == 1000


def test_only_one_source_and_a_readable_since():
    with pytest.raises(ValueError, match="-a start_url must be given alone"):
        _spider(site="https://x.test/", start_url="https://x.test/")
    with pytest.raises(ValueError, match="-a since must be a date .*, not 'last week'"):
        _spider(site="https://x.test/", since="last week")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"site": "notaurl"}, "-a site must be http(s) URLs with a host"),
        ({"site": "file:///etc/"}, "-a site must be http(s) URLs"),
        ({"site": "ftp://x.test/"}, "-a site must be http(s) URLs"),
        ({"site": "http://user:pw@x.test/"}, "no user:password"),
        ({"site": " , "}, "-a site must be one or more http(s) URLs, not ' , '"),
        ({"urls": "/missing.txt"}, "-a urls must be a text file of URLs, one a line"),
        ({"dir": "/missing"}, "-a dir must be a folder of saved"),
        ({"start_url": "javascript:alert(1)"}, "-a start_url must be an http(s) or file: URL"),
        ({"start_url": "https://x.test/", "follow": "maybe"}, "-a follow must be 1 or 0"),
        ({"start_url": "https://x.test/", "depth": "x"}, "-a depth must be a whole number >= 0"),
        ({"site": "https://x.test/", "since": "yesterday"}, "-a since must be a date"),
        ({"site": "https://x.test/", "max_urls_per_source": "-1"}, "a whole number >= 1"),
        ({"site": "https://x.test/", "sitemap_max_size": "-1"}, "-a sitemap_max_size must be"),
        ({"site": "https://x.test/", "max_sections": "many"}, "a whole number >= 0, not 'many'"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it(arguments, message):
    with pytest.raises(SettingError) as raised:
        _spider(**arguments)
    assert message in str(raised.value)
    assert isinstance(raised.value, SystemExit)  # what ends `scrapy crawl` with the line
    assert raised.value.code == f"scrapy-cx: {raised.value}"
    assert "\n" not in str(raised.value)


def test_the_polite_defaults_are_the_spider_s():
    crawler = get_crawler(NewsSpider, {})
    assert crawler.settings.getbool("AUTOTHROTTLE_ENABLED")
    assert crawler.settings.getbool("ROBOTSTXT_OBEY")
    assert crawler.settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN") == 2
    assert crawler.settings.getpriority("AUTOTHROTTLE_ENABLED") < 40  # below -s (cmdline)


def test_an_exported_item_is_recorded_in_the_jobdir(tmp_path):
    spider = _spider({"JOBDIR": str(tmp_path), "CX_MAX_ARTICLE_PAGES": 4}, site="https://x.test/")
    assert spider.max_article_pages == 4
    # Recorded from spider_opened on, after the feed exporter's own item_scraped handler.
    spider.crawler.signals.send_catch_log(signals.spider_opened, spider=spider)
    spider.crawler.signals.send_catch_log(
        signals.item_scraped,
        item={"url": "https://x.test/a", "pages": ["https://x.test/a", "https://x.test/a?p=2"]},
        response=None,
        spider=spider,
    )
    assert (tmp_path / FILE_NAME).read_text(encoding="utf-8").splitlines() == [
        "https://x.test/a",
        "https://x.test/a?p=2",
    ]


def test_without_site_nothing_is_recorded(tmp_path):
    spider = _spider({"JOBDIR": str(tmp_path)}, start_url="https://x.test/")
    assert spider.seen is None
    assert spider.start_urls == ["https://x.test/"]


def test_the_boundary_middleware_joins_the_project_s_middlewares():
    crawler = get_crawler(NewsSpider, {"DOWNLOADER_MIDDLEWARES": {"project.Middleware": 10}})
    middlewares = crawler.settings.getwithbase("DOWNLOADER_MIDDLEWARES")
    assert middlewares["project.Middleware"] == 10
    assert middlewares["scrapy_cx.spiders._boundary.BoundaryMiddleware"] == 50
    assert middlewares["scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware"] > 50


def test_article_spider_arguments_of_zyte_spider_templates():
    """-a url= / urls= / crawl_strategy= as zyte-spider-templates' ArticleSpider takes them."""
    spider = _spider(url="https://www.example.com/")
    assert spider.sites == ["https://www.example.com/"] and spider.start_urls == []
    spider = _spider(urls="https://a.example.com/ https://b.example.org/", crawl_strategy="full")
    assert spider.sites == ["https://a.example.com/", "https://b.example.org/"]
    pages = ["https://x.test/a.html", "https://x.test/b.html"]
    spider = _spider(urls="\n".join(pages), crawl_strategy="direct_item")
    assert spider.sites == [] and spider.start_urls == pages
    spider = _spider(url=pages[0], crawl_strategy="direct_item")
    assert spider.start_urls == pages[:1]
    assert not hasattr(spider, "crawl_strategy") and not hasattr(spider, "url")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"url": "https://x.test/", "crawl_strategy": "navigation"}, "-a crawl_strategy must be"),
        ({"url": "https://x.test/", "incremental": "true"}, "-s JOBDIR=DIR"),
        ({"url": "https://x.test/", "site": "https://y.test/"}, "-a url must be given alone"),
        ({"url": "ftp://x.test/", "crawl_strategy": "direct_item"}, "-a start_url must be"),
        ({"urls": "https://x.test/ notaurl"}, "-a urls must be a text file of URLs"),
    ],
)
def test_a_bad_article_spider_argument_is_one_line(arguments, message):
    with pytest.raises(SettingError, match=re.escape(message)):
        _spider(**arguments)


def test_incremental_off_and_an_empty_url_are_taken_quietly():
    spider = _spider(url="https://www.example.com/", incremental="false")
    assert spider.sites == ["https://www.example.com/"] and not hasattr(spider, "incremental")
    spider = _spider(url="", start_url="https://x.test/")
    assert spider.sites == [] and spider.start_urls == ["https://x.test/"]
    assert not hasattr(spider, "url")
