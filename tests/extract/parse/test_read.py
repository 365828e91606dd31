"""read.py: the walk of a page that shows its text only in <noscript>."""

from __future__ import annotations

from scrapy_cx import extract_article
from tests.extract.content.test_choose import STORY, page, paragraphs


def test_a_page_that_shows_its_text_only_in_noscript_is_read_from_it() -> None:
    # Forum software builds the page with script; readers without it get <noscript>.
    html = page(
        "<div id='app'>Loading…</div>"
        f"<noscript><div class='topic'><h1>Bridge to be rebuilt</h1>{paragraphs(STORY)}"
        "</div></noscript>"
    )
    assert extract_article(html).content == "\n".join(STORY)


def test_noscript_stays_out_when_the_page_shows_its_text() -> None:
    html = page(
        f"<article><h1>Bridge to be rebuilt</h1>{paragraphs(STORY)}</article>"
        "<noscript><p>Please enable JavaScript to see the comments of our readers.</p></noscript>"
    )
    assert extract_article(html).content == "\n".join(STORY)
