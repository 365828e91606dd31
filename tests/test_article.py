"""The Article record: immutable, ordered, JSON-ready."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scrapy_cx import Article
from scrapy_cx.article import Breadcrumb, Image, Post


def test_fields_in_export_order() -> None:
    assert Article.field_names() == (
        "url",
        "title",
        "published",
        "published_raw",
        "modified",
        "content",
        "content_html",
        "content_markdown",
        "authors",
        "source",
        "keywords",
        "description",
        "image",
        "images",
        "site_name",
        "language",
        "canonical_url",
        "breadcrumbs",
        "accessible_for_free",
        "page_type",
        "article_probability",
        "related",
        "article_links",
        "next_page",
        "pages",
        "posts",
        "fingerprint",
        "duplicate_of",
        "truncated",
    )


def test_is_immutable() -> None:
    article = Article(title="A")
    with pytest.raises(dataclasses.FrozenInstanceError):
        article.title = "B"  # type: ignore[misc]


def test_to_dict_is_json_ready_and_ordered() -> None:
    article = Article(url="http://x/1", title="标题", authors=("A", "B"), keywords=("k",))
    data = article.to_dict()
    assert list(data) == list(Article.field_names())
    assert data["authors"] == ["A", "B"]
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data


def test_to_dict_holds_every_field_with_nested_records_as_plain_data() -> None:
    # Built without dataclasses.asdict (too slow per crawled page): it must still give
    # what asdict gives, with tuples as lists and the related links and posts as dicts.
    article = Article(
        url="http://x/1",
        title="T",
        content="Body.",
        authors=("A",),
        related=(("Other story", "http://x/2"),),
        article_links=("http://x/3",),
        next_page="http://x/1?page=2",
        pages=("http://x/1", "http://x/1?page=2"),
        posts=(Post(author="bob", published="2024-01-02", text="Hi"),),
        breadcrumbs=(Breadcrumb("Home", "http://x/"), Breadcrumb("Story")),
        accessible_for_free=False,
        fingerprint="f" * 16,
    )
    data = article.to_dict()
    expected = dataclasses.asdict(article)
    expected.update(
        authors=["A"],
        keywords=[],
        article_links=["http://x/3"],
        pages=["http://x/1", "http://x/1?page=2"],
        related=[{"title": "Other story", "url": "http://x/2"}],
        posts=[{"author": "bob", "published": "2024-01-02", "text": "Hi", "html": None}],
        breadcrumbs=[{"name": "Home", "url": "http://x/"}, {"name": "Story", "url": None}],
    )
    assert data == expected
    assert json.loads(json.dumps(data)) == data


def test_from_dict_reads_back_what_to_dict_made() -> None:
    article = Article(
        url="http://x/1",
        title="T",
        content="Body.",
        content_html="<p>Body.</p>",
        authors=("A", "B"),
        keywords=("k",),
        images=(Image("http://x/a.jpg", alt="a", caption=None),),
        article_probability=0.75,
        related=(("Other story", "http://x/2"),),
        article_links=("http://x/3",),
        pages=("http://x/1", "http://x/1?page=2"),
        posts=(Post(author="bob", published="2024-01-02", text="Hi", html="<p>Hi</p>"),),
        breadcrumbs=(Breadcrumb("Home", "http://x/"), Breadcrumb("Story")),
        accessible_for_free=True,
        truncated=True,
    )
    for original in (article, Article(), Article(images=())):
        data = original.to_dict()
        back = Article.from_dict(data)
        assert back == original and type(back.authors) is tuple
        assert back.content is data["content"]  # shared, not copied
    again = Article.from_dict(json.loads(json.dumps(article.to_dict())))  # a JSON line
    assert again == article
    assert Article.from_dict({"title": "T", "not_a_field": 1}) == Article(title="T")


def test_import_stays_scrapy_free() -> None:
    import subprocess
    import sys

    code = (
        "import sys, scrapy_cx; scrapy_cx.extract_article('<p>x</p>');"
        " print('scrapy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_images_export_as_dicts_and_unasked_formats_as_null() -> None:
    from scrapy_cx import Image

    article = Article(images=(Image("https://example.com/a.jpg", "A cat", None),))
    assert article.to_dict()["images"] == [
        {"url": "https://example.com/a.jpg", "alt": "A cat", "caption": None}
    ]
    data = Article().to_dict()
    assert data["images"] is None and data["content_html"] is None
    assert data["content_markdown"] is None


def test_check_formats() -> None:
    from scrapy_cx.article import check_formats

    assert check_formats("html, markdown") == {"html", "markdown"}
    assert check_formats([]) == frozenset()
    with pytest.raises(ValueError, match="'xml'.*html, markdown, images"):
        check_formats(["html", "xml"])
