"""The walk: a page cut into lines for the line-block selection (cx-extractor, Chen Xin).

The published method reads the source's own newlines; minified pages have one
line, so lines here come from one walk over the parsed tree: every block-level
element starts a new line (a data table row is one line). Each line keeps how
much of it is link text, which block element holds it, and whether it sits in
boilerplate (menus, asides, hidden or boilerplate-named elements; a wrapper
holding most of the page's text is never boilerplate).

Selection over these lines is in regions.py, and joining them into text in text.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, compress
from operator import attrgetter, sub

from lxml import etree

from .._marks import AUTHOR_VALUE, UNMARKED_TAGS, Marks, name_marks

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
# ("shared-article" is not "share"). "disclosure": an affiliate or advertiser
# notice over the story; not "disclaimer" (AEB's truth keeps a columnist's "views
# expressed are not ours" line, and wceb_dev a product page's legal note).
BOILERPLATE_WORDS = frozenset(
    """nav navbar navigation menu menus footer sidebar sidebars breadcrumb breadcrumbs
    share sharing sharebar social comment comments related recommend recommended
    recommendations promo promos advert adverts advertisement ad ads adsense banner
    cookie cookies popup modal newsletter subscribe subscription copyright toolbar
    pagination pager tags tagcloud widget widgets outbrain taboola disqus
    caption credit byline author meta gallery
    relatedposts sharedaddy addtoany sharethis photo figure disclosure""".split()
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
# Pictures of the body sit in elements named for them ("wp-caption", "photo",
# "figure") or for the editor's embeds ("dnd-widget-wrapper type-image", "meta"):
# boilerplate for the text (a caption repeats no sentence of it), not for the
# picture. structure.py reads a picture's ancestors so.
PICTURE_WORDS = frozenset("caption credit photo figure gallery widget widgets meta".split())
PICTURES_BOILERPLATE_WORDS = BOILERPLATE_WORDS - PICTURE_WORDS
# Whole class names (not parts) that hide an element.
HIDDEN_CLASSES = frozenset(
    """hidden hide invisible d-none sr-only visually-hidden visuallyhidden
    screen-reader-text screen-reader-only""".split()
)

# A boilerplate-named element inside the ``itemprop=articleBody`` element is forgiven
# as a wrapper unless it holds less than this share of the body's unlinked text and
# the body's own text before it holds the rest's share (a wrapper opens the body; a
# widget sits after the story began). On the bench's 1 892 pages one forgiven element
# lies inside a body: a 50-picture gallery's captions, 0.78 of the body, after the
# story's first five sections, 0.18 of the body (readability bug-1255978).
BODY_WRAPPER_SHARE = 0.9

MAX_CACHED_NAME = 256
# Lines a page is read to (three times the most of any page in the benchmark
# sets, 3 114, as dom.MAX_TAGS is for tags): past them the walk stops and the
# page is marked ``truncated``. A page of 600 000 ``<br>`` lines is no article
# anyone reads, and every stage after the walk costs time per line.
MAX_LINES = 10_000
# Characters of one line read (six times the longest line of the benchmark sets,
# 32 624): one 5 MB text node is no paragraph anyone reads either.
MAX_LINE_CHARS = 200_000
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
        # Block element id -> the element; and each <img> met, as (the index of the
        # line it stands before or in, its block element's id, the element): what the
        # body's structure (structure.py) is rebuilt from without a second walk.
        self.elements: list[etree._Element] = []
        self.images: list[tuple[int, int, etree._Element]] = []
        self.skipped: frozenset[object] = frozenset()  # the tags the walk did not read
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
    - ``learned`` (True): on pages the rules do not take for an article, the
      learned line labeller (content/learned.py) chooses the text; False: the
      rules alone, everywhere.
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
    learned: bool = True


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
    for words in (
        BOILERPLATE_WORDS,
        THREAD_BOILERPLATE_WORDS,
        SECTIONS_BOILERPLATE_WORDS,
        PICTURES_BOILERPLATE_WORDS,
    )
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


def hidden_inline(el: etree._Element) -> bool:
    """Whether the walk leaves this inline element's text out (hidden by its attributes)."""
    keys = el.keys()
    return (
        bool(keys) and not _WATCHED_KEYS.isdisjoint(keys) and bool(_inline_flags(el, keys) & _HIDES)
    )


def not_plain(el: etree._Element, words: frozenset[str]) -> bool:
    """Whether an element is boilerplate or hidden by its tag and attributes, in the
    reading ``words`` (one of ``_READINGS``' keys)."""
    return _kind(el.items(), el.tag, words) in (_BOILER, _HIDDEN)


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
    lines.skipped = skip_tags | _NOT_ELEMENTS  # one test for both
    lines.marks = _walk(root, lines, lines.skipped, words)
    _free_article(lines)
    _mark_boilerplate(lines, lines.ranges, options.boilerplate_guard)
    return lines


def _walk(
    root: etree._Element, lines: PageLines, skipped: frozenset[object], words: frozenset[str]
) -> Marks | None:
    """Fill ``lines`` in one pass over the elements (the hottest loop: names bound locally,
    rare cases called out); the author marks met, None if it stopped at MAX_LINES."""
    parts: list[str] = []  # the current line's text runs
    link_chars = link_depth = 0
    href: str | None = None  # the current line's first link
    spans, parents, tags = lines.spans, lines.parents, lines.tags  # tags: block element id -> tag
    names_append, named, elements_append = lines.names.append, lines.named, lines.elements.append
    ranges_append, range_blocks_append = lines.ranges.append, lines.range_blocks.append
    block = -1  # the innermost open block's id (-1: none); its parent is the one around it
    # Per open element: -3 link, -2 skipped, -1 other inline, else
    # 4 * (index of its first line) + kind. (End events need no el.tag.)
    stack: list[int] = []
    add, push, pop, images_append = parts.append, stack.append, stack.pop, lines.images.append
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
                elements_append(el)
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
                    if tag == "img":
                        images_append((len(lines), block, el))
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


# C0 and C1 control characters but tab, newline and carriage return, and whole ANSI escape
# sequences first ("\x1b[31m" would leave "[31m"): what a terminal acts on, never text.
# A page, a CMS's paste or a WARC may hold them; a user's log or CSV must not.
CONTROLS = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b[@-_]?"
    r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
)

# A character CONTROLS's every match starts with, and matches alone: the same test,
# four times faster than CONTROLS's alternatives tried at every character.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def without_controls(text: str) -> str:
    """``text`` less its control characters and terminal escape sequences (page.py
    takes them out of every field of the article; structure.py out of the body's
    texts before its HTML and Markdown are written, so that the Markdown's escapes
    stand where the text starts)."""
    if text.isprintable():  # (in C) the common case: no control character at all
        return text
    return CONTROLS.sub("", text) if _CONTROL.search(text) else text


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
    out.extend(Line(x.text, x.length, x.link_length, x.tag, False, x.block, x.href) for x in lines)
    out.spans, out.parents = list(lines.spans), list(lines.parents)
    out.bodies, out.tags, out.names = list(lines.bodies), list(lines.tags), list(lines.names)
    out.elements, out.images, out.skipped = lines.elements, lines.images, lines.skipped
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


def _mark_boilerplate(lines: PageLines, ranges: list[tuple[int, int]], guard: float) -> None:
    """Mark the lines of boilerplate ranges, except ranges holding most of the text
    (``lines`` come unmarked, as the walk and reread_lines make them)."""
    if not ranges:
        return
    prefix = list(accumulate(map(sub, map(_LENGTH, lines), map(_LINK_LENGTH, lines)), initial=0))
    limit = guard * prefix[-1]
    delta = [0] * (len(lines) + 1)
    bodies = [lines.spans[bid] for bid in lines.bodies]
    for start, end in ranges:
        weight = prefix[end] - prefix[start]
        if weight <= limit or _widget_in_body(bodies, prefix, start, end, weight):
            delta[start] += 1
            delta[end] -= 1
    # Lines are made unmarked: only the marked ones (depth > 0) are set.
    for line in compress(lines, accumulate(delta)):
        line.boilerplate = True


def _widget_in_body(
    bodies: list[tuple[int, int]], prefix: list[int], start: int, end: int, weight: int
) -> bool:
    """Whether boilerplate range ``start:end`` lies inside an ``itemprop=articleBody``
    element, after the body's own text began and without holding nearly all of it: a
    widget of the body (a gallery's captions, a related list), not the wrapper the
    guard forgives. The publisher labelled the body; a wrapper around the article
    sits around that label, or opens it."""
    for body_start, body_end in bodies:
        if body_start <= start and end <= body_end and (start, end) != (body_start, body_end):
            body = prefix[body_end] - prefix[body_start]
            before = prefix[start] - prefix[body_start]
            return weight < BODY_WRAPPER_SHARE * body and before >= (1 - BODY_WRAPPER_SHARE) * body
    return False
