"""The posts of a thread (Wang et al. 2016, "non-continuous" bodies): author, date, text.

A forum thread, a Q&A page or a blog page of several posts repeats one unit: a
short header line holding the post's date (often its author too), then the
post's text. The headers found inside the main region cut it into posts, in
page order. The content stays the region's text, headers included: measured on
wceb_dev, dropping the headers lost more of the posts' text than it saved.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate

from ..article import Post
from ._page import Page, Region
from .dates import scan_dates
from .lines import Line, LineOptions, PageLines, main_text, name_parts

__all__ = [
    "dated_header",
    "find_posts",
    "merge_units",
    "post_chrome",
    "post_headers",
    "post_units",
    "PostUnits",
]

MAX_POST_HEADER = 80  # characters of a post's header line
MAX_AUTHOR = 40  # characters of an author's name on its own line above the header
MIN_POSTS = 3  # headers that make a region a series of posts
# A short lower-case last word of a header's name part joins it to its date
# ("caprock on Dec 27", "ann at 10:12"): not part of the name.
MAX_CONNECTOR = 3
_SEPARATORS = " ·|-–—,:@"


# Post units: forum, Q&A and comment software names each post's element with one
# of these words ("message message--post", "post_wrapper", "comment", "answer"),
# and repeats that element, class and all, once per post.
POST_UNIT_WORDS = frozenset(("post", "message", "comment", "reply", "answer"))
MAX_UNIT_NAME = 300  # characters of a class attribute read (longer: generated, not a post's)
MAX_UNITS = 100  # units of one group whose heads are read for a date (the rest: taken as read)
UNIT_EDGE_LINES = 12  # lines at the top and bottom of a unit read for its date
_DIGITS = re.compile(r"\d")
# A post's age as forum software shows it ("17 hours ago", "1 year ago", "3d ago").
_AGO = re.compile(
    r"\b\d+\s?(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|[smhdwy])"
    r"\s+ago\b",
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
    date of its own, are read once. Page typing asks for both."""

    __slots__ = ("_dated", "_groups", "page")

    def __init__(self, page: Page) -> None:
        self.page = page
        self._groups: list[list[int]] | None = None
        self._dated: dict[int, bool] = {}  # block id -> a short dated line at its edges

    def units(self, *, above: bool = False) -> list[Region]:
        """``post_units(page, above=above)``."""
        spans = self.page.lines.spans
        if self._groups is None:
            self._groups = _unit_groups(self.page.lines)
        best: list[Region] = []
        rest: list[int] = []
        for blocks in self._groups:
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
        dated = self._dated.get(block)
        if dated is None:
            dated = self._dated[block] = _header(self.page, start, end, False) is not None
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
    """A short dated line that is no sentence: a post's header, a story's byline."""
    return (
        line.length <= MAX_POST_HEADER
        and not line.text.rstrip().endswith(_SENTENCE_ENDS)
        and bool(scan_dates(line.text))
    )


def post_headers(page: Page) -> list[int]:
    """Indexes of the short dated lines inside the main region that are no sentences."""
    lines = page.lines
    return [
        i
        for i in range(page.start, page.end)
        if not lines[i].boilerplate and dated_header(lines[i])
    ]


def find_posts(page: Page) -> None:
    """Fill ``page.posts`` for a thread."""
    if page.page_type != "thread":
        return
    if page.replies:
        _reply_posts(page)
        return
    headers = post_headers(page)
    if len(headers) < MIN_POSTS:
        return
    lines = page.lines
    posts: list[Post] = []
    bounds = [*headers, page.end]
    for k, header in enumerate(headers):
        stop = bounds[k + 1]
        if k + 1 < len(headers) and _author_line(page, stop - 1):
            stop -= 1  # the next post's author, on its own line above its header
        line = lines[header]
        pos, found = scan_dates(line.text)[0]
        author = line.text[:pos].strip(_SEPARATORS) or None
        if author is None and _author_line(page, header - 1):
            author = lines[header - 1].text
        text = main_text(lines[header + 1 : stop])
        if text:
            posts.append(Post(author, found.iso(), text))
    if len(posts) >= MIN_POSTS:
        page.posts = posts


def _author_line(page: Page, i: int) -> bool:
    """A short line without a date or a sentence's end: a name."""
    if i < page.start or i >= len(page.lines):
        return False
    line = page.lines[i]
    text = line.text
    return (
        line.length <= MAX_AUTHOR
        and not text.endswith((".", "。", "!", "?", ":", "："))
        and not scan_dates(text)
    )


def _reply_posts(page: Page) -> None:
    """A discussion's posts: one per reply unit (``page.replies``), its text the
    unit's own lines (up to the first reply nested in it), header and controls
    left out; its author the header's text before the date when that reads as
    a name (short, no digits: not "12 points")."""
    lines, units = page.lines, page.replies
    posts: list[Post] = []
    for k, (first, last) in enumerate(units):
        header = _header(page, first, last, True)
        if header is None:
            continue
        own = min(last, units[k + 1][0]) if k + 1 < len(units) else last
        text = main_text(
            line
            for i, line in enumerate(lines[first:own], first)
            if i != header and not post_chrome(line, page.options)
        )
        if not text:
            continue
        head = lines[header].text
        dates = scan_dates(head)
        age = _AGO.search(head)
        cut = dates[0][0] if dates else age.start() if age else 0
        author: str | None = _name(head[:cut])
        if not author or len(author) > MAX_AUTHOR or _DIGITS.search(author):
            author = None
        posts.append(Post(author, dates[0][1].iso() if dates else None, text))
    if len(posts) >= MIN_POSTS:
        page.posts = posts


def _name(text: str) -> str:
    """The name part of a header before its date, separators and a joining word
    (:data:`MAX_CONNECTOR`) dropped."""
    words = text.strip(_SEPARATORS).split()
    if len(words) > 1 and words[-1].islower() and len(words[-1]) <= MAX_CONNECTOR:
        words.pop()
    return " ".join(words).strip(_SEPARATORS)
