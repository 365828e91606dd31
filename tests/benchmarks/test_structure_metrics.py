"""The structure metric and the body checks on HTML strings we write, figures by hand."""

from __future__ import annotations

import pytest

from benchmarks.bodies import (
    html_text,
    markdown_html,
    text_difference,
    unsafe_parts,
    words_apart,
)
from benchmarks.structure_metrics import (
    BASE_URL,
    KINDS,
    Item,
    KindCounts,
    macro,
    missed,
    normalize_text,
    normalize_url,
    page_counts,
    pooled,
    structure_items,
)


def keys(html: str, kind: str) -> list[str]:
    return [item.key for item in structure_items(html) if item.kind == kind]


# --- texts and addresses ----------------------------------------------------------------------


def test_texts_are_nfkc_casefolded_collapsed_and_stripped_of_end_punctuation() -> None:
    assert normalize_text("  «Ｈｅｌｌｏ,\n\t  World!»  ") == "hello, world"
    assert normalize_text("“Straße” — 1.") == "strasse” — 1"


def test_punctuation_inside_a_text_stays() -> None:
    assert normalize_text("(a) it's e.g. fine...") == "a) it's e.g. fine"


def test_texts_are_cut_to_120_characters() -> None:
    assert normalize_text("x" * 300) == "x" * 120
    assert normalize_text("x" * 300, limit=None) == "x" * 300


def test_urls_are_absolute_against_fakehost_without_query_and_fragment() -> None:
    assert normalize_url("img/a.png") == "http://fakehost/test/img/a.png"
    assert normalize_url("/b?x=1#top") == "http://fakehost/b"
    assert normalize_url("HTTPS://Example.COM/P?q") == "https://example.com/P"
    assert normalize_url("#section") == "http://fakehost/test/page.html"


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "mailto:a@b.example", "data:image/png;base64,AA", "", "  "]
)
def test_only_http_addresses_count(url: str) -> None:
    assert normalize_url(url) is None


def test_a_malformed_address_is_none() -> None:
    assert normalize_url("http://[::1") is None


# --- items ------------------------------------------------------------------------------------

PAGE = """<div><h1>Title</h1><h3> Part <em>one</em>: </h3>
<ul><li>First, item.</li><li>Second <a href="/x?utm=1">link</a></li></ul>
<table><tr><th>Year</th><td colspan="2">2020</td><td> </td></tr></table>
<blockquote><p>Said so.</p></blockquote><pre>x = 1
y = 2</pre>
<img src="pic.jpg?w=300" alt="A cat"><img src="data:image/gif;base64,R0lG"><a name="n">anchor</a>
</div>"""


def test_every_kind_is_read_in_document_order() -> None:
    items = structure_items(PAGE)
    assert [(i.kind, i.key) for i in items] == [
        ("heading", "title"),
        ("heading", "part one"),
        ("item", "first, item"),
        ("item", "second link"),
        ("link", "http://fakehost/x"),
        ("cell", "year"),
        ("cell", "2020"),
        ("quote", "said so"),
        ("code", "x = 1 y = 2"),
        ("image", "http://fakehost/test/pic.jpg"),
    ]


def test_an_item_text_is_its_key_and_links_and_images_have_none() -> None:
    items = structure_items(PAGE)
    assert Item("heading", "part one", "part one") in items
    assert Item("link", "http://fakehost/x", None) in items
    assert Item("image", "http://fakehost/test/pic.jpg", None) in items


def test_no_html_has_no_items() -> None:
    assert structure_items(None) == []
    assert structure_items("  \n") == []
    assert structure_items("<!-- only a comment -->") == []


def test_a_full_document_and_a_fragment_give_the_same_items() -> None:
    fragment = "<h2>News</h2><p>Text</p>"
    document = f"<html><head><title>t</title></head><body>{fragment}</body></html>"
    assert structure_items(fragment) == structure_items(document)


def test_rendered_markdown_gives_the_same_items_as_the_html() -> None:
    markdown = (
        "## Part one\n\n- First, item.\n- Second [link](/x?utm=1)\n\n| Year | 2020 |\n|---|---|\n"
    )
    html = markdown_html(markdown)
    assert html is not None
    assert keys(html, "heading") == ["part one"]
    assert keys(html, "item") == ["first, item", "second link"]
    assert keys(html, "cell") == ["year", "2020"]
    assert keys(html, "link") == ["http://fakehost/x"]
    assert markdown_html(None) is None


# --- matching ---------------------------------------------------------------------------------


def test_a_heading_matches_whatever_its_level_and_inline_markup() -> None:
    truth = structure_items("<h2>The <em>big</em> day!</h2>")
    output = structure_items("<h3>the big day</h3>")
    counts = page_counts(truth, output, "The big day")
    assert counts["heading"] == KindCounts(
        truth=1, output=1, matched=1, in_text=1, in_text_matched=1
    )


def test_a_link_with_a_query_matches_one_without() -> None:
    truth = structure_items('<a href="http://fakehost/test/a.html?ref=rss#c">a</a>')
    output = structure_items('<a href="a.html">a</a>')
    assert page_counts(truth, output, "a")["link"].matched == 1


def test_items_match_as_multisets() -> None:
    truth = structure_items("<ul><li>Yes</li><li>Yes</li><li>No</li></ul>")
    output = structure_items("<ul><li>Yes</li><li>No</li><li>No</li><li>No</li></ul>")
    counts = page_counts(truth, output, "Yes Yes No")["item"]
    assert (counts.truth, counts.output, counts.matched) == (3, 4, 2)
    assert counts.recall == pytest.approx(2 / 3)
    assert counts.precision == pytest.approx(2 / 4)


def test_kept_counts_only_truth_items_whose_text_is_in_the_plain_text() -> None:
    truth = structure_items("<ul><li>Kept as item</li><li>Kept flat</li><li>Dropped</li></ul>")
    output = structure_items("<ul><li>Kept as item</li></ul><p>Kept flat</p>")
    counts = page_counts(truth, output, "Kept as item\nKept   FLAT")["item"]
    assert counts.recall == pytest.approx(1 / 3)
    assert (counts.in_text, counts.in_text_matched) == (2, 1)
    assert counts.kept == pytest.approx(1 / 2)


def test_kept_looks_for_the_text_whatever_the_whitespace() -> None:
    truth = structure_items("<table><tr><td>Two words</td><td>Gone</td></tr></table>")
    counts = page_counts(truth, [], "two\nwords")["cell"]
    assert (counts.in_text, counts.in_text_matched) == (1, 0)


def test_every_link_and_image_counts_in_kept_so_their_kept_is_their_recall() -> None:
    truth = structure_items('<a href="/a">x</a><a href="/b"><img src="/i.png"></a>')
    output = structure_items('<a href="/a">x</a>')
    counts = page_counts(truth, output, "")
    assert counts["link"].kept == counts["link"].recall == 0.5
    assert counts["image"].kept == counts["image"].recall == 0.0


def test_no_output_has_no_precision_and_zero_recall() -> None:
    truth = structure_items("<h2>Heading</h2>")
    counts = page_counts(truth, [], "Heading")["heading"]
    assert counts.recall == 0 and counts.kept == 0 and counts.precision is None


def test_counts_pool_over_pages_and_the_macro_skips_kinds_without_a_figure() -> None:
    one = page_counts(structure_items("<h2>A</h2><li>x</li>"), structure_items("<h2>A</h2>"), "A x")
    two = page_counts(structure_items("<h2>B</h2>"), structure_items("<h2>C</h2>"), "C")
    total = pooled([one, two])
    assert set(total) == set(KINDS)
    assert (total["heading"].truth, total["heading"].matched) == (2, 1)
    assert total["heading"].kept == 1.0  # only "a" is in a plain text, and it matched
    figures = macro(total)
    assert figures.recall == pytest.approx((1 / 2 + 0) / 2)  # heading, item
    assert figures.precision == pytest.approx(1 / 2)  # only heading has output
    assert figures.kept == pytest.approx((1 + 0) / 2)


def test_missed_lists_truth_keys_the_output_lacks_with_multiplicity() -> None:
    truth = structure_items("<li>a</li><li>a</li><li>b</li>")
    output = structure_items("<li>a</li>")
    assert missed(truth, output, "item") == ["a", "b"]
    assert missed(output, truth, "item") == []


def test_the_base_is_the_address_readability_made_its_expected_output_with() -> None:
    assert BASE_URL == "http://fakehost/test/page.html"


# --- body checks (--agree) ---------------------------------------------------------------------


def test_the_html_text_agrees_with_the_plain_text_whitespace_aside() -> None:
    html = "<h2>Head</h2>\n<p>One <em>two</em></p>\n<ul><li>three</li></ul>"
    assert html_text(html) == "Head One two three"
    assert text_difference(html, "Head\nOne two\n\nthree") is None
    assert words_apart(html, "Head\nOne two\nthree") == 0


def test_a_difference_says_where_the_texts_part() -> None:
    html = "<p>alpha beta</p><p>gamma</p>"
    diff = text_difference(html, "alpha beta\ngamma")
    assert diff is not None and diff.startswith("@10 ")  # "betagamma" glued in the html
    assert words_apart(html, "alpha beta\ngamma") == 3  # betagamma vs beta, gamma
    assert text_difference("<p>a</p>", "a b") is not None
    assert text_difference(None, "") is None


def test_safe_html_has_no_unsafe_parts() -> None:
    html = '<p><a href="https://a.example/">a</a><img src="http://a.example/i.png" alt=""></p>'
    assert unsafe_parts(html) == []
    assert unsafe_parts(None) == []


def test_unsafe_parts_are_named() -> None:
    html = (
        '<div class="c" id="i"><script>x()</script><p style="s" onclick="y()">t</p>'
        '<a href="javascript:z()">z</a><img src="/rel.png"><iframe></iframe></div>'
    )
    assert unsafe_parts(html) == [
        "div[class]",
        "div[id]",
        "<script>",
        "p[style]",
        "p[onclick]",
        "a[href='javascript:z()']",
        "img[src='/rel.png']",
        "<iframe>",
    ]
