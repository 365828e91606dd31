"""article_probability: high for a story, low for a shop's page or a list of links."""

from __future__ import annotations

import math

from scrapy_cx.extract import extract_article, extract_page
from scrapy_cx.extract.classify.probability import FEATURES, WEIGHTS, features, probability
from tests.sample_pages import article_html, listing_html

STORY_URL = "https://gazette.test/city/2024/03/council-extends-the-northern-tram-line"


def product_html() -> str:
    """A shop's product page: a name, a description, prices and options; no date, no byline."""
    options = "".join(
        f"<li><span>Size {size}</span> <span class='price'>€{price},00</span></li>"
        for size, price in (("S", 49), ("M", 54), ("L", 59), ("XL", 64))
    )
    related = "".join(
        f"<div class='card'><a href='/p/{i}'>Garden chair model {i}</a><b>€{30 + i},99</b></div>"
        for i in range(6)
    )
    return (
        "<html><head><title>Teak garden bench | Shop</title>"
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "Product", "name": "Teak garden bench"}</script></head><body>'
        "<h1>Teak garden bench</h1>"
        "<p>Our teak garden bench seats three and is made from solid, sustainably grown "
        "teak that weathers to a silver grey. It needs no treatment and stays outside all "
        "year round; the slats are sanded smooth and the joints are mortised.</p>"
        f"<ul>{options}</ul><button>Add to basket</button>{related}</body></html>"
    )


def test_a_dated_bylined_story_is_almost_surely_an_article() -> None:
    html = article_html("Council extends the northern tram line").replace(
        "<time", "<p class='byline'>By Anna Berg</p><time"
    )
    article = extract_article(html, STORY_URL)
    assert article.page_type == "article"
    assert article.authors
    assert article.article_probability is not None and article.article_probability >= 0.9


def teasers_html() -> str:
    """A section front: linked headlines, each with a line of excerpt."""
    cards = "".join(
        f"<div class='teaser'><h2><a href='/city/story-{i}'>Council debates the harbour "
        f"plan, part {i} of the series</a></h2><p>Residents of the old quarter met the "
        f"planners again on evening {i} to discuss the new quay.</p></div>"
        for i in range(12)
    )
    head = "<html><head><title>City | Gazette</title></head>"
    return f"{head}<body><h1>City</h1>{cards}</body></html>"


def test_a_product_page_and_a_section_front_are_unlikely_articles() -> None:
    product = extract_article(product_html(), "https://shop.test/garden/teak-bench")
    front = extract_article(teasers_html(), "https://news.test/city/")
    assert (product.page_type, front.page_type) == ("other", "listing")
    for article in (product, front):
        assert article.article_probability is not None and article.article_probability < 0.5


def test_a_page_where_no_text_was_found_is_no_article() -> None:
    # (A page of bare links: the selection finds no text, whatever its type.)
    article = extract_article(listing_html(), "https://news.test/city/")
    assert article.content == ""
    assert article.article_probability == 0.0


def test_it_is_a_probability_of_the_signals_in_the_weights_order() -> None:
    page = extract_page(article_html("Council extends the northern tram line"), STORY_URL)
    values = features(page)
    assert len(values) == len(FEATURES) == len(WEIGHTS)
    assert page.article_probability == probability(values)
    assert 0.0 <= probability((0.0,) * len(FEATURES)) <= 1.0
    # Extreme signals saturate instead of overflowing.
    assert probability((1e6,) * len(FEATURES)) in (0.0, 1.0)
    assert not math.isnan(probability((-1e6,) * len(FEATURES)))


def test_an_empty_page_gets_a_probability_too() -> None:
    article = extract_article("<html><body></body></html>", "https://x.test/")
    assert (article.page_type, article.article_probability) == ("other", 0.0)


def test_code_blocks_make_a_page_less_likely_an_article() -> None:
    """An unbylined, undated page of prose and code blocks is a manual's or an app's
    more often than a story: the code lowers its probability (typed other, both
    would score alike)."""
    prose = "".join(
        f"<p>Residents of the old quarter met the planners again on evening {i} to "
        "discuss the new quay, and the council promised an answer before the summer.</p>"
        for i in range(6)
    )
    code = "".join(f"<pre><code>quay build --berth {i}</code></pre>" for i in range(4))
    plain = f"<html><body><h1>Building a quay</h1>{prose}</body></html>"
    coded = plain.replace("</h1>", f"</h1>{code}")
    url = "https://harbour.test/docs/quay"  # a manual's: both pages are typed other
    first, second = (extract_page(html, url) for html in (plain, coded))
    assert (first.page_type, second.page_type) == ("other", "other")
    values = features(second)
    assert values[-1] > 0.0  # its code blocks, the last signal
    assert first.article_probability is not None and second.article_probability is not None
    assert second.article_probability < probability((*values[:-1], 0.0))
    assert second.article_probability < first.article_probability
