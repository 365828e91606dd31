"""scrapy_cx.zyte._convert: our articles in Zyte's schema, read back by zyte-common-items."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import attrs
import pytest

zci = pytest.importorskip("zyte_common_items")
# zyte-common-items' own adapter for its JSON (the one web-poet's fixtures use).
ZyteJson = pytest.importorskip("zyte_common_items.serialization").ZCEItemAdapter

from scrapy_cx import Article, Breadcrumb, Image, Post, extract_article  # noqa: E402
from scrapy_cx.zyte import (  # noqa: E402
    CxArticle,
    downloaded_at,
    zyte_article,
    zyte_article_list,
    zyte_item,
    zyte_navigation,
    zyte_record,
)
from scrapy_cx.zyte._convert import FIELD_MAP  # noqa: E402
from tests.sample_pages import CAPTION, STRUCTURED_TITLE, structured_html  # noqa: E402
from tests.zyte.listing import NEXT, TEASERS, listing_html  # noqa: E402

BASE = "http://example.com"
WHEN = "2024-03-06T10:00:00Z"


def valid(item: object, cls: type) -> None:
    """``item`` is a ``cls`` by zyte-common-items' own reading: its attrs validators
    pass, and its JSON (as Zyte's adapter writes it) reads back with from_dict to the
    same JSON (from_dict makes [] of a list left out, so the items themselves differ)."""
    assert isinstance(item, cls)
    attrs.validate(item)
    data = json.loads(json.dumps(ZyteJson(item).asdict()))
    again = cls.from_dict(data)
    attrs.validate(again)
    assert ZyteJson(again).asdict() == data


@pytest.fixture(scope="module")
def story() -> Article:
    formats = ("html", "markdown", "images")
    return extract_article(structured_html(), f"{BASE}/news/tram.html", formats=formats)


def test_an_article_maps_field_by_field(story: Article) -> None:
    item = zyte_article(story, WHEN)
    valid(item, zci.Article)
    assert type(item) is zci.Article
    assert item.url == story.url
    assert item.headline == STRUCTURED_TITLE
    assert item.datePublished == story.published == "2024-03-05T09:30:00+01:00"
    assert item.datePublishedRaw == story.published_raw
    assert item.inLanguage == "en"
    assert item.mainImage == zci.Image(url=f"{BASE}/images/depot.jpg")
    assert item.images == [zci.Image(url=f"{BASE}/images/depot.jpg")]  # once
    assert item.articleBody == story.content
    assert item.articleBodyHtml == f"<article>{story.content_html}</article>"
    assert f"<figcaption>{CAPTION}</figcaption>" in item.articleBodyHtml
    assert item.metadata.probability == story.article_probability
    assert item.metadata.dateDownloaded == WHEN
    # What we do not have stays empty: nothing made up.
    assert item.authors is None and item.dateModifiedRaw is None
    assert item.videos is None and item.audios is None


def test_authors_modified_and_every_image() -> None:
    article = Article(
        url=f"{BASE}/a",
        authors=("Ruth Aldous", "Tomasz Wrona"),
        modified="2024-03-06",
        image=f"{BASE}/lead.jpg",
        images=(Image(f"{BASE}/b.jpg", "alt", "cap"), Image(f"{BASE}/lead.jpg")),
        article_probability=0.9,
    )
    item = zyte_article(article)
    valid(item, zci.Article)
    assert [author.name for author in item.authors] == ["Ruth Aldous", "Tomasz Wrona"]
    assert all(author.nameRaw is None for author in item.authors)  # no byline kept
    assert item.dateModified == "2024-03-06"
    assert [image.url for image in item.images] == [f"{BASE}/lead.jpg", f"{BASE}/b.jpg"]
    assert item.metadata.dateDownloaded is None  # not given: not made up


def test_cxarticle_carries_the_rest_of_our_fields(story: Article) -> None:
    article = Article(
        url=f"{BASE}/t",
        content="One. Two.",
        content_markdown="One. Two.",
        source="Reuters",
        keywords=("tram",),
        site_name="Harbour Gazette",
        page_type="thread",
        images=(Image(f"{BASE}/b.jpg", "alt", "cap"),),
        related=(("Other story", f"{BASE}/o"),),
        next_page=f"{BASE}/t?page=2",
        pages=(f"{BASE}/t",),
        posts=(Post("ann", "2024-03-05", "First", "<p>First</p>"),),
        fingerprint="cx1:00",
        duplicate_of=f"{BASE}/d",
        truncated=True,
        article_probability=0.97,
    )
    item = zyte_article(article, WHEN, CxArticle)
    valid(item, CxArticle)
    assert isinstance(item, zci.Article)
    assert item.articleBodyMarkdown == "One. Two."
    assert (item.source, item.keywords, item.siteName) == ("Reuters", ["tram"], "Harbour Gazette")
    assert item.pageType == "thread"
    assert item.imageDetails[0].caption == "cap" and item.imageDetails[0].alt == "alt"
    assert item.related[0].name == "Other story"
    assert item.nextPageUrl == f"{BASE}/t?page=2" and item.pages == [f"{BASE}/t"]
    assert item.posts[0].author == "ann" and item.posts[0].html == "<p>First</p>"
    assert (item.fingerprint, item.duplicateOf, item.truncated) == ("cx1:00", f"{BASE}/d", True)


def test_a_listing_as_article_list_and_navigation() -> None:
    listing = extract_article(listing_html(), f"{BASE}/news/")
    assert listing.page_type == "listing"
    links = [BASE + url for _, url in TEASERS]
    found = zyte_article_list(listing, WHEN)
    valid(found, zci.ArticleList)
    assert [article.url for article in found.articles] == links
    assert found.metadata.dateDownloaded == WHEN
    navigation = zyte_navigation(listing, WHEN)
    valid(navigation, zci.ArticleNavigation)
    assert [request.url for request in navigation.items] == links
    assert all(isinstance(r, zci.ProbabilityRequest) for r in navigation.items)
    assert navigation.nextPage == zci.Request(url=BASE + NEXT)
    assert navigation.categoryName == "News"
    assert navigation.subCategories is None  # we do not tell section links apart


def test_an_article_page_has_no_navigation_items(story: Article) -> None:
    navigation = zyte_navigation(story)
    valid(navigation, zci.ArticleNavigation)
    assert navigation.items is None and navigation.categoryName is None
    assert zyte_article_list(story).articles is None


def test_a_record_leaves_empty_fields_out_and_is_json(story: Article) -> None:
    record = zyte_record(story, WHEN)
    assert json.loads(json.dumps(record)) == record
    assert "authors" not in record and "videos" not in record
    assert record["metadata"] == {"dateDownloaded": WHEN, "probability": story.article_probability}
    assert record["pageType"] == "article"
    valid(CxArticle.from_dict(record), CxArticle)


def test_an_item_keeps_the_spiders_own_keys(story: Article) -> None:
    item = zyte_item({**story.to_dict(), "section": "city"}, WHEN)
    valid(item, CxArticle)
    assert item.headline == STRUCTURED_TITLE
    assert ZyteJson(item)["section"] == "city"


def test_downloaded_at_is_utc_to_the_second() -> None:
    moment = datetime(2024, 3, 5, 9, 30, 15, 999, tzinfo=timezone(timedelta(hours=1)))
    assert downloaded_at(moment) == "2024-03-05T08:30:15Z"
    assert downloaded_at(datetime(2024, 3, 5, 9, 30)) == "2024-03-05T09:30:00Z"  # naive: UTC
    assert downloaded_at().endswith("Z")


def test_every_field_of_ours_has_its_place_and_is_carried_over() -> None:
    """A field added to scrapy_cx.Article fails here until FIELD_MAP (and _ours, or the
    Zyte fields) place it: nothing of ours is silently left out of CxArticle."""
    assert list(FIELD_MAP) == list(Article.field_names())
    full = Article(
        **{
            name: value
            for name, value in {
                "url": f"{BASE}/a",
                "title": "T",
                "published": "2024-03-05",
                "published_raw": "5 March 2024",
                "modified": "2024-03-06",
                "content": "C",
                "content_html": "<p>C</p>",
                "content_markdown": "C",
                "authors": ("A",),
                "source": "S",
                "keywords": ("k",),
                "description": "D",
                "image": f"{BASE}/i.jpg",
                "images": (Image(f"{BASE}/b.jpg"),),
                "site_name": "N",
                "language": "en",
                "canonical_url": f"{BASE}/c",
                "breadcrumbs": (Breadcrumb("Home", f"{BASE}/"),),
                "accessible_for_free": True,
                "page_type": "article",
                "article_probability": 0.5,
                "related": (("R", f"{BASE}/r"),),
                "article_links": (f"{BASE}/l",),
                "next_page": f"{BASE}/a?page=2",
                "pages": (f"{BASE}/a",),
                "posts": (Post("p", None, "x"),),
                "fingerprint": "cx1:0",
                "duplicate_of": f"{BASE}/d",
                "truncated": True,
            }.items()
            if name in FIELD_MAP
        }
    )
    assert all(getattr(full, name) not in (None, "", (), False) for name in FIELD_MAP)
    item = zyte_article(full, WHEN, CxArticle)
    for ours, theirs in FIELD_MAP.items():
        value: object = item
        for part in theirs.split("."):
            value = getattr(value, part)
        assert value not in (None, "", []), f"{ours} -> {theirs} is empty"
