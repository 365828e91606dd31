"""Authors: the byline the page shows under its headline, else the metadata's names.

Metadata names are often a site, a desk or a user id; the byline ("By Ann Lee
and Bo Chen", "本报记者 王燕平 方云凤", "作者：芊草凡凡") is what readers see, so it
is read first, from a few short lines next to the headline only.
"""

from __future__ import annotations

import re

from ._page import Evidence, Page
from .lines import Line

_BYLINE_SCAN = 6  # lines under the headline (or above the text) looked at
_MAX_LINE = 200  # a longer line is prose, not a byline
_MAX_NAMES = 10

_LATIN_LABEL = re.compile(
    r"(?:^|[|·•(（]\s?)(?:written by|posted by|by|von|par|por|di|door|av|autor(?:in)?:?|"
    r"author:?)\s+(?=\S)",
    re.I,
)
# A bare name under the headline counts only when a date, an age or a separator follows it.
_BARE_NAME = re.compile(
    r"^(?P<name>[^\W\d_][\w.'’-]*(?:\s[^\W\d_][\w.'’-]*){1,3})"
    r"(?=\s?(?:[-–—•·|]|\d|$))"
)
_MONTH_WORDS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
)
# Where a Latin byline's names end: a date, a separator, a role, a time.
_LATIN_STOP = re.compile(
    r"\d|[|·•—–(（/\n]|\s-\s|\b(?:on|at|for|in|updated|published|posted|photo|photos|reporter|"
    r"correspondent|editor|staff|writer|contributor|senior|analyst|follow|email|twitter|"
    + _MONTH_WORDS
    + r")\b",
    re.I,
)
_NAME_SPLIT = re.compile(r",|\s(?:and|und|et|y|e|&)\s", re.I)
_PARTICLES = frozenset("de da del della di du van von der den le la bin al el st. mc".split())
_CJK_LABEL = re.compile(
    r"(?:本报记者|特约记者|实习生|通讯员|记者|作者|撰文|文|编译|主笔|發表人|发表人|楼主)"
    r"\s?[:：/／|]\s?|(?:本报记者|特约记者|实习生|通讯员|记者|作者)\s"
)
_CJK_NAME = re.compile(r"[\u4e00-\u9fff·]{2,4}|[A-Za-z][\w.-]{1,30}")
_CJK_STOP = re.compile(r"来源|出处|时间|日期|发布|责任|编辑|责编|摄影|报道|\d|[|（(]")
_INNER_CAPITAL = re.compile(r"(?<!^Mc)(?<!^Mac)(?<!^O')(?<!^D')[a-z][A-Z]")


def _latin_names(text: str) -> list[str]:
    m = _LATIN_LABEL.search(text)
    if m is None:
        return []
    rest = text[m.end() :]
    stop = _LATIN_STOP.search(rest)
    if stop is not None:
        rest = rest[: stop.start()]
    names: list[str] = []
    for part in _NAME_SPLIT.split(rest):
        words = part.split()
        if not 2 <= len(words) <= 5:
            continue
        if all(w[0].isupper() or w.lower() in _PARTICLES for w in words if w):
            names.append(" ".join(words).strip(" ,.;:"))
    return names


def _cjk_names(text: str) -> list[str]:
    m = _CJK_LABEL.search(text)
    if m is None:
        return []
    rest = text[m.end() :]
    stop = _CJK_STOP.search(rest)
    if stop is not None:
        rest = rest[: stop.start()]
    names: list[str] = []
    for part in re.split(r"[\s、，,]+", rest.strip())[:_MAX_NAMES]:
        if part and _CJK_NAME.fullmatch(part):
            names.append(part)
    return names


def _bare_name(line: Line) -> list[str]:
    """ "Dan Goodin - Apr 16, 2015", "Alex Perry 1 day ago", <address>Mike Conley</address>."""
    m = _BARE_NAME.match(line.text)
    if m is None or (line.tag != "address" and m.end() == len(line.text)):
        return []
    name = m.group("name")
    words = name.split()
    if not all(w[0].isupper() and not _INNER_CAPITAL.search(w) for w in words):
        return []  # "Yahoo FinanceOctober": words glued by the markup, not a name
    if _LATIN_STOP.search(name):
        return []
    return [name]


def byline_authors(lines: list[Line], title_index: int | None, main_start: int) -> list[str]:
    """Names from the byline next to the headline, or an empty list."""
    lo = title_index + 1 if title_index is not None else max(0, main_start - _BYLINE_SCAN)
    hi = min(len(lines), max(lo, main_start) + 3, lo + 2 * _BYLINE_SCAN)
    for i in range(lo, hi):
        line = lines[i]
        if line.length > _MAX_LINE:
            continue
        text = line.text
        names = _latin_names(text) if text.isascii() else (_cjk_names(text) or _latin_names(text))
        if not names and title_index is not None and i <= title_index + 3:
            names = _bare_name(line)
        if names:
            return names[:_MAX_NAMES]
    return []


def find_authors(page: Page) -> None:
    """Fill ``page.authors``: the byline's names if the page shows one, else the
    metadata's; and their evidence."""
    shown = byline_authors(page.lines, page.title_index, page.start)
    names = shown or page.meta.authors
    page.authors = tuple(dict.fromkeys(n.strip() for n in names if n.strip()))
    if not page.authors:
        return
    if shown:
        index = page.line_with(shown[0], page.title_index or 0)
        raw = page.lines[index].text if index is not None else shown[0]
        page.evidence["authors"] = Evidence("byline", index, raw)
    else:
        page.evidence["authors"] = Evidence("meta", None, ", ".join(page.meta.authors))
