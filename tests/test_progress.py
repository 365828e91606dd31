"""The progress bar: its text, and that it stays silent when disabled."""

from __future__ import annotations

import io

from scrapy_cx.progress import Progress, format_duration, render


def test_format_duration() -> None:
    assert format_duration(75) == "1:15"
    assert format_duration(3725) == "1:02:05"
    assert format_duration(-3) == "0:00"


def test_render_shows_share_counts_rate_and_eta() -> None:
    line = render(pages=200, articles=150, done=250, total=1000, elapsed=10.0, width=100)
    assert line.startswith(" 25% [#######.......................]")
    assert "200 pages 150 articles 20 pages/s ETA 0:30" in line


def test_render_fits_the_terminal() -> None:
    line = render(pages=10**6, articles=10**6, done=1, total=2, elapsed=1.0, width=40)
    assert len(line) <= 39
    assert "[" not in line  # no room for a bar: counts only


def test_render_without_total_has_no_bar() -> None:
    assert render(5, 1, 0, 0, 1.0) == " 5 pages 1 articles 5 pages/s"


def test_disabled_progress_writes_nothing() -> None:
    stream = io.StringIO()
    progress = Progress(stream, 100, enabled=False)
    progress.update(1, 1, 50, force=True)
    progress.close()
    assert stream.getvalue() == ""


def test_enabled_progress_redraws_in_place_and_erases() -> None:
    stream = io.StringIO()
    progress = Progress(stream, 100, enabled=True, fps=0.001)
    progress.update(1, 0, 10, force=True)
    progress.update(2, 1, 20)  # too soon after the last drawing: skipped
    progress.update(3, 2, 30, force=True)
    progress.close()
    out = stream.getvalue()
    assert out.count("\r") == 2 + 2  # two drawings, one erase
    # "] 2 pages", not "2 pages": a rate such as "87,922 pages/s" holds that too.
    assert "] 3 pages 2 articles" in out and "] 2 pages" not in out
    assert out.endswith("\r")
