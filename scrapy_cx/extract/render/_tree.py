"""The structured body as a small tree, and that tree as HTML.

The body's HTML and its Markdown (markdown.py) are both written from this one
tree, never one from the other, so neither inherits the other's escaping.
Text leaves are plain ``str`` (whitespace already squeezed, except in ``pre``);
attributes are already checked (absolute http(s) URLs, whole numbers).
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["JOINED_TAGS", "Node", "text_of", "to_html"]

VOID_TAGS = frozenset(("img", "br", "hr", "meta"))
# Inline elements that are one when side by side: "<em>b</em><em>y</em>" is one
# emphasised word (a link is not: two addresses).
JOINED_TAGS = frozenset(("em", "strong", "code", "sub", "sup"))
# Elements on lines of their own (outside <pre>): the HTML reads as lines, and the
# text of a table row, of lines a <br> apart or of an item over its nested list
# keeps a space between its parts.
BREAK_AFTER = frozenset(
    """p h1 h2 h3 h4 h5 h6 ul ol li dl dt dd blockquote figure figcaption table thead
    tbody tfoot tr td th caption pre br hr article meta""".split()
)


class Node:
    """One element of the body: a tag, its (already safe) attributes, its children."""

    __slots__ = ("attrs", "children", "tag")

    def __init__(
        self,
        tag: str,
        attrs: tuple[tuple[str, str], ...] = (),
        children: list[Node | str] | None = None,
    ) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[Node | str] = [] if children is None else children

    def get(self, name: str) -> str | None:
        for key, value in self.attrs:
            if key == name:
                return value
        return None

    def iter(self, tag: str) -> Iterator[Node]:
        """This node and its descendants named ``tag``, in document order."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            if node.tag == tag:
                yield node
            stack.extend(child for child in reversed(node.children) if isinstance(child, Node))

    def __repr__(self) -> str:  # for tests and debugging
        return f"<Node {self.tag} {len(self.children)}>"


def text_of(node: Node | str) -> str:
    """The text of a node, ``br`` read as a newline."""
    if isinstance(node, str):
        return node
    if node.tag == "br":
        return "\n"
    return "".join(text_of(child) for child in node.children)


def to_html(root: Node) -> str:
    """``root``'s children as HTML: every text and attribute escaped, void elements
    unclosed, nothing else written (the tree holds no unsafe tag or attribute)."""
    out: list[str] = []
    for child in root.children:
        _write(child, out, False)
    return "".join(out)


def _escape(text: str, attribute: bool = False) -> str:
    """``text`` with ``& < >`` (and in an attribute ``"``) as character references.
    (str.replace, in C, five times faster here than str.translate's per-character dict.)"""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if attribute else text


def _write(node: Node | str, out: list[str], pre: bool) -> None:
    if isinstance(node, str):
        out.append(_escape(node))
        return
    tag = node.tag
    attrs = (
        "".join(f' {key}="{_escape(value, True)}"' for key, value in node.attrs)
        if node.attrs
        else ""
    )
    if not pre and tag in BREAK_AFTER and out and not out[-1].endswith("\n"):
        out.append("\n")  # a block after text ("<li>item<ul>"): on a line of its own
    out.append(f"<{tag}{attrs}>")
    if tag not in VOID_TAGS:
        inside = pre or tag == "pre"
        for child in node.children:
            _write(child, out, inside)
        out.append(f"</{tag}>")
    if not pre and tag in BREAK_AFTER:
        out.append("\n")
