"""Checks on the body's HTML and Markdown (issue 22), shared by the structure tests,
the hostile corpus and the fuzz: one strict idea of "safe and well-formed", one
of "the same text", one of "the same structure".

``assert_safe_html`` does not trust one parser: the HTML is tokenised (every
start tag closed in order, nothing but the body's elements and attributes,
every address absolute http(s)), then parsed by lxml, which must build the same
tree (a browser re-nests a ``<ul>`` inside a ``<p>``: the structure written
would not be the structure shown).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import unquote

import lxml.html
from lxml import etree
from markdown_it import MarkdownIt

from scrapy_cx import Article

# What content_html may hold: the elements issue 22 lists (and ``article``, one per
# post of a thread, its author and date as schema.org microdata in ``meta``), each
# with the only attributes it may carry.
ATTRIBUTES: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        "p h2 h3 h4 h5 h6 ul ol li dl dt dd blockquote pre code table caption thead tbody "
        "tfoot tr figure figcaption em strong sub sup br hr".split(),
        frozenset(),
    ),
    "article": frozenset({"itemscope", "itemtype"}),
    "meta": frozenset({"itemprop", "content"}),
    "a": frozenset({"href"}),
    "img": frozenset({"src", "alt"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan"}),
}
# Never, whatever else changes: active content, forms, and what styles or names.
FORBIDDEN_TAGS = frozenset(
    "script style iframe frame frameset object embed applet form input button select "
    "textarea link base svg math template noscript h1".split()
)
FORBIDDEN_ATTRIBUTES = frozenset({"class", "style", "id"})
VOID = frozenset({"img", "br", "hr", "meta"})
# Elements that hold phrasing content only: a block inside one is moved out by a browser.
PHRASING = frozenset("a em strong code sub sup br img".split())
PHRASING_ONLY = frozenset("p h2 h3 h4 h5 h6 pre".split()) | PHRASING
ONLY_CHILDREN = {
    "ul": frozenset({"li"}),
    "ol": frozenset({"li"}),
    "dl": frozenset({"dt", "dd"}),
    "table": frozenset({"caption", "thead", "tbody", "tfoot", "tr"}),
    "thead": frozenset({"tr"}),
    "tbody": frozenset({"tr"}),
    "tfoot": frozenset({"tr"}),
    "tr": frozenset({"td", "th"}),
}
CONTAINED = frozenset().union(*ONLY_CHILDREN.values(), {"figcaption", "meta"})  # never at the top
# An absolute http(s) address with a host; no NUL, tab or line break (the rule every
# address of the article keeps: tests/test_fuzz.py's check_article).
_HTTP = re.compile(r"https?://[^\x00-\x20\x7f/?#][^\x00\t\n\r]*\Z")
_SPACE = re.compile(r"\s+")
# The structural bound a reader can rely on (structure.MAX_DEPTH levels of blocks,
# _inline.MAX_INLINE_DEPTH of inline elements, and a little slack for wrappers).
MAX_OUTPUT_DEPTH = 24 + 16 + 8


def nows(text: str) -> str:
    """``text`` without any whitespace: how the body's HTML and ``content`` compare."""
    return _SPACE.sub("", text)


# --- safe and well-formed -----------------------------------------------------------------


class _Tokens(HTMLParser):
    """The start and end tags of a fragment, checked for nesting as they come."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tree: list[tuple[str, int]] = []  # (tag, depth) in document order
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tree.append((tag, len(self.stack)))
        self.errors.extend(_tag_errors(tag, attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.errors.append(f"self-closing <{tag}/>")
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.errors.append(f"end tag of a void element </{tag}>")
        elif not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()

    def handle_comment(self, data: str) -> None:
        self.errors.append(f"comment {data[:40]!r}")

    def handle_decl(self, decl: str) -> None:
        self.errors.append(f"declaration {decl[:40]!r}")

    def handle_pi(self, data: str) -> None:
        self.errors.append(f"processing instruction {data[:40]!r}")

    def unknown_decl(self, data: str) -> None:
        self.errors.append(f"declaration {data[:40]!r}")


def _tag_errors(tag: str, attrs: list[tuple[str, str | None]]) -> list[str]:
    errors = []
    if tag in FORBIDDEN_TAGS or tag not in ATTRIBUTES:
        errors.append(f"element <{tag}>")
    names = [name for name, _value in attrs]
    if len(set(names)) != len(names):
        errors.append(f"repeated attribute in <{tag}>: {names}")
    for name, value in attrs:
        if name.startswith("on") or name in FORBIDDEN_ATTRIBUTES:
            errors.append(f"attribute {name} on <{tag}>")
        elif name not in ATTRIBUTES.get(tag, ()):
            errors.append(f"attribute {name} not allowed on <{tag}>")
        elif value is None:
            errors.append(f"attribute {name} without a value on <{tag}>")
        elif name in ("href", "src") and not _HTTP.match(value):
            errors.append(f"{name} not an absolute http(s) address: {value[:80]!r}")
        elif name in ("colspan", "rowspan") and not (value.isdigit() and int(value) > 1):
            errors.append(f"{name}={value!r}")
        elif name == "itemtype" and not value.startswith("https://schema.org/"):
            errors.append(f"itemtype={value[:80]!r}")
    return errors


def _content_errors(root: etree._Element) -> list[str]:
    """Where lxml's tree breaks the content model a browser keeps as written."""
    errors = [f"<{el.tag}> outside its container" for el in root if el.tag in CONTAINED]
    for el in root.iterdescendants():
        parent = el.getparent()
        assert parent is not None
        if parent.tag in PHRASING_ONLY and el.tag not in PHRASING:
            errors.append(f"<{el.tag}> inside <{parent.tag}>")
        allowed = ONLY_CHILDREN.get(parent.tag)
        if allowed is not None and el.tag not in allowed:
            errors.append(f"<{el.tag}> directly inside <{parent.tag}>")
        if el.tag in ONLY_CHILDREN and (
            (el.text or "").strip() or any((child.tail or "").strip() for child in el)
        ):
            errors.append(f"text directly inside <{el.tag}>")
        if el.tag == "meta" and parent.tag != "article":
            errors.append(f"<meta> inside <{parent.tag}>")  # a post's microdata only
        if el.tag == "figcaption" and parent.tag != "figure":
            errors.append(f"<figcaption> inside <{parent.tag}>")
        if el.tag == "a" and any(a.tag == "a" for a in el.iterancestors()):
            errors.append("a link inside a link")
    return errors


def parse_fragment(html: str) -> etree._Element:
    """``html`` parsed by lxml under a ``<div>`` (what a reader of the field does)."""
    return lxml.html.fragment_fromstring(html, create_parent="div")


def depth(root: etree._Element) -> int:
    """How deep elements nest under ``root`` (no recursion: the tree may be deep)."""
    deepest = 0
    stack = [(root, 0)]
    while stack:
        el, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in el)
    return deepest


def assert_safe_html(html: str) -> None:
    """``html`` (an article's ``content_html``) is well-formed and safe to show: only
    the body's elements and attributes, no active content, every address absolute
    http(s), every element closed in order, and lxml reads the tree as written."""
    assert isinstance(html, str)
    html.encode("utf-8")  # no lone surrogate: the field can be written out
    assert "\x00" not in html
    tokens = _Tokens()
    tokens.feed(html)
    tokens.close()
    assert tokens.errors == [], tokens.errors[:10]
    assert tokens.stack == [], f"left open: {tokens.stack[:10]}"
    if not html:
        return
    root = parse_fragment(html)
    for el in root.iter():
        assert el.tag not in FORBIDDEN_TAGS, el.tag
        assert not any(n.startswith("on") or n in FORBIDDEN_ATTRIBUTES for n in el.attrib)
        for name in ("href", "src"):
            value = el.get(name)
            assert value is None or _HTTP.match(value), value[:80]
    parsed = [(el.tag, level) for el, level in _walk(root)]
    assert parsed == tokens.tree, "lxml re-nested the HTML"
    assert _content_errors(root) == [], _content_errors(root)[:10]
    assert depth(root) <= MAX_OUTPUT_DEPTH


def _walk(root: etree._Element) -> list[tuple[etree._Element, int]]:
    out = []
    stack = [(child, 0) for child in reversed(root)]
    while stack:
        el, level = stack.pop()
        if isinstance(el.tag, str):
            out.append((el, level))
            stack.extend((child, level + 1) for child in reversed(el))
    return out


def assert_article_html(article: Article) -> None:
    """Every article whose body HTML was asked for: safe, and the text of ``content``."""
    if article.content_html is None:
        return
    assert_safe_html(article.content_html)
    assert_text_agrees(article)


def assert_text_agrees(article: Article) -> None:
    """The text of ``content_html`` is ``content``'s, the same characters in the same
    order (whitespace aside: a line break is a new element in the HTML), but for
    the captions of figures that the text leaves out (a WordPress figcaption)."""
    assert article.content_html is not None
    rest = nows(article.content)
    if not article.content_html:
        assert rest == ""
        return
    for piece, in_caption in _text_pieces(parse_fragment(article.content_html)):
        piece = nows(piece)
        if rest.startswith(piece):
            rest = rest[len(piece) :]
        else:
            assert in_caption, (piece[:80], rest[:80])  # only a caption may be extra
    assert rest == ""


def _text_pieces(root: etree._Element, in_caption: bool = False) -> Iterator[tuple[str, bool]]:
    """The text of ``root`` in document order, each piece with whether a figcaption holds it
    (the whole caption as one piece)."""
    if root.tag == "figcaption" and not in_caption:
        yield root.text_content(), True
        return
    if root.text:
        yield root.text, in_caption
    for child in root:
        if isinstance(child.tag, str):
            yield from _text_pieces(child, in_caption)
        if child.tail:
            yield child.tail, in_caption


# --- the same structure in HTML and Markdown ---------------------------------------------


@dataclass
class Structure:
    """What a reader of the body sees of its structure, from HTML however written."""

    headings: list[tuple[str, str]] = field(default_factory=list)
    items: list[tuple[str, int, str]] = field(default_factory=list)  # list, depth, text
    rows: list[list[str]] = field(default_factory=list)  # each table row's cells with text
    quotes: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)  # pre blocks, whitespace as written
    inline_code: list[str] = field(default_factory=list)
    images: list[tuple[str, str]] = field(default_factory=list)  # src, alt
    links: list[tuple[str, str]] = field(default_factory=list)  # href, text
    # em/strong and their text, sorted: ***x*** is em in strong or strong in em
    emphasis: list[tuple[str, str]] = field(default_factory=list)


def structure(html: str) -> Structure:
    """The structure items of ``html`` (texts without whitespace, addresses unquoted)."""
    found = Structure()
    if not html.strip():
        return found
    root = parse_fragment(html)
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        text = nows(el.text_content())
        if tag in ("code", "img", "a", "em", "strong") and any(
            a.tag == "pre" for a in el.iterancestors()
        ):
            continue  # a Markdown code block holds text only (its text is compared)
        if re.fullmatch(r"h[1-6]", tag):
            found.headings.append((tag, text))
        elif tag == "li":
            parent = el.getparent()
            levels = sum(1 for a in el.iterancestors() if a.tag == "li")
            found.items.append((parent.tag if parent is not None else "", levels, text))
        elif tag == "tr":
            cells = [nows(c.text_content()) for c in el if c.tag in ("td", "th")]
            found.rows.append([c for c in cells if c])
        elif tag == "blockquote":
            found.quotes.append(text)
        elif tag == "pre":
            found.code.append(_text_with_breaks(el).rstrip("\n"))
        elif tag == "code":
            found.inline_code.append(el.text_content())
        elif tag == "img":
            found.images.append((unquote(el.get("src", "")), el.get("alt", "")))
        elif tag == "a":
            found.links.append((unquote(el.get("href", "")), text))
        elif tag in ("em", "strong") and not _post_header(el):
            found.emphasis.append((tag, text))
    found.emphasis.sort()
    return found


def _post_header(el: etree._Element) -> bool:
    """Whether ``el`` is a thread post's header in the Markdown (``---`` then **author ·
    date** alone in a paragraph), which the HTML says in the post's microdata."""
    parent = el.getparent()
    before = parent.getprevious() if parent is not None else None
    return (
        el.tag == "strong"
        and parent is not None
        and parent.tag == "p"
        and len(parent) == 1
        and not (parent.text or "").strip()
        and not (el.tail or "").strip()
        and before is not None
        and before.tag == "hr"
    )


def _text_with_breaks(root: etree._Element) -> str:
    """The text of ``root`` with each ``<br>`` a newline (as a browser shows it in a
    ``<pre>``, and as a Markdown fence writes it)."""
    parts: list[str] = []
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            parts.append("\n" if el.tag == "br" else el.text or "")
        elif el is not root:
            parts.append(el.tail or "")
    return "".join(parts)


def render_markdown(markdown: str) -> str:
    """``markdown`` as a CommonMark parser with GFM tables renders it."""
    # markdown-it's own nesting bound (20 levels of tokens) drops what lies deeper:
    # the body nests up to structure.MAX_DEPTH blocks, as CommonMark allows.
    return str(MarkdownIt("commonmark", {"maxNesting": 100}).enable("table").render(markdown))


def assert_safe_markdown(markdown: str) -> None:
    """``markdown`` (an article's ``content_markdown``) rendered by a CommonMark parser,
    which passes raw HTML through, shows no active content and no address but
    http(s): text that looks like HTML is escaped, a table kept as HTML is the
    body's own safe HTML."""
    html = render_markdown(markdown)
    if not html.strip():
        return
    for node in parse_fragment(html).iter():
        if not isinstance(node.tag, str):
            continue
        assert node.tag not in FORBIDDEN_TAGS, node.tag
        for name, value in node.attrib.items():
            assert not name.startswith("on") and name not in FORBIDDEN_ATTRIBUTES, name
            if name in ("href", "src"):
                assert _HTTP.match(value), value[:80]


def assert_markdown_agrees(article: Article) -> Structure:
    """The article's Markdown, rendered back, has the structure of its HTML; that
    structure (for the caller's own checks)."""
    assert article.content_html is not None and article.content_markdown is not None
    html = structure(article.content_html)
    rendered = structure(render_markdown(article.content_markdown))
    assert rendered == html
    return html
