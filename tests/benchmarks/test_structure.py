"""benchmarks.structure (tables, --misses, --agree, --speed) on a tiny bench dir written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import structure
from benchmarks.datasets import BenchPage
from benchmarks.structure_checks import Agreement, check_page, render_agreement
from tests.benchmarks.test_accuracy import write_bench

PARAGRAPH = (
    "The city council voted on Tuesday to build a new bridge across the river, after a "
    "long debate about its cost and about the traffic it would bring to the old town. "
)
PAGE = f"""<html><head><meta charset="utf-8"><title>Council backs new bridge</title></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Council backs new bridge</h1><p>{PARAGRAPH * 2}</p>
<h2>What happens next</h2><p>{PARAGRAPH}See <a href="plans.html?from=rss">the plans</a>.</p>
<ul><li>Work starts next spring, weather allowing.</li>
<li>It should take three years to finish the bridge.</li></ul><p>{PARAGRAPH}</p></article>
<footer>Copyright Daily</footer></body></html>"""
# As Readability's harness writes it: addresses absolute against the fakehost page.
EXPECTED = f"""<div id="readability-page-1" class="page"><p>{PARAGRAPH * 2}</p>
<h2>What happens next</h2><p>{PARAGRAPH}See
<a href="http://fakehost/test/plans.html?from=rss">the plans</a>.</p>
<ul><li>Work starts next spring, weather allowing.</li>
<li>It should take three years to finish the bridge.</li></ul><p>{PARAGRAPH}</p></div>"""


def write_structure_bench(root: Path) -> Path:
    """A readability set of two pages, one of them with an expected body."""
    folder = root / "readability"
    (folder / "html").mkdir(parents=True)
    (folder / "expected").mkdir()
    (folder / "html" / "bridge.html").write_text(PAGE, encoding="utf-8")
    (folder / "html" / "other.html").write_text(PAGE, encoding="utf-8")
    (folder / "expected" / "bridge.html").write_text(EXPECTED, encoding="utf-8")
    rows = [
        {"id": i, "html": f"html/{i}.html", "url": "https://real.example/a/b", "lang": "en"}
        for i in ("bridge", "other")
    ]
    (folder / "manifest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def test_only_pages_with_an_expected_body_are_scored(tmp_path: Path) -> None:
    pages = structure.expected_pages(write_structure_bench(tmp_path))
    assert [page.id for page, _expected in pages] == ["bridge"]


def test_the_tables_and_json_score_cx_at_the_fakehost_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = write_structure_bench(tmp_path / "bench")
    out = tmp_path / "figures.json"
    argv = ["--bench", str(bench), "--systems", "cx-html,cx-markdown", "--json", str(out)]
    assert structure.main(argv) == 0
    printed = capsys.readouterr().out
    assert "cx-html" in printed and "macro (recall / kept / precision)" in printed
    rows = {(r["system"], r["kind"]): r for r in json.loads(out.read_text())["rows"]}
    for system in ("cx-html", "cx-markdown"):
        assert rows[(system, "heading")]["truth"] == 1
        assert rows[(system, "item")]["truth"] == 2
        assert rows[(system, "item")]["matched"] == 2
        # the page's relative link, read at fakehost as the truth's was
        assert rows[(system, "link")]["matched"] == 1
        assert rows[(system, "code")]["recall"] is None  # no truth item of the kind


def test_misses_list_what_the_system_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = write_structure_bench(tmp_path / "bench")
    argv = ["--bench", str(bench), "--systems", "cx-html", "--misses", "heading"]
    assert structure.main(argv) == 0
    printed = capsys.readouterr().out
    assert "== heading misses of cx-html" in printed


def test_an_unknown_system_or_no_expected_pages_is_an_error(tmp_path: Path) -> None:
    assert structure.main(["--bench", str(tmp_path), "--systems", "cx-html"]) == 2
    bench = write_structure_bench(tmp_path)
    assert structure.main(["--bench", str(bench), "--systems", "nope"]) == 2


def test_agree_checks_every_page_of_every_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = write_bench(tmp_path / "bench")
    assert structure.main(["--bench", str(bench), "--agree"]) == 0
    printed = capsys.readouterr().out
    assert "pages 6: content_html made on 6" in printed
    assert "Markdown that does not render: 0" in printed


def test_an_agreement_failure_is_counted_and_shown() -> None:
    found = Agreement()
    page = BenchPage("s", "p", PAGE.encode(), "https://real.example/a/b")
    check_page(page, found)
    assert found.pages == 1 and found.no_html == 0
    assert found.agree == 1, found.failures
    found.failures.append((12, "s/q", "@3 html 'abc' text 'abd'"))
    found.unsafe.update(["a[href=...]"])
    found.unsafe_pages = 1
    report = render_agreement(found)
    assert "unsafe HTML on 1 pages: a[href=...] 1" in report
    assert "12  s/q  @3 html" in report


def test_speed_times_each_format_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = write_bench(tmp_path / "bench")
    assert structure.main(["--bench", str(bench), "--speed"]) == 0
    printed = capsys.readouterr().out
    for name in ("none", "default", "all"):
        assert f"  {name} " in printed
    assert "html,images,markdown" in printed


def test_a_caption_the_text_leaves_out_is_no_disagreement() -> None:
    from benchmarks.bodies import text_difference

    # (content_html holds a line break between blocks, as cx writes it)
    html = "<p>One.</p>\n<figure><img src='http://e.com/a.jpg'>\n<figcaption>Cap.</figcaption>"
    html += "\n</figure>\n<p>Two.</p>\n"
    assert text_difference(html, "One.\nTwo.") is None
    assert text_difference(html, "One.\nCap.\nTwo.") is None
    assert text_difference(html + "<p>Three.</p>", "One.\nTwo.") is not None
    # A caption whose words the text holds elsewhere (a name in a heading) is still extra.
    named = "<h2>Cap.</h2>\n" + html
    assert text_difference(named, "Cap.\nOne.\nTwo.") is None
    # ... and one above a heading of its own words, which the text's next line repeats.
    above = html.replace("<p>Two.</p>", "<h2>Cap.</h2>\n<p>Cap. Two.</p>")
    assert text_difference(above, "One.\nCap.\nCap. Two.") is None
    assert text_difference(above, "One.\nCap.\nTwo.") is not None
