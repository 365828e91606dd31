"""End to end: ``CX_FORMATS`` in a real ``scrapy crawl`` against a real local server.

One article page with the structure a news body has (a heading, a list, a
table, a figure with its caption, a relative link) crawled with every format,
with none and with the default: the exported item carries the body as HTML
(links made absolute), as Markdown and its pictures; with ``CX_FORMATS=``
(empty: the text only) null in all three, the text the same; by default the
HTML and the pictures, not the Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from tests.sample_pages import CAPTION, STRUCTURED_TITLE, structured_html
from tests.support.crawl import run_crawl
from tests.support.server import Route, serve

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

SETTINGS = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "ROBOTSTXT_OBEY": "False",
}
STRUCTURE = ("content_html", "content_markdown", "images")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    page = Route(structured_html().encode(), headers={"Content-Type": "text/html"})
    routes = {"/news/tram.html": page}
    with serve(routes) as (base, _hits):
        yield base


def crawl(base: str, formats: str | None, tmp_path: Path, workers: int = 0) -> dict[str, Any]:
    """The one item of a crawl of the page; ``workers``: extraction in worker processes,
    which the formats reach pickled (0: in the crawl's own thread, no pool to start)."""
    chosen = {} if formats is None else {"CX_FORMATS": formats}
    proc, items = run_crawl(
        ["-a", f"start_url={base}/news/tram.html"],
        tmp_path / "items.jsonl",
        settings={**SETTINGS, **chosen, "CX_WORKERS": str(workers)},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(items) == 1, proc.stderr[-3000:]
    return items[0]


def test_every_format_gives_the_body_as_html_markdown_and_pictures(
    site: str, tmp_path: Path
) -> None:
    item = crawl(site, "html,markdown,images", tmp_path, workers=1)
    body = lxml.html.fragment_fromstring(item["content_html"], create_parent="div")
    assert [h.text_content() for h in body.iter("h2", "h3")] == [
        "What the extension brings",
        "The costs, year by year",
    ]
    assert len(body.xpath(".//ul/li")) == 3
    assert [td.text_content() for td in body.xpath(".//table//tr[last()]/td")] == ["2027", "35"]
    assert len(body.xpath(".//table//tr")) == 4
    assert body.xpath(".//figure//img/@src") == [f"{site}/images/depot.jpg"]
    assert body.xpath("normalize-space(.//figure/figcaption)") == CAPTION
    assert body.xpath(".//a/@href") == [f"{site}/documents/plan-2024"]  # made absolute
    assert not body.xpath(".//nav|.//footer|.//h1|.//script|.//*[@class or @style or @id]")

    markdown = item["content_markdown"]
    assert re.search(r"^#+ What the extension brings$", markdown, re.M)
    assert re.search(r"^[-*] Six new stops", markdown, re.M)
    assert re.search(r"^\|\s*2026\s*\|\s*61\s*\|$", markdown, re.M)  # a GFM table row
    assert f"]({site}/documents/plan-2024)" in markdown
    assert f"![The tram depot]({site}/images/depot.jpg" in markdown

    assert item["images"] == [
        {"url": f"{site}/images/depot.jpg", "alt": "The tram depot", "caption": CAPTION}
    ]


def test_no_format_gives_the_text_only(site: str, tmp_path: Path) -> None:
    item = crawl(site, "", tmp_path)  # -s CX_FORMATS= : an empty list
    assert [item.get(name, "missing") for name in STRUCTURE] == [None, None, None]
    assert "Six new stops" in item["content"] and item["title"] == STRUCTURED_TITLE


def test_the_default_is_the_body_as_html_and_its_pictures(site: str, tmp_path: Path) -> None:
    item = crawl(site, None, tmp_path)
    assert "<table" in item["content_html"] and len(item["images"]) == 1
    assert item["content_markdown"] is None  # opt-in
