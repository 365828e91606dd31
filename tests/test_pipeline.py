"""ArticlePipeline: extraction from raw HTML, validation, drops, stats, item types."""

from __future__ import annotations

import dataclasses
import logging
import warnings
from datetime import date, datetime
from typing import Any

import attrs
import pytest
import scrapy
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured, ScrapyDeprecationWarning
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.logformatter import LogFormatter
from scrapy.pipelines import ItemPipelineManager

from scrapy_cx import (
    Article,
    ArticleItem,
    ArticleMiddleware,
    ArticlePipeline,
    ArticleSpiderMiddleware,
)
from scrapy_cx.items import fill_item
from scrapy_cx.pipeline import DropLogFormatter
from scrapy_cx.verdict import SkipNotes, is_iso_date
from tests.crawler import make_crawler
from tests.sample_pages import PARAGRAPHS, article_html, listing_html

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")

URL = "http://news.example/2024/03/tram-line"
TITLE = "Council extends the northern tram line"
CONTENT = "\n".join(PARAGRAPHS)


def pipeline(**settings: Any) -> tuple[ArticlePipeline, Crawler]:
    """The pipeline extracting raw HTML in this thread (``CX_WORKERS = 0``): the pool's
    way is a real crawl's (``tests/e2e/test_workers.py``)."""
    crawler = make_crawler(Spider, {"CX_WORKERS": 0, **settings})
    return ArticlePipeline.from_crawler(crawler), crawler


def stats(crawler: Crawler) -> dict[str, Any]:
    assert crawler.stats is not None
    return {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("cx/")}


def complete(**overrides: Any) -> ArticleItem:
    article = Article(
        url=URL,
        title=TITLE,
        published="2024-03-05T09:30:00+01:00",
        content=CONTENT,
        page_type="article",
    )
    item = ArticleItem.from_article(article)
    item.update(overrides)
    return item


def test_complete_article_passes_and_is_counted() -> None:
    pipe, crawler = pipeline()
    item = complete()
    assert pipe.process_item(item) is item
    assert stats(crawler) == {"cx/articles": 1}


def test_scrapy_211_style_call_with_a_spider_argument_works() -> None:
    pipe, crawler = pipeline()
    assert crawler.spidercls is not None
    spider = crawler.spidercls(name="news")
    item = complete()
    assert pipe.process_item(item, spider) is item


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"content": ""}, "no_content"),
        ({"content": None}, "no_content"),
        ({"content": "Too short to be news."}, "short_content"),
        ({"title": "  "}, "no_title"),
        ({"title": None}, "no_title"),
        ({"published": "yesterday"}, "bad_published"),
        ({"published": "05/03/2024"}, "bad_published"),
    ],
)
def test_non_articles_are_dropped_with_a_reason(overrides: dict[str, Any], reason: str) -> None:
    pipe, crawler = pipeline()
    with pytest.raises(DropItem, match=rf"not an article \({reason}\): {URL}") as dropped:
        pipe.process_item(complete(**overrides))
    assert dropped.value.log_level == "INFO"  # expected, not a warning
    assert stats(crawler) == {f"cx/dropped/{reason}": 1}


def test_a_page_judged_to_be_a_listing_is_dropped_naming_its_type() -> None:
    pipe, crawler = pipeline()
    with pytest.raises(DropItem, match=r"not an article \(page_type_listing\)"):
        pipe.process_item(complete(page_type="listing"))
    assert stats(crawler) == {"cx/dropped/page_type_listing": 1}
    assert pipe.process_item(complete(page_type="thread"))["page_type"] == "thread"


def test_a_page_less_likely_an_article_than_the_setting_is_dropped_and_counted() -> None:
    pipe, crawler = pipeline(CX_MIN_ARTICLE_PROBABILITY=0.6)
    with pytest.raises(DropItem, match=r"not an article \(low_probability\)"):
        pipe.process_item(complete(article_probability=0.4))
    assert pipe.process_item(complete(article_probability=0.8))["article_probability"] == 0.8
    assert stats(crawler) == {"cx/dropped/low_probability": 1, "cx/articles": 1}
    default, _ = pipeline()  # 0: today's verdict, whatever the probability
    assert default.process_item(complete(article_probability=0.01)) is not None


def test_kept_page_types_are_a_setting() -> None:
    pipe, _ = pipeline(CX_PAGE_TYPES=["article", "listing"])
    pipe.process_item(complete(page_type="listing"))
    with pytest.raises(DropItem, match="page_type_thread"):
        pipe.process_item(complete(page_type="thread"))


def test_a_spiders_own_item_without_content_is_never_dropped_as_no_content() -> None:
    # A link item from an index page: the extractor never judged it.
    pipe, crawler = pipeline()
    link = {"url": "http://news.example/other", "title": "Another story"}
    assert pipe.process_item(link) is link
    link_item = ArticleItem(url="http://news.example/other", title="Another story")
    assert pipe.process_item(link_item) is link_item
    assert stats(crawler) == {}


def test_a_short_chinese_news_item_is_kept() -> None:
    # 120 characters: a whole news item in Chinese, shorter than CX_MIN_CONTENT_LENGTH.
    sentence = "本报讯 市交通局昨日宣布，三条通往机场的夜间公交线路将于三月开通，每二十分钟一班。"
    text = (sentence * 4)[:120]
    pipe, _ = pipeline()
    assert pipe.process_item(complete(content=text))["content"] == text


def test_drops_follow_the_projects_drop_log_level_when_it_sets_one() -> None:
    pipe, _ = pipeline(DEFAULT_DROPITEM_LOG_LEVEL="DEBUG")
    with pytest.raises(DropItem) as dropped:
        pipe.process_item(complete(content=""))
    assert dropped.value.log_level is None  # Scrapy applies the project's level


def test_a_dropped_article_is_logged_as_one_short_line_not_whole() -> None:
    crawler = make_crawler(Spider, {"ADDONS": {"scrapy_cx.Addon": 500}})
    pipe = ArticlePipeline.from_crawler(crawler)
    formatter = DropLogFormatter.from_crawler(crawler)
    spider = Spider("news")
    spider.crawler = crawler
    item = complete(content=CONTENT * 400, title="T" * 500, page_type="listing")
    with pytest.raises(DropItem) as dropped:
        pipe.process_item(item)
    result = formatter.dropped(item, dropped.value, None, spider)
    line = result["msg"] % result["args"]
    # The level stays Scrapy's own (INFO from 2.13 on, WARNING before).
    assert result["level"] == LogFormatter().dropped(item, dropped.value, None, spider)["level"]
    assert len(line) < 400, line
    assert "page_type_listing" in line and URL in line and "T" * 100 in line
    assert f"content {len(CONTENT) * 400} characters" in line
    # Items that are not articles are logged as Scrapy logs them.
    other = {"name": "a link", "href": URL}
    result = formatter.dropped(other, DropItem("own pipeline"), None, spider)
    assert "'a link'" in result["msg"] % result["args"]


def test_minimum_length_is_a_setting() -> None:
    pipe, _ = pipeline(CX_MIN_CONTENT_LENGTH=len(CONTENT) + 1)
    with pytest.raises(DropItem, match="short_content"):
        pipe.process_item(complete())
    pipe, _ = pipeline(CX_MIN_CONTENT_LENGTH=len(CONTENT))
    pipe.process_item(complete())


def test_missing_date_is_fine_unless_required() -> None:
    pipe, _ = pipeline()
    pipe.process_item(complete(published=None))
    pipe, crawler = pipeline(CX_REQUIRE_PUBLISHED=True)
    with pytest.raises(DropItem, match="no_published"):
        pipe.process_item(complete(published=None))
    assert stats(crawler) == {"cx/dropped/no_published": 1}


def test_drop_off_keeps_invalid_items_without_counting_them_as_articles() -> None:
    pipe, crawler = pipeline(CX_DROP_NON_ARTICLES=False)
    item = complete(content="")
    assert pipe.process_item(item) is item
    assert stats(crawler) == {}


def test_dict_with_raw_html_is_extracted_and_the_html_removed() -> None:
    pipe, crawler = pipeline()
    item = pipe.process_item({"url": URL, "html": article_html(TITLE)})
    assert item["title"] == TITLE
    assert PARAGRAPHS[2] in item["content"]
    assert item["published"].startswith("2024-03-05")
    assert "html" not in item
    assert stats(crawler) == {"cx/pages": 1, "cx/articles": 1}


def test_raw_html_too_big_to_read_whole_is_counted() -> None:
    pipe, crawler = pipeline()
    html = article_html(TITLE).replace("</footer>", "</footer>" + "row<br>" * 30_000)
    item = pipe.process_item({"url": URL, "html": html})
    assert item["truncated"] is True and PARAGRAPHS[2] in item["content"]
    assert stats(crawler) == {"cx/pages": 1, "cx/truncated": 1, "cx/articles": 1}


def test_raw_html_bytes_and_kept_html() -> None:
    pipe, _ = pipeline(CX_KEEP_HTML=True)
    html = article_html(TITLE).encode("utf-8")
    item = pipe.process_item({"url": URL, "html": html})
    assert item["title"] == TITLE
    assert item["html"] == html


def test_html_field_name_is_a_setting() -> None:
    pipe, _ = pipeline(CX_HTML_FIELD="body")
    item = pipe.process_item({"url": URL, "body": article_html(TITLE)})
    assert item["title"] == TITLE
    assert "body" not in item


def test_raw_html_of_a_listing_page_is_dropped() -> None:
    pipe, crawler = pipeline()
    with pytest.raises(DropItem, match="content"):
        pipe.process_item({"url": URL, "html": listing_html()})
    assert stats(crawler)["cx/pages"] == 1


def test_spider_values_win_over_extracted_ones() -> None:
    pipe, _ = pipeline()
    item = pipe.process_item({"url": URL, "title": "Spider title", "html": article_html(TITLE)})
    assert item["title"] == "Spider title"


@dataclasses.dataclass
class StoredPage:
    url: str
    html: str | None = None
    title: str | None = None
    content: str = ""


@attrs.define
class StoredPageAttrs:
    url: str
    html: bytes | None = None
    content: str = ""
    title: str = ""


def test_dataclass_and_attrs_items_keep_their_html_field_emptied() -> None:
    pipe, _ = pipeline()
    page = pipe.process_item(StoredPage(URL, html=article_html(TITLE)))
    assert page == StoredPage(URL, None, TITLE, page.content)
    assert PARAGRAPHS[0] in page.content
    page_attrs = pipe.process_item(StoredPageAttrs(URL, html=article_html(TITLE).encode()))
    assert page_attrs.html is None
    assert page_attrs.title == TITLE


class RawArticle(ArticleItem):
    html = scrapy.Field()


def test_article_item_subclass_with_html_field() -> None:
    pipe, _ = pipeline()
    item = pipe.process_item(RawArticle(url=URL, html=article_html(TITLE)))
    assert item["title"] == TITLE
    assert "html" not in item


def test_yielded_article_becomes_an_editable_item() -> None:
    pipe, _ = pipeline()
    item = pipe.process_item(
        Article(url=URL, title=TITLE, content=CONTENT, authors=("A. Writer",))
    )
    assert isinstance(item, ArticleItem)
    assert item["authors"] == ["A. Writer"]


class Product(scrapy.Item):
    name = scrapy.Field()
    price = scrapy.Field()


def test_items_that_cannot_hold_an_article_pass_untouched() -> None:
    pipe, crawler = pipeline()
    product = Product(name="Kettle", price=20)
    assert pipe.process_item(product) is product
    assert stats(crawler) == {}


def test_settings_reach_the_extractor_as_in_the_crawl() -> None:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    class Recording(ArticlePipeline):
        @staticmethod
        def extract(*args: Any, **kwargs: Any) -> Article:
            calls.append((args, kwargs))
            return Article(url=URL, title=TITLE, content=CONTENT, page_type="article")

    crawler = make_crawler(
        Spider,
        {
            "CX_LINE_OPTIONS": {"headline_cut": False},
            "CX_DATE_LANGUAGES": ["en"],
            "CX_FORMATS": [],
            "CX_WORKERS": 0,
        },
    )
    Recording.from_crawler(crawler).process_item({"url": URL, "html": "<p>x</p>"})
    assert calls == [
        (
            ("<p>x</p>", URL),
            {"encoding": None, "reference_time": None, "date_languages": ["en"],
             "formats": frozenset(), "headline_cut": False},
        )
    ]


class _FailingPipeline(ArticlePipeline):
    @staticmethod
    def extract(*args: Any, **kwargs: Any) -> Article:
        raise RuntimeError("boom")


def test_extraction_error_is_logged_counted_and_the_item_judged_as_it_is(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = make_crawler(Spider, {"CX_WORKERS": 0})
    pipe = _FailingPipeline.from_crawler(crawler)
    with caplog.at_level(logging.WARNING), pytest.raises(DropItem, match="no_content"):
        pipe.process_item({"url": URL, "html": article_html(TITLE)})
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        f"scrapy-cx: extraction failed for {URL}"
    ]
    assert stats(crawler) == {"cx/errors": 1, "cx/dropped/no_content": 1}


def test_disabled_pipeline_is_not_configured() -> None:
    with pytest.raises(NotConfigured):
        pipeline(CX_ENABLED=False)


def test_pipeline_manager_loads_it_without_deprecation_warnings() -> None:
    crawler = make_crawler(Spider, {"ITEM_PIPELINES": {"scrapy_cx.ArticlePipeline": 100}})
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScrapyDeprecationWarning)
        manager = ItemPipelineManager.from_crawler(crawler)
    assert any(isinstance(m, ArticlePipeline) for m in manager.middlewares)


def test_summary_line_once_per_crawler_when_the_spider_closes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = make_crawler(Spider, {"ADDONS": {"scrapy_cx.Addon": 500}})
    pipe = ArticlePipeline.from_crawler(crawler)
    ArticlePipeline.from_crawler(crawler)  # a second component: still one line
    pipe.process_item(complete())
    with pytest.raises(DropItem):
        pipe.process_item(complete(content="short"))
    assert crawler.stats is not None
    crawler.stats.inc_value("cx/skipped/not_html", 3)
    spider = Spider.from_crawler(crawler, name="news")
    with caplog.at_level(logging.INFO, logger="scrapy_cx"):
        crawler.signals.send_catch_log(signals.spider_closed, spider=spider, reason="finished")
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("scrapy-cx:")]
    assert lines == [
        "scrapy-cx: 0 pages, 1 articles, skipped {'not_html': 3}, "
        "dropped {'short_content': 1}, errors 0"
    ]


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("2024-03-05", True),
        ("2024-03-05T09:30:00", True),
        ("2024-03-05T09:30:00+01:00", True),
        ("2024-03-05T09:30:00Z", True),
        ("2024-03-05T09:30:00.123+08:00", True),
        (date(2024, 3, 5), True),
        (datetime(2024, 3, 5, 9, 30), True),
        ("2024-13-05", False),
        ("5 March 2024", False),
        ("2024", False),
        (20240305, False),
        ("", False),
    ],
)
def test_is_iso_date(value: object, ok: bool) -> None:
    assert is_iso_date(value) is ok


# --- items about pages that were never extracted ------------------------------------------

PDF_BODY = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"


@pytest.mark.parametrize(
    ("body", "content_type", "cls", "reason"),
    [
        (b"<html><body>" + b"<p>too long a page</p>" * 200 + b"</body></html>",
         "text/html", HtmlResponse, "too_large"),
        (PDF_BODY, "application/pdf", Response, "not_html"),
        (PDF_BODY, "text/html", HtmlResponse, "binary"),
        (b'{"title": "Council extends the tram line"}', "application/json", TextResponse,
         "not_html"),
    ],
    ids=["too-large", "pdf", "pdf-as-html", "json"],
)
def test_url_item_of_a_skipped_page_is_dropped_for_the_real_reason_with_its_url(
    body: bytes, content_type: str, cls: type[Response], reason: str
) -> None:
    crawler = make_crawler(Spider, {"CX_MAX_BODY_SIZE": 1000})
    downloader = ArticleMiddleware.from_crawler(crawler)
    spider_mw = ArticleSpiderMiddleware.from_crawler(crawler)
    pipe = ArticlePipeline.from_crawler(crawler)
    request = Request(URL)
    response = cls(URL, body=body, headers={"Content-Type": content_type}, request=request)
    downloader.process_response(request, response)
    (item,) = spider_mw.process_spider_output(response, iter([{"url": response.url}]))
    with pytest.raises(DropItem) as dropped:
        pipe.process_item(item)
    assert str(dropped.value) == f"scrapy-cx: page not extracted ({reason}): {URL}"
    assert stats(crawler) == {f"cx/skipped/{reason}": 1, f"cx/dropped/{reason}": 1}
    assert len(SkipNotes.of(crawler)) == 0  # the note went with the item


def test_item_judged_by_the_extractor_keeps_no_content_and_other_pages_items_no_note() -> None:
    crawler = make_crawler(Spider, {})
    spider_mw = ArticleSpiderMiddleware.from_crawler(crawler)
    pipe = ArticlePipeline.from_crawler(crawler)
    request = Request(URL)
    response = Response(URL, body=PDF_BODY, request=request)
    response.meta["cx_skipped"] = "not_html"
    other = {"url": "http://news.example/elsewhere"}
    assert list(spider_mw.process_spider_output(response, iter([other]))) == [other]
    with pytest.raises(DropItem, match=r"not an article \(no_content\)"):
        pipe.process_item(other)
    assert len(SkipNotes.of(crawler)) == 0


def test_notes_no_pipeline_took_are_forgotten_when_the_item_leaves() -> None:
    crawler = make_crawler(Spider, {})
    notes = SkipNotes.of(crawler)
    item = {"url": URL}
    notes.note(item, "too_large")
    crawler.signals.send_catch_log(signals.item_scraped, item=item, response=None, spider=None)
    assert len(notes) == 0



def _judged(item: dict[str, Any], article: Article, verdict: str | None) -> ArticlePipeline:
    """A pipeline whose notes say ``item`` was filled from ``article``, judged ``verdict``
    where it was extracted (as the spider middleware notes it with workers)."""
    pipe, crawler = pipeline()
    SkipNotes.of(crawler).judged(item, article, verdict)
    return pipe


def _filled() -> tuple[dict[str, Any], Article]:
    article = Article(url=URL, title=TITLE, content=CONTENT, page_type="article")
    item: dict[str, Any] = {"url": URL}
    fill_item(item, article)
    return item, article


def test_the_workers_verdict_is_used_while_the_judged_fields_are_the_articles() -> None:
    item, article = _filled()
    # A verdict unlike the rule's own shows which of the two decided.
    with pytest.raises(DropItem, match="short_content"):
        _judged(item, article, "short_content").process_item(item)


def test_an_item_changed_after_its_verdict_is_judged_again() -> None:
    item, article = _filled()
    item["content"] = CONTENT[:-1] + CONTENT[-1]  # equal text, not the article's own object
    assert item["content"] is not article.content
    assert _judged(item, article, "short_content").process_item(item) is item


def test_a_zyte_article_dropped_for_its_probability_is_one_info_line() -> None:
    zci = pytest.importorskip("zyte_common_items")
    from zyte_common_items.pipelines import DropLowProbabilityItemPipeline

    crawler = make_crawler(Spider, {"ADDONS": {"scrapy_cx.Addon": 500}})
    spider = Spider.from_crawler(crawler, "news")
    crawler.spider = spider
    item = zci.Article(
        url=URL,
        headline="News | The Valley Chronicle",
        articleBody=CONTENT * 400,
        metadata=zci.ArticleMetadata(probability=0.05),
    )
    with pytest.raises(DropItem) as dropped:
        DropLowProbabilityItemPipeline(crawler).process_item(item, spider)
    result = DropLogFormatter.from_crawler(crawler).dropped(item, dropped.value, None, spider)
    line = result["msg"] % result["args"]
    assert result["level"] == logging.INFO  # as zyte-common-items' own formatter logs it
    assert len(line) < 400, line
    assert "probability (0.05)" in line and URL in line and "The Valley Chronicle" in line
    assert f"content {len(CONTENT) * 400} characters" in line
