"""Main text by line-block distribution (cx-extractor, Chen Xin, HIT 2010).

The published method reads the source's own newlines; minified pages have one
line, so lines here come from one walk over the parsed tree: every block-level
element starts a new line (a data table row is one line). Each line keeps how
much of it is link text, which block element holds it, and whether it sits in
boilerplate (menus, asides, hidden or boilerplate-named elements; a wrapper
holding most of the page's text is never boilerplate).

Selection keeps the published idea, a run of dense line blocks, in linear
steps: the maximum-sum run of (block weight - cost), where link text weighs
negative (Kadane, one pass); then the region is narrowed by page structure:
after the page's one <h1>, to the labelled articleBody, to the element holding
the article's paragraph groups (teasers and captions are light groups of their
own), and to nothing on a section front made of teaser cards. Every step is a
pass over lines or a walk up the ancestors of one element.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, compress
from operator import attrgetter, sub

from lxml import etree

from ._marks import AUTHOR_VALUE, UNMARKED_TAGS, Marks, name_marks

BLOCK_TAGS = frozenset(
    """address article aside blockquote body br dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav
    ol p pre section summary table tbody td tfoot th thead tr ul caption center""".split()
)
SKIP_TAGS = frozenset(
    """script style noscript template svg math iframe object embed canvas video audio
    select option textarea button input head title map""".split()
)
CELL_TAGS = frozenset(("td", "th"))
MAX_CELL = 80  # longer cells are layout, not data
# A data cell may hold a few short blocks (<td><div>..</div>..</td>); short
# enough not to be sentences (80 CJK characters are a paragraph).
MAX_CELL_LINES = 4
MAX_CELL_LINE = 25
MERGED_TAGS = CELL_TAGS | {"tr"}
HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6".split())
BOILERPLATE_TAGS = frozenset("nav aside footer menu dialog".split())
# Content containers: their class names describe the post ("author-jane",
# "tag-news" in WordPress), so they never make them boilerplate.
CONTENT_TAGS = frozenset("html body article main".split())
# A dialog (role=dialog, aria-modal=true) is a pop-up over the page: a sign-up
# form, a cookie or region prompt, a cart; never the text of the page below it.
BOILERPLATE_ROLES = frozenset(
    "navigation banner contentinfo complementary dialog alertdialog".split()
)
# Words that mark an element as boilerplate when they are a whole part of one of
# its class or id names ("share-bar", "relatedPosts"), never a substring
# ("shared-article" is not "share").
BOILERPLATE_WORDS = frozenset(
    """nav navbar navigation menu menus footer sidebar sidebars breadcrumb breadcrumbs
    share sharing sharebar social comment comments related recommend recommended
    recommendations promo promos advert adverts advertisement ad ads adsense banner
    cookie cookies popup modal newsletter subscribe subscription copyright toolbar
    pagination pager tags tagcloud widget widgets outbrain taboola disqus
    caption credit byline author meta gallery
    relatedposts sharedaddy addtoany sharethis photo figure""".split()
)
# In a thread the posts are the page's "comments" (forum software names each
# post so), so a walk for a thread does not read these words as boilerplate.
POST_WORDS = frozenset("comment comments".split())
THREAD_BOILERPLATE_WORDS = BOILERPLATE_WORDS - POST_WORDS
# On a page that is not one article these name its content: a product's
# "gallery" of feature panels, a landing page's hero "banner", a product's
# "meta" data (specs, materials). A walk for such a page's sections reads them so.
SECTION_WORDS = frozenset("gallery banner meta".split())
SECTIONS_BOILERPLATE_WORDS = BOILERPLATE_WORDS - SECTION_WORDS
# Whole class names (not parts) that hide an element.
HIDDEN_CLASSES = frozenset(
    """hidden hide invisible d-none sr-only visually-hidden visuallyhidden
    screen-reader-text screen-reader-only""".split()
)

MAX_CACHED_NAME = 256
# Lines a page is read to (three times the most of any page in the benchmark
# sets, 3 114, as dom.MAX_TAGS is for tags): past them the walk stops and the
# page is marked ``truncated``. A page of 600 000 ``<br>`` lines is no article
# anyone reads, and every stage after the walk costs time per line.
MAX_LINES = 10_000
# Characters of one line read (six times the longest line of the benchmark sets,
# 32 624): one 5 MB text node is no paragraph anyone reads either.
MAX_LINE_CHARS = 200_000
# A line set apart in one of these (or inside one, up to SET_APART_DEPTH blocks up)
# that repeats a sentence of the text is a pull quote; shorter than MIN_REPEAT
# non-space characters it may just be a common phrase.
SET_APART_TAGS = frozenset({"blockquote", "aside", "figure", "figcaption"})
SET_APART_DEPTH = 3
MIN_REPEAT = 20
# After a sentence's end mark and any closing quotes or brackets.
_SENTENCE_END = re.compile(r"(?<=[.!?。！？…])[\"'”’」』)）]*\s*")
_NOT_WORD = re.compile(r"[\W_]+")
_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# Every byte but a lower-case ASCII letter to a space: what is left of a lower-case
# ASCII name are its letter parts (_NAME_PART's, less the digit runs). (Bytes:
# bytes.translate reads a 256-byte table, str.translate a dict per character,
# three times slower; most class names a crawl meets are new to the cache.)
_LETTER_RUNS = bytes(c if ord("a") <= c <= ord("z") else ord(" ") for c in range(256))

# What an element is, as far as the walk cares.
_PLAIN, _BOILER, _HIDDEN, _BODY = 0, 1, 2, 3


@dataclass(slots=True)
class Line:
    """One visual line of the page: the text of one block element's inline run."""

    text: str
    length: int  # non-whitespace characters
    link_length: int  # non-whitespace characters inside <a>
    tag: str  # the block element that holds the line
    boilerplate: bool  # inside an element that is never main text
    block: int = -1  # id of that block element in PageLines.spans / parents
    href: str | None = None  # the first link's address, as written (related links)

    @property
    def is_heading(self) -> bool:
        return self.tag in HEADING_TAGS

    @property
    def link_density(self) -> float:
        return self.link_length / self.length if self.length else 0.0


class PageLines(list[Line]):
    """The lines of a page and its block elements, numbered in document order.

    ``spans[b]`` is the line range ``(start, end)`` of block element ``b`` and
    ``parents[b]`` the id of its nearest block ancestor (-1 for none).
    """

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[int, int]] = []
        self.parents: list[int] = []
        self.bodies: list[int] = []  # ids of itemprop=articleBody elements
        self.tags: list[str] = []  # block element id -> its tag
        self.names: list[str | None] = []  # block element id -> its class attribute
        # What marked the boilerplate, kept so that a thread's marks need no second
        # walk (thread_lines): each marked line range and its block element, and the
        # attributes of the block elements whose names made them boilerplate.
        self.ranges: list[tuple[int, int]] = []
        self.range_blocks: list[int] = []
        self.named: dict[int, list[tuple[str, str]]] = {}
        self.truncated = False  # the walk stopped at MAX_LINES
        # The author marks the walk met (meta.author_marks); None: no whole walk.
        self.marks: Marks | None = None
        # A line's text -> the keys of its sentences (_pull_quotes): the stages join
        # the text of overlapping selections several times per page; each line's
        # text is split and keyed once. A function of the text alone: copies share it.
        self.sentences: dict[str, list[str]] = {}


@dataclass(frozen=True, slots=True)
class LineOptions:
    """Tunables of the line walk and the line-block selection.

    Defaults were calibrated on the AEB set and checked on the Readability,
    newspaper4k and Chinese (cwce) sets; all are reachable as
    ``extract_article(html, **options)``.

    - ``block_size`` (3): K, lines per block (the published method's K).
    - ``line_cost`` (40): subtracted from each block before taking the
      maximum-sum run; the larger, the denser a region must be to grow.
    - ``max_link_density`` (0.5): a line more linked than this keeps no
      positive weight (only the link penalty).
    - ``link_penalty`` (1.0): each link character also subtracts this much, so
      runs of headlines and menus weigh less than nothing.
    - ``boilerplate_guard`` (0.5): a boilerplate-looking element holding more
      than this share of the page's unlinked text is kept (wrappers named
      ``page-ad-margins`` hold whole articles).
    - ``group_ratio`` (0.2): lines are grouped by the parent of their block
      element; groups of the region weighing less than this share of the
      heaviest group do not count as article text (teasers, captions, bylines).
    - ``body_share`` (0.25): when the page marks its ``itemprop=articleBody``
      and that element holds this share of the region's weight, the region
      narrows to it first (the publisher's own label); 0 turns it off.
    - ``container_share`` (0.85): the region narrows to the smallest ancestor
      of the heaviest group holding this share of its article text; 0 turns
      the narrowing off.
    - ``headline_cut`` (True): when the headline (the line ``title.find_headline``
      found) is inside the region before its heaviest line, the region starts
      after it (metadata tables and kickers sit above the headline, the article
      below). The headline never counts as text.
    - ``card_share`` (0.5): when teaser cards (a group of one linked headline and
      at most two lines of text) hold this share of the text around the region,
      the page is a section front: the region narrows to its heaviest group, or
      to nothing if that is a card; 0 turns it off.
    """

    block_size: int = 3
    line_cost: int = 40
    max_link_density: float = 0.5
    link_penalty: float = 1.0
    boilerplate_guard: float = 0.5
    group_ratio: float = 0.2
    container_share: float = 0.85
    body_share: float = 0.25
    headline_cut: bool = True
    card_share: float = 0.5


def _nonspace_len(text: str) -> int:
    # str.split() cuts on every Unicode space (\u3000, \xa0 ...), in C.
    return len("".join(text.split()))


def _names_kind(names: str) -> int:
    """Classify a class/id string; short ones are cached (sites repeat them), long
    ones are not, so a page of huge unique attributes cannot pin memory."""
    if len(names) <= MAX_CACHED_NAME:
        return _cached_names_kind(names) & _KIND_BITS
    return _classify(names)


# The cached readings of a class/id string give its kind, plus _AUTHOR_MARK where
# the string, as a class, marks the author (_marks.py): the walk reads both from
# one look-up; other callers mask it off.
_AUTHOR_MARK = 4
_KIND_BITS = 3


def _cached_reading(words: frozenset[str]) -> Callable[[str], int]:
    """One reading's classification of a class/id string, with its author mark, cached."""

    @lru_cache(maxsize=4096)
    def reading(names: str) -> int:
        return _classify(names, words) | (_AUTHOR_MARK if name_marks(names) else 0)

    return reading


# The cached classification for each reading of a page's names.
_READINGS = {
    words: _cached_reading(words)
    for words in (BOILERPLATE_WORDS, THREAD_BOILERPLATE_WORDS, SECTIONS_BOILERPLATE_WORDS)
}
_cached_names_kind = _READINGS[BOILERPLATE_WORDS]


def name_parts(names: str) -> frozenset[str]:
    """The lower-case word parts of a class string, as :func:`_classify` splits them
    ("message--post js-post" -> message, post, js; "postBody" -> post, body)."""
    return frozenset(p.lower() for p in _NAME_PART.findall(names))


def _classify(names: str, words: frozenset[str] = BOILERPLATE_WORDS) -> int:
    """Classify a class/id string.

    Hidden names are whole class names; boilerplate words are whole parts of a
    name: split on "-", "_" and case changes ("share-bar", "mainNav", "NAV"),
    never substrings ("shared", "header").
    """
    lowered = names.lower()
    if not HIDDEN_CLASSES.isdisjoint(lowered.split()):
        return _HIDDEN
    if names.isascii():
        if lowered == names:
            # The common case, decided in C: in lower-case ASCII the parts are the
            # runs of letters (and of digits, which no boilerplate word is).
            letters = names.encode().translate(_LETTER_RUNS).split()
            return _PLAIN if _as_bytes(words).isdisjoint(letters) else _BOILER
        # One scan: the parts never span a "-", "_" or a space, and a token of
        # lower- or upper-case letters only is one part, as the loop below reads it.
        parts = " ".join(_NAME_PART.findall(names)).lower().split()
        return _PLAIN if words.isdisjoint(parts) else _BOILER
    # Outside ASCII, "ϒnav" is neither lower nor upper: part by part.
    tokens = names.replace("-", " ").replace("_", " ").split()
    for token in tokens:
        if token.isalpha() and (token.islower() or token.isupper()):
            if token.lower() in words:
                return _BOILER
        elif not words.isdisjoint(p.lower() for p in _NAME_PART.findall(token)):
            return _BOILER
    return _PLAIN


@lru_cache(maxsize=len(_READINGS))
def _as_bytes(words: frozenset[str]) -> frozenset[bytes]:
    """The words as bytes, to test the parts :func:`_classify` splits as bytes."""
    return frozenset(word.encode() for word in words)


def _kind(items: list[tuple[str, str]], tag: str, words: frozenset[str] = BOILERPLATE_WORDS) -> int:
    """What an element with these attributes is: plain, boilerplate or hidden.
    ``words``: one of the readings of boilerplate names (``_READINGS``)."""
    kind = _BOILER if tag in BOILERPLATE_TAGS else _PLAIN
    named = tag not in CONTENT_TAGS
    for key, value in items:
        if key == "itemprop" and value == "articleBody":
            named = False
            kind = _BODY
        elif named and (key == "class" or (key == "id" and value.count("-") < 3)):
            # (ids of 4+ words are heading slugs: "sharing-with-a-single-developer")
            found = (  # _names_kind, inlined: this runs for most block elements
                _READINGS[words](value) & _KIND_BITS
                if len(value) <= MAX_CACHED_NAME
                else _classify(value, words)
            )
            if found == _HIDDEN:
                return _HIDDEN
            if found > kind:
                kind = found
        elif key == "hidden":
            return _HIDDEN
        elif key == "style":
            squeezed = value.replace(" ", "").lower()
            if "display:none" in squeezed or "visibility:hidden" in squeezed:
                return _HIDDEN
        elif key == "aria-hidden":
            if value == "true":
                return _HIDDEN
        elif (key == "role" and value in BOILERPLATE_ROLES) or (
            key == "aria-modal" and value == "true"
        ):
            kind = _BOILER
    return kind


# The tags of what is not an element (entities; comments and processing
# instructions too, though iterwalk's start and end events do not show them):
# the walk skips them as it skips the SKIP_TAGS.
_NOT_ELEMENTS = frozenset((etree.Comment, etree.ProcessingInstruction, etree.Entity))

# Tags whose kind _kind does not read from their class name alone.
_FIXED_KIND_TAGS = BOILERPLATE_TAGS | CONTENT_TAGS

# The only attributes _inline_flags reads.
_HIDING_KEYS = frozenset(("class", "style", "hidden", "aria-hidden"))
_WATCHED_KEYS = _HIDING_KEYS | {"rel", "itemprop"}
# What _inline_flags finds: the element is hidden, it is marked as the author.
_HIDES, _MARKS = 1, 2


def _inline_flags(el: etree._Element, keys: list[str]) -> int:
    """Whether an inline element is hidden (its boilerplate names do not matter) and
    whether it is marked as the author (_marks.marks_author).
    ``keys``: its attribute names; only the values of the watched ones are read
    (most inline elements carry an ``href`` or a ``src`` beside their class)."""
    flags = 0
    for key in keys:
        if key == "class":
            # Only _classify's first test: an inline name's boilerplate words do not matter.
            value = el.get(key, "")
            short = len(value) <= MAX_CACHED_NAME
            flags |= _cached_name_flags(value) if short else _name_flags(value)
        elif key not in _WATCHED_KEYS:  # most keys: href, src, alt, id...
            continue
        elif key == "style":
            squeezed = el.get(key, "").replace(" ", "").lower()
            if "display:none" in squeezed or "visibility:hidden" in squeezed:
                flags |= _HIDES
        elif key == "hidden":
            flags |= _HIDES
        elif key == "aria-hidden":
            if el.get(key) == "true":
                flags |= _HIDES
        elif el.get(key) == AUTHOR_VALUE:  # rel, itemprop
            flags |= _MARKS
    return flags


def _hides(names: str) -> bool:
    """Whether a class string holds a hiding class name (_classify's first test)."""
    return not HIDDEN_CLASSES.isdisjoint(names.lower().split())


def _name_flags(names: str) -> int:
    """_inline_flags' reading of an inline element's class string."""
    flags = _HIDES if _hides(names) else 0
    return flags | _MARKS if name_marks(names) else flags


# Inline elements repeat their class names too.
_cached_name_flags = lru_cache(maxsize=4096)(_name_flags)


def page_lines(
    root: etree._Element,
    options: LineOptions | None = None,
    skip_tags: frozenset[str] = SKIP_TAGS,
    thread: bool = False,
    words: frozenset[str] | None = None,
) -> PageLines:
    """Walk the tree once and cut its visible text into lines (linear in the page size).

    Boilerplate and hidden block elements are remembered as line ranges; after
    the walk, a range holding more than ``boilerplate_guard`` of the page's
    unlinked text is forgiven (it is a wrapper, not a menu), the rest mark their
    lines as boilerplate. Hidden inline elements are dropped from the text.
    Elements in ``skip_tags`` (scripts, styles, ``<noscript>``...) are not read.
    ``thread``: the page is a thread, its "comment" elements are its posts.
    ``words``: the boilerplate names to read instead (one of ``_READINGS``'
    keys); the lines are the same whatever the words, only their marks differ.
    """
    options = options or LineOptions()
    if words is None:
        words = THREAD_BOILERPLATE_WORDS if thread else BOILERPLATE_WORDS
    lines = PageLines()
    lines.marks = _walk(root, lines, skip_tags | _NOT_ELEMENTS, words)  # one test for both
    _free_article(lines)
    _mark_boilerplate(lines, lines.ranges, options.boilerplate_guard)
    return lines


def _walk(
    root: etree._Element, lines: PageLines, skipped: frozenset[object], words: frozenset[str]
) -> Marks | None:
    """Fill ``lines`` in one pass over the elements (the hottest loop: names bound locally,
    rare cases called out); the author marks met, None if it stopped at MAX_LINES."""
    parts: list[str] = []
    link_chars = link_depth = 0
    href: str | None = None  # the current line's first link
    spans, parents, tags = lines.spans, lines.parents, lines.tags  # tags: block element id -> tag
    names_append, named = lines.names.append, lines.named
    ranges_append, range_blocks_append = lines.ranges.append, lines.range_blocks.append
    # The innermost open block element's id (-1: none yet); the one around it is
    # its parent, so the open blocks need no stack of their own.
    block = -1
    # Per open element: -3 link, -2 skipped, -1 other inline, else
    # 4 * (index of its first line) + kind. (End events need no el.tag.)
    stack: list[int] = []
    add, push, pop = parts.append, stack.append, stack.pop
    max_lines, block_tags, boilerplate_tags = MAX_LINES, BLOCK_TAGS, BOILERPLATE_TAGS
    fixed_tags, merged_tags, watched_keys = _FIXED_KIND_TAGS, MERGED_TAGS, _WATCHED_KEYS
    reading, author_mark = _READINGS[words], _AUTHOR_MARK
    parents_append, tags_append, spans_append = parents.append, tags.append, spans.append
    marks = Marks(root)  # the author marks (_marks.py), read from the attributes in hand
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if tag in skipped:  # (_leave_unread, inlined: pages skip dozens of subtrees)
                walker.skip_subtree()
                push(-2)
                marks.unread.append((len(marks.read), el))
                continue
            if tag in block_tags:
                if len(lines) >= max_lines:  # the rest of the tree is not read
                    return _end_walk(lines, parts, link_chars, block, href, stack, None)
                items = el.items()
                # The common case, one short class name, as _kind decides it, inlined.
                name = items[0][1] if len(items) == 1 and items[0][0] == "class" else None
                if not items:
                    kind = _BOILER if tag in boilerplate_tags else _PLAIN
                elif name is not None and len(name) <= MAX_CACHED_NAME and tag not in fixed_tags:
                    kind = reading(name)
                    if kind & author_mark:
                        kind ^= author_mark
                        marks.read.append(el)
                else:  # several attributes, a tag read apart, a name too long to cache
                    kind = _kind(items, tag, words)
                    name = el.get("class")
                    if name_marks(name or "") or _REL_AUTHOR in items or _ITEMPROP_AUTHOR in items:
                        marks.read.append(el)
                names_append(name)
                if kind == _BOILER and items:
                    named[len(tags)] = items  # reread_lines may read them otherwise
                if parts:
                    link_chars, href = _flush(lines, parts, link_chars, block, href)
                parents_append(block)
                n, block = len(lines), len(tags)  # the new block's id
                tags_append(tag)
                spans_append((n, n))
                push(4 * n + kind)
            else:
                keys = el.keys()  # cheaper than items(): most inline attributes are href, src ...
                flags = _inline_flags(el, keys) if keys and not watched_keys.isdisjoint(keys) else 0
                if flags and _hidden_or_marked(el, flags, walker, stack, marks):
                    continue
                if tag == "a":
                    link_depth += 1
                    push(-3)
                    if href is None:
                        href = el.get("href")
                else:
                    push(-1)
            text = el.text
        else:
            mark = pop()
            if mark >= 0:
                if parts:
                    link_chars, href = _flush(lines, parts, link_chars, block, href)
                bid, block = block, parents[block]
                start, n = mark >> 2, len(lines)
                if n - start > 1 and tags[bid] in merged_tags:
                    n = _merge_cells(lines, start, bid)
                spans[bid] = (start, n)
                kind = mark & 3
                if kind == _BODY:  # (one element of a page, if any)
                    _end_body(lines, bid, start, n)
                elif kind and n > start:
                    ranges_append((start, n))
                    range_blocks_append(bid)
            elif mark == -3:
                link_depth -= 1
            text = el.tail
        # Blank text opening a run is not kept: it adds no word, and a run then
        # always holds a word, so ``if parts: flush()`` never flushes nothing.
        if text and (parts or not text.isspace()):
            add(text)
            if link_depth:
                link_chars += len("".join(text.split()))  # _nonspace_len, inlined
    return _end_walk(lines, parts, link_chars, block, href, stack, marks)


def _leave_unread(
    el: etree._Element, walker: etree.iterwalk, stack: list[int], marks: Marks
) -> None:
    """Skip the subtree of ``el`` (a script, a hidden inline element...), remembered
    with the marks read before it, so the author marks inside are still found."""
    walker.skip_subtree()
    stack.append(-2)
    marks.unread.append((len(marks.read), el))


def _end_walk(
    lines: PageLines,
    parts: list[str],
    link_chars: int,
    block: int,
    href: str | None,
    stack: list[int],
    marks: Marks | None,
) -> Marks | None:
    """Finish the walk: its last line and, where it stopped short, the blocks still
    open. ``marks``: the walk's, None where it stopped at :data:`MAX_LINES` (then
    the lines are marked ``truncated``); returned."""
    if marks is None:
        lines.truncated = True
    if parts:
        _flush(lines, parts, link_chars, block, href)
    if lines.truncated:
        _close_open_blocks(lines, stack, block)
    return marks


def _flush(
    lines: PageLines, parts: list[str], link_chars: int, block: int, href: str | None
) -> tuple[int, None]:
    """End the walk's current line: its text runs joined, spaces squeezed, its link
    characters and first link kept (no line for blank text). Empties ``parts`` and
    returns the next line's link characters and first link: none yet."""
    run = "".join(parts)
    parts.clear()
    if len(run) > MAX_LINE_CHARS:
        run = _cut_line(run)
        lines.truncated = True
    words = run.split()
    if words:
        text = " ".join(words)
        length = len(text) - len(words) + 1
        tag = lines.tags[block] if block >= 0 else "body"
        links = link_chars if link_chars < length else length
        lines.append(Line(text, length, links, tag, False, block, href if links else None))
    return 0, None


# The author marks of rel and itemprop, as marks_author reads them.
_REL_AUTHOR, _ITEMPROP_AUTHOR = ("rel", AUTHOR_VALUE), ("itemprop", AUTHOR_VALUE)


def _hidden_or_marked(
    el: etree._Element, flags: int, walker: etree.iterwalk, stack: list[int], marks: Marks
) -> bool:
    """Off the walk's path (``flags``: what _inline_flags found, not nothing): skip a
    hidden inline element and say so, or keep it as marking the author."""
    if flags & _HIDES:
        _leave_unread(el, walker, stack, marks)
        return True
    if el.tag not in UNMARKED_TAGS:
        marks.read.append(el)
    return False


def _merge_cells(lines: PageLines, start: int, bid: int) -> int:
    """Make the lines of a table row or cell ending at the walk one line where they
    are short (:func:`_merge_row`), the spans and ranges inside clamped to it.
    Returns the new count of lines."""
    if _merge_row(lines, start, bid, lines.tags[bid]):
        _clamp(lines.spans, bid + 1, start)
        _clamp(lines.ranges, _first_inside(lines.ranges, start), start)
    return len(lines)


def _end_body(lines: PageLines, bid: int, start: int, n: int) -> None:
    """Keep the ``itemprop=articleBody`` element ending at lines ``start:n`` if it holds any."""
    if n > start:
        lines.bodies.append(bid)


def _cut_line(run: str) -> str:
    """The first :data:`MAX_LINE_CHARS` characters of a line, less a word cut in two."""
    head = run[:MAX_LINE_CHARS]
    if head[-1].isspace() or run[MAX_LINE_CHARS].isspace():
        return head
    return head.rsplit(None, 1)[0]


def _close_open_blocks(lines: PageLines, stack: list[int], block: int) -> None:
    """End the block elements still open where the walk stopped (at :data:`MAX_LINES`)
    at its last line, as their end tags would have (table rows are left unmerged).
    ``block``: the innermost open one."""
    n = len(lines)
    for mark in reversed(stack):
        if mark < 0:
            continue
        bid = block
        block = lines.parents[bid]
        start = mark >> 2
        lines.spans[bid] = (start, n)
        kind = mark & 3
        if kind and n > start:
            if kind == _BODY:
                lines.bodies.append(bid)
            else:
                lines.ranges.append((start, n))
                lines.range_blocks.append(bid)


# The page's one <article> holding this share of its unlinked text is the story,
# whatever the names of the elements around it.
ARTICLE_SHARE = 0.2


def _free_article(lines: PageLines) -> None:
    """Drop the boilerplate ranges that the names of its ancestors made around the
    page's one ``<article>`` when it holds ``ARTICLE_SHARE`` of the page's unlinked
    text: the publisher's own label for the story, as ``itemprop=articleBody`` is.
    A story shown in a "modal" over a stream of teasers, a layout named for its
    sidebar ("Layout--sidebarPosition-end") describe where the story sits, not
    what it is; a ``nav``, ``aside`` or ``footer`` around it, or a range inside it
    (its share bar, its comments), still marks its lines."""
    tags = lines.tags
    if not lines.ranges or tags.count("article") != 1:  # (counted in C)
        return
    start, end = lines.spans[tags.index("article")]
    text = sum(line.length - line.link_length for line in lines[start:end])
    if text < ARTICLE_SHARE * sum(line.length - line.link_length for line in lines):
        return
    keep = [
        i
        for i, ((a, b), bid) in enumerate(zip(lines.ranges, lines.range_blocks, strict=True))
        if not (
            a <= start and end <= b and bid in lines.named and tags[bid] not in BOILERPLATE_TAGS
        )
    ]
    if len(keep) < len(lines.ranges):
        lines.ranges[:] = [lines.ranges[i] for i in keep]
        lines.range_blocks[:] = [lines.range_blocks[i] for i in keep]


def reread_lines(
    lines: PageLines, words: frozenset[str], options: LineOptions | None = None
) -> PageLines:
    """What :func:`page_lines` with ``words`` gives, from its answer with the
    default :data:`BOILERPLATE_WORDS` (``words`` must be a subset of them).

    Only the boilerplate marks differ: a thread's "comment" elements are its
    posts, a product's "gallery" its feature panels. The lines are copied and
    marked again from the ranges the walk kept, less those of elements that
    only the words left out made boilerplate: no second walk over the tree.
    ``options`` must be the walk's.
    """
    options = options or LineOptions()
    out = PageLines()
    out.extend(
        Line(x.text, x.length, x.link_length, x.tag, False, x.block, x.href) for x in lines
    )
    out.spans, out.parents = list(lines.spans), list(lines.parents)
    out.bodies, out.tags, out.names = list(lines.bodies), list(lines.tags), list(lines.names)
    out.sentences, out.marks = lines.sentences, lines.marks
    out.ranges, out.range_blocks, out.named = _reread_ranges(lines, words)
    _mark_boilerplate(out, out.ranges, options.boilerplate_guard)
    return out


def remark_lines(
    lines: PageLines, words: frozenset[str], options: LineOptions | None = None
) -> None:
    """Mark ``lines`` in place as :func:`reread_lines` marks its copy: for a stage
    that needs only the other reading's marks, not a second set of lines (its
    ranges stay the default reading's). ``options`` must be the walk's."""
    options = options or LineOptions()
    for line in lines:
        line.boilerplate = False
    _mark_boilerplate(lines, _reread_ranges(lines, words)[0], options.boilerplate_guard)


def _reread_ranges(
    lines: PageLines, words: frozenset[str]
) -> tuple[list[tuple[int, int]], list[int], dict[int, list[tuple[str, str]]]]:
    """The walk's boilerplate ranges, their blocks and named blocks, less those of
    elements that only the words left out of ``words`` made boilerplate."""
    ranges: list[tuple[int, int]] = []
    range_blocks: list[int] = []
    named: dict[int, list[tuple[str, str]]] = {}
    tags, was_named = lines.tags, lines.named
    for span, bid in zip(lines.ranges, lines.range_blocks, strict=True):
        items = was_named.get(bid)
        if items is None or _kind(items, tags[bid], words) != _PLAIN:
            ranges.append(span)
            range_blocks.append(bid)
            if items is not None:
                named[bid] = items
    return ranges, range_blocks, named


def thread_lines(lines: PageLines, options: LineOptions | None = None) -> PageLines:
    """What :func:`page_lines` with ``thread=True`` gives, from its answer without."""
    return reread_lines(lines, THREAD_BOILERPLATE_WORDS, options)


def _merge_row(lines: list[Line], start: int, bid: int, tag: str) -> bool:
    """Make one line of a data table row: short cells, or a cell of a few short lines."""
    row = lines[start:]
    if tag == "tr":
        if any(line.tag not in CELL_TAGS or line.length > MAX_CELL for line in row):
            return False
    elif len(row) > MAX_CELL_LINES or any(line.length > MAX_CELL_LINE for line in row):
        return False
    length = sum(line.length for line in row)
    links = sum(line.link_length for line in row)
    del lines[start:]
    lines.append(Line(" ".join(line.text for line in row), length, links, tag, False, bid))
    return True


def _first_inside(spans: list[tuple[int, int]], start: int) -> int:
    i = len(spans)
    while i > 0 and spans[i - 1][0] >= start:
        i -= 1
    return i


def _clamp(spans: list[tuple[int, int]], first: int, start: int) -> None:
    """Spans ``first..`` were recorded inside a merged row: they now cover its one line,
    or, when empty (a blank cell), sit before or after it: never past the page's end."""
    for i in range(first, len(spans)):
        begin, end = spans[i]
        if end > begin:
            spans[i] = (start, start + 1)
        elif begin > start:
            spans[i] = (start + 1, start + 1)


_LENGTH, _LINK_LENGTH = attrgetter("length"), attrgetter("link_length")


def _mark_boilerplate(lines: list[Line], ranges: list[tuple[int, int]], guard: float) -> None:
    """Mark the lines of boilerplate ranges, except ranges holding most of the text
    (``lines`` come unmarked, as the walk and reread_lines make them)."""
    if not ranges:
        return
    prefix = list(accumulate(map(sub, map(_LENGTH, lines), map(_LINK_LENGTH, lines)), initial=0))
    limit = guard * prefix[-1]
    delta = [0] * (len(lines) + 1)
    for start, end in ranges:
        if prefix[end] - prefix[start] <= limit:
            delta[start] += 1
            delta[end] -= 1
    # Lines are made unmarked: only the marked ones (depth > 0) are set.
    for line in compress(lines, accumulate(delta)):
        line.boilerplate = True


def _weights(lines: list[Line], options: LineOptions, headline: int = -1) -> list[float]:
    beta, most = options.link_penalty, options.max_link_density
    weights = [
        0
        if line.boilerplate
        else -beta * line.link_length
        # Line.link_density, inlined: several stages weigh every line of a page
        if (line.link_length / line.length if line.length else 0.0) > most
        else line.length - (1 + beta) * line.link_length
        for line in lines
    ]
    if headline >= 0:
        weights[headline] = 0  # the title, not main text
    return weights


def select_main(
    lines: list[Line], options: LineOptions = LineOptions(), headline: int = -1
) -> tuple[int, int]:
    """Return ``(start, end)``: the slice of ``lines`` holding the main text.

    Block *i* is the weight of lines *i..i+K-1*; the region is the maximum-sum run
    of (block - line_cost), found in one pass (Kadane), narrowed to the article's
    container, then trimmed to lines that carry text. A page too short to pay
    for one block keeps its heaviest run of lines (line_cost 0). ``headline`` is
    the headline's line (``title.find_headline``), -1 for none: it never counts
    as text, and the region starts after it when it opens the text.
    """
    weights = _weights(lines, options, headline)
    k = max(1, options.block_size)
    start, end = _max_run(weights, k, options.line_cost)
    if end == start:
        start, end = _max_run(weights, 1, 0)
    if options.headline_cut and start <= headline < end:
        start = _after_headline(weights, headline, start, end)
    if isinstance(lines, PageLines) and lines.bodies and options.body_share > 0 and end > start:
        start, end = _body(lines, weights, start, end, options.body_share)
    if isinstance(lines, PageLines) and options.container_share > 0 and end > start:
        region_end = end
        start, end = _container(lines, weights, start, end, options)
        # A stray end tag can put the last paragraphs outside the container:
        # unlinked <p> lines of the region right after it stay with it.
        while (
            end < region_end
            and weights[end] > 0
            and lines[end].tag == "p"
            and not lines[end].link_length
        ):
            end += 1
    if isinstance(lines, PageLines) and options.card_share > 0 and end > start:
        start, end = _cards(lines, weights, start, end, options.card_share)
    start, end = _trim(weights, start, end)
    return _paragraph_start(lines, start, end), end


def _paragraph_start(lines: list[Line], start: int, end: int) -> int:
    """``start``, moved up to the first line of the paragraph it cuts: a ``<p>``
    split by ``<br>`` is one paragraph, and its first line, when a link (the
    name of what the story presents, a source), weighs nothing but opens it."""
    while (
        0 < start < end
        and lines[start].tag == "p"
        and lines[start - 1].block == lines[start].block
        and not lines[start - 1].boilerplate
    ):
        start -= 1
    return start


def _trim(weights: list[float], start: int, end: int) -> tuple[int, int]:
    """``start..end`` without the lines at either end that carry no text."""
    while start < end and weights[start] <= 0:
        start += 1
    while end > start and weights[end - 1] <= 0:
        end -= 1
    return start, end


def _after_headline(weights: list[float], headline: int, start: int, end: int) -> int:
    """Start after the headline when it precedes the region's heaviest line."""
    peak = max(range(start, end), key=weights.__getitem__)
    return headline + 1 if headline < peak else start


def _max_run(weights: list[float], k: int, cost: float) -> tuple[int, int]:
    """Lines covered by the maximum-sum run of (block of k lines - cost), or (0, 0)."""
    runs = _runs(weights, k, cost)
    if not runs:
        return 0, 0
    start, end, _ = max(runs, key=lambda run: run[2])  # the first of equal runs
    return start, _run_end(weights, k, end)


def _runs(weights: list[float], k: int, cost: float) -> list[tuple[int, int, float]]:
    """Every run of Kadane's pass: ``(start, end, sum)`` of the best prefix of each
    stretch of blocks whose running sum of (block of k lines - cost) stays positive.
    The page's maximum-sum run is the best of them; the others are the page's
    other dense regions. ``end`` counts blocks: see :func:`_run_end`."""
    n = len(weights)
    if not n:
        return []
    # Block i's weight, slid along in C: block i-1's, plus line i+k-1's (0 past the
    # end), less line i-1's (the same sums, in the same order, as one at a time).
    entering = weights[k:]
    entering += [0] * (n - 1 - len(entering))
    blocks = accumulate(map(sub, entering, weights[: n - 1]), initial=sum(weights[:k]))
    runs: list[tuple[int, int, float]] = []
    best_sum: float = 0
    best_end = -1
    run_sum: float = 0
    run_start = 0
    for i, window in enumerate(blocks):
        score = window - cost
        if run_sum <= 0:
            if best_end > run_start:
                runs.append((run_start, best_end, best_sum))
            run_sum, run_start, best_sum, best_end = score, i, 0, -1
        else:
            run_sum += score
        if run_sum > best_sum:
            best_sum, best_end = run_sum, i + 1
    if best_end > run_start:
        runs.append((run_start, best_end, best_sum))
    return runs


def _run_end(weights: list[float], k: int, end: int) -> int:
    """The last block's other lines belong to the run while they carry text."""
    stop = min(end + k - 1, len(weights))
    while end < stop and weights[end] > 0:
        end += 1
    return end


def _body(
    lines: PageLines, weights: list[float], start: int, end: int, share: float
) -> tuple[int, int]:
    """Narrow to the page's articleBody element when it holds ``share`` of the region."""
    prefix = [0.0]
    for w in weights[start:end]:
        prefix.append(prefix[-1] + (w if w > 0 else 0.0))
    best, best_weight = (start, end), 0.0
    for bid in lines.bodies:
        a, b = lines.spans[bid]
        lo, hi = max(a, start), min(b, end)
        if hi > lo and prefix[hi - start] - prefix[lo - start] > best_weight:
            best, best_weight = (lo, hi), prefix[hi - start] - prefix[lo - start]
    return best if best_weight >= share * prefix[-1] else (start, end)


def _container(
    lines: PageLines, weights: list[float], start: int, end: int, options: LineOptions
) -> tuple[int, int]:
    """Narrow ``start..end`` to the element that holds the article.

    Lines are grouped by the parent of their block element (paragraphs of one
    body share it; each teaser of a list has its own). Groups weighing less than
    ``group_ratio`` of the heaviest are not article text; the answer is the
    smallest ancestor of the heaviest group holding ``container_share`` of the
    article text of the region.
    """
    parents, spans = lines.parents, lines.spans
    groups = [parents[line.block] if line.block >= 0 else -1 for line in lines[start:end]]
    score: dict[int, float] = {}
    for group, w in zip(groups, weights[start:end], strict=True):
        if w > 0:
            score[group] = score.get(group, 0.0) + w
    if not score:
        return start, end
    top = max(score, key=score.__getitem__)
    least = options.group_ratio * score[top]
    prefix = [0.0]
    for group, w in zip(groups, weights[start:end], strict=True):
        prefix.append(prefix[-1] + (w if w > 0 and score[group] >= least else 0.0))
    need = options.container_share * prefix[-1]
    element = top
    while element >= 0:
        a, b = spans[element]
        lo, hi = max(a, start), min(b, end)
        if hi > lo and prefix[hi - start] - prefix[lo - start] >= need:
            return lo, hi
        element = parents[element]
    return start, end


# A teaser's headline link: mostly link text, and a phrase (three words, or
# as many characters as a short CJK headline), not a "more" link.
CARD_LINK_DENSITY = 0.5
CARD_HEADLINE_SPACES = 2
CARD_HEADLINE_CHARS = 12


def is_headline_link(line: Line) -> bool:
    """A teaser's linked headline, not a menu item or a "more" link."""
    links, length = line.link_length, line.length
    if not links or not length:  # most lines (several stages read every line of a page)
        return False
    return links / length > CARD_LINK_DENSITY and (  # Line.link_density, inlined
        line.text.count(" ") >= CARD_HEADLINE_SPACES or length >= CARD_HEADLINE_CHARS
    )


def _headline_weights(lines: list[Line], options: LineOptions, headline: int = -1) -> list[float]:
    """Lines as :func:`select_main` weighs them, except that a teaser's linked
    headline counts as text (menus and "more" links still weigh less than nothing)."""
    weights = _weights(lines, options, headline)
    for i, line in enumerate(lines):
        if i != headline and is_headline_link(line) and not line.boilerplate:
            weights[i] = float(line.length)
    return weights


def select_headlines(lines: list[Line], options: LineOptions) -> tuple[int, int]:
    """The densest run of linked headlines: the text of a page that is only a list."""
    weights = _headline_weights(lines, options)
    start, end = _max_run(weights, max(1, options.block_size), options.line_cost)
    return _trim(weights, start, end)


def select_sections(
    lines: list[Line],
    options: LineOptions,
    headline: int,
    share: float,
    listing: bool = False,
) -> tuple[list[tuple[int, int]], list[float]]:
    """The dense regions of a page whose text is not one article (Wang et al.'s
    "non-continuous" bodies): a product's description and its specs, the
    sections of a landing page, a listing's intro and its cards.

    Returns the runs of :func:`select_main`'s pass weighing at least ``share`` of
    the heaviest, in page order, each trimmed to lines that carry text, with the
    line weights (``listing``: a teaser's linked headline counts as text).
    """
    weights = (
        _headline_weights(lines, options, headline)
        if listing
        else _weights(lines, options, headline)
    )
    if isinstance(lines, PageLines):
        # A menu, aside or footer forgiven for holding most of the text (a wrapper)
        # is still no section of its own.
        tagged = _in_boilerplate_tags(lines)
        for i, line in enumerate(lines):
            if line.block >= 0 and tagged[line.block]:
                weights[i] = min(weights[i], 0.0)
    k = max(1, options.block_size)
    runs = _runs(weights, k, options.line_cost)
    if not runs:
        return [], weights
    least = share * max(total for _, _, total in runs)
    regions = []
    for start, end, total in runs:
        if total >= least:
            start, end = _trim(weights, start, _run_end(weights, k, end))
            if end > start:
                regions.append((start, end))
    return regions, weights


def _in_boilerplate_tags(lines: PageLines) -> list[bool]:
    """Per block element: whether it is, or sits in, a ``nav``, ``aside``, ``footer``
    or ``menu``. One pass: a block's parent is numbered before it."""
    tagged: list[bool] = []
    for tag, parent in zip(lines.tags, lines.parents, strict=True):
        tagged.append(tag in BOILERPLATE_TAGS or (parent >= 0 and tagged[parent]))
    return tagged


def _cards(
    lines: PageLines, weights: list[float], start: int, end: int, share: float
) -> tuple[int, int]:
    """Tell a list of teaser cards (a section front) from an article.

    A card is a group (lines sharing the parent of their block) with one linked
    headline and at most two lines of text. When cards hold ``card_share`` of
    the text of the list around the region, the region narrows to its heaviest
    group, or to nothing when that group is itself a card: the page is an index.
    """
    parents, spans = lines.parents, lines.spans

    def group(i: int) -> int:
        block = lines[i].block
        return parents[block] if block >= 0 else -1

    touched = {group(i) for i in range(start, end) if weights[i] > 0}
    touched.discard(-1)
    if not touched:
        return start, end
    lo = min(spans[g][0] for g in touched)
    hi = max(spans[g][1] for g in touched)
    scope = max(touched, key=lambda g: spans[g][1] - spans[g][0])
    while scope >= 0 and not (spans[scope][0] <= lo and spans[scope][1] >= hi):
        scope = parents[scope]
    if scope >= 0:  # one level up: the list around a single card
        scope = parents[scope]
    a, b = spans[scope] if scope >= 0 else (0, len(lines))
    heads: dict[int, int] = {}
    texts: dict[int, int] = {}
    weight: dict[int, float] = {}
    for i in range(a, b):
        g = group(i)
        if is_headline_link(lines[i]):
            heads[g] = heads.get(g, 0) + 1
        elif weights[i] > 0:
            texts[g] = texts.get(g, 0) + 1
            weight[g] = weight.get(g, 0.0) + weights[i]
    cards = [g for g in weight if heads.get(g) == 1 and texts[g] <= 2]
    if len(cards) < 2 or sum(weight[g] for g in cards) < share * sum(weight.values()):
        return start, end
    top = max(touched, key=lambda g: weight.get(g, 0.0))
    if top in cards:
        return start, start
    return max(spans[top][0], start), min(spans[top][1], end)


MIN_LEAD = 100  # non-space characters of a lead paragraph (a standfirst is shorter)
MAX_LEAD_LINK = 40  # non-space characters of a lone link above it (an author's name)


def lead_start(lines: PageLines, options: LineOptions, headline: int, start: int) -> int:
    """First line of the lead text between the headline and line ``start``.

    A standfirst or first paragraph often sits in its own container between the
    headline and the body; the narrowing to the body's container leaves it out.
    When every line from the headline down to ``start`` is text or boilerplate
    (bylines, share bars), not a list of links, the text lines there open the
    article. A lone short link (the author's name) is no list.
    """
    if not 0 <= headline < start:
        return start
    gap = lines[headline + 1 : start]
    weights = _weights(gap, options)
    after_link = False
    for w, line in zip(weights, gap, strict=True):
        if w <= 0 and not line.boilerplate:
            if after_link or line.length > MAX_LEAD_LINK:
                return start
            after_link = True
        else:
            after_link = False
    first = next(
        (
            i
            for i, (w, line) in enumerate(zip(weights, gap, strict=True))
            if w > 0 and line.tag == "p" and line.length >= MIN_LEAD
        ),
        len(gap),
    )
    return headline + 1 + first


# A lead picture's caption (and its credit line) right above the text belongs
# to the article: it says what the first picture shows.
FIGURE_TAGS = frozenset({"figure", "figcaption"})
MAX_LEAD_CAPTION_LINES = 2
MAX_CAPTION = 300  # non-space characters


def lead_caption(lines: PageLines, start: int) -> int:
    """First line of the figure caption right above line ``start`` (``start`` if none)."""
    first = start
    while first > 0 and start - first < MAX_LEAD_CAPTION_LINES:
        line = lines[first - 1]
        if (
            line.length > MAX_CAPTION
            or line.link_density > CARD_LINK_DENSITY
            or not _set_apart(line, lines, FIGURE_TAGS)
        ):
            break
        first -= 1
    return first


def main_text(lines: Iterable[Line], page: PageLines | None = None) -> str:
    """Join selected lines into the article text, one paragraph per line.

    A pull quote (a sentence of a paragraph repeated in large type beside it,
    in a ``blockquote``, ``aside`` or figure) is left out. ``page`` is the
    ``PageLines`` the lines come from: it knows where each line sits.
    """
    kept = [line for line in lines if not line.boilerplate]
    repeats = _pull_quotes(kept, page) if page is not None else set()
    return "\n".join(line.text for i, line in enumerate(kept) if i not in repeats)


def _sentence_key(text: str) -> str:
    """Comparison form of a sentence: letters and digits only, case folded."""
    return _NOT_WORD.sub("", text).casefold()


def _set_apart(line: Line, page: PageLines, tags: frozenset[str] = SET_APART_TAGS) -> bool:
    """Whether the line's block, or one of its nearest ancestors, is set apart from the text."""
    block = line.block
    for _ in range(SET_APART_DEPTH):
        if block < 0:
            return False
        if page.tags[block] in tags:
            return True
        block = page.parents[block]
    return False


def _pull_quotes(lines: Sequence[Line], page: PageLines) -> set[int]:
    """Indexes of set-apart lines (``MIN_REPEAT`` characters or more) whose whole
    text is one sentence of a paragraph of the text. Filler repeated among the
    body's own paragraphs is left alone. Linear: each line is split and hashed once."""
    apart = [line.length >= MIN_REPEAT and _set_apart(line, page) for line in lines]
    if not any(apart):
        return set()  # nothing set apart: no sentence need be split and keyed
    in_paragraph: set[str] = set()  # sentences of the text's own multi-sentence paragraphs
    known = page.sentences
    for line, away in zip(lines, apart, strict=True):
        if away:
            continue
        sentences = known.get(line.text)
        if sentences is None:
            sentences = [k for k in map(_sentence_key, _SENTENCE_END.split(line.text)) if k]
            known[line.text] = sentences
        if len(sentences) > 1:
            in_paragraph.update(sentences)
    repeats = set()
    for i, line in enumerate(lines):
        if apart[i] and _sentence_key(line.text) in in_paragraph:
            repeats.add(i)
    return repeats
