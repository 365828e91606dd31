"""A thread's text: its posts selected again, not the longest of them."""

from __future__ import annotations

from dataclasses import replace

from ..fields.title import find_headline
from ..page import Page
from ..parse.lines import thread_lines
from .choose import select_in
from .posts import frame_labels, merge_units, post_chrome, post_units, said
from .text import main_lines

# A thread's posts are many sibling groups of a few lines each: no narrowing to
# one group or container, and a lower line cost, so short replies count.
THREAD_COST_SHARE = 0.75


def select_thread(page: Page) -> None:
    """Select again for a thread: the posts, not the longest one.

    Forum software names each post a "comment": the thread's lines are marked
    again with those elements read as text (from what the walk kept: no second
    walk). That reading is kept only when it keeps what the first one selected,
    or that was too short to be an article: an article followed by its comment
    section stays the article.

    Reads the page type, a discussion's replies and the selection; writes the
    selection (its lines too: the thread's reading of them).
    """
    if page.page_type != "thread":
        return
    if page.replies:
        _replies(page)
        return
    options = replace(
        page.options,
        container_share=0.0,
        card_share=0.0,
        body_share=0.0,
        line_cost=int(page.options.line_cost * THREAD_COST_SHARE),
    )
    select_in(page, options)
    before = page.selection
    lines = thread_lines(before.lines, page.options)
    page.selection = replace(before, lines=lines, regions=(), body=(), headline=None)
    select_in(page, options)
    find_headline(page)
    if page.headline is not None:
        select_in(page, options)
    if not page.content or (
        len(before.content) >= THREAD_MIN_ARTICLE and not _keeps(page.content, before.content)
    ):
        page.selection = before  # the first reading stands, its headline and title too
    _span_units(page)
    chosen = page.selection
    lines = chosen.lines
    start, end = page.start, page.end
    labels = frame_labels(lines)
    posts = [line for line in lines[start:end] if said(line, lines, options, labels)]
    body = main_lines(posts, lines)
    if body:
        page.selection = replace(chosen, body=body)


# The posts outweigh a selection made inside one of them this many times: short
# replies in big frames (an author panel of ten lines each) lost to the one post
# the line-block selection kept; the posts, first to last, are the content.
UNITS_SHARE = 2


def _span_units(page: Page) -> None:
    """Widen a thread's selection made inside one of its post units to all of them."""
    units = post_units(page)
    if not units or not any(first <= page.start < last for first, last in units):
        return
    first, last = units[0][0], max(end for _start, end in units)
    lines = page.lines
    spanned = sum(line.length for line in lines[first:last] if not line.boilerplate)
    selected = sum(line.length for line in lines[page.start : page.end] if not line.boilerplate)
    if spanned >= UNITS_SHARE * selected:
        region = (min(first, page.start), max(last, page.end))
        page.selection = replace(page.selection, regions=(region,))


def _replies(page: Page) -> None:
    """A discussion's content (``page.replies``, pagetype._discussion): the lines
    from its headline through the selection (the post, or the few lines of a
    submitted link), then the replies' text, the page's "comment" elements read
    as text (from what the walk kept: no second walk). Controls ("reply",
    "permalink", an author's linked name) are left out. Not a new line
    selection: that would keep the densest few replies only, a discussion's
    replies being short and each carrying its links."""
    chosen = page.selection
    lines = thread_lines(chosen.lines, page.options)
    headline = chosen.headline
    top = headline + 1 if headline is not None and headline < page.start else page.start
    kept = [line for line in lines[top : page.start] if not post_chrome(line, page.options)]
    kept += (line for line in lines[page.start : page.end] if not line.boilerplate)
    replies, _ = merge_units(page.replies)
    labels = frame_labels(lines)
    for first, last in replies:
        kept += (line for line in lines[first:last] if said(line, lines, page.options, labels))
    page.selection = replace(
        chosen,
        lines=lines,
        regions=(*chosen.regions[:1], *replies),
        body=main_lines(kept, lines) or chosen.body,
    )


# Share of the first selection's text the comment-reading selection must keep,
# when that text is long enough (characters) to be an article of its own.
THREAD_KEEP_SHARE = 0.5
THREAD_MIN_ARTICLE = 500


def _keeps(content: str, earlier: str) -> bool:
    """Whether ``content`` holds most of ``earlier``'s lines (as whole lines)."""
    kept = set(content.split("\n"))
    lines = earlier.split("\n")
    total = sum(map(len, lines))
    return sum(len(x) for x in lines if x in kept) >= THREAD_KEEP_SHARE * total
