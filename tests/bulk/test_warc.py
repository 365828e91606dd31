"""Pages out of WARC archives written here with warcio: which records count, and how."""

from __future__ import annotations

import gzip
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from scrapy_cx.bulk import RawPage, Skip
from scrapy_cx.bulk._warc import (
    MissingDependency,
    looks_like_html,
    parse_content_type,
    read_warc,
    warc_date,
)

from ..sample_pages import Record, article_html, chunked, write_warc

RUSSIAN = "Трамвайную линию продлят на четыре километра"


def sample_records() -> list[Record]:
    html = article_html("Tram line extended").encode()
    return [
        ("http://news.test/", "warcinfo", None, b"software: test"),
        ("http://news.test/a", "request", None, b"GET /a HTTP/1.1\r\n\r\n"),
        ("http://news.test/a", "response", [("Content-Type", "text/html; charset=UTF-8")], html),
        (
            "http://news.test/ru",
            "response",
            [("Content-Type", "text/html; charset=windows-1251")],
            article_html(RUSSIAN, charset="windows-1251").encode("cp1251"),
        ),
        (
            "http://news.test/gone",
            "response",
            [("Status", "404 Not Found"), ("Content-Type", "text/html")],
            b"<html>gone</html>",
        ),
        ("http://news.test/logo.png", "response", [("Content-Type", "image/png")], b"\x89PNG"),
        (
            "http://news.test/z",
            "response",
            [
                ("Content-Type", "text/html"),
                ("Transfer-Encoding", "chunked"),
                ("Content-Encoding", "gzip"),
            ],
            chunked(gzip.compress(html)),
        ),
        ("http://news.test/untyped", "response", [], b"<!DOCTYPE html><html><p>x</p></html>"),
        ("http://news.test/file.html", "resource", [("Content-Type", "text/html")], html),
        ("http://news.test/empty", "response", [("Content-Type", "text/html")], b""),
    ]


@pytest.mark.parametrize("compress", [True, False])
def test_html_responses_become_pages_with_their_charset_and_uri(
    tmp_path: Path, compress: bool
) -> None:
    warc = tmp_path / ("crawl.warc.gz" if compress else "crawl.warc")
    write_warc(warc, sample_records(), compress=compress)
    items = [item for item, _offset in read_warc(warc, 1 << 20)]
    summary = [(i.url, i.encoding) if isinstance(i, RawPage) else i.reason for i in items]
    assert summary == [
        ("http://news.test/a", "UTF-8"),
        ("http://news.test/ru", "windows-1251"),
        "HTTP status 404",
        "not HTML (content type)",
        ("http://news.test/z", None),
        ("http://news.test/untyped", None),
        ("http://news.test/file.html", None),
        "empty page",
    ]
    html = article_html("Tram line extended").encode()
    pages = [i for i in items if isinstance(i, RawPage)]
    assert pages[0].body == html
    assert pages[2].body == html  # dechunked and gunzipped
    assert RUSSIAN.encode("cp1251") in pages[1].body
    assert all(i.source.startswith(f"{warc}@") for i in items)


def test_damaged_archive_keeps_what_came_before(tmp_path: Path) -> None:
    warc = tmp_path / "cut.warc.gz"
    write_warc(warc, sample_records())
    data = warc.read_bytes()
    warc.write_bytes(data[: len(data) * 2 // 3] + b"garbage that is not gzip" * 10)
    items = [item for item, _offset in read_warc(warc, 1 << 20)]
    assert isinstance(items[0], RawPage)
    assert isinstance(items[-1], Skip) and items[-1].reason.startswith("damaged WARC")


def _pages(n: int) -> list[Record]:
    return [
        (f"http://news.test/{i}", "response", [("Content-Type", "text/html")],
         article_html(f"Story number {i}").encode())
        for i in range(n)
    ]


@pytest.mark.parametrize("compress", [True, False])
def test_an_archive_cut_anywhere_but_between_records_says_so(
    tmp_path: Path, compress: bool
) -> None:
    """warcio stops without a word where a file ends inside a record: every cut that is
    not a record boundary must end in a skip, and no page cut short passes as whole."""
    warc = tmp_path / ("crawl.warc.gz" if compress else "crawl.warc")
    write_warc(warc, _pages(4), compress=compress)
    data = warc.read_bytes()
    whole = [i for i, _ in read_warc(warc, 1 << 20)]
    assert all(isinstance(i, RawPage) for i in whole) and len(whole) == 4
    with warc.open("rb") as fh:
        records = ArchiveIterator(fh)
        boundaries = {records.get_record_offset() + records.get_record_length() for _ in records}
    cut = tmp_path / warc.name.replace("crawl", "cut")
    for at in range(50, len(data) - 1, max(1, len(data) // 97)):
        cut.write_bytes(data[:at])
        items = [i for i, _ in read_warc(cut, 1 << 20)]
        pages = [i for i in items if isinstance(i, RawPage)]
        for page in pages:  # what is handed over is whole
            assert page.body in {p.body for p in whole}, at
        if at not in boundaries:
            assert items and isinstance(items[-1], Skip), at
            assert items[-1].reason.startswith(("damaged WARC", "not a WARC")), at


def test_not_a_warc_at_all(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.warc"
    bogus.write_bytes(b"hello world\nthis is text\n")
    items = [item for item, _offset in read_warc(bogus, 1 << 20)]
    assert len(items) == 1 and isinstance(items[0], Skip)
    assert items[0].reason.startswith("damaged WARC")


def test_gzip_without_records_is_reported(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.warc.gz"
    bogus.write_bytes(b"\x1f\x8b\x08\x00garbage")
    items = [item for item, _offset in read_warc(bogus, 1 << 20)]
    assert items == [Skip(str(bogus), "not a WARC file (no records)")]


def test_oversized_record_is_skipped(tmp_path: Path) -> None:
    warc = tmp_path / "big.warc.gz"
    write_warc(warc, sample_records()[:3])
    ((item, _offset),) = list(read_warc(warc, 100))
    assert isinstance(item, Skip) and item.reason == "page too large"


def test_missing_warcio_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "warcio.archiveiterator", None)
    with pytest.raises(MissingDependency, match=r"pip install -e '\.\[warc\]'"):
        list(read_warc(tmp_path / "x.warc", 100))


def test_helpers() -> None:
    assert parse_content_type('text/HTML; charset="ISO-8859-1"') == ("text/html", "ISO-8859-1")
    assert parse_content_type(None) == (None, None)
    assert looks_like_html(b"\xef\xbb\xbf  <!-- x --><!doctype html><html>")
    assert not looks_like_html(b"%PDF-1.4")


def test_a_record_dates_its_page_by_its_warc_date(tmp_path: Path) -> None:
    """A page fetched in 2019 says "前天" (the day before yesterday) of then, not of today."""
    from io import BytesIO

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    from scrapy_cx.bulk import Options, extract_one

    body = (
        article_html("Ferry line reopened")
        .replace('<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">', "")
        .replace("<time datetime='2024-03-05'>5 March 2024</time>", "<p>前天 10:30</p>")
    )
    warc = tmp_path / "old.warc.gz"
    with warc.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(
                "http://news.test/ferry",
                "response",
                payload=BytesIO(body.encode()),
                length=len(body.encode()),
                http_headers=http,
                warc_headers_dict={"WARC-Date": "2019-10-05T08:00:00Z"},
            )
        )
    ((page, _end),) = list(read_warc(warc, 10_000_000))
    assert isinstance(page, RawPage)
    assert page.fetched == datetime(2019, 10, 5, 8, 0, tzinfo=timezone.utc)
    line = extract_one(page, Options()).line
    assert line is not None and b'"published": "2019-10-03T10:30:00' in line


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2019-10-05T08:00:00Z", datetime(2019, 10, 5, 8, 0, tzinfo=timezone.utc)),
        ("2019-10-05T08:00:00.123456Z", datetime(2019, 10, 5, 8, 0, 0, 123456, timezone.utc)),
        ("2019-10-05", datetime(2019, 10, 5, tzinfo=timezone.utc)),
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_warc_date_is_read_or_left_out(value: str | None, expected: datetime | None) -> None:
    assert warc_date(value) == expected



def _records_at(warc: Path) -> list[tuple[int, int]]:
    with warc.open("rb") as fh:
        records = ArchiveIterator(fh)
        return [(records.get_record_offset(), records.get_record_length()) for _ in records]


@pytest.mark.parametrize("damaged", [[10], [0], [19], [4, 5], [3, 12]])
def test_a_corrupt_gzip_member_loses_its_record_only(tmp_path: Path, damaged: list[int]) -> None:
    """Every intact record after a damaged member is read (issue 39: 40 bytes flipped in
    member 10 of 20 lost the 9 intact ones after it); the damage counts one skip per
    record lost."""
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, _pages(20))
    data = bytearray(warc.read_bytes())
    spans = _records_at(warc)
    for i in damaged:
        start, length = spans[i]
        middle = start + length // 2
        for at in range(middle, middle + 40):
            data[at] ^= 0xFF
    warc.write_bytes(bytes(data))
    items = [item for item, _offset in read_warc(warc, 1 << 20)]
    pages = [i.url for i in items if isinstance(i, RawPage)]
    assert pages == [f"http://news.test/{i}" for i in range(20) if i not in damaged]
    skips = [i for i in items if isinstance(i, Skip)]
    assert [s.source for s in skips] == [f"{warc}@{spans[i][0]}" for i in damaged]
    # (The last member's damage is the rest of the file: no member follows it.)
    assert all(s.reason.startswith("damaged WARC") for s in skips)
