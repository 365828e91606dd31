"""The add-on: what it enables and at which priority, and a real crawl wired by it."""

from __future__ import annotations

import ast
import gzip
import json
import logging
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy import Spider, signals
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.core.spidermw import SpiderMiddlewareManager
from scrapy.pipelines import ItemPipelineManager
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.conf import build_component_list

from scrapy_cx import Article, ArticleMiddleware, ArticlePipeline, ArticleSpiderMiddleware
from scrapy_cx.addon import CSV_EXPORTER, LOG_FORMATTER, MAXSIZE_FACTOR
from scrapy_cx.settings import DEFAULTS
from tests.crawler import make_crawler
from tests.sample_pages import PARAGRAPHS, article_html
from tests.support.server import Route, serve

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")

ADDON = {"ADDONS": {"scrapy_cx.Addon": 500}}
COMPONENT_SETTINGS = ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES")


def enabled(settings: dict[str, Any]) -> dict[str, list[str]]:
    crawler = make_crawler(Spider, settings)
    return {
        name: build_component_list(crawler.settings.getwithbase(name))
        for name in COMPONENT_SETTINGS
    }


def test_one_line_enables_all_components_at_their_orders() -> None:
    settings = make_crawler(Spider, ADDON).settings
    assert dict(settings["DOWNLOADER_MIDDLEWARES"]) == {
        "scrapy_cx.ArticleMiddleware": 540,
        "scrapy_cx.sizeguard.SizeGuardMiddleware": 595,
    }
    assert dict(settings["SPIDER_MIDDLEWARES"]) == {"scrapy_cx.ArticleSpiderMiddleware": 950}
    assert dict(settings["ITEM_PIPELINES"]) == {"scrapy_cx.ArticlePipeline": 100}


def test_downloader_middleware_sees_decompressed_final_responses() -> None:
    # process_response runs from high to low order: ours must come after
    # decompression (590), meta refresh (580) and retry (550).
    order = enabled(ADDON)["DOWNLOADER_MIDDLEWARES"]
    ours = order.index("scrapy_cx.ArticleMiddleware")
    for name in ("HttpCompressionMiddleware", "MetaRefreshMiddleware", "RetryMiddleware",
                 "RedirectMiddleware"):
        (theirs,) = [i for i, path in enumerate(order) if path.endswith("." + name)]
        assert ours < theirs, name


def test_defaults_are_written_with_addon_priority() -> None:
    crawler = make_crawler(Spider, ADDON)
    for name, value in DEFAULTS.items():
        assert crawler.settings.getpriority(name) == SETTINGS_PRIORITIES["addon"], name
        assert crawler.settings[name] == value


def test_project_settings_override_the_addon() -> None:
    crawler = make_crawler(Spider, {**ADDON, "CX_MIN_CONTENT_LENGTH": 40, "CX_KEEP_HTML": True})
    assert crawler.settings.getint("CX_MIN_CONTENT_LENGTH") == 40
    assert crawler.settings.getbool("CX_KEEP_HTML") is True
    pipeline = ArticlePipeline.from_crawler(crawler)
    assert pipeline.settings.min_content_length == 40


def test_spider_custom_settings_override_the_addon() -> None:
    class Quiet(Spider):
        name = "quiet"
        custom_settings = {"CX_DROP_NON_ARTICLES": False}

    crawler = make_crawler(Quiet, ADDON)
    assert crawler.settings.getbool("CX_DROP_NON_ARTICLES") is False


def test_a_component_switched_off_by_the_project_stays_off() -> None:
    lists = enabled({**ADDON, "ITEM_PIPELINES": {"scrapy_cx.ArticlePipeline": None}})
    assert not [p for p in lists["ITEM_PIPELINES"] if "scrapy_cx" in p]
    assert "scrapy_cx.ArticleMiddleware" in lists["DOWNLOADER_MIDDLEWARES"]


def test_a_component_the_project_lists_itself_keeps_its_order_once() -> None:
    settings = {
        **ADDON,
        "DOWNLOADER_MIDDLEWARES": {"scrapy_cx.middleware.ArticleMiddleware": 530},
        "SPIDER_MIDDLEWARES": {ArticleSpiderMiddleware: 600},
    }
    crawler = make_crawler(Spider, settings)
    assert dict(crawler.settings["DOWNLOADER_MIDDLEWARES"]) == {
        "scrapy_cx.middleware.ArticleMiddleware": 530,
        "scrapy_cx.sizeguard.SizeGuardMiddleware": 595,
    }
    assert dict(crawler.settings["SPIDER_MIDDLEWARES"]) == {ArticleSpiderMiddleware: 600}
    # No duplicate entry for Scrapy to reject when it builds the chains.
    lists = enabled(settings)
    assert lists["DOWNLOADER_MIDDLEWARES"].count("scrapy_cx.middleware.ArticleMiddleware") == 1


def test_cx_enabled_false_leaves_every_chain_without_scrapy_cx() -> None:
    crawler = make_crawler(Spider, {**ADDON, "CX_ENABLED": False})
    downloader = DownloaderMiddlewareManager.from_crawler(crawler)
    spider = SpiderMiddlewareManager.from_crawler(crawler)
    items = ItemPipelineManager.from_crawler(crawler)
    assert not any(isinstance(m, ArticleMiddleware) for m in downloader.middlewares)
    assert not any(isinstance(m, ArticleSpiderMiddleware) for m in spider.middlewares)
    assert not any(isinstance(m, ArticlePipeline) for m in items.middlewares)


# --- a real crawl, in a subprocess, against a server on 127.0.0.1 -------------------------

SPIDER = '''
import scrapy

SETTINGS = {settings!r}
if tuple(int(p) for p in scrapy.__version__.split(".")[:2]) < (2, 12):
    SETTINGS["REQUEST_FINGERPRINTER_IMPLEMENTATION"] = "2.7"


class GlueSpider(scrapy.Spider):
    name = "glue"
    start_urls = [{start!r}]
    custom_settings = SETTINGS

    def parse(self, response):  # a plain generator: sync spider output
        yield {{"url": response.url}}
        if response.url.endswith("/index.html"):
            for href in response.css("a::attr(href)").getall():
                callback = self.parse if href == "/a.html" else self.parse_page
                yield response.follow(href, callback=callback)

    async def parse_page(self, response):  # an async generator: async spider output
        yield {{"url": response.url}}
'''

SUMMARY = re.compile(
    r"scrapy-cx: (\d+) pages, (\d+) articles, skipped (\{.*?\}), dropped (\{.*?\}), errors (\d+)"
)
PDF = b"%PDF-1.4\n%\xc7\xec\x8f\xa2\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"


def routes() -> dict[str, Route]:
    links = "".join(
        f"<li><a href='{path}'>{path}</a></li>"
        for path in ("/a.html", "/moved", "/b.json", "/c.pdf", "/missing", "/short.html")
    )
    short = "<html><head><title>Note</title></head><body><p>Back soon.</p></body></html>"
    return {
        "/index.html": Route(
            f"<html><head><title>Latest</title></head><body><ul>{links}</ul></body></html>".encode()
        ),
        "/a.html": Route(
            gzip.compress(article_html("Tram line extended").encode()),
            headers={"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"},
        ),
        "/moved": Route(b"", status=301, headers={"Location": "/a2.html"}),
        "/a2.html": Route(article_html("Ferry terminal reopens").encode()),
        "/b.json": Route(b'{"title": "not a page"}', headers={"Content-Type": "application/json"}),
        "/c.pdf": Route(PDF, headers={"Content-Type": "text/html"}),
        "/short.html": Route(short.encode()),
    }


def crawl(tmp_path: Path, settings: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    with serve(routes()) as (base, _hits):
        script = tmp_path / "glue_spider.py"
        script.write_text(SPIDER.format(settings=settings, start=base + "/index.html"))
        out = tmp_path / "items.jsonl"
        proc = subprocess.run(
            [sys.executable, "-m", "scrapy", "runspider", str(script), "-O", str(out),
             "-s", "LOG_LEVEL=INFO", "-s", "ROBOTSTXT_OBEY=False", "-s", "TELNETCONSOLE_ENABLED=0"],
            cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = [json.loads(line) for line in out.read_text("utf-8").splitlines() if line]
    return proc.stderr, items


MANUAL = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_cx.ArticleMiddleware": 540},
    "SPIDER_MIDDLEWARES": {"scrapy_cx.ArticleSpiderMiddleware": 950},
    "ITEM_PIPELINES": {"scrapy_cx.ArticlePipeline": 100},
}


@pytest.mark.parametrize("settings", [ADDON, MANUAL], ids=["addon", "manual-entries"])
def test_real_crawl_yields_only_articles_with_stats_and_summary(
    tmp_path: Path, settings: dict[str, Any]
) -> None:
    log, items = crawl(tmp_path, {**settings, "FEED_EXPORT_ENCODING": "utf-8"})
    assert "Traceback" not in log
    assert "DeprecationWarning" not in log

    by_title = {item["title"]: item for item in items}
    assert sorted(by_title) == ["Ferry terminal reopens", "Tram line extended"]
    for item in items:
        assert list(item) == list(Article.field_names())
        assert PARAGRAPHS[1] in item["content"]
        assert item["published"].startswith("2024-03-05")
    assert by_title["Tram line extended"]["url"].endswith("/a.html")  # gzip body was read
    assert by_title["Ferry terminal reopens"]["url"].endswith("/a2.html")  # after the redirect

    (summary,) = SUMMARY.findall(log)
    pages, articles, skipped, dropped, errors = summary
    assert int(articles) == 2
    # index, a, a2, short: four HTML pages extracted; JSON, PDF and the 404 skipped.
    assert int(pages) == 4
    assert ast.literal_eval(skipped) == {"binary": 1, "not_html": 1, "status": 1}
    dropped_counts = ast.literal_eval(dropped)
    assert sum(dropped_counts.values()) == 4  # index, short page, JSON, PDF
    assert int(errors) == 0


def test_size_guard_runs_just_before_scrapy_decompresses() -> None:
    order = enabled(ADDON)["DOWNLOADER_MIDDLEWARES"]
    guard = order.index("scrapy_cx.sizeguard.SizeGuardMiddleware")
    (compression,) = [i for i, p in enumerate(order) if p.endswith(".HttpCompressionMiddleware")]
    (redirect,) = [i for i, p in enumerate(order) if p.endswith(".RedirectMiddleware")]
    assert compression < guard < redirect  # process_response: redirect, guard, decompression


def test_download_limits_follow_the_body_limit_unless_the_project_sets_them() -> None:
    settings = make_crawler(Spider, ADDON).settings
    body = DEFAULTS["CX_MAX_BODY_SIZE"]
    assert settings.getint("DOWNLOAD_MAXSIZE") == MAXSIZE_FACTOR * body == 20 * 1024 * 1024
    assert settings.getint("DOWNLOAD_WARNSIZE") == body
    settings = make_crawler(Spider, {**ADDON, "CX_MAX_BODY_SIZE": 1000}).settings
    assert settings.getint("DOWNLOAD_MAXSIZE") == MAXSIZE_FACTOR * 1000
    own = {**ADDON, "DOWNLOAD_MAXSIZE": 77, "DOWNLOAD_WARNSIZE": 7}
    settings = make_crawler(Spider, own).settings
    assert (settings.getint("DOWNLOAD_MAXSIZE"), settings.getint("DOWNLOAD_WARNSIZE")) == (77, 7)
    unlimited = make_crawler(Spider, {**ADDON, "CX_MAX_BODY_SIZE": 0}).settings
    assert unlimited.getint("DOWNLOAD_MAXSIZE") == 1024 * 1024 * 1024  # Scrapy's own default


def test_csv_exports_and_drop_logs_are_ours_unless_the_project_chose() -> None:
    settings = make_crawler(Spider, ADDON).settings
    exporters = settings.getwithbase("FEED_EXPORTERS")
    assert exporters["csv"] == CSV_EXPORTER
    plain = make_crawler(Spider, {}).settings.getwithbase("FEED_EXPORTERS")
    for name in ("json", "jsonlines", "jsonl", "jl", "xml"):  # Scrapy's own, untouched
        assert exporters[name] == plain[name], name
    assert settings["LOG_FORMATTER"] == LOG_FORMATTER
    own = {
        **ADDON,
        "FEED_EXPORTERS": {
            "csv": "scrapy.exporters.CsvItemExporter",
            "jsonl": "scrapy.exporters.JsonLinesItemExporter",
        },
        "LOG_FORMATTER": "scrapy.logformatter.LogFormatter",
    }
    settings = make_crawler(Spider, own).settings
    exporters = settings.getwithbase("FEED_EXPORTERS")
    assert exporters["csv"] == "scrapy.exporters.CsvItemExporter"
    assert exporters["jsonl"] == "scrapy.exporters.JsonLinesItemExporter"
    assert settings["LOG_FORMATTER"] == "scrapy.logformatter.LogFormatter"


@pytest.mark.skipif(
    not hasattr(__import__("scrapy.addons").addons.AddonManager, "load_pre_crawler_settings"),
    reason="Scrapy < 2.13 has no pre-crawler add-on hook: there the check runs in the "
    "components' from_crawler (tests/test_settings.py checks its messages)",
)
def test_a_bad_setting_fails_before_any_crawler_exists() -> None:
    """A script gets a SettingError naming the setting; the same exception, uncaught,
    ends ``scrapy crawl`` in its one line (tests/e2e/test_bad_settings.py)."""
    from scrapy.crawler import CrawlerRunner
    from scrapy.settings import Settings

    from scrapy_cx.settings import SettingError

    settings = Settings({**ADDON, "CX_WORKERS": "-1"}, priority="cmdline")
    with pytest.raises(SettingError, match=r"^CX_WORKERS must be 'auto' or a number >= 0") as error:
        CrawlerRunner(settings)
    assert isinstance(error.value, SystemExit)  # uncaught: that line, exit status 1
    assert error.value.code == f"scrapy-cx: {error.value}"


def test_a_misspelled_cx_setting_is_named_once_with_the_nearest_known_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``-s CX_MIN_CONTENT_LENTGH=5000`` did nothing, silently: the crawl ran on 200."""
    settings = {**ADDON, "CX_MIN_CONTENT_LENTGH": 5000, "CX_ZZZ": 1, "CX_PAGE_TYPES": ["article"]}
    with caplog.at_level(logging.WARNING, logger="scrapy_cx.addon"):
        crawler = make_crawler(Spider, settings)
    said = [r.getMessage() for r in caplog.records if r.name == "scrapy_cx.addon"]
    assert said == [
        "scrapy-cx: unknown setting CX_MIN_CONTENT_LENTGH (ignored): did you mean "
        "CX_MIN_CONTENT_LENGTH?",
        "scrapy-cx: unknown setting CX_ZZZ (ignored): not a scrapy-cx setting",
    ]
    crawler.signals.send_catch_log(signals.spider_opened, spider=Spider("s"))
    assert crawler.stats is not None
    assert crawler.stats.get_value("cx/unknown_settings") == 2


def test_known_settings_and_other_prefixes_are_not_warned_about(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="scrapy_cx.addon"):
        crawler = make_crawler(Spider, {**ADDON, **DEFAULTS, "CXX_OTHER": 1, "cx_lower": 1})
    assert not [r for r in caplog.records if r.name == "scrapy_cx.addon"]
    crawler.signals.send_catch_log(signals.spider_opened, spider=Spider("s"))
    assert crawler.stats is not None
    assert crawler.stats.get_value("cx/unknown_settings") is None
