"""Run the example project's ``news`` spider as a user would: a real ``scrapy crawl``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import scrapy

EXAMPLE_PROJECT = Path(__file__).resolve().parents[2] / "example_project"

#: Whether an error raised while Scrapy makes the spider (a bad ``-a``, a JOBDIR in use)
#: ends ``scrapy crawl`` in one line. Scrapy 2.13+ (``AsyncCrawlerProcess``) lets the
#: error's ``SystemExit`` out; older Scrapy makes the spider inside a Deferred whose
#: failure Twisted logs with its traceback (exit status 1 all the same, the message
#: the traceback's last line).
ONE_LINE_ERRORS = scrapy.version_info >= (2, 13)


def run_crawl(
    args: list[str],
    output: Path,
    *,
    settings: dict[str, str] | None = None,
    timeout: float = 180,
    cwd: Path = EXAMPLE_PROJECT,
    env: dict[str, str] | None = None,
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """``scrapy crawl news ARGS -O output``; returns the process and the exported items
    (none read unless ``output`` is JSON lines: read a CSV export yourself)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
    proc = subprocess.run(
        crawl_command(args, output, settings),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    items: list[dict[str, Any]] = []
    if output.exists() and output.suffix in (".jsonl", ".jl"):
        with output.open(encoding="utf-8") as fh:
            items = [json.loads(line) for line in fh if line.strip()]
    return proc, items


def crawl_command(
    args: list[str], output: Path, settings: dict[str, str] | None = None
) -> list[str]:
    """The command line of ``scrapy crawl news ARGS -O output -s NAME=VALUE...``.

    The fork server's warm-up is off unless ``settings`` turn it on: it pays off over
    hundreds of pages per worker, and costs each of these crawls of a few pages about
    3 s (2 minutes of the end-to-end tests; ``tests/e2e/test_workers.py`` and the
    pool's tests run it)."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", *args, "-O", str(output)]
    for name, value in {"CX_WORKER_WARM_UP": "False", **(settings or {})}.items():
        cmd += ["-s", f"{name}={value}"]
    return cmd
