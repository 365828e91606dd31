"""Block kinds and related links: groups of linked headlines, read in page order."""

from __future__ import annotations

from scrapy_cx.extract import extract_article, extract_page
from scrapy_cx.extract.blocks import MAX_RELATED, RELATED
from tests.extract.prose import BRIDGE_STORY


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
