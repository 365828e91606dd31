"""``CX_ITEM_SCHEMA = "zyte"``: the crawl's articles leave as Zyte's items.

After ArticlePipeline (100, the verdict) and DedupPipeline (150, which reads our
fields), before a project's pipelines (300 in Scrapy's template) and Zyte's
``DropLowProbabilityItemPipeline``, so they see :class:`~scrapy_cx.zyte.CxArticle`.
"""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from ..items import ArticleItem
from ..settings import CxSettings
from ._check import SCHEMA_ORDER as ORDER
from ._convert import zyte_item

__all__ = ["ORDER", "SchemaPipeline"]


class SchemaPipeline:
    """Our article items (an ArticleItem, a dict the extraction filled) as
    :class:`~scrapy_cx.zyte.CxArticle`; any other item as it is."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SchemaPipeline:
        if CxSettings.for_crawler(crawler).item_schema != "zyte":
            raise NotConfigured("CX_ITEM_SCHEMA is not 'zyte'")
        return cls()

    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        if isinstance(item, ArticleItem) or (isinstance(item, dict) and item.get("page_type")):
            return zyte_item(ItemAdapter(item).asdict())
        return item
