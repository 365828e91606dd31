"""One rule for "is this an article", shared by the crawl's pipeline and bulk extraction."""

from __future__ import annotations

from typing import Any

import pytest
from itemadapter import ItemAdapter

from scrapy_cx import verdict
from scrapy_cx.bulk import Options, RawPage, extract_one
from scrapy_cx.bulk import _runner as bulk
from scrapy_cx.items import ArticleItem
from scrapy_cx.verdict import content_length, invalid_reason

from .sample_pages import article_html, listing_html

GOOD = {"content": "x" * 300, "title": "A headline", "published": "2024-03-05"}


@pytest.mark.parametrize(
    ("changes", "required", "reason"),
    [
        ({}, True, None),
        ({"content": "   "}, False, "no_content"),
        ({"content": None}, False, "no_content"),
        ({"content": "short"}, False, "short_content"),
        ({"content": ["x" * 150, "y" * 150]}, False, None),  # paragraphs
        ({"title": ""}, False, "no_title"),
        ({"published": None}, False, None),
        ({"published": None}, True, "no_published"),
        ({"published": "last Tuesday"}, False, "bad_published"),
    ],
)
def test_reasons(changes: dict[str, Any], required: bool, reason: str | None) -> None:
    assert invalid_reason({**GOOD, **changes}, 200, required) == reason


def test_a_page_less_likely_an_article_than_asked_is_low_probability() -> None:
    sure, unsure = {**GOOD, "article_probability": 0.9}, {**GOOD, "article_probability": 0.3}
    assert invalid_reason(unsure, 200, False) is None  # the default, 0, keeps every page
    assert invalid_reason(unsure, 200, False, min_probability=0.5) == "low_probability"
    assert invalid_reason(sure, 200, False, min_probability=0.5) is None
    # A record the extractor did not make has no probability: never judged by it.
    assert invalid_reason(GOOD, 200, False, min_probability=0.5) is None
    # The page type is the first verdict: a listing stays a listing.
    listing = {**unsure, "page_type": "listing"}
    assert invalid_reason(listing, 200, False, min_probability=0.5) == "page_type_listing"


def test_an_item_adapter_and_a_plain_dict_get_the_same_answer() -> None:
    item = ArticleItem(content="short", title="t")
    assert invalid_reason(ItemAdapter(item), 200, False) == "short_content"
    assert invalid_reason(dict(item), 200, False) == "short_content"


@pytest.mark.parametrize("html", [article_html("Story"), listing_html()])
def test_bulk_skips_exactly_what_the_pipeline_would_drop(html: str) -> None:
    page = RawPage("p", "http://news.test/1", html.encode())
    outcome = extract_one(page, Options())
    article = bulk.extract_article(html, "http://news.test/1")
    reason = invalid_reason(article.to_dict(), Options().settings.min_content_length, False)
    assert (outcome.reason is None) == (reason is None)


class _CountingPattern:
    """Stands for ``verdict._WIDE``: counts the characters its scans read."""

    def __init__(self, pattern: Any) -> None:
        self.pattern, self.scanned = pattern, 0

    def findall(self, text: str) -> list[str]:
        self.scanned += len(text)
        return list(self.pattern.findall(text))


def test_content_length_counts_wide_characters_twice_and_scans_only_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide = _CountingPattern(verdict._WIDE)
    monkeypatch.setattr(verdict, "_WIDE", wide)
    assert content_length(" 青河大桥 ok ") == 4 * 2 + 3
    assert content_length("word " * 1_000_000) == len(("word " * 1_000_000).strip())
    # Only the CJK text was scanned: a 5 MB ASCII text costs no pass of the regex.
    assert wide.scanned == len("青河大桥 ok")


def test_a_comment_page_of_voted_comments_is_kept_by_default() -> None:
    """A link aggregator's comment page (nested comments, each with its author, its
    points and its age) was typed other and dropped, although threads are kept."""
    from scrapy_cx import extract_article
    from scrapy_cx.settings import CxSettings

    from .extract.classify.test_pagetype import comment_page

    article = extract_article(comment_page("3h ago"), "http://board.test/r/town/comments/1/")
    assert verdict.article_reason(*CxSettings().rule(), article) is None
