"""The progress bar of ``scrapy-cx extract``: tqdm, fed the reader's byte count.

tqdm (the ``cli`` extra) draws, rate-limits, fits the terminal width and
estimates the time left; this module only says what to show (bytes of input
done, pages, articles, pages/s) and prints ``-v`` lines above the bar.
Without tqdm there is no bar, and the summary at the end is the same.
"""

from __future__ import annotations

from typing import Any, TextIO

__all__ = ["Progress"]

MISSING = (
    "scrapy-cx: no progress bar without tqdm (pip install tqdm; in a checkout: "
    "pip install -e '.[cli]')"
)


def _tqdm() -> Any:
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


class Progress:
    """A bar on ``stream`` when ``enabled`` and tqdm is installed; a no-op otherwise."""

    def __init__(self, stream: TextIO, total: int, *, enabled: bool, fps: float = 8) -> None:
        self.stream = stream
        self.bar: Any = None
        if not enabled:
            return
        tqdm = _tqdm()
        if tqdm is None:
            print(MISSING, file=stream)
            return
        self.bar = tqdm(
            total=total or None,
            file=stream,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            mininterval=1 / fps,
            leave=False,
            dynamic_ncols=True,
        )

    def update(self, pages: int, articles: int, done: int, *, force: bool = False) -> None:
        """Show ``done`` bytes of input read and the counts (tqdm decides when to redraw)."""
        bar = self.bar
        if bar is None:
            return
        elapsed = bar.format_dict["elapsed"]
        rate = pages / elapsed if elapsed > 0 else 0.0
        bar.set_postfix_str(f"{pages:,} pages {articles:,} articles {rate:,.0f} pages/s", False)
        bar.update(done - bar.n)
        if force:
            bar.refresh()

    def write(self, line: str) -> None:
        """Print ``line`` above the bar (or plainly when there is none)."""
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream)

    def close(self) -> None:
        """Erase the bar so the summary starts on a clean line."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
