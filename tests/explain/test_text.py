"""The terminal summary: what a page or a file name holds never drives the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scrapy_cx.explain._explanation import explain_page
from scrapy_cx.explain._text import render_text

from ..sample_pages import PARAGRAPHS, article_html

RAW = {"\x1b", "\x9b", "\x07", "\r"}  # ESC, CSI (8-bit), BEL, carriage return
TITLE = "Tram\x1b[2J vote\x9b2J ends\x07"
# The article's fields come without control characters (page.without_controls); the
# file name, the report's own, is shown escaped.
SHOWN = "Tram vote ends"


def hostile_page() -> bytes:
    body = [PARAGRAPHS[0] + " \x1b]0;owned\x07 \x9b31m", *PARAGRAPHS[1:]]
    return article_html(TITLE, body=body).encode("utf-8")


def test_controls_from_the_page_and_its_name_are_escaped() -> None:
    expl = explain_page(hostile_page(), "http://news.test/1", source="page\x1b[2J\r.html")
    out = render_text(expl)
    assert not set(out) & RAW
    assert out.startswith("page\\x1b[2J\\x0d.html\n")
    assert f"title      {SHOWN}" in out


def test_the_report_keeps_its_own_lines_and_plain_text() -> None:
    expl = explain_page(article_html("Night buses return").encode(), "http://news.test/2")
    out = render_text(expl)
    assert "  title      Night buses return\n" in out and "\\x" not in out
    assert len(out.splitlines()) >= 8


def test_cli_text_prints_no_raw_escape(tmp_path: Path) -> None:
    (tmp_path / "story\x1b[2J.html").write_bytes(hostile_page())
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy_cx", "explain", "story\x1b[2J.html", "--text"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert not set(proc.stdout + proc.stderr) & RAW
    assert SHOWN in proc.stdout and proc.stdout.startswith("story\\x1b[2J.html\n")
