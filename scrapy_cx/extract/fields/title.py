"""The headline, decided once: <title> split on separators and checked against the body.

One rule finds the headline's line and its text (Wang et al. 2016: the title is
the page's own name for it, shown again in the body), and every stage reads that
one answer: the selection leaves the line out of the text and starts after it,
the date and byline searches start under it.

<title> usually holds the headline plus site and section names joined by
separators, and the headline also appears in the body as a line of its own
(not inside a link). The page's one ``<h1>`` showing one of its titles is the
headline wherever the text starts (a shop's product name sits far above its
description). Otherwise every run of neighbouring <title> parts is looked up
among the body's lines; the longest run the page shows near its main text is
the headline, re-joined if it contains a separator itself; a short run or a
lone part (the site's name) shown far from the text loses to a heading right
above it. Old portals put only the site name in <title>; then the heading-like
line just above the main text is the headline, never a line as long as the
text's own (then it is the text).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace

from ..page import Evidence, Page
from ..parse.lines import Line
from ..parse.meta import PageMeta
from .dateparse import scan_dates

# No \s* around: parts are stripped anyway, and a run of spaces must not cost O(n^2).
SEPARATORS = re.compile(r"——|[|_\-–—·:｜＿－：»~•【】＜＞]|\s/\s")
_MAX_PARTS = 12
_MAX_TITLE = 400  # characters of <title> worth splitting
_MAX_LINE = 300  # longer lines are paragraphs, not headlines
_ABOVE = 40  # how far above the main text a headline may sit (lines)
_BELOW = 3  # ... and how far into it
_NEAR_ABOVE = 12  # lines above the main text searched for a heading-like line
_HEADING_RANK = {"h1": 3.0, "h2": 2.0, "h3": 1.5, "h4": 1.2, "h5": 1.1, "h6": 1.1}
# A title match's score: its length times the tag's rank, times these by where it is.
_NEAR_FACTOR = 2.0  # just above or opening the main text
_AFTER_FACTOR = 0.3  # below the main text
_BOILERPLATE_FACTOR = 0.5  # in a menu, aside or footer
_MARKER_FACTOR = 0.9  # shown with a marker the title lacks, or lacking one it has
_MIN_KEY = 4  # characters of a line near the text compared with title runs
_MIN_RUN = 6  # characters of a title run looked for inside a longer line
_RUN_SLACK = 4, 12  # a line this much shorter / longer than the runs may still show one
_MARKER_CHARS = 8  # characters a marker may add ...
_MARKER_SHARE = 10, 7  # ... and at most this ratio of the run it is added to
_PART_FACTOR = 0.5  # the last part of <title>, shorter than another: likely the site's name
_SURE_MATCH = 16  # characters of a matched title run that hold wherever it is shown
# A heading-like line near the text (no title run shown): its score.
_MAX_NEAR = 120  # characters: longer is a paragraph
_NEAR_POINTS = 10  # per unit of the tag's rank
_LABEL_POINTS = 5  # "标题：" before it
_HEADING_STEP, _LINE_STEP = 0.25, 1.0  # lost per line above the text (heading, other)
_INSIDE_COST = 4  # the second line of the text, not above it
_TINY_NEAR, _TINY_COST = 4, 3  # a non-heading this short (characters) loses this
_BOILERPLATE_COST = 10
_LINK_COST = 5
_FOLLOWED_POINTS = 2  # followed by a much longer line or a date
_DATE_LOOKAHEAD = 80  # characters of the next line searched for that date
_MAX_OPENING = 60  # characters of a non-heading opening the text that may head it
_MIN_NEAR_SCORE = 8  # a weaker heading loses to <title>'s best part
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
_MAX_SITE = 60  # characters: a longer remainder of <title> is a second headline, not a site
_H1_SHARE = 0.5  # share of a title an <h1> must show (or hold) to be the headline outright
_MIN_H1 = 4  # ... and at least this many characters (a logo's initials are no headline)


# Quotes and dashes compared as one kind. Replaced one by one, not by str.translate:
# translate looks each character of a non-ASCII text up in a dict (a fifth of a
# page's headline search went there).
_FOLDS = (("‘", "'"), ("’", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"), ("－", "-"))
# The characters whose case folding is not one character (ß -> ss, ǰ, ﬁ, Greek
# with iota subscript...): the only ones, besides what NFKC changes, that make a
# key's length differ from its text's count of non-space characters.
_MULTI_FOLD = re.compile(
    "[\u00df\u0130\u0149\u01f0\u0390\u03b0\u0587\u1e96-\u1e9a\u1e9e\u1f50\u1f52"
    "\u1f54\u1f56\u1f80-\u1faf\u1fb2-\u1fb4\u1fb6-\u1fb7\u1fbc\u1fc2-\u1fc4"
    "\u1fc6-\u1fc7\u1fcc\u1fd2-\u1fd3\u1fd6-\u1fd7\u1fe2-\u1fe4\u1fe6-\u1fe7"
    "\u1ff2-\u1ff4\u1ff6-\u1ff7\u1ffc\ufb00-\ufb06\ufb13-\ufb17]"
)


def _key(text: str) -> str:
    """Comparison form: NFKC, casefold, one kind of quote and dash, no whitespace."""
    if text.isascii():  # already NFKC, nothing to fold: the common case, kept cheap
        return "".join(text.lower().split())
    folded = unicodedata.normalize("NFKC", text).casefold()
    for old, new in _FOLDS:
        if old in folded:
            folded = folded.replace(old, new)
    return "".join(folded.split())


def _key_length_known(text: str) -> bool:
    """Whether ``_key(text)`` is known to hold as many characters as ``text`` has
    non-space ones (``Line.length``) without making it: ASCII, or NFKC already
    and nothing whose case folding is longer. Most lines are compared by that
    length alone."""
    if text.isascii():
        return True
    return unicodedata.is_normalized("NFKC", text) and _MULTI_FOLD.search(text) is None


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
        weight *= _NEAR_FACTOR
    elif index > end:
        weight *= _AFTER_FACTOR
    if line.boilerplate:
        weight *= _BOILERPLATE_FACTOR
    return weight


def _match_sources(sources: list[str], lines: list[Line], start: int, end: int) -> _Match | None:
    """The best body line that shows one run of a title source's parts."""
    if not sources:
        return None
    sources = list(dict.fromkeys(sources))
    spans: dict[str, str] = {}  # key -> the last span with that key
    keyed: dict[str, str] = {}  # span -> its key: the sources share most spans
    for source in sources:
        for span in title_spans(source):
            run_key = keyed.get(span)
            if run_key is None:
                run_key = keyed[span] = _key(span)
            spans[run_key] = span
    spans.pop("", None)
    by_length = sorted((len(k), k) for k in spans if len(k) >= _MIN_RUN)
    lengths = [n for n, _k in by_length]
    best: _Match | None = None

    def offer(text: str, index: int, score: float) -> None:
        nonlocal best
        if score > 0 and (best is None or score > best.score):
            best = _Match(text, index, score)

    # Keys cost NFKC and more: only lines as long as a run (or a run plus a marker) get one.
    whole = {_key(source) for source in sources}
    names = {_site_part(source) for source in sources} - whole
    shortest = min(map(len, spans), default=0) - _RUN_SLACK[0]
    longest = max(map(len, spans), default=0) + _RUN_SLACK[1]
    lo, hi = max(0, start - _ABOVE), min(len(lines) - 1, start + _BELOW)
    # "" for no key, None for one made only if the loop below reads it.
    keys: list[str | None] = [""] * len(lines)
    # Most lines' keys are as long as their non-space characters (line.length,
    # _key_length_known): one that no run is as long as needs a key only near the
    # text (the loop below), and there only if a run may show in it (a run plus a
    # marker at most). A line that cannot be offered here (mostly links: it weighs
    # nothing; or no run as long) gets its key when that loop reads it, if it does.
    run_lengths = set(map(len, spans))
    beyond = max(run_lengths, default=0) + _MARKER_CHARS
    top = min(longest, _MAX_LINE)
    for i, line in enumerate(lines[: end + _BELOW]):
        near = lo <= i <= hi
        if not (shortest <= line.length <= top or (near and 2 <= line.length <= _MAX_LINE)):
            continue
        if line.length > beyond or (line.length not in run_lengths and not near):
            if _key_length_known(line.text):
                continue
            pending = _linked(line)
        else:
            pending = _linked(line) or (
                line.length not in run_lengths and _key_length_known(line.text)
            )
        if pending:
            keys[i] = None
            continue
        keys[i] = key = _key(line.text)
        if len(key) >= 2 and key in spans:
            score = len(key) * _line_weight(line, i, start, end)
            offer(_clean(line.text), i, score * (_PART_FACTOR if key in names else 1.0))

    def key_at(i: int) -> str:
        key = keys[i]
        if key is None:
            key = keys[i] = _key(lines[i].text)
        return key

    for i in range(lo, hi + 1):
        line = lines[i]
        if _linked(line) or len(key := key_at(i)) < _MIN_KEY:
            continue
        weight = _line_weight(line, i, start, end)
        # A headline shown on two lines ("main title" / "——subtitle"): return <title>'s run.
        if i < hi and (below := key_at(i + 1)) and key + below in spans:
            pair = key + below
            offer(_clean(spans[pair]), i, len(pair) * weight)
        if i < start - _NEAR_ABOVE:
            continue
        in_title: bool | None = None
        first = bisect_left(lengths, len(key) - _MARKER_CHARS)
        last = bisect_right(lengths, len(key) * _MARKER_SHARE[0] // _MARKER_SHARE[1])
        for _n, span_key in by_length[first:last]:
            if span_key == key:
                continue
            if span_key in key:
                # The shown headline carries a marker the title lacks: "(图)", "(转载)".
                if in_title is None:
                    in_title = any(key in w for w in whole)
                if not in_title and not _other_name(key, span_key):
                    offer(_clean(line.text), i, _MARKER_FACTOR * len(span_key) * weight)
            elif span_key.startswith(key):
                # The title carries a marker the page does not show: "(页 1)".
                offer(_clean(line.text), i, _MARKER_FACTOR * len(key) * weight)
    return best


def _other_name(key: str, run: str) -> bool:
    """A short title run with a word added ("Firefox" shown as "Firefox OS") names
    something else; a marker is set apart ("(图)", "组图："), and a long run keeps a
    kicker glued to it ("Genetik" + the headline)."""
    return len(run) < _SURE_MATCH and key.replace(run, "", 1).isalnum()


def _heading_near(lines: list[Line], start: int, end: int) -> _Match | None:
    """The heading-like line just above (or opening) the main text; not a line as long
    as the text's longest other line (then it is the text, not its heading)."""
    lo = max(0, start - _ABOVE)
    best: _Match | None = None
    for i in range(lo, min(len(lines), start + 2, end + 1)):
        line = lines[i]
        heading = line.tag in _HEADING_RANK
        if not heading and i < start - _NEAR_ABOVE:
            continue
        if start <= i < end and line.length >= max(
            (other.length for j, other in enumerate(lines[start:end], start) if j != i),
            default=0,
        ):
            continue
        if (
            not (2 <= line.length <= _MAX_NEAR)
            or (line.boilerplate and not heading)
            or _linked(line)
        ):
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
        if not heading and (
            text.endswith((".", "。")) or (i >= start and line.length > _MAX_OPENING)
        ):
            continue  # a sentence of the text, not a headline above it
        if line.link_length and _SITE_LIKE.search(_key(text)):
            continue  # the site's name as a link home
        score = _HEADING_RANK.get(line.tag, 1.0) * _NEAR_POINTS + (_LABEL_POINTS if label else 0)
        if i < start:
            score -= (start - i) * (_HEADING_STEP if heading else _LINE_STEP)
        elif i > start:
            score -= _INSIDE_COST
        if line.length < _TINY_NEAR and not heading:
            score -= _TINY_COST
        if line.boilerplate:
            score -= _BOILERPLATE_COST
        if line.link_length:
            score -= _LINK_COST
        following = lines[i + 1] if i + 1 < len(lines) else None
        if following is not None and (
            following.length >= 2 * line.length or scan_dates(following.text[:_DATE_LOOKAHEAD])
        ):
            score += _FOLLOWED_POINTS
        if best is None or score > best.score:
            best = _Match(_clean(text), i, score)
    return best


def find_headline(page: Page) -> None:
    """Decide the headline once: the selection's ``headline`` (its line, None when
    the page does not show it), ``title`` and the title's evidence; never the site
    name alone. The selection leaves that line out of the text and starts after
    it; the date and byline searches start under it. Reads the metadata, the lines
    and the region the selection found without a headline (a headline sits just
    above it); writes the selection."""
    title, index, shown = _title(page)
    evidence = None if title is None else _title_evidence(page, title, index if shown else None)
    page.selection = replace(page.selection, headline=index, title=title, title_evidence=evidence)


def _title_evidence(page: Page, title: str, shown_at: int | None) -> Evidence:
    """Where ``title`` was read: the line it was read from, else the metadata value
    (or ``<title>``) holding it."""
    if shown_at is not None:
        return Evidence("line", shown_at, page.lines[shown_at].text)
    named = [(page.meta.title_tag, "title_tag")] if page.meta.title_tag else []
    named += page.meta.titles
    source, raw = next(((s, v) for v, s in named[1:] + named[:1] if title in v), ("", title))
    return Evidence(source, None, raw)


def find_list_headline(page: Page) -> None:
    """A listing's text is its list: its headline is the one above the list
    (:func:`find_headline` anchored on it). A line of the list itself is one of its
    items, not a headline to leave out of the text: the title read from it stands,
    the line stays in the listing's text. Reads the page type and the selection;
    writes the selection (headline and title)."""
    if page.page_type != "listing":
        return
    find_headline(page)
    headline = page.headline
    if headline is not None and page.start <= headline < page.end:
        page.selection = replace(page.selection, headline=None)


def _title(page: Page) -> tuple[str | None, int | None, bool]:
    """Return ``(title, index of the headline's line or None, whether the title was
    read from that line)``."""
    meta, lines, main_start, end = page.meta, page.lines, page.start, page.end
    sites = _site_key(meta, page.url)
    sources = [meta.title_tag] if meta.title_tag else []
    sources += [value for value, _source in meta.titles]
    matched = _match_sources(sources, lines, main_start, end)
    h1 = _titled_h1(lines, sources, sites)
    if h1 is not None:
        if matched is not None and matched.index == h1:
            return matched.text, h1, True  # maybe on two lines, joined as <title> has it
        return _clean(lines[h1].text), h1, True
    if matched is not None and _looks_like_site(matched.text, sites):
        matched = None if len(_key(matched.text)) < _SURE_MATCH else matched
    near = _heading_near(lines, main_start, end)
    if matched is not None and matched.index is not None:
        far = not (main_start - _ABOVE <= matched.index <= main_start + _BELOW)
        shown_as_h1 = lines[matched.index].tag == "h1"
        if shown_as_h1 or not (far and near is not None and _minor(matched.text, sources)):
            return matched.text, matched.index, True
    if (
        near is not None
        and (near.score >= _MIN_NEAR_SCORE or not sources)
        and not _weak(near.text, sources, sites)
    ):
        return near.text, near.index, True
    # The page's name for the headline, not shown as such: the page's one <h1> heading
    # the text shows it, in its own words ("Bridge" for "Bridge to be rebuilt").
    h1 = _one_h1(lines)
    shown_at = h1 if h1 is not None and h1 <= main_start + _BELOW else None
    for value in sources[1:] + sources[:1]:
        part = _best_part(value, sites)
        if part:
            return part, shown_at, False
    return (near.text, near.index, True) if near is not None else (None, None, False)


def _lone_parts(title: str) -> list[str]:
    """Keys of the parts of ``title`` shorter than its longest: the site's or a
    section's name beside the headline ("Headline - Section - Site")."""
    parts = [_key(part) for part in SEPARATORS.split(title[:_MAX_TITLE])]
    longest = max(map(len, parts))
    return [part for part in parts if len(part) < longest]


def _site_part(title: str) -> str:
    """Key of the last part of ``title`` when a longer part precedes it: where most
    sites put their name ("Headline | Site"); "" if none."""
    parts = [_key(part) for part in SEPARATORS.split(title[:_MAX_TITLE])]
    return parts[-1] if len(parts[-1]) < max(map(len, parts)) else ""


def _minor(text: str, sources: list[str]) -> bool:
    """A short run of a title, or one part of it beside a longer one ("Headline - Site"
    shown as "Site"): shown far from the text, it is a section or the site's name,
    and a heading right above the text is the headline."""
    key = _key(text)
    return len(key) < _SURE_MATCH or any(key in _lone_parts(source) for source in sources)


def _titled_h1(lines: list[Line], sources: list[str], sites: set[str]) -> int | None:
    """The page's one ``<h1>`` when it shows one of its titles: two signals that agree
    wherever the text was found to start (a shop's product name sits far above its
    description). It shows a title when it is at least ``_H1_SHARE`` of a title it
    sits in ("Headline | Site") or holds a title and is at most 1/``_H1_SHARE`` of it,
    and is not the site's name (a logo)."""
    h1 = _one_h1(lines)
    if h1 is None:
        return None
    key = _key(lines[h1].text)
    if len(key) < _MIN_H1 or _looks_like_site(key, sites):  # a logo
        return None
    for source in sources:
        title = _key(source)
        if (key in title and len(key) >= _H1_SHARE * len(title)) or (
            title in key and len(title) >= _H1_SHARE * len(key)
        ):
            return h1
    return None


def _one_h1(lines: list[Line]) -> int | None:
    """The line of the page's one ``<h1>`` outside menus and asides, if it has one."""
    h1 = [i for i, line in enumerate(lines) if line.tag == "h1" and not line.boilerplate]
    return h1[0] if len(h1) == 1 else None


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


def find_site_name(page: Page) -> None:
    """Fill ``page.site_name``: og:site_name (or another site meta tag), the JSON-LD
    publisher, else the part of ``<title>`` beside the headline."""
    meta = page.meta
    if meta.site_name:
        page.site_name, source, raw = meta.site_name, "meta:site_name", meta.site_name
    elif meta.publisher:
        page.site_name, source, raw = meta.publisher, "jsonld:publisher", meta.publisher
    else:
        page.site_name = site_from_title(meta.title_tag, page.title)
        source, raw = "title_tag", meta.title_tag or ""
    if page.site_name:
        page.evidence["site_name"] = Evidence(source, None, raw)


def site_from_title(title_tag: str | None, headline: str | None) -> str | None:
    """The part of ``<title>`` the headline leaves: the site's name ("… | Daily Example").

    The site sits at the end of <title> on most sites and at its start on the
    rest; a section name beside it is dropped (the outermost part is the site).
    """
    if not title_tag or not headline:
        return None
    title_tag = _WS.sub(" ", title_tag[:_MAX_TITLE])
    start = title_tag.find(headline)
    if start < 0:
        return None
    after, before = title_tag[start + len(headline) :], title_tag[:start]
    for rest, outer, cut in ((after, -1, after.lstrip()[:1]), (before, 0, before.rstrip()[-1:])):
        parts = [p.strip() for p in SEPARATORS.split(rest) if p.strip()]
        if parts and cut and SEPARATORS.match(cut):
            site = parts[outer]
            if len(site) <= _MAX_SITE and sum(c.isalpha() for c in site) >= 2:
                return site
    return None
