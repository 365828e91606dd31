"""``scrapy-cx explain``: the explanation is the core's own result, drawn faithfully."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any, cast

import lxml.html
import pytest
from lxml import etree

from scrapy_cx import FORMATS, Article, Image, extract_article
from scrapy_cx.explain._explanation import (
    CONTENT,
    Explanation,
    _structure,
    explain_page,
    explanation,
    line_spans,
    structure_summary,
    verdict_summary,
)
from scrapy_cx.explain._html import render_html
from scrapy_cx.explain._plot import MAX_COLUMNS, block_sums
from scrapy_cx.explain._text import render_text
from scrapy_cx.extract import Page, extract_page

from ..sample_pages import CAPTION, PARAGRAPHS, article_html, listing_html, structured_html
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
    # explain asks for every format, to show the structure the body kept.
    assert expl.article == extract_article(page, "https://example.org/a.html", formats=FORMATS)
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
    )  # 9 000 lines: within extract.parse.lines.MAX_LINES, far past the report's bounds
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


class _Shaped:
    """A core Page seen with other ``shapes`` (None: a core without the attribute)."""

    def __init__(self, page: Page, shapes: dict[int, str] | None) -> None:
        self._page = page
        if shapes is not None:
            self.shapes = shapes

    def __getattr__(self, name: str) -> Any:
        if name == "shapes":
            raise AttributeError(name)
        return getattr(self._page, name)


def test_each_line_shows_what_it_became_and_a_core_without_shapes_is_fine() -> None:
    page = extract_page(NEWS_EN.read_bytes(), NEWS_EN.as_uri())
    (start, end), *_ = page.regions
    shapes = {start: "h2", start + 1: "li", end - 1: "p"}
    shown = explanation(cast(Page, _Shaped(page, shapes)), "x")
    assert {i: line.shape for i, line in enumerate(shown.lines) if line.shape} == shapes
    bare = explanation(cast(Page, _Shaped(page, None)), "x")
    assert all(line.shape is None for line in bare.lines)
    report = render_html(shown)
    assert report.count('<span class="shape">') == 3 and '<span class="shape">h2</span>' in report
    assert '<span class="shape">' not in render_html(bare)
    assert f"{start + 1}  h2" in render_text(shown) and "  h2" not in render_text(bare)


def test_the_structure_kept_is_counted_in_words() -> None:
    body = (
        "<h2>A</h2><p>x</p><h3>B</h3><ul><li>1</li><li>2<ol><li>2.1</li></ol></li></ul>"
        "<table><thead><tr><th>y</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>"
        "<blockquote><p>q</p></blockquote><pre><code>c</code></pre>"
        '<figure><img src="http://s.test/a.jpg"><figcaption>cap</figcaption></figure>'
    )
    article = Article(content_html=body, images=(Image("http://s.test/a.jpg", None, "cap"),))
    expl = replace(explain_page(b"", None), article=article, structure=_structure(article))
    assert structure_summary(expl) == (
        "2 headings, 3 list items, 1 table of 2 rows, 1 quote, 1 code block, 1 image"
    )
    plain = Article(content_html="<p>only text</p>", images=())
    assert structure_summary(replace(expl, structure=_structure(plain))) == "paragraphs only"
    assert structure_summary(replace(expl, structure=None)) == "not made (no body HTML)"


def test_the_page_type_and_what_a_crawl_does_with_the_page_are_shown() -> None:
    kept = explain_page(article_html("Tram line").encode(), "http://news.test/1")
    assert kept.verdict is None
    assert verdict_summary(kept).startswith("article (article_probability 0.")
    assert verdict_summary(kept).endswith(": kept (default CX_* settings)")
    listing = explain_page(listing_html().encode(), "http://news.test/")
    assert listing.verdict is not None and listing.article.page_type is not None
    assert verdict_summary(listing).startswith(f"{listing.article.page_type} (article_probabil")
    assert ": dropped as " in verdict_summary(listing)
    assert f"cx/dropped/{listing.verdict}" in render_text(listing)
    assert escape(verdict_summary(listing)) in render_html(listing)
    assert "<th>page type</th>" in render_html(kept) and "<th>structure</th>" in render_html(kept)


def test_the_cores_shapes_and_counts_reach_the_report() -> None:
    expl = explain_page(structured_html().encode(), "http://news.test/tram")
    shaped = {line.text: line.shape for line in expl.lines if line.shape}
    # A heading (the core records the page's own level, h3 here, where content_html
    # has shifted it to h2).
    assert re.fullmatch(r"h[2-6]", shaped["What the extension brings"] or "")
    assert shaped["A second depot for the twelve trams ordered last year"] == "li"
    assert shaped[CAPTION] == "caption"
    assert {"row", "cell"} & set(shaped.values())
    assert structure_summary(expl) == "2 headings, 3 list items, 1 table of 4 rows, 1 image"
    out = render_text(expl)
    assert "structure  2 headings, 3 list items, 1 table of 4 rows, 1 image" in out
    assert re.search(r"\d+  h[2-6] +What the extension brings", out)


def test_settings_given_with_set_decide_the_verdict_as_in_a_crawl(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(article_html("Tram line"), encoding="utf-8")
    default = run_cli("a.html", "--text", cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert ": kept (default CX_* settings)" in default.stdout
    threads = run_cli("a.html", "--text", "--set", "CX_PAGE_TYPES=thread", cwd=tmp_path)
    assert threads.returncode == 0, threads.stderr
    assert ": dropped as page_type_article" in threads.stdout
    assert "(cx/dropped/page_type_article; CX_PAGE_TYPES=thread)" in threads.stdout
    longer = run_cli(
        "a.html", "--text", "-s", "CX_MIN_CONTENT_LENGTH=100000", "-s", "CX_PAGE_TYPES=article",
        cwd=tmp_path,
    )
    assert "dropped as short_content" in longer.stdout
    assert "CX_MIN_CONTENT_LENGTH=100000, CX_PAGE_TYPES=article)" in longer.stdout


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("CX_PAGE_TYPES=articel", "CX_PAGE_TYPES"),
        ("CX_MIN_CONTENT_LENGTH=abc", "CX_MIN_CONTENT_LENGTH"),
        ("CX_NOPE=1", "CX_NOPE"),
        ("CX_PAGE_TYPES", "CX_PAGE_TYPES"),
    ],
)
def test_a_bad_set_is_one_line_naming_the_setting(tmp_path: Path, setting: str, named: str) -> None:
    (tmp_path / "a.html").write_text(article_html("Tram line"), encoding="utf-8")
    proc = run_cli("a.html", "--set", setting, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert named in proc.stderr.strip().splitlines()[-1] and "Traceback" not in proc.stderr


def test_selected_lines_are_shown_sorted_and_merged() -> None:
    """The core keeps its regions best first and they may overlap: "9-18, 5-5, 7-18" was shown."""
    assert line_spans(((8, 18), (4, 5), (6, 18))) == "5, 7-18"
    assert line_spans(((0, 3), (3, 5), (9, 10))) == "1-5, 10"
    assert line_spans(()) == ""


def test_authors_from_json_ld_and_the_text_size_are_named_for_what_they_are() -> None:
    body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    page = (
        "<html><head><title>Tram line extended to the harbour</title>"
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"headline": "Tram line extended to the harbour", '
        '"author": {"@type": "Person", "name": "Mara Lindqvist"}}</script>'
        f"</head><body><h1>Tram line extended to the harbour</h1><div>{body}</div></body></html>"
    )
    expl = explain_page(page, "https://example.org/tram.html")
    authors = {e.field: e for e in expl.evidence}["authors"]
    assert authors.value == "Mara Lindqvist"
    assert authors.where == "JSON-LD author"  # was "JSON-LD headline"
    text = render_text(expl)
    assert "characters (as CX_MIN_CONTENT_LENGTH counts them" in text


def test_the_page_type_says_why_and_how_sure() -> None:
    """Why was this page typed so (the core's own reason) and how sure it is."""
    listing = explain_page(listing_html().encode(), "http://news.test/")
    article = explain_page(
        article_html("Tram line").replace("<head>", '<head><script type="application/ld+json">'
        '{"@type": "NewsArticle", "headline": "Tram line"}</script>').encode(),
        "http://news.test/1",
    )
    assert article.page_type_why == "it declares NewsArticle"
    assert listing.page_type_why  # every page type comes with its reason
    text = render_text(article)
    assert "because: it declares NewsArticle" in text
    assert f"article_probability {article.article.article_probability:.2f}" in text
    assert "because: it declares NewsArticle" in render_html(article)


def test_breadcrumbs_paywall_and_live_entries_say_where_they_were_read() -> None:
    head = (
        '<script type="application/ld+json">{"@type": "LiveBlogPosting",'
        ' "isAccessibleForFree": "False", "liveBlogUpdate": [{"articleBody": "Doors open."},'
        ' {"articleBody": "The vote passes."}]}</script></head>'
    )
    trail = (
        '<nav aria-label="breadcrumb"><ol><li><a href="/">Home</a></li>'
        '<li><a href="/city/">City</a></li><li>Ferry fares</li></ol></nav><article>'
    )
    html = article_html("Ferry fares").replace("</head>", head).replace("<article>", trail)
    expl = explain_page(html, "https://news.example/city/fares")
    by_field = {e.field: e for e in expl.evidence}
    assert by_field["breadcrumbs"].value == "Home › City › Ferry fares"
    assert by_field["breadcrumbs"].where == "<nav> breadcrumb navigation"
    paywall = by_field["accessible_for_free"]
    assert paywall.value == "no (paywalled)"
    assert paywall.where == "JSON-LD isAccessibleForFree: “False”"
    assert by_field["posts"].value == "2 entries"
    assert by_field["posts"].where == "JSON-LD liveBlogUpdate"
    out = render_text(expl)
    assert "  accessible_for_free no (paywalled)\n" in out
    plain = {e.field: e for e in explain_page(article_html("Ferry fares")).evidence}
    assert plain["breadcrumbs"].value is None and "posts" not in plain
    assert plain["accessible_for_free"].where == "the page does not say (no isAccessibleForFree)"
