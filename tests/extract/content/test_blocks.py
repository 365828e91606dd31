"""Block kinds and related links: groups of linked headlines, read in page order, and
only http(s) addresses."""

from __future__ import annotations

import html

from scrapy_cx.extract import extract_article, extract_page
from scrapy_cx.extract.content.blocks import MAX_RELATED, RELATED
from tests.extract.prose import BRIDGE_STORY
from tests.extract.test_urls import HOSTILE, ORDINARY, PAGE


def _story(aside: str) -> str:
    return (
        "<html><head><title>Bridge to be rebuilt | Town News</title></head><body>"
        "<article><h1>Bridge to be rebuilt</h1>"
        + "".join(f"<p>{p}</p>" for p in BRIDGE_STORY)
        + f"</article><aside class='related'>{aside}</aside></body></html>"
    )


def _link(name: str) -> str:
    return f"<a href='/news/{name}'>Another story readers also clicked, number {name}</a>"


def test_related_links_of_nested_groups_keep_page_order() -> None:
    # The outer list's items and the inner list's are two groups whose lines interleave.
    inner = f"<ul><li>{_link('b1')}</li><li>{_link('b2')}</li></ul>"
    aside = f"<ul><li>{_link('a1')}{inner}</li><li>{_link('a2')}</li></ul>"
    page = extract_page(_story(aside), "http://town.test/news/bridge")
    assert [url.rsplit("/", 1)[1] for _title, url in page.related] == ["a1", "b1", "b2", "a2"]
    assert sum(kind == RELATED for kind in page.kinds) == 4


def test_related_links_are_capped() -> None:
    aside = "<ul>" + "".join(f"<li>{_link(str(i))}</li>" for i in range(2 * MAX_RELATED)) + "</ul>"
    article = extract_article(_story(aside), "http://town.test/news/bridge")
    assert len(article.related) == MAX_RELATED
    assert article.related[0][1] == "http://town.test/news/0"


def _href(url: str) -> str:
    """``url`` as an attribute value: quotes and markup escaped, controls as references
    where HTML allows them (a tab or newline stays literal, as pages write it)."""
    return html.escape(url, quote=True)


def test_related_links_are_http_addresses_only() -> None:
    # One list of links: the hostile ones among ordinary ones, each with its own title.
    links = [
        f"<li><a href='{_href(url)}'>Another story readers also clicked, number {i}</a></li>"
        for i, url in enumerate([url for url, _expected in ORDINARY] + HOSTILE)
    ]
    article = extract_article(_story("<ul>" + "".join(links) + "</ul>"), PAGE)
    # The same address twice under two titles is kept twice: one pair a title.
    assert [url for _title, url in article.related] == [expected for _url, expected in ORDINARY]


def test_related_links_to_this_page_are_left_out() -> None:
    here = "<li><a href=' #comments'>Read the comments on this story below</a></li>"
    links = [f"<li>{_link('a1')}</li>", here]
    article = extract_article(_story("<ul>" + "".join(links) + "</ul>"), PAGE)
    assert [url for _title, url in article.related] == ["https://town.test/news/a1"]


def test_a_regions_line_the_text_leaves_out_is_no_content() -> None:
    # A dateline under the headline sits in the selected region, but not in the text.
    html_page = _story("").replace(
        "<h1>Bridge to be rebuilt</h1>", "<h1>Bridge to be rebuilt</h1><p>5 March 2024</p>"
    )
    page = extract_page(html_page, "http://town.test/news/bridge")
    kinds = zip(page.lines, page.kinds, strict=True)
    content = [line.text for line, kind in kinds if kind == "content"]
    assert "5 March 2024" not in page.content
    assert "\n".join(content) == page.content
