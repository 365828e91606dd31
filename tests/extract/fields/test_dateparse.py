"""One date out of a string: the shapes, the orders, what is refused, bounded work."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from scrapy_cx.extract.fields import dateparse
from scrapy_cx.extract.fields.dateparse import parse_date, scan_dates

# One line and one metadata value, each read by a handful of regexes: the most a
# single string may cost, however long it is.
MAX_SCANNED = 20 * (dateparse.MAX_LINE + dateparse._MAX_META)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2009-11-09 13:57", "2009-11-09T13:57:00"),
        ("2016年03月02日 10:20", "2016-03-02T10:20:00"),
        ("2016年3月2日", "2016-03-02"),
        ("2016/3/2", "2016-03-02"),
        ("2016.03.02", "2016-03-02"),
        ("7/5/2005 9:23:57 PM", "2005-07-05T21:23:57"),
        ("March 2, 2016", "2016-03-02"),
        ("Nov. 19, 2019, 10:31 pm CST", "2019-11-19T22:31:00-06:00"),
        ("2 March 2016", "2016-03-02"),
        ("19. November 2019", "2019-11-19"),
        ("19 de noviembre de 2019", "2019-11-19"),
        ("19 ноября 2019", "2019-11-19"),
        ("19.11.2019", "2019-11-19"),
        ("2019年11月19日 10時20分", "2019-11-19T10:20:00"),
        ("2019년 11월 19일 10:20", "2019-11-19T10:20:00"),
        ("2019-11-19T07:03:00Z", "2019-11-19T07:03:00+00:00"),
        ("2019-11-19T07:03:00.123+08:00", "2019-11-19T07:03:00+08:00"),
        ("04-Aug-2021", "2021-08-04"),
        ("04-ago-2021 5:11:10", "2021-08-04T05:11:10"),
        ("12-DEC-2019 10:20", "2019-12-12T10:20:00"),
    ],
)
def test_shapes(text: str, expected: str) -> None:
    found = parse_date(text)
    assert found is not None
    assert found.iso() == expected


def test_us_and_day_first_orders() -> None:
    us = scan_dates("Posted 11/12/2019", month_first=True)
    day_first = scan_dates("Publié le 11/12/2019", month_first=False)
    assert us[0][1].iso() == "2019-11-12"
    assert day_first[0][1].iso() == "2019-12-11"
    # A day above 12 decides by itself, whatever the language says.
    assert scan_dates("19/11/2019", month_first=True)[0][1].iso() == "2019-11-19"


def test_impossible_dates_are_refused() -> None:
    assert parse_date("2019-02-30") is None
    assert parse_date("0001-01-01T00:00:00Z") is None
    assert scan_dates("version 13/45/2019") == []


class _CountingPattern:
    """A compiled regex that logs how many characters each search is given."""

    def __init__(self, pattern: re.Pattern[str], scanned: list[int]) -> None:
        self._pattern, self._scanned = pattern, scanned

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._pattern, name)
        if name not in ("search", "match", "fullmatch", "finditer", "findall", "sub"):
            return method

        def counted(text: str, *args: Any, **kwargs: Any) -> Any:
            self._scanned.append(len(text))
            return method(text, *args, **kwargs)

        return counted


def scanned_characters(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    """Characters every regex of the date module and dateparser are handed for ``text``."""
    scanned: list[int] = []
    for name, value in vars(dateparse).items():
        if isinstance(value, re.Pattern):
            monkeypatch.setattr(dateparse, name, _CountingPattern(value, scanned))
    patterns = tuple(
        (kind, _CountingPattern(p, scanned), needs) for kind, p, needs in dateparse._PATTERNS
    )
    monkeypatch.setattr(dateparse, "_PATTERNS", patterns)
    slow = dateparse._dateparser.__wrapped__

    def counted_dateparser(value: str, languages: tuple[str, ...] | None) -> Any:
        scanned.append(len(value))
        return slow(value, languages)

    monkeypatch.setattr(dateparse, "_dateparser", counted_dateparser)
    dateparse.scan_dates(text)
    dateparse.parse_date(text)
    monkeypatch.undo()
    return sum(scanned)


@pytest.mark.parametrize(
    "hostile",
    [
        "2019-" * 400_000,
        "1/" * 1_000_000,
        "November " * 250_000,
        "19 " * 700_000,
        "发布时间：" * 400_000,
        " " * 2_000_000 + "2019-11-19",
    ],
)
def test_scanning_is_bounded_and_linear(monkeypatch: pytest.MonkeyPatch, hostile: str) -> None:
    # Counted work, not seconds (a loaded machine makes timings flaky): the regexes
    # and dateparser see a bounded prefix, so a page twice as long costs no more.
    once = scanned_characters(monkeypatch, hostile)
    twice = scanned_characters(monkeypatch, hostile * 2)
    assert 0 < once <= MAX_SCANNED
    assert 0 < twice <= MAX_SCANNED


_DAYS = ("7", "05", "31", "3", "19")
_MONTHS = ("3", "11", "March", "Nov.", "mars", "Aug", "noviembre")
_YEARS = ("2019", "1998", "20192", "2016")
_DATE_SEPARATORS = ("/", "-", ".", " ", "\u3000", "\xa0", ", ", " de ", "年", "月", "")
_DATE_TIMES = ("", " 10:31", "T09:00:00Z", " 9:23 PM", " 10:31+02:00", "日")


def date_like(rng: random.Random) -> str:
    """A day, a month and a year in a random order, joined by one separator (or, now
    and then, another)."""
    parts = [rng.choice(_DAYS), rng.choice(_MONTHS), rng.choice(_YEARS)]
    rng.shuffle(parts)
    usual = rng.choice(_DATE_SEPARATORS)
    seps = [usual if rng.random() < 0.8 else rng.choice(_DATE_SEPARATORS) for _ in parts]
    joined = "".join(part + sep for part, sep in zip(parts, seps, strict=True))
    return rng.choice(("", "On ", "x1/")) + joined.rstrip() + rng.choice(_DATE_TIMES)


def test_scan_dates_finds_what_every_shape_searched_everywhere_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search for the character before each year skips only shapes that cannot match."""
    rng = random.Random(9)
    texts = [date_like(rng) for _ in range(4000)]
    texts += ["2019-03-02", "7/5/2005 9:23 PM", "March 2,\u30002016", "19 de noviembre de 2019"]
    texts += ["04-Aug-2021 5:11:10", "2016年03月02日", "2019-11-1920", "x\xa02019", "4. 2. 2022"]
    fast = [
        dateparse.scan_dates(text, month_first) for text in texts for month_first in (True, False)
    ]
    everywhere = tuple((kind, pattern, None) for kind, pattern, _needs in dateparse._PATTERNS)
    monkeypatch.setattr(dateparse, "_PATTERNS", everywhere)
    slow = [
        dateparse.scan_dates(text, month_first) for text in texts for month_first in (True, False)
    ]
    assert fast == slow
    assert sum(map(bool, slow)) > 400  # the texts do hold dates, of every shape:
    assert all(any(pattern.search(text) for text in texts) for _k, pattern, _n in everywhere)


def test_timed_reads_the_hour_only_where_a_pattern_has_and_matched_it() -> None:
    timed, dated, other = (
        dateparse.YMD.match("2019-10-08 09:30"),
        dateparse.YMD.match("2019-10-08"),
        re.match("x", "x"),  # no hour group at all
    )
    assert timed is not None and dated is not None and other is not None
    assert dateparse._timed(timed)
    assert not dateparse._timed(dated)
    assert not dateparse._timed(other)
