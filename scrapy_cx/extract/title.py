"""The headline: <title> split on separators and checked against what the body shows.

<title> usually holds the headline plus site and section names joined by
separators, and the headline also appears in the body as a line of its own
(not inside a link). So every run of neighbouring <title> parts is looked up
among the body's lines; the longest run the page shows near its main text is
the headline, re-joined if it contains a separator itself. Old portals put only
the site name in <title>; then the heading-like line just above the main text
is the headline.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from ._page import Evidence, Page
from .dates import scan_dates
from .lines import Line
from .meta import PageMeta

# No \s* around: parts are stripped anyway, and a run of spaces must not cost O(n^2).
SEPARATORS = re.compile(r"——|[|_\-–—·:｜＿－：»~•]|\s/\s")
_MAX_PARTS = 12
_MAX_TITLE = 400  # characters of <title> worth splitting
_MAX_LINE = 300  # longer lines are paragraphs, not headlines
_ABOVE = 40  # how far above the main text a headline may sit (lines)
_BELOW = 3  # ... and how far into it
_NEAR_ABOVE = 12  # lines above the main text searched for a heading-like line
_HEADING_RANK = {"h1": 3.0, "h2": 2.0, "h3": 1.5, "h4": 1.2, "h5": 1.1, "h6": 1.1}
_LINKABLE = frozenset(("h1", "h2", "h3"))
_WS = re.compile(r"\s+")
_LABEL = re.compile(r"^(?:主题|標題|标题|题目|title)\s?[:：]\s?", re.I)
_STAT = re.compile(r"[:：]\s?\d|^\S{1,6}[:：]\S{0,7}$|^\d+(?:[.,]\d+)?[kKmM万]?$")
_NOT_HEADLINE = re.compile(
    r"当前位置|您的位置|你的位置|来源[:：]|作者[:：]|发布[时日]|时间[:：]|日期[:：]|点击[:：]|"
    r"首页|欢迎|^[—\-－–]|^[一二三四五六七八九十\d]{1,3}[、.．]|"
    r"^(?:by|posted|updated|home|menu|share|log ?in|sign ?in|search)\b|"
    r"\s[>»]\s|->|>>|\d{4}[-/年.]\d",
    re.I,
)
_SITE_LIKE = re.compile(
    r"(?:网|網|网站|博客|部落格|论坛|論壇|频道|首页|在线|娱乐|\.com|\.cn|\.net|\.org|blog|"
    r"archiver|forum|online)$",
    re.I,
)
_DASHES = " -_—"


_FOLD = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "－": "-"})


def _key(text: str) -> str:
    """Comparison form: NFKC, casefold, one kind of quote and dash, no whitespace."""
    if text.isascii():  # already NFKC, nothing to fold: the common case, kept cheap
        return "".join(text.lower().split())
    return "".join(unicodedata.normalize("NFKC", text).casefold().translate(_FOLD).split())


def _clean(text: str) -> str:
    """Collapse spaces and drop a trailing run of two or more dashes ("- -", blog templates)."""
    stripped = text.rstrip(_DASHES)
    if sum(c != " " for c in text[len(stripped) :]) >= 2:
        text = stripped
    return _WS.sub(" ", text).strip()


@dataclass(slots=True)
class _Match:
    text: str  # what to return
    index: int | None  # its line
    score: float


def title_spans(title: str) -> list[str]:
    """Every run of neighbouring parts of ``title``, cut on separators, longest first."""
    title = title[:_MAX_TITLE]
    bounds = [0]
    for m in SEPARATORS.finditer(title):
        if m.start() > bounds[-1] and len(bounds) < 2 * _MAX_PARTS:
            bounds.extend((m.start(), m.end()))
    bounds.append(len(title))
    starts, ends = bounds[0::2], bounds[1::2]
    spans = {
        title[starts[i] : ends[j]].strip() for i in range(len(starts)) for j in range(i, len(ends))
    }
    return sorted((s for s in spans if s), key=len, reverse=True)


def _site_key(meta: PageMeta, url: str | None) -> set[str]:
    keys = set()
    if meta.site_name:
        keys.add(_key(meta.site_name))
    if url:
        host = url.split("//", 1)[-1].split("/", 1)[0].lower()
        keys.add(host)
        keys.add(host.removeprefix("www."))
    return keys


def _looks_like_site(text: str, sites: set[str]) -> bool:
    key = _key(text)
    if key in sites or _SITE_LIKE.search(key):
        return True
    return len(key) >= 3 and any(key in site for site in sites)  # "example" in example.com


def _linked(line: Line) -> bool:
    """Mostly link text: a menu item, unless it is a heading linking to itself."""
    return line.link_length * 2 > line.length and line.tag not in _LINKABLE


def _line_weight(line: Line, index: int, start: int, end: int) -> float:
    """How plausible a headline this line's position and tag make it."""
    if _linked(line):
        return 0.0
    weight = _HEADING_RANK.get(line.tag, 1.0)
    if start - _ABOVE <= index <= start + _BELOW:
        weight *= 2.0
    elif index > end:
        weight *= 0.3
    if line.boilerplate:
        weight *= 0.5
    return weight


def _match_sources(sources: list[str], lines: list[Line], start: int, end: int) -> _Match | None:
    """The best body line that shows one run of a title source's parts."""
    if not sources:
        return None
    sources = list(dict.fromkeys(sources))
    spans = {_key(span): span for source in sources for span in title_spans(source)}
    spans.pop("", None)
    by_length = sorted((len(k), k) for k in spans if len(k) >= 6)
    lengths = [n for n, _k in by_length]
    best: _Match | None = None

    def offer(text: str, index: int, score: float) -> None:
        nonlocal best
        if score > 0 and (best is None or score > best.score):
            best = _Match(text, index, score)

    # Keys cost NFKC and more: only lines as long as a run (or a run plus a marker) get one.
    shortest = min(map(len, spans), default=0) - 4
    longest = max(map(len, spans), default=0) + 12
    lo, hi = max(0, start - _ABOVE), min(len(lines) - 1, start + _BELOW)
    keys = [""] * len(lines)
    for i, line in enumerate(lines[: end + _BELOW]):
        if shortest <= line.length <= min(longest, _MAX_LINE) or (
            lo <= i <= hi and 2 <= line.length <= _MAX_LINE
        ):
            keys[i] = _key(line.text)
            key = keys[i]
            if len(key) >= 2 and key in spans:
                offer(_clean(line.text), i, len(key) * _line_weight(line, i, start, end))
    whole = {_key(source) for source in sources}
    for i in range(lo, hi + 1):
        key, line = keys[i], lines[i]
        if len(key) < 4 or _linked(line):
            continue
        weight = _line_weight(line, i, start, end)
        # A headline shown on two lines ("main title" / "——subtitle"): return <title>'s run.
        if i < hi and keys[i + 1] and key + keys[i + 1] in spans:
            pair = key + keys[i + 1]
            offer(_clean(spans[pair]), i, len(pair) * weight)
        if i < start - _NEAR_ABOVE:
            continue
        in_title: bool | None = None
        first = bisect_left(lengths, len(key) - 8)
        last = bisect_right(lengths, len(key) * 10 // 7)
        for _n, span_key in by_length[first:last]:
            if span_key == key:
                continue
            if span_key in key:
                # The shown headline carries a marker the title lacks: "(图)", "(转载)".
                if in_title is None:
                    in_title = any(key in w for w in whole)
                if not in_title:
                    offer(_clean(line.text), i, 0.9 * len(span_key) * weight)
            elif span_key.startswith(key):
                # The title carries a marker the page does not show: "(页 1)".
                offer(_clean(line.text), i, 0.9 * len(key) * weight)
    return best


def _heading_near(lines: list[Line], start: int, end: int) -> _Match | None:
    """The heading-like line just above (or opening) the main text."""
    lo = max(0, start - _ABOVE)
    best: _Match | None = None
    for i in range(lo, min(len(lines), start + 2, end + 1)):
        line = lines[i]
        heading = line.tag in _HEADING_RANK
        if not heading and i < start - _NEAR_ABOVE:
            continue
        if not (2 <= line.length <= 120) or (line.boilerplate and not heading) or _linked(line):
            continue
        if line.link_length and not heading:
            continue
        text = line.text
        label = _LABEL.match(text)
        if label:
            text = text[label.end() :]
        dates = scan_dates(text)
        if dates:
            # A table row may hold the headline and its date: keep the headline.
            pos, found = dates[0]
            if line.tag != "tr" or pos < 4 or not text.rstrip().endswith(found.raw):
                continue
            text = text[:pos].strip()
        if _NOT_HEADLINE.search(text) or text.endswith((":", "：")):
            continue
        if not heading and _STAT.search(text):
            continue
        if sum(c.isalpha() for c in text) < 2:
            continue
        if not heading and (text.endswith((".", "。")) or (i >= start and line.length > 60)):
            continue  # a sentence of the text, not a headline above it
        if line.link_length and _SITE_LIKE.search(_key(text)):
            continue  # the site's name as a link home
        score = _HEADING_RANK.get(line.tag, 1.0) * 10 + (5 if label else 0)
        if i < start:
            score -= (start - i) * (0.25 if heading else 1.0)
        elif i > start:
            score -= 4
        if line.length < 4 and not heading:
            score -= 3
        if line.boilerplate:
            score -= 10
        if line.link_length:
            score -= 5
        following = lines[i + 1] if i + 1 < len(lines) else None
        if following is not None and (
            following.length >= 2 * line.length or scan_dates(following.text[:80])
        ):
            score += 2
        if best is None or score > best.score:
            best = _Match(_clean(text), i, score)
    return best


def find_title(page: Page) -> None:
    """Fill ``page.title``, ``page.title_index`` and the title's evidence; never the site
    name alone. Reads the metadata, the lines and the main region."""
    title, index = _title(page)
    page.title, page.title_index = title, index
    if title is None:
        return
    if index is not None:
        page.evidence["title"] = Evidence("line", index, page.lines[index].text)
        return
    named = [(page.meta.title_tag, "title_tag")] if page.meta.title_tag else []
    named += page.meta.titles
    source, raw = next(((s, v) for v, s in named[1:] + named[:1] if title in v), ("", title))
    page.evidence["title"] = Evidence(source, None, raw)


def _title(page: Page) -> tuple[str | None, int | None]:
    """Return ``(title, index of its line or None)``."""
    meta, lines, main_start, end = page.meta, page.lines, page.start, page.end
    sites = _site_key(meta, page.url)
    sources = [meta.title_tag] if meta.title_tag else []
    sources += [value for value, _source in meta.titles]
    matched = _match_sources(sources, lines, main_start, end)
    if matched is not None and _looks_like_site(matched.text, sites):
        matched = None if len(_key(matched.text)) < 16 else matched
    near = _heading_near(lines, main_start, end)
    if matched is not None and matched.index is not None:
        far = not (main_start - _ABOVE <= matched.index <= main_start + _BELOW)
        shown_as_h1 = lines[matched.index].tag == "h1"
        if shown_as_h1 or not (far and near is not None and len(_key(matched.text)) < 16):
            return matched.text, matched.index
    if (
        near is not None
        and (near.score >= 8 or not sources)
        and not _weak(near.text, sources, sites)
    ):
        return near.text, near.index
    for value in sources[1:] + sources[:1]:
        part = _best_part(value, sites)
        if part:
            return part, None
    return (near.text, near.index) if near is not None else (None, None)


def _weak(text: str, sources: list[str], sites: set[str]) -> bool:
    """A one- or two-word Latin heading ("Definitions", "Science") is a section name, not a
    headline, when the page has a <title> that is not just the site's name."""
    if len(text.split()) > 2 or not text.isascii():
        return False
    return any(not _looks_like_site(source, sites) for source in sources)


def _best_part(title: str, sites: set[str]) -> str | None:
    """Without a body match: the longest part of a strong split that is not the site."""
    parts = [p.strip() for p in re.split(r"\s[|\-–—·»]\s|\s*[|｜_＿]\s*|——", title[:_MAX_TITLE])]
    parts = [p for p in parts if p and not _looks_like_site(p, sites)]
    if not parts:
        return None
    return max(parts, key=len)
