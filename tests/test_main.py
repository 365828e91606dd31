"""The command line, run as a user runs it: on a folder, on a WARC, to stdout, on a terminal."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from scrapy_cx.__main__ import main

from .extract.prose import BRIDGE_STORY
from .sample_pages import article_html, listing_html, write_warc


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy_cx", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def make_site(folder: Path, articles: int = 6) -> None:
    (folder / "news" / "2024").mkdir(parents=True)
    for i in range(articles):
        (folder / "news" / "2024" / f"story-{i}.html").write_text(
            article_html(f"Story {i} about the tram"), encoding="utf-8"
        )
    (folder / "index.html").write_text(listing_html(), encoding="utf-8")
    (folder / "style.css").write_text("body { color: black }", encoding="utf-8")


def read_lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_extract_a_folder_on_two_processes(tmp_path: Path) -> None:
    make_site(tmp_path / "site")
    out = tmp_path / "articles.jsonl"
    proc = run_cli("extract", "site", "-o", str(out), "-j", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    records = read_lines(out)
    assert [r["title"] for r in records] == [f"Story {i} about the tram" for i in range(6)]
    assert all(str(r["url"]).startswith("file:///") for r in records)
    assert "8 pages, 6 articles in" in proc.stderr
    assert "1  no article (main text too short)" in proc.stderr
    assert "1  not an HTML or WARC file name" in proc.stderr
    assert "\r" not in proc.stderr  # not a terminal: no progress bar


def test_extract_a_warc_to_stdout(tmp_path: Path) -> None:
    records = [
        ("http://news.test/", "response", [("Content-Type", "text/html")], listing_html().encode()),
    ]
    for i in range(5):
        html = article_html(f"Ünïcode story {i}", charset="iso-8859-1").encode("latin-1")
        headers = [("Content-Type", "text/html; charset=ISO-8859-1")]
        records.append((f"http://news.test/{i}", "response", headers, html))
    records.append(("http://news.test/x", "response", [("Status", "500 Oops")], b"<html>"))
    write_warc(tmp_path / "crawl.warc.gz", records)
    proc = run_cli("extract", "crawl.warc.gz", "-o", "-", "-j", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["url"], r["title"]) for r in lines] == [
        (f"http://news.test/{i}", f"Ünïcode story {i}") for i in range(5)
    ]
    assert "7 pages, 5 articles" in proc.stderr
    assert "1  HTTP status 500" in proc.stderr


def test_a_damaged_warc_member_loses_its_record_only_and_the_run_exits_3(tmp_path: Path) -> None:
    records = [
        (f"http://news.test/{i}", "response", [("Content-Type", "text/html")],
         article_html(f"Story {i} about the tram").encode())
        for i in range(6)
    ]  # fmt: skip
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, records)
    whole = warc.read_bytes()
    write_warc(warc, records[:2])
    damaged_at = len(warc.read_bytes()) + 200  # inside the third record's gzip member
    data = bytearray(whole)
    for at in range(damaged_at, damaged_at + 40):
        data[at] ^= 0xFF
    warc.write_bytes(bytes(data))
    proc = run_cli("extract", "crawl.warc.gz", "-o", "-", "-j", "1", cwd=tmp_path)
    assert proc.returncode == 3, proc.stderr
    titles = [json.loads(line)["title"] for line in proc.stdout.splitlines()]
    assert titles == [f"Story {i} about the tram" for i in (0, 1, 3, 4, 5)]
    assert "1  damaged WARC record (" in proc.stderr
    assert "3    a WARC archive was damaged" in run_cli("extract", "--help", cwd=tmp_path).stdout


def test_options_reach_the_extraction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_site(tmp_path / "site", articles=2)
    out = tmp_path / "out.jsonl"
    assert (
        main(
            [
                "extract",
                str(tmp_path / "site"),
                "-o",
                str(out),
                "-j",
                "1",
                "--min-content-length",
                "100000",
            ]
        )
        == 0
    )
    assert out.read_text() == ""
    assert "4 pages, 0 articles" in capsys.readouterr().err
    assert main(["extract", str(tmp_path / "site"), "-o", str(out), "-q", "-j", "1"]) == 0
    assert len(read_lines(out)) == 2
    assert capsys.readouterr().err == ""  # -q: no summary


def test_missing_path_is_reported_and_the_others_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_site(tmp_path / "site", articles=2)
    out = tmp_path / "o.jsonl"
    args = ["extract", str(tmp_path / "nope"), str(tmp_path / "site"), "-o", str(out), "-j", "1"]
    assert main(args) == 1  # documented: a named path was missing, the rest was read
    assert len(read_lines(out)) == 2
    err = capsys.readouterr().err
    assert f"no such file or folder: {tmp_path / 'nope'} (skipped)" in err
    assert "4 pages, 2 articles" in err  # a missing path is not a page
    assert "1 path not found" in err  # but it is in the summary


def test_verbose_lists_what_was_skipped_and_why_and_named_files_are_sniffed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON file and a PDF renamed .html, named on the command line, are not HTML pages."""
    (tmp_path / "data.json").write_text('{"title": "Story 1 about the tram"}')
    (tmp_path / "report.html").write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    (tmp_path / "story.html").write_text(article_html("Story 2 about the tram"))
    names = [str(tmp_path / n) for n in ("data.json", "report.html", "story.html")]
    out = tmp_path / "o.jsonl"
    assert main(["extract", *names, "-o", str(out), "-j", "1", "-v"]) == 0
    assert [line["title"] for line in read_lines(out)] == ["Story 2 about the tram"]
    err = capsys.readouterr().err
    assert f"skipped {names[0]}: not HTML (JSON)\n" in err
    assert f"skipped {names[1]}: not HTML (PDF)\n" in err
    assert "story.html" not in err


def test_missing_warcio_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.warc.gz").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "warcio.archiveiterator", None)
    assert main(["extract", str(tmp_path / "in"), "-o", str(tmp_path / "o")]) == 2
    assert "pip install -e '.[warc]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "bad",
    [
        ["-j", "0"],
        ["--encoding", "klingon"],
        [],
        ["--page-timeout", "nan"],
        ["--page-timeout", "inf"],  # no number of seconds: a wait that overflows or never ends
        ["--reference-time", "last tuesday"],
    ],
)
def test_bad_arguments_exit_2(bad: list[str], tmp_path: Path) -> None:
    args = ["extract", *bad] + ([str(tmp_path)] if bad else [])
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    make_site(tmp_path / "site", articles=3)
    controller, terminal = pty.openpty()
    # A real terminal has a size (a bare pty has 0 x 0, where tqdm draws nothing).
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "scrapy_cx", "extract", "site", "-o", "out.jsonl", "-j", "1"],
        cwd=tmp_path,
        stderr=terminal,
        stdout=subprocess.DEVNULL,
    )
    os.close(terminal)  # read while it writes: a full terminal buffer would block it
    shown = b""
    try:
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the program exited and closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(controller)
        returncode = proc.wait(timeout=120)
    assert returncode == 0
    text = shown.decode()
    assert "\r" in text and "pages/s" in text and "|" in text  # tqdm's bar
    assert "5 pages, 3 articles" in text


def test_console_script_is_declared() -> None:
    (script,) = entry_points(group="console_scripts", name="scrapy-cx")
    assert script.value == "scrapy_cx.__main__:main"


def test_bulk_and_crawl_agree_on_the_example_pages(tmp_path: Path) -> None:
    """The same pages give the same articles offline and in `scrapy crawl news`."""
    from tests.support.crawl import EXAMPLE_PROJECT, run_crawl

    crawl, crawled = run_crawl([], tmp_path / "crawl.jsonl")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    out = tmp_path / "bulk.jsonl"
    bulk = run_cli("extract", str(EXAMPLE_PROJECT / "news" / "pages"), "-o", str(out), cwd=tmp_path)
    assert bulk.returncode == 0, bulk.stderr
    extracted = read_lines(out)
    assert crawled, "the example crawl exported nothing"
    by_url = {item["url"]: item for item in crawled}
    assert sorted(by_url) == sorted(str(r["url"]) for r in extracted)
    for record in extracted:
        item = by_url[record["url"]]
        assert {k: item.get(k) for k in record} == record


def test_dedup_leaves_out_reposts_in_input_order_and_counts_them(tmp_path: Path) -> None:
    make_site(tmp_path / "site")  # six stories with six titles but one and the same text
    (tmp_path / "site" / "zz-other.html").write_text(
        article_html("Bridge", body=BRIDGE_STORY), encoding="utf-8"
    )
    out = tmp_path / "articles.jsonl"
    proc = run_cli("extract", "site", "-o", str(out), "-j", "2", "--dedup", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [r["title"] for r in read_lines(out)] == ["Story 0 about the tram", "Bridge"]
    assert "5  duplicate (main text of an earlier article)" in proc.stderr
    plain = run_cli("extract", "site", "-o", str(out), cwd=tmp_path)
    assert len(read_lines(out)) == 7 and "duplicate" not in plain.stderr


def test_an_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    """`-o crawl.warc.gz` on its own input used to truncate the archive to 0 bytes."""
    write_warc(
        tmp_path / "crawl.warc.gz",
        [("http://news.test/1", "response", [("Content-Type", "text/html")], b"<html>")],
    )
    (tmp_path / "link.warc.gz").symlink_to("crawl.warc.gz")
    (tmp_path / "page.html").write_text(article_html("A story"), encoding="utf-8")
    os.link(tmp_path / "page.html", tmp_path / "hard.html")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for paths, output, named in [
        (["crawl.warc.gz"], "crawl.warc.gz", "crawl.warc.gz"),
        (["crawl.warc.gz"], "link.warc.gz", "crawl.warc.gz"),  # a symlink to it
        (["page.html", "crawl.warc.gz"], "./crawl.warc.gz", "crawl.warc.gz"),
        (["hard.html"], "page.html", "hard.html"),  # a hard link: the same file
    ]:
        proc = run_cli("extract", *paths, "-o", output, "-j", "1", cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.splitlines() == [
            f"scrapy-cx: refusing to write {output}: it is the input {named}"
        ]
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_an_output_inside_a_folder_being_read_is_refused(tmp_path: Path) -> None:
    make_site(tmp_path / "site", articles=2)
    (tmp_path / "alias").symlink_to("site")
    for output in ["site/articles.jsonl", "alias/news/out.jsonl", "site"]:
        proc = run_cli("extract", "site", "-o", output, "-j", "1", cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"scrapy-cx: refusing to write {output}: it is ")
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.rstrip().endswith(" site")
    assert not (tmp_path / "site" / "articles.jsonl").exists()
    assert not (tmp_path / "site" / "news" / "out.jsonl").exists()


def test_the_output_is_replaced_whole_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(article_html("A story"), encoding="utf-8")
    out = tmp_path / "out" / "articles.jsonl"
    out.parent.mkdir()
    out.write_text("an older run\n" * 1000)
    out.chmod(0o640)
    with out.open() as old:  # a reader of the old file: it is replaced, not truncated under it
        assert main(["extract", str(tmp_path / "a.html"), "-o", str(out), "-j", "1", "-q"]) == 0
        assert old.read() == "an older run\n" * 1000
    assert [r["title"] for r in read_lines(out)] == ["A story"]
    assert os.listdir(out.parent) == ["articles.jsonl"]
    assert out.stat().st_mode & 0o777 == 0o640  # the replaced file's permissions are kept


def test_an_interrupted_run_leaves_the_old_output_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C after some articles were written: the old file stays, no half file replaces it."""
    import scrapy_cx.__main__ as cli
    from scrapy_cx.bulk import Outcome

    def interrupted(items: Iterator[object], *args: object, **kwargs: object) -> Iterator[Outcome]:
        next(items)  # the page is read, its article written, then Ctrl-C
        yield Outcome("a.html", line=b'{"title": "new"}')
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "extract_all", interrupted)
    (tmp_path / "a.html").write_text(article_html("A story"), encoding="utf-8")
    out = tmp_path / "articles.jsonl"
    out.write_text('{"title": "old"}\n')
    assert main(["extract", str(tmp_path / "a.html"), "-o", str(out), "-j", "1"]) == 130
    assert out.read_text() == '{"title": "old"}\n'
    assert sorted(os.listdir(tmp_path)) == ["a.html", "articles.jsonl"]
    assert f"interrupted ({out} left as it was)" in capsys.readouterr().err


def test_names_and_reasons_from_files_and_pages_reach_stderr_escaped(tmp_path: Path) -> None:
    """A file name or a WARC status holding ESC or CSI must not drive the terminal."""
    evil = "evil\x1b[2J\x9b31m\x07"
    (tmp_path / f"{evil}.json").write_text("{}")
    headers = [("Status", "\x1b[2J\x07 Oops"), ("Content-Type", "text/html")]  # ASCII
    write_warc(tmp_path / "crawl.warc.gz", [("http://news.test/", "response", headers, b"<p>")])
    proc = run_cli(
        "extract", f"{evil}.json", f"missing{evil}", "crawl.warc.gz", "-v", "-j", "1",
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stderr
    assert not set(proc.stderr) & {"\x1b", "\x9b", "\x07"}
    shown = "evil\\x1b[2J\\x9b31m\\x07"
    assert f"skipped {shown}.json: not HTML (JSON)" in proc.stderr
    assert f"no such file or folder: missing{shown} (skipped)" in proc.stderr
    assert "1  HTTP status \\x1b[2J\\x07\n" in proc.stderr


def test_reference_time_dates_every_page(tmp_path: Path) -> None:
    """--reference-time: what "前天" and a year-less "09-30 22:46" count from, whatever the
    files' own times."""
    html = (
        article_html("Ferry line reopened")
        .replace('<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">', "")
        .replace("<time datetime='2024-03-05'>5 March 2024</time>", "<p>前天 10:30</p>")
    )
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "ferry.html").write_text(html)
    out = tmp_path / "out.jsonl"
    args = ["extract", str(tmp_path / "site"), "-o", str(out), "-q", "-j", "1"]
    assert main([*args, "--reference-time", "2019-10-05T08:00:00+08:00"]) == 0
    assert [r["published"] for r in read_lines(out)] == ["2019-10-03T10:30:00+08:00"]


def test_dash_reads_one_page_from_standard_input(tmp_path: Path) -> None:
    """`curl ... | scrapy-cx extract - --url URL`: '-' is standard input, as `-o -` is stdout."""
    make_site(tmp_path / "site", articles=1)
    page = article_html("Piped story about the tram").replace('src="', 'src="/img/', 1)
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy_cx", "extract", "-", "site", "-j", "1",
         "--url", "https://news.test/2024/piped.html"],
        input=page.encode(), cwd=tmp_path, capture_output=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [r["title"] for r in records] == ["Piped story about the tram", "Story 0 about the tram"]
    assert records[0]["url"] == "https://news.test/2024/piped.html"
    assert "no such file or folder" not in proc.stderr.decode()


def test_dash_with_nothing_piped_in_is_a_skipped_page(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy_cx", "extract", "-", "-j", "1", "-v"],
        input=b"", cwd=tmp_path, capture_output=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b""
    assert "skipped <stdin>: empty page" in proc.stderr.decode()


def test_text_writes_title_then_text_a_blank_line_between_articles(tmp_path: Path) -> None:
    make_site(tmp_path / "site", articles=2)
    proc = run_cli("extract", "site", "--text", "-j", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    articles = proc.stdout.split("\n\n")
    assert articles[-1] == ""  # the last article ends with its blank line too
    assert [a.splitlines()[0] for a in articles[:-1]] == [
        "Story 0 about the tram", "Story 1 about the tram",
    ]
    assert all(len(a.splitlines()) > 2 and "{" not in a for a in articles[:-1])
