"""Print, as one bash script, the README's commands after its Quick start (and the
example project's "Try it"), block by block, for .ci/quickstart to run as pasted.

A block is a literal block (after a paragraph ending in ``::``) whose lines are
indented; its commands are the lines that start with a command (others are the
output a block shows). Each block runs in a subshell from the repository's root
with the venv activated by the README's own activation line. A command that needs
what CI does not have is printed as a ``# not run`` comment with the reason.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

COMMAND = re.compile(r"(\. |cd |pip |python3? |scrapy |scrapy-cx |export |bash |wait\b)")
NOT_RUN = (
    (re.compile(r"https?://(?!127\.0\.0\.1)"), "it reaches a site on the internet"),
    (re.compile(r"\bbenchmarks\."), "it needs the bench data (../shared/bench)"),
    (re.compile(r"CX_REDIS_URL|scrapy_cx\.distributed"), "it needs a Redis server"),
    (re.compile(r"\.ci/release|twine"), "it uploads a release"),
)
ACTIVATE = ". .venv/bin/activate"


def blocks(text: str) -> list[list[str]]:
    """The command lines of each literal block, in order."""
    found: list[list[str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith("::") and not lines[i].lstrip().startswith(".."):
            i += 1
            body: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i])
                i += 1
            commands = [line.strip() for line in body if COMMAND.match(line.strip())]
            if commands:
                found.append(commands)
        else:
            i += 1
    return found


def sections(text: str) -> tuple[str, str]:
    """The Quick start section, and everything after it."""
    headings = [m.start() for m in re.finditer(r"^[^\n]+\n-{3,}\n", text, re.M)]
    quick = text.index("\nQuick start\n---") + 1
    after = min(h for h in headings if h > quick)
    return text[quick:after], text[after:]


def script(readme: Path, example: Path) -> str:
    quick, later = sections(readme.read_text(encoding="utf-8"))
    assert f"    {ACTIVATE}\n" in quick, f"the Quick start no longer says {ACTIVATE!r}"
    try_it = blocks(example.read_text(encoding="utf-8"))[:1]
    out = []
    for commands in blocks(later) + try_it:
        runnable = []
        for command in commands:
            why = next((why for rule, why in NOT_RUN if rule.search(command)), None)
            if why is None:
                runnable.append(command)
            else:
                out.append(f"# not run ({why}): {command}")
        runnable = [c for c in runnable if c != ACTIVATE]
        if runnable:
            out.append("(\n" + "\n".join([ACTIVATE, "set -x", *runnable]) + "\n)")
    return "\n".join(out)


if __name__ == "__main__":
    print(script(Path(sys.argv[1]), Path(sys.argv[2])))
