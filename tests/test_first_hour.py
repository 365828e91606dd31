"""What a newcomer's first commands meet (issue 39): each wrong turn of a first hour
with ``scrapy-cx extract`` and ``explain`` now ends in a message that says what happened."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

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
