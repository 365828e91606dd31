"""_tree.py: the body's tree written as HTML, every text and attribute escaped; and
the check every body HTML must pass (tests/support/html.py), shown to reject what
it is there to catch."""

from __future__ import annotations

import pytest

from scrapy_cx.extract.render._tree import Node, text_of, to_html
from tests.support.html import assert_safe_html, parse_fragment


def test_text_and_attributes_are_escaped() -> None:
    root = Node(
        "body",
        (),
        [
            Node(
                "p",
                (),
                [
                    "a < b & c > d \"q\" 'r' <script>x</script>",
                    Node("a", (("href", 'http://e.com/?a=1&b="2"<x>'),), ["link"]),
                    Node("img", (("src", "http://e.com/i.jpg"), ("alt", 'say "hi" & <bye>'))),
                ],
            )
        ],
    )
    html = to_html(root)
    assert html.replace("\n", "") == (
        "<p>a &lt; b &amp; c &gt; d \"q\" 'r' &lt;script&gt;x&lt;/script&gt;"
        '<a href="http://e.com/?a=1&amp;b=&quot;2&quot;&lt;x&gt;">link</a>'
        '<img src="http://e.com/i.jpg" alt="say &quot;hi&quot; &amp; &lt;bye&gt;"></p>'
    )
    assert_safe_html(html)
    (p,) = parse_fragment(html)
    assert p.text == "a < b & c > d \"q\" 'r' <script>x</script>"
    assert p[0].get("href") == 'http://e.com/?a=1&b="2"<x>'
    assert p[1].get("alt") == 'say "hi" & <bye>'


def test_void_elements_are_not_closed_and_the_root_is_not_written() -> None:
    root = Node("body", (), [Node("p", (), ["a", Node("br"), "b"]), Node("hr")])
    # Each block on a line of its own (a line break too), the text untouched.
    assert to_html(root) == "<p>a\n<br>\nb</p>\n<hr>\n"
    assert text_of(root) == "a\nb"


def test_iter_finds_nodes_in_document_order() -> None:
    inner = Node("li", (), ["2"])
    root = Node("ul", (), [Node("li", (), ["1", Node("ul", (), [inner])]), Node("li", (), ["3"])])
    assert [text_of(li)[0] for li in root.iter("li")] == ["1", "2", "3"]


@pytest.mark.parametrize(
    "html",
    [
        "<p>ok</p><script>alert(1)</script>",
        "<p onclick='x()'>a</p>",
        "<p class='lead'>a</p>",
        "<p style='color:red'>a</p>",
        "<p id='x'>a</p>",
        "<iframe src='http://e.com/'></iframe>",
        "<form><p>a</p></form>",
        "<object data='http://e.com/x.swf'></object>",
        "<p><a href='javascript:alert(1)'>a</a></p>",
        "<p><a href='/relative'>a</a></p>",
        "<figure><img src='data:image/png;base64,AAAA'></figure>",
        "<p><img src='http://e.com/a.jpg' onerror='x()'></p>",
        "<p><span>a</span></p>",  # an element the body never holds
        "<p>unclosed",
        "<p><em>misnested</p></em>",
        "<p>a</p><!-- a comment -->",
        "<p><ul><li>a list a browser moves out of the paragraph</li></ul></p>",
        "<td>a cell with no table</td>",
        "<ul>text<li>a</li></ul>",
        "<p><a href='http://e.com/1'>a <a href='http://e.com/2'>b</a></a></p>",
        "<table><tr><td colspan='0'>a</td></tr></table>",
        "<h1>the headline again</h1>",
        "<br/>",
        "<meta http-equiv='refresh' content='0;url=http://e.com/'>",
        "<p><meta itemprop='author' content='a'>x</p>",  # microdata outside a post
        "<article itemscope='' itemtype='http://evil.example.com/'><p>x</p></article>",
    ],
)
def test_the_html_check_rejects_what_the_body_must_never_hold(html: str) -> None:
    with pytest.raises(AssertionError):
        assert_safe_html(html)


def test_the_html_check_accepts_the_body_elements() -> None:
    assert_safe_html(
        '<h2>T</h2><p>a <a href="https://e.com/a b">l</a> <em>e</em> <strong>s</strong> '
        "<code>c</code> H<sub>2</sub>O x<sup>2</sup><br>b</p><hr><ul><li>a<ol><li>b</li></ol>"
        "</li></ul><blockquote><p>q</p></blockquote><pre><code>  x</code></pre>"
        '<table><caption>c</caption><thead><tr><th colspan="2">h</th></tr></thead><tbody>'
        '<tr><td rowspan="2">a</td><td>b</td></tr></tbody></table><figure>'
        '<img src="http://e.com/a.jpg" alt="a"><figcaption>c</figcaption></figure>'
        "<dl><dt>t</dt><dd>d</dd></dl>"
        '<article itemscope="" itemtype="https://schema.org/Comment">\n'
        '<meta itemprop="author" content="alice">\n<p>a post</p>\n</article>\n'
    )
    assert_safe_html("")
