"""A one-line progress bar on a terminal, redrawn in place with ``\\r``.

Small on purpose (no tqdm dependency). It draws only on a real terminal, so
logs and pipes never fill with carriage returns, and at most ``fps`` times a
second, so drawing never costs measurable time.
"""

from __future__ import annotations

import shutil
import time
from typing import TextIO


def format_duration(seconds: float) -> str:
    """``75`` -> ``"1:15"``, ``3725`` -> ``"1:02:05"``."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def render(
    pages: int, articles: int, done: int, total: int, elapsed: float, width: int = 80
) -> str:
    """The bar's text for one moment (pure, so it can be tested)."""
    rate = pages / elapsed if elapsed > 0 else 0.0
    fraction = min(1.0, done / total) if total > 0 else 0.0
    eta = ""
    if 0 < fraction < 1 and elapsed > 0:
        eta = f" ETA {format_duration(elapsed * (1 - fraction) / fraction)}"
    text = f" {pages:,} pages {articles:,} articles {rate:,.0f} pages/s{eta}"
    bar_width = max(0, min(30, width - len(text) - 8))
    if total > 0 and bar_width >= 5:
        filled = int(bar_width * fraction)
        text = f"{fraction:4.0%} [{'#' * filled}{'.' * (bar_width - filled)}]{text}"
    return text[: max(0, width - 1)]


class Progress:
    """Draws :func:`render` on ``stream`` when enabled; a no-op otherwise."""

    def __init__(self, stream: TextIO, total: int, *, enabled: bool, fps: float = 8) -> None:
        self.stream = stream
        self.total = total
        self.enabled = enabled
        self.interval = 1 / fps
        self.start = time.monotonic()
        self._last = 0.0
        self._drawn = False

    def update(self, pages: int, articles: int, done: int, *, force: bool = False) -> None:
        """Redraw if enough time has passed since the last drawing (or ``force``)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        width = shutil.get_terminal_size((80, 24)).columns
        line = render(pages, articles, done, self.total, now - self.start, width)
        self.stream.write("\r" + line.ljust(width - 1))
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar so the summary starts on a clean line."""
        if self.enabled and self._drawn:
            width = shutil.get_terminal_size((80, 24)).columns
            self.stream.write("\r" + " " * (width - 1) + "\r")
            self.stream.flush()
            self._drawn = False
