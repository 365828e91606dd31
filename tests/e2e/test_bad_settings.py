"""End to end: a bad ``-s CX_...=VALUE`` ends ``scrapy crawl`` in one line, on each reactor.

The message for every setting is checked in-process (tests/test_settings.py);
here a few real crawls show what a user sees: stderr's only line names the
setting, the value and what is allowed, the exit status is not 0, and no
traceback, whichever reactor (and so Scrapy crawler process class) runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.crawl import run_crawl

ASYNCIO = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
SELECT = "twisted.internet.selectreactor.SelectReactor"


@pytest.mark.parametrize(
    ("reactor", "name", "value", "expected"),
    [
        (ASYNCIO, "CX_WORKERS", "-1", "CX_WORKERS must be 'auto' or a number >= 0, not '-1'"),
        (SELECT, "CX_PAGE_TYPES", '["articel"]', "CX_PAGE_TYPES: unknown ['articel']"),
        (SELECT, "CX_ENABLED", "no", "CX_ENABLED must be True or False"),
        (ASYNCIO, "CX_MIN_CONTENT_LENGTH", "abc", "CX_MIN_CONTENT_LENGTH must be a whole number"),
    ],
)
def test_bad_setting_ends_the_crawl_in_one_line(
    tmp_path: Path, reactor: str, name: str, value: str, expected: str
) -> None:
    out = tmp_path / "out.jsonl"
    proc, _ = run_crawl([], out, settings={name: value, "TWISTED_REACTOR": reactor}, timeout=120)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("scrapy-cx: " + expected), proc.stderr[-3000:]
    assert len(lines) == 1, proc.stderr[-3000:]  # nothing else: no traceback, no crawl
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not out.exists()


def test_a_json_list_on_the_command_line_is_the_list(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    proc, _ = run_crawl([], out, settings={"CX_PAGE_TYPES": '["listing"]'}, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    types = [line for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert types and all('"page_type": "listing"' in line for line in types)


def test_a_misspelled_setting_is_warned_about_once_and_counted(tmp_path: Path) -> None:
    """``-s CX_MIN_CONTENT_LENTGH=5000`` ran the crawl on the default without a word."""
    out = tmp_path / "out.jsonl"
    proc, _ = run_crawl([], out, settings={"CX_MIN_CONTENT_LENTGH": "5000"}, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    warning = (
        "WARNING: scrapy-cx: unknown setting CX_MIN_CONTENT_LENTGH (ignored): "
        "did you mean CX_MIN_CONTENT_LENGTH?"
    )
    assert proc.stderr.count(warning) == 1, proc.stderr[-3000:]
    assert "'cx/unknown_settings': 1," in proc.stderr
    assert out.read_text(encoding="utf-8").count("\n") == 8  # the default still holds
