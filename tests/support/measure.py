"""Run a command in a fresh Python process and read its peak memory (RSS)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

MIB = 1024 * 1024
_REPORT = (
    "\nimport resource as _r, sys as _s\n"
    "_s.stderr.write('\\npeak_rss=%d\\n' % (_r.getrusage(_r.RUSAGE_SELF).ru_maxrss * 1024))\n"
)
#: ``scrapy-cx ARGS`` (the bulk command).
CLI = """import sys
from scrapy_cx.__main__ import main
try:
    rc = main(sys.argv[1:])
finally:"""
#: ``scrapy ARGS`` (a crawl), as the ``scrapy`` console script runs it.
SCRAPY = """import sys
from scrapy.cmdline import execute
rc = 0
try:
    execute(["scrapy", *sys.argv[1:]])
except SystemExit as exc:
    rc = exc.code or 0
finally:"""


def run_measured(
    program: str, *args: str, cwd: Path, timeout: float = 300
) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``program`` (:data:`CLI` or :data:`SCRAPY`) with ``args``: the process and its peak RSS.

    The report line is removed from the returned stderr.
    """
    code = program + _indent(_REPORT) + "\nsys.exit(rc)\n"
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    found = re.search(r"\npeak_rss=(\d+)\n", proc.stderr)
    assert found, proc.stderr[-3000:]
    proc.stderr = proc.stderr[: found.start()] + proc.stderr[found.end() :]
    return proc, int(found.group(1))


def _indent(code: str) -> str:
    return "\n".join("    " + line if line else line for line in code.split("\n"))
