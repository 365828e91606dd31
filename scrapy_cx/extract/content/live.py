"""A live blog's entries as ``posts``, each with its time.

A live blog (schema.org ``LiveBlogPosting``) is one page of short timestamped
entries, newest first. Its JSON-LD lists them (``liveBlogUpdate``: each update's
``datePublished``, ``author``, ``headline`` and ``articleBody``); a page without
it shows them as a run of time stamps ("10:32", ``<time datetime>``), each above
its entry. The JSON-LD is read first; the page's own entries only on a page that
says it is live (its declared type, or an element named "live..." or "ticker"
around the stamps), and only with :data:`MIN_ENTRIES` entries or more: an article
with a few dated paragraphs is no live blog.

The text stays the article's (the entries are part of it); ``posts`` adds where
each entry starts and when it was written. Each post's ``html`` (where asked
for) is its text as paragraphs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from itertools import islice
from typing import Any

from lxml import etree, html

from ...article import Post
from ..fields.dateparse import scan_dates
from ..page import Evidence, Page
from ..parse.lines import Line, name_parts
from ..parse.meta import jsonld_types
from .posts import MAX_POST_HEADER
from .text import joined, main_lines

__all__ = ["MIN_ENTRIES", "find_live_posts", "iso_date", "jsonld_updates", "time_of_day"]

MIN_ENTRIES = 3  # time-stamped entries that make a page's own live blog
MAX_UPDATES = 500  # updates read from JSON-LD
MAX_UPDATE_TEXT = 20_000  # characters of one update's text
LIVE_WORDS = frozenset(("live", "liveblog", "liveticker", "ticker", "livefeed", "liveupdates"))
NAME_LEVELS = 4  # a stamp's block and its ancestors read for a live word
_SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")
# A time of day opening a line: "10:32", "10.32am", "9:05 pm GMT", "14h05".
_TIME = re.compile(
    r"^\s*(?P<h>[01]?\d|2[0-3])[:.h](?P<m>[0-5]\d)(?::[0-5]\d)?(?!\d)\s*(?P<ap>[ap]\.?\s?m\.?)?(?![\w:.]\d)",
    re.IGNORECASE,
)
_TAG = re.compile(r"<[a-zA-Z/!][^>]*>")
MAX_TIMES = 200  # <time datetime> elements read
MAX_DATE = 64  # characters of a machine-readable date read


def find_live_posts(page: Page) -> None:
    """Fill ``page.posts`` with a live blog's entries where no thread's posts are.

    Reads the JSON-LD nodes, the page type and declared types, the lines of the
    main region and the published date; writes ``posts`` and their evidence."""
    if page.posts or page.page_type not in ("article", "thread"):
        return
    for node in page.meta.jsonld:
        posts = jsonld_updates(node)
        if posts:
            _found(page, posts, "jsonld:liveBlogUpdate")
            return
    if page.page_type == "article":
        posts = _page_entries(page)
        if posts:
            _found(page, posts, "live blog entries")


def _found(page: Page, posts: list[Post], source: str) -> None:
    if "html" in page.formats:
        posts = [Post(p.author, p.published, p.text, _paragraphs(p.text)) for p in posts]
    page.posts = posts
    page.evidence["posts"] = Evidence(source, None, f"{len(posts)} entries")


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{escape(line)}</p>" for line in text.split("\n") if line.strip())


def jsonld_updates(node: dict[str, Any]) -> list[Post]:
    """The posts of a JSON-LD ``LiveBlogPosting`` node's ``liveBlogUpdate``, as written
    (each with a text or a time); [] for any other node."""
    if "LiveBlogPosting" not in jsonld_types(node):
        return []
    updates = node.get("liveBlogUpdate")
    if isinstance(updates, dict):
        updates = [updates]
    if not isinstance(updates, list):
        return []
    posts = []
    for update in updates[:MAX_UPDATES]:
        if not isinstance(update, dict):
            continue
        text = _update_text(update)
        raw = update.get("datePublished") or update.get("dateCreated")
        published = iso_date(raw) if isinstance(raw, str) else None
        if text or published:
            posts.append(Post(_author(update.get("author")), published, text))
    return posts


def _update_text(update: dict[str, Any]) -> str:
    """An update's headline and body, one paragraph per line (markup in a body read
    as text)."""
    parts: list[str] = []
    for key in ("headline", "articleBody", "text", "description"):
        value = update.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        value = value[:MAX_UPDATE_TEXT]
        if _TAG.search(value):
            value = _markup_text(value)
        lines = [" ".join(line.split()) for line in value.splitlines()]
        text = "\n".join(line for line in lines if line)
        if text and not any(text in part or part in text for part in parts):
            parts.append(text)
        if key == "articleBody" and text:
            break  # the body: "text" and "description" repeat it
    return "\n".join(parts)


def _markup_text(value: str) -> str:
    try:
        root = html.fragment_fromstring(value, create_parent="div")
    except (etree.ParserError, ValueError):
        return _TAG.sub(" ", value)
    for block in root.iter("p", "br", "li", "h2", "h3", "h4", "div", "blockquote"):
        block.tail = "\n" + (block.tail or "")
    return root.text_content()


def _author(value: Any) -> str | None:
    """The first person named as the update's author (an organisation is none)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        if "Organization" in jsonld_types(value):
            return None
        value = value.get("name")
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())[:100]
    return None


def iso_date(raw: str) -> str | None:
    """A machine-readable date (JSON-LD's ``datePublished``, ``<time datetime>``: ISO
    8601 by their specs) as ISO, read by the date shapes alone: never dateparser, which
    a page of hundreds of odd values would make slow."""
    found = scan_dates(raw.strip()[:MAX_DATE])
    return found[0][1].iso() if found else None


def time_of_day(text: str) -> tuple[int, int] | None:
    """The (hour, minute) a line opens with ("10.32am" is (10, 32), "9:05 pm" (21, 5))."""
    m = _TIME.match(text)
    if m is None:
        return None
    hour, minute = int(m.group("h")), int(m.group("m"))
    meridiem = (m.group("ap") or "").lower()[:1]
    if meridiem and not 1 <= hour <= 12:
        return None
    if meridiem == "p" and hour != 12:
        hour += 12
    elif meridiem == "a" and hour == 12:
        hour = 0
    return hour, minute


def _page_entries(page: Page) -> list[Post]:
    """The main region's time-stamped entries, on a page that says it is live."""
    lines = page.lines
    if not _live(page, range(page.start, page.end)):
        return []  # (the cheap test first: few pages are live)
    shown = _shown_times(page)
    stamps: list[tuple[int, str | None, tuple[int, int] | None]] = []
    for i in range(page.start, page.end):
        line = lines[i]
        if line.boilerplate or line.length > MAX_POST_HEADER:
            continue
        if line.text.rstrip().endswith(_SENTENCE_ENDS):
            continue
        stamp = (shown[i], None) if i in shown else _stamp(line)
        if stamp is not None:
            stamps.append((i, *stamp))
    if len(stamps) < MIN_ENTRIES or not _live(page, [i for i, _, _ in stamps]):
        return []
    times = _dated_times(page, [clock for _, _, clock in stamps])
    posts = []
    bounds = [i for i, _, _ in stamps[1:]] + [page.end]
    for (i, when, _clock), stop, timed in zip(stamps, bounds, times, strict=True):
        body = main_lines(line for line in lines[i + 1 : stop] if _has_letter(line))
        if body:
            posts.append(Post(None, when or timed, joined(body)))
    return posts if len(posts) >= MIN_ENTRIES else []


def _has_letter(line: Line) -> bool:
    return any(char.isalpha() for char in line.text)


def _shown_times(page: Page) -> dict[int, str]:
    """Lines of the main region that show a ``<time datetime>``: line -> its time (ISO).
    The page's ``<time>`` elements come from the parse's index; each is matched to the
    region's line of its nearest block element that shows its text."""
    times = [el for el in page.elements or () if el.tag == "time" and el.get("datetime")]
    if not times:
        return {}
    lines = page.lines
    owner: dict[etree._Element, list[int]] = {}
    for i in range(page.start, page.end):
        if lines[i].block >= 0:
            owner.setdefault(lines.elements[lines[i].block], []).append(i)
    found: dict[int, str] = {}
    for time in times[:MAX_TIMES]:
        holder = next((a for a in islice(time.iterancestors(), NAME_LEVELS) if a in owner), None)
        shown = " ".join("".join(time.itertext()).split())
        if holder is None or not shown:
            continue
        line = next((i for i in owner[holder] if shown in lines[i].text), None)
        if line is not None and line not in found:
            when = iso_date(time.get("datetime") or "")
            if when is not None:
                found[line] = when
    return found


def _stamp(line: Line) -> tuple[str | None, tuple[int, int] | None] | None:
    """A header line's time: a date it holds, or the time of day it opens with (the
    second value); None for a line that is no stamp."""
    dates = scan_dates(line.text)
    if dates:
        return dates[0][1].iso(), None
    clock = time_of_day(line.text)
    return None if clock is None else (None, clock)


def _live(page: Page, headers: Iterable[int]) -> bool:
    """The page says it is live: its declared type, or a live word in the name of a
    header line's block or one of its nearest ancestors (each block read once)."""
    if "LiveBlogPosting" in page.declared:
        return True
    lines = page.lines
    seen: set[int] = set()
    for i in headers:
        block = lines[i].block
        for _ in range(NAME_LEVELS):
            if block < 0 or block in seen:
                break
            seen.add(block)
            names = lines.names[block]
            if names and _live_name(names):
                return True
            block = lines.parents[block]
    return False


def _live_name(names: str) -> bool:
    lowered = names.lower()
    if "live" not in lowered and "ticker" not in lowered:
        return False  # (most names: no split)
    return not LIVE_WORDS.isdisjoint(name_parts(names))


def _dated_times(page: Page, clocks: list[tuple[int, int] | None]) -> list[str | None]:
    """Each time of day on the page's published day, where all of them run one way
    (newest first or oldest first: one day's entries); None where that fails."""
    day = (page.published or "")[:10]
    known = [clock for clock in clocks if clock is not None]
    one_day = known == sorted(known) or known == sorted(known, reverse=True)
    if not re.fullmatch(r"\d{4}-\d\d-\d\d", day) or not one_day:
        return [None] * len(clocks)
    return [
        f"{day}T{clock[0]:02d}:{clock[1]:02d}:00" if clock is not None else None for clock in clocks
    ]
