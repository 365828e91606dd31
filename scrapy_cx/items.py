"""The article as a Scrapy item, filling any item type from an Article, and its CSV export."""

from __future__ import annotations

import json
from typing import Any

import scrapy
from itemadapter import ItemAdapter
from scrapy.exporters import CsvItemExporter

from .article import Article
from .verdict import is_empty

__all__ = ["ArticleItem", "JsonCellCsvItemExporter", "can_hold", "fill_item", "is_empty"]


class ArticleItem(scrapy.Item):
    """An :class:`~scrapy_cx.Article` as a Scrapy item; fields in export order.

    The fields are Article's, spelled out: ``tests/test_items.py`` fails when the two
    differ (a ``fields = {...}`` built from Article would be shared with subclasses).
    """

    url = scrapy.Field()
    title = scrapy.Field()
    published = scrapy.Field()
    published_raw = scrapy.Field()
    modified = scrapy.Field()
    content = scrapy.Field()
    content_html = scrapy.Field()
    content_markdown = scrapy.Field()
    authors = scrapy.Field()
    source = scrapy.Field()
    keywords = scrapy.Field()
    description = scrapy.Field()
    image = scrapy.Field()
    images = scrapy.Field()
    site_name = scrapy.Field()
    language = scrapy.Field()
    canonical_url = scrapy.Field()
    breadcrumbs = scrapy.Field()
    accessible_for_free = scrapy.Field()
    page_type = scrapy.Field()
    article_probability = scrapy.Field()
    related = scrapy.Field()
    article_links = scrapy.Field()
    next_page = scrapy.Field()
    pages = scrapy.Field()
    posts = scrapy.Field()
    fingerprint = scrapy.Field()
    duplicate_of = scrapy.Field()
    truncated = scrapy.Field()

    @classmethod
    def from_article(cls, article: Article) -> ArticleItem:
        """Every field of ``article``, in export order (tuples become lists)."""
        return cls(**article.to_dict())


# Scrapy < 2.13 builds ``fields`` from dir() (alphabetical), and CSV and XML
# exports take their columns from it: restore declaration order (= Article order).
ArticleItem.fields = {name: ArticleItem.fields[name] for name in Article.field_names()}


def fill_item(item: Any, article: Article, fields: dict[str, Any] | None = None) -> int:
    """Copy ``article`` into the empty fields of ``item`` that it can hold.

    A dict takes every field, empty ones too, so every exported line of a feed
    has the same keys; a :class:`scrapy.Item`, dataclass, attrs or
    pydantic item only the fields its class declares (itemadapter raises
    KeyError for the others). Fields the spider already filled are kept.
    ``fields``: ``article.to_dict()`` made already (a worker's); lists and dicts in it
    are copied, so items never share them. Returns how many fields were set.
    """
    data = article.to_dict() if fields is None else _fresh(fields)
    if type(item) is dict:  # the common case, without an adapter's lookups per field
        return _fill_dict(item, data)
    adapter = ItemAdapter(item)
    filled = 0
    for name, value in data.items():
        if name in adapter:
            if not is_empty(adapter[name]) or is_empty(value):
                continue
        elif is_empty(value) and not isinstance(item, dict):
            continue  # a typed item exports its declared fields anyway
        try:
            adapter[name] = value
        except KeyError:  # the item's class does not declare this field
            continue
        filled += 1
    return filled


def _fresh(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with new lists and dicts (as ``to_dict`` makes them each time): the
    strings, numbers and None are the same objects."""
    return {
        name: [dict(v) if type(v) is dict else v for v in value] if type(value) is list else value
        for name, value in fields.items()
    }


def _fill_dict(item: dict[str, Any], data: dict[str, Any]) -> int:
    """:func:`fill_item` for a plain dict: the same rule, read off the item's own keys
    (usually only ``url``) rather than tested for each of the article's fields. Keys the
    item had keep their places; the others follow in the article's order, as one by one.
    ``data`` (the article's fields, a copy of this item's own) is changed."""
    for name, current in item.items():
        if name in data and (not is_empty(current) or is_empty(data[name])):
            del data[name]
    item.update(data)
    return len(data)


def can_hold(adapter: ItemAdapter, name: str) -> bool:
    """Whether the item's type has a ``name`` field (dicts have them all)."""
    if isinstance(adapter.item, dict):
        return True
    names = ItemAdapter.get_field_names_from_class(type(adapter.item))
    return names is None or name in names


class JsonCellCsvItemExporter(CsvItemExporter):
    """Scrapy's CSV exporter with nested values (lists, dicts) written as JSON.

    Scrapy joins a list of strings with commas (``authors`` "A,B" cannot be told
    from one author "A,B") and writes anything else as Python's repr
    (``[{'title': ...}]``), which no other program reads. JSON reads back in any
    language: ``json.loads`` on the cell. The add-on registers it for the ``csv``
    feed format unless the project chose its own (``FEED_EXPORTERS``).
    """

    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        serializer = field.get("serializer")
        if serializer is not None:  # a field's own serializer has the last word
            return serializer(value)
        if isinstance(value, (list, tuple, dict)):
            return json.dumps(value, ensure_ascii=False, default=str)
        return value
