"""The explain report in a real headless Chromium: the plot and the region are drawn.

Chromium comes from the distribution (Debian's ``chromium``; CI installs it).
Where none exists the test is skipped, saying so: the report was then not
checked in a browser.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import lxml.html
import pytest

from scrapy_cx.explain._explanation import CONTENT, explain_page
from scrapy_cx.explain._html import render_html
from scrapy_cx.explain._plot import REGION_COLOUR

from ..support.png import Image, read_png

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

PAGES = Path(__file__).parent.parent / "pages"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WINDOW = (1040, 760)  # enough for the fields, the legend and the figure
BROWSER_TIMEOUT = 120


def _browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(
        "NO BROWSER: headless Chromium not found (Debian: apt-get install chromium); "
        "the explain report was NOT checked in a real browser"
    )


def _run(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "HOME": str(profile)}  # nothing written to the real home
    return subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        timeout=BROWSER_TIMEOUT,
        check=False,
        env=env,
    )


def _rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.lstrip("#"), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def _longest_run(image: Image, colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """(length, first x, row) of the longest horizontal run of exactly ``colour``."""
    best = (0, 0, 0)
    for y in range(image.height):
        run = 0
        for x in range(image.width):
            if image.pixel(x, y) == colour:
                run += 1
                if run > best[0]:
                    best = (run, x - run + 1, y)
            else:
                run = 0
    return best


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    browser = _browser()
    folder = tmp_path_factory.mktemp("explain-browser")
    page = PAGES / "news_en.html"
    report = folder / "report.html"
    report.write_text(render_html(explain_page(page.read_bytes(), page.as_uri())), "utf-8")
    return browser, folder, report


def test_browser_builds_the_svg_with_the_region(rendered: tuple[str, Path, Path]) -> None:
    browser, folder, report = rendered
    proc = _run(browser, folder / "profile-dom", "--dump-dom", report.as_uri())
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    dom = lxml.html.document_fromstring(proc.stdout)
    # Chromium parsed the inline SVG into an <svg> with its shapes (not text).
    assert len(dom.xpath("//svg[@class='cx-plot']")) == 1
    assert len(dom.xpath("//svg//rect[@class='cx-region']")) == 1
    assert len(dom.xpath("//svg//rect[starts-with(@class, 'cx-bar ')]")) > 10
    assert len(dom.xpath("//svg//rect[starts-with(@class, 'cx-line ')]")) > 10


def test_screenshot_shows_the_region_and_the_article_bars(
    rendered: tuple[str, Path, Path],
) -> None:
    browser, folder, report = rendered
    shot = folder / "shot.png"
    proc = _run(
        browser,
        folder / "profile-shot",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        f"--screenshot={shot}",
        report.as_uri(),
    )
    assert proc.returncode == 0 and shot.exists(), proc.stderr.decode(errors="replace")[-2000:]
    image = read_png(shot.read_bytes())
    tree = lxml.html.document_fromstring(report.read_text("utf-8"))
    (region,) = tree.xpath("//rect[@class='cx-region']")
    width = float(region.get("width"))
    # The shaded band is drawn at its width (a legend swatch is 12 px) ...
    run, first, row = _longest_run(image, _rgb(REGION_COLOUR))
    assert abs(run - width) <= 2, (run, width)
    # ... and green article bars stand inside it, on the same row band.
    green = _rgb(CONTENT.colour)
    columns = range(first, first + run)
    assert any(image.pixel(x, y) == green for x in columns for y in range(row, image.height))
