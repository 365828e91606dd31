"""scrapy_cx.zyte._teasers: a listing's teaser headlines, read from its links."""

from __future__ import annotations

from scrapy_cx.zyte._teasers import teaser_headlines
from tests.sample_pages import structured_html
from tests.zyte.listing import TEASERS, listing_html

BASE = "http://example.com"


def test_each_teaser_link_has_its_headline() -> None:
    headlines = teaser_headlines(listing_html(), f"{BASE}/news/")
    assert headlines == {BASE + url: title for title, url in TEASERS}


def test_the_links_text_not_the_cards_line() -> None:
    cards = "".join(
        f"<li><span class=date>2024-03-0{n}</span><a href='/news/{n}.html'>Story number {n} "
        f"of the day in the harbour district</a></li>"
        for n in range(1, 7)
    )
    html = f"<html><body><h1>Latest</h1><ul>{cards}</ul></body></html>"
    headlines = teaser_headlines(html, f"{BASE}/latest/")
    assert headlines, "the cards are teasers"
    assert all(not text.startswith("2024") for text in headlines.values())
    first = headlines.get(f"{BASE}/news/1.html")
    assert first == "Story number 1 of the day in the harbour district"


def test_an_article_has_none() -> None:
    assert teaser_headlines(structured_html(), f"{BASE}/news/tram.html") == {}
