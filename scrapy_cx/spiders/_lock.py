"""One crawl at a time on a ``JOBDIR``: two would each export what the other did.

The lock is ``fcntl.flock`` on a file in the JOBDIR, held for the crawl and let
go by the kernel when the process ends, however it ends (a SIGKILL leaves no
stale lock for the next run to clear by hand).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

from scrapy import signals

__all__ = ["JobdirBusy", "JobdirLock", "lock_jobdir"]

LOCK_NAME = "cx-news.lock"


class JobdirBusy(RuntimeError):
    """Another live crawl holds the JOBDIR."""


class JobdirLock:
    """An exclusive, non-blocking lock on ``jobdir`` (see the module's docstring)."""

    def __init__(self, jobdir: str | os.PathLike[str]) -> None:
        folder = Path(jobdir)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / LOCK_NAME
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            raise JobdirBusy(
                f"JOBDIR {folder} is in use by another crawl (locked: {self.path}); "
                "wait for it to end, or give this crawl another JOBDIR"
            ) from None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor lets the lock go
            self._fd = None


def lock_jobdir(crawler: Any) -> None:
    """Hold the crawl's ``JOBDIR`` (if any) until its engine stops; taken, end the
    command in one line (``SystemExit``: exit status 1, no traceback)."""
    jobdir = crawler.settings.get("JOBDIR")
    if not jobdir:
        return
    try:
        lock = JobdirLock(jobdir)
    except JobdirBusy as exc:
        raise SystemExit(f"scrapy-cx: {exc}") from None
    crawler.signals.connect(lock.release, signal=signals.engine_stopped, weak=False)
