"""Reading pages from files and folders: order, gzip, limits, and skips instead of errors."""

from __future__ import annotations

import gzip
from pathlib import Path

from scrapy_cx.sources import Page, Skip, Sources, kind_of


def test_kind_of_looks_through_gz() -> None:
    assert kind_of(Path("a/b.HTML")) == "html"
    assert kind_of(Path("b.htm.gz")) == "html"
    assert kind_of(Path("crawl-00001.warc.gz")) == "warc"
    assert kind_of(Path("old.arc")) == "warc"
    assert kind_of(Path("notes.txt")) is None


def test_folder_is_walked_recursively_in_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.html").write_bytes(b"<p>two</p>")
    (tmp_path / "a.htm").write_bytes(b"<p>one</p>")
    (tmp_path / "c.html.gz").write_bytes(gzip.compress(b"<p>three</p>"))
    (tmp_path / "logo.png").write_bytes(b"\x89PNG")
    items = list(Sources([tmp_path]))
    assert [type(i) for i in items] == [Page, Page, Page, Skip]
    pages = [i for i in items if isinstance(i, Page)]
    assert [p.body for p in pages] == [b"<p>one</p>", b"<p>two</p>", b"<p>three</p>"]
    assert pages[0].url == (tmp_path / "a.htm").resolve().as_uri()
    assert items[3] == Skip(str(tmp_path / "logo.png"), "not an HTML or WARC file name")


def test_named_file_is_html_whatever_its_name(tmp_path: Path) -> None:
    saved = tmp_path / "page.txt"
    saved.write_bytes(b"<html><body>x</body></html>")
    (item,) = list(Sources([saved]))
    assert isinstance(item, Page) and item.body.startswith(b"<html>")


def test_named_files_and_folder_files_are_sniffed_not_trusted_by_name(tmp_path: Path) -> None:
    (tmp_path / "a-report.html").write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj")
    (tmp_path / "b-api.html").write_bytes(b'  {"title": "not a page"}')
    (tmp_path / "c-notes.htm").write_bytes(b"Plain text notes, not a single tag in them.")
    (tmp_path / "d-warned.html").write_bytes(b"Warning: headers sent\n<!DOCTYPE html><p>x</p>")
    (tmp_path / "e-utf16.html").write_bytes("<html><p>x</p></html>".encode("utf-16"))
    data = tmp_path / "data.json"
    data.write_bytes(b"[1, 2, 3]")
    items = list(Sources([tmp_path / "a-report.html", data, tmp_path]))
    reasons = [i.reason if isinstance(i, Skip) else "page" for i in items]
    assert reasons == [
        "not HTML (PDF)",  # named on the command line
        "not HTML (JSON)",
        "not HTML (PDF)",  # the same file, found in the folder
        "not HTML (JSON)",
        "not HTML (no markup)",
        "page",  # text before the first tag (a PHP warning) is still a page
        "not an HTML or WARC file name",  # data.json inside the folder
        "page",  # UTF-16 with a BOM
    ]


def test_bad_files_become_skips(tmp_path: Path) -> None:
    (tmp_path / "1-empty.html").write_bytes(b"  \n")
    (tmp_path / "2-truncated.html.gz").write_bytes(gzip.compress(b"<p>x</p>" * 100)[:30])
    (tmp_path / "3-not-gzip.html.gz").write_bytes(b"<p>plain</p>")
    (tmp_path / "4-bomb.html.gz").write_bytes(gzip.compress(b" " * 5000))
    (tmp_path / "5-big.html").write_bytes(b"x" * 5000)
    reasons = [getattr(i, "reason", None) for i in Sources([tmp_path], max_page_bytes=1000)]
    assert reasons == [
        "empty page",
        "unreadable file (EOFError)",
        "unreadable file (error)",
        "page too large",
        "page too large",
    ]


def test_progress_bytes_reach_the_total(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.html").write_bytes(b"<p>page</p>" * (i + 1))
    sources = Sources([tmp_path])
    assert sources.total_bytes == sum(len(b"<p>page</p>") * n for n in (1, 2, 3))
    seen = []
    for _ in sources:
        seen.append(sources.done_bytes)
    assert seen[0] < sources.total_bytes and sources.done_bytes == sources.total_bytes
