"""Reading pages from files and folders: order, gzip, limits, and skips instead of errors."""

from __future__ import annotations

import gzip
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from scrapy_cx.bulk import PageFile, RawPage, Skip, Sources, kind_of, read_page


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
    assert [type(i) for i in items] == [RawPage, RawPage, RawPage, Skip]
    pages = [i for i in items if isinstance(i, RawPage)]
    assert [p.body for p in pages] == [b"<p>one</p>", b"<p>two</p>", b"<p>three</p>"]
    assert pages[0].url == (tmp_path / "a.htm").resolve().as_uri()
    assert items[3] == Skip(str(tmp_path / "logo.png"), "not an HTML or WARC file name")


def test_named_file_is_html_whatever_its_name(tmp_path: Path) -> None:
    saved = tmp_path / "page.txt"
    saved.write_bytes(b"<html><body>x</body></html>")
    (item,) = list(Sources([saved]))
    assert isinstance(item, RawPage) and item.body.startswith(b"<html>")


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


def test_multi_member_gzip_is_read_whole(tmp_path: Path) -> None:
    # `cat a.gz b.gz > page.html.gz`: gzip -d gives both halves, so must we.
    (tmp_path / "page.html.gz").write_bytes(
        gzip.compress(b"<p>first half</p>") + gzip.compress(b"<p>second half</p>")
    )
    (page,) = list(Sources([tmp_path]))
    assert isinstance(page, RawPage) and page.body == b"<p>first half</p><p>second half</p>"


def test_multi_member_gzip_is_bounded_as_a_whole(tmp_path: Path) -> None:
    (tmp_path / "page.html.gz").write_bytes(gzip.compress(b" " * 600) * 2)
    (item,) = list(Sources([tmp_path], max_page_bytes=1000))
    assert item == Skip(str(tmp_path / "page.html.gz"), "page too large")


def test_symlinks_out_of_the_folder_are_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.html"
    secret.write_bytes(b"<p>not for the output</p>")
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.html").write_bytes(b"<p>a</p>")
    (pages / "escape.html").symlink_to(secret)
    (pages / "inside.html").symlink_to(pages / "a.html")
    (pages / "dir-link").symlink_to(tmp_path, target_is_directory=True)
    (pages / "dangling.html").symlink_to(tmp_path / "missing.html")
    items = {Path(i.source).name: i for i in Sources([pages])}
    assert items["escape.html"] == Skip(str(pages / "escape.html"), "symlink out of the folder")
    assert items["dangling.html"] == Skip(str(pages / "dangling.html"), "broken symlink")
    assert items["dir-link"] == Skip(str(pages / "dir-link"), "symlink to a folder (not followed)")
    assert isinstance(items["inside.html"], RawPage) and items["inside.html"].body == b"<p>a</p>"
    assert all(b"not for the output" not in getattr(i, "body", b"") for i in items.values())


def test_pipes_and_devices_are_skipped_not_read(tmp_path: Path) -> None:
    # Reading a named pipe blocks until a writer comes; /dev/zero never ends.
    os.mkfifo(tmp_path / "pipe.html")
    (tmp_path / "zero.html").symlink_to("/dev/zero")  # a device, through a link
    (tmp_path / "ok.html").write_bytes(b"<p>ok</p>")
    items = list(Sources([tmp_path, "/dev/zero", tmp_path / "pipe.html"]))
    reasons = [getattr(i, "reason", None) for i in items]
    assert reasons == [
        None,
        "not a regular file (named pipe)",
        "symlink out of the folder",
        "not a regular file (character device)",
        "not a regular file (named pipe)",
    ]


def test_unreadable_subfolders_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.html").write_bytes(b"<p>a</p>")
    (tmp_path / "b.html").write_bytes(b"<p>b</p>")
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:  # root reads any folder: refuse this one as chmod 000 would
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    items = list(Sources([tmp_path]))
    assert Skip(str(tmp_path / "locked"), "unreadable folder (PermissionError)") in items
    assert [i.source for i in items if isinstance(i, RawPage)] == [str(tmp_path / "b.html")]


def test_a_saved_file_dates_its_page_by_its_modification_time(tmp_path: Path) -> None:
    """A page saved in 2019 showing only "09-30 22:46" is a 2019 story, not this year's."""
    from scrapy_cx.bulk import Options, extract_one

    from ..sample_pages import article_html

    html = (
        article_html("Ferry line reopened")
        .replace('<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">', "")
        .replace("<time datetime='2024-03-05'>5 March 2024</time>", "<p>09-30 22:46</p>")
    )
    saved = tmp_path / "ferry.html"
    saved.write_text(html)
    saved_at = datetime(2019, 10, 5, 8, 0, tzinfo=timezone.utc)
    os.utime(saved, (saved_at.timestamp(), saved_at.timestamp()))
    (page,) = list(Sources([tmp_path]))
    assert isinstance(page, RawPage) and page.fetched == saved_at
    line = extract_one(page, Options()).line
    assert line is not None and b'"published": "2019-09-30T22:46:00"' in line
    # --reference-time overrides every page's own time.
    override = Options(reference_time=datetime(2021, 10, 1, tzinfo=timezone.utc))
    line = extract_one(page, override).line
    assert line is not None and b'"published": "2021-09-30T22:46:00"' in line


def test_lazy_sources_list_files_for_the_worker_to_read(tmp_path: Path) -> None:
    # The bulk command's parent only lists: each file is read where it is extracted.
    (tmp_path / "a.html").write_bytes(b"<html><p>one</p></html>")
    (tmp_path / "b.html.gz").write_bytes(gzip.compress(b"<html><p>two</p></html>"))
    (tmp_path / "c.html").write_bytes(b"%PDF-1.7\n")
    (tmp_path / "d.txt").write_bytes(b"notes")
    lazy = list(Sources([tmp_path]).listing())
    assert [type(i) for i in lazy] == [PageFile, PageFile, PageFile, Skip]
    read = [read_page(i) if isinstance(i, PageFile) else i for i in lazy]
    assert read == list(Sources([tmp_path]))  # the same pages and skips, read later


def test_a_listed_file_grown_past_the_limit_is_skipped_when_read(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_bytes(b"<p>x</p>")
    (listed,) = Sources([page], max_page_bytes=100).listing()
    page.write_bytes(b"<p>" + b"x" * 200 + b"</p>")
    assert isinstance(listed, PageFile)
    assert read_page(listed) == Skip(str(page), "page too large")


def test_folder_order_is_the_paths_order_not_the_strings(tmp_path: Path) -> None:
    # "a-b/x" sorts before "a/x" as a string ('-' < '/'), after it as a path.
    for name in ("a-b/x.html", "a/x.html", "a/y/z.html", "a.html", "ab.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"<p>page</p>" * len(name))
    sources = Sources([tmp_path])
    listed = [path for path, _, _ in sources.files]
    assert listed == sorted(tmp_path.rglob("*.html"))
    assert [p.relative_to(tmp_path).as_posix() for p in listed][:3] == [
        "a/x.html",
        "a/y/z.html",
        "a-b/x.html",
    ]
    assert [size for _, _, size in sources.files] == [p.stat().st_size for p in listed]
