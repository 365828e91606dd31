"""The labelled-lines command (benchmarks/labels.py) on a small set we write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.align import MAIN, OTHER
from benchmarks.datasets import BenchPage
from benchmarks.labels import main, page_record, perfect_text, read_records, site
from scrapy_cx.extract.content._features import NAMES

PARAGRAPHS = [
    "The council voted on Tuesday to turn the old docks into a park with trees and ponds.",
    "Work starts in spring and should finish within two years, the officials said today.",
    "Residents who spoke at the meeting welcomed the plan but asked for more bike paths.",
]
HTML = (
    "<html><head><title>Park plan</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
    "<article><h1>Council approves the riverside park</h1>"
    + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    + "</article><footer>Copyright 2024 The Daily Example, all rights reserved</footer>"
    "</body></html>"
)
TRUTH = "\n".join(PARAGRAPHS)


def test_page_record_labels_and_features_every_line() -> None:
    url = "https://news.example.co.uk/a"
    page = BenchPage("wcxb_dev", "p1", HTML.encode(), url=url, body=TRUTH, page_type="article")
    record = page_record(page)
    lines, labels = record["lines"], record["labels"]
    assert isinstance(lines, list) and isinstance(labels, list)
    assert record["site"] == "example.co.uk"
    assert len(labels) == len(lines) == len(record["features"])  # type: ignore[arg-type]
    assert all(len(row) == len(NAMES) for row in record["features"])  # type: ignore[attr-defined]
    by_text = dict(zip(lines, labels, strict=True))
    assert all(by_text[p] == MAIN for p in PARAGRAPHS)
    assert by_text["Copyright 2024 The Daily Example, all rights reserved"] == OTHER
    assert perfect_text(record) == TRUTH
    assert PARAGRAPHS[0] in str(record["rules_text"])
    # the block tree: each line lies within its block's span, a parent's span holds its child's
    blocks, spans, parents = record["blocks"], record["spans"], record["parents"]
    assert isinstance(blocks, list) and isinstance(spans, list) and isinstance(parents, list)
    assert len(blocks) == len(lines) and len(spans) == len(parents)
    for i, b in enumerate(blocks):
        assert spans[b][0] <= i < spans[b][1]
        if parents[b] >= 0:
            assert spans[parents[b]][0] <= spans[b][0] and spans[b][1] <= spans[parents[b]][1]


def test_a_page_without_url_is_its_own_site() -> None:
    assert site(None, "aeb/7") == "nourl:aeb/7"


def test_the_command_writes_each_set_and_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = tmp_path / "bench" / "wcxb_dev"
    (bench / "html").mkdir(parents=True)
    (bench / "html" / "p1.html").write_text(HTML, encoding="utf-8")
    row = {
        "id": "p1",
        "html": "html/p1.html",
        "url": "https://example.org/a",
        "body": TRUTH,
        "page_type": "article",
    }
    (bench / "manifest.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    out = tmp_path / "lines"
    assert main(["--bench", str(tmp_path / "bench"), "--sets", "wcxb_dev", "--out", str(out)]) == 0
    [record] = read_records(out / "wcxb_dev.jsonl.gz")
    assert record["id"] == "p1"
    assert json.loads((out / "features.json").read_text()) == list(NAMES)
    report = capsys.readouterr().out
    assert report.startswith("wcxb_dev") and "perfect 1.000" in report
