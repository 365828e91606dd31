"""parse_html: one lxml parse that keeps the page's text whatever the markup."""

from __future__ import annotations

import threading

import pytest
from lxml import etree

from scrapy_cx import extract_article
from scrapy_cx.extract.parse.dom import (
    INDEXED_TAGS,
    MAX_DEPTH,
    MAX_TAG_CHARS,
    cap_depth,
    clean_text,
    has_crowded_tag,
    may_hold,
    may_name,
    parse_document,
    parse_html,
)

BODY = "The minister announced the new budget on Tuesday morning. "


def text_of(root: etree._Element | None) -> str:
    assert root is not None
    return "".join(root.itertext())


@pytest.mark.parametrize("text", ["", " \n\t ", "<!-- only a comment -->", "<?php echo 1; ?>"])
def test_empty_pages_give_an_empty_html_root(text: str) -> None:
    root = parse_html(text)
    assert root.tag == "html"
    assert text_of(root).strip() == ""


def test_nul_does_not_truncate_the_page() -> None:
    nuls = "\x00" * 50
    root = parse_html(f"<html><body><p>before\x00</p>{nuls}<p>{BODY}</p></body></html>")
    assert "before" in text_of(root)
    assert BODY in text_of(root)


def test_lone_surrogates_are_replaced_not_fatal() -> None:
    root = parse_html(f"<html><body><p>\ud800 x \udfff</p><p>{BODY}</p></body></html>")
    assert BODY in text_of(root)
    assert "\ufffd x \ufffd" in text_of(root)


@pytest.mark.parametrize(
    "decl", ["<?xml version='1.0' encoding='iso-8859-1'?>", '  <?xml version="1.0"?>\n']
)
def test_xml_declaration_in_str_is_accepted(decl: str) -> None:
    root = parse_html(f"{decl}<html><body><p>{BODY}</p></body></html>")
    assert BODY in text_of(root)


@pytest.mark.parametrize("prefix", ["<?xml version='1.0' encoding='latin1'?>", "\x00"])
def test_a_second_or_hidden_xml_declaration_keeps_the_page(prefix: str) -> None:
    # lxml refuses a str that still declares an encoding; UTF-8 bytes it takes.
    decl = "<?xml version='1.0' encoding='latin1'?>"
    root = parse_html(f"{prefix}{decl}<html><body><p>{BODY}</p></body></html>")
    assert BODY in text_of(root)


def test_control_characters_are_kept_or_dropped_but_not_fatal() -> None:
    root = parse_html(f"<p>\x01\x02\x0b\x0c\x7f\x80\x9f\ufffe\uffff</p><p>{BODY}</p>")
    assert BODY in text_of(root)


@pytest.mark.parametrize("depth", [3000, 100_000])
def test_deep_nesting_keeps_the_text_after_it(depth: int) -> None:
    page = (
        f"<html><head><title>Deep</title></head><body>{'<div>' * depth}<p>{BODY}</p>"
        f"{'</div>' * depth}<p>after the divs</p></body></html>"
    )
    root = parse_html(page)
    assert BODY in text_of(root)
    assert "after the divs" in text_of(root)
    assert root.findtext(".//title") == "Deep"


def test_deep_wrappers_keep_the_structure_inside_them() -> None:
    # The menu, headline and article sit below 100 000 wrapper divs: those are
    # dropped, the nav, h1 and p that say what the text is are kept.
    depth = 100_000
    page = (
        f"<html><body>{'<div>' * depth}<nav><a href='/'>Home</a></nav><article><h1>Title</h1>"
        f"<p>{BODY}</p></article><footer>Copyright</footer>{'</div>' * depth}</body></html>"
    )
    root = parse_html(page)
    assert root.findtext(".//nav/a") == "Home"
    assert root.findtext(".//article/h1") == "Title"
    assert root.findtext(".//article/p") == BODY
    assert root.findtext(".//footer") == "Copyright"


def test_deep_unclosed_inline_tags_keep_the_text() -> None:
    root = parse_html(f"<body>{'<b><span>' * 50_000}<p>{BODY}</p><p>tail</p>")
    assert BODY in text_of(root)
    assert "tail" in text_of(root)


@pytest.mark.parametrize(
    "opening",
    [
        "<table><tr><td>",  # tr and td do nest inside tables: counted on the second attempt
        "<ul><li>",
        "<div title='<' data-x=\"a>b\">",  # quoted < and > inside attributes
        "<x-widget><o:p>",  # custom and namespaced tags
        "<blockquote><section>",
    ],
)
def test_every_kind_of_deep_nesting_keeps_the_text(opening: str) -> None:
    root = parse_html(f"<html><body>{opening * 5000}<p>{BODY}</p><p>tail</p>")
    assert BODY in text_of(root)
    assert "tail" in text_of(root)


def test_cap_depth_only_drops_what_is_too_deep() -> None:
    assert cap_depth("<div><div><p>x</p></div></div>", limit=1) == "<div><p>x</p></div>"
    shallow = "<div><br><img src=x /><p>a<p>b</div>"
    assert cap_depth(shallow, limit=1) is shallow
    # Unterminated tags and stray "<" do not confuse it (nor make it slow).
    assert cap_depth("<div <div <<<< x", limit=0) == "<div <div <<<< x"


@pytest.mark.parametrize(
    "soup",
    [
        "<a <b " * 200_000,
        '<a "' * 200_000,
        "<a '" + "x" * 1_000_000,
        '<a "<b" ' * 200_000,
        "<" * 1_000_000,
        '<a title="' + "x" * 2000 + '" ' * 500,
    ],
)
def test_cap_depth_is_linear_on_tag_soup(soup: str) -> None:
    # Each would take minutes if the tag scan backtracked quadratically.
    capped = cap_depth(soup + "<div>" * 200_000, limit=MAX_DEPTH, count_all=True)
    assert capped.count("<div>") <= MAX_DEPTH


def test_clean_text_leaves_ordinary_text_alone() -> None:
    text = "<p>déjà vu 中文</p>"
    assert clean_text(text) is text


def test_unclosed_title_does_not_swallow_the_page() -> None:
    root = parse_html(f"<html><head><title>Budget day<meta charset=utf-8><body>{'<p>' + BODY * 5}")
    assert root.findtext(".//title") == "Budget day"
    assert BODY in text_of(root.find(".//body"))


def test_a_long_plain_title_is_kept() -> None:
    title = "A very long headline " * 30
    root = parse_html(f"<title>{title}</title><p>{BODY}</p>")
    assert root.findtext(".//title") == title


@pytest.mark.parametrize(
    "soup",
    [
        f"<p><b><i>{BODY}</b></i><table><p>x<td>y</form></div></span></body></html></html>z",
        f"<frameset><frame src=x></frameset><p>{BODY}",
        f"<table><tr><td><table><tr><td>{BODY}</table>",
        f"<p>{BODY}<!-- unterminated comment",
        f"<p>{BODY}<![CDATA[ never closed",
        f"<p>{BODY}<script>var never_closed = 1;",
        f"<p>{BODY}<div class='{'x' * 100_000}",
        f'<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x">'
        f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{BODY}</p></body></html>',
        f"<svg><foreignObject><p>{BODY}</p></foreignObject></svg><p>{BODY}</p>",
        f"<p>{BODY}</p>" + "<" * 10_000,
    ],
)
def test_broken_markup_keeps_the_text(soup: str) -> None:
    root = parse_html(soup)
    assert root.tag == "html"
    assert BODY in text_of(root)


def test_parsing_in_threads_gives_the_same_trees() -> None:
    pages = [f"<p>{BODY} {i}</p>{'<div>' * (i * 700)}<p>end {i}</p>" for i in range(6)]
    results: dict[int, str] = {}

    def work(i: int) -> None:
        for _ in range(5):
            results[i] = text_of(parse_html(pages[i]))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(6):
        assert f"{BODY} {i}" in results[i]
        assert f"end {i}" in results[i]


@pytest.mark.parametrize(
    "page",
    [
        f"<html><body><p>Grüße {BODY}</p></body></html>",
        f"<?xml version='1.0' encoding='utf-8'?><p>{BODY}</p>",
        f"<p>{BODY}\x00</p>",
    ],
)
def test_the_pages_own_utf8_bytes_parse_as_its_text(page: str) -> None:
    expected = etree.tostring(parse_html(page))
    assert etree.tostring(parse_html(page, page.encode("utf-8"))) == expected


@pytest.mark.parametrize("foreign", ["svg", "math"])
def test_html_swallowed_by_an_unclosed_foreign_element_is_moved_after_it(foreign: str) -> None:
    root = parse_html(
        f"<body><div><{foreign}><g><b>first</b> tail<p>{BODY}</p></g>after</div><p>end</p></body>"
    )
    element = root.find(f".//{foreign}")
    assert element is not None and "".join(element.itertext()) == ""
    assert [child.tag for child in root.find(".//div")] == [foreign, "b", "p"]
    assert text_of(root).index("first") < text_of(root).index(BODY) < text_of(root).index("end")


def test_a_title_in_the_body_left_open_is_closed_at_the_next_tag() -> None:
    root = parse_html(f"<html><head><title>T</title></head><body><title>x<p>{BODY * 10}</p>")
    assert [t.text for t in root.iter("title")] == ["T", "x"]
    assert BODY in "".join(root.find(".//p").itertext())


@pytest.mark.parametrize(
    "page",
    [
        f"<html><head><title>T</title><meta name=a content=b><script>x</script></head>"
        f"<body><time datetime=2020-01-01>d</time><p>{BODY}</p><link rel=x href=y></body>",
        f"<body><div><svg><title>icon</title><g><b>first</b><p>{BODY}</p><time>t</time></g></div>",
        f"<html><head><title>Budget<meta charset=utf-8><body>{'<p>' + BODY * 5}<script>1</script>",
        "",
    ],
)
def test_the_parse_indexes_the_repaired_trees_elements_in_document_order(page: str) -> None:
    root, elements, markup, truncated = parse_document(page)
    assert not truncated
    assert elements == list(root.iter(*INDEXED_TAGS))
    assert etree.tostring(root) == etree.tostring(parse_html(page))
    # What the tree was parsed from: the repaired page (a <title> closed), else the page.
    if "<title>Budget<meta" in page:
        assert isinstance(markup, str) and "<title>Budget</title><meta" in markup
    else:
        assert markup in (page, page.encode())


def test_a_crowded_tag_is_found_after_long_stretches_without_tags() -> None:
    crowded = "<div " + " ".join(f"a{i}={'v' * 20}" for i in range(300)) + ">"
    text = "<p>short</p>" * 500 + "<p>" + "w " * MAX_TAG_CHARS + "</p>"
    assert has_crowded_tag((text + crowded + "<p>end</p>").encode())
    assert not has_crowded_tag((text + "<div a=1 b=2>" + "<p>end</p>").encode())
    assert has_crowded_tag(("<p>x</p>" * 10 + crowded).encode())


@pytest.mark.parametrize("markup", ["<p DATA-Pub-Time=1>x</p>", b"<p data-pubdate=1>x</p>"])
def test_an_attribute_name_in_the_markup_in_any_case_is_seen(markup: str | bytes) -> None:
    assert may_name(markup, ("data-pub", "data-timestamp"))
    assert not may_name(markup, ("data-timestamp",))


@pytest.mark.parametrize(
    "markup",
    [
        '<p class="byline-author">x</p>',
        b'<p class="by-author">x</p>',
        '<p class="&#97;uthor">x</p>',  # a letter spelled by a character reference
        b'<p class="auth&#X6f;r">x</p>',
        b'<p class="auth&#0111r">x</p>',
    ],
)
def test_a_value_spelled_in_the_markup_may_hold_the_word(markup: str | bytes) -> None:
    root = parse_html(markup.decode() if isinstance(markup, bytes) else markup)
    assert "author" in (root.find(".//p").get("class") or "")
    assert may_hold(markup, ("writer", "author"))


@pytest.mark.parametrize(
    "markup", ['<p class="Author">x</p>', b'<p class="a">&#9700; &#x610; &amp;</p>']
)
def test_a_value_the_markup_never_spells_is_not_held(markup: str | bytes) -> None:
    assert not may_hold(markup, ("author",))


def test_the_html_of_an_svg_foreign_object_is_read_as_the_page_shows_it() -> None:
    # A browser shows the HTML inside <foreignObject> (a diagram's labels); the walk
    # skips the drawing, so the parse lifts that HTML out, right after the <svg>.
    page = (
        "<html><body><h1>Title</h1><p>Before the drawing.</p>"
        "<svg width='10'><rect/><foreignObject><div><p>Label inside</p></div>"
        "</foreignObject></svg> after it<p>Last.</p></body></html>"
    )
    parsed = parse_document(page, None)
    texts = [" ".join(t.split()) for t in parsed.root.itertext() if t.strip()]
    assert texts[-4:] == ["Before the drawing.", "Label inside", "after it", "Last."]
    assert not list(parsed.root.iter("foreignobject"))[0].getchildren()
    assert extract_article(page, "http://example.com/a").content.split("\n")[-3:] == [
        "Label inside",
        "after it",
        "Last.",
    ]


# HTML5's void elements that libxml2 2.14 reads as containers (it nests what follows in them).
CONTAINER_VOIDS = ("embed", "source", "track", "wbr", "keygen", "bgsound", "image")


@pytest.mark.parametrize("tag", CONTAINER_VOIDS)
def test_a_void_element_holds_nothing_after_it(tag: str) -> None:
    root = parse_html(f"<div><p>A</p><{tag} src=x><p>B</p><p>C</p></div><p>D</p>")
    (void,) = root.iter(tag)
    assert len(void) == 0 and not (void.text or "").strip()
    assert [p.text for p in root.iter("p")] == ["A", "B", "C", "D"]
    assert void.tail is None and void.getnext() is not None


def test_embed_keeps_the_text_after_it() -> None:
    page = (
        "<html><head><title>Budget</title></head><body><article>"
        + "".join(f"<p>{letter}: {BODY * 3}</p>" for letter in "AB")
        + "<embed src=x>"
        + "".join(f"<p>{letter}: {BODY * 3}</p>" for letter in "CDE")
        + "</article></body></html>"
    )
    article = extract_article(page, "http://news.example.com/a.html", formats=("html",))
    for letter in "ABCDE":
        assert f"{letter}: The minister" in article.content
        assert f"{letter}: The minister" in (article.content_html or "")
    inline = parse_html("<p>before <embed src=x> after</p>")
    assert text_of(inline).split() == ["before", "after"]


def test_thousands_of_void_elements_in_one_paragraph_keep_the_text_after_it() -> None:
    # libxml2 nests each <wbr> in the last: past its depth limit the rest was lost.
    root = parse_html("<p>" + "a<wbr>" * 3000 + "</p><p>END</p>")
    assert [p.text for p in root.iter("p")][-1] == "END"


def test_a_void_element_written_closed_or_inside_a_script_is_left_as_it_is() -> None:
    root = parse_html(
        "<p>A<embed src=x></embed>B<wbr/>C</p><script>var s = '<embed src=y>';</script>"
    )
    assert text_of(root.find(".//p")) == "ABC"
    assert root.find(".//script").text == "var s = '<embed src=y>';"


def test_text_with_control_characters_moves_out_of_a_void_element() -> None:
    # libxml2 keeps them from the page; lxml refuses them as text set later (fuzz find).
    root = parse_html("<p>a<embed>b\x01c<b>x</b>\x02y</p><p>z</p>")
    assert text_of(root.find(".//p")) == "abcxy"
    assert [p.text for p in root.iter("p")][-1] == "z"
