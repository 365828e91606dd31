"""ArticleItem (export order with Scrapy's own exporters) and filling any item type."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import attrs
import pytest
import scrapy
from scrapy.exporters import CsvItemExporter, JsonLinesItemExporter

from scrapy_cx import Article, ArticleItem
from scrapy_cx.items import fill_item, is_empty

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")

ARTICLE = Article(
    url="http://news.example/a",
    title="Tram line extended",
    published="2024-03-05T09:30:00+01:00",
    published_raw="5 March 2024",
    content="First paragraph.\nSecond paragraph.",
    authors=("A. Writer",),
    keywords=("trams", "city"),
    description="The council voted.",
    language="en",
    canonical_url="http://news.example/a",
)


def test_fields_are_the_article_fields_in_export_order() -> None:
    """ArticleItem spells its fields out (what a Scrapy user reads and subclasses); this
    fails when they and Article's differ: one missing, one extra, or out of order."""
    assert tuple(ArticleItem.fields) == Article.field_names()


def test_a_subclass_adds_its_fields_and_leaves_article_items_alone() -> None:
    """Why the fields are not made in a loop as ``fields = {...}``: Scrapy's item class
    starts a subclass's fields from that dict itself, so ``extra`` would join every
    ArticleItem's fields (and exports)."""

    class Story(ArticleItem):
        extra = scrapy.Field()

    assert set(Story.fields) == {*Article.field_names(), "extra"}  # (by name before 2.13)
    assert tuple(ArticleItem.fields) == Article.field_names()


def test_from_article_holds_every_field_json_ready() -> None:
    item = ArticleItem.from_article(ARTICLE)
    assert dict(item) == ARTICLE.to_dict()
    assert item["authors"] == ["A. Writer"]


def _jsonl(item: Any) -> list[str]:
    out = io.BytesIO()
    exporter = JsonLinesItemExporter(out)
    exporter.start_exporting()
    exporter.export_item(item)
    exporter.finish_exporting()
    return list(json.loads(out.getvalue()))


def _csv_header(item: Any) -> list[str]:
    out = io.BytesIO()
    exporter = CsvItemExporter(out)
    exporter.start_exporting()
    exporter.export_item(item)
    exporter.finish_exporting()
    return out.getvalue().decode().splitlines()[0].split(",")


def test_feed_exports_keep_article_order_however_the_item_was_filled() -> None:
    # Filled in scrambled order, as a spider might: exports still follow the schema.
    item = ArticleItem()
    for name in reversed(Article.field_names()):
        item[name] = ARTICLE.to_dict()[name]
    assert _csv_header(item) == list(Article.field_names())
    assert _jsonl(ArticleItem.from_article(ARTICLE)) == list(Article.field_names())


@pytest.mark.parametrize(
    ("value", "empty"),
    [(None, True), ("", True), ("  \n", True), ([], True), ((), True), ({}, True),
     ("x", False), (["a"], False), (0, False), (False, False)],
)
def test_is_empty(value: object, empty: bool) -> None:
    assert is_empty(value) is empty


def test_fill_dict_takes_every_field_and_keeps_what_the_spider_set() -> None:
    item: dict[str, Any] = {"url": ARTICLE.url, "title": "Spider's own title", "section": "city"}
    assert fill_item(item, ARTICLE) == len(Article.field_names()) - 2  # all but url and title
    assert item["title"] == "Spider's own title"
    assert item["section"] == "city"
    assert item["content"] == ARTICLE.content
    assert item["keywords"] == ["trams", "city"]


def test_fill_gives_a_dict_every_key_so_feed_lines_share_a_schema() -> None:
    item: dict[str, Any] = {"description": "Spider's summary"}
    fill_item(item, Article(url="http://x/", title="T"))
    expected = Article(url="http://x/", title="T").to_dict()
    assert item == dict(expected, description="Spider's summary")


def test_fill_never_blanks_a_value_and_typed_items_skip_empty_ones() -> None:
    item = PageItem(url="http://x/")
    fill_item(item, Article(title="T"))
    assert dict(item) == {"url": "http://x/", "title": "T"}


def test_fill_replaces_blank_values() -> None:
    item = {"title": " ", "authors": []}
    fill_item(item, ARTICLE)
    assert item["title"] == ARTICLE.title
    assert item["authors"] == ["A. Writer"]


class PageItem(scrapy.Item):
    url = scrapy.Field()
    title = scrapy.Field()
    content = scrapy.Field()
    section = scrapy.Field()


@dataclasses.dataclass
class PageRecord:
    url: str | None = None
    title: str | None = None
    published: str | None = None
    section: str = "news"


@attrs.define
class PageAttrs:
    url: str | None = None
    content: str = ""
    authors: list[str] = attrs.field(factory=list)


def test_fill_scrapy_item_only_declared_fields() -> None:
    item = PageItem(url=ARTICLE.url)
    assert fill_item(item, ARTICLE) == 2
    assert dict(item) == {"url": ARTICLE.url, "title": ARTICLE.title, "content": ARTICLE.content}


def test_fill_dataclass_only_its_fields() -> None:
    record = PageRecord()
    assert fill_item(record, ARTICLE) == 3
    assert record == PageRecord(ARTICLE.url, ARTICLE.title, ARTICLE.published, "news")


def test_fill_attrs_only_its_fields() -> None:
    record = PageAttrs(url="http://news.example/a")
    assert fill_item(record, ARTICLE) == 2
    assert record.content == ARTICLE.content
    assert record.authors == ["A. Writer"]
