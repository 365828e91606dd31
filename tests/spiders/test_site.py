"""The site= crawl's callbacks on real responses (spiders/_site.py)."""

from __future__ import annotations

import gzip

import scrapy
from scrapy.http import HtmlResponse, Response, XmlResponse
from scrapy.utils.test import get_crawler
from twisted.python.failure import Failure

from scrapy_cx import Article
from scrapy_cx.items import ArticleItem
from scrapy_cx.spiders import NewsSpider
from scrapy_cx.spiders._site import PARTS, ROLE

SITE = "https://www.x.test"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def _spider(**kwargs) -> NewsSpider:
    crawler = get_crawler(NewsSpider, {"CX_MAX_ARTICLE_PAGES": 3})
    spider = NewsSpider.from_crawler(crawler, site=SITE + "/", **kwargs)
    return spider


def _stat(spider: NewsSpider, key: str) -> int:
    return spider.crawler.stats.get_value(key, 0)


def _requests(results) -> list[scrapy.Request]:
    return [r for r in results if isinstance(r, scrapy.Request)]


def _xml(url: str, body: bytes, role: str = "sitemap") -> XmlResponse:
    request = scrapy.Request(url, meta={ROLE: role})
    return XmlResponse(url, body=body, request=request)


def _page(url: str, article: Article | None, **meta) -> HtmlResponse:
    request = scrapy.Request(url, meta={"cx_article": article, **meta})
    return HtmlResponse(url, body=b"<html></html>", request=request)


def test_article_requests_are_filtered_and_counted():
    spider = _spider(since="2024-05-01")
    spider.seen.add([SITE + "/old-news"])
    assert spider.article_request("https://elsewhere.test/a") is None
    assert spider.article_request(SITE + "/a", "2024-04-30") is None
    assert spider.article_request(SITE + "/old-news") is None
    first = spider.article_request(SITE + "/b#comments", "2024-05-02")
    assert first is not None and first.url == SITE + "/b" and first.dont_filter
    assert spider.article_request(SITE + "/b") is None  # once per run
    assert _stat(spider, "cx/news/offsite/domain") == 1
    assert _stat(spider, "cx/news/too_old_listed") == 1
    assert _stat(spider, "cx/skipped/seen") == 1


def test_a_sitemap_index_naming_itself_is_read_once():
    spider = _spider()
    url = SITE + "/sitemap.xml"
    assert spider.source(url, spider.parse_sitemap, "sitemap") is not None
    body = f'<sitemapindex {NS}><sitemap><loc>{url}</loc></sitemap></sitemapindex>'.encode()
    assert _requests(spider.parse_sitemap(_xml(url, body))) == []
    assert _stat(spider, "cx/news/source_repeated") == 1


def test_a_sitemap_over_its_bounds():
    spider = _spider(max_urls_per_source="5", sitemap_max_size="10000")
    urls = "".join(f"<url><loc>{SITE}/a{i}</loc></url>" for i in range(20))
    body = f"<urlset {NS}>{urls}</urlset>".encode()
    assert len(_requests(spider.parse_sitemap(_xml(SITE + "/s.xml", body)))) == 5
    assert _stat(spider, "cx/news/sitemap_capped") == 15
    bomb = gzip.compress(f"<urlset {NS}>".encode() + b"<url><loc>x</loc></url>" * 10_000)
    response = Response(SITE + "/s.xml.gz", body=bomb, request=scrapy.Request(SITE + "/s.xml.gz"))
    assert _requests(spider.parse_sitemap(response)) == []
    assert _stat(spider, "cx/news/sitemap_too_large") == 1


def test_a_listing_is_followed_not_exported_and_a_caught_up_pager_stops():
    spider = _spider()
    listing = Article(
        url=SITE + "/world/",
        page_type="listing",
        article_links=(SITE + "/a", SITE + "/b"),
        next_page=SITE + "/world/page/2/",
    )
    out = list(spider.parse_page(_page(SITE + "/world/", listing, **{ROLE: "listing"})))
    assert [r.url for r in _requests(out)] == [SITE + "/a", SITE + "/b", SITE + "/world/page/2/"]
    assert not [o for o in out if not isinstance(o, scrapy.Request)]  # nothing exported
    again = Article(url=SITE + "/world/page/2/", page_type="listing", article_links=(SITE + "/a",),
                    next_page=SITE + "/world/page/3/")
    out = list(spider.parse_page(_page(again.url, again, **{ROLE: "listing"})))
    assert out == [] and _stat(spider, "cx/news/listing_caught_up") == 1


def _part(url: str, title: str, following: str | None, text: str) -> Article:
    return Article(url=url, title=title, page_type="article", next_page=following,
                   content=text * 60)


def test_a_split_article_is_read_to_its_end_and_exported_once():
    spider = _spider()
    one = _part(SITE + "/s.html", "Story", SITE + "/s.html?page=2", "One. ")
    [request] = _requests(spider.parse_page(_page(one.url, one)))
    assert request.url == SITE + "/s.html?page=2" and request.meta[PARTS] == [one]
    two = _part(SITE + "/s.html?page=2", "Story", None, "Two. ")
    [item] = list(spider.parse_part(_page(two.url, two, **request.meta)))
    assert isinstance(item, ArticleItem)
    assert item["pages"] == [one.url, two.url]
    assert item["content"].startswith("One.") and "Two." in item["content"]


def test_a_split_article_ends_at_a_loop_a_bound_another_story_or_a_missing_page():
    spider = _spider()  # CX_MAX_ARTICLE_PAGES = 3
    one = _part(SITE + "/l.html", "Loop", SITE + "/l.html?page=2", "One. ")
    two = _part(SITE + "/l.html?page=2", "Loop", SITE + "/l.html", "Two. ")
    [item] = list(spider.parse_part(_page(two.url, two, **{PARTS: [one]})))
    assert item["pages"] == [one.url, two.url]
    assert _stat(spider, "cx/news/split_ended/loop") == 1

    one = _part(SITE + "/m.html", "Many", SITE + "/m.html?page=2", "One. ")
    two = _part(SITE + "/m.html?page=2", "Many", SITE + "/m.html?page=3", "Two. ")
    three = _part(SITE + "/m.html?page=3", "Many", SITE + "/m.html?page=4", "Three. ")
    [item] = list(spider.parse_part(_page(three.url, three, **{PARTS: [one, two]})))
    assert len(item["pages"]) == 3 and _stat(spider, "cx/news/split_ended/max_pages") == 1

    one = _part(SITE + "/o.html", "First story", SITE + "/o.html?page=2", "One. ")
    other = _part(SITE + "/o.html?page=2", "Second story", None, "Other. ")
    out = list(spider.parse_part(_page(other.url, other, **{PARTS: [one]})))
    assert [o["url"] for o in out] == [one.url, other.url]  # both, each on its own
    assert out[0]["pages"] == []

    one = _part(SITE + "/g.html", "Gone", SITE + "/g.html?page=2", "One. ")
    failure = Failure(ValueError("404"))
    failure.request = scrapy.Request(SITE + "/g.html?page=2", meta={PARTS: [one]})
    [item] = list(spider.part_failed(failure))
    assert item["url"] == one.url and _stat(spider, "cx/news/split_ended/missing") == 1


def test_an_article_older_than_since_is_not_exported():
    spider = _spider(since="2024-05-01")
    old = Article(url=SITE + "/old", page_type="article", published="2024-04-01", content="x")
    assert list(spider.parse_page(_page(old.url, old))) == []
    assert _stat(spider, "cx/dropped/too_old") == 1
    new = Article(url=SITE + "/new", page_type="article", published="2024-05-02", content="x")
    assert list(spider.parse_page(_page(new.url, new))) == [{"url": SITE + "/new"}]
