"""Articles split over several pages (spiders/_split.py)."""

from __future__ import annotations

import pytest

from scrapy_cx import Article
from scrapy_cx.article import Image
from scrapy_cx.spiders._split import merge_pages, same_article


@pytest.mark.parametrize(
    ("first", "following", "same"),
    [
        ("http://x.cn/a/c123.shtml", "http://x.cn/a/c123_2.shtml", True),
        ("http://x.cn/a/c123.shtml", "http://x.cn/a/c123_3.shtml", True),  # page 3 of the first
        ("http://x.cn/a/c12.shtml", "http://x.cn/a/c12_2.shtml", True),
        ("https://x.test/story-3.html", "https://x.test/story-3.html?page=2", True),
        ("https://x.test/story-195.html", "https://x.test/story-196.html", False),
        ("https://x.test/s?id=9", "https://x.test/s?id=9&p=2", True),
        ("https://x.test/s?id=9", "https://x.test/s?id=10", False),
    ],
)
def test_a_next_page_continues_the_first(first, following, same):
    assert same_article(Article(url=first, title="T"), following, "T") is same


def test_same_article_reads_the_title_too():
    first = Article(url="https://x.test/a.html", title="Harbour plan approved")
    assert same_article(first, "https://x.test/a.html?page=2")
    assert same_article(first, "https://x.test/a.html?page=2", "Harbour plan approved (2)")
    assert same_article(first, "https://x.test/a.html?page=2", None)
    assert not same_article(first, "https://x.test/a.html?page=2", "Storm closes the school")
    assert not same_article(first, "https://x.test/b.html")


def test_merge_pages():
    one = Article(
        url="https://x.test/a",
        title="T",
        content="First.",
        content_html="<p>First.</p>",
        images=(Image("https://x.test/1.jpg"),),
        next_page="https://x.test/a?page=2",
        published="2024-05-01",
    )
    two = Article(
        url="https://x.test/a?page=2",
        title="T",
        content="Second.",
        content_html="<p>Second.</p>",
        images=(Image("https://x.test/1.jpg"), Image("https://x.test/2.jpg")),
    )
    merged = merge_pages([one, two])
    assert merged.url == "https://x.test/a" and merged.published == "2024-05-01"
    assert merged.content == "First.\nSecond."
    assert merged.content_html == "<p>First.</p>\n<p>Second.</p>"
    assert [image.url for image in merged.images or ()] == [
        "https://x.test/1.jpg",
        "https://x.test/2.jpg",
    ]
    assert merged.pages == ("https://x.test/a", "https://x.test/a?page=2")
    assert merged.next_page is None
    assert merge_pages([one]) is one
