"""_inline.py: a block element's runs read again with their markup, and the address
of a picture (lazy attributes, ``srcset``, placeholders, icons and pixels)."""

from __future__ import annotations

import time

import lxml.html
import pytest
from lxml import etree

from scrapy_cx.extract.render._inline import MAX_INLINE_DEPTH, MAX_SRCSET, picture_url, read_runs
from scrapy_cx.extract.render._tree import Node, to_html
from tests.support.html import assert_safe_html, depth, parse_fragment

BASE = "https://town.example.com/news/2024/bridge.html"
SKIPPED = frozenset({"script", "style", "noscript", "template"})
GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def element(html: str) -> etree._Element:
    return lxml.html.fragment_fromstring(html)


def xml(markup: str) -> etree._Element:
    """An element tree exactly as written (no HTML parser moves anything)."""
    return etree.fromstring(markup)


def img(attrs: str) -> etree._Element:
    return element(f"<img {attrs}>")


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ("src='/a.jpg'", "https://town.example.com/a.jpg"),
        ("src='a.jpg'", "https://town.example.com/news/2024/a.jpg"),
        ("src='//cdn.example.net/a.jpg'", "https://cdn.example.net/a.jpg"),
        (f"src='{GIF}' data-src='/lazy.jpg'", "https://town.example.com/lazy.jpg"),
        ("src='/img/blank.gif' data-original='/o.jpg'", "https://town.example.com/o.jpg"),
        ("src='/img/placeholder.svg' data-lazy-src='/l.jpg'", "https://town.example.com/l.jpg"),
        ("srcset='/s-320.jpg 320w, /s-1280.jpg 1280w, /s-640.jpg 640w'", "/s-1280.jpg"),
        (f"src='{GIF}' srcset='/x1.jpg 1x, /x3.jpg 3x, /x2.jpg 2x'", "/x3.jpg"),
        ("srcset='/plain.jpg, /wide.jpg 1.5x'", "/wide.jpg"),
        ("srcset='  /spaced.jpg   800w  ,,, /small.jpg 10w'", "/spaced.jpg"),
        (f"src='{GIF}' data-srcset='/d-400.jpg 400w, /d-900.jpg 900w'", "/d-900.jpg"),
        # A placeholder in srcset (its comma no split), the picture in data-srcset.
        (f"src='{GIF}' srcset='{GIF} 1w' data-srcset='/d-400.jpg 400w, /d.jpg 800w'", "/d.jpg"),
        ("srcset='data:image/svg+xml,%3Csvg width=%27800%27%3E 900w, /real.jpg 10w'", "/real.jpg"),
        ("srcset='/a,b.jpg 2x, /c.jpg 1x'", "/a,b.jpg"),  # a comma inside an address
        ("srcset='/a.jpg,/b.jpg 2x'", "/a.jpg,/b.jpg"),  # one address, as a browser reads it
        ("srcset='/a.jpg 1x,/b.jpg 2x'", "/b.jpg"),
        ("srcset='/a.jpg, /b.jpg 2x'", "/b.jpg"),
    ],
)
def test_the_address_of_a_picture(attrs: str, expected: str) -> None:
    if expected.startswith("/"):
        expected = "https://town.example.com" + expected
    assert picture_url(img(attrs), BASE) == expected


@pytest.mark.parametrize(
    "attrs",
    [
        f"src='{GIF}'",  # only a placeholder
        "src='javascript:alert(1)'",
        "src='JaVa\tScRiPt:alert(1)'",
        "src='vbscript:x'",
        "src='data:image/png;base64,AAAA' srcset='javascript:x 2x'",
        f"srcset='{GIF} 1w'",  # a placeholder's base64 is no relative address
        "src='file:///etc/passwd'",
        "",
        "src='/icons/rss.png' width='16' height='16'",  # an icon by its size
        "src='/img/t.gif' width='1' height='1'",  # a tracking pixel
        "src='/img/line.png' width='600' height='1'",  # a spacer line
        "src='/static/share-facebook.png'",  # a share button by its name
        "src='/assets/logo.svg'",  # the site's logo
        "src='/" + "x" * 3000 + ".jpg'",  # an address too long to be a picture's
    ],
)
def test_no_picture_of_the_article(attrs: str) -> None:
    assert picture_url(img(attrs), BASE) is None


def test_a_huge_srcset_is_read_only_up_to_its_bound() -> None:
    # 50 MB of candidates: the largest among the first MAX_SRCSET characters wins,
    # the rest is never split (and a candidate cut at the bound is no address).
    candidates = ", ".join(f"/img/{i}.jpg {i}w" for i in range(3_000_000))[:50_000_000]
    whole = [c.split() for c in candidates[:MAX_SRCSET].split(",")]
    best = max((int(c[1][:-1]), c[0]) for c in whole if len(c) == 2 and c[1].endswith("w"))[1]
    el = img("alt='x'")
    el.set("srcset", candidates)
    start = time.process_time()
    assert picture_url(el, BASE) == "https://town.example.com" + best
    assert time.process_time() - start < 10  # a hang guard (lxml copies the whole value)


def test_the_noscript_picture_of_a_lazy_one_without_an_address() -> None:
    wrapper = element(
        "<div><img class='lazy' data-x='1'><noscript><img src='/real.jpg'></noscript></div>"
    )
    assert picture_url(wrapper[0], BASE) == "https://town.example.com/real.jpg"


def runs_of(html: str | etree._Element, **kwargs: bool) -> list[str]:
    """The runs of ``html``'s element, each written as HTML."""
    el = element(html) if isinstance(html, str) else html
    return [
        to_html(Node("body", (), run.nodes)) for run in read_runs(el, SKIPPED, BASE, **kwargs).runs
    ]


def test_inline_markup_links_and_pictures_are_kept_and_squeezed() -> None:
    html = (
        "<p>  The <b>council</b>\n voted <a href='/v' onclick='x()' class='l'>on <i>Tuesday</i>"
        "</a> <span style='color:red'>to</span> <font>spend</font> <img src='/m.jpg' alt=' a  "
        "map '> <abbr title='x'>£11m</abbr><script>track()</script> <u>now</u>  </p>"
    )
    assert runs_of(html) == [
        'The <strong>council</strong> voted <a href="https://town.example.com/v">on '
        '<em>Tuesday</em></a> to spend <img src="https://town.example.com/m.jpg" alt="a map">£11m'
        " now"
    ]


def test_a_block_inside_cuts_the_run_and_open_inline_elements_go_on() -> None:
    # (Written as XML: an HTML parser would close the <b> at the <p>.)
    html = "<div>Before <b>bold <p>own line</p> still bold</b> after</div>"
    assert runs_of(xml(html)) == [
        "Before <strong>bold</strong>",
        "<strong>still bold</strong> after",
    ]
    assert runs_of(xml(html), whole=True) == [
        "Before <strong>bold</strong>",
        "<strong>own line</strong>",
        "<strong>still bold</strong> after",
    ]


@pytest.mark.parametrize(
    "href", ["javascript:alert(1)", " JAVASCRIPT:x", "java\nscript:x", "data:,x", "mailto:a@b.c"]
)
def test_a_link_to_no_http_address_gives_its_text_only(href: str) -> None:
    el = element("<p>Write <a>to us</a> today</p>")
    el[0].set("href", href)
    assert runs_of(etree.tostring(el, encoding="unicode")) == ["Write to us today"]


def test_a_link_inside_a_link_gives_its_text_to_the_outer_one() -> None:
    # libxml2 keeps an <a> inside an <a>; a browser reading the output would close
    # the outer link there, and CommonMark reads no link inside a link.
    html = "<p><a href='/1'>outer <b><a href='/2'>inner</a> bold</b> end</a> after</p>"
    assert runs_of(html) == [
        '<a href="https://town.example.com/1">outer <strong>inner bold</strong> end</a> after'
    ]


def test_code_in_code_and_emphasis_in_the_same_emphasis_are_one_element() -> None:
    html = "<p><code><code>a</code></code> <em>x <i>y</i></em> <b><strong>z</strong></b></p>"
    assert runs_of(html) == ["<code>a</code> <em>x y</em> <strong>z</strong>"]
    assert runs_of("<p><sup>x<sup>2</sup></sup> <em><b>both</b></em></p>") == [
        "<sup>x<sup>2</sup></sup> <em><strong>both</strong></em>"
    ]


def test_hidden_inline_elements_are_left_out_as_the_walk_leaves_them() -> None:
    html = "<p>Shown <span hidden>hidden</span><span style='display:none'>gone</span> text</p>"
    assert runs_of(html) == ["Shown text"]


def test_preformatted_runs_keep_their_whitespace() -> None:
    html = "<pre>  def f(x):\n\treturn  <b>x</b>\n\n</pre>"
    (run,) = read_runs(element(html), SKIPPED, BASE, pre=True).runs
    assert run.text == "def f(x): return x"  # the line's text, as the walk squeezes it
    assert to_html(Node("body", (), run.nodes)) == "  def f(x):\n\treturn  <strong>x</strong>\n\n"


def test_inline_elements_nest_only_so_deep() -> None:
    p = etree.Element("p")
    inner = p
    for _ in range(10_000):
        for tag in ("b", "i", "a"):
            inner = etree.SubElement(inner, tag, href="/x")
    inner.text = "deep"
    (run,) = read_runs(p, SKIPPED, BASE).runs
    written = to_html(Node("p", (), run.nodes))
    assert_safe_html(written)
    assert depth(parse_fragment(written)) <= MAX_INLINE_DEPTH + 1
    assert run.text == "deep"


def test_emphasis_of_one_kind_side_by_side_is_one_element() -> None:
    el = element(
        "<p>Call Me <i>B</i><em>y Your Name</em>, <b>bo</b><strong>ld</strong>,"
        " <a href='/a'>one</a><a href='/b'>two</a></p>"
    )
    (run,) = read_runs(el, SKIPPED, BASE).runs
    assert to_html(Node("body", (), run.nodes)) == (
        "Call Me <em>By Your Name</em>, <strong>bold</strong>,"
        ' <a href="https://town.example.com/a">one</a><a href="https://town.example.com/b">two</a>'
    )
