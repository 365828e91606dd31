"""The posts of a thread (Wang et al. 2016, "non-continuous" bodies): author, date, text.

A forum thread, a Q&A page or a blog page of several posts repeats one unit: a
short header line holding the post's date (often its author too), then the
post's text. The headers found inside the main region cut it into posts, in
page order. The content stays the region's text, headers included: measured on
wceb_dev, dropping the headers lost more of the posts' text than it saved.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..article import Post
from ._page import Page, Region
from .dates import scan_dates
from .lines import main_text, name_parts

__all__ = ["find_posts", "post_headers", "post_units"]

MAX_POST_HEADER = 80  # characters of a post's header line
MAX_AUTHOR = 40  # characters of an author's name on its own line above the header
MIN_POSTS = 3  # headers that make a region a series of posts
_SEPARATORS = " ·|-–—,:@"


# Post units: forum, Q&A and comment software names each post's element with one
# of these words ("message message--post", "post_wrapper", "comment", "answer"),
# and repeats that element, class and all, once per post.
POST_UNIT_WORDS = frozenset(("post", "message", "comment", "reply", "answer"))
MAX_UNIT_NAME = 300  # characters of a class attribute read (longer: generated, not a post's)
MAX_UNITS = 100  # units of one group whose heads are read for a date
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
    lines = page.lines
    groups: dict[tuple[str, str], list[int]] = {}
    for block, names in enumerate(lines.names):
        # (a long name is never cached: a page of huge unique names must not pin memory)
        key = _unit_key(names) if names and len(names) <= MAX_UNIT_NAME else None
        if key is not None:
            groups.setdefault((lines.tags[block], key), []).append(block)
    best: list[Region] = []
    for blocks in groups.values():
        if len(blocks) < MIN_POSTS:
            continue
        posts = [
            span
            for span in map(lines.spans.__getitem__, blocks[:MAX_UNITS])
            if _post(page, *span, above)
        ]
        if len(posts) >= MIN_POSTS and len(posts) > len(best):
            best = posts
    return best


def _post(page: Page, start: int, end: int, above: bool) -> bool:
    """A unit with a short dated line at its top or bottom (or right above it)."""
    lines = page.lines
    top = max(start - 1, 0) if above else start
    edges = (
        range(top, end)
        if end - start <= 2 * UNIT_EDGE_LINES
        else (*range(top, start + UNIT_EDGE_LINES), *range(end - UNIT_EDGE_LINES, end))
    )
    return any(
        lines[i].length <= MAX_POST_HEADER
        and (_AGO.search(lines[i].text) is not None or bool(scan_dates(lines[i].text)))
        for i in edges
    )


def post_headers(page: Page) -> list[int]:
    """Indexes of the short dated lines inside the main region."""
    lines = page.lines
    return [
        i
        for i in range(page.start, page.end)
        if lines[i].length <= MAX_POST_HEADER
        and not lines[i].boilerplate
        and scan_dates(lines[i].text)
    ]


def find_posts(page: Page) -> None:
    """Fill ``page.posts`` for a thread."""
    if page.page_type != "thread":
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
