"""Process trees from /proc: which processes a crawl started, and whether they live."""

from __future__ import annotations

import os
from pathlib import Path


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, parent pid)`` of a process, None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text("ascii")
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every living process under ``pid`` (children, their children...)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[0] != "Z":
                parents[int(entry)] = stat[1]
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent counts as gone)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"
