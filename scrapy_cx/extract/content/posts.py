"""The posts of a thread (Wang et al. 2016, "non-continuous" bodies): author, date, text.

A forum thread, a Q&A page or a blog page of several posts repeats one unit: a
short header line holding the post's date (often its author too), then the
post's text. The headers found inside the main region cut it into posts, in
page order. The content stays the region's text, headers included: measured on
wceb_dev, dropping the headers lost more of the posts' text than it saved.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

from ...article import Post
from .._marks import AUTHOR_WORDS
from ..fields.dateparse import scan_dates
from ..page import Page, Region
from ..parse.lines import Line, LineOptions, PageLines, name_parts
from .text import joined, main_lines

__all__ = [
    "dated_header",
    "find_posts",
    "frame_labels",
    "merge_units",
    "numbered_posts",
    "opening_headers",
    "post_chrome",
    "post_headers",
    "post_units",
    "PostUnits",
    "said",
]

MAX_POST_HEADER = 80  # characters of a post's header line
MAX_AUTHOR = 40  # characters of an author's name on its own line above the header
MIN_POSTS = 3  # headers that make a region a series of posts
# A short lower-case last word of a header's name part joins it to its date
# ("caprock on Dec 27", "ann at 10:12"): not part of the name.
MAX_CONNECTOR = 3
_SEPARATORS = " ·•|-–—,:@"


# Post units: forum, Q&A and comment software names each post's element with one
# of these words ("message message--post", "post_wrapper", "comment", "answer"),
# and repeats that element, class and all, once per post.
POST_UNIT_WORDS = frozenset(("post", "message", "comment", "reply", "answer"))
MAX_UNIT_NAME = 300  # characters of a class attribute read (longer: generated, not a post's)
MAX_UNITS = 100  # units of one group whose heads are read for a date (the rest: taken as read)
UNIT_EDGE_LINES = 12  # lines at the top and bottom of a unit read for its date
_DIGITS = re.compile(r"\d")
# A post's age as forum software shows it ("17 hours ago", "1 year ago", "3d ago").
# So is a day of this week with its time ("Yesterday at 3:12 PM", "Tuesday at
# 10:07 AM", "Today, 09:15"): XenForo's and vBulletin's dates of recent posts.
_AGO = re.compile(
    r"\b\d+\s?(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|[smhdwy])"
    r"\s+ago\b"
    r"|\b(?:today|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"(?:,|\s+at)\s+[0-2]?\d:[0-5]\d\b"
    # A bare compact age set off by a dot, a line of its own ("· 3y", "5mo ·"): Q&A
    # and social sites date each answer so, without "ago". Minutes and seconds left
    # out ("· 5m" may be a length).
    r"|^\s*[·•]\s*\d{1,3}\s?(?:yrs?|y|mo|w|d|h)\s*$|^\s*\d{1,3}\s?(?:yrs?|y|mo|w|d|h)\s*[·•]\s*$",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def _unit_key(names: str) -> str | None:
    """The class a post unit repeats (names with numbers dropped: "post-123",
    "id-t1_o8n7"), or None for an element not named for a post."""
    if POST_UNIT_WORDS.isdisjoint(name_parts(names)):
        return None
    return " ".join(name for name in names.split() if not _DIGITS.search(name))


# A class string that names a post unit spells one of the words, in some case
# (name_parts splits runs of ASCII letters): a search of all of a page's class
# strings at once, in C, leaves out the others (most) before any is split.
_UNIT_WORDS = tuple(sorted(POST_UNIT_WORDS))
_UNIT_WORD = re.compile("|".join(_UNIT_WORDS), re.IGNORECASE | re.ASCII)


def unit_names(names: list[str | None]) -> set[str]:
    """The distinct class strings among ``names`` that may name a post unit: those
    spelling one of :data:`POST_UNIT_WORDS` in any case, a superset of the ones
    :func:`_unit_key` keys."""
    distinct = list(filter(None, set(names)))
    joined = "\n".join(distinct)
    lowered = joined.lower()
    if not any(word in lowered for word in _UNIT_WORDS):
        return set()
    if not joined.isascii():  # lower() may change lengths: no offsets to map back
        return set(filter(_UNIT_WORD.search, distinct))
    # Where each name ends in ``joined`` (at its "\n"), to map a word found back to it.
    ends = list(accumulate(map(len, distinct), _past_separator, initial=-1))[1:]
    found: set[str] = set()
    for word in _UNIT_WORDS:
        at = lowered.find(word)
        while at >= 0:
            k = bisect_right(ends, at)
            found.add(distinct[k])
            at = lowered.find(word, ends[k])
    return found


# A short line (non-space characters) shown this many times on a thread's page is a
# label of every post's frame ("Joined", "Messages", a rank), not something said.
MAX_LABEL = 30
MIN_LABEL_REPEATS = 4

Label = tuple[str, str, str | None]  # a line's text, tag and class
Element = tuple[str, str | None]  # a line's tag and class


def said(line: Line, lines: PageLines, options: LineOptions, labels: set[Label]) -> bool:
    """A line of a post's text: neither a control (:func:`post_chrome`) nor
    a label of every post's frame (:func:`frame_labels`)."""
    return not post_chrome(line, options) and _label_key(line, lines) not in labels


def _label_key(line: Line, lines: PageLines) -> Label:
    return (line.text, line.tag, lines.names[line.block] if line.block >= 0 else None)


def frame_labels(lines: PageLines) -> set[Label]:
    """The short lines a thread's page repeats in the same element (tag and class):
    the labels of each post's author panel ("Joined", "Reaction score", "Location")
    and the authors' ranks. A post quoted in replies repeats in other elements."""
    counts: dict[Label, int] = {}
    for line in lines:
        if line.length <= MAX_LABEL:
            key = _label_key(line, lines)
            counts[key] = counts.get(key, 0) + 1
    return {key for key, count in counts.items() if count >= MIN_LABEL_REPEATS}


def _past_separator(end: int, length: int) -> int:
    return end + length + 1


def post_units(page: Page, *, above: bool = False) -> list[Region]:
    """Line ranges of the page's repeated post units: block elements sharing a
    tag and a post-named class, each showing a date at its top or bottom (the
    header, or the footer XenForo puts it in). The group of most such units, or
    nothing when none has :data:`MIN_POSTS` (Wang et al.'s repeated "record" of
    a non-continuous body).

    ``above``: the line right above a unit may be its header too (Hacker News
    names only a comment's text "comment", its dated header is the element
    before). Off for the test of whether the selection lies in a post: a news
    site's teaser cards sit under dated lines too."""
    return PostUnits(page).units(above=above)


class PostUnits:
    """A page's post units (:func:`post_units`), for both readings (with and without
    the line above each unit): the groups of blocks, and whether each unit shows a
    date of its own, are read once per page and kept in it (``page.unit_groups``,
    ``page.unit_dated``): page typing asks for both, the thread stage and
    :func:`find_posts` again. (The stages after page typing mark the lines again,
    never cut them otherwise: the blocks, their lines and texts stay as read.)"""

    __slots__ = ("page",)

    def __init__(self, page: Page) -> None:
        self.page = page

    def groups(self) -> list[list[int]]:
        """:func:`_unit_groups` of the page's lines, read once."""
        page = self.page
        if page.unit_groups is None:
            page.unit_groups = _unit_groups(page.lines)
        return page.unit_groups

    def units(self, *, above: bool = False) -> list[Region]:
        """``post_units(page, above=above)``."""
        spans = self.page.lines.spans
        best: list[Region] = []
        rest: list[int] = []
        for blocks in self.groups():
            posts = [spans[block] for block in blocks[:MAX_UNITS] if self._post(block, above)]
            if len(posts) >= MIN_POSTS and len(posts) > len(best):
                best, rest = posts, blocks[MAX_UNITS:]
        # Past the units read, the same element (tag, class and all) is taken as a
        # post unread: a long thread keeps its tail.
        return best + [spans[block] for block in rest]

    def _post(self, block: int, above: bool) -> bool:
        """A unit with a short dated line at its top or bottom (or right above it)."""
        lines = self.page.lines
        start, end = lines.spans[block]
        memo = self.page.unit_dated
        dated = memo.get(block)
        if dated is None:
            dated = memo[block] = _header(self.page, start, end, False) is not None
        return dated or (above and start > 0 and _short_dated(lines[start - 1]))


def _unit_groups(lines: PageLines) -> list[list[int]]:
    """The ids of the block elements that may be post units, by group (a tag and the
    class a post unit repeats: :func:`_unit_key`), in page order; groups of
    :data:`MIN_POSTS` or more."""
    groups: dict[tuple[str, str], list[int]] = {}
    named = unit_names(lines.names)
    if not named:
        return []
    for block, names in enumerate(lines.names):
        if names in named:
            # (a long name is never cached: a page of huge unique names must not pin memory)
            key = _unit_key(names) if len(names) <= MAX_UNIT_NAME else None
            if key is not None:
                groups.setdefault((lines.tags[block], key), []).append(block)
    return [blocks for blocks in groups.values() if len(blocks) >= MIN_POSTS]


def _header(page: Page, start: int, end: int, above: bool) -> int | None:
    """The first short dated line at a unit's top or bottom, or right above it
    (read after the unit's own lines: the line above may be another's)."""
    lines = page.lines
    edges = (
        range(start, end)
        if end - start <= 2 * UNIT_EDGE_LINES
        else (*range(start, start + UNIT_EDGE_LINES), *range(end - UNIT_EDGE_LINES, end))
    )
    if above and start > 0:
        edges = (*edges, start - 1)
    for i in edges:
        if _short_dated(lines[i]):
            return i
    return None


def _short_dated(line: Line) -> bool:
    """A line short enough to be a post's header, showing a date or an age."""
    text = line.text
    return line.length <= MAX_POST_HEADER and bool(_AGO.search(text) or scan_dates(text))


def merge_units(units: list[Region]) -> tuple[list[Region], bool]:
    """Post units (in page order) as disjoint line ranges, a reply's merged into
    the post it nests in, and whether any reply nests (a tree of replies)."""
    merged: list[Region] = []
    nested = False
    for first, last in units:
        if merged and first < merged[-1][1]:
            nested = True
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged, nested


def post_chrome(line: Line, options: LineOptions) -> bool:
    """A line of a thread that is mostly a link: an author's name, "Reply", "Add a
    comment". The posts' text is not linked."""
    return line.link_density > options.max_link_density


# A line ending so is a sentence ("The change takes effect on January 1, 2026."),
# a footnote or a caption: a post's header ends with its date, time or number.
_SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")


def dated_header(line: Line) -> bool:
    """A short dated line that is no sentence: a post's header, a story's byline.
    Its date may be an age ("3h ago", "1 year ago"): comment pages (reddit's, lemmy's)
    show their posts' ages only."""
    text = line.text
    return (
        line.length <= MAX_POST_HEADER
        and not text.rstrip().endswith(_SENTENCE_ENDS)
        and bool(_AGO.search(text) or scan_dates(text))
    )


# A post's number in its header ("#1", "Post #2"): forum software numbers a
# thread's posts in order, first to last.
_POST_NUMBER = re.compile(r"(?<![\w#&])#(\d{1,4})\b")


def numbered_posts(page: Page) -> bool:
    """The page's short dated lines (:func:`dated_header`) number its posts: one
    is post #1 and a later one post #2, and the selection opens at or below #1's
    header, inside the posts. A thread of two posts, too few for
    :data:`MIN_POSTS` units or headers, shows its numbers: an article's
    comments, numbered too, stand below the article its selection opens in."""
    lines = page.lines
    first: int | None = None
    for i, line in enumerate(lines):
        if line.length > MAX_POST_HEADER or "#" not in line.text or not dated_header(line):
            continue
        numbers = {int(n) for n in _POST_NUMBER.findall(line.text)}
        if first is None and 1 in numbers:
            first = i
        elif first is not None and 2 in numbers:
            return first <= page.start
    return False


def post_headers(page: Page) -> list[int]:
    """Indexes of the short dated lines inside the main region that are no sentences."""
    lines = page.lines
    return [
        i
        for i in range(page.start, page.end)
        if not lines[i].boilerplate and dated_header(lines[i])
    ]


def _label(text: str) -> str | None:
    """The label a dated line opens with ("Datum", "成文日期", "Joined"): its text before
    the first date when that ends with a colon; None for none."""
    dates = scan_dates(text)
    if not dates:
        return None
    head = text[: dates[0][0]].rstrip()
    return head[:-1].strip() if head.endswith((":", "：")) else None


def opening_headers(page: Page) -> list[int]:
    """The :func:`post_headers` that open a post: each followed by something said
    before the next one, in an element of another shape (:func:`_shape_of`: dated
    lines among their siblings are a table's rows or a list's items, not posts'
    headers), and none a field labelled once ("Datum: 18.10.2021", a
    notice's "成文日期："): forum software labels every post alike ("Joined:",
    "Posted:"), a page labels its own date once."""
    lines = page.lines
    headers = post_headers(page)
    labels = [_label(lines[i].text) for i in headers]
    counts = Counter(label for label in labels if label is not None)
    kept = [
        i
        for i, label in zip(headers, labels, strict=True)
        if label is None or counts[label] >= MIN_POSTS
    ]
    bounds = kept[1:] + [page.end] if kept else []
    return [
        header
        for header, stop in zip(kept, bounds, strict=True)
        if any(
            not line.boilerplate
            and not post_chrome(line, page.options)
            and _shape_of(lines, line) != _shape_of(lines, lines[header])
            for line in lines[header + 1 : stop]
        )
    ]


def _shape_of(lines: PageLines, line: Line) -> tuple[str, str | None, int]:
    """A line's element as a list repeats it: its tag, class and parent. The items of one
    list, the rows of one table share it; a post's header and its text do not."""
    block = line.block
    if block < 0:
        return (line.tag, None, -1)
    return (line.tag, lines.names[block], lines.parents[block])


def find_posts(page: Page) -> None:
    """Fill ``page.posts`` for a thread."""
    if page.page_type != "thread":
        return
    if page.replies:
        _reply_posts(page)
        return
    frames = _post_frames(page)
    if len(frames.units) >= MIN_POSTS:
        _unit_posts(page, frames)
        if page.posts:
            return
    headers = opening_headers(page)
    if len(headers) < MIN_POSTS:
        return
    lines = page.lines
    posts: list[Post] = []
    bodies: list[tuple[Line, ...]] = []
    bounds = [*headers, page.end]
    for k, header in enumerate(headers):
        stop = bounds[k + 1]
        if k + 1 < len(headers) and _author_line(page, stop - 1):
            stop -= 1  # the next post's author, on its own line above its header
        line = lines[header]
        pos, when = _header_date(line.text)
        author = _said_name(line.text[:pos])
        if author is None and _author_line(page, header - 1):
            author = lines[header - 1].text
        # (a line without a letter is a count: the post's points between its vote buttons)
        body = main_lines(line for line in lines[header + 1 : stop] if _has_letter(line.text))
        if body:
            posts.append(Post(author, when, joined(body)))
            bodies.append(body)
    if len(posts) >= MIN_POSTS:
        page.posts, page.post_bodies = posts, bodies


def _has_letter(text: str) -> bool:
    return any(char.isalpha() for char in text)


def _header_date(text: str) -> tuple[int, str | None]:
    """Where a post header's date opens, and the date (ISO); None for an age ("3h ago")."""
    dates = scan_dates(text)
    if dates:
        return dates[0][0], dates[0][1].iso()
    age = _AGO.search(text)
    return (age.start() if age else 0), None


def _said_name(head: str) -> str | None:
    """A header's text before its date as a name: none where it is a label ("Datum:")
    or a lone joining word (:data:`MAX_CONNECTOR` lower-case letters: "ab", "am",
    "on") running into the date. Members' names are often one lower-case word
    ("longshot", "bob • 3h ago"): those stay."""
    head = head.rstrip()
    if head.endswith((":", "：")):
        return None
    name = head.strip(_SEPARATORS)
    if not name:
        return None
    if name.islower() and name.isalpha() and len(name) <= MAX_CONNECTOR:
        # a joining word runs into the date; a name is set off from it ("bob • 3h ago")
        return name if head[-1] in _SEPARATORS else None
    return name


def _author_line(page: Page, i: int) -> bool:
    """A short line without a date or a sentence's end: a name (never the headline,
    nor a heading: a section's title above the first post it heads)."""
    if i < page.start or i >= len(page.lines) or i == page.headline:
        return False
    line = page.lines[i]
    if line.is_heading:
        return False
    text = line.text
    return (
        line.length <= MAX_AUTHOR
        and not text.endswith((".", "。", "!", "?", ":", "："))
        and _has_letter(text)  # not a count: a post's points, "12"
        and not scan_dates(text)
    )


def _reply_posts(page: Page) -> None:
    """A discussion's posts: one per reply unit (``page.replies``), its text the
    unit's own lines (up to the first reply nested in it), header and controls
    left out; its author the header's text before the date when that reads as
    a name (short, no digits: not "12 points")."""
    lines, units = page.lines, page.replies
    posts: list[Post] = []
    bodies: list[tuple[Line, ...]] = []
    for k, (first, last) in enumerate(units):
        header = _header(page, first, last, True)
        if header is None:
            continue
        own = min(last, units[k + 1][0]) if k + 1 < len(units) else last
        body = main_lines(
            line
            for i, line in enumerate(lines[first:own], first)
            if i != header and not post_chrome(line, page.options)
        )
        if not body:
            continue
        dates = scan_dates(lines[header].text)
        when = dates[0][1].iso() if dates else None
        posts.append(Post(_header_name(lines[header]), when, joined(body)))
        bodies.append(body)
    if len(posts) >= MIN_POSTS:
        page.posts, page.post_bodies = posts, bodies


# Groups of post units compared for the outermost (:func:`_post_frames`).
MAX_FRAME_GROUPS = 16


class Frames(NamedTuple):
    """A thread's posts as its software frames them (:func:`_post_frames`)."""

    units: list[Region]  # one per post, in page order
    dates: dict[int, str | None]  # the short dated lines around them (_short_dates)
    replies: list[Region]  # posts' own replies inside them (a Q&A answer's comments)


def _post_frames(page: Page) -> Frames:
    """The thread's post units for cutting it into posts: of the groups of repeated
    post-named elements (:func:`_unit_groups`) meeting the main region and
    showing a date, the outermost (a group inside another's units is a part of
    each post: its signature, its author's card), the one of most units; the
    short dated lines from the region's start on (:func:`_short_dates`); and the
    units of the groups inside them that a post holds several of, dated: the
    replies to a post (comments under a Q&A answer), not its text."""
    lines = page.lines
    spans = lines.spans
    found = [
        units
        for units in (
            [spans[block] for block in blocks if _overlaps(spans[block], page.start, page.end)]
            for blocks in PostUnits(page).groups()
        )
        if len(units) >= MIN_POSTS
    ]
    if not found:
        return Frames([], {}, [])
    begin = min(first for units in found for first, _last in units)
    stop = max(last for units in found for _first, last in units)
    dates = _short_dates(lines, begin, stop)
    dated = list(dates)
    groups = [
        units
        for units in ([unit for unit in units if _any_between(dated, *unit)] for units in found)
        if len(units) >= MIN_POSTS
    ]
    # The groups of most units (the first in page order among equals: the outer
    # ones) are compared two by two: a bound whatever the page's names.
    groups = sorted(groups, key=len, reverse=True)[:MAX_FRAME_GROUPS]
    outer = [g for g in groups if not any(h != g and _within(g, h) for h in groups)]
    units = max(outer, key=len, default=[])
    replies = sorted(
        unit
        for group in groups
        if group != units and _within(group, units) and _several_in_one(group, units)
        for unit in group
    )
    return Frames(units, dates, replies)


def _several_in_one(inner: list[Region], outer: list[Region]) -> bool:
    """Whether some unit of ``outer`` holds two units of ``inner`` or more."""
    starts = [first for first, _last in outer]
    holders = [bisect_right(starts, first) - 1 for first, _last in inner]
    return len(set(holders)) < len(holders)


# What sorts after every ISO date: a post's age ("3 hours ago") is recent.
_RECENT = "~"


def _short_dates(lines: PageLines, start: int, stop: int) -> dict[int, str | None]:
    """The short dated lines of ``start..stop`` (:func:`_short_dated`), in order:
    line index -> its date (ISO, or :data:`_RECENT` for an age), or None for a
    labelled field of an author's panel ("Joined: Feb 2015"), no post's date."""
    found: dict[int, str | None] = {}
    for i in range(start, stop):
        line = lines[i]
        if line.length > MAX_POST_HEADER:
            continue
        text = line.text
        dates = scan_dates(text)
        if dates:
            labelled = text[: dates[0][0]].rstrip().endswith((":", "："))
            found[i] = None if labelled else dates[0][1].iso()
        elif _AGO.search(text):
            found[i] = _RECENT
    return found


def _overlaps(span: Region, start: int, end: int) -> bool:
    """Whether a unit's lines meet the main region's (its header may sit above it)."""
    return span[0] < end and span[1] > start and span[1] > span[0]


def _any_between(sorted_lines: list[int], first: int, last: int) -> bool:
    """Whether ``sorted_lines`` holds a line of ``first..last``."""
    k = bisect_left(sorted_lines, first)
    return k < len(sorted_lines) and sorted_lines[k] < last


def _within(inner: list[Region], outer: list[Region]) -> bool:
    """Whether every unit of ``inner`` lies in a unit of ``outer`` (both in page order)."""
    starts = [first for first, _last in outer]
    for first, last in inner:
        k = bisect_right(starts, first) - 1
        if k < 0 or last > outer[k][1]:
            return False
    return True


def _unit_posts(page: Page, frames: Frames) -> None:
    """A thread's posts cut by its post units (:func:`_post_frames`), one per unit.

    Forum software frames each post the same way: its author's panel ("Joined"
    and a date, counts, a rank) or card (badges), its header. The header is the
    dated line in the element every post dates itself in: of the elements holding
    a short dated line in most units, the one with the latest dates (an author
    joined before writing), its earliest line in a unit (a post is edited after
    it is written). The text is what is said on the side of the header that says
    more, less the frame's lines (:func:`_frame_shapes`) and the post's replies
    (:class:`Frames`): after it where the header tops the post, before it where
    the software signs the post at its foot. The author is the header's name,
    unless, not linked, it is the software's word (shown by most headers, or one
    lower-case word: "Posted", "answered"); or else the name linked to a profile
    on the header's other side, or else a short line right there (a name the
    software does not link). The date is the header's (none for an age).
    """
    lines = page.lines
    units, dates = frames.units, frames.dates
    replies = {i for first, last in frames.replies for i in range(first, last)}
    labels = frame_labels(lines)
    frame = _frame_shapes(lines, units)
    dated = [_unit_dates(page, first, last, dates) for first, last in units]
    key = _header_key(dated)
    # (unit, header, its date, the header's name, the lines dated in its element)
    read: list[tuple[Region, int, str, str | None, set[int]]] = []
    for k, (first, last) in enumerate(units):
        own = min(last, units[k + 1][0]) if k + 1 < len(units) else last
        found = {i: when for i, (when, where) in dated[k].items() if i < own and where == key}
        if found:
            header = min(found, key=found.__getitem__)
            name = _header_name(lines[header])
            read.append(((first, own), header, found[header], name, set(found)))
    # A word every header shows ("Posted", "answered") is the software's, not a name.
    counts = Counter(name for _unit, _header, _when, name, _dated in read)
    common = max(MIN_POSTS, len(read) / 2)
    posts: list[Post] = []
    bodies: list[tuple[Line, ...]] = []
    for (first, own), header, when, name, headers in read:
        kept = [
            i
            for i in range(first, own)
            if i not in headers  # the header, and an edit's date shown as it is
            and i not in replies
            and said(lines[i], lines, page.options, labels)
            and _shape(lines[i].text) not in frame
        ]
        before = [i for i in kept if i < header]
        after = [i for i in kept if i > header]
        below = _weight(lines, after, dates) >= _weight(lines, before, dates)
        body = main_lines(lines[i] for i in (after if below else before))
        if not body:
            continue
        author = name
        line = lines[header]
        if author is not None and not _linked(line, author):
            if counts[author] >= common or (author.islower() and " " not in author):
                author = None  # "Posted", "answered", "asked"
        if author is None:
            # The author's name stands on the header's other side from the text.
            if below:
                author = _linked_name(page, first, header)
                author = author or _plain_name(page, header - 1, first, own)
            else:
                author = _linked_name(page, header + 1, own)
                author = author or _plain_name(page, header + 1, first, own)
        posts.append(Post(author, None if when == _RECENT else when, joined(body)))
        bodies.append(body)
    if len(posts) >= MIN_POSTS:
        page.posts, page.post_bodies = posts, bodies


def _linked(line: Line, name: str) -> bool:
    """Whether the header's link is its name (to the author's profile), not its
    date (to the post) or nothing: its link text is as long as the name."""
    return abs(line.link_length - len("".join(name.split()))) <= 1


def _plain_name(page: Page, i: int, first: int, own: int) -> str | None:
    """Line ``i`` of the unit ``first..own`` when it is an author's name the software
    does not link: a short line beside the header (:func:`_author_line`), without
    digits, in an element named for its author ("comment-author"). An author's
    panel shows a rank, a place beside the header too."""
    if not first <= i < own or not _author_line(page, i):
        return None
    lines = page.lines
    text = lines[i].text
    block = lines[i].block
    names = lines.names[block] if block >= 0 else None
    if _DIGITS.search(text) or text.lower() in AUTHOR_WORDS or not names:
        return None
    return text if any(word in names for word in AUTHOR_WORDS) else None


def _header_name(line: Line) -> str | None:
    """A header's text before its date or age, when it reads as a name: short
    (:data:`MAX_AUTHOR`), without digits."""
    head = line.text
    dates = scan_dates(head)
    age = _AGO.search(head)
    cut = dates[0][0] if dates else age.start() if age else 0
    name = _name(head[:cut])
    return name if name and len(name) <= MAX_AUTHOR and not _DIGITS.search(name) else None


_DIGIT_RUNS = re.compile(r"\d+")


def _shape(text: str) -> str:
    """A line's text less its numbers: "55.4k24 gold badges" and "3,916 gold
    badges" are one shape, a panel's field with another member's counts."""
    return _DIGIT_RUNS.sub("", text)


def _frame_shapes(lines: PageLines, units: list[Region]) -> set[str]:
    """The shapes of the short lines (:data:`MAX_POST_HEADER`) shown in half the
    units or more (and :data:`MIN_POSTS`): the frame of every post (labels, counts,
    badges, controls), not what a post says."""
    seen: dict[str, int] = {}
    for first, last in units:
        shapes = {_shape(line.text) for line in lines[first:last] if line.length <= MAX_POST_HEADER}
        for shape in shapes:
            seen[shape] = seen.get(shape, 0) + 1
    least = max(MIN_POSTS, len(units) / 2)
    return {shape for shape, count in seen.items() if count >= least}


def _weight(lines: PageLines, kept: list[int], dates: dict[int, str | None]) -> int:
    """Characters said in ``kept`` outside dated lines: what a side of a header holds."""
    return sum(lines[i].length for i in kept if i not in dates)


def _unit_dates(
    page: Page, first: int, last: int, dates: dict[int, str | None]
) -> dict[int, tuple[str, Element]]:
    """The unit's short dated lines that are no labelled field: line index -> (its
    date; the element it is in)."""
    lines = page.lines
    found: dict[int, tuple[str, Element]] = {}
    for i in range(first, last):
        when = dates.get(i)
        if when is not None:
            line = lines[i]
            found[i] = (when, (line.tag, lines.names[line.block] if line.block >= 0 else None))
    return found


def _header_key(dated: list[dict[int, tuple[str, Element]]]) -> Element | None:
    """The element posts are dated in: shown in most units, then the latest dates."""
    units: dict[Element, int] = {}
    latest: dict[Element, str] = {}
    for found in dated:
        for when, where in found.values():
            latest[where] = max(latest.get(where, ""), when)
        for where in {where for _when, where in found.values()}:
            units[where] = units.get(where, 0) + 1
    return max(units, key=lambda where: (units[where], latest[where]), default=None)


# A linked name this short is an avatar's initial, not a name.
MIN_NAME = 2


def _linked_name(page: Page, first: int, end: int) -> str | None:
    """The first line of ``first..end`` that is wholly a short link without digits:
    an author's name linked to their profile."""
    for line in page.lines[first:end]:
        if (
            MIN_NAME <= line.length <= MAX_AUTHOR
            and line.link_length == line.length
            and not _DIGITS.search(line.text)
        ):
            return line.text
    return None


# Words a header sets around its author's name: "by Minoa » Tue Aug 27, 2019".
_LEADS = frozenset(("by",))
_WEEKDAYS = frozenset(
    """mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday
    friday saturday sunday""".split()
)


def _name(text: str) -> str:
    """The name part of a header before its date: separators, a joining word
    (:data:`MAX_CONNECTOR`), the weekday opening the date and a leading "by"
    dropped."""
    words = text.strip(_SEPARATORS).split()
    while words and words[-1].strip(_SEPARATORS + "»").lower() in _WEEKDAYS:
        words.pop()
    while words and not words[-1].strip(_SEPARATORS + "»"):
        words.pop()  # a separator of its own ("»")
    if len(words) > 1 and words[-1].islower() and len(words[-1]) <= MAX_CONNECTOR:
        words.pop()
    if len(words) > 1 and words[0].lower() in _LEADS:
        words.pop(0)
    return " ".join(words).strip(_SEPARATORS)
