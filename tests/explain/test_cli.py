"""``scrapy-cx explain -o``: reports never land on the pages they explain, nor half written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scrapy_cx.__main__ import main

from ..sample_pages import article_html
from .test_explanation import run_cli


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_reports_onto_the_pages_named_are_refused_before_any_is_written(tmp_path: Path) -> None:
    """`explain pages/a.html pages/b.html -o pages` used to overwrite both pages."""
    pages = tmp_path / "pages"
    pages.mkdir()
    for name in ("a", "b"):
        (pages / f"{name}.html").write_text(article_html(f"Story {name}"), encoding="utf-8")
    (tmp_path / "link.html").symlink_to("pages/b.html")
    before = snapshot(tmp_path)
    proc = run_cli("pages/a.html", "pages/b.html", "-o", "pages", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "scrapy-cx: refusing to write pages/a.html: it is the input pages/a.html"
    ]
    proc = run_cli("pages/a.html", "-o", "pages/a.html", "--text", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "refusing to write pages/a.html: it is the input pages/a.html" in proc.stderr
    proc = run_cli("pages/b.html", "-o", "link.html", cwd=tmp_path)
    assert proc.returncode == 2 and "it is the input pages/b.html" in proc.stderr
    assert snapshot(tmp_path) == before


def test_a_report_replaces_the_old_one_whole_and_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.html").write_text(article_html("Story a"), encoding="utf-8")
    (tmp_path / "report.html").write_text("an old report")
    (tmp_path / "latest.html").symlink_to("report.html")
    with (tmp_path / "report.html").open() as old:  # replaced, not rewritten in place
        proc = run_cli("a.html", "-o", "latest.html", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert old.read() == "an old report"
    assert sorted(os.listdir(tmp_path)) == ["a.html", "latest.html", "report.html"]
    assert (tmp_path / "latest.html").is_symlink()  # the file it names was replaced
    assert "<svg" in (tmp_path / "report.html").read_text(encoding="utf-8")
    proc = run_cli("a.html", "a.html", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["a-2.html", "a.html"]


def test_names_on_stderr_are_escaped(tmp_path: Path) -> None:
    (tmp_path / "a\x1b[2J.html").write_text(article_html("Story a"), encoding="utf-8")
    proc = run_cli("a\x1b[2J.html", "gone\x9b.html", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 1
    assert "\x1b" not in proc.stderr and "\x9b" not in proc.stderr
    assert "gone\\x9b.html: no such file" in proc.stderr
    assert "a\\x1b[2J.html: report written to out/a_2J.html" in proc.stderr


def test_a_misspelled_set_names_the_nearest_setting(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["explain", "page.html", "--set", "CX_MIN_CONTENT_LENTGH=5000"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "CX_MIN_CONTENT_LENTGH is not a scrapy-cx setting (CX_...); did you mean " in err
    assert "CX_MIN_CONTENT_LENGTH?" in err
