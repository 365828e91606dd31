"""ArticleMiddleware and ArticleSpiderMiddleware with real Scrapy crawlers, requests, responses."""

from __future__ import annotations

import logging
import warnings
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.core.spidermw import SpiderMiddlewareManager
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured, ScrapyDeprecationWarning
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse

from scrapy_cx import (
    Article,
    ArticleMiddleware,
    ArticleSpiderMiddleware,
    extract_article,
)
from scrapy_cx.middleware import looks_binary, pool_failure
from scrapy_cx.pool import PoolClosed, PoolError, RemoteError, TaskTimeout, WorkerDied
from tests.crawler import make_crawler
from tests.sample_pages import PARAGRAPHS, article_html

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")

URL = "http://news.example/2024/03/tram-line"
TITLE = "Council extends the northern tram line"
ZH_TITLE = "青河大桥今日正式通车"
ZH_PARAGRAPHS = [
    "本报讯 经过三年建设，青河大桥今天上午正式通车，市民从城东到城西的时间由四十分钟缩短到十分钟。",
    "据市交通局介绍，大桥全长一千二百米，双向六车道，设计时速六十公里，并设有非机动车道和人行道。",
    "通车仪式结束后，不少市民步行上桥参观，一位住在河边的老人说，他等这座桥已经等了二十年。",
    "交通局表示，大桥通车后将同步调整十二条公交线路，具体方案将在本周内向社会公布并征求意见。",
]


def zh_html(charset_meta: str | None) -> str:
    meta = f'<meta http-equiv="Content-Type" content="text/html; charset={charset_meta}">'
    paragraphs = "".join(f"<p>{p}</p>" for p in ZH_PARAGRAPHS)
    return (
        f"<html><head>{meta if charset_meta else ''}<title>{ZH_TITLE}_青河日报</title></head>"
        "<body><div class='nav'><a href='/'>首页</a> <a href='/news'>新闻</a></div>"
        f"<h1>{ZH_TITLE}</h1><div>2009-11-09 13:57 来源：青河日报</div>{paragraphs}"
        "<div class='footer'>版权所有 青河日报社</div></body></html>"
    )


def crawler(**settings: Any) -> Crawler:
    # In the reactor thread, so process_response answers at once; the worker pool
    # is tested in tests/test_pool.py and, in real crawls, in tests/e2e/test_workers.py.
    settings.setdefault("CX_WORKERS", 0)
    return make_crawler(Spider, settings)


def middleware(**settings: Any) -> tuple[ArticleMiddleware, Crawler]:
    c = crawler(**settings)
    return ArticleMiddleware.from_crawler(c), c


def html_response(
    body: bytes | None = None,
    url: str = URL,
    *,
    headers: dict[str, str] | None = None,
    status: int = 200,
    cls: type[Response] = HtmlResponse,
) -> Response:
    request = Request(url)
    if body is None:
        body = article_html(TITLE).encode("utf-8")
    if headers is None:
        headers = {"Content-Type": "text/html; charset=utf-8"}
    return cls(url, status=status, body=body, headers=headers, request=request)


def run(mw: ArticleMiddleware, response: Response) -> Response:
    assert response.request is not None
    return mw.process_response(response.request, response)


# --- ArticleMiddleware: what is extracted ------------------------------------------------


def test_html_page_gets_its_article_and_stays_the_same_response() -> None:
    mw, c = middleware()
    response = html_response()
    body = response.body
    assert run(mw, response) is response
    assert response.body == body
    article = response.meta["cx_article"]
    assert isinstance(article, Article)
    assert article.url == URL
    assert article.title == TITLE
    assert PARAGRAPHS[1] in article.content
    assert "cx_skipped" not in response.meta
    assert c.stats is not None and c.stats.get_value("cx/pages") == 1


def test_a_page_too_big_to_read_whole_is_counted_and_logged_with_its_url(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Past extract.parse.lines.MAX_LINES (10 000): read to there, the article kept and marked.
    lines = "<div>" + "row<br>" * 30_000 + "</div>"
    body = article_html(TITLE).replace("</footer>", "</footer>" + lines).encode()
    mw, c = middleware()
    with caplog.at_level(logging.INFO, logger="scrapy_cx"):
        run(mw, html_response(body))
        run(mw, html_response())
    assert c.stats is not None
    assert (c.stats.get_value("cx/pages"), c.stats.get_value("cx/truncated")) == (2, 1)
    assert [r.getMessage() for r in caplog.records if "too big" in r.getMessage()] == [
        f"scrapy-cx: page too big to read whole, extracted from its start: {URL}"
    ]


def test_local_file_response_without_content_type_is_html_by_class() -> None:
    # file:// responses carry no headers: Scrapy picks HtmlResponse from the name.
    mw, _ = middleware()
    response = html_response(url="file:///tmp/pages/tram.html", headers={})
    run(mw, response)
    assert response.meta["cx_article"].title == TITLE


def test_xhtml_content_type_is_html_whatever_the_class() -> None:
    mw, _ = middleware()
    response = html_response(headers={"Content-Type": "application/xhtml+xml"}, cls=TextResponse)
    run(mw, response)
    assert response.meta["cx_article"].title == TITLE


def test_header_charset_decodes_gbk() -> None:
    mw, _ = middleware()
    response = html_response(
        zh_html(None).encode("gbk"), headers={"Content-Type": "text/html; charset=GBK"}
    )
    run(mw, response)
    article = response.meta["cx_article"]
    assert article.title == ZH_TITLE
    assert ZH_PARAGRAPHS[2] in article.content


def test_meta_charset_gb2312_with_bare_header_is_read_by_the_core() -> None:
    mw, _ = middleware()
    response = html_response(
        zh_html("gb2312").encode("gb18030"), headers={"Content-Type": "text/html"}
    )
    run(mw, response)
    assert response.meta["cx_article"].title == ZH_TITLE


def test_utf16_page_with_bom_is_not_mistaken_for_binary() -> None:
    mw, _ = middleware()
    body = article_html(TITLE).encode("utf-16")  # BOM, then NUL-rich bytes
    run_response = html_response(body, headers={"Content-Type": "text/html"})
    run(mw, run_response)
    assert run_response.meta.get("cx_skipped") is None
    assert run_response.meta["cx_article"].title == TITLE


def test_settings_and_response_reach_the_extractor() -> None:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    class Recording(ArticleMiddleware):
        @staticmethod
        def extract(*args: Any, **kwargs: Any) -> Article:
            calls.append((args, kwargs))
            return extract_article(*args, **kwargs)

    c = crawler(
        CX_LINE_OPTIONS={"block_size": 4, "line_cost": 30},
        CX_DATE_LANGUAGES=["en"],
        CX_FORMATS="markdown",
    )
    response = html_response(headers={"Content-Type": "text/html; charset=UTF-8"})
    before = datetime.now(timezone.utc)
    run(Recording.from_crawler(c), response)
    [(args, kwargs)] = calls
    reference = kwargs.pop("reference_time")  # no Date header: the crawl's own clock
    assert before <= reference <= datetime.now(timezone.utc)
    assert (args, kwargs) == (
        (response.body, URL),
        {
            "encoding": "utf-8",
            "date_languages": ["en"],
            "formats": frozenset({"markdown"}),
            "block_size": 4,
            "line_cost": 30,
        },
    )
    assert response.meta["cx_article"].title == TITLE


def test_relative_dates_count_from_the_servers_date_header() -> None:
    mw, _ = middleware()
    page = (
        "<html><head><title>Harbour ferry returns</title></head><body>"
        "<h1>Harbour ferry returns</h1><p class='byline'>Posted 3 hours ago</p>"
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "</body></html>"
    ).encode()
    dated = html_response(page, headers={"Content-Type": "text/html",
                                         "Date": "Tue, 02 Mar 2021 15:00:00 GMT"})
    run(mw, dated)
    assert dated.meta["cx_article"].published.startswith("2021-03-02T12:00")
    undated = html_response(page, headers={"Content-Type": "text/html"})
    before = datetime.now(timezone.utc).replace(second=0, microsecond=0, tzinfo=None)
    run(mw, undated)
    # No Date header: the crawl's own clock, the moment the page was fetched.
    published = datetime.fromisoformat(undated.meta["cx_article"].published).replace(tzinfo=None)
    assert before - timedelta(hours=3, minutes=1) <= published <= before - timedelta(hours=2)


def test_a_year_less_date_counts_from_the_servers_date_header() -> None:
    """A 2019 story showing only "09-30 22:46", fetched in 2019, is dated 2019, never
    in the future of the response: a day ahead of the Date header is last year's."""
    mw, _ = middleware()
    page = (
        "<html><head><title>Harbour ferry returns</title></head><body>"
        "<h1>Harbour ferry returns</h1><p class='byline'>09-30 22:46</p>"
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "</body></html>"
    ).encode()
    for header, expected in (
        ("Sat, 05 Oct 2019 08:00:00 GMT", "2019-09-30T22:46:00"),
        ("Sat, 28 Sep 2019 08:00:00 GMT", "2018-09-30T22:46:00"),
        # 22:46 on the 30th is ahead of midnight UTC in every zone (at most UTC+14).
        ("Mon, 30 Sep 2019 00:00:00 GMT", "2018-09-30T22:46:00"),
    ):
        response = html_response(page, headers={"Content-Type": "text/html", "Date": header})
        run(mw, response)
        assert response.meta["cx_article"].published == expected


@pytest.mark.parametrize(
    ("date_header", "expected"),
    [
        # Past the calendar in UTC: counted in its own zone, the article kept.
        ("Fri, 31 Dec 9999 23:59:59 -1200", "9999-12-28"),
        ("Fri, 31 Dec 9999 23:59:59 -2359", "9999-12-28"),
        ("Mon, 01 Jan 2001 00:00:00 +2359", "2000-12-29"),
        # A year no datetime holds: the header is ignored, no guess is made.
        ("Fri, 31 Dec 99999999999999999999 23:59:59 GMT", None),
    ],
)
def test_a_date_header_at_the_ends_of_the_calendar_keeps_the_article(
    date_header: str, expected: str | None
) -> None:
    mw, _ = middleware()
    page = (
        "<html><head><title>Harbour ferry returns</title></head><body>"
        "<h1>Harbour ferry returns</h1><p class='byline'>Posted 3 days ago</p>"
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "</body></html>"
    ).encode()
    response = html_response(page, headers={"Content-Type": "text/html", "Date": date_header})
    run(mw, response)
    article = response.meta["cx_article"]
    assert article.title == "Harbour ferry returns" and article.content
    assert article.published == expected


# --- ArticleMiddleware: what is skipped ---------------------------------------------------

PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" + bytes(range(256))
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200)


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (html_response(b'{"title": "x"}', headers={"Content-Type": "application/json"},
                       cls=TextResponse), "not_html"),
        (html_response(b"<?xml version='1.0'?><rss><channel/></rss>",
                       headers={"Content-Type": "application/rss+xml"}, cls=XmlResponse),
         "not_html"),
        (html_response(PNG, headers={"Content-Type": "image/png"}, cls=Response), "not_html"),
        (html_response(PDF, headers={"Content-Type": "application/pdf"}, cls=Response),
         "not_html"),
        (html_response(PDF, headers={"Content-Type": "text/html"}), "binary"),
        (html_response(PNG, headers={}), "binary"),
        (html_response(bytes(range(32)) * 20, headers={"Content-Type": "text/html"}), "binary"),
        (html_response(b"", headers={"Content-Type": "text/html"}), "empty"),
        (html_response(b" \r\n\t ", headers={"Content-Type": "text/html"}), "empty"),
        (html_response(status=404), "status"),
        (html_response(status=500), "status"),
        (html_response(b"plain text", headers={}, cls=TextResponse), "not_html"),
    ],
    ids=["json", "rss", "image", "pdf", "pdf-as-html", "png-no-type", "control-bytes",
         "empty", "blank", "404", "500", "text-no-type"],
)
def test_non_pages_pass_through_untouched_with_a_reason(response: Response, reason: str) -> None:
    mw, c = middleware()
    body = response.body
    assert run(mw, response) is response
    assert response.body == body
    assert response.meta["cx_skipped"] == reason
    assert "cx_article" not in response.meta
    assert c.stats is not None
    assert c.stats.get_value(f"cx/skipped/{reason}") == 1
    assert c.stats.get_value("cx/pages") is None


def test_pages_over_the_size_limit_are_skipped() -> None:
    body = article_html(TITLE).encode()
    mw, c = middleware(CX_MAX_BODY_SIZE=len(body) - 1)
    response = html_response(body)
    run(mw, response)
    assert response.meta["cx_skipped"] == "too_large"
    mw, c = middleware(CX_MAX_BODY_SIZE=len(body))
    response = html_response(body)
    run(mw, response)
    assert response.meta["cx_article"].title == TITLE


def test_size_limit_zero_means_no_limit() -> None:
    mw, _ = middleware(CX_MAX_BODY_SIZE=0)
    response = html_response()
    run(mw, response)
    assert "cx_article" in response.meta


def test_looks_binary_keeps_ordinary_html() -> None:
    assert not looks_binary(b"\n\n  <!DOCTYPE html><html><body>\x00 stray NUL</body></html>")
    assert not looks_binary("<p>中文</p>".encode("gb18030"))
    assert looks_binary(b"  %PDF-1.4 ...")


def test_meta_copied_from_a_previous_page_is_replaced() -> None:
    # A spider passing response.meta on to the next request must not inherit its article.
    mw, _ = middleware()
    stale = Article(url="http://news.example/old", title="Old")
    request = Request(URL + ".json", meta={"cx_article": stale, "cx_skipped": "x"})
    response = TextResponse(
        request.url, body=b"{}", headers={"Content-Type": "application/json"}, request=request
    )
    mw.process_response(request, response)
    assert "cx_article" not in response.meta
    assert response.meta["cx_skipped"] == "not_html"


class _FailingMiddleware(ArticleMiddleware):
    """Plugs in an extractor that fails, as a bug in the core would."""

    @staticmethod
    def extract(*args: Any, **kwargs: Any) -> Article:
        raise RuntimeError("boom")


def test_extraction_error_is_logged_once_counted_and_the_response_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    c = crawler()
    mw = _FailingMiddleware.from_crawler(c)
    response = html_response()
    with caplog.at_level(logging.WARNING):
        assert run(mw, response) is response
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(records) == 1
    assert URL in records[0].getMessage()
    assert records[0].exc_info is not None
    assert response.meta["cx_skipped"] == "error"
    assert c.stats is not None
    assert c.stats.get_value("cx/errors") == 1
    assert c.stats.get_value("cx/pages") is None


def test_disabled_middleware_is_not_configured() -> None:
    with pytest.raises(NotConfigured):
        ArticleMiddleware.from_crawler(crawler(CX_ENABLED=False))
    with pytest.raises(NotConfigured):
        ArticleSpiderMiddleware.from_crawler(crawler(CX_ENABLED=False))


def test_managers_load_both_middlewares_without_deprecation_warnings() -> None:
    c = crawler(
        DOWNLOADER_MIDDLEWARES={"scrapy_cx.ArticleMiddleware": 540},
        SPIDER_MIDDLEWARES={"scrapy_cx.ArticleSpiderMiddleware": 950},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScrapyDeprecationWarning)
        downloader = DownloaderMiddlewareManager.from_crawler(c)
        spider = SpiderMiddlewareManager.from_crawler(c)
    assert any(isinstance(m, ArticleMiddleware) for m in downloader.middlewares)
    assert any(isinstance(m, ArticleSpiderMiddleware) for m in spider.middlewares)
    # Its output method is registered, not skipped as incompatible (Scrapy < 2.13
    # registers a (sync, async) pair, later versions one method).
    registered = [
        method
        for entry in spider.methods["process_spider_output"]
        for method in (entry if isinstance(entry, tuple) else (entry,))
        if method is not None
    ]
    assert any(isinstance(m.__self__, ArticleSpiderMiddleware) for m in registered)


@pytest.mark.parametrize(
    ("error", "reason", "level"),
    [
        (TaskTimeout("over 1 s"), "timeout", logging.WARNING),
        (WorkerDied("killed"), "worker_died", logging.ERROR),
        (RemoteError("Traceback..."), "error", logging.ERROR),
        (PoolClosed("closed"), "error", logging.ERROR),
    ],
)
def test_pool_failure_names_the_skip_and_logs_it_once(
    error: PoolError, reason: str, level: int, caplog: pytest.LogCaptureFixture
) -> None:
    # The middleware's and the pipeline's one account of a task the pool gave nothing for.
    with caplog.at_level(logging.DEBUG, logger="scrapy_cx"):
        assert pool_failure(error, URL) == reason
    assert [(r.levelno, URL in r.getMessage()) for r in caplog.records] == [(level, True)]
