"""A live blog's entries as posts with their times: from JSON-LD, or the page's own stamps."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scrapy_cx import Post, extract_article
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.content.live import jsonld_updates, time_of_day
from tests.extract.prose import BRIDGE_STORY, PARAGRAPHS

URL = "https://news.example/live/bridge"
PUBLISHED = '<meta property="article:published_time" content="2026-11-26T08:00:00Z">'


def ld(node: dict[str, Any]) -> str:
    return f'<script type="application/ld+json">{json.dumps(node)}</script>'


LIVE = {
    "@context": "https://schema.org",
    "@type": "LiveBlogPosting",
    "headline": "Bridge vote: live",
    "datePublished": "2026-11-26T08:00:00Z",
    "liveBlogUpdate": [
        {
            "@type": "BlogPosting",
            "headline": "The vote passes",
            "datePublished": "2026-11-26T11:45:00Z",
            "articleBody": "<p>Twelve votes to three.</p><p>Work starts in March.</p>",
            "author": {"@type": "Person", "name": "Ann Lee"},
        },
        {
            "@type": "BlogPosting",
            "datePublished": "2026-11-26T10:32:00+01:00",
            "articleBody": "The debate opens.",
            "author": {"@type": "Organization", "name": "News Desk"},
        },
        {"@type": "BlogPosting", "headline": "Doors open", "datePublished": "garbage"},
    ],
}


def test_a_json_ld_live_blog() -> None:
    html = (
        f"<html><head>{ld(LIVE)}</head><body><h1>Bridge vote: live</h1>{PARAGRAPHS}</body></html>"
    )
    result = extract_page(html, URL, formats=("html",))
    article = result.article()
    assert article.posts == (
        Post(
            "Ann Lee",
            "2026-11-26T11:45:00+00:00",
            "The vote passes\nTwelve votes to three.\nWork starts in March.",
            "<p>The vote passes</p><p>Twelve votes to three.</p><p>Work starts in March.</p>",
        ),
        Post(None, "2026-11-26T10:32:00+01:00", "The debate opens.", "<p>The debate opens.</p>"),
        Post(None, None, "Doors open", "<p>Doors open</p>"),
    )
    assert result.evidence_of("posts").source == "jsonld:liveBlogUpdate"
    assert article.content == extract_article(html.replace("liveBlogUpdate", "x"), URL).content


def test_only_a_live_blog_posting_has_updates() -> None:
    assert jsonld_updates({**LIVE, "@type": "NewsArticle"}) == []
    assert jsonld_updates({**LIVE, "liveBlogUpdate": "soon"}) == []
    one = jsonld_updates({**LIVE, "liveBlogUpdate": {"articleBody": "Only 1 < 2 & <b>one</b>."}})
    assert one == [Post(None, None, "Only 1 < 2 & one.")]


def entries(stamps: list[str], entry: str = '<div class="entry">{stamp}<p>{text}</p></div>') -> str:
    return "".join(
        entry.format(stamp=stamp, text=BRIDGE_STORY[k % len(BRIDGE_STORY)])
        for k, stamp in enumerate(stamps)
    )


def live_page(body: str, head: str = PUBLISHED, title: str = "Bridge vote") -> str:
    return (
        f"<html><head><title>{title}</title>{head}</head><body><h1>{title}</h1>"
        f"<p>{BRIDGE_STORY[0]}</p>{body}</body></html>"
    )


def test_a_plain_html_live_blog_with_times_of_day() -> None:
    stamped = entries(["<p class='time'>11:45</p>", "<p class='time'>10.32am</p>",
                       "<p class='time'>9:05 am</p>"])  # fmt: skip
    article = extract_article(live_page(f'<div class="live-blog">{stamped}</div>'), URL)
    assert [post.published for post in article.posts] == [
        "2026-11-26T11:45:00",
        "2026-11-26T10:32:00",
        "2026-11-26T09:05:00",
    ]
    assert [post.text for post in article.posts] == BRIDGE_STORY[:3]
    plain = extract_article(live_page(f'<div class="story">{stamped}</div>'), URL)
    assert plain.content == article.content  # the text stays the article's


def test_time_elements_on_a_page_that_declares_a_live_blog() -> None:
    stamps = [
        f'<time datetime="2026-11-2{d}T1{d}:00:00Z">{d} Nov, 1{d}:00</time>' for d in (7, 6, 5)
    ]
    body = entries(stamps, '<article class="post"><header>{stamp}</header><p>{text}</p></article>')
    article = extract_article(live_page(body, ld({"@type": "LiveBlogPosting"})), URL)
    assert [post.published for post in article.posts] == [
        "2026-11-27T17:00:00+00:00",
        "2026-11-26T16:00:00+00:00",
        "2026-11-25T15:00:00+00:00",
    ]


def test_times_that_do_not_run_one_way_get_no_day() -> None:
    stamped = entries(["<p>11:45</p>", "<p>23:10</p>", "<p>09:05</p>"])
    article = extract_article(live_page(f'<div class="liveblog">{stamped}</div>'), URL)
    assert len(article.posts) == 3 and {post.published for post in article.posts} == {None}


def test_no_live_blog_without_a_live_signal_or_enough_entries() -> None:
    stamped = entries(["<p>11:45</p>", "<p>10:32</p>", "<p>09:05</p>"])
    assert extract_article(live_page(f'<div class="story">{stamped}</div>'), URL).posts == ()
    two = entries(["<p>11:45</p>", "<p>10:32</p>"])
    assert extract_article(live_page(f'<div class="live">{two}</div>'), URL).posts == ()


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("10:32", (10, 32)),
        ("10.32am GMT", (10, 32)),
        ("9:05 pm", (21, 5)),
        ("12:15 a.m.", (0, 15)),
        ("14h05", (14, 5)),
        ("14:05 Road reopens", (14, 5)),
        ("25:00", None),
        ("13:05 pm", None),
        ("10:32:15 BST", (10, 32)),
        ("10.32.5", None),
        ("10.5 million", None),
        ("In 2026", None),
    ],
)
def test_time_of_day(text: str, clock: tuple[int, int] | None) -> None:
    assert time_of_day(text) == clock


def test_odd_updates_are_read_as_far_as_they_go() -> None:
    updates: list[Any] = [
        None,
        "text",
        {"articleBody": ["a", "list"], "datePublished": 2026},
        {"articleBody": "<p>unclosed <b>markup", "author": [{"name": "  Bo  Li "}]},
        {"text": "\u0000", "datePublished": "x" * 10_000},
        *({"headline": f"Update {k}", "datePublished": f"odd {k}"} for k in range(600)),
    ]
    posts = jsonld_updates({"@type": ["LiveBlogPosting", "NewsArticle"], "liveBlogUpdate": updates})
    assert posts[0] == Post("Bo Li", None, "unclosed markup")
    assert len(posts) < 500 and {post.published for post in posts} == {None}
