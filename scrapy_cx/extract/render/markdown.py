"""The body's tree (structure.py) as CommonMark, with GFM tables.

Written from the same tree as the HTML, not from the HTML: ``##`` headings,
``-`` and ``1.`` lists (nested by indentation), ``>`` quotes, fenced code,
``![alt](src "caption")``, ``[text](href)``, ``*em*``, ``**strong**``. Text is
escaped so that a CommonMark parser reads it back as text (no stray emphasis,
heading or list). A table becomes a GFM table (column spans spread over empty
cells, row spans left empty below, pipes escaped); one whose cells hold more than
a line of text (lists, paragraphs) cannot be one, and is kept as HTML.
"""

from __future__ import annotations

import re
import unicodedata

from ._tree import JOINED_TAGS, Node, text_of, to_html

__all__ = ["to_markdown"]

INLINE = frozenset("a em strong code sub sup img br".split())  # (meta: see _post)
_ESCAPED = re.compile(r"[\\`*_\[\]<>]|&(?=#?\w+;)")
# What opens a block at the start of a line: a heading, quote, list item, rule,
# setext underline, table pipe, or an ordered item's "1." / "1)".
_LINE_START = re.compile(r"^(\s*)([#>+=|~-]|\d{1,9}(?=[.)]))", re.M)
# What a link destination cannot hold as it is: spaces, angle brackets and the ASCII
# controls, percent-encoded (as a browser sends them in any case); parentheses and
# backslashes, backslash-escaped (a browser sends "(" as it is: "%28" would be
# another address to a server that tells them apart; a parser reads the escape back
# as the character).
_URL_ESCAPES = str.maketrans(
    {" ": "%20", "<": "%3C", ">": "%3E", "(": "\\(", ")": "\\)", "\\": "\\\\"}
    | {chr(c): f"%{c:02X}" for c in [*range(0x20), 0x7F]}
)
_BACKTICKS = re.compile(r"`+")


def to_markdown(root: Node) -> str:
    """The Markdown of ``root``'s children, blocks a blank line apart."""
    text = "\n\n".join(_blocks(root.children))
    return text + "\n" if text else ""


def _blocks(children: list[Node | str]) -> list[str]:
    """Block children written one by one; runs of inline children as one paragraph."""
    out: list[str] = []
    inline: list[Node | str] = []
    for child in children:
        if isinstance(child, str) or child.tag in INLINE:
            inline.append(child)
            continue
        if inline:
            out.append(_paragraph(inline))
            inline = []
        out.append(_block(child))
    if inline:
        out.append(_paragraph(inline))
    return [block for block in out if block.strip()]


def _block(node: Node) -> str:
    tag = node.tag
    if tag == "p":
        return _paragraph(node.children)
    if tag in ("dt", "dd", "figcaption", "caption", "td", "th", "tr"):
        return "\n\n".join(_blocks(node.children))  # text, or the blocks HTML lets them hold
    if tag[0] == "h" and tag[1:].isdigit():
        # A heading is one line: its line breaks (a hard break's "\\" too) are spaces.
        text = _inline(node.children).replace("\\\n", " ").replace("\n", " ").strip()
        if text.endswith("#"):
            text = text[:-1] + "\\#"
        return f"{'#' * int(tag[1])} {text}" if text else ""
    if tag in ("ul", "ol"):
        return _list(node)
    if tag == "blockquote":
        inner = "\n\n".join(_blocks(node.children))
        return "\n".join(f"> {line}" if line else ">" for line in inner.split("\n"))
    if tag == "pre":
        if any(True for _ in node.iter("a")):  # its links would be lost in a fence
            return to_html(Node("body", (), [node])).rstrip("\n")
        return _fence(text_of(node))
    if tag == "figure":
        return _figure(node)
    if tag == "table":
        return _table(node)
    if tag == "article":
        return _post(node)
    return "\n\n".join(_blocks(node.children))  # dl, body: their children


def _post(node: Node) -> str:
    """A thread's post: a rule above it, its author and date (its microdata) on a
    line of their own, then its blocks."""
    about = {child.get("itemprop"): child.get("content") for child in _metas(node)}
    head = " · ".join(filter(None, (about.get("author"), about.get("datePublished"))))
    blocks = _blocks([c for c in node.children if isinstance(c, str) or c.tag != "meta"])
    if head:
        blocks.insert(0, "**" + _span(head) + "**")
    return "\n\n".join(["---", *blocks])


def _metas(node: Node) -> list[Node]:
    return [c for c in node.children if isinstance(c, Node) and c.tag == "meta"]


def _paragraph(children: list[Node | str]) -> str:
    text = _inline(children).strip()
    return _LINE_START.sub(_escape_start, text)


def _escape_start(found: re.Match[str]) -> str:
    lead, mark = found.group(1), found.group(2)
    return f"{lead}\\{mark}" if not mark[0].isdigit() else f"{lead}{mark}\\"


def _inline(children: list[Node | str]) -> str:
    return "".join(_span(child) for child in _joined(children))


def _joined(children: list[Node | str]) -> list[Node | str]:
    """``children`` with each run of emphasis of one kind side by side made one
    ("<em>b</em><em>y</em>" is "*by*": "*b**y*" would be strong emphasis). The body's
    tree has none (_inline joins them); a tree from elsewhere may."""
    out: list[Node | str] = []
    for child in children:
        last = out[-1] if out else None
        if (
            isinstance(child, Node)
            and child.tag in JOINED_TAGS
            and isinstance(last, Node)
            and last.tag == child.tag
        ):
            out[-1] = Node(child.tag, (), [*last.children, *child.children])
        else:
            out.append(child)
    return out



def _span(node: Node | str) -> str:
    if isinstance(node, str):
        return _escape(node)
    tag = node.tag
    if tag == "br":
        return "\\\n"
    if tag == "img":
        return _image(node, None)
    if tag == "code":
        return _code_span(text_of(node))
    inner = _inline(node.children)
    if not inner.strip():
        return inner
    if tag == "a":
        return f"[{inner}]({_url(node.get('href') or '')})"
    mark = {"em": "*", "strong": "**"}.get(tag)
    if mark is None:  # sub, sup: CommonMark keeps inline HTML
        return f"<{tag}>{inner}</{tag}>"
    # Emphasis must hug its text: spaces inside move outside.
    stripped = inner.strip()
    left = inner[: len(inner) - len(inner.lstrip())]
    right = inner[len(inner.rstrip()) :]
    core = stripped.strip("*") or "*"  # an emphasis inside joins this one's run of marks
    if _punctuation(core[0]) or _punctuation(core[-1]):
        # "a*.*b" is no emphasis in CommonMark (a mark beside punctuation must have
        # space or punctuation outside it): the inline HTML always is.
        return f"{left}<{tag}>{stripped}</{tag}>{right}"
    return f"{left}{mark}{stripped}{mark}{right}"


def _punctuation(char: str) -> bool:
    """CommonMark's punctuation: Unicode's punctuation and symbols."""
    return unicodedata.category(char)[0] in "PS"


def _escape(text: str) -> str:
    """Text a CommonMark parser reads back as text: its markup characters backslashed
    (and an ``&`` that would start a character reference)."""
    return _ESCAPED.sub(_backslashed, text)


def _backslashed(found: re.Match[str]) -> str:
    # (A function, not the template r"\\\g<0>": re expands a template in Python on
    # every call, matched or not; a function is called only for a match.)
    return "\\" + found.group()


def _url(url: str) -> str:
    return url.translate(_URL_ESCAPES)


def _image(node: Node, caption: str | None) -> str:
    alt = _escape(node.get("alt") or "")
    title = ""
    if caption:
        title = ' "' + " ".join(caption.split()).replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"![{alt}]({_url(node.get('src') or '')}{title})"


def _code_span(text: str) -> str:
    text = text.replace("\n", " ")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}" if text else ""


def _fence(text: str) -> str:
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text.rstrip(chr(10))}\n{fence}"


def _list(node: Node) -> str:
    items = []
    number = 1
    for child in node.children:
        if isinstance(child, str) or child.tag != "li":
            continue
        marker = f"{number}. " if node.tag == "ol" else "- "
        number += 1
        blocks = _blocks(child.children)
        # "text" then a nested list: one tight item, as it was written.
        tight = (
            len(blocks) == 2
            and isinstance(child.children[-1], Node)
            and (child.children[-1].tag in ("ul", "ol"))
        )
        inner = ("\n" if tight else "\n\n").join(blocks)
        pad = " " * len(marker)
        lines = inner.split("\n") if inner else [""]
        items.append(
            "\n".join([marker + lines[0]] + [pad + line if line else "" for line in lines[1:]])
        )
    return "\n".join(items)


def _figure(node: Node) -> str:
    captions = [c for c in node.children if isinstance(c, Node) and c.tag == "figcaption"]
    caption = " ".join(text_of(captions[0]).split()) if captions else None
    out = []
    rest: list[Node | str] = []
    for child in node.children:
        if isinstance(child, Node) and child.tag == "img":
            out.append(_image(child, caption))
        elif isinstance(child, Node) and (picture := _one_image(child)) is not None:
            # A picture in its link: the caption still the picture's title.
            out.append(f"[{_image(picture, caption)}]({_url(child.get('href') or '')})")
        else:
            rest.append(child)
    out.extend(_blocks(rest))
    return "\n\n".join(out)


def _one_image(node: Node) -> Node | None:
    """The picture of a link holding only a picture (structure.py puts a picture
    standing alone in its link), else None."""
    if node.tag != "a" or len(node.children) != 1:
        return None
    child = node.children[0]
    return child if isinstance(child, Node) and child.tag == "img" else None


def _table(node: Node) -> str:
    """A GFM table, or the table's HTML where its cells hold blocks."""
    rows: list[Node] = []
    caption = None
    for child in node.children:
        if isinstance(child, str):
            continue
        if child.tag == "tr":
            rows.append(child)
        elif child.tag == "caption":
            caption = child
        else:  # thead, tbody, tfoot
            rows.extend(r for r in child.children if isinstance(r, Node) and r.tag == "tr")
    grid = _grid(rows)
    if grid is None:
        return to_html(Node("body", (), [node])).replace("\n", "&#10;")
    above = "\n\n".join(_blocks(caption.children)) if caption is not None else ""
    if not grid:
        return above
    width = max(len(row) for row in grid)
    lines = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in grid]
    lines.insert(1, "|" + " --- |" * width)
    table = "\n".join(lines)
    return f"{above}\n\n{table}" if above else table


# Cells of a Markdown table, spans spread: a table of more is kept as HTML (the
# spans of a hostile one would make it quadratic).
MAX_GRID = 50_000


def _grid(rows: list[Node]) -> list[list[str]] | None:
    """The rows' cells as Markdown, spans spread; None where a cell holds a block
    or the spread table passes MAX_GRID cells."""
    grid: list[list[str]] = []
    size = 0
    below: dict[tuple[int, int], bool] = {}  # cells a row span above fills
    for r, row in enumerate(rows):
        cells: list[str] = []
        for cell in row.children:
            if isinstance(cell, str):
                continue
            if any(isinstance(c, Node) and c.tag not in INLINE for c in cell.children):
                return None
            while below.pop((r, len(cells)), False):
                cells.append("")
            # (A line break kept as <br> with a space: a cell is one line, and its text
            # reads "a b", as the HTML's "a<br>\nb" does, not "ab".)
            text = _inline(cell.children).replace("\\\n", " <br>").replace("\n", " ").strip()
            cells.append(text.replace("|", "\\|"))
            span = int(cell.get("colspan") or 1)
            rowspan = min(int(cell.get("rowspan") or 1), len(rows) - r)
            size += span * rowspan
            if size > MAX_GRID:
                return None
            for extra in range(1, rowspan):
                for c in range(len(cells) - 1, len(cells) - 1 + span):
                    below[(r + extra, c)] = True
            cells.extend([""] * (span - 1))
        while below.pop((r, len(cells)), False):
            cells.append("")
        grid.append(cells)
    return grid
