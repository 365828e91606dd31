"""scrapy_cx.zyte._pages: our page objects answer for every URL, below any site's own."""

from __future__ import annotations

import asyncio

import attrs
import pytest

zci = pytest.importorskip("zyte_common_items")
web_poet = pytest.importorskip("web_poet")
pytest.importorskip("scrapy_poet")

from scrapy_cx import extract_article  # noqa: E402
from scrapy_cx.zyte import (  # noqa: E402
    CxArticle,
    CxArticleListPage,
    CxArticleNavigationPage,
    CxArticlePage,
    CxFullArticlePage,
    Extraction,
    Teasers,
)
from scrapy_cx.zyte._teasers import teaser_headlines  # noqa: E402
from tests.sample_pages import STRUCTURED_TITLE, structured_html  # noqa: E402
from tests.zyte.listing import TEASERS, listing_html  # noqa: E402

BASE = "http://example.com"
WHEN = "2024-03-06T10:00:00Z"
OURS = {
    zci.Article: CxArticlePage,
    CxArticle: CxFullArticlePage,
    zci.ArticleList: CxArticleListPage,
    zci.ArticleNavigation: CxArticleNavigationPage,
}


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """url-matcher asks tldextract for the Public Suffix List online on first use: a
    proxy that refuses keeps the test off the internet (tldextract uses its snapshot)."""
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")


def item_of(page: object) -> object:
    return asyncio.run(page.to_item())  # type: ignore[attr-defined]


def extraction(html: str, url: str) -> Extraction:
    return Extraction(url, extract_article(html, url), None, WHEN)


def test_each_item_type_has_our_page_object_for_any_url() -> None:
    registry = web_poet.RulesRegistry(rules=web_poet.default_registry.get_rules())
    for item_type, page in OURS.items():
        for url in (f"{BASE}/news/a.html", "https://anything.test/x?y=1"):
            assert registry.page_cls_for_item(url, item_type) is page


def test_a_sites_own_page_object_wins_on_its_urls() -> None:
    @attrs.define
    class SitePage(web_poet.ItemPage[zci.Article]):
        async def to_item(self) -> zci.Article:
            return zci.Article(url=f"{BASE}/own")

    rule = web_poet.ApplyRule("example.com/news/", use=SitePage, to_return=zci.Article)
    registry = web_poet.RulesRegistry(rules=[*web_poet.default_registry.get_rules(), rule])
    assert registry.page_cls_for_item(f"{BASE}/news/a.html", zci.Article) is SitePage
    assert registry.page_cls_for_item(f"{BASE}/sport/b.html", zci.Article) is CxArticlePage
    assert registry.page_cls_for_item("https://other.test/news/a", zci.Article) is CxArticlePage


def test_the_article_pages_return_zytes_article_and_ours() -> None:
    found = extraction(structured_html(), f"{BASE}/news/tram.html")
    article = item_of(CxArticlePage(found))
    assert type(article) is zci.Article
    assert article.headline == STRUCTURED_TITLE
    assert article.metadata.dateDownloaded == WHEN
    full = item_of(CxFullArticlePage(found))
    assert type(full) is CxArticle and full.pageType == "article"
    attrs.validate(article)
    attrs.validate(full)


def test_the_listing_pages_return_its_teasers() -> None:
    found = extraction(listing_html(), f"{BASE}/news/")
    teasers = Teasers(teaser_headlines(listing_html(), f"{BASE}/news/"))
    listed = item_of(CxArticleListPage(found, teasers))
    assert [a.url for a in listed.articles] == [BASE + url for _, url in TEASERS]
    assert [a.headline for a in listed.articles] == [title for title, _ in TEASERS]
    attrs.validate(listed)
    navigation = item_of(CxArticleNavigationPage(found))
    assert [r.url for r in navigation.items] == [BASE + url for _, url in TEASERS]
    # As an Article, a listing is unlikely: what DropLowProbabilityItemPipeline reads.
    assert item_of(CxArticlePage(found)).get_probability() < 0.5


@pytest.mark.parametrize("page", list(OURS.values()))
def test_a_page_not_extracted_gives_its_url_and_no_article(page: type) -> None:
    found = Extraction(f"{BASE}/report.pdf", None, "not_html", WHEN)
    inputs = (found, Teasers()) if page is CxArticleListPage else (found,)
    item = item_of(page(*inputs))
    attrs.validate(item)
    assert item.url == f"{BASE}/report.pdf"
    if isinstance(item, zci.Article):
        assert item.get_probability() == 0.0
        assert item.headline is None
