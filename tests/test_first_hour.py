"""What a newcomer's first commands meet (issue 39): each wrong turn of a first hour
with ``scrapy-cx extract`` and ``explain`` now ends in a message that says what happened."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from scrapy_cx import Article
from scrapy_cx.__main__ import main
from scrapy_cx.body import binary_kind

from .sample_pages import article_html


def test_an_empty_folder_says_no_html_was_found_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "0 pages, 0 articles", exit 0: a wrong folder looked like a finished run."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("nothing to see")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "story.html").write_text(article_html("Story 1 about the tram"))
    out = tmp_path / "o.jsonl"
    names = [str(tmp_path / name) for name in ("empty", "notes", "site")]
    assert main(["extract", *names, "-o", str(out), "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert f"no HTML found in {names[0]} (" in err
    assert f"no HTML found in {names[1]} (" in err
    assert "site (" not in err
    assert "2 folders with no HTML" in err
    assert out.read_text(encoding="utf-8").count("\n") == 1  # the others were read


def test_explain_of_a_folder_says_it_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "saved").mkdir()
    assert main(["explain", str(tmp_path / "saved"), "--text"]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'saved'}: is a folder" in err
    assert "no such file" not in err


@pytest.mark.parametrize("seed", range(20))
def test_random_bytes_are_binary(seed: int) -> None:
    """Random bytes hold about 10% control bytes: the old 10% bound let half of them
    through as HTML ("main text too short")."""
    assert binary_kind(random.Random(seed).randbytes(4096)) == "binary"


def test_random_bytes_named_html_are_not_html_binary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = []
    for seed in range(5):
        path = tmp_path / f"noise-{seed}.html"
        path.write_bytes(random.Random(seed).randbytes(8192))
        names.append(str(path))
    assert main(["extract", *names, "-o", str(tmp_path / "o.jsonl"), "-j", "1", "-v"]) == 0
    err = capsys.readouterr().err
    for name in names:
        assert f"skipped {name}: not HTML (binary)\n" in err
    assert "main text too short" not in err


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    csv.field_size_limit(2**31 - 1)
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def test_extract_to_a_csv_file_writes_the_crawls_csv(tmp_path: Path) -> None:
    """``-o x.csv`` wrote JSON lines into the .csv file; now the rows a crawl's CSV
    export of the same pages holds: the same columns, nested fields as JSON cells."""
    from tests.support.crawl import EXAMPLE_PROJECT, run_crawl

    crawl, _ = run_crawl([], tmp_path / "crawl.csv")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    out = tmp_path / "bulk.csv"
    pages = str(EXAMPLE_PROJECT / "news" / "pages")
    assert main(["extract", pages, "-o", str(out), "-j", "1", "-q"]) == 0
    columns, rows = read_csv(out)
    crawl_columns, crawl_rows = read_csv(tmp_path / "crawl.csv")
    assert columns == crawl_columns == list(Article.field_names())
    assert len(rows) == 8
    assert sorted(rows, key=lambda r: r["url"]) == sorted(crawl_rows, key=lambda r: r["url"])
    assert all(isinstance(json.loads(row["authors"]), list) for row in rows)
    assert out.read_bytes().startswith(b"url,title,")  # no BOM: Scrapy's utf-8


def test_text_into_a_csv_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "story.html").write_text(article_html("Story 1 about the tram"))
    out = tmp_path / "x.CSV"
    args = ["extract", str(tmp_path / "story.html"), "-o", str(out), "--text"]
    assert main(args) == 2
    assert "--text" in capsys.readouterr().err
    assert not out.exists()
