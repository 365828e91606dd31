"""The body's structure: the selected lines rebuilt as headings, paragraphs, lists,
tables, quotes, code and figures, as HTML and Markdown, and the body's pictures.

The selection (choose.py and the stages after it) decides *which* lines are the
article; this stage only decides what each of them *was*. Each line of the body
(``Selection.body``) is read again from its block element (_inline.py: its
links, emphasis, code and pictures) and placed under the structural block
elements above it (lists, tables, quotes, figures) that the walk already
numbered (``PageLines.parents``): no second walk of the page, and no line the
text left out comes back, so ``content_html`` holds the text of ``content``, in
its order. Pictures standing alone between two lines of the body are put back,
with their caption (``images[].caption``) where the text left it out: a
WordPress ``figcaption`` is named "wp-element-caption", which the text reads as
boilerplate (a caption repeats no sentence of the story), but the figure is
not whole without it.
Linear in the page: each block element is read again at most once, each
structural one opened and closed once.
"""

from __future__ import annotations

from copy import copy
from itertools import groupby, islice
from operator import attrgetter

from lxml import etree

from ...article import Image
from .._urls import with_root_path
from ..page import Page
from ..parse.lines import (
    HEADING_TAGS,
    PICTURES_BOILERPLATE_WORDS,
    Line,
    PageLines,
    name_parts,
    not_plain,
    without_controls,
)
from ._inline import MARKUP_TAGS, Run, link_url, picture_url, read_runs
from ._tree import Node, text_of, to_html
from .markdown import to_markdown

__all__ = ["find_structure", "is_data_table"]

Pictures = list[tuple[Node, etree._Element]]  # the pictures written, and their elements

# Elements holding only inline content: nothing structural opens inside them.
PHRASING = HEADING_TAGS | {"p", "pre"}
# Elements a line's inline content goes straight into.
TEXT_HOLDERS = PHRASING | {"li", "dt", "dd", "td", "th", "figcaption", "caption"}
# Inside these, only the listed elements are structural; anything else is read
# through (its lines wrapped as the container needs).
ONLY_CHILDREN = {
    "ul": frozenset(("li",)),
    "ol": frozenset(("li",)),
    "dl": frozenset(("dt", "dd")),
    "table": frozenset(("thead", "tbody", "tfoot", "tr", "caption")),
    "thead": frozenset(("tr",)),
    "tbody": frozenset(("tr",)),
    "tfoot": frozenset(("tr",)),
    "tr": frozenset(("td", "th")),
}
# Elements that are structural wherever they stand (outside the containers above).
FREE = HEADING_TAGS | {"p", "ul", "ol", "dl", "blockquote", "pre", "figure", "table"}
# Elements that are structural only inside their own container.
BOUND = {"figcaption": "figure"}
# Structural elements nested deeper than this are read through: a page of
# 10 000 nested lists is one list deep enough for any reader, and the writers recurse.
MAX_DEPTH = 24
# Elements of a table looked at to tell data from layout (Readability's test).
MAX_TABLE_SCAN = 2_000
MAX_SPAN = 1_000  # colspan / rowspan kept up to this
MAX_CAPTION = 500  # characters of a picture's caption
# Lines of a picture's own element (a caption, a credit) that may be left out of
# the body without parting the picture from it.
MAX_OWN_LINES = 3
# Elements inside a block element looked at for markup (a link, emphasis...).
MAX_PLAIN_SCAN = 64
# Ancestors of a standalone picture read for the link around it.
MAX_LINK_LEVELS = 3
# Ancestors of a standalone picture read for boilerplate names.
MAX_PICTURE_ANCESTORS = 8


def find_structure(page: Page) -> None:
    """Fill ``content_html``, ``content_markdown``, ``images`` (those asked for in
    ``page.formats``) and ``page.shapes`` from the selection's body.

    Reads the selection, the URL and the lead image; writes those fields."""
    formats = page.formats
    if not formats:
        return
    builder = _Builder(page.lines, page.link_base())
    body = page.selection.body
    root = _thread(builder, page) if page.post_bodies else builder.build(body)
    page.shapes = builder.shapes
    if "html" in formats:
        page.content_html = to_html(root)
        page.post_html = [to_html(builder.fresh().build(body)) for body in page.post_bodies]
    if "markdown" in formats:
        page.content_markdown = to_markdown(root)
    if "images" in formats:
        page.images = _images(builder.pictures, page.image)


def _thread(builder: _Builder, page: Page) -> Node:
    """A thread's body: each post's lines an ``<article>``, its author and date
    given as schema.org microdata (``<meta>``: no text, so the body's text is
    still exactly the content's); lines of no post stand between them."""
    owner = {id(line): k for k, lines in enumerate(page.post_bodies) for line in lines}
    root = Node("body")
    for k, group in groupby(page.selection.body, key=lambda line: owner.get(id(line))):
        part = builder.fresh()
        tree = part.build(tuple(group))
        builder.shapes.update(part.shapes)
        builder.pictures.extend(part.pictures)
        if k is None:
            root.children.extend(tree.children)
            continue
        post = page.posts[k]
        about = [("author", post.author), ("datePublished", post.published)]
        metas: list[Node | str] = [
            Node("meta", (("itemprop", name), ("content", value))) for name, value in about if value
        ]
        article = Node("article", (("itemscope", ""), ("itemtype", _COMMENT)), metas)
        article.children.extend(tree.children)
        root.children.append(article)
    return root


_COMMENT = "https://schema.org/Comment"


class _Builder:
    """The tree of the body, built line by line in page order."""

    def __init__(self, lines: PageLines, base: str | None) -> None:
        self.lines, self.base = lines, base
        self.tags, self.parents, self.elements = lines.tags, lines.parents, lines.elements
        # What is known of the page, shared by the trees built on it (fresh()):
        self.out: dict[int, str | None] = {}  # block -> what it becomes (None: read through)
        self.nearest: dict[int, int] = {}  # block -> nearest structural ancestor-or-self
        self.depth: dict[int, int] = {-1: 0}
        self.runs: dict[int, list[Run]] = {}
        self.index = dict(zip(map(id, lines), range(len(lines)), strict=True))  # (in C)
        self.blocks = list(map(_BLOCK, lines))
        self.counted: dict[int, tuple[int, int]] = {}  # block -> (line, its lines before it)
        self.plain: dict[int, bool] = {}  # block -> holds no markup (_plain)
        # The tree being built:
        self.root = Node("body")
        self.stack: list[tuple[int, Node]] = [(-1, self.root)]
        self.open: dict[int, int] = {-1: 0}
        self.last: tuple[int, Node, int] | None = None  # (anchor, leaf, line) of the last line
        self.shapes: dict[int, str] = {}
        self.pictures: list[tuple[Node, etree._Element]] = []
        self.headings: list[Node] = []

    # -- what each block element becomes -------------------------------------------

    def resolve(self, block: int) -> int:
        """The nearest structural ancestor-or-self of ``block`` (-1: the root),
        deciding what each block on the way becomes, once."""
        path = []
        while block >= 0 and block not in self.nearest:
            path.append(block)
            block = self.parents[block]
        up = self.nearest[block] if block >= 0 else -1
        for b in reversed(path):
            tag = self._becomes(b, up)
            self.out[b] = tag
            if tag is not None:
                self.depth[b] = self.depth[up] + 1
                up = b
            self.nearest[b] = up
        return up

    def _becomes(self, block: int, up: int) -> str | None:
        tag = self.tags[block]
        parent = self.out[up] if up >= 0 else "body"
        if parent in PHRASING or self.depth[up] >= MAX_DEPTH:
            return None
        allowed = ONLY_CHILDREN.get(parent or "")
        if allowed is not None:
            return tag if tag in allowed else None
        if tag in BOUND:
            return tag if parent == BOUND[tag] else None
        if tag in FREE:
            if tag == "table" and not is_data_table(self.elements[block]):
                return None
            return tag
        return None

    # -- building ------------------------------------------------------------------

    def fresh(self) -> _Builder:
        """A builder for another tree of the same page (a post's), sharing what is known
        of the page, so that a thread's posts cost no more than its body."""
        other = copy(self)
        other.root = Node("body")
        other.stack, other.open, other.last = [(-1, other.root)], {-1: 0}, None
        other.shapes, other.pictures, other.headings = {}, [], []
        return other

    def build(self, body: tuple[Line, ...]) -> Node:
        kept = [self.index.get(id(line), -1) for line in body]
        units = [self._unit(i, line) for i, line in zip(kept, body, strict=True)]
        consumed = {id(el) for _nodes, pictures in units for _node, el in pictures}
        standalone = self._standalone(kept, consumed)
        events = sorted(
            [(i, 1, n) for n, i in enumerate(kept)]
            + [(p, 0, n) for n, (p, *_rest) in enumerate(standalone)]
        )
        for _position, is_line, n in events:
            if is_line:
                nodes, pictures = units[n]
                self._add_line(kept[n], body[n], nodes)
                self.pictures.extend(pictures)
            else:
                self._add_picture(*standalone[n][1:])
        self._shift_headings()
        return self.root

    def _unit(self, i: int, line: Line) -> tuple[list[Node | str], Pictures]:
        """The inline content of one line of the body (or a row's cells) read again,
        and its pictures; the line's plain text where the reading does not give
        the line's text."""
        block = line.block
        want = line.text
        if not want.isprintable():  # (in C) control characters: the body is written without
            want = " ".join(without_controls(want).split())
        plain: tuple[list[Node | str], Pictures] = ([want], [])
        if block < 0 or i < 0:
            return plain
        self.resolve(block)
        out, tag = self.out[block], self.tags[block]
        element = self.elements[block]
        pictures: Pictures = []
        if tag == "tr":  # a table row the walk made one line
            if out is None:  # a layout table's: its text
                return plain
            cells = [self._cell(cell, pictures) for cell in element if cell.tag in ("td", "th")]
            nodes: list[Node | str] = list(cells)
            text = " ".join(filter(None, (" ".join(text_of(c).split()) for c in cells)))
        elif tag in ("td", "th") and self.lines.spans[block] == (i, i + 1):
            cell = self._cell(element, pictures)
            nodes, text = cell.children, " ".join(text_of(cell).split())
        else:
            # Whitespace kept only in a pre written as one (not one read through).
            pre = self.out.get(self.nearest[block]) == "pre"
            # (lxml's len() counts the children one by one: per line, quadratic.)
            if not pre and self._plain(block, element):
                return plain  # text alone in its element: its one run is the line, as read
            runs = self._runs(block, pre)
            k = self._run_number(i, block)
            if k >= len(runs):
                return plain
            run = runs[k]
            nodes, text, pictures = run.nodes, run.text, run.pictures
        if text != want:
            return plain
        return nodes, pictures

    def _plain(self, block: int, element: etree._Element) -> bool:
        """Whether ``element`` holds nothing read_runs keeps (no link, emphasis, code
        or picture: its runs are its lines' texts, as the walk read them), looking
        at MAX_PLAIN_SCAN elements inside it at most (past them: not known, no)."""
        known = self.plain.get(block)
        if known is None:
            known = True
            for n, el in enumerate(element.iterdescendants()):
                if n >= MAX_PLAIN_SCAN or el.tag in MARKUP_TAGS:
                    known = False
                    break
            self.plain[block] = known
        return known

    def _run_number(self, i: int, block: int) -> int:
        """How many lines of ``block`` come before line ``i``: which of the element's
        runs it is. Counted on from the block's last answer (the body comes in page
        order), so each block's lines are counted once."""
        at, count = self.counted.get(block, (self.lines.spans[block][0], 0))
        if i < at:
            at, count = self.lines.spans[block][0], 0
        count += self.blocks[at:i].count(block)  # (in C)
        self.counted[block] = (i, count)
        return count

    def _runs(self, block: int, pre: bool) -> list[Run]:
        runs = self.runs.get(block)
        if runs is None:
            runs = read_runs(self.elements[block], self.lines.skipped, self.base, pre=pre).runs
            self.runs[block] = runs
        return runs

    def _cell(self, element: etree._Element, pictures: Pictures) -> Node:
        """A table cell read whole: its runs a line break apart, its spans kept."""
        runs = read_runs(element, self.lines.skipped, self.base, whole=True).runs
        node = Node(element.tag, _spans(element))
        for n, run in enumerate(runs):
            if n:
                node.children.append(Node("br"))
            node.children.extend(run.nodes)
            pictures.extend(run.pictures)
        return node

    def _enter(self, anchor: int) -> Node:
        """Make ``anchor`` (a structural block, or -1) the innermost open node:
        close those not above it, open those between."""
        path = []
        block = anchor
        while block not in self.open:
            path.append(block)
            parent = self.parents[block]
            block = self.nearest[parent] if parent >= 0 else -1
        while self.stack[-1][0] != block:
            del self.open[self.stack.pop()[0]]
        for b in reversed(path):
            tag = self.out[b]
            assert tag is not None
            node = Node(tag, _spans(self.elements[b]) if tag in ("td", "th") else ())
            if tag in HEADING_TAGS:
                self.headings.append(node)
            self.stack[-1][1].children.append(node)
            self.open[b] = len(self.stack)
            self.stack.append((b, node))
        return self.stack[-1][1]

    def _add_line(self, i: int, line: Line, nodes: list[Node | str]) -> None:
        block = line.block
        anchor = self.nearest.get(block, -1) if block >= 0 else -1
        top = self._enter(anchor)
        last = self.last
        if top.tag == "tr":
            leaf = top
            if any(isinstance(node, str) or node.tag not in ("td", "th") for node in nodes):
                # a row read as text, or a line of an element loose in the row
                leaf = Node("td")
                top.children.append(leaf)
        elif top.tag in TEXT_HOLDERS:
            leaf = top
            if leaf.children:
                leaf.children.append(Node("br"))
        elif last is not None and last[0] == block and last[2] == i - 1 and last[1] in _kids(top):
            leaf = last[1]  # the next line of the same element: a line break, not a paragraph
            leaf.children.append(Node("br"))
        else:
            leaf = _wrapper(top)
        leaf.children.extend(nodes)
        self.last = (block, leaf, i)
        self.shapes[i] = self._shape(leaf)

    def _add_picture(self, block: int, element: etree._Element, caption: str | None) -> None:
        """A picture standing alone, in its figure, with ``caption`` (one the text left out)."""
        url = picture_url(element, self.base)
        if url is None:
            return
        anchor = self.resolve(block) if block >= 0 else -1
        top = self._enter(anchor)
        node = _img(element, url)
        held = self._linked(node, element, block)
        below = [Node("figcaption", (), [caption])] if caption else []
        if top.tag in TEXT_HOLDERS:
            top.children.append(held)
        elif top.tag == "figure":
            top.children.extend([held, *below])
        elif top.tag in ONLY_CHILDREN:
            return  # a picture loose in a list or a table's frame
        else:
            top.children.append(Node("figure", (), [held, *below]))
        self.pictures.append((node, element))
        self.last = None

    def _linked(self, node: Node, element: etree._Element, block: int) -> Node:
        """A picture standing alone, in the link around it if it has one (a picture
        leading to its full size, its source, a gallery): the link the page gives it,
        as a link around a picture inside a line keeps it. A link around the block
        element holding the picture is the picture's too when that element holds no
        text of its own (``<a><div><img></div></a>``: a lightbox or gallery link,
        13 of guardian-1's 19 links); around a block with text it is the block's."""
        spans, parents = self.lines.spans, self.parents
        while block >= 0 and spans[block][0] == spans[block][1]:
            block = parents[block]  # holds no line: the picture alone
        holder = self.elements[block] if block >= 0 else None
        for ancestor in islice(element.iterancestors(), MAX_LINK_LEVELS):
            if ancestor is holder:
                break
            if ancestor.tag == "a":
                href = link_url(ancestor, self.base)
                return node if href is None else Node("a", (("href", href),), [node])
        return node

    def _shape(self, leaf: Node) -> str:
        if any(node.tag == "blockquote" for _b, node in self.stack):
            return "quote"
        return _SHAPES.get(leaf.tag, leaf.tag)

    def _standalone(
        self, kept: list[int], consumed: set[int]
    ) -> list[tuple[int, int, etree._Element, str | None]]:
        """The pictures standing alone (in no line of the body) between two lines of
        the body, or at its edges inside the element holding its edge line, and not
        inside an element named as boilerplate for pictures. The few lines of a
        picture's own element (its caption, its credit) do not part it from the body.
        Each with its caption when the body leaves that out (:meth:`_left_out_caption`)."""
        if not self.lines.images or not kept:
            return []
        body = set(kept)
        lines = self.lines
        # (A picture further than MAX_OWN_LINES from the body's first and last lines
        # has no line of the body beside it: most of a page's are.)
        low, high = min(kept) - MAX_OWN_LINES, max(kept) + MAX_OWN_LINES
        found = []
        for position, block, element in lines.images:
            if not low <= position <= high or id(element) in consumed:
                continue
            first, end = self._past_captions(position, body, -1), self._past_captions(
                position, body, 1
            )
            before, after = first - 1 in body, end in body
            if before and after:
                edge = None
            elif after:
                edge = end
            elif before:
                edge = first - 1
            else:
                continue
            if edge is not None and not self._beside(block, lines[edge].block):
                continue
            if _named_away(element):
                continue
            found.append(
                (position, block, element, self._left_out_caption(element, position, body))
            )
        return found

    def _left_out_caption(
        self, element: etree._Element, position: int, body: set[int]
    ) -> str | None:
        """The caption of a picture standing before line ``position`` unless the body
        holds one of the caption's lines, which come within a few lines after it (a
        "click to enlarge" link of the figure may stand between)."""
        holder = _caption_element(element)
        if holder is None:
            return None
        lines, elements = self.lines, self.elements
        for i in range(position, min(len(lines), position + MAX_OWN_LINES + 1)):
            block = lines[i].block
            if i in body and block >= 0:
                held = elements[block]
                if held is holder or holder in held.iterancestors():
                    return None  # the body writes it
        return _text(holder)

    def _past_captions(self, position: int, body: set[int], step: int) -> int:
        """From a picture's place, the line past the few short lines left out of the
        body beside it (its caption, its credit): before it (``step`` -1, the
        index after that line) or after it (+1)."""
        lines = self.lines
        i = position - 1 if step < 0 else position
        chars = 0
        for _ in range(MAX_OWN_LINES):
            if not 0 <= i < len(lines) or i in body:
                break
            chars += lines[i].length
            if chars > MAX_CAPTION:
                break
            i += step
        else:
            return position
        if not 0 <= i < len(lines) or i not in body:
            return position
        return i + 1 if step < 0 else i

    def _beside(self, block: int, line_block: int) -> bool:
        """Whether ``block`` lies inside the element holding ``line_block``'s element;
        a wrapper holding no other line than that element's is no container, the
        element around it is (``<div class=lead><p>..</p></div><figure>``)."""
        if line_block < 0:
            return False
        parents, spans = self.parents, self.lines.spans
        holder = parents[line_block]
        while holder >= 0 and spans[holder] == spans[line_block]:
            holder = parents[holder]
        for _ in range(64):
            if block == holder:
                return True
            if block < holder:  # ids are in page order: an ancestor's is smaller
                return False
            block = self.parents[block]
        return False

    def _shift_headings(self) -> None:
        """The page's heading levels, shifted so the body's first level is h2."""
        if not self.headings:
            return
        top = min(int(node.tag[1]) for node in self.headings)
        for node in self.headings:
            node.tag = f"h{min(6, int(node.tag[1]) - top + 2)}"
        for i, shape in self.shapes.items():  # what the lines became: the shifted level
            if shape in HEADING_TAGS:
                self.shapes[i] = f"h{min(6, int(shape[1]) - top + 2)}"


_BLOCK = attrgetter("block")
_SHAPES = {"pre": "code", "tr": "row", "td": "cell", "th": "cell", "figcaption": "caption"}


def _kids(node: Node) -> list[Node | str]:
    return node.children[-1:]  # the wrapper to go on is the last thing written


def _wrapper(top: Node) -> Node:
    """A new element for a line standing in ``top`` outside any element of its own."""
    tag = {"ul": "li", "ol": "li", "dl": "dd", "tr": "td"}.get(top.tag, "p")
    if top.tag in ("table", "thead", "tbody", "tfoot"):
        row = Node("tr")
        top.children.append(row)
        top = row
        tag = "td"
    leaf = Node(tag)
    top.children.append(leaf)
    return leaf


def _spans(element: etree._Element) -> tuple[tuple[str, str], ...]:
    attrs = []
    for key in ("colspan", "rowspan"):
        value = (element.get(key) or "").strip()
        if value.isdigit() and 1 < int(value) <= MAX_SPAN:
            attrs.append((key, str(int(value))))
    return tuple(attrs)


def _img(element: etree._Element, url: str) -> Node:
    attrs = [("src", url)]
    alt = " ".join((element.get("alt") or "").split())
    if alt:
        attrs.append(("alt", alt[:MAX_CAPTION]))
    return Node("img", tuple(attrs))


def _named_away(element: etree._Element) -> bool:
    """Whether a picture sits in an element named as boilerplate even for pictures
    (a share bar, an advert, a related-stories box), a few levels up."""
    for ancestor in islice(element.iterancestors(), MAX_PICTURE_ANCESTORS):
        if ancestor.tag in ("body", "article", "main"):
            return False
        if not_plain(ancestor, PICTURES_BOILERPLATE_WORDS):
            return True
    return False


def is_data_table(table: etree._Element) -> bool:
    """Whether a table holds data, not layout: Mozilla Readability's test (a
    caption, a summary, header cells; a nested table is layout; else its size)."""
    if table.get("role") == "presentation" or table.get("datatable") == "0":
        return False
    if table.get("summary"):
        return True
    rows = columns = 0
    for el in islice(table.iterdescendants(), MAX_TABLE_SCAN):
        tag = el.tag
        if tag in ("caption", "col", "colgroup", "tfoot", "thead", "th"):
            if tag != "caption" or (el.text or "").strip() or len(el):
                return True
        elif tag == "table":
            return False
        elif tag == "tr":
            rows += 1
            columns = max(columns, sum(1 for cell in el if cell.tag in ("td", "th")))
    return rows >= 10 or columns > 4 or rows * columns > 10


def _images(pictures: list[tuple[Node, etree._Element]], lead: str | None) -> tuple[Image, ...]:
    """The body's pictures in order, each once, the lead image first if it is one."""
    seen: set[str] = set()
    images: list[Image] = []
    for node, element in pictures:
        url = node.get("src")
        if url is None or url in seen:
            continue
        seen.add(url)
        images.append(Image(url, node.get("alt"), _caption(element)))
    lead = with_root_path(lead) if lead else None  # (written as the body's are)
    for n, image in enumerate(images):
        if n and image.url == lead:
            images.insert(0, images.pop(n))
            break
    return tuple(images)


def _caption(element: etree._Element) -> str | None:
    """The caption of a picture (see :func:`_caption_element`)."""
    return _text(_caption_element(element))


def _caption_element(element: etree._Element) -> etree._Element | None:
    """The element holding a picture's caption: its figure's ``figcaption``, else the
    element right after it (or after the one or two elements around it) named as
    a caption ("wp-caption-text", "image-caption")."""
    ancestors = list(islice(element.iterancestors(), 3))
    for ancestor in ancestors:
        if ancestor.tag == "figure":
            return next(ancestor.iter("figcaption"), None)
    for node in (element, *ancestors[:2]):
        after = node.getnext()
        if after is not None and isinstance(after.tag, str):
            if after.tag == "figcaption" or "caption" in name_parts(after.get("class") or ""):
                return after
    return None


def _text(element: etree._Element | None) -> str | None:
    if element is None:
        return None
    return " ".join("".join(islice(element.itertext(), 200)).split())[:MAX_CAPTION] or None
