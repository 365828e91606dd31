"""The headline, from <title> split on separators and checked against the body."""

from __future__ import annotations

import re

from .lines import Line
from .meta import PageMeta

SEPARATORS = re.compile(r"\s*(?:\||_|—+|–|-|·|:|｜|＿|－|——)\s*")


def find_title(meta: PageMeta, lines: list[Line], main_start: int) -> tuple[str | None, int | None]:
    """Return ``(title, index of its line or None)``."""
    headings = [(i, line) for i, line in enumerate(lines[: main_start + 1]) if line.tag == "h1"]
    if headings:
        i, line = headings[-1]
        return line.text, i
    if meta.title_tag:
        parts = [p for p in SEPARATORS.split(meta.title_tag) if p]
        return (max(parts, key=len) if parts else meta.title_tag), None
    return None, None
