"""structure.py: the body's structure (issue 22), end to end on small pages written
for these tests. Every page goes through ``extract``, which holds the contract on
each one: the HTML safe and well-formed, its text that of ``content``, and its
Markdown, rendered back by a CommonMark + GFM parser, of the same structure."""

from __future__ import annotations

from collections.abc import Iterable
from html import unescape

import pytest

from scrapy_cx import Article, extract_article
from scrapy_cx.article import FORMATS, Image
from scrapy_cx.extract import extract_page
from tests.extract.content.test_choose import page
from tests.extract.content.test_posts import FORUM, REPLIES, WHO, forum_page, framed_post
from tests.extract.prose import BRIDGE_STORY, ZH_SENTENCES
from tests.support.html import (
    Structure,
    assert_article_html,
    assert_markdown_agrees,
    assert_safe_html,
    nows,
    parse_fragment,
    render_markdown,
    structure,
)

STORY = BRIDGE_STORY
URL = "https://town.example.com/news/2024/bridge.html"
HEADLINE = "Bridge to be rebuilt"
GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def extract(html: str, url: str = URL, formats: Iterable[str] = FORMATS) -> Article:
    """``extract_article`` with every format, and the contract held on its result."""
    article = extract_article(html, url, formats=formats)
    assert_article_html(article)
    if article.content_markdown is not None and article.content_html is not None:
        assert_markdown_agrees(article)
    return article


def story(*parts: str) -> str:
    """A news page: the headline, then ``parts`` between paragraphs of the story."""
    body = [f"<p>{STORY[0]}</p>"]
    for n, part in enumerate(parts, 1):
        body += [part, f"<p>{STORY[n % len(STORY)]}</p>"]
    return page(f"<article><h1>{HEADLINE}</h1>{''.join(body)}</article>")


def shape(article: Article) -> Structure:
    assert article.content_html is not None
    return structure(article.content_html)


# --- lists, tables, quotes, code ----------------------------------------------------------


def test_nested_lists_keep_their_nesting_and_kinds() -> None:
    lists = (
        "<ul><li>Close old bridge to lorries"
        "<ol><li>from the first of March</li><li>until the new span opens<ul>"
        "<li>buses allowed</li></ul></li></ol></li>"
        "<li>Open a detour through the market square</li></ul>"
    )
    article = extract(story(lists))
    items = shape(article).items
    assert items == [
        ("ul", 0, "CloseoldbridgetolorriesfromthefirstofMarchuntilthenewspanopensbusesallowed"),
        ("ol", 1, "fromthefirstofMarch"),
        ("ol", 1, "untilthenewspanopensbusesallowed"),
        ("ul", 2, "busesallowed"),
        ("ul", 0, "Openadetourthroughthemarketsquare"),
    ]
    assert "- Close old bridge to lorries\n  1. from the first of March" in (
        article.content_markdown or ""
    )


def test_a_table_keeps_its_header_and_spans_and_renders_as_a_gfm_table() -> None:
    table = (
        "<table><caption>Cost of the bridge</caption><thead><tr><th>Part</th>"
        "<th colspan='2'>Cost and year</th></tr></thead><tbody>"
        "<tr><td rowspan='2'>Span</td><td>£8m</td><td>2025</td></tr>"
        "<tr><td>£1m</td><td>2026</td></tr>"
        "<tr><td>Piers | foundations</td><td>£2m</td><td>2025</td></tr></tbody></table>"
    )
    article = extract(story(table))
    root = parse_fragment(article.content_html or "")
    (found,) = root.iter("table")
    assert [el.tag for el in found] == ["caption", "thead", "tbody"]
    assert [(c.tag, dict(c.attrib)) for c in found.iter("th", "td")][:3] == [
        ("th", {}),
        ("th", {"colspan": "2"}),
        ("td", {"rowspan": "2"}),
    ]
    assert shape(article).rows == [
        ["Part", "Costandyear"],
        ["Span", "£8m", "2025"],
        ["£1m", "2026"],
        ["Piers|foundations", "£2m", "2025"],
    ]
    # Rendered back: a real table, every row as wide as the header, the spans spread.
    rendered = parse_fragment(render_markdown(article.content_markdown or ""))
    (back,) = rendered.iter("table")
    widths = {len(row) for row in back.iter("tr")}
    assert widths == {3}
    assert [c.text_content() for c in list(back.iter("tr"))[2]] == ["", "£1m", "2026"]
    assert "Cost of the bridge" in (article.content_markdown or "")


def test_an_element_loose_in_a_table_row_is_put_in_a_cell() -> None:
    rows = "".join(f"<tr><td>Part {i}</td><td>{i}</td><td>2025</td></tr>" for i in range(12))
    loose = (
        "<tr><div><a href='/note'>Linked note</a></div><td>x</td></tr>"
        "<tr><p><code>code_only</code></p></tr>"
    )
    table = f"<table><tr><th>Part</th><th>Cost</th><th>Year</th></tr>{rows}{loose}</table>"
    article = extract(story(table))  # extract() finds no <a> or <code> right in a <tr>
    assert shape(article).rows[-2:] == [["Linkednote", "x"], ["code_only"]]


def test_a_layout_table_is_read_through_not_kept_as_a_table() -> None:
    layout = f"<table><tr><td><p>{STORY[2]}</p><p>{STORY[3]}</p></td></tr></table>"
    article = extract(page(f"<h1>{HEADLINE}</h1><p>{STORY[0]}</p>{layout}<p>{STORY[1]}</p>"))
    assert "<table" not in (article.content_html or "")
    assert STORY[2] in article.content


def test_a_quote_of_two_paragraphs() -> None:
    quote = f"<blockquote><p>{STORY[4]}</p><p>{STORY[5]}</p></blockquote>"
    article = extract(story(quote))
    assert quote in (article.content_html or "").replace("\n", "")
    assert shape(article).quotes == [nows(STORY[4] + STORY[5])]
    assert f"> {STORY[4]}\n>\n> {STORY[5]}" in (article.content_markdown or "")


def test_a_code_block_keeps_its_whitespace_and_its_markup_as_text() -> None:
    code = "def toll(car):\n    if car.axles  >  2:\n\n        return '&lt;lorry&gt;'  # &amp;\n"
    article = extract(story(f"<pre><code>{code}</code></pre>", "<p>Run <code>toll(x)</code>.</p>"))
    written = unescape(code)
    assert shape(article).code == [written.rstrip("\n")]
    assert shape(article).inline_code == ["toll(x)"]
    assert "&lt;lorry&gt;" in (article.content_html or "")
    assert f"```\n{written}```" in (article.content_markdown or "")
    # The text keeps the code's words, one line, as the walk reads it.
    assert " ".join(written.split()) in article.content.split("\n")


def test_code_holding_backticks_gets_a_longer_fence() -> None:
    code = "echo ```not a fence```\nls"
    article = extract(story(f"<pre>{code}</pre>"))
    assert shape(article).code == [code]
    assert f"````\n{code}\n````" in (article.content_markdown or "")


# --- inline markup, links, pictures -----------------------------------------------------------


def test_inline_markup_is_kept() -> None:
    para = (
        "<p>The <b>council</b> voted <em>on Tuesday</em> to spend H<sub>2</sub>O money, "
        "<i>eleven</i> m<sup>2</sup> of <strong>steel</strong> and <kbd>F1</kbd> later.</p>"
    )
    article = extract(story(para))
    html = article.content_html or ""
    assert "The <strong>council</strong> voted <em>on Tuesday</em> to spend H<sub>2</sub>O" in html
    assert "<em>eleven</em> m<sup>2</sup> of <strong>steel</strong> and <code>F1</code>" in html
    assert shape(article).emphasis == [
        ("em", "eleven"),
        ("em", "onTuesday"),
        ("strong", "council"),
        ("strong", "steel"),
    ]


def test_relative_links_and_pictures_are_made_absolute() -> None:
    url = "https://town.example.com/news/2024/bridge.html?page=2"
    para = (
        "<p>See <a href='../maps/route.html'>the route</a>, <a href='/council/'>the council</a>,"
        " <a href='minutes.pdf#p3'>the minutes</a>, <a href='//cdn.example.net/v.mp4'>the video"
        "</a> and <a href='?page=3'>the next page</a>.</p>"
        "<figure><img src='img/span.jpg' alt='The span'><figcaption>The span.</figcaption>"
        "</figure>"
    )
    article = extract(story(para), url)
    assert shape(article).links == [
        ("https://town.example.com/news/maps/route.html", "theroute"),
        ("https://town.example.com/council/", "thecouncil"),
        ("https://town.example.com/news/2024/minutes.pdf#p3", "theminutes"),
        ("https://cdn.example.net/v.mp4", "thevideo"),
        ("https://town.example.com/news/2024/bridge.html?page=3", "thenextpage"),
    ]
    assert shape(article).images == [
        ("https://town.example.com/news/2024/img/span.jpg", "The span")
    ]


def test_a_link_inside_a_link_is_one_link() -> None:
    para = "<p>See <a href='/a'>the <b><a href='/b'>whole</a> plan</b></a> online.</p>"
    article = extract(story(para))
    assert shape(article).links == [("https://town.example.com/a", "thewholeplan")]


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "mailto:editor@example.com",
        "",
    ],
)
def test_a_link_that_is_no_http_address_keeps_its_text_and_loses_the_link(href: str) -> None:
    para = f"<p>Readers can <a href='{href}' onclick='steal()'>write to the editor</a> today.</p>"
    article = extract(story(para))
    assert "Readers can write to the editor today." in article.content
    assert "<p>Readers can write to the editor today.</p>" in (article.content_html or "")
    assert shape(article).links == []
    assert "Readers can write to the editor today." in (article.content_markdown or "")


def test_a_figure_with_its_caption() -> None:
    fig = (
        "<figure class='wp-block-image' style='width:600px' id='f1'>"
        "<img src='/img/bridge.jpg' alt='The old bridge' width='900' height='600'>"
        "<figcaption>The old bridge at dusk. <em>Photo: J. Smith</em></figcaption></figure>"
    )
    article = extract(story(fig))
    html = (article.content_html or "").replace("\n", "")
    assert (
        '<figure><img src="https://town.example.com/img/bridge.jpg" alt="The old bridge">'
        "<figcaption>The old bridge at dusk. <em>Photo: J. Smith</em></figcaption></figure>"
    ) in html
    assert article.images == (
        Image(
            "https://town.example.com/img/bridge.jpg",
            "The old bridge",
            "The old bridge at dusk. Photo: J. Smith",
        ),
    )
    assert (
        '![The old bridge](https://town.example.com/img/bridge.jpg "The old bridge at dusk. '
        'Photo: J. Smith")'
    ) in (article.content_markdown or "")


IMG = "<img src='/img/bridge.jpg' alt='Bridge'>"


@pytest.mark.parametrize(
    "fig",
    [
        f"<figure class='wp-block-image'>{IMG}<figcaption class='wp-element-caption'>"
        "The old bridge at dusk.</figcaption></figure>",
        f"<figure>{IMG}<figcaption class='image-credit'>The old bridge at dusk.</figcaption>"
        "</figure>",
        f"<div class='wp-caption'>{IMG}<p class='wp-caption-text'>The old bridge at dusk.</p>"
        "</div>",
    ],
)
def test_a_figure_keeps_a_caption_its_name_kept_out_of_the_text(fig: str) -> None:
    # WordPress names every figcaption "wp-element-caption": the text leaves it out
    # (a caption repeats no sentence of the story), the figure keeps it (issue 39).
    article = extract(story(fig))
    assert "The old bridge at dusk." not in article.content
    html = (article.content_html or "").replace("\n", "")
    assert (
        '<figure><img src="https://town.example.com/img/bridge.jpg" alt="Bridge">'
        "<figcaption>The old bridge at dusk.</figcaption></figure>"
    ) in html
    assert html.count("The old bridge at dusk.") == 1
    assert '"The old bridge at dusk.")' in (article.content_markdown or "")
    assert article.images is not None and article.images[0].caption == "The old bridge at dusk."


def test_a_caption_the_body_holds_is_written_once_past_an_enlarge_link() -> None:
    fig = (
        "<figure><img src='/img/bridge.jpg' alt='Bridge'>"
        "<div class='toolbar'>Click to enlarge</div>"
        "<figcaption><strong>The old bridge at dusk.</strong><br>Photo: J. Smith</figcaption>"
        "</figure>"
    )
    article = extract(story(fig))
    assert "The old bridge at dusk." in article.content
    assert (article.content_html or "").count("The old bridge at dusk.") == 1


def test_the_example_projects_blog_figure_keeps_its_caption() -> None:
    from pathlib import Path

    saved = Path(__file__).parents[3] / "example_project/news/pages/blog-orchard-planting.html"
    url = "https://lowerfield.example/2023/10/06/forty-trees-in-one-saturday/"
    article = extract(saved.read_text(encoding="utf-8"), url)
    caption = "The damson row going in along the north hedge."
    assert article.images is not None and article.images[0].caption == caption
    html = (article.content_html or "").replace("\n", "")
    assert f"<figcaption>{caption}</figcaption></figure>" in html
    assert f'"{caption}")' in (article.content_markdown or "")


@pytest.mark.parametrize(
    ("img", "expected"),
    [
        # The largest candidate, by width or by density, in any order.
        (
            f"<img src='{GIF}' srcset='/b-640.jpg 640w, /b-1600.jpg 1600w, /b-320.jpg 320w'>",
            "/b-1600.jpg",
        ),
        ("<img srcset='/b.jpg, /b@3x.jpg 3x, /b@2x.jpg 2x'>", "/b@3x.jpg"),
        (f"<img src='{GIF}' data-srcset='/l-400.jpg 400w, /l-800.jpg 800w'>", "/l-800.jpg"),
        # The lazy-loading script's attribute over its placeholder.
        (f"<img src='{GIF}' data-src='/lazy/bridge.jpg'>", "/lazy/bridge.jpg"),
        ("<img src='/img/placeholder.png' data-original='/lazy/o.jpg'>", "/lazy/o.jpg"),
        ("<img data-lazy-src='lazy/rel.jpg'>", "/news/2024/lazy/rel.jpg"),
    ],
)
def test_lazy_pictures_are_resolved(img: str, expected: str) -> None:
    fig = f"<figure>{img}<figcaption>The bridge from the river.</figcaption></figure>"
    article = extract(story(fig))
    src = "https://town.example.com" + expected
    assert shape(article).images == [(src, "")]
    assert article.images == (Image(src, None, "The bridge from the river."),)
    assert "data:" not in (article.content_html or "")


def test_a_picture_whose_only_address_is_a_placeholder_is_left_out() -> None:
    article = extract(story(f"<figure><img src='{GIF}'><figcaption>Lost.</figcaption></figure>"))
    assert shape(article).images == [] and article.images == ()


def test_images_lists_the_body_pictures_without_icons_pixels_or_share_buttons() -> None:
    parts = (
        "<figure><img src='/img/one.jpg' alt='First'><figcaption>One.</figcaption></figure>",
        "<p>Share: <a href='/share/fb'><img src='/icons/facebook.png' width='16' height='16'>"
        "</a> <img src='/img/tracker.gif' width='1' height='1'> and "
        "<img src='/static/share-twitter.png'> on social media.</p>",
        "<div class='share-buttons'><img src='/img/share-big.jpg' width='400' height='300'></div>",
        "<img src='/img/two.jpg' alt='Second'>",
    )
    article = extract(story(*parts))
    assert article.images == (
        Image("https://town.example.com/img/one.jpg", "First", "One."),
        Image("https://town.example.com/img/two.jpg", "Second", None),
    )
    assert [src for src, _alt in shape(article).images] == [i.url for i in article.images]


def test_links_and_pictures_with_no_path_get_the_root_path_a_browser_gives_them() -> None:
    para = (
        "<p>Ask <a href='https://go.example.net?id=7&amp;to=town'>the agency</a> or"
        " <a href='https://council.example.org'>the council</a>.</p>"
        "<figure><img src='https://cdn.example.net?img=span' alt='The span'>"
        "<figcaption>The span.</figcaption></figure>"
    )
    og = "<meta property='og:image' content='https://cdn.example.net?img=span'></head>"
    article = extract(story(para).replace("</head>", og))
    assert [href for href, _text in shape(article).links] == [
        "https://go.example.net/?id=7&to=town",
        "https://council.example.org/",
    ]
    assert [image.url for image in article.images or ()] == ["https://cdn.example.net/?img=span"]


def test_a_picture_standing_alone_keeps_the_link_around_it() -> None:
    parts = (
        "<figure><a href='/img/span-full.jpg'><img src='/img/span.jpg' alt='The span'></a>"
        "<figcaption>The span.</figcaption></figure>",
        "<div><a href='javascript:zoom()'><img src='/img/pier.jpg' alt='The pier'></a></div>",
    )
    article = extract(story(*parts))
    assert shape(article).links == [("https://town.example.com/img/span-full.jpg", "")]
    html = article.content_html or ""
    assert (
        '<figure><a href="https://town.example.com/img/span-full.jpg">'
        '<img src="https://town.example.com/img/span.jpg" alt="The span"></a>'
    ) in html
    assert '<figure><img src="https://town.example.com/img/pier.jpg"' in html  # no address
    assert (
        '[![The span](https://town.example.com/img/span.jpg "The span.")]'
        "(https://town.example.com/img/span-full.jpg)"
    ) in (article.content_markdown or "")
    assert [image.url for image in article.images or ()] == [
        "https://town.example.com/img/span.jpg",
        "https://town.example.com/img/pier.jpg",
    ]


def test_a_link_around_the_pictures_own_element_is_the_pictures() -> None:
    # A lightbox link around a frame holding only the picture; a card link around
    # a frame with text of its own is the card's, not the picture's.
    parts = (
        "<figure><a href='/gallery/span'><div class='frame'><picture>"
        "<img src='/img/span.jpg' alt='The span'></picture></div></a></figure>",
        "<a href='/other-story'><div><img src='/img/pier.jpg' alt='The pier'>"
        "<p>Read about the pier and the long history of its repairs.</p></div></a>",
    )
    article = extract(story(*parts))
    html = article.content_html or ""
    assert (
        '<figure><a href="https://town.example.com/gallery/span">'
        '<img src="https://town.example.com/img/span.jpg" alt="The span"></a>'
    ) in html
    assert '<a href="https://town.example.com/other-story"><img' not in html


def test_a_picture_beside_a_wrapped_last_paragraph_is_kept() -> None:
    # Each step: its text in a wrapper of its own, its picture beside the wrapper.
    # The last step's picture stands at the body's edge: the wrapper holding only
    # the paragraph is no container, the step around it is.
    steps = "".join(
        f"<div class='step'><div class='text'><p>{STORY[i]}</p></div>"
        f"<figure><img src='/img/step{i}.jpg' alt='Step {i}'></figure></div>"
        for i in range(4)
    )
    html = page(f"<article><h1>{HEADLINE}</h1>{steps}</article><aside><p>Ads</p></aside>")
    article = extract(html)
    assert shape(article).images == [
        (f"https://town.example.com/img/step{i}.jpg", f"Step {i}") for i in range(4)
    ]


@pytest.mark.parametrize("spans", [0, 3, 200])
def test_markup_after_many_plain_elements_is_still_read(spans: int) -> None:
    # A paragraph holding no markup is written from its text, without reading it
    # again; one whose markup comes only after many plain elements is read again.
    words = "".join(f"<span>word{n} </span>" for n in range(spans))
    para = f"<p>{words}See <a href='/council/'>the council</a> and <em>its</em> minutes.</p>"
    article = extract(story(para))
    assert shape(article).links == [("https://town.example.com/council/", "thecouncil")]
    assert "<em>its</em>" in (article.content_html or "")


def test_the_lead_image_comes_first_when_it_stands_in_the_body() -> None:
    parts = (
        "<figure><img src='/img/one.jpg' alt='First'><figcaption>One.</figcaption></figure>",
        "<figure><img src='/img/lead.jpg' alt='Lead'><figcaption>Lead.</figcaption></figure>",
    )
    og = "<meta property='og:image' content='https://town.example.com/img/lead.jpg'></head>"
    article = extract(story(*parts).replace("</head>", og))
    assert article.image == "https://town.example.com/img/lead.jpg"
    assert [image.url for image in article.images or ()] == [
        "https://town.example.com/img/lead.jpg",
        "https://town.example.com/img/one.jpg",
    ]
    # ... while the body keeps the page's order.
    assert [src for src, _alt in shape(article).images] == [
        "https://town.example.com/img/one.jpg",
        "https://town.example.com/img/lead.jpg",
    ]


# --- headings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "expected"),
    [(("h2", "h3"), ("h2", "h3")), (("h3", "h4"), ("h2", "h3")), (("h4", "h6"), ("h2", "h4"))],
)
def test_headings_are_shifted_so_the_body_starts_at_h2(
    levels: tuple[str, str], expected: tuple[str, str]
) -> None:
    top, sub = levels
    article = extract(story(f"<{top}>What the council decided</{top}>", f"<{sub}>The cost</{sub}>"))
    assert article.title == HEADLINE
    assert shape(article).headings == [
        (expected[0], "Whatthecouncildecided"),
        (expected[1], "Thecost"),
    ]
    assert HEADLINE not in (article.content_html or "")
    marks = "#" * int(expected[0][1])
    assert f"\n{marks} What the council decided\n" in "\n" + (article.content_markdown or "")


def test_the_headline_is_not_repeated_when_the_body_has_no_heading() -> None:
    article = extract(story())
    assert article.title == HEADLINE
    assert shape(article).headings == []
    assert HEADLINE not in (article.content_html or "") + (article.content_markdown or "")


# --- other languages and page types ---------------------------------------------------------------


def test_a_chinese_article_with_pictures_and_captions() -> None:
    nav = "".join(f"<li><a href='/c{i}/'>栏目{i}</a></li>" for i in range(10))
    html = (
        "<html><head><meta charset='utf-8'><title>本市开通三条机场夜间公交线路_新闻中心_示例网"
        f"</title></head><body><ul class='nav'>{nav}</ul><div class='article'>"
        "<h1>本市开通三条机场夜间公交线路</h1>"
        f"<p>{ZH_SENTENCES[0]}</p>"
        "<p style='text-align:center'><img src='../../images/bus1.jpg' alt='夜间公交'></p>"
        "<p class='pic-note'>图为夜间公交首发现场。记者 张三 摄</p>"
        f"<p>{ZH_SENTENCES[1]}</p>"
        "<figure><img src='//img.example.cn/2024/bus2.jpg' alt='候车亭'>"
        "<figcaption>新建的候车亭。</figcaption></figure>"
        "<h3>市民反应</h3><p>市交通局表示，将继续听取市民意见，进一步优化线路。</p>"
        "</div><div class='footer'>版权所有 示例网</div></body></html>"
    )
    article = extract(html, "http://news.example.cn/2024/03/01/a.shtml")
    assert article.title == "本市开通三条机场夜间公交线路"
    found = shape(article)
    assert found.images == [
        ("http://news.example.cn/2024/images/bus1.jpg", "夜间公交"),
        ("http://img.example.cn/2024/bus2.jpg", "候车亭"),
    ]
    assert found.headings == [("h2", "市民反应")]
    assert article.images is not None and article.images[1].caption == "新建的候车亭。"
    html_out = article.content_html or ""
    # Each caption right after its picture, in the page's order.
    assert html_out.index("bus1.jpg") < html_out.index("图为夜间公交首发现场")
    assert html_out.index("图为夜间公交首发现场") < html_out.index(ZH_SENTENCES[1][:10])
    assert "<figcaption>新建的候车亭。</figcaption>" in html_out
    assert "栏目" not in html_out and "版权所有" not in html_out


def test_a_forum_threads_body_holds_its_posts_text() -> None:
    posts = "".join(
        framed_post(n, name, f"Jul {17 + n}, 2024", text)
        for n, (name, text) in enumerate(zip(WHO, REPLIES, strict=True), 1)
    )
    article = extract(forum_page("Application thread 2025", posts), FORUM)
    assert article.page_type == "thread"
    text = parse_fragment(article.content_html or "").text_content()
    positions = [text.index(reply) for reply in REPLIES]
    assert positions == sorted(positions)
    for reply in REPLIES:
        assert reply in (article.content_markdown or "")
    # Each post an <article>, its author and date in microdata, its text its own.
    posts = parse_fragment(article.content_html or "").findall("article")
    assert [post.find("meta[@itemprop='author']").get("content") for post in posts] == list(WHO)
    assert [nows(post.text_content()) for post in posts] == [nows(reply) for reply in REPLIES]
    assert len(article.posts) == len(REPLIES)
    for post in article.posts:  # Post.html: the post's own body, held to the same contract
        assert post.html is not None and post.html in (article.content_html or "")
        assert_safe_html(post.html)
        assert nows(parse_fragment(post.html).text_content()) == nows(post.text)


# --- formats -----------------------------------------------------------------------------------


def test_formats_not_asked_for_are_none() -> None:
    html = story("<figure><img src='/a.jpg'><figcaption>A.</figcaption></figure>")
    only_markdown = extract(html, formats=["markdown"])
    assert only_markdown.content_html is None and only_markdown.images is None
    assert only_markdown.content_markdown and STORY[0] in only_markdown.content_markdown
    default = extract(html, formats=("html", "images"))
    assert default.content_markdown is None
    assert default.content_html and default.images
    assert extract_article(html, URL).content_html == default.content_html  # the default


def test_no_format_computes_nothing_and_keeps_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import scrapy_cx.extract.render.structure as structure_module

    html = story("<ul><li>One point</li><li>Another point</li></ul>")
    everything = extract(html)

    def fail(*_args: object) -> None:
        raise AssertionError("the structure was built")

    monkeypatch.setattr(structure_module, "_Builder", fail)
    page_ = extract_page(html, URL, formats=[])
    assert page_.shapes == {}
    article = page_.article()
    assert (article.content_html, article.content_markdown, article.images) == (None, None, None)
    assert article.content == everything.content and STORY[0] in article.content


@pytest.mark.parametrize("formats", [["html", "xml"], "html,pdf", ["HTML"]])
def test_an_unknown_format_is_an_error(formats: object) -> None:
    with pytest.raises(ValueError, match="format"):
        extract_article(story(), URL, formats=formats)  # type: ignore[arg-type]


def test_the_page_shapes_say_what_each_line_became() -> None:
    html = story("<h3>The cost</h3>", "<ul><li>One point</li></ul>", "<pre>x = 1</pre>")
    page_ = extract_page(html, URL, formats=["html"])
    shapes = {page_.lines[i].text: kind for i, kind in page_.shapes.items()}
    assert shapes["The cost"] == "h2"
    assert shapes["One point"] == "li"
    assert shapes["x = 1"] == "code"
    assert shapes[STORY[0]] == "p"
