"""The JSON exporters write what Scrapy's write, byte for byte, fragments spliced in or not."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
import scrapy
from scrapy import exporters
from scrapy.settings import Settings

from scrapy_cx import Article, ArticleItem
from scrapy_cx.feeds import (
    JsonItemExporter,
    JsonLinesItemExporter,
    _fragments,
    fragments,
    json_forms,
    offer,
)

LONG_TEXT = "Le café « crème » coûte 2 €.\n" * 40 + 'quotes " and \\ and \t tabs\x7f DEL'
ASCII_TEXT = "Plain ASCII text, a \"quote\" and a backslash \\ here.\n" * 30
CJK_TEXT = "新华社北京电 国务院总理今天主持召开会议。\n" * 60
SURROGATE = "a lone surrogate \ud800 " * 40


def _article() -> Article:
    return Article(
        url="http://example.com/ü",
        title="Überschrift — “quoted”",
        content=LONG_TEXT,
        content_html=CJK_TEXT,
        content_markdown=ASCII_TEXT,
        authors=("Zoë", "陈"),
        related=(("Related ✓", "http://example.com/r"),),
        article_probability=0.875,
        page_type="article",
    )


def _items(article: Article) -> list[Any]:
    """Tricky items: a dict with None fields and nested lists, an ArticleItem, a value the
    spider changed (same text, another object), a field out of the article's order."""
    plain = {"url": article.url, "missing": None, "nested": [[1, None], {"k": ["v", 2.5]}]}
    plain.update(article.to_dict())
    changed = dict(plain, content="".join(list(article.content)))  # equal, not the same
    reordered = {"content_markdown": article.content_markdown, "x": 1, "content": article.content}
    return [plain, ArticleItem.from_article(article), changed, reordered]


def _export(cls: type, items: list[Any], **options: Any) -> bytes:
    out = io.BytesIO()
    exporter = cls(out, **options)
    exporter.start_exporting()
    for item in items:
        exporter.export_item(item)
    exporter.finish_exporting()
    return out.getvalue()


def _offer_all(article: Article, forms: tuple[bool, ...]) -> None:
    for name, (plain, ascii_json) in fragments(article, forms).items():
        offer(getattr(article, name), plain, ascii_json)


OPTIONS = [
    {"encoding": "utf-8"},  # ensure_ascii False (Scrapy's project template)
    {},  # no FEED_EXPORT_ENCODING: ensure_ascii True
    {"encoding": "latin-1", "ensure_ascii": True},
    {"encoding": "utf-8", "ensure_ascii": True},
    {"encoding": "latin-1"},  # ensure_ascii False in latin-1: Scrapy's path, unchanged
    {"encoding": "utf-8", "separators": (",", ":")},
    {"encoding": "utf-8", "sort_keys": True},
    {"encoding": "utf-8", "fields_to_export": ["content", "url", "nope"]},
    {"encoding": "utf-8", "fields_to_export": {"content": "text", "title": "headline"}},
    {"encoding": "utf-8", "export_empty_fields": True},
    {"encoding": "utf-8", "indent": 2},
]


@pytest.mark.parametrize("options", OPTIONS, ids=map(repr, OPTIONS))
@pytest.mark.parametrize(
    ("ours", "scrapys"),
    [
        (JsonLinesItemExporter, exporters.JsonLinesItemExporter),
        (JsonItemExporter, exporters.JsonItemExporter),
    ],
)
def test_output_is_scrapys_byte_for_byte(ours: type, scrapys: type, options: dict) -> None:
    article = _article()
    items = _items(article)
    if options.get("encoding") == "latin-1" and not options.get("ensure_ascii"):
        article = Article(content="é" * 600)  # text latin-1 can hold
        items = [article.to_dict()]
    expected = _export(scrapys, items, **options)
    _offer_all(article, (False, True))
    before = _fragments.offered()
    assert _export(ours, items, **options) == expected
    # JSON lines ignore an indent; the JSON exporter's is its encoder's, which no splice has.
    unspliced = ("sort_keys",) if ours is JsonLinesItemExporter else ("indent", "sort_keys")
    if options.get("encoding") == "latin-1" and not options.get("ensure_ascii"):
        unspliced = tuple(options)
    spliced = not any(name in options for name in unspliced)
    assert (_fragments.offered() < before) == spliced  # the fragments were written, or not


def test_fragments_are_written_when_offered() -> None:
    article = _article()
    item = article.to_dict()
    _offer_all(article, (False,))
    exporter = JsonLinesItemExporter(io.BytesIO(), encoding="utf-8")
    before = _fragments.offered()
    assert before >= 3
    exporter.export_item(item)
    assert _fragments.offered() == before - 3  # one exporter open: each written once, then let go
    exporter.finish_exporting()


def test_a_string_that_cannot_be_encoded_fails_as_scrapys_does() -> None:
    article = Article(content=SURROGATE, title="T")
    assert "content" not in fragments(article, (False,))  # not encodable to UTF-8
    item = article.to_dict()
    for cls in (JsonLinesItemExporter, exporters.JsonLinesItemExporter):
        with pytest.raises(UnicodeEncodeError):
            cls(io.BytesIO(), encoding="utf-8").export_item(item)
    # ensure_ascii escapes it, as json does
    assert fragments(article, (True,))["content"][1] == json.dumps(SURROGATE).encode()


class Serialized(scrapy.Item):
    content = scrapy.Field(serializer=str.upper)
    title = scrapy.Field()


def test_a_field_serializer_wins_over_a_fragment() -> None:
    article = Article(content=LONG_TEXT, title="T")
    item = Serialized(content=article.content, title="T")
    expected = _export(exporters.JsonLinesItemExporter, [item], encoding="utf-8")
    _offer_all(article, (False,))
    assert _export(JsonLinesItemExporter, [item], encoding="utf-8") == expected


def test_json_forms_reads_the_feeds_of_these_exporters() -> None:
    def forms(**values: Any) -> frozenset[bool]:
        settings = Settings(values)
        ours = {"jsonlines": "scrapy_cx.feeds.JsonLinesItemExporter"}
        ours["json"] = "scrapy_cx.feeds.JsonItemExporter"
        settings.set("FEED_EXPORTERS", ours)
        return json_forms(settings)

    assert forms() == frozenset()
    assert forms(FEEDS={"a.jsonl": {"format": "jsonlines"}}) == {True}
    utf8 = {"FEEDS": {"a.jsonl": {"format": "jsonlines"}}, "FEED_EXPORT_ENCODING": "utf-8"}
    assert forms(**utf8) == {False}
    assert forms(FEEDS={"a.csv": {"format": "csv"}, "b.xml": {"format": "xml"}}) == set()
    assert forms(FEEDS={"b.json": {"format": "json"}}) == {True}
    both = {"a.jsonl": {"format": "jsonlines", "encoding": "utf-8"},
            "b.jsonl": {"format": "jsonlines", "item_export_kwargs": {"ensure_ascii": True},
                        "encoding": "utf-8"}}
    assert forms(FEEDS=both) == {False, True}
    # Feeds the exporters write Scrapy's way ask the workers for nothing.
    indented = {"a.json": {"format": "json", "encoding": "utf-8", "indent": 2}}
    assert forms(FEEDS=indented) == set()
    assert forms(FEED_EXPORT_INDENT=4, **utf8) == {False}  # JSON lines ignore the indent
    latin = {"a.jsonl": {"format": "jsonlines", "encoding": "latin-1"}}
    assert forms(FEEDS=latin) == set()
    sort = {"a.jsonl": {"format": "jsonlines", "item_export_kwargs": {"sort_keys": True}}}
    assert forms(FEEDS=sort) == set()


class Upper(JsonLinesItemExporter):
    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value


class ScrapysUpper(exporters.JsonLinesItemExporter):
    serialize_field = Upper.serialize_field


def test_a_dict_is_exported_as_scrapy_reads_it_whatever_its_keys_or_exporter() -> None:
    article = _article()
    odd = {("content", "text"): 1, "content": article.content}  # a pair names (field, output)
    items = [odd, article.to_dict()]
    expected = _export(exporters.JsonLinesItemExporter, items, encoding="utf-8")
    _offer_all(article, (False,))
    assert _export(JsonLinesItemExporter, items, encoding="utf-8") == expected
    expected = _export(ScrapysUpper, items[1:], encoding="utf-8")
    _offer_all(article, (False,))
    assert _export(Upper, items[1:], encoding="utf-8") == expected  # its own serializer holds
