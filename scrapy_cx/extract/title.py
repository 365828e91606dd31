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
from dataclasses import dataclass

from .lines import Line
from .meta import PageMeta

SEPARATORS = re.compile(r"\s*(?:——|[|_\-–—·:｜＿－:：»~•]|\s/\s)\s*")
_MAX_PARTS = 12
_MAX_TITLE = 400  # characters of <title> worth splitting
_MAX_LINE = 300  # longer lines are paragraphs, not headlines
_ABOVE = 40  # how far above the main text a headline may sit (lines)
_BELOW = 3  # ... and how far into it
_NEAR_ABOVE = 12  # lines above the main text searched for a heading-like line
_HEADING_RANK = {"h1": 3.0, "h2": 2.0, "h3": 1.5, "h4": 1.2, "h5": 1.1, "h6": 1.1}
_WS = re.compile(r"\s+")
_NOT_HEADLINE = re.compile(
    r"当前位置|您的位置|你的位置|来源[:：]|作者[:：]|发布[时日]|时间[:：]|日期[:：]|点击[:：]|"
    r"首页|^(?:by|posted|updated|home|menu|share|log ?in|sign ?in|search)\b|>|»|\d{4}[-/年.]\d",
    re.I,
)
_SITE_LIKE = re.compile(
    r"(?:网|網|网站|博客|部落格|论坛|論壇|频道|首页|在线|娱乐|\.com|\.cn|\.net|\.org|blog|"
    r"archiver|forum|online)$",
    re.I,
)
_DECORATION = re.compile(r"(?:\s*[-_—]\s*[-_—]\s*)+$")  # blog templates add "- -"


def _key(text: str) -> str:
    """Comparison form: NFKC, casefold, no whitespace."""
    return _WS.sub("", unicodedata.normalize("NFKC", text).casefold())


def _clean(text: str) -> str:
    return _WS.sub(" ", _DECORATION.sub("", text)).strip()


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
    return key in sites or bool(_SITE_LIKE.search(key)) or any(key in s for s in sites if s)


def _line_weight(line: Line, index: int, start: int, end: int) -> float:
    """How plausible a headline this line's position and tag make it."""
    if line.length and line.link_length * 2 > line.length:
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
    index: dict[str, list[int]] = {}
    for i, line in enumerate(lines[: end + _BELOW]):
        if 0 < line.length <= _MAX_LINE and line.link_length * 2 <= line.length:
            index.setdefault(_key(line.text), []).append(i)
    best: _Match | None = None
    for source in sources:
        for span in title_spans(source):
            key = _key(span)
            if len(key) < 2:
                continue
            for i in index.get(key, ()):
                score = len(key) * _line_weight(lines[i], i, start, end)
                if best is None or score > best.score:
                    best = _Match(_clean(lines[i].text), i, score)
    # A shown headline may carry a marker the title lacks: "(图)", "(转载)", a kicker.
    lo, hi = max(0, start - _NEAR_ABOVE), min(len(lines), start + _BELOW)
    for source in sources:
        whole = _key(source)
        for span in title_spans(source)[:_MAX_PARTS]:
            key = _key(span)
            if len(key) < 6:
                continue
            for i in range(lo, hi):
                line = lines[i]
                text_key = _key(line.text)
                if len(text_key) > len(key) + 8 or key not in text_key or text_key in whole:
                    continue
                score = 0.9 * len(key) * _line_weight(line, i, start, end)
                if best is None or score > best.score:
                    best = _Match(_clean(line.text), i, score)
    return best


def _heading_near(lines: list[Line], start: int, end: int) -> _Match | None:
    """The heading-like line just above (or opening) the main text."""
    lo = max(0, start - _NEAR_ABOVE)
    best: _Match | None = None
    for i in range(lo, min(len(lines), start + 2, end + 1)):
        line = lines[i]
        if not (2 <= line.length <= 120) or line.link_length or line.boilerplate:
            continue
        if _NOT_HEADLINE.search(line.text) or line.text.endswith((":", "：")):
            continue
        score = _HEADING_RANK.get(line.tag, 1.0) * 10
        if i < start:
            score -= (start - i) * 0.5
        elif i == start and i + 1 < len(lines) and lines[i + 1].length <= line.length:
            score -= 2  # the first of several short text lines is not a headline
        elif i > start:
            score -= 4
        if best is None or score > best.score:
            best = _Match(_clean(line.text), i, score)
    return best


def find_title(
    meta: PageMeta,
    lines: list[Line],
    main_start: int,
    main_end: int | None = None,
    url: str | None = None,
) -> tuple[str | None, int | None]:
    """Return ``(title, index of its line or None)``; never the site name alone."""
    end = len(lines) if main_end is None else main_end
    sites = _site_key(meta, url)
    sources = [meta.title_tag] if meta.title_tag else []
    sources += [value for value, _source in meta.titles]
    matched = _match_sources(sources, lines, main_start, end)
    if matched is not None and _looks_like_site(matched.text, sites):
        matched = None if len(_key(matched.text)) < 16 else matched
    near = _heading_near(lines, main_start, end)
    if matched is not None and matched.index is not None:
        far = not (main_start - _ABOVE <= matched.index <= main_start + _BELOW)
        if not (far and near is not None and len(_key(matched.text)) < 16):
            return matched.text, matched.index
    if near is not None and (near.score >= 8 or not sources):
        return near.text, near.index
    for value in sources[1:] + sources[:1]:
        part = _best_part(value, sites)
        if part:
            return part, None
    return (near.text, near.index) if near is not None else (None, None)


def _best_part(title: str, sites: set[str]) -> str | None:
    """Without a body match: the longest part of a strong split that is not the site."""
    parts = [p.strip() for p in re.split(r"\s[|\-–—·»]\s|\s*[|｜_＿]\s*|——", title[:_MAX_TITLE])]
    parts = [p for p in parts if p and not _looks_like_site(p, sites)]
    if not parts:
        return None
    return max(parts, key=len)
