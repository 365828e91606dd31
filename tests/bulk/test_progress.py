"""The progress bar: what it shows through tqdm, -v lines above it, silence when disabled."""

from __future__ import annotations

import io
import sys

import pytest

from scrapy_cx.bulk._progress import MISSING, Progress


def test_bar_shows_bytes_counts_and_rate_then_erases_itself() -> None:
    stream = io.StringIO()
    progress = Progress(stream, total=1000, enabled=True)
    progress.update(pages=200, articles=150, done=250, force=True)
    shown = stream.getvalue()
    assert "25%" in shown and "200 pages 150 articles" in shown and "pages/s" in shown
    progress.close()
    assert stream.getvalue().endswith("\r")  # leave=False: the line is cleared


def test_lines_are_written_above_the_bar() -> None:
    stream = io.StringIO()
    progress = Progress(stream, total=10, enabled=True)
    progress.update(1, 0, 5, force=True)
    progress.write("skipped: a.pdf: not HTML (PDF)")
    progress.close()
    assert "skipped: a.pdf: not HTML (PDF)\n" in stream.getvalue()


def test_disabled_bar_writes_nothing_but_lines() -> None:
    stream = io.StringIO()
    progress = Progress(stream, total=100, enabled=False)
    progress.update(5, 1, 50, force=True)
    progress.close()
    assert stream.getvalue() == ""
    progress.write("skipped: x")
    assert stream.getvalue() == "skipped: x\n"


def test_without_tqdm_there_is_no_bar_and_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    stream = io.StringIO()
    progress = Progress(stream, total=100, enabled=True)
    progress.update(5, 1, 50, force=True)
    progress.close()
    assert stream.getvalue() == MISSING + "\n"
