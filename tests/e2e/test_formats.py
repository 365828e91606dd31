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

from tests.support.crawl import run_crawl
from tests.support.server import Route, serve

SETTINGS = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "ROBOTSTXT_OBEY": "False",
    "CX_WORKERS": "0",  # one page: no pool to start
}
STRUCTURE = ("content_html", "content_markdown", "images")
TITLE = "Council backs the northern tram extension"
CAPTION = "The depot at the end of the line, photographed in March."

PAGE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{TITLE} | Harbour Gazette</title>
<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">
</head><body>
<nav><a href="/">Home</a> <a href="/city">City</a> <a href="/sport">Sport</a></nav>
<article><h1>{TITLE}</h1>
<p>The city council voted on Tuesday to extend the northern tram line by four kilometres,
ending a debate that has divided residents of the harbour district for almost a decade.
The full text of <a href="/documents/plan-2024">the approved plan</a> is public.</p>
<figure><img src="/images/depot.jpg" width="800" height="450" alt="The tram depot">
<figcaption>{CAPTION}</figcaption></figure>
<h3>What the extension brings</h3>
<p>Supporters argued that the extension would cut commuting times in half for the thirty
thousand people who live beyond the old railway bridge and work downtown.</p>
<ul><li>Four kilometres of new double track along the market street</li>
<li>Six new stops, two of them beside the schools of the harbour district</li>
<li>A second depot for the twelve trams ordered last year</li></ul>
<h3>The costs, year by year</h3>
<table><thead><tr><th>Year</th><th>Cost (million euros)</th></tr></thead>
<tbody><tr><td>2025</td><td>48</td></tr><tr><td>2026</td><td>61</td></tr>
<tr><td>2027</td><td>35</td></tr></tbody></table>
<p>The mayor said the first trams could run on the new section before the end of 2027,
provided that the regional government confirms its share of the funding this spring.</p>
</article>
<footer>Copyright Harbour Gazette. All rights reserved.</footer></body></html>"""


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    routes = {"/news/tram.html": Route(PAGE.encode(), headers={"Content-Type": "text/html"})}
    with serve(routes) as (base, _hits):
        yield base


def crawl(base: str, formats: str | None, tmp_path: Path) -> dict[str, Any]:
    chosen = {} if formats is None else {"CX_FORMATS": formats}
    proc, items = run_crawl(
        ["-a", f"start_url={base}/news/tram.html"],
        tmp_path / "items.jsonl",
        settings={**SETTINGS, **chosen},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(items) == 1, proc.stderr[-3000:]
    return items[0]


def test_every_format_gives_the_body_as_html_markdown_and_pictures(
    site: str, tmp_path: Path
) -> None:
    item = crawl(site, "html,markdown,images", tmp_path)
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
    assert "Six new stops" in item["content"] and item["title"] == TITLE


def test_the_default_is_the_body_as_html_and_its_pictures(site: str, tmp_path: Path) -> None:
    item = crawl(site, None, tmp_path)
    assert "<table" in item["content_html"] and len(item["images"]) == 1
    assert item["content_markdown"] is None  # opt-in
