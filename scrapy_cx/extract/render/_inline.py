"""A block element's text runs again, with their inline markup: links, emphasis,
code, sub/superscripts and pictures.

The walk (lines.py) cuts a page's text into lines, one per run of inline
content between block boundaries, and keeps only the text. The structured body
needs the markup of the few runs selected, so the block elements holding them
are read again here, once each, the way the walk read them: the same elements
skipped (scripts, hidden inline elements), the same cuts at every block
element, the same squeezing of whitespace. A run whose text still differs from
its line (a line cut at ``lines.MAX_LINE_CHARS``) is written as the line's
plain text by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from .._urls import http_url, with_root_path
from ..fields.image import is_lead_candidate
from ..parse.lines import BLOCK_TAGS, hidden_inline, without_controls
from ._tree import JOINED_TAGS, Node, text_of

__all__ = ["MARKUP_TAGS", "Run", "Runs", "link_url", "picture_url", "read_runs"]

# Inline elements kept, as what they become; every other inline element gives
# its text only (span, font, abbr, time...).
INLINE_TAGS = {
    "a": "a",
    "em": "em",
    "i": "em",
    "cite": "em",
    "strong": "strong",
    "b": "strong",
    "code": "code",
    "kbd": "code",
    "samp": "code",
    "tt": "code",
    "sub": "sub",
    "sup": "sup",
}
# What read_runs makes more of than text: without one of these inside, a block
# element's runs are its lines' texts.
MARKUP_TAGS = frozenset(INLINE_TAGS) | {"img"}
# Inline elements nested deeper than this give their text only: no reader
# needs emphasis inside a link inside emphasis sixteen times over, and the
# writers recurse.
MAX_INLINE_DEPTH = 16
# Kept elements that mean nothing more inside themselves (Markdown cannot even say it).
UNNESTED = frozenset(("a", "code", "em", "strong"))
# Characters of a srcset read (a real one is a few hundred; the rest of a
# 50 MB one is not looked at) and of a picture's address kept.
MAX_SRCSET = 10_000
MAX_URL = 2_000
# Lazy-loading scripts keep the real address here, and a placeholder in src.
LAZY_ATTRIBUTES = ("data-src", "data-original", "data-lazy-src", "data-url", "data-hi-res-src")
_PLACEHOLDER = re.compile(r"^data:|spacer|blank\.|transparent|placeholder|1x1|pixel|loading", re.I)
_WIDTH = re.compile(r"^\s*(\d+(?:\.\d+)?)([wx])\s*$")
_ADDRESS = re.compile(r"[\s,]*(\S+)")
_DESCRIPTOR = re.compile(r"([^,]*),?")
# What no address holds: JSON a lazy loader keeps in data-src ('{"default": ...}'),
# spaces, quotes, angle brackets.
_NOT_ADDRESS = re.compile(r"^\s*[{\[]|[\s\"'<>{}]")


@dataclass(slots=True)
class Run:
    """One run of inline content: its nodes and the pictures among them."""

    nodes: list[Node | str] = field(default_factory=list)
    pictures: list[tuple[Node, etree._Element]] = field(default_factory=list)
    text: str = ""  # its text, squeezed as the walk squeezes a line's


@dataclass(slots=True)
class Runs:
    """A block element read again: its runs with text, one per line of the walk (a
    picture alone in its element is in none: PageLines.images knows where it is)."""

    runs: list[Run] = field(default_factory=list)


# A picture this small (both sides given, pixels) is an icon; one this thin a pixel.
MAX_ICON = 24
MAX_PIXEL = 2
_SIDE = re.compile(r"\s*(\d+)")


def picture_url(el: etree._Element, base: str | None) -> str | None:
    """The address of an ``<img>``'s picture: the lazy-loading attribute's, else a
    ``src`` that is no placeholder, else the largest ``srcset`` candidate;
    absolute http(s), or None. None too for what is no picture of the article:
    an icon, a logo, a share button, a spacer or tracking pixel (by its size, or
    by its name as for the lead image: image.is_lead_candidate)."""
    width, height = _side(el.get("width")), _side(el.get("height"))
    if 0 < min(width or MAX_ICON, height or MAX_ICON) <= MAX_PIXEL or (
        width is not None and height is not None and max(width, height) < MAX_ICON
    ):
        return None
    candidates = _addresses(el)
    if not any(candidates) and el.getparent() is not None and el.getparent().tag != "noscript":
        fallback = _noscript_picture(el)
        if fallback is not None:
            return picture_url(fallback, base)
    if _placeholder(el):
        return None
    for candidate in candidates:
        if candidate and len(candidate) <= MAX_URL and _NOT_ADDRESS.search(candidate) is None:
            url = http_url(base, candidate)
            if url is not None:
                return with_root_path(url) if is_lead_candidate(url) else None
    return None


def link_url(el: etree._Element, base: str | None) -> str | None:
    """The address an ``<a>`` leads to: absolute http(s), or None (no ``href``,
    ``javascript:``, ``mailto:``...)."""
    href = el.get("href")
    url = http_url(base, href) if href and len(href) <= MAX_URL else None
    return with_root_path(url) if url is not None else None


def _addresses(el: etree._Element) -> list[str | None]:
    """Where an ``<img>`` may have its picture, best first."""
    candidates = [el.get(key) for key in LAZY_ATTRIBUTES]
    src = el.get("src")
    if src and not _PLACEHOLDER.search(src[:200]):
        candidates.append(src)
    # The lazy loader's srcset first: srcset may hold its placeholder.
    candidates.append(_largest(el.get("data-srcset") or "") or _largest(el.get("srcset") or ""))
    return candidates


def _placeholder(el: etree._Element) -> bool:
    """Whether a picture is the low-quality stand-in of the one after it: the one
    after it (or after the element it stands alone in) has no address yet, and a
    ``<noscript>`` holding the real picture follows (a lazy loader's pattern)."""
    parent = el.getparent()
    alone = el.getnext() is None and el.getprevious() is None and parent is not None
    after = (parent if alone and parent is not None else el).getnext()
    if after is None or after.tag != "img" or any(_addresses(after)):
        return False
    beyond = after.getnext()
    if beyond is None or beyond.tag != "noscript":
        return False
    return next(beyond.iter("img"), None) is not None


def _noscript_picture(el: etree._Element) -> etree._Element | None:
    """The ``<img>`` of the ``<noscript>`` right after a lazy picture with no address
    yet (or after its parent): what the page shows readers without scripts (the
    walk reads no noscript)."""
    parent = el.getparent()
    for beside in (el.getnext(), parent.getnext() if parent is not None else None):
        if beside is not None and beside.tag == "noscript":
            return next(beside.iter("img"), None)
    return None


def _side(value: str | None) -> int | None:
    found = _SIDE.match(value) if value else None
    return int(found.group(1)) if found else None


def _largest(srcset: str) -> str | None:
    """The largest candidate of a ``srcset`` (by its ``w`` or ``x`` descriptor). A
    candidate's address runs to the next space and may hold commas (image CDNs
    write "c_fill,w_470"); a comma after it, or after its descriptor, ends it."""
    best, best_size = None, -1.0
    text, at = srcset[:MAX_SRCSET], 0
    while True:
        found = _ADDRESS.match(text, at)
        if found is None:
            return best
        url, at = found.group(1), found.end()
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            described = _DESCRIPTOR.match(text, at)
            assert described is not None  # (it matches the empty string)
            descriptor, at = described.group(1), described.end()
        width = _WIDTH.match(descriptor)
        size = float(width.group(1)) if width else 1.0 if not descriptor.strip() else 0.0
        if url and size > best_size and url[:5].lower() != "data:":  # no placeholder
            best, best_size = url, size


def read_runs(
    el: etree._Element,
    skipped: frozenset[object],
    base: str | None,
    *,
    whole: bool = False,
    pre: bool = False,
) -> Runs:
    """Read block element ``el`` again: its runs, cut where the walk cut them.

    ``whole``: read the block elements inside too, each a cut (a table row or
    cell the walk made one line of); else they are skipped (they have lines of
    their own). ``pre``: keep the whitespace as written. ``skipped``: the tags
    the walk did not read (lines.PageLines.skipped).
    """
    reader = _Reader(base, pre)
    walker = etree.iterwalk(el, events=("start", "end"))
    marks: list[int] = []  # per open element: 0 other, 1 inline kept, 2 block, 3 skipped
    for event, child in walker:
        if event == "start":
            if child is el:
                text = child.text
            else:
                tag = child.tag
                if tag in skipped:
                    walker.skip_subtree()
                    marks.append(3)
                    continue
                if tag in BLOCK_TAGS:
                    reader.cut()
                    marks.append(2)
                    if not whole:
                        walker.skip_subtree()
                        continue
                elif hidden_inline(child):
                    walker.skip_subtree()
                    marks.append(3)
                    continue
                else:
                    marks.append(reader.open(child))
                text = child.text
        else:
            if child is el:
                break
            mark = marks.pop()
            if mark == 1:
                reader.close()
            elif mark == 2:
                reader.cut()
            text = child.tail
        if text:
            reader.add(text)
    reader.cut()
    return reader.out


class _Reader:
    """The runs being read: the open inline nodes, reopened after every cut."""

    def __init__(self, base: str | None, pre: bool) -> None:
        self.base, self.pre = base, pre
        self.out = Runs()
        self.run = Run()
        self.open_nodes: list[Node] = []  # the kept inline elements open, outermost first
        self.depth = 0

    def _parent(self) -> list[Node | str]:
        return self.open_nodes[-1].children if self.open_nodes else self.run.nodes

    def add(self, text: str) -> None:
        self._parent().append(without_controls(text))

    def open(self, el: etree._Element) -> int:
        """An inline element starts: kept as a node, or read for its text only."""
        tag = el.tag
        if tag == "img":
            url = picture_url(el, self.base)
            if url is not None:
                attrs = [("src", url)]
                alt = " ".join((el.get("alt") or "").split())
                if alt:
                    attrs.append(("alt", alt[:500]))
                node = Node("img", tuple(attrs))
                self._parent().append(node)
                self.run.pictures.append((node, el))
            return 0
        name = INLINE_TAGS.get(tag) if isinstance(tag, str) else None
        if name is None or self.depth >= MAX_INLINE_DEPTH:
            return 0
        if name in UNNESTED and any(node.tag == name for node in self.open_nodes):
            # A link in a link (the parser keeps it; a browser would not), code in
            # code, emphasis in the same emphasis: one element, the inner one's text.
            return 0
        attrs_: tuple[tuple[str, str], ...] = ()
        if name == "a":
            url = link_url(el, self.base)
            if url is None:
                return 0  # no address, javascript:, mailto:...: the text stays
            attrs_ = (("href", url),)
        node = Node(name, attrs_)
        self._parent().append(node)
        self.open_nodes.append(node)
        self.depth += 1
        return 1

    def close(self) -> None:
        self.open_nodes.pop()
        self.depth -= 1

    def cut(self) -> None:
        """A block boundary: the run ends; the inline elements open go on in the next."""
        run = self.run
        if self.pre:
            _prune(run.nodes)
            run.text = " ".join("".join(map(text_of, run.nodes)).split())
        else:
            run.text = _squeeze(run.nodes)
        if run.text:
            self.out.runs.append(run)
        self.run = Run()
        reopened: list[Node] = []
        for node in self.open_nodes:
            copy = Node(node.tag, node.attrs)
            (reopened[-1].children if reopened else self.run.nodes).append(copy)
            reopened.append(copy)
        self.open_nodes = reopened


def _squeeze(nodes: list[Node | str]) -> str:
    """Squeeze the whitespace of a run's texts in place, as the walk squeezes a
    line's (every run of spaces one space, none at the ends), and return its text.
    Nodes left without text or picture are dropped."""
    pieces: list[str] = []
    holders: list[tuple[list[Node | str], int]] = []  # where each text sits
    stack: list[tuple[list[Node | str], int]] = [(nodes, 0)]
    space = True  # a space before drops the next leading space
    while stack:
        children, i = stack.pop()
        if i >= len(children):
            continue
        stack.append((children, i + 1))
        child = children[i]
        if isinstance(child, str):
            squeezed = _squeezed(child, space)
            children[i] = squeezed
            if squeezed:
                space = squeezed.endswith(" ")
                pieces.append(squeezed)
                holders.append((children, i))
        else:
            stack.append((child.children, 0))
    if pieces and pieces[-1].endswith(" "):
        children, i = holders[-1]
        pieces[-1] = pieces[-1][:-1]
        children[i] = pieces[-1]
    _prune(nodes)
    return "".join(pieces)


def _squeezed(text: str, space: bool) -> str:
    """``text`` with every run of whitespace one space (str.split's whitespace, as the
    walk's), a leading one dropped after ``space`` (a text that ended in one)."""
    inner = " ".join(text.split())
    if not inner:
        return "" if space or not text else " "
    lead = " " if text[0].isspace() and not space else ""
    return f"{lead}{inner} " if text[-1].isspace() else lead + inner


def _prune(nodes: list[Node | str]) -> bool:
    """Drop empty texts and nodes holding nothing (an ``<a>`` around a skipped
    script), and make emphasis of one kind side by side one ("<i>b</i><em>y</em>":
    one word, and Markdown's "*b**y*" would be strong emphasis); whether anything
    is left."""
    kept: list[Node | str] = []
    for child in nodes:
        if isinstance(child, str):
            if child:
                kept.append(child)
        elif child.tag == "img" or _prune(child.children):
            last = kept[-1] if kept else None
            if (
                child.tag in JOINED_TAGS
                and isinstance(last, Node)
                and last.tag == child.tag
                and last.attrs == child.attrs
            ):
                last.children.extend(child.children)
            else:
                kept.append(child)
    nodes[:] = kept
    return bool(kept)
