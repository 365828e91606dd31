"""No page shape makes extraction superlinear: the cost at 4n stays near 4 times the cost at n.

Each hostile shape (attributes on one tag, lines, nesting, entities, one huge
text node) is extracted at size n and 4n. CPU time, best of three, so other
processes on the machine matter little; a linear path gives a ratio near 4, a
quadratic one near 16, and the bound sits between them with room for noise.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from scrapy_cx.extract import extract_article
from scrapy_cx.extract.parse import dom
from scrapy_cx.extract.parse.dom import (
    MAX_ATTRIBUTES,
    MAX_TAGS,
    cap_attributes,
    has_crowded_tag,
    parse_document,
    parse_html,
    tag_cut,
)

GROWTH = 4
MAX_RATIO = 9.0  # linear: ~4; quadratic: ~16
REPEATS = 3
PARAGRAPH = (
    "<p>The council met on Tuesday evening to approve the budget for the coming year "
    "after a debate that lasted more than four hours.</p>"
)


def page(body: str) -> bytes:
    return (
        "<html><head><title>A long night at the council</title></head><body>"
        f"{body}<article><h1>A long night at the council</h1>{PARAGRAPH * 5}</article>"
        "</body></html>"
    ).encode()


SHAPES: dict[str, tuple[Callable[[int], bytes], int]] = {
    "attributes on one tag": (
        lambda n: page("<div " + " ".join(f'data-a{i}="x"' for i in range(n)) + ">x</div>"),
        10_000,
    ),
    "lines of <br>": (lambda n: page("<div>" + "word<br>\n" * n + "</div>"), 20_000),
    "nested divs": (lambda n: page("<div>" * n + "deep" + "</div>" * n), 20_000),
    "entities": (lambda n: page("<p>" + "&amp;&#x4e2d;&eacute; " * n + "</p>"), 50_000),
    "one text node": (lambda n: page("<div>" + "word " * n + "</div>"), 100_000),
    "unclosed tags": (lambda n: page("<b><i><u>text " * n), 10_000),
}


def cost(html: bytes) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        extract_article(html, "http://news.example/a")
        best = min(best, time.process_time() - started)
    return max(best, 1e-4)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_extraction_cost_grows_linearly(shape: str) -> None:
    build, n = SHAPES[shape]
    small, large = cost(build(n)), cost(build(GROWTH * n))
    assert large / small < MAX_RATIO, f"{shape}: {small:.3f} s at n, {large:.3f} s at {GROWTH}n"


def test_a_crowded_tag_keeps_its_first_attributes_and_the_page() -> None:
    attributes = " ".join(f'a{i}="{i}"' for i in range(5_000))
    html = f"<p>before</p><div id='x' {attributes}>inside</div><p>after</p>"
    assert has_crowded_tag(html.encode())
    capped = cap_attributes(html)
    root = parse_html(capped)
    div = root.find(".//div")
    assert div is not None and div.text == "inside"
    assert len(div.attrib) == MAX_ATTRIBUTES
    assert div.get("id") == "x" and div.get("a0") == "0"
    assert [p.text for p in root.iter("p")] == ["before", "after"]


def test_ordinary_long_tags_are_left_alone() -> None:
    svg = '<svg><path d="' + "M1 2L3 4 " * 2_000 + '"/></svg>'
    data = '<div data-json=\'{"a": "' + "x" * 10_000 + "\"}'>t</div>"
    for html in (svg, data, PARAGRAPH * 100):
        assert cap_attributes(html) is html


def test_a_page_past_max_tags_is_read_up_to_there() -> None:
    lines = "".join(f"line {i}<br>" for i in range(MAX_TAGS + 1_000))
    html = f"<html><body><h1>Head</h1><div>{lines}</div></body></html>"
    assert tag_cut(html) is not None
    root = parse_html(html)
    assert MAX_TAGS - 10 <= sum(1 for _ in root.iter()) <= MAX_TAGS
    text = "".join(root.itertext())
    assert "Head" in text and f"line {MAX_TAGS - 10}" in text and f"line {MAX_TAGS}" not in text
    assert tag_cut("<p>" * 10) is None


def test_a_page_past_max_tags_is_parsed_up_to_there_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its whole parse would be thrown away: libxml2 never sees past the cut.
    sizes: list[int] = []
    real_parse = dom._parse

    def counting(text: str, data: bytes | None = None) -> tuple[object, bool]:
        sizes.append(len(text))
        return real_parse(text, data)

    monkeypatch.setattr(dom, "_parse", counting)
    lines = "".join(f"line {i}<br>" for i in range(3 * MAX_TAGS))
    html = f"<html><body><h1>Head</h1><div>{lines}</div></body></html>"
    parsed = parse_document(html)
    assert parsed.truncated and "Head" in "".join(parsed.root.itertext())
    assert sizes == [tag_cut(html)]


def test_a_page_past_max_tags_too_deep_to_parse_is_repaired_then_cut() -> None:
    # 2 * MAX_TAGS nested divs: the cut alone would leave only wrappers.
    depth = MAX_TAGS
    html = f"<body>{'<div>' * depth}<p>{PARAGRAPH}</p>{'</div>' * depth}<p>after</p></body>"
    parsed = parse_document(html)
    text = "".join(parsed.root.itertext())
    assert "council met" in text and "after" in text


def test_only_pages_past_a_bound_are_truncated() -> None:
    crowded = "<div " + " ".join(f"a{i}='x'" for i in range(2 * MAX_ATTRIBUTES)) + ">x</div>"
    assert parse_document(crowded).truncated
    assert not parse_document(page(PARAGRAPH * 50).decode()).truncated
    article = extract_article(page(crowded + PARAGRAPH * 5))
    assert article.truncated and "council met" in article.content
    assert not extract_article(page(PARAGRAPH)).truncated


@pytest.mark.parametrize(
    "filler",
    [
        "<script>" + "if (a<b) x<<=1;" * (MAX_TAGS // 2) + "</script>",  # a long script
        "<style>/*" + "<" * (2 * MAX_TAGS) + "*/</style>",
        "<!-- x -->" * (2 * MAX_TAGS),  # 200 000 comments
        "<SCRIPT type=x>" + "<b>" * (2 * MAX_TAGS) + "</SCRIPT >",
    ],
)
def test_what_makes_no_element_does_not_count_towards_the_tag_limit(filler: str) -> None:
    """A "<" in a comment, a script or a style is no tag: the article after them is read."""
    html = f"<html><head>{filler}</head><body><h1>Head</h1><p>{PARAGRAPH * 3}</p></body></html>"
    assert tag_cut(html) is None
    article = extract_article(html.encode(), "http://news.test/a")
    assert not article.truncated and "council met" in article.content


def test_tags_after_a_script_still_count() -> None:
    lines = "".join(f"line {i}<br>" for i in range(MAX_TAGS + 1_000))
    html = f"<head><script>{'a<b;' * 1000}</script><!-- <<< --></head><body>{lines}</body>"
    cut = tag_cut(html)
    assert cut is not None
    head = html[:cut]
    assert head.count("<br>") == MAX_TAGS - 6  # <head>, <script>, </script>, </head>, <body>
    assert html.startswith("<br>", cut)


def test_an_unclosed_script_or_comment_ends_the_count() -> None:
    for filler in ("<script>" + "<b>" * (2 * MAX_TAGS), "<!--" + "<b>" * (2 * MAX_TAGS)):
        assert tag_cut("<p>x</p>" + filler) is None


class _CountingText(str):
    """A page that counts the scans ``tag_cut`` makes of it."""

    finds = 0

    def find(self, *args: object) -> int:
        self.finds += 1
        return super().find(*args)  # type: ignore[arg-type]


def test_the_tag_cut_is_found_by_counting_not_one_find_per_tag() -> None:
    html = _CountingText("<br>line " * (2 * MAX_TAGS))
    cut = tag_cut(html)
    assert cut == len("<br>line ") * (MAX_TAGS - 1)
    assert html.finds <= dom._CUT_CHUNK  # one find per tag of the last chunk at most


def _letters(number: int) -> str:
    """A name without digits for each number (post unit names lose their digits)."""
    name, number = "", number + 1
    while number:
        number, rest = divmod(number, 26)
        name += chr(ord("a") + rest)
    return name


def thread_of_groups(groups: int) -> bytes:
    """A thread whose posts come in ``groups`` differently named groups of three, a
    short dated line each (the most groups under the page's line bound)."""
    posts = "".join(
        f"<div class='post post-{_letters(g)}'>Said by user {g} on 2024-05-0{1 + k} 10:1{k}</div>"
        for g in range(groups)
        for k in range(3)
    )
    return (
        "<html><head><title>The budget thread</title><script type='application/ld+json'>"
        '{"@type": "DiscussionForumPosting"}</script></head><body><h1>The budget thread</h1>'
        f"<div class='thread'>{posts}</div></body></html>"
    ).encode()


def test_many_groups_of_post_units_cost_linear_time() -> None:
    """The posts' frames are the outermost group of post units: groups are compared
    two by two, so only a bounded number of them is (posts.MAX_FRAME_GROUPS)."""
    assert extract_article(thread_of_groups(50), "http://forum.example/t/1").page_type == "thread"
    small, large = cost(thread_of_groups(800)), cost(thread_of_groups(GROWTH * 800))
    assert large / small < MAX_RATIO, f"{small:.3f} s at n, {large:.3f} s at {GROWTH}n"
