"""``scrapy-cx explain``: the explanation is the core's own result, drawn faithfully."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from scrapy_cx import extract_article
from scrapy_cx.explain._explanation import CONTENT, Explanation, explain_page
from scrapy_cx.explain._html import render_html
from scrapy_cx.explain._plot import MAX_COLUMNS, block_sums
from scrapy_cx.explain._text import render_text
from scrapy_cx.extract import extract_page

from ..sample_pages import PARAGRAPHS, article_html, listing_html
from ..support.server import Route, serve

PAGES = Path(__file__).parent.parent / "pages"
NEWS_EN = PAGES / "news_en.html"
PORTAL_ZH = PAGES / "portal_zh.html"
SVG = "{http://www.w3.org/2000/svg}"
MAX_REPORT = 1_500_000  # bytes: the plot and table caps bound a huge page's report


def explain_file(path: Path) -> Explanation:
    return explain_page(path.read_bytes(), path.as_uri(), source=str(path))


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy_cx", "explain", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def svg_of(report: str) -> etree._Element:
    """The report's figure, parsed as XML: it must be well-formed SVG on its own."""
    match = re.search(r"<svg .*?</svg>", report, re.S)
    assert match, "no <svg> in the report"
    return etree.fromstring(match.group(0).encode("utf-8"))


@pytest.mark.parametrize(
    "page",
    [
        NEWS_EN.read_bytes(),
        PORTAL_ZH.read_bytes(),
        article_html("Tram line").encode(),
        listing_html().encode(),
    ],
    ids=["news_en", "portal_zh", "sample_article", "listing"],
)
def test_explanation_holds_the_article_the_core_extracts(page: bytes) -> None:
    expl = explain_page(page, "https://example.org/a.html")
    assert expl.article == extract_article(page, "https://example.org/a.html")
    if expl.regions:
        ((start, end),) = expl.regions
        assert (
            "\n".join(
                line.text for line in expl.lines[start:end] if line.kind.name != "boilerplate"
            )
            == expl.article.content
        )


def test_evidence_points_at_the_lines_it_came_from() -> None:
    expl = explain_file(NEWS_EN)
    by_field = {e.field: e for e in expl.evidence}
    title = by_field["title"]
    assert title.value == "Night buses return to the valley after five years"
    assert title.line is not None and expl.lines[title.line].tag == "h1"
    assert f"line {title.line + 1}" in title.where and "<h1>" in title.where
    authors = by_field["authors"]
    assert authors.value == "Priya Raman" and authors.line is not None
    assert "Priya Raman" in expl.lines[authors.line].text and "byline" in authors.where
    assert by_field["published"].where == "<time datetime> in the page"


def test_metadata_evidence_is_named_by_its_tag() -> None:
    expl = explain_file(PORTAL_ZH)
    published = next(e for e in expl.evidence if e.field == "published")
    assert published.where == "<meta> article:published_time" and published.line is None
    assert expl.article.published == "2024-03-05T09:30:00+08:00"


def test_lines_are_coloured_by_the_cores_block_kinds() -> None:
    expl = explain_file(PORTAL_ZH)
    assert [line.kind.name for line in expl.lines] == extract_page(PORTAL_ZH.read_bytes()).kinds
    kinds = {line.text: line.kind.name for line in expl.lines}
    assert kinds["滨江新区今年将新建五个社区自助图书馆"] == "related"  # 相关新闻
    assert kinds["江城地铁五号线南延段进入试运行阶段"] == "related"  # 热点排行
    assert kinds["新闻"] == "navigation"  # the main menu
    assert kinds[next(t for t in kinds if t.startswith("3月5日上午"))] == "content"
    assert kinds[next(t for t in kinds if "版权所有" in t)] == "boilerplate"  # footer
    legend = render_html(expl).split('<div class="legend">', 1)[1].split("</div>", 1)[0]
    for name in ("content", "related", "navigation", "boilerplate"):
        assert f"<b>{name}</b>" in legend


def test_the_plot_draws_blocks_region_and_every_line() -> None:
    expl = explain_file(NEWS_EN)
    svg = svg_of(render_html(expl))
    text, links = block_sums(expl)
    k = expl.block_size
    assert text[0] == sum(line.length - line.link_length for line in expl.lines[:k])
    blocks = svg.findall(f".//{SVG}g[@class='cx-block']")
    assert len(blocks) == sum(1 for t, li in zip(text, links, strict=True) if t or li)
    # A block's bar stacks its lines, each in its kind's colour, up to the block's text.
    heights = [
        sum(float(r.get("height", "")) for r in g if r.get("class", "").startswith("cx-bar "))
        for g in blocks
    ]
    drawn = [t for t, li in zip(text, links, strict=True) if t or li]
    scale = max(heights) / max(text)
    assert heights == pytest.approx([t * scale for t in drawn], abs=0.05)
    byline = next(i for i, line in enumerate(expl.lines) if line.text.startswith("By Priya"))
    position = sum(1 for t, li in zip(text[:byline], links[:byline], strict=True) if t or li)
    colours = [r.get("fill") for r in blocks[position]]
    assert expl.lines[byline].kind.colour in colours and CONTENT.colour in colours
    bars = svg.findall(f".//{SVG}rect[@class]")
    assert sum(1 for r in bars if r.get("class", "").startswith("cx-line ")) == len(expl.lines)
    (region,) = [r for r in bars if r.get("class") == "cx-region"]
    (start, end) = expl.regions[0]
    lines = [r for r in bars if r.get("class", "").startswith("cx-line")]
    assert float(region.get("x", "")) == pytest.approx(float(lines[start].get("x", "")), abs=0.1)
    assert float(region.get("x", "")) + float(region.get("width", "")) == pytest.approx(
        float(lines[end].get("x", "")), abs=0.2
    )


def test_report_is_self_contained_and_escapes_the_page() -> None:
    hostile = (
        "<html><head><title>&lt;script&gt;alert(1)&lt;/script&gt; News</title></head><body>"
        "<h1>&lt;img src=x onerror=alert(1)&gt;</h1>"
        + "<p>"
        + "Plain words of a long enough paragraph about the harbour. " * 6
        + "</p>"
        "<script>alert(2)</script></body></html>"
    )
    report = render_html(explain_page(hostile, "https://example.org/x"))
    assert "<script" not in report.lower() and "<img" not in report.lower()
    tree = lxml.html.document_fromstring(report)
    assert tree.xpath("//script | //img | //link | //iframe | //*[@src] | //*[@href]") == []
    assert not re.search(r"@import|url\(", report, re.I)
    assert "&lt;img src=x onerror=alert(1)&gt;" in report  # the headline, shown escaped
    etree.fromstring(re.search(r"<svg .*?</svg>", report, re.S).group(0).encode())  # type: ignore[union-attr]


def test_a_page_with_no_article_still_gets_a_report() -> None:
    expl = explain_page(b"<html><body><a href='/'>Home</a></body></html>", None)
    assert expl.regions == ()
    report = render_html(expl)
    assert "cx-region" not in svg_of(report).xpath("string(//@class)") and "none:" in report
    assert "none: no run of lines" in render_text(expl)
    empty = explain_page(b"", None)
    assert empty.lines == () and "<svg" in render_html(empty)


def test_text_summary_marks_the_selected_blocks() -> None:
    expl = explain_file(PORTAL_ZH)
    out = render_text(expl)
    assert "滨江新区首座无人值守图书馆开放 市民24小时可借阅" in out
    assert "found in: <h1> on line" in out and "found in: <meta> article:published_time" in out
    ((start, end),) = expl.regions
    assert f"lines {start + 1}-{end} of {len(expl.lines)}" in out
    bars, marks = out.splitlines()[-2:]
    assert "^" in marks and "█" in bars
    # The tallest column sits under the selected region.
    offset = bars.index(bars.strip()[0]) if bars.strip() else 0
    assert marks[bars.index("█", offset)] == "^"


def test_cli_one_report_and_a_folder_of_reports(tmp_path: Path) -> None:
    proc = run_cli(str(NEWS_EN), "-o", "report.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in (tmp_path / "report.html").read_text(encoding="utf-8")
    assert proc.stdout == ""  # a report, no summary unless --text
    proc = run_cli(
        str(NEWS_EN), str(PORTAL_ZH), "missing.html", "-o", "out", "--text", cwd=tmp_path
    )
    assert proc.returncode == 1  # one page failed, the others are reported
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "news_en.html",
        "portal_zh.html",
    ]
    assert "missing.html: no such file" in proc.stderr
    assert "Night buses return" in proc.stdout and "滨江新区" in proc.stdout
    proc = run_cli(str(PORTAL_ZH), "-o", "no/such/folder/report.html", cwd=tmp_path)
    assert proc.returncode == 1 and "cannot write no/such/folder/report.html" in proc.stderr
    proc = run_cli(str(PORTAL_ZH), "-o", "out/", cwd=tmp_path)  # one page into a folder
    assert proc.returncode == 0, proc.stderr
    assert "滨江新区" in (tmp_path / "out" / "portal_zh.html").read_text(encoding="utf-8")


def test_cli_without_output_prints_the_summary(tmp_path: Path) -> None:
    proc = run_cli(str(PORTAL_ZH), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(str(PORTAL_ZH)) and "found in:" in proc.stdout
    assert list(tmp_path.iterdir()) == []


def test_cli_fetches_a_url_and_decodes_it_as_a_crawl_does(tmp_path: Path) -> None:
    # GBK bytes, the charset only in the HTTP header (the page declares none).
    page = PORTAL_ZH.read_text(encoding="utf-8").replace('<meta charset="utf-8">', "")
    routes = {
        "/gbk.html": Route(page.encode("gbk"), headers={"Content-Type": "text/html; charset=GBK"}),
        "/paper.pdf": Route(b"%PDF-1.4", headers={"Content-Type": "application/pdf"}),
    }
    with serve(routes) as (base, hits):
        proc = run_cli(
            f"{base}/gbk.html",
            f"{base}/gone.html",
            f"{base}/paper.pdf",
            "-o",
            "reports",
            cwd=tmp_path,
        )
    assert hits["/gbk.html"] == 1
    assert proc.returncode == 1
    assert f"{base}/gone.html: HTTP 404" in proc.stderr
    assert f"{base}/paper.pdf: not an HTML page (Content-Type application/pdf)" in proc.stderr
    (report,) = (tmp_path / "reports").iterdir()
    html = report.read_text(encoding="utf-8")
    assert "滨江新区首座无人值守图书馆开放" in html and f"{base}/gbk.html" in html


def test_a_huge_page_gets_a_bounded_report() -> None:
    links = "".join(
        f"<li><a href='/n{i}'>Another headline number {i}</a></li>" for i in range(4500)
    )  # 9 000 lines: within extract.lines.MAX_LINES, far past the report's bounds
    story = "".join(f"<p>{p}</p>" for p in [*PARAGRAPHS, *PARAGRAPHS, *PARAGRAPHS])
    page = f"<html><body><ul>{links}</ul><article>{story}</article><ul>{links}</ul></body></html>"
    expl = explain_page(page, None)
    assert len(expl.lines) > 9000 and expl.regions and not expl.article.truncated
    report = render_html(expl)
    assert len(report) < MAX_REPORT  # drawn in full, plot and table would be ~4 MB
    svg = svg_of(report)
    assert len(svg.findall(f".//{SVG}g[@class='cx-block']")) <= MAX_COLUMNS
    strip = [r for r in svg.iter(f"{SVG}rect") if r.get("class", "").startswith("cx-line ")]
    assert MAX_COLUMNS // 2 <= len(strip) <= MAX_COLUMNS
    assert "each column stands for" in report and "lines not shown" in report
    assert PARAGRAPHS[0][:100] in report  # the selected lines are in the table


def test_values_read_off_metadata_and_url_say_so() -> None:
    body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    page = (
        "<html><head><title>Harbour Gazette</title>"
        '<meta property="og:title" content="Tram line extended to the harbour">'
        f"</head><body><div>{body}</div></body></html>"
    )
    expl = explain_page(page, "https://example.org/2024/03/05/tram.html")
    by_field = {e.field: e for e in expl.evidence}
    assert by_field["title"].value == "Tram line extended to the harbour"
    assert by_field["title"].where.startswith("<meta> og:title") and by_field["title"].line is None
    assert by_field["published"].where == "the URL" and expl.article.published == "2024-03-05"
    assert by_field["authors"].value is None and "no byline" in by_field["authors"].where
