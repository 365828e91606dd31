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


def _items(*links: str) -> str:
    return "<ul>" + "".join(f"<li>{link}</li>" for link in links) + "</ul>"


def test_share_bars_and_tag_lines_are_no_related_links() -> None:
    # A plain news site's article (issue 39: 5 of 15 held these).
    share = (
        "<div class='share'>Share: <a href='https://twitter.com/share?url=x'>Twitter</a> "
        "<a href='https://www.facebook.com/sharer/sharer.php?u=x'>Facebook</a></div>"
    )
    tags = "<p>Tags: <a href='/tag/islanders/'>islanders</a></p>"
    page = _story(
        share
        + _items(
            "<a href='https://twitter.com/intent/tweet?text=Bridge+to+be+rebuilt'>Share this "
            "story on Twitter with your friends</a>",
            "<a href='https://www.linkedin.com/shareArticle?url=x'>Share this story on "
            "LinkedIn with colleagues</a>",
            "<a href='https://t.me/share/url?url=x'>Send this story to a friend on Telegram</a>",
        )
        + f"<div>{tags}{tags.replace('islanders', 'ferries')}</div>"
        + _items(_link("a1"), _link("a2"))
    )
    article = extract_article(page, PAGE)
    assert [url for _title, url in article.related] == [
        "https://town.test/news/a1",
        "https://town.test/news/a2",
    ]


def test_this_pages_own_address_and_bare_labels_are_no_related_links() -> None:
    # WordPress: "Recent posts" lists the story itself (aria-current), and the post
    # navigation's link holds a label line above its headline.
    own = f"<a href='{PAGE}/' aria-current='page'>Bridge to be rebuilt after the council vote</a>"
    nav = (
        "<div class='nav-links'><a href='/news/older' rel='prev'><p>Previous post</p>"
        "<p>The trees are ordered, and a word about the rabbits</p></a>"
        "<a href='/news/newer' rel='next'><p>Next post</p>"
        "<p>The wildflower strip was sown before the frost</p></a></div>"
    )
    article = extract_article(_story(nav + _items(own, _link("a1"), _link("a2"))), PAGE)
    titles = [title for title, _url in article.related]
    assert "Previous post" not in titles and "Next post" not in titles
    assert PAGE not in {url.rstrip("/") for _title, url in article.related}
    assert "https://town.test/news/a1" in {url for _title, url in article.related}


def test_the_example_projects_blog_post_relates_other_posts_only() -> None:
    from pathlib import Path

    saved = Path(__file__).parents[3] / "example_project/news/pages/blog-orchard-planting.html"
    url = "https://lowerfield.example/2023/10/06/forty-trees-in-one-saturday/"
    article = extract_article(saved.read_text(encoding="utf-8"), url)
    assert article.related, "the recent posts are related"
    assert all(address != url for _title, address in article.related)
    assert all(title not in ("Previous post", "Next post") for title, _url in article.related)


def test_a_page_on_a_share_services_site_keeps_its_own_related_links() -> None:
    links = [
        "<a href='/r/news/comments/1/a_long_thread_about_the_bridge'>A long thread about "
        "the bridge and its cost</a>",
        "<a href='/r/news/comments/2/another_thread_about_the_river'>Another thread about "
        "the river and its ferries</a>",
    ]
    article = extract_article(_story(_items(*links)), "https://www.reddit.com/r/news/comments/0/")
    assert [url for _title, url in article.related] == [
        "https://www.reddit.com/r/news/comments/1/a_long_thread_about_the_bridge",
        "https://www.reddit.com/r/news/comments/2/another_thread_about_the_river",
    ]
