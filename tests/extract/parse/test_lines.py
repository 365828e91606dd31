"""The line walk (one line per block element, boilerplate marks) and the line-block selection."""

from __future__ import annotations

import pytest

from scrapy_cx.extract.content.regions import select_main
from scrapy_cx.extract.parse.dom import parse_html
from scrapy_cx.extract.parse.lines import (
    CONTROLS,
    MAX_LINE_CHARS,
    MAX_LINES,
    SECTIONS_BOILERPLATE_WORDS,
    Line,
    LineOptions,
    PageLines,
    page_lines,
    remark_lines,
    thread_lines,
    without_controls,
)
from tests.extract.prose import BRIDGE_STORY

PROSE = BRIDGE_STORY[:4]


def lines_of(html: str, **options: object) -> list[Line]:
    return page_lines(parse_html(html), LineOptions(**options))  # type: ignore[arg-type]


def texts(html: str) -> list[str]:
    return [line.text for line in lines_of(html)]


def paragraphs(items: list[str]) -> str:
    return "".join(f"<p>{p}</p>" for p in items)


# --- the walk ---------------------------------------------------------------------------


def test_every_block_element_starts_a_line_on_a_one_line_page() -> None:
    html = "<html><body><div>Top<p>First <b>bold</b> para.</p><p>Second</p>tail</div></body></html>"
    assert texts(html) == ["Top", "First bold para.", "Second", "tail"]


def test_br_breaks_a_line_and_whitespace_collapses() -> None:
    assert texts("<p>one\n   line<br>next\tline</p>") == ["one line", "next line"]


def test_scripts_styles_and_comments_give_no_text() -> None:
    html = "<body><script>var a = 1;</script><style>p{}</style><!-- c --><p>Kept</p></body>"
    assert texts(html) == ["Kept"]


def test_lengths_count_non_space_characters_and_link_text() -> None:
    (line,) = lines_of('<p>ab cd <a href="/x">ef gh</a></p>')
    assert (line.length, line.link_length, line.tag) == (8, 4, "p")
    assert line.link_density == 0.5


def test_chinese_full_width_spaces_are_not_counted() -> None:
    (line,) = lines_of("<p>\u3000\u3000中文段落。</p>")
    assert line.length == 5


@pytest.mark.parametrize(
    "element",
    [
        "<nav>{}</nav>",
        "<aside>{}</aside>",
        "<footer>{}</footer>",
        '<div class="share-bar">{}</div>',
        '<div id="sidebar">{}</div>',
        '<div class="relatedPosts">{}</div>',
        '<div class="jp-relatedposts">{}</div>',
        '<div class="post comments">{}</div>',
        '<section class="editorial-disclosure">{}</section>',  # an affiliate notice
        '<div role="navigation">{}</div>',
        '<figure><figcaption class="caption">{}</figcaption></figure>',
        '<div role="dialog" aria-label="Sign up">{}</div>',  # a pop-up over the page
        '<div role="alertdialog">{}</div>',
        '<div class="drawer" aria-modal="true">{}</div>',
        "<dialog open>{}</dialog>",
    ],
)
def test_boilerplate_elements_mark_their_lines(element: str) -> None:
    html = "<body>" + paragraphs(PROSE) + element.format("<p>Menu entry</p>") + "</body>"
    marks = {line.text: line.boilerplate for line in lines_of(html)}
    assert marks["Menu entry"] is True
    assert marks[PROSE[0]] is False


@pytest.mark.parametrize(
    "names",
    [
        'class="shared-article"',
        'class="navigator"',
        'id="adventure"',
        'class="badge"',
        'id="sharing-with-a-single-developer"',  # a heading's slug
    ],
)
def test_boilerplate_words_match_whole_name_parts_only(names: str) -> None:
    html = f"<body>{paragraphs(PROSE)}<div {names}><p>Own words</p></div></body>"
    marks = {line.text: line.boilerplate for line in lines_of(html)}
    assert marks["Own words"] is False


def test_guard_keeps_a_boilerplate_named_wrapper_that_holds_most_of_the_text() -> None:
    html = (
        '<body><div class="page-ad-margins">' + paragraphs(PROSE) + "</div>"
        '<div class="ad-slot"><p>Buy now</p></div></body>'
    )
    marks = {line.text: line.boilerplate for line in lines_of(html)}
    assert marks[PROSE[0]] is False
    assert marks["Buy now"] is True
    # Without the guard the wrapper (and the article) would be dropped.
    unguarded = lines_of(html, boilerplate_guard=1.0)
    assert all(line.boilerplate for line in unguarded if line.text == PROSE[0])


def test_guard_forgives_no_widget_inside_the_article_body() -> None:
    # A gallery's captions inside the publisher's articleBody outweigh the story's
    # own paragraphs: more than the guard's share of the page, yet a widget of the
    # body, not a wrapper around it.
    captions = "".join(
        f"<li><h2>{i}/6 Slide</h2><p>{PROSE[i % 4]} Slide {i}.</p></li>" for i in range(1, 7)
    )
    html = (
        '<body><div itemprop="articleBody">' + paragraphs(PROSE[:2]) + '<div class="type-gallery">'
        f"<ul>{captions}</ul></div></div></body>"
    )
    marks = {line.text: line.boilerplate for line in lines_of(html)}
    assert marks[PROSE[0]] is False
    assert marks["1/6 Slide"] is True
    # Outside an articleBody the same element is forgiven as a wrapper.
    bare = html.replace(' itemprop="articleBody"', "")
    assert {line.text: line.boilerplate for line in lines_of(bare)}["1/6 Slide"] is False
    # A boilerplate-named wrapper holding the whole body inside it is still forgiven.
    wrapped = (
        '<body><div itemprop="articleBody"><div class="share-wrapper">'
        + paragraphs(PROSE)
        + "</div></div></body>"
    )
    assert not any(line.boilerplate for line in lines_of(wrapped))
    # ... and so is one opening the body, a long note after it (0.75 of the body).
    opening = (
        '<body><div itemprop="articleBody"><div class="share-wrapper">'
        + paragraphs(PROSE[:3])
        + "</div>"
        + paragraphs(PROSE[3:])
        + "</div></body>"
    )
    assert not any(line.boilerplate for line in lines_of(opening))


def test_article_main_and_article_body_are_never_boilerplate_by_name() -> None:
    html = (
        '<body><article class="post author-jane tag-news">' + paragraphs(PROSE[:2]) + "</article>"
        '<div class="related" itemprop="articleBody">' + paragraphs(PROSE[2:]) + "</div>"
        '<div class="related"><p>Other story</p></div></body>'
    )
    marks = {line.text: line.boilerplate for line in lines_of(html)}
    assert not any(marks[p] for p in PROSE)
    assert marks["Other story"] is True


def _stream(count: int) -> str:
    """A stream of teasers: a linked headline and a blurb each."""
    return (
        "<ul class='stream'>"
        + "".join(
            f"<li><a href='/s/{i}'>Teaser headline {i}</a><p>Blurb {i} of another story in the "
            "stream, a sentence or two to make a reader click through to it.</p></li>"
            for i in range(count)
        )
        + "</ul>"
    )


def test_the_pages_one_article_is_not_boilerplate_by_the_names_around_it() -> None:
    """A story shown in a "modal" over a stream of teasers: the page's one <article>
    is the publisher's own label for the story, whatever its container is named;
    its own share bar stays boilerplate."""
    story = (
        "<div class='story-modal'><article><div class='share-bar'><p>Share this</p></div>"
        + paragraphs(PROSE)
        + "</article></div>"
    )
    marks = {line.text: line.boilerplate for line in lines_of(f"<body>{_stream(8)}{story}</body>")}
    assert not any(marks[p] for p in PROSE)
    assert marks["Share this"] is True
    # Two articles: neither is the page's one label, the modal's names hold.
    two = story.replace("</article></div>", "</article><article><p>Next</p></article></div>")
    marks = {line.text: line.boilerplate for line in lines_of(f"<body>{_stream(8)}{two}</body>")}
    assert all(marks[p] for p in PROSE)


def test_a_small_article_in_a_sidebar_stays_boilerplate() -> None:
    """The one <article> must hold ARTICLE_SHARE of the page's unlinked text to be the
    story: a teaser card marked up as an article in a sidebar is still the sidebar's."""
    html = (
        f"<body>{paragraphs(PROSE)}<div class='sidebar'><article><p>{PROSE[0][:80]}</p>"
        "</article></div></body>"
    )
    lines = lines_of(html)
    assert [line.boilerplate for line in lines] == [False] * len(PROSE) + [True]


def test_hidden_inline_text_is_dropped_and_hidden_blocks_are_marked() -> None:
    html = (
        "<body><p>Visible <span style='display: none'>junk</span>words</p>"
        "<div hidden><p>Secret block</p></div>"
        "<p>Sized <span class='hidden-xs'>for phones</span> text</p></body>"
    )
    lines = {line.text: line.boilerplate for line in lines_of(html)}
    assert lines == {"Visible words": False, "Secret block": True, "Sized for phones text": False}


def test_a_data_table_row_is_one_line_and_a_layout_row_is_not() -> None:
    long_cell = "x" * 120
    html = (
        "<table><tr><th>Pos.</th><th>Driver</th><th>Points</th></tr>"
        "<tr><td>1</td><td>Kyle Busch</td><td>5040</td></tr></table>"
        f"<table><tr><td>Menu</td><td>{long_cell}</td></tr></table>"
    )
    assert texts(html) == ["Pos. Driver Points", "1 Kyle Busch 5040", "Menu", long_cell]


def test_a_cell_of_a_few_short_blocks_joins_its_row() -> None:
    html = (
        "<table><tr><td><div>Liu Mengxi</div><div>Professor</div></td><td>7</td></tr></table>"
        "<table><tr><td><p>A first sentence of a longer story.</p>"
        "<p>And its second sentence.</p></td>"
        "</tr></table>"
    )
    assert texts(html) == [
        "Liu Mengxi Professor 7",
        "A first sentence of a longer story.",
        "And its second sentence.",
    ]


def test_marks_inside_a_merged_row_stay_on_that_row() -> None:
    html = '<table><tr><td>1</td><td class="ad">Sponsored</td></tr></table>' + paragraphs(PROSE)
    lines = lines_of(html)
    assert [line.boilerplate for line in lines] == [True] + [False] * len(PROSE)


def test_blank_cells_of_a_merged_row_stay_inside_the_page() -> None:
    # The row's three lines become one: its blank cells, recorded after them,
    # must not point past the last line (post headers read the lines they span).
    html = "<table><tr><td>1</td><td>2</td><td>3</td><td></td><td></td></tr></table>"
    lines = page_lines(parse_html(html))
    assert [line.text for line in lines] == ["1 2 3"]
    assert all(0 <= start <= end <= len(lines) for start, end in lines.spans)


# --- the walk's budget: lines per page, characters per line -------------------------------


def test_the_walk_stops_at_max_lines_and_closes_what_was_open() -> None:
    rows = "".join(f"<a href='/{i}'>row {i}</a><br>" for i in range(MAX_LINES + 5_000))
    html = f"<body><p>{PROSE[0]}</p><nav><div>{rows}</div></nav></body>"
    lines = page_lines(parse_html(html))
    assert lines.truncated
    assert len(lines) == MAX_LINES + 1  # the budget, and the run it stopped in
    assert lines[-1].text == f"row {MAX_LINES - 1}"
    # The <nav> and <div> still open at the stop end at the last line: the menu's
    # lines are boilerplate, as they would be had it ended there.
    nav = lines.tags.index("nav")
    assert lines.spans[nav] == (1, len(lines)) == lines.spans[nav + 1]
    assert all(line.boilerplate for line in lines[1:]) and not lines[0].boilerplate


def test_a_page_within_the_budget_is_read_whole() -> None:
    rows = "".join(f"row {i}<br>" for i in range(MAX_LINES - 10))
    lines = page_lines(parse_html(f"<body><div>{rows}</div></body>"))
    assert not lines.truncated and len(lines) == MAX_LINES - 10


def test_one_giant_text_node_is_read_to_max_line_chars_in_whole_words() -> None:
    word = "harbour "
    html = f"<body><p>{PROSE[0]}</p><div>{word * (3 * MAX_LINE_CHARS // len(word))}</div></body>"
    lines = page_lines(parse_html(html))
    assert lines.truncated
    assert [line.text for line in lines][:1] == [PROSE[0]]
    giant = lines[1].text
    assert MAX_LINE_CHARS - len(word) <= len(giant) <= MAX_LINE_CHARS
    assert set(giant.split()) == {"harbour"}  # no word cut in two


def test_a_long_paragraph_is_not_cut() -> None:
    text = " ".join(PROSE) * 100  # 100 times a long article in one paragraph
    lines = page_lines(parse_html(f"<body><p>{text}</p></body>"))
    assert not lines.truncated and lines[0].text == " ".join(text.split())


# --- names, entities, hidden inline elements, other readings -------------------------------


def test_deep_nesting_and_long_pages_are_walked_without_recursion() -> None:
    from lxml import etree

    root = etree.Element("html")
    node = etree.SubElement(root, "body")
    for _ in range(5000):
        node = etree.SubElement(node, "div")
    for text in PROSE * 500:
        etree.SubElement(node, "p").text = text
    lines = page_lines(root)
    assert len(lines) == len(PROSE) * 500
    assert select_main(lines) == (0, len(lines))


def test_long_class_strings_are_classified_but_not_cached() -> None:
    from scrapy_cx.extract.parse import lines as module

    huge = "x" * 5000 + " sidebar"
    before = module._cached_names_kind.cache_info().currsize
    assert module._names_kind(huge) == module._BOILER
    assert module._cached_names_kind.cache_info().currsize == before
    assert module._names_kind("sidebar") == module._BOILER


@pytest.mark.parametrize(
    ("names", "kind"),
    [
        ("share-bar main", "_BOILER"),
        ("col-md-6 nav2", "_BOILER"),  # a digit run parts words as a case change does
        ("md:sidebar w-1/2", "_BOILER"),  # utility classes: any mark between parts
        ("shared123 navigator", "_PLAIN"),  # parts, never substrings
        ("x\x1cfooter", "_BOILER"),  # str.split's spaces beyond ASCII's
        ("mainNav", "_BOILER"),
        ("NAVBar", "_BOILER"),
        ("SharedArticle", "_PLAIN"),
        ("entry hidden", "_HIDDEN"),
        ("\u03d2nav", "_BOILER"),  # outside ASCII: part by part
    ],
)
def test_class_names_are_read_by_their_word_parts(names: str, kind: str) -> None:
    from scrapy_cx.extract.parse import lines as module

    assert module._classify(names) == getattr(module, kind)


def test_the_letter_runs_of_a_lower_case_name_are_its_parts() -> None:
    """_classify reads a lower-case ASCII name's letter runs as its parts: the same
    as _NAME_PART's parts for every boilerplate word, digits being no word."""
    from scrapy_cx.extract.parse import lines as module

    assert all(word.isascii() and word.isalpha() for word in module.BOILERPLATE_WORDS)
    for names in ("related2posts", "a-b_c d.e:f/g", "ad9ads@menu", "tag#cloud"):
        parts = {p for p in module.name_parts(names) if not p.isdigit()}
        assert set(names.translate(module._LETTER_RUNS).split()) == parts


def test_an_entity_node_is_no_text_and_keeps_its_tail() -> None:
    """A tree built keeping entity references (dom's parser resolves them; a
    caller's tree may not): the walk meets a node whose tag is not a string."""
    from lxml import etree

    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    p = etree.SubElement(body, "p")
    p.text = "Fish "
    p.append(etree.Entity("amp"))
    p[-1].tail = " chips"
    p.append(etree.Comment(" a note "))
    assert [line.text for line in page_lines(root)] == ["Fish chips"]


def test_an_inline_element_is_hidden_by_its_hiding_attributes_only() -> None:
    html = (
        "<body><p>Shown <a href='/a' class='sr-only'>skip</a><span aria-hidden='false'>"
        "kept</span> <img src='x.png' style='Display : None'>"
        "<em title='hidden' data-x='display:none'>too</em>"
        "<b aria-hidden='true'>gone</b><i hidden>gone</i> end</p></body>"
    )
    assert texts(html) == ["Shown kept too end"]


def _walked(lines: PageLines) -> tuple[object, ...]:
    return (
        [(x.text, x.length, x.link_length, x.tag, x.boilerplate, x.block, x.href) for x in lines],
        lines.spans,
        lines.parents,
        lines.bodies,
        lines.tags,
        lines.names,
        lines.ranges,
    )


def test_a_threads_marks_come_from_the_first_walk_as_a_thread_walk_gives_them() -> None:
    posts = "".join(
        f"<div class='comment' id='comment-{i}'><a href='/u/{i}'>user{i}</a><p>{text}</p></div>"
        for i, text in enumerate(PROSE)
    )
    html = (
        "<nav class='menu'><a href='/'>Home</a></nav><aside class='comments-sidebar'>"
        "<a href='/t/1'>Other thread</a></aside><div role='navigation'><p>x</p></div>"
        f"<table><tr class='comment'><td>a</td><td>b</td></tr></table>{posts}"
        "<footer class='site-comment-policy'><p>Be kind.</p></footer>"
    )
    root = parse_html(html)
    first = page_lines(root)
    assert any(line.boilerplate and line.text == PROSE[0] for line in first)
    again = thread_lines(first)
    assert _walked(again) == _walked(page_lines(root, thread=True))
    assert not any(line.boilerplate for line in again if line.text in PROSE)
    assert _walked(first) == _walked(page_lines(root))  # the first walk's lines are left alone


def test_a_products_marks_are_set_in_place_as_a_walk_reading_its_names_gives_them() -> None:
    html = (
        "<nav class='menu'><a href='/'>Home</a></nav>"
        f"<div class='product-gallery'><p>{PROSE[0]}</p><p>{PROSE[1]}</p></div>"
        f"<section class='hero-banner'><h2>Fast and quiet</h2><p>{PROSE[2]}</p></section>"
        "<div class='product-meta share-bar'><p>Share this</p></div>"
        f"<table class='meta'><tr><td>Weight</td><td>2 kg</td></tr></table><p>{PROSE[3]}</p>"
        "<footer class='site-meta'><p>Copyright</p></footer>"
    )
    root = parse_html(html)
    lines = page_lines(root)
    assert any(line.boilerplate and line.text == PROSE[0] for line in lines)
    walked = _walked(lines)
    remark_lines(lines, SECTIONS_BOILERPLATE_WORDS)
    fresh = page_lines(root, words=SECTIONS_BOILERPLATE_WORDS)
    assert [line.boilerplate for line in lines] == [line.boilerplate for line in fresh]
    assert not any(line.boilerplate for line in lines if line.text in PROSE)
    assert any(line.boilerplate for line in lines)  # the share bar, the menu, the footer
    assert _walked(lines)[1:] == walked[1:]  # only the marks changed


def test_without_controls_finds_every_control_the_full_pattern_finds() -> None:
    # Its quick test (one character class) must find whatever CONTROLS would remove.
    for code in range(0x3000):
        text = f"a{chr(code)}b\n"
        if CONTROLS.search(text):
            assert without_controls(text) == CONTROLS.sub("", text), hex(code)
        else:
            assert without_controls(text) is text, hex(code)
    assert without_controls("red \x1b[31mtext\x1b[0m\n") == "red text\n"
    assert without_controls("plain text") == "plain text"
