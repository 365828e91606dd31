"""One lxml parse per page, robust to whatever the web sends.

libxml2 gives up in three ways on real pages, each repaired here at a cost
linear in the page size:

* it stops at the first NUL and rejects lone surrogates: both are removed or
  replaced before parsing;
* it stops for good at a nesting depth of about 2048 (``Excessive depth``), so
  a page of 100 000 nested ``<div>`` loses everything after that point: on
  such an error the page is parsed again with the deepest start tags (and
  their end tags) dropped, which keeps every word of text;
* it checks each attribute of a tag against all the ones before it, so a tag
  with 100 000 attributes takes minutes: tags past :data:`MAX_ATTRIBUTES`
  lose the rest of their attributes before parsing;
* a page of 600 000 ``<br>`` lines costs seconds in the line walk even at a
  linear cost: past :data:`MAX_TAGS` tags (several times the most tags of any
  page in the benchmark sets) the rest of the page is not read, not even by
  the parser;
* an unclosed ``<title>`` swallows the rest of the page as its text, as it does
  in a browser: every ``<title>`` left open is closed at the next tag and the
  page parsed again;
* it knows no SVG or MathML, so an unclosed ``<svg>`` or ``<math>`` holds the
  rest of the page (which the text walk skips): HTML that a browser would take
  out of them (``<p>``, ``<div>``, ``<h1>`` ...) is moved after them, as a
  browser's parser does;
* it reads seven of HTML5's void elements (``<embed>``, ``<source>``, ``<track>``,
  ``<wbr>``, ``<keygen>``, ``<bgsound>``, ``<image>``) as containers, so an
  ``<embed>`` held the rest of the page (which the text walk skips, as it skips
  plugins): what they hold is moved after them, as a browser never puts it in
  them, and the depth repair closes them (3 000 ``<wbr>`` in one paragraph
  nest 3 000 deep).

The parser object is per thread: lxml parsers must not be shared across threads.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from lxml import etree

# lxml refuses str input that carries an encoding declaration.
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# A start or end tag. Quoted attribute values may hold "<" and ">" but are
# bounded, and unquoted attributes stop at the next "<", so an unterminated tag
# or quote cannot make the scan quadratic.
_TAG = re.compile(
    r"<(/?)([A-Za-z][A-Za-z0-9:_-]*)((?:[^<>\"']|\"[^\"]{0,2048}\"|'[^']{0,2048}')*)>"
)
_TITLE_OPEN = re.compile(r"<title\b[^<>]*>", re.I)
_VOID = frozenset(
    "area base basefont bgsound br col embed frame hr image img input keygen link meta param "
    "source track wbr".split()
)
# The void elements libxml2 (2.14) nests what follows in.
_CONTAINER_VOIDS = ("embed", "source", "track", "wbr", "keygen", "bgsound", "image")
# Elements whose end tag is often omitted (the parser closes them by itself):
# counting them overstates the depth of ordinary pages, so the first attempt
# skips them; nested tables do nest them, so a second attempt counts them.
_SELF_CLOSING = frozenset(
    "html head body p li dt dd tr td th tbody thead tfoot colgroup option optgroup rb rt rp".split()
)
# Raw-text elements are never dropped: their content would turn into markup.
_RAW = frozenset(
    "script style title textarea xmp noscript noembed noframes iframe plaintext".split()
)
MAX_DEPTH = 1024  # kept start tags; libxml2's own limit is 2048
# Tags kept by the first capping attempt even when too deep.
_SEMANTIC = frozenset(
    """a address article aside blockquote body caption dd details dl dt figcaption figure
    footer form h1 h2 h3 h4 h5 h6 head header hgroup html li main menu nav ol p pre section
    summary table tbody td tfoot th thead time tr ul""".split()
)
# (limit, count_all, keep_semantic) tried in turn while libxml2 still stops early.
_ATTEMPTS = (
    (MAX_DEPTH, False, True),
    (MAX_DEPTH, False, False),
    (MAX_DEPTH, True, False),
    (MAX_DEPTH // 4, True, False),
)
# HTML start tags that end SVG/MathML content in a browser (the HTML standard's
# "breakout" list), and the elements inside which HTML is allowed anyway.
_BREAKOUT = frozenset(
    """b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i
    img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u
    ul var article section main header footer nav aside""".split()
)
_FOREIGN = ("svg", "math")
# What the metadata stage reads (meta.read_meta): with the parse's own repairs'
# <title> and foreign elements, found in one pass over the tree.
META_TAGS = ("title", "meta", "link", "time", "script")
INDEXED_TAGS = (*_FOREIGN, *META_TAGS)
_INTEGRATION = frozenset("foreignobject desc mi mo mn ms mtext annotation-xml".split())
_TAG_START = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:_-]*)")
_SWALLOWING_TITLE = 256  # characters of <title> text that, with markup in them, mean "never closed"
_MARKUP = re.compile(r"</?[A-Za-z]")

# libxml2's duplicate check makes a tag's cost the square of its attribute count;
# real tags have a few dozen. Only tags longer than MAX_TAG_CHARS are counted, so
# ordinary pages pay one regex scan.
MAX_ATTRIBUTES = 256
MAX_TAG_CHARS = 4096
# A start tag with MAX_TAG_CHARS characters free of "<" and ">" (a ">" in a quoted
# value hides a tag from this and from has_crowded_tag: then the crawl's per-page
# deadline is the bound). Quoted values are bounded so that a quote left open cannot make the
# attribute walk quadratic.
_LONG_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9:_-]*)\s[^<>]{" + str(MAX_TAG_CHARS) + "}")
_ATTRIBUTE = re.compile(
    r"""\s*[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]{0,65536}"|'[^']{0,65536}'|[^\s"'<>]*))?"""
)

MAX_TAGS = 100_000
_CUT_CHUNK = 4096  # characters counted at once by tag_cut
# What holds "<" that makes no element: a comment, or a script's or a style's text.
_RAW_TEXT = re.compile(r"<(?:(!--)|(script|style)(?=[\s/>]))", re.IGNORECASE)
_RAW_END = {
    "script": re.compile(r"</script", re.IGNORECASE),
    "style": re.compile(r"</style", re.IGNORECASE),
}

_local = threading.local()


def _parser() -> etree.HTMLParser:
    # lxml.etree's parser, not lxml.html's: lxml.html looks up a Python element
    # class on every element access (a fifth of the line walk's time); nothing
    # here needs HtmlElement's methods.
    parser: etree.HTMLParser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = etree.HTMLParser(
            remove_comments=True,
            remove_pis=True,
            collect_ids=False,
            huge_tree=True,
            default_doctype=False,
            encoding="utf-8",
        )
        _local.parser = parser
    return parser


def clean_text(text: str) -> str:
    """Remove what libxml2 cannot take from str input: an XML declaration, NULs, surrogates."""
    return _clean_chars(_XML_DECL.sub("", text, count=1))


def _clean_chars(text: str) -> str:
    if "\x00" in text:
        text = text.replace("\x00", "")
    if not text.isascii() and _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    return text


def cap_depth(
    text: str, limit: int = MAX_DEPTH, count_all: bool = False, keep_semantic: bool = False
) -> str:
    """Drop start tags nested deeper than ``limit`` (and the matching end tags).

    A plain count of start and end tags, blind to implied end tags (elements
    that often lack one are only counted with ``count_all``); only used once
    libxml2 has refused the page, where losing some structure beats losing the
    text. With ``keep_semantic``, only wrappers (``div``, ``span``, ``font``,
    unknown tags ...) are dropped: deep nesting is nearly always a run of
    wrappers, and the ``nav``, ``h1`` or ``p`` inside it still matter. A void
    element that libxml2 would nest the rest in (``<wbr>``) is closed where it
    opens.
    """
    skip = _VOID | _RAW if count_all else _VOID | _RAW | _SELF_CLOSING
    depth = 0
    dropped: Counter[str] = Counter()
    out: list[str] = []
    pos = 0
    for m in _TAG.finditer(text):
        name = m.group(2).lower()
        if name in _CONTAINER_VOIDS and not m.group(1):
            out.append(text[pos : m.end()])
            out.append(f"</{name}>")
            pos = m.end()
            continue
        if name in skip or m.group(3).endswith("/"):
            continue
        drop = False
        if not m.group(1):
            if depth >= limit and not (keep_semantic and name in _SEMANTIC):
                dropped[name] += 1
                drop = True
            else:
                depth += 1
        elif dropped[name]:
            dropped[name] -= 1
            drop = True
        elif depth:
            depth -= 1
        if drop:
            out.append(text[pos : m.start()])
            pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def has_crowded_tag(data: bytes, limit: int = MAX_ATTRIBUTES) -> bool:
    """Whether some start tag may have more than ``limit`` attributes (cheap, can say yes
    wrongly: :func:`cap_attributes` then decides). C-speed scans between ``>`` signs."""
    find, rfind, size = data.find, data.rfind, len(data)
    pos = 0
    while pos < size:
        last = rfind(b">", pos, pos + MAX_TAG_CHARS + 1)
        if last >= 0:
            # Every stretch between ">" signs up to ``last`` is short: skip them all
            # in one C call instead of one loop turn per tag.
            pos = last + 1
            continue
        end = find(b">", pos)
        if end < 0:
            end = size
        if end - pos > MAX_TAG_CHARS:
            start = rfind(b"<", pos, end)
            if end - start > MAX_TAG_CHARS >= 0 <= start:
                if len(data[start:end].split(None, limit + 1)) > limit:
                    return True
        pos = end + 1
    return False


def tag_cut(text: str, limit: int = MAX_TAGS) -> int | None:
    """Where the page's ``limit``-th tag starts, or None if it has no more (C-speed count).

    What the limit bounds is the tree libxml2 builds, so a ``<`` that makes no element
    is not counted: comments and the text of ``<script>`` and ``<style>`` (a page's
    long script, a ``/*<<<*/`` in its style, 200 000 comments once cut the article
    off). A ``<`` in prose (``a < b``) still counts: an upper bound, found in C.
    """
    if len(text) <= limit or text.count("<") <= limit:  # (no need to count a short page)
        return None
    left, pos = limit, 0
    while True:
        raw = _RAW_TEXT.search(text, pos)
        gap_end = len(text) if raw is None else raw.start()
        count = text.count("<", pos, gap_end)
        if count >= left:
            return _nth_open(text, pos, left)
        left -= count
        if raw is None:
            return None
        if raw.group(1) is None:  # <script or <style: an element, then its text
            if left == 1:
                return raw.start()
            left -= 1
            end = _RAW_END[raw.group(2).lower()].search(text, raw.end())
            if end is None:
                return None  # the rest of the page is its text
            pos = end.start()
        else:  # <!-- ... -->
            close = text.find("-->", raw.end())
            if close < 0:
                return None
            pos = close + 3


def _nth_open(text: str, start: int, n: int) -> int:
    """The position of the ``n``-th ``<`` from ``start`` (there are that many):
    counted a chunk at a time up to the chunk holding it, then found one by one."""
    while (count := text.count("<", start, start + _CUT_CHUNK)) < n:
        n -= count
        start += _CUT_CHUNK
    pos = start - 1
    for _ in range(n):
        pos = text.find("<", pos + 1)
    return pos


def cap_attributes(text: str, limit: int = MAX_ATTRIBUTES) -> str:
    """Drop the attributes of each start tag past the first ``limit``: linear in the page.

    Returns ``text`` itself when no tag has that many.
    """
    out: list[str] = []
    done = 0  # text[:done] is in out
    pos = 0
    while (tag := _find_long_tag(text, pos)) is not None:
        pos = tag.end(1)
        count = 0
        kept = pos
        while (attribute := _ATTRIBUTE.match(text, pos)) is not None and attribute.end() > pos:
            pos = attribute.end()
            count += 1
            if count == limit:
                kept = pos
        if count > limit:
            out.append(text[done:kept])  # the page up to the tag's last kept attribute
            done = pos
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


# A _LONG_TAG match holds, after its "<", a name, a space and MAX_TAG_CHARS more
# characters: at least this many, none of them "<" or ">".
_LONG_TAG_GAP = MAX_TAG_CHARS + 2


def _find_long_tag(text: str, pos: int) -> re.Match[str] | None:
    """``_LONG_TAG.search(text, pos)``, without trying every tag.

    The regex search tries every tag of the page: a full page's cost, and
    pages with a long script, attribute or path ask for it. Only a "<"
    followed by _LONG_TAG_GAP characters free of "<" and ">" can start a
    match; windows of that size, two C scans each, find them in order.
    """
    size, window, rfind = len(text), _LONG_TAG_GAP, text.rfind
    opened = False  # text[pos - 1] is a "<" at or after the start
    while pos < size:
        end = pos + window
        last = max(rfind("<", pos, end), rfind(">", pos, end))
        if last >= 0:  # the delimiters before it are followed by one too soon
            opened = text[last] == "<"
            pos = last + 1
            continue
        if opened and (tag := _LONG_TAG.match(text, pos - 1)) is not None:
            return tag
        opened = False
        pos = end
    return None


def _close_title(text: str) -> str | None:
    """Close every ``<title>`` at the next tag when that tag is not its ``</title>``.

    None if no title was left open. Each scan stops at the next tag, and the
    stretches scanned do not overlap, so this is linear however many titles
    there are (100 000 unclosed ones included).
    """
    out: list[str] = []
    pos = 0
    for m in _TITLE_OPEN.finditer(text):
        tag = _TAG_START.search(text, m.end())
        if tag is None:
            break
        if tag.group(1) and tag.group(2).lower() == "title":
            continue  # closed where it should be
        out.append(text[pos : tag.start()])
        out.append("</title>")
        pos = tag.start()
    if not out:
        return None
    out.append(text[pos:])
    return "".join(out)


def _break_out_of_foreign(foreigns: list[etree._Element]) -> bool:
    """Move HTML that an unclosed ``<svg>``/``<math>`` swallowed to after it.

    libxml2 nests the rest of the page inside them; a browser leaves foreign
    content at the first HTML-only start tag. The first such element, with
    what follows it up to the foreign element, is moved out in order. Each
    foreign element is walked once up to that point (integration points such
    as ``<foreignObject>`` are not entered), so the cost is linear.
    ``foreigns``: the page's ``<svg>`` and ``<math>`` elements, in document order.
    Returns whether anything moved.
    """
    moved_any = False
    for foreign in foreigns:
        first = _first_breakout(foreign)
        if first is None:
            continue
        moved_any = True
        moved = [first, *first.itersiblings()]
        node = first.getparent()
        while node is not None and node is not foreign:
            if node.tail:  # text after the closed ancestor comes after what is moved so far
                moved[-1].tail = (moved[-1].tail or "") + node.tail
                node.tail = None
            moved.extend(node.itersiblings())
            node = node.getparent()
        anchor = foreign
        for element in moved:
            anchor.addnext(element)
            anchor = element
    return moved_any


def _first_breakout(foreign: etree._Element) -> etree._Element | None:
    if not any(el.tag in _BREAKOUT for el in foreign.iterdescendants()):
        return None  # the common case (icons): no HTML inside, no stack to keep
    stack = list(reversed(foreign))
    while stack:
        element = stack.pop()
        tag = element.tag
        if not isinstance(tag, str):
            continue
        if tag in _BREAKOUT:
            return element
        if tag not in _INTEGRATION:
            stack.extend(reversed(element))
    return None


def _utf8(text: str) -> bytes | None:
    """``text`` as UTF-8, or None if it holds a NUL or a lone surrogate.

    libxml2 reads UTF-8 bytes faster than a str (which it gets as UTF-16 or
    UCS-4), and encoding finds surrogates faster than a regex search.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return None if b"\x00" in data else data


def _parse(text: str, data: bytes | None = None) -> tuple[etree._Element | None, bool]:
    """``(root or None, whether libxml2 stopped early on a fatal error)``.

    ``text`` must be clean (see :func:`clean_text`); ``data`` is its UTF-8 if known.
    """
    parser = _parser()
    try:
        root = etree.fromstring(text.encode("utf-8") if data is None else data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None, False
    if root is None:
        return None, False
    # Filtered in C: a page's log can hold thousands of recoverable errors.
    fatal = bool(parser.error_log.filter_from_level(etree.ErrorLevels.FATAL))
    return root, fatal


def _empty() -> etree._Element:
    return etree.Element("html")


def _swallowing_title(titles: Iterable[etree._Element]) -> bool:
    """Whether any ``<title>`` (the head's or a stray one in the body) holds the page's markup."""
    for title in titles:
        text = title.text
        if text is not None and len(text) > _SWALLOWING_TITLE and _MARKUP.search(text):
            return True
    return False


def parse_html(text: str, utf8: bytes | None = None) -> etree._Element:
    """Parse ``text`` into an ``<html>`` root; an empty or unparsable page gives an empty root.

    ``utf8``, if given, must be ``text`` encoded in UTF-8 (the page's own bytes,
    see :func:`..decode.decode_page`): it saves encoding the text again.
    """
    return parse_document(text, utf8)[0]


class Parsed(NamedTuple):
    """A parsed page: its tree and what the parse saw, so that stages need not walk
    the tree again for it."""

    root: etree._Element
    elements: list[etree._Element]  # the INDEXED_TAGS elements, in document order
    markup: str | bytes  # what ``root`` was parsed from, after the repairs
    # Read only in part: past MAX_TAGS tags, or a tag's attributes past MAX_ATTRIBUTES.
    truncated: bool = False


def _cap_crowded(text: str, data: bytes) -> tuple[str, bytes, bool]:
    """``(text, its UTF-8, whether attributes were dropped)``: :func:`cap_attributes`
    where :func:`has_crowded_tag` says it may be needed."""
    if has_crowded_tag(data):
        capped = cap_attributes(text)
        if capped is not text:
            return capped, capped.encode("utf-8"), True
    return text, data, False


def _parse_head(text: str, cut: int) -> tuple[etree._Element, str, bytes] | None:
    """A page past :data:`MAX_TAGS` tags (``tag_cut`` gave ``cut``) is read up to
    there: ``(root, text, UTF-8)`` of its head, parsed alone (a parse of the whole
    page would be thrown away).

    None for a head too deep for libxml2: the depth repair drops tags, which moves
    the cut, so such a page is repaired whole first.
    """
    head = text[:cut]
    head, data, _ = _cap_crowded(head, head.encode("utf-8"))
    root, fatal = _parse(head, data)
    return None if root is None or fatal else (root, head, data)


def parse_document(text: str, utf8: bytes | None = None) -> Parsed:
    """:func:`parse_html`, with the root's :data:`INDEXED_TAGS` elements and its markup.

    The repairs need the ``<title>``, ``<svg>`` and ``<math>`` elements and the
    metadata stage the head's: one pass over the tree (in C) serves them all,
    where each used to walk the whole tree again.
    """
    if _XML_DECL.match(text):
        text = _XML_DECL.sub("", text, count=1)
        utf8 = None
    data = utf8 if utf8 is not None and b"\x00" not in utf8 else _utf8(text)
    if data is None:
        text = _clean_chars(text)
        data = text.encode("utf-8")
    if not text or text.isspace():
        return Parsed(_empty(), [], "")
    cut = tag_cut(text)
    head = _parse_head(text, cut) if cut is not None else None
    root: etree._Element | None
    if head is not None:
        root, text, data = head
        fatal, truncated = False, True
    else:
        text, data, truncated = _cap_crowded(text, data)
        root, fatal = _parse(text, data)
    markup: str | bytes = data
    original = text
    for limit, count_all, keep_semantic in _ATTEMPTS:
        if not fatal:
            break
        capped = cap_depth(original, limit, count_all, keep_semantic)
        if capped is original:
            continue
        retry, fatal = _parse(capped)
        if retry is not None:
            root, text = retry, capped
            markup = capped
    if cut is not None and head is None and root is not None:
        # Too deep to parse its head alone: cut after the depth repair (which
        # removes tags of its own).
        cut = tag_cut(text)
        if cut is not None:
            text = text[:cut]
            retry, _ = _parse(text)
            if retry is not None:
                root, markup, truncated = retry, text, True
    if root is None:
        return Parsed(_empty(), [], "")
    elements = list(root.iter(*INDEXED_TAGS))
    if _swallowing_title(el for el in elements if el.tag == "title"):
        closed = _close_title(text)
        retry = _parse(closed)[0] if closed is not None else None
        if retry is not None and closed is not None:
            root, markup = retry, closed
            elements = list(root.iter(*INDEXED_TAGS))
    foreigns = [el for el in elements if el.tag in _FOREIGN]
    moved = _empty_voids(root)
    if _break_out_of_foreign(foreigns) | _lift_foreign_objects(foreigns) | moved:
        elements = list(root.iter(*INDEXED_TAGS))  # in the new document order
    return Parsed(root, elements, markup, truncated)


def _empty_voids(root: etree._Element) -> bool:
    """Move what libxml2 nested in a void element (:data:`_CONTAINER_VOIDS`) to right
    after it, where a browser's parser leaves it. Whether anything moved.

    Linear: voids are emptied in document order, so what leaves one is never
    inside a void still to come, and each node moves at most once.
    """
    moved = False
    for void in list(root.iter(*_CONTAINER_VOIDS)):
        children = list(void)
        if not children and not void.text:
            continue
        moved = True
        if children:
            last = children[-1]
            _set_tail(last, (last.tail or "") + (void.tail or ""))
            _set_tail(void, void.text or "")
        else:
            _set_tail(void, (void.text or "") + (void.tail or ""))
        void.text = None
        anchor = void
        for child in children:
            anchor.addnext(child)  # (its tail moves with it)
            anchor = child
    return moved


# What lxml refuses to set as text, though libxml2's parser kept it from the page.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _set_tail(element: etree._Element, text: str) -> None:
    try:
        element.tail = text or None
    except ValueError:  # control characters: invisible, dropped
        element.tail = _NOT_XML.sub("", text) or None


def _lift_foreign_objects(foreigns: list[etree._Element]) -> bool:
    """Move the HTML inside each ``<svg>``'s ``<foreignObject>`` out, into a ``<div>``
    right after the ``<svg>``: the walk skips a picture's drawing, but a browser
    shows that HTML as text of the page (a diagram's labels, a chart's legend).
    Whether anything moved. Linear: each ``<svg>`` is searched once."""
    moved = False
    for svg in foreigns:
        if svg.tag != "svg" or svg.getparent() is None:
            continue
        objects = [el for el in svg.iter("foreignobject") if len(el) or (el.text or "").strip()]
        if not objects:
            continue
        lifted = etree.Element("div")
        for holder in objects:
            if holder.text and holder.text.strip():
                lifted.append(etree.Element("p"))
                lifted[-1].text = holder.text
            lifted.extend(list(holder))  # (a child's tail moves with it)
        lifted.tail, svg.tail = svg.tail, None
        svg.addnext(lifted)
        moved = True
    return moved


def may_name(markup: str | bytes, names: tuple[str, ...]) -> bool:
    """Whether an element parsed from ``markup`` may have an attribute whose name holds
    one of ``names`` (lower-case ASCII).

    False is certain: libxml2 lower-cases attribute names (ASCII letters only),
    and names, unlike values, hold no character references, so a name is in the
    markup as written. A scan of the markup (in C) costs a fraction of an XPath
    pass over every attribute of the tree.
    """
    lowered = markup.lower()
    if isinstance(lowered, bytes):
        return any(name.encode() in lowered for name in names)
    return any(name in lowered for name in names)


# A character reference that a parser reads as an ASCII letter (decimal 65-90 or
# 97-122, hex 41-5a or 61-7a, leading zeros allowed), and HTML5's one named
# reference that expands to ASCII letters (&fjlig; is "fj").
_LETTER_REFERENCE = re.compile(
    r"&#(?:0*(?:6[5-9]|[7-8]\d|9[07-9]|1[01]\d|12[0-2])(?!\d)"
    r"|x0*(?:[46][1-9a-f]|[57][0-9a])(?![0-9a-f]))|&fjlig",
    re.I,
)


def may_hold(markup: str | bytes, words: tuple[str, ...]) -> bool:
    """Whether an attribute value (or text) parsed from ``markup`` may hold one of
    ``words`` (ASCII, matched case-sensitively, as XPath's ``contains`` does).

    False is certain: a parsed value holds the word as written in the markup,
    unless character references spell some of its letters. A scan of the
    markup (in C) costs a fraction of an XPath pass over every attribute.
    """
    if isinstance(markup, bytes):
        if any(word.encode() in markup for word in words):
            return True
        return b"&" in markup and _LETTER_REFERENCE.search(markup.decode("latin-1")) is not None
    return any(word in markup for word in words) or (
        "&" in markup and _LETTER_REFERENCE.search(markup) is not None
    )
