"""The spider middleware: items a callback yields completed from its response's article
(scrapy_cx/spidermw.py)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Iterable
from typing import Any

import attrs
import pytest
import scrapy
from scrapy import Request
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.http.request import NO_CALLBACK

from scrapy_cx import Article, ArticleItem, ArticleSpiderMiddleware
from tests.sample_pages import PARAGRAPHS, article_html
from tests.test_middleware import TITLE, URL, crawler, html_response, middleware, run

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")


def extracted_response(url: str = URL) -> Response:
    mw, _ = middleware()
    response = html_response(url=url)
    run(mw, response)
    return response


def spider_output(
    response: Response | None, outputs: list[Any], **settings: Any
) -> list[Any]:
    smw = ArticleSpiderMiddleware.from_crawler(crawler(**settings))
    return list(smw.process_spider_output(response, iter(outputs)))


def spider_output_async(
    response: Response | None, outputs: list[Any], **settings: Any
) -> list[Any]:
    smw = ArticleSpiderMiddleware.from_crawler(crawler(**settings))

    async def source() -> AsyncIterator[Any]:
        for obj in outputs:
            yield obj

    async def collect() -> list[Any]:
        return [obj async for obj in smw.process_spider_output_async(response, source())]

    loop = asyncio.new_event_loop()  # a private loop: the process-wide one stays as it is
    try:
        return loop.run_until_complete(collect())
    finally:
        loop.close()


BOTH = pytest.mark.parametrize("output", [spider_output, spider_output_async],
                               ids=["sync", "async"])


@BOTH
def test_url_only_dict_becomes_a_complete_article(output: Any) -> None:
    response = extracted_response()
    (item,) = output(response, [{"url": response.url}])
    article = response.meta["cx_article"]
    assert item == article.to_dict()
    assert list(item) == list(Article.field_names())


@BOTH
def test_yielded_article_becomes_an_article_item(output: Any) -> None:
    response = extracted_response()
    (item,) = output(response, [response.meta["cx_article"]])
    assert isinstance(item, ArticleItem)
    assert item["title"] == TITLE


@BOTH
def test_requests_pass_through_and_items_keep_spider_values(output: Any) -> None:
    response = extracted_response()
    follow = Request("http://news.example/next")
    request, item = output(response, [follow, {"url": URL, "title": "Mine", "section": "city"}])
    assert request is follow
    assert item["title"] == "Mine"
    assert item["section"] == "city"
    assert PARAGRAPHS[0] in item["content"]


@BOTH
def test_items_about_other_pages_are_left_alone(output: Any) -> None:
    response = extracted_response()
    other = {"url": "http://news.example/other", "title": "Other story"}
    assert output(response, [dict(other)]) == [other]


def test_items_naming_the_canonical_or_pre_redirect_url_are_filled() -> None:
    canonical = "http://news.example/tram-line"
    link = f'<link rel="canonical" href="{canonical}">'
    body = article_html(TITLE).replace("</head>", link + "</head>")
    mw, _ = middleware()
    response = html_response(body.encode())
    assert response.request is not None
    response.request.meta["redirect_urls"] = ["http://news.example/t/1"]
    run(mw, response)
    assert response.meta["cx_article"].canonical_url == canonical
    items = spider_output(response, [{"url": canonical}, {"url": "http://news.example/t/1"}])
    assert [item["title"] for item in items] == [TITLE, TITLE]


class TitleOnly(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    section = scrapy.Field()


@dataclasses.dataclass
class Story:
    url: str = ""
    title: str = ""
    content: str = ""
    section: str = "news"


@attrs.define
class StoryAttrs:
    url: str = ""
    published: str | None = None


@BOTH
def test_typed_items_get_only_their_fields(output: Any) -> None:
    response = extracted_response()
    scrapy_item, story, story_attrs = output(
        response, [TitleOnly(url=URL), Story(url=URL), StoryAttrs(url=URL)]
    )
    assert dict(scrapy_item) == {"url": URL, "title": TITLE}
    assert story.title == TITLE and PARAGRAPHS[3] in story.content and story.section == "news"
    assert story_attrs.published == response.meta["cx_article"].published


@BOTH
def test_skipped_response_leaves_items_alone(output: Any) -> None:
    mw, _ = middleware()
    response = html_response(b"{}", headers={"Content-Type": "application/json"}, cls=TextResponse)
    run(mw, response)
    assert output(response, [{"url": URL}]) == [{"url": URL}]


def test_fill_items_off_leaves_items_alone() -> None:
    response = extracted_response()
    assert spider_output(response, [{"url": URL}], CX_FILL_ITEMS=False) == [{"url": URL}]


@BOTH
def test_request_meta_cx_fill_overrides_the_setting(output: Any) -> None:
    response = extracted_response()
    response.meta["cx_fill"] = False
    assert output(response, [{"url": URL}]) == [{"url": URL}]
    response.meta["cx_fill"] = True
    (item,) = output(response, [{"url": URL}], CX_FILL_ITEMS=False)
    assert item["title"] == TITLE


def test_output_without_a_response_passes() -> None:
    outputs: Iterable[Any] = [{"url": URL}, Request(URL)]
    assert spider_output(None, list(outputs))[0] == {"url": URL}


def test_requests_not_for_the_spider_are_neither_extracted_nor_counted() -> None:
    """robots.txt (a 404 on most sites) and media downloads never reach a callback."""
    mw, c = middleware()
    robots = Request("http://news.example/robots.txt", callback=NO_CALLBACK)
    missing = Response(robots.url, status=404, body=b"not found", request=robots)
    page = Request(URL, callback=NO_CALLBACK)
    html = HtmlResponse(URL, body=article_html(TITLE).encode(), request=page)
    for request, response in ((robots, missing), (page, html)):
        assert mw.process_response(request, response) is response
        assert "cx_skipped" not in request.meta and "cx_article" not in request.meta
    assert c.stats is not None
    assert not [k for k in c.stats.get_stats() if k.startswith("cx/")]


@BOTH
def test_items_take_the_workers_fields_of_the_same_article_only(output: Any) -> None:
    response = extracted_response()
    article = response.meta["cx_article"]
    fields = article.to_dict()
    fields["content"] = "".join(list(article.content))  # equal, another object
    response.meta["_cx_fields"] = (article, fields)  # as the middleware leaves it with workers
    (item,) = output(response, [{"url": response.url}])
    assert item == article.to_dict() and item["content"] is fields["content"]
    assert item["authors"] is not fields["authors"]  # lists are the item's own
    other = dataclasses.replace(article, title="Another")  # a spider put its own in meta
    response.meta["cx_article"] = other
    (item,) = output(response, [{"url": response.url}])
    assert item["title"] == "Another" and item["content"] is other.content
