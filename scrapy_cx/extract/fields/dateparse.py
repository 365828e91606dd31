"""One date out of a string: the common shapes (ISO, 2016年03月02日, 7/5/2005 9:23 PM,
March 2, 2016, 2 mars 2016, 19.11.2019 ...) read by compiled, linear regexes straight
into ``datetime``; dateparser (slow to import and to call) only sees what they cannot
read; relative dates ("3 hours ago") against a reference time; every sum on a date
total (None, never an exception, where it leaves the calendar).

Which of a page's dates is its publication date is dates.py's business; this module
only reads strings, and only a bounded prefix of each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, TypeVar

MIN_YEAR = 1990  # older "publication dates" on the web are historical dates in the text
MAX_LINE = 300  # characters of one line scanned for a date
_MAX_META = 100  # characters of one metadata value parsed

_MONTHS: dict[str, int] = {}
for _num, _names in enumerate(
    (
        "january jan janvier janv januar jän jänner enero ene gennaio genn janeiro januari "
        "января январь янв stycznia",
        "february feb février févr fevrier februar febrero febbraio fevereiro februari "
        "февраля февраль фев lutego",
        "march mar mars märz marz marzo março maart марта март",
        "april apr avril abril aprile апреля апрель апр kwietnia",
        "may mai mayo maggio maio mei мая май maja",
        "june jun juin juni junio giugno junho июня июнь czerwca",
        "july jul juillet juli julio luglio julho июля июль lipca",
        "august aug août aout agosto ago augustus августа август авг sierpnia",
        "september sep sept septembre settembre setembro septiembre setiembre "
        "сентября сентябрь сен сент września",
        "october oct octobre oktober octubre ottobre outubro okt октября октябрь окт października",
        "november nov novembre noviembre novembro ноября ноябрь ноя listopada",
        "december dec décembre decembre dezember diciembre dicembre dezembro dez "
        "декабря декабрь дек grudnia",
    ),
    start=1,
):
    for _name in _names.split():
        _MONTHS[_name] = _num

_TZ = {
    "utc": 0, "gmt": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300,
    "mst": -420, "mdt": -360, "pst": -480, "pdt": -420, "bst": 60, "cet": 60,
    "cest": 120, "eet": 120, "eest": 180, "ist": 330, "jst": 540, "kst": 540,
    "hkt": 480, "sgt": 480, "aest": 600, "aedt": 660, "msk": 180, "北京时间": 480,
}  # fmt: skip

TIME = (
    r"(?:(?:,|\s|T|日|at|um|à|a las|в)\s?){0,3}"
    r"(?P<h>[01]?\d|2[0-3])\s?[:：时時.h]\s?(?P<mi>[0-5]\d)(?:\s?[:：分]\s?(?P<s>[0-5]\d))?"
    r"(?:[.,]\d{1,9})?\s?(?P<ap>[AaPp]\.?[Mm]\b\.?)?"
    r"\s?(?P<tz>Z\b|[+-](?:[01]\d):?[0-5]\d\b|UTC|GMT|[ECMP][SD]T\b|BST|CES?T|EES?T|IST|JST|KST|"
    r"HKT|SGT|AES?T|AEDT|MSK)?"
)
# Year first: 2009-11-09, 2016/3/2, 2016.03.02, 2016年03月02日 (one separator style each).
YMD = re.compile(
    r"(?<!\d)(?P<y>(?:19|20)\d\d)"
    r"(?:(?P<sep>[-/.])(?P<m>[01]?\d)(?P=sep)(?P<d>[0-3]?\d)(?!\d)"
    r"|\s?[年년]\s?(?P<m2>[01]?\d)\s?[月월]\s?(?P<d2>[0-3]?\d)\s?[日일]?)"
    r"(?:" + TIME + r")?"
)
# Day or month first: 7/5/2005 9:23:57 PM, 19.11.2019, 19-11-2019.
DMY = re.compile(
    r"(?<![\d.])(?P<a>[0-3]?\d)(?P<sep>[-/.])(?P<b>[0-3]?\d)(?P=sep)(?P<y>(?:19|20)\d\d)(?!\d)"
    r"(?:" + TIME + r")?"
)
# The same, spaced as German and Czech also write it: 4. 2. 2022 (day first).
_DMY_SPACED = re.compile(
    r"(?<![\d.])(?P<a>[0-3]?\d)(?P<sep>\.)\s(?P<b>[01]?\d)\.\s(?P<y>(?:19|20)\d\d)(?!\d)"
    r"(?:" + TIME + r")?"
)
WORD = r"(?P<mon>[^\W\d_]{3,12})\.?"
# Month word first: March 2, 2016 / Nov. 19, 2019, 10:31 pm CST.
_MDY = re.compile(
    WORD + r"\s(?P<d>[0-3]?\d)(?:st|nd|rd|th)?,?\s(?P<y>(?:19|20)\d\d)(?!\d)(?:" + TIME + r")?"
)
# Day first: 2 March 2016 / 19. November 2019 / 19 de noviembre de 2019 / 19 ноября 2019 г.
_DMONY = re.compile(
    r"(?<!\d)(?P<d>[0-3]?\d)(?:st|nd|rd|th|er|\.)?\s(?:de\s|of\s)?"
    + WORD
    + r",?\s(?:de\s)?(?P<y>(?:19|20)\d\d)(?!\d)(?:"
    + TIME
    + r")?"
)
# Day, month word and year joined by hyphens: 04-Aug-2021, 04-ago-2021 5:11:10.
_DMONY_DASH = re.compile(
    r"(?<![\d-])(?P<d>[0-3]?\d)-" + WORD + r"-(?P<y>(?:19|20)\d\d)(?![\d-])(?:" + TIME + r")?"
)
RELATIVE = re.compile(
    r"(?P<n>\d{1,3}|an?|one)\s?(?P<unit>seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?"
    r"|秒钟?|分钟|小时|天|周)\s?(?:ago|前)"
    r"|(?P<word>昨天|前天|今天|刚刚|剛剛|yesterday|today|just now)"
    r"(?:\s?(?P<h>[01]?\d|2[0-3])[:：](?P<mi>[0-5]\d))?",
    re.I,
)
_UNIT_SECONDS = {"s": 1, "秒": 1, "m": 60, "分": 60, "h": 3600, "小": 3600, "d": 86400, "天": 86400}


@dataclass(frozen=True, slots=True)
class Found:
    """A date read from the page: when, what it said, and whether it had a time of day."""

    when: datetime
    raw: str
    has_time: bool

    def iso(self) -> str:
        if not self.has_time:
            return self.when.date().isoformat()
        return self.when.isoformat(timespec="seconds")


# Month abbreviations that are also English words: read only beside a year
# ("04-ago-2021"), never in a year-less "ago 3" ("2 hours ago 3 replies").
_NEEDS_YEAR = frozenset(("ago",))


def month_number(word: str, year_less: bool = False) -> int | None:
    word = word.lower().rstrip(".")
    if len(word) < 3:
        return None
    key = word if word in _MONTHS else word[:3]
    if year_less and key in _NEEDS_YEAR:
        return None
    return _MONTHS.get(key)


def build_found(year: int, month: int, day: int, m: re.Match[str] | None, raw: str) -> Found | None:
    hour = minute = second = 0
    has_time = False
    tz: timezone | None = None
    if m is not None and _timed(m):
        hour, minute = int(m.group("h")), int(m.group("mi"))
        second = int(m.group("s") or 0)
        ap = (m.group("ap") or "").lower()
        if ap.startswith("p") and hour < 12:
            hour += 12
        elif ap.startswith("a") and hour == 12:
            hour = 0
        has_time = True
        zone = m.group("tz")
        if zone:
            tz = _zone(zone)
    try:
        when = datetime(year, month, day, hour, minute, second, tzinfo=tz)
    except ValueError:
        return None
    return Found(when, raw.strip(" ,"), has_time)


def _timed(m: re.Match[str]) -> bool:
    """Whether ``m`` read a time of day: its pattern has the hour and minute groups
    and both matched. (groupindex, not groupdict(): no dict made per date.)"""
    return "h" in m.re.groupindex and m.group("h") is not None and m.group("mi") is not None


@lru_cache(maxsize=64)  # a handful of zones ("Z", "+00:00", "-05:00"...) date most pages
def _zone(text: str) -> timezone | None:
    if text[0] in "+-":
        digits = text[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:4])
        return timezone(timedelta(minutes=-minutes if text[0] == "-" else minutes))
    offset = _TZ.get(text.lower())
    return None if offset is None else timezone(timedelta(minutes=offset))


def from_match(
    kind: str, m: re.Match[str], month_first: bool, languages: tuple[str, ...] | None = None
) -> Found | None:
    raw = m.group(0)
    if kind == "ymd":
        month = m.group("m") or m.group("m2")
        day = m.group("d") or m.group("d2")
        return build_found(int(m.group("y")), int(month), int(day), m, raw)
    if kind == "dmy":
        a, b = int(m.group("a")), int(m.group("b"))
        if m.group("sep") == "." or a > 12:
            a, b = b, a  # 19.11.2019 and 19/11/2019 are day first
        elif b <= 12 and not month_first and not m.group("ap"):
            a, b = b, a
        return build_found(int(m.group("y")), a, b, m, raw)
    month_num = month_number(m.group("mon"))
    if month_num is None:
        # A month name the table lacks ("Kasım"): dateparser, only when told the language.
        if languages and any(not lang.startswith("en") for lang in languages):
            return _dateparser(raw.strip(" ,"), languages)
        return None
    return build_found(int(m.group("y")), month_num, int(m.group("d")), m, raw)


_SEPARATOR_BEFORE = frozenset("-/.")
# Each shape, and what it writes right before its year: nothing asked (year
# first), one of its separators (7/5/2005, 04-Aug-2021) or a space (March 2, 2016).
_PATTERNS: tuple[tuple[str, re.Pattern[str], Callable[[str], bool] | None], ...] = (
    ("ymd", YMD, None),
    ("dmy", DMY, _SEPARATOR_BEFORE.__contains__),
    ("mdy", _MDY, str.isspace),
    ("dmy", _DMY_SPACED, str.isspace),
    ("dmony", _DMONY, str.isspace),
    ("dmony", _DMONY_DASH, "-".__eq__),
)


_ISO_PREFIX = re.compile(r"[+-]?\d{4,}-\d")
# A year as every shape reads it: not followed by a digit (year first, it is
# followed by a separator or 年). Matches cannot overlap, so finditer finds each.
_YEAR_END = re.compile(r"(?:19|20)\d\d(?!\d)")


def scan_dates(
    text: str, month_first: bool = True, languages: tuple[str, ...] | None = None
) -> list[tuple[int, Found]]:
    """All absolute dates in ``text`` with their offsets, in reading order.

    A shape is only searched for when a year of the text has the character the
    shape writes before its year: a scan for the years first, where each of the
    five regexes tries every position of the text.
    """
    text = text[:MAX_LINE]
    years = [m.start() for m in _YEAR_END.finditer(text)]
    if not years:  # every shape here has a four-digit year
        return []
    before = {text[start - 1] for start in years if start}
    found: list[tuple[int, Found]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern, needs in _PATTERNS:
        if needs is not None and not any(map(needs, before)):
            continue
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            result = from_match(kind, m, month_first, languages)
            if result is not None:
                found.append((m.start(), result))
                taken.append((m.start(), m.end()))
    found.sort(key=lambda item: item[0])
    return found


def parse_date(
    text: str, month_first: bool = True, languages: tuple[str, ...] | None = None
) -> Found | None:
    """One date out of a short string (a meta value, a <time datetime>)."""
    text = text.strip()[:_MAX_META]
    if not text:
        return None
    if text.isdigit() and len(text) in (10, 13):  # a Unix timestamp
        seconds = int(text[:10])
        when = datetime.fromtimestamp(seconds, tz=timezone.utc)
        return Found(when, text, True)
    found = scan_dates(text, month_first, languages)
    if found:
        return found[0][1]
    if _ISO_PREFIX.match(text):
        return None  # an ISO shape the regexes refused is out of range ("0001-01-01")
    return _dateparser(text, languages)


@lru_cache(maxsize=512)
def _dateparser(text: str, languages: tuple[str, ...] | None) -> Found | None:
    """The slow path, for shapes the regexes do not know (cached: sites repeat themselves)."""
    if not any(c.isdigit() for c in text):
        return None
    import dateparser  # slow import: only when a page needs it

    settings: dict[str, Any] = {
        "PREFER_DAY_OF_MONTH": "first",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "STRICT_PARSING": True,
        "REQUIRE_PARTS": ["day", "month", "year"],
    }
    try:
        when = dateparser.parse(
            text, languages=list(languages) if languages else None, settings=settings
        )
    except Exception:  # dateparser raises many kinds on odd input
        return None
    if when is None:
        return None
    return Found(when, text, bool(when.hour or when.minute))


ONE_DAY = timedelta(days=1)
_Day = TypeVar("_Day", date, datetime)


def shift(when: _Day, delta: timedelta) -> _Day | None:
    """``when + delta``, or None where that leaves the calendar (years 1 to 9999).

    Every sum on a page's or a server's date goes through here: a date there may
    be anything ("9999-12-31T23:59-12:00"), and an out-of-range result means "no
    date" from that source, never an exception that loses the article."""
    try:
        return when + delta
    except OverflowError:
        return None


def now_of(reference: datetime | None) -> datetime:
    """The moment dates are checked against: the caller's reference time in UTC,
    naive (its wall time where UTC leaves the calendar: "9999-12-31T23:00-05:00"),
    else this machine's clock."""
    if reference is None:
        return datetime.now()
    return naive_utc(reference) or reference.replace(tzinfo=None)


def relative_date(text: str, reference: datetime) -> Found | None:
    m = RELATIVE.search(text[:MAX_LINE])
    if m is None:
        return None
    if m.group("word"):
        word = m.group("word").lower()
        days = {"昨天": 1, "yesterday": 1, "前天": 2}.get(word, 0)
        day = shift(reference, -timedelta(days=days))
        if day is None:
            return None
        if word in ("刚刚", "剛剛", "just now"):
            return Found(reference.replace(microsecond=0), m.group(0), True)
        if m.group("h") is not None:
            when = day.replace(hour=int(m.group("h")), minute=int(m.group("mi")), second=0)
            return Found(when.replace(microsecond=0), m.group(0), True)
        return Found(day, m.group(0), False)
    n_text = m.group("n").lower()
    n = 1 if n_text in ("a", "an", "one") else int(n_text)
    unit = m.group("unit").lower()
    if unit.startswith(("w", "周")):
        seconds = 7 * 86400
    else:
        seconds = _UNIT_SECONDS.get(unit[0], 0)
    ago = shift(reference, -timedelta(seconds=n * seconds))
    if ago is None:
        return None
    return Found(ago.replace(microsecond=0), m.group(0), unit[0] not in "d天")


def is_valid(found: Found, now: datetime) -> bool:
    when = found.when
    if when.year < MIN_YEAR:
        return False
    naive = when.replace(tzinfo=None) if when.tzinfo is None else naive_utc(when)
    if naive is None:
        return False  # a moment outside the calendar in UTC is no date
    limit = shift(now, ONE_DAY)
    return limit is None or naive <= limit


def naive_utc(when: datetime) -> datetime | None:
    """``when`` in UTC without its zone; None where UTC leaves the calendar."""
    offset = when.utcoffset() or timedelta(0)
    return shift(when.replace(tzinfo=None), -offset)
