"""End to end: a bad ``-a NAME=VALUE`` ends ``scrapy crawl news`` in one line, exit status 1,
before any request (issue 43 item 15), the way a bad ``-s`` setting does.

Scrapy logs its start-up banner before it creates the spider, so the line is the
last of stderr rather than the only one; no traceback, no request, no output. Scrapy
before 2.13 logs the error with its traceback (``ONE_LINE_ERRORS``): the message is
its last line, and nothing is fetched either.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.crawl import ONE_LINE_ERRORS, run_crawl

ASYNCIO = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["since=yesterday"], "-a since must be a date (2024-05-01), an ISO 8601 time or a"),
        (["dir=/missing"], "-a dir must be a folder of saved *.html / *.htm pages, not '/missing'"),
        (["urls=/missing.txt"], "-a urls must be a text file of URLs, one a line"),
        (["site=notaurl"], "-a site must be http(s) URLs with a host and no user:password"),
        (["site=file:///etc/"], "-a site must be http(s) URLs"),
        (["site=http://127.0.0.1:9/", "max_urls_per_source=-1"], "-a max_urls_per_source must"),
        (["site=http://127.0.0.1:9/", "sitemap_max_size=-1"], "-a sitemap_max_size must be"),
        (["start_url=http://127.0.0.1:9/", "depth=x"], "-a depth must be a whole number >= 0"),
    ],
)
def test_bad_argument_ends_the_crawl_in_one_line(
    tmp_path: Path, arguments: list[str], expected: str
) -> None:
    out = tmp_path / "out.jsonl"
    args = [word for argument in arguments for word in ("-a", argument)]
    proc, _ = run_crawl(args, out, settings={"TWISTED_REACTOR": ASYNCIO}, timeout=120)
    assert proc.returncode == 1, proc.stderr[-3000:]
    lines = proc.stderr.strip().splitlines()
    if ONE_LINE_ERRORS:
        assert lines and lines[-1].startswith("scrapy-cx: " + expected), proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr + proc.stdout
    else:
        assert lines and expected in lines[-1], proc.stderr[-3000:]
    assert "Crawled" not in proc.stderr and "Spider opened" not in proc.stderr
    assert not out.exists()
