"""markdown.py: the body's tree as CommonMark with GFM tables. Each tree is written
here by hand and checked by rendering the Markdown back (markdown-it, CommonMark +
tables): the same structure and the same text as the tree's own HTML."""

from __future__ import annotations

import time
from urllib.parse import unquote

import pytest

from scrapy_cx.extract.render._tree import Node, to_html
from scrapy_cx.extract.render.markdown import MAX_GRID, to_markdown
from tests.support.html import (
    assert_safe_markdown,
    nows,
    parse_fragment,
    render_markdown,
    structure,
)


def el(tag: str, *children: Node | str, **attrs: str) -> Node:
    return Node(tag, tuple(attrs.items()), list(children))


def body(*children: Node | str) -> Node:
    return el("body", *children)


def rendered(root: Node) -> str:
    """``root``'s Markdown rendered back, after checking it has the tree's structure
    and text, and no active content."""
    markdown = to_markdown(root)
    back = render_markdown(markdown)
    html = to_html(root)
    assert structure(back) == structure(html), markdown
    assert nows(parse_fragment(back).text_content()) == nows(parse_fragment(html).text_content())
    assert_safe_markdown(markdown)
    return back


@pytest.mark.parametrize(
    "text",
    [
        "# not a heading",
        "###### nor this",
        "1. not a list",
        "2) nor this",
        "1234567890. nor a big one",
        "- nor a bullet",
        "+ nor a plus",
        "* nor a star",
        "> not a quote",
        "---",
        "===",
        "~~~ no fence",
        "```",
        "| not | a table |",
        "*not em* and _not em_ and __not strong__",
        "a `tick` b",
        "[not](a-link) and ![not](an-image)",
        "<b>not html</b> <script>alert(1)</script>",
        "&amp; &copy; &#65; stay as written",
        "back\\slash and \\*",
        "heading mark at the end #",
        "<http://not.an/autolink> and http://bare.example.com",
    ],
)
def test_text_that_looks_like_markdown_stays_text(text: str) -> None:
    back = rendered(body(el("p", text)))
    assert parse_fragment(back).text_content().strip() == text


def test_headings_take_as_many_marks_as_their_level() -> None:
    root = body(el("h2", "Cost"), el("h3", "Per year ", el("em", "and"), " #"), el("h6", "Notes"))
    markdown = to_markdown(root)
    assert markdown.splitlines()[0] == "## Cost"
    assert "###### Notes" in markdown
    rendered(root)


def test_a_line_break_in_a_heading_is_a_space() -> None:
    root = body(el("h2", "Bridge to be rebuilt", el("br"), "The council decides"))
    assert to_markdown(root) == "## Bridge to be rebuilt The council decides\n"
    rendered(root)


def test_links_and_pictures_keep_their_addresses_whatever_they_hold() -> None:
    root = body(
        el(
            "p",
            el("a", "text [with] brackets", href="http://e.com/a b(c)d?q=<x>"),
            " and ",
            el(
                "a", el("img", src="http://e.com/i (1).jpg", alt="alt ] text"), href="http://e.com/"
            ),
            " and a link named ",
            el("a", "](javascript:alert(1))", href="http://e.com/x"),
            " and one to an address with a control ",
            el("a", "ctrl", href="http://e.com/javascript\x1ax()\x7f"),
        )
    )
    back = rendered(root)
    hrefs = [a.get("href") for a in parse_fragment(back).iter("a")]
    assert hrefs == [
        "http://e.com/a%20b(c)d?q=%3Cx%3E",
        "http://e.com/",
        "http://e.com/x",
        "http://e.com/javascript%1Ax()%7F",
    ]


def test_a_link_keeps_its_parentheses_and_backslashes_as_written() -> None:
    # "%28" is another address to a server that tells them apart (a wiki's
    # "Mercury_(planet)"); a browser sends "(" as it is.
    hrefs = ["https://en.example.org/wiki/Mercury_(planet)", "https://e.com/a\\(b)\\c"]
    root = body(
        el(
            "p",
            el("a", "Mercury", href=hrefs[0]),
            " and ",
            el("a", "odd", href=hrefs[1]),
            " ",
            el("img", src="https://e.com/i_(1).jpg", alt="one"),
        )
    )
    back = parse_fragment(rendered(root))
    # (the renderer sends a backslash percent-encoded, as a browser does)
    assert [unquote(a.get("href") or "") for a in back.iter("a")] == hrefs
    assert next(back.iter("a")).get("href") == hrefs[0]
    assert [img.get("src") for img in back.iter("img")] == ["https://e.com/i_(1).jpg"]


def test_emphasis_hugs_its_text() -> None:
    root = body(
        el(
            "p",
            "a",
            el("em", " lead"),
            "b ",
            el("strong", "bold "),
            "c ",
            el("em", el("strong", "x")),
        )
    )
    markdown = to_markdown(root)
    assert "a *lead*b **bold** c ***x***" in markdown
    rendered(root)


@pytest.mark.parametrize(
    "inner",
    [
        [".", "x", "(y)"],  # punctuation at either end: "a*.*b" is no emphasis
        ["“quoted”"],
        [el("a", "link", href="http://e.com/")],  # "*[" is punctuation too
        [el("code", "c")],
        [el("strong", "x")],  # a run of three marks
        [el("strong", ".")],
    ],
)
def test_emphasis_holds_whatever_it_holds(inner: list[Node | str]) -> None:
    for tag in ("em", "strong"):
        rendered(body(el("p", "a", el(tag, *inner), "b")))


def test_code_spans_and_blocks_hold_any_backticks() -> None:
    root = body(
        el("p", el("code", "`x`"), " and ", el("code", "a``b")),
        el("pre", "```\nnot the end\n  ````\n"),
    )
    back = rendered(root)
    assert [c.text_content() for c in parse_fragment(back).iter("code")] == [
        "`x`",
        "a``b",
        "```\nnot the end\n  ````\n",
    ]


def test_line_breaks() -> None:
    root = body(el("p", "one", el("br"), "two", el("br"), el("br"), "three"))
    back = rendered(root)
    assert len(list(parse_fragment(back).iter("br"))) == 3


def test_lists_nest_and_hold_blocks() -> None:
    root = body(
        el(
            "ol",
            el("li", el("p", "first paragraph"), el("p", "second paragraph")),
            el("li", "text", el("ul", el("li", "nested"), el("li", "nested too"))),
            el("li", el("pre", "code\n  indented")),
            el("li", el("blockquote", el("p", "a quote in a list"))),
        ),
        el("ul", el("li", "after")),
    )
    found = structure(rendered(root))
    assert [(kind, level) for kind, level, _text in found.items] == [
        ("ol", 0),
        ("ol", 0),
        ("ul", 1),
        ("ul", 1),
        ("ol", 0),
        ("ol", 0),
        ("ul", 0),
    ]
    assert found.code == ["code\n  indented"]


def test_quotes_nest_and_hold_lists_and_code() -> None:
    root = body(
        el(
            "blockquote",
            el("p", "said"),
            el("ul", el("li", "item")),
            el("blockquote", el("p", "inner")),
            el("pre", "c1\n\nc2"),
        )
    )
    found = structure(rendered(root))
    assert found.quotes == ["saiditeminnerc1c2", "inner"]
    assert found.code == ["c1\n\nc2"]


def test_a_table_with_spans_is_a_gfm_table_as_wide_as_its_widest_row() -> None:
    root = body(
        el(
            "table",
            el("caption", "Costs"),
            el("thead", el("tr", el("th", "Part"), el("th", "Cost | year", colspan="2"))),
            el(
                "tbody",
                el("tr", el("td", "Span", rowspan="2"), el("td", "8"), el("td", "2025")),
                el("tr", el("td", "1"), el("td", "2026")),
                el("tr", el("td", "x", el("br"), "y"), el("td", el("code", "p|q")), el("td")),
            ),
        )
    )
    markdown = to_markdown(root)
    assert "| Part | Cost \\| year |  |\n| --- | --- | --- |" in markdown
    assert "|  | 1 | 2026 |" in markdown
    back = parse_fragment(rendered(root))
    rows = [[c.text_content() for c in row] for row in back.iter("tr")]
    assert rows == [
        ["Part", "Cost | year", ""],
        ["Span", "8", "2025"],
        ["", "1", "2026"],
        ["x y", "p|q", ""],  # (its line break a space in the text, as in the HTML)
    ]
    assert len(list(back.iter("br"))) == 1  # the cell's line break


def test_a_table_whose_cells_hold_blocks_is_kept_as_html() -> None:
    root = body(
        el("table", el("tr", el("td", el("ul", el("li", "x")))), el("tr", el("td", "a\nb")))
    )
    markdown = to_markdown(root)
    assert markdown.startswith("<table>") and "\n" not in markdown.strip()
    (table,) = parse_fragment(rendered(root)).iter("table")
    assert len(table.findall("tr")) == 2


def test_a_table_past_the_grid_bound_is_kept_as_html_and_stays_linear() -> None:
    # Spans multiply: one row of cells each spanning 1 000 x 1 000 would be a
    # billion Markdown cells; past MAX_GRID the table is written as its HTML.
    cell = el("td", "x", colspan="1000", rowspan="1000")
    rows = [el("tr", *[cell for _ in range(100)])] + [el("tr", el("td", "y"))] * 999
    start = time.process_time()
    markdown = to_markdown(body(el("table", *rows)))
    assert time.process_time() - start < 10  # a hang guard; the grid alone would be 1e8
    assert markdown.startswith("<table>")
    small = [el("tr", *[el("td", str(i)) for i in range(10)])] * (MAX_GRID // 10)
    assert to_markdown(body(el("table", *small))).startswith("| 0 |")
    bigger = small + [el("tr", el("td", "one more"))]
    assert to_markdown(body(el("table", *bigger))).startswith("<table>")


def test_captions_and_definitions_may_hold_blocks() -> None:
    # HTML lets a caption, a figcaption or a dd hold paragraphs, lists and headings;
    # a broken page puts the rest of the story inside a table's caption.
    story: list[Node | str] = [
        el("p", "first"),
        el("h2", "Heading"),
        el("ul", el("li", "item")),
        "tail",
    ]
    for root in (
        body(el("table", el("caption", *story))),  # a caption and no row
        body(el("table", el("caption", *story), el("tr", el("td", "cell")))),
        body(el("figure", el("img", src="http://e.com/a.jpg"), el("figcaption", *story))),
        body(el("dl", el("dt", "term"), el("dd", *story))),
    ):
        found = structure(rendered(root))
        assert found.headings == [("h2", "Heading")] and found.items == [("ul", 0, "item")]


def test_a_figure_gives_its_caption_as_the_pictures_title() -> None:
    root = body(
        el(
            "figure",
            el("img", src="http://e.com/a.jpg", alt="A"),
            el("figcaption", 'Caption "quoted" \\ and *starred*'),
        )
    )
    markdown = to_markdown(root)
    assert '![A](http://e.com/a.jpg "Caption \\"quoted\\" \\\\ and *starred*")' in markdown
    (img,) = parse_fragment(rendered(root)).iter("img")
    assert img.get("title") == 'Caption "quoted" \\ and *starred*'


def test_terms_and_definitions_and_sub_and_superscripts() -> None:
    root = body(
        el("dl", el("dt", "term"), el("dd", "definition")),
        el("p", "H", el("sub", "2"), "O and x", el("sup", "*2*"), " <sub>"),
    )
    back = rendered(root)
    assert "<sub>2</sub>" in back and "<sup>*2*</sup>" in back


def test_nothing_gives_nothing() -> None:
    assert to_markdown(body()) == ""
    assert to_markdown(body(el("p", el("em", " ")), el("ul"))) == ""


def test_emphasis_side_by_side_is_one_emphasis() -> None:
    # "*b**y*" would be read as strong emphasis and lose the word's letters' order.
    root = body(
        el("h2", el("em", "Call Me"), " ", el("em", "b"), el("em", "y Your Name")),
        el("p", el("strong", "bo"), el("strong", "ld"), " and ", el("code", "a`"), el("code", "b")),
    )
    markdown = to_markdown(root)
    assert_safe_markdown(markdown)
    back = parse_fragment(render_markdown(markdown))
    heading = next(back.iter("h2"))
    assert heading.text_content() == "Call Me by Your Name"
    assert [em.text_content() for em in heading.iter("em")] == ["Call Me", "by Your Name"]
    assert [s.text_content() for s in back.iter("strong")] == ["bold"]
    assert [c.text_content() for c in back.iter("code")] == ["a`b"]
