"""scrapy_cx.zyte._pipeline: with CX_ITEM_SCHEMA = "zyte" our items leave as CxArticle."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from scrapy.exceptions import NotConfigured

zci = pytest.importorskip("zyte_common_items")

from scrapy_cx import ArticleItem, extract_article  # noqa: E402
from scrapy_cx.zyte import CxArticle, SchemaPipeline  # noqa: E402
from tests.crawler import make_crawler  # noqa: E402
from tests.sample_pages import STRUCTURED_TITLE, structured_html  # noqa: E402

URL = "http://example.com/news/tram.html"


@pytest.fixture(scope="module")
def pipeline() -> SchemaPipeline:
    crawler = make_crawler(settings={"CX_ITEM_SCHEMA": "zyte"})
    return SchemaPipeline.from_crawler(crawler)


def test_off_unless_the_schema_is_zyte() -> None:
    with pytest.raises(NotConfigured):
        SchemaPipeline.from_crawler(make_crawler())


def test_the_addon_lists_it_after_dedup_for_the_zyte_schema() -> None:
    from scrapy_cx.addon import Addon

    crawler = make_crawler(settings={"ADDONS": {Addon: 500}, "CX_ITEM_SCHEMA": "zyte"})
    pipelines = crawler.settings.getdict("ITEM_PIPELINES")
    assert pipelines["scrapy_cx.zyte.SchemaPipeline"] > pipelines["scrapy_cx.ArticlePipeline"]
    plain = make_crawler(settings={"ADDONS": {Addon: 500}})
    assert "scrapy_cx.zyte.SchemaPipeline" not in plain.settings.getdict("ITEM_PIPELINES")


def test_our_items_become_cxarticles(pipeline: SchemaPipeline) -> None:
    article = extract_article(structured_html(), URL)
    for item in (ArticleItem.from_article(article), {**article.to_dict(), "section": "city"}):
        out = pipeline.process_item(item)
        assert type(out) is CxArticle and isinstance(out, zci.Article)
        assert out.headline == STRUCTURED_TITLE and out.url == URL
        assert out.metadata.probability == article.article_probability
        assert out.metadata.dateDownloaded.endswith("Z")


@dataclass
class Link:
    url: str
    title: str


def test_other_items_pass_as_they_are(pipeline: SchemaPipeline) -> None:
    own = {"url": URL, "title": "a link the spider found"}  # never extracted: no page_type
    zyte = zci.Article(url=URL)
    link = Link(URL, "x")
    for item in (own, zyte, link):
        assert pipeline.process_item(item) is item
