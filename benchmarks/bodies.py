"""What a body's HTML and Markdown are turned into and checked for (no I/O, no extractor).

The structure benchmark scores Markdown as the HTML a CommonMark parser with
GFM tables makes of it (the bench README's rule), and ``--agree`` holds cx's
``content_html`` to its promises: the same text as ``content`` (and the captions
of figures that ``content`` leaves out), and nothing a browser would run or style.
"""

from __future__ import annotations

from typing import Any

FORBIDDEN_TAGS = frozenset({"script", "style", "iframe", "form", "object", "embed"})
FORBIDDEN_ATTRIBUTES = frozenset({"class", "style", "id"})
URL_ATTRIBUTES = ("href", "src")


def markdown_html(markdown: str | None) -> str | None:
    """``markdown`` rendered by markdown-it (CommonMark + GFM tables); None stays None."""
    if markdown is None:
        return None
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(markdown)


def collapse(text: str | None) -> str:
    """Whitespace runs as one space, none at the ends."""
    return " ".join((text or "").split())


def _root(html: str) -> Any:
    """The parsed document; ValueError when lxml finds no element at all."""
    import lxml.html
    from lxml.etree import ParserError

    try:
        return lxml.html.document_fromstring(html)
    except ParserError as exc:
        raise ValueError(str(exc)) from exc


def html_text(html: str | None, text: str | None = None) -> str:
    """The text of ``html`` as ``itertext`` gives it, whitespace collapsed ("" for none).

    With ``text``, less each ``figcaption`` whose text ``text`` does not hold: the
    body's HTML keeps a figure's caption that ``content`` leaves out (issue 39).
    """
    if not html or not html.strip():
        return ""
    root = _root(html)
    body = root.find("body")
    top = body if body is not None else root
    if text is not None:
        for caption in _extra_captions(top, "".join(text.split())):
            caption.drop_tree()
    return collapse("".join(top.itertext()))


def _extra_captions(top: Any, text: str) -> list[Any]:
    """The figcaptions of ``top`` that ``text`` (without whitespace) does not hold where
    they stand: the pieces of text matched in order, each caption kept if it matches
    and dropped again where the text after it then fails (a caption "Neil Patrick
    Harris" above a heading of that name). A real disagreement leaves the rest kept."""
    pieces = _pieces(top)
    dropped: set[int] = set()
    kept: list[tuple[int, int]] = []  # (piece, position in text) of each caption kept
    failed: set[tuple[int, int]] = set()
    i = pos = 0
    while i < len(pieces):
        piece, caption = pieces[i]
        if caption is not None and i in dropped:
            i += 1
        elif (i, pos) not in failed and text.startswith(piece, pos):
            if caption is not None:
                kept.append((i, pos))
            i, pos = i + 1, pos + len(piece)
        elif caption is not None:
            dropped.add(i)
            i += 1
        else:
            failed.add((i, pos))
            if not kept:
                break
            i, pos = kept.pop()
            dropped = {k for k in dropped if k < i} | {i}
    return [pieces[k][1] for k in sorted(dropped)]


def _pieces(top: Any) -> list[tuple[str, Any]]:
    """The text of ``top`` in document order, without whitespace: each piece with its
    figcaption (a whole caption one piece), or None."""
    pieces: list[tuple[str, Any]] = []
    stack: list[tuple[Any, bool]] = [(top, False)]  # (element or text, whether a text)
    while stack:
        node, is_text = stack.pop()
        if is_text:
            pieces.append(("".join(node.split()), None))
            continue
        if node.tag == "figcaption":
            pieces.append(("".join(node.text_content().split()), node))
            continue
        for child in reversed([child for child in node if isinstance(child.tag, str)]):
            if child.tail:
                stack.append((child.tail, True))
            stack.append((child, False))
        if node.text:
            stack.append((node.text, True))
    return pieces


def _context(text: str, at: int, width: int) -> str:
    return repr(text[max(0, at - width) : at + width])


def text_difference(html: str | None, text: str | None, width: int = 40) -> str | None:
    """None when the text of ``html`` equals ``text`` (whitespace collapsed), else where
    they part: ``@offset html '...' text '...'`` around the first differing character."""
    ours, theirs = html_text(html, text), collapse(text)
    if ours == theirs:
        return None
    at = 0
    for a, b in zip(ours, theirs, strict=False):
        if a != b:
            break
        at += 1
    return f"@{at} html {_context(ours, at, width)} text {_context(theirs, at, width)}"


def words_apart(html: str | None, text: str | None) -> int:
    """How many words of the two texts do not line up (0: they agree word for word).

    Ranks ``--agree`` failures: a glued word is 2, a lost paragraph its length.
    """
    from difflib import SequenceMatcher

    ours, theirs = html_text(html, text).split(), collapse(text).split()
    matcher = SequenceMatcher(None, ours, theirs, autojunk=False)
    same = sum(block.size for block in matcher.get_matching_blocks())
    return len(ours) + len(theirs) - 2 * same


def unsafe_parts(html: str | None) -> list[str]:
    """What ``html`` holds that it must not: a forbidden element or attribute, an
    event handler, an href/src that is not an absolute http(s) address."""
    if not html or not html.strip():
        return []
    found = []
    for element in _root(html).iter():
        if not isinstance(element.tag, str):
            continue
        tag = element.tag.lower()
        if tag in FORBIDDEN_TAGS:
            found.append(f"<{tag}>")
        for name, value in element.attrib.items():
            name = name.lower()
            if name.startswith("on") or name in FORBIDDEN_ATTRIBUTES:
                found.append(f"{tag}[{name}]")
            elif name in URL_ATTRIBUTES and not value.startswith(("http://", "https://")):
                found.append(f"{tag}[{name}={value[:40]!r}]")
    return found
