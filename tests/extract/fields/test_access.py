"""accessible_for_free: what the page declares (isAccessibleForFree, a paywalled hasPart)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scrapy_cx import extract_article
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.fields.access import read_flag
from tests.extract.prose import PARAGRAPHS

URL = "https://news.example/city/night-buses"


def page(head: str = "", body: str = "") -> str:
    return (
        f"<html><head><title>Night buses approved</title>{head}</head><body>"
        f"<h1>Night buses approved</h1>{body}{PARAGRAPHS}</body></html>"
    )


def ld(*nodes: dict[str, Any]) -> str:
    return "".join(
        f'<script type="application/ld+json">{json.dumps(node)}</script>' for node in nodes
    )


def test_a_paywalled_article_as_google_asks_it_to_be_marked() -> None:
    node = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": "Night buses approved",
        "isAccessibleForFree": "False",
        "hasPart": {
            "@type": "WebPageElement",
            "isAccessibleForFree": "False",
            "cssSelector": ".paywall",
        },
    }
    result = extract_page(page(ld(node), "<div class='paywall'></div>"), URL)
    assert result.article().accessible_for_free is False
    assert result.evidence_of("accessible_for_free").source == "jsonld:hasPart"


def test_a_paywalled_part_makes_an_article_not_free_whatever_its_own_flag() -> None:
    node = {
        "@type": "Article",
        "isAccessibleForFree": True,
        "hasPart": [{"@type": "WebPageElement", "isAccessibleForFree": False}],
    }
    assert extract_article(page(ld(node)), URL).accessible_for_free is False


def test_a_free_article_in_a_graph() -> None:
    graph = {
        "@graph": [
            {"@type": "Organization", "name": "News", "isAccessibleForFree": False},
            {"@type": "NewsArticle", "isAccessibleForFree": True},
        ]
    }
    assert extract_article(page(ld(graph)), URL).accessible_for_free is True


def test_the_article_node_speaks_before_the_web_page() -> None:
    nodes = (
        {"@type": "WebPage", "isAccessibleForFree": True},
        {"@type": "NewsArticle", "isAccessibleForFree": False},
    )
    assert extract_article(page(ld(*nodes)), URL).accessible_for_free is False


def test_microdata() -> None:
    body = (
        "<div itemscope itemtype='https://schema.org/NewsArticle'>"
        "<meta itemprop='isAccessibleForFree' content='false'></div>"
    )
    assert extract_article(page(body=body), URL).accessible_for_free is False


def test_none_when_the_page_says_nothing() -> None:
    body = "<p class='promo'>Subscribe to read more stories like this one.</p>"
    assert (
        extract_article(page(ld({"@type": "NewsArticle"}), body), URL).accessible_for_free is None
    )
    odd = {"@type": "NewsArticle", "isAccessibleForFree": "maybe"}
    assert extract_article(page(ld(odd)), URL).accessible_for_free is None
    offer = {"@type": "Offer", "isAccessibleForFree": False}  # about an offer, not the page
    assert extract_article(page(ld(offer)), URL).accessible_for_free is None


@pytest.mark.parametrize(
    ("value", "flag"),
    [
        (True, True),
        (False, False),
        ("False", False),
        (" true ", True),
        ("https://schema.org/False", False),
        ("no", False),
        ("", None),
        (0.0, None),
        (None, None),
    ],
)
def test_read_flag(value: object, flag: bool | None) -> None:
    assert read_flag(value) is flag
