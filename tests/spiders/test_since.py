"""The date window and the dates feeds and sitemaps write (spiders/_since.py)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scrapy_cx.spiders._since import older_than, parse_date, parse_since

NOW = datetime(2024, 5, 20, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-05-01", datetime(2024, 5, 1, tzinfo=timezone.utc)),
        ("2024-05-01T08:00:00+02:00", datetime(2024, 5, 1, 6, tzinfo=timezone.utc)),
        ("2d", NOW - timedelta(days=2)),
        ("12h", NOW - timedelta(hours=12)),
        (" 1W ", NOW - timedelta(weeks=1)),
        ("", None),
        (None, None),
    ],
)
def test_parse_since(value, expected):
    assert parse_since(value, NOW) == expected


@pytest.mark.parametrize("value", ["yesterday", "2d ago", "05/01/2024"])
def test_a_bad_since_says_what_is_allowed(value):
    with pytest.raises(ValueError, match="since=.*2024-05-01.*2d"):
        parse_since(value, NOW)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01", datetime(2024, 5, 1, tzinfo=timezone.utc)),
        ("2024-05-01T10:00:00Z", datetime(2024, 5, 1, 10, tzinfo=timezone.utc)),
        ("Wed, 01 May 2024 10:00:00 GMT", datetime(2024, 5, 1, 10, tzinfo=timezone.utc)),
        ("2024-05-01 10:00 CET", datetime(2024, 5, 1, tzinfo=timezone.utc)),  # its day
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_date(text, expected):
    assert parse_date(text) == expected


def test_older_than():
    since = datetime(2024, 5, 10, tzinfo=timezone.utc)
    assert older_than("2024-05-09", since)
    assert not older_than("2024-05-10", since)
    assert not older_than(None, since)  # unknown: fetched, judged by the article's date
    assert not older_than("2000-01-01", None)
