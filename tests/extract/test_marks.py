from __future__ import annotations

import pytest
from lxml import etree

from scrapy_cx.extract._marks import AUTHOR_MARKS
from scrapy_cx.extract.parse import lines as lines_module
from scrapy_cx.extract.parse.dom import parse_document
from scrapy_cx.extract.parse.lines import SKIP_TAGS, page_lines
from scrapy_cx.extract.parse.meta import author_marks

# Author marks where the walk reads them in part or not at all.
TRICKY = {
    "inline rel=author link": '<p>By <a rel="author" href="/ann">Ann Lee</a> today</p>',
    "rel with two values": (
        '<p>By <a rel="author nofollow" href="/a">Ann Lee</a></p><p class="byline">Ann</p>'
    ),
    "itemprop=author with content": (
        '<div class="post"><span itemprop="author" content="Ann Lee"></span>'
        '<meta itemprop="author" content="Meta Only"><link rel="author" href="/x">'
        "<p>Story text.</p></div>"
    ),
    "byline in a comment thread": (
        '<p class="byline">Ann Lee</p><p>Story.</p>'
        '<div class="comments"><div class="comment"><span class="byline">Bob</span>'
        "<p>Nice.</p></div></div>"
    ),
    "hidden inline and block elements": (
        '<span hidden><a rel="author" href="/h">Hidden Author</a></span>'
        '<span style="display: none" class="byline">Styled Away</span>'
        '<span class="sr-only author-name">Screen Reader</span>'
        '<div hidden class="author">Hidden Block</div><p class="byline">Ann Lee</p>'
    ),
    "inside noscript": (
        '<p>Lead.</p><noscript><div class="byline">By <a rel="author">Ann Lee</a></div>'
        '</noscript><span class="writer">Bob Roe</span>'
    ),
    "skipped subtrees and leaves": (
        '<head><title class="author">T</title><script class="byline">var a;</script></head>'
        '<body><button class="author-follow"><span class="author">Follow Ann</span></button>'
        '<svg class="byline-icon"><g class="author"><path d="M0"/></g></svg>'
        '<input class="writer" value="x"><select><option itemprop="author">Ann</option></select>'
        '<p class="Author">upper case is not a mark</p><!-- class="author" --></body>'
    ),
    "markup after </html>": (
        '<p class="byline">First</p></html><!-- x --><html><div class="author">After</div>'
    ),
    "more than the cap": "".join(
        f'<div class="comment"><span class="author">Reader {i}</span></div>' for i in range(60)
    )
    + '<p class="byline">Ann Lee</p>',
}


@pytest.mark.parametrize("html", TRICKY.values(), ids=TRICKY.keys())
@pytest.mark.parametrize("skip_tags", [SKIP_TAGS, SKIP_TAGS - {"noscript"}])
def test_the_walk_finds_the_elements_the_xpath_finds(html: str, skip_tags: frozenset[str]) -> None:
    parsed = parse_document(html)
    walked = page_lines(parsed.root, skip_tags=skip_tags).marks
    assert walked is not None
    want = list(AUTHOR_MARKS(parsed.root))
    assert want  # every page above marks something
    assert walked.elements() == want
    marks = author_marks(parsed.root, parsed.markup, walked)
    assert marks == author_marks(parsed.root, parsed.markup)


def test_the_marks_keep_page_order_around_skipped_subtrees() -> None:
    parsed = parse_document(TRICKY["skipped subtrees and leaves"])
    walked = page_lines(parsed.root).marks
    assert walked is not None
    assert [el.tag for el in walked.elements()] == [
        *("title", "script", "button", "span", "svg", "g", "input", "option")
    ]


def test_a_walk_of_part_of_the_tree_defers_to_the_xpath() -> None:
    parsed = parse_document('<p class="byline">Ann Lee</p><div><p rel="author">Bob</p></div>')
    part = parsed.root.find(".//div")
    assert part is not None
    walked = page_lines(part).marks
    assert walked is not None
    assert walked.elements() == list(AUTHOR_MARKS(parsed.root))


def test_a_walk_stopped_at_max_lines_reads_no_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines_module, "MAX_LINES", 3)
    lines_html = "".join(f"<p>line {i}</p>" for i in range(6))
    parsed = parse_document(lines_html + '<p class="byline">Ann</p>')
    lines = page_lines(parsed.root)
    assert lines.truncated and lines.marks is None
    assert author_marks(parsed.root, parsed.markup, lines.marks) == ["Ann"]


@pytest.mark.parametrize(
    ("name", "marked"),
    [("author-box", True), ("byline sidebar", True), ("writer hidden", True), ("nav", False)],
)
def test_the_cached_kinds_carry_the_mark_only_to_the_walk(name: str, marked: bool) -> None:
    cached = lines_module._cached_names_kind(name)
    assert bool(cached & lines_module._AUTHOR_MARK) == marked
    # _names_kind and _kind read the kind alone, whatever the cache holds.
    assert lines_module._names_kind(name) == lines_module._classify(name)
    assert lines_module._kind([("class", name)], "div") == lines_module._classify(name)
    root = etree.fromstring(f'<div class="{name}"><p>x</p></div>', etree.HTMLParser())
    walked = page_lines(root)
    assert walked.marks is not None
    assert walked.marks.elements() == list(AUTHOR_MARKS(root))
