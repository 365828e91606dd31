"""Audit files replace the silver labels they name, and nothing else; the page-type confusion.

Synthetic pages only: no bench data needed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import accuracy
from benchmarks.accuracy import Result, render_confusion
from benchmarks.audit import apply_audit, load_audit
from benchmarks.datasets import BenchPage
from benchmarks.systems import Output

from .test_accuracy import write_typed_sets


def _pages() -> dict[str, list[BenchPage]]:
    return {
        "typed": [
            BenchPage("typed", "a", b"", date="2020-01-01", page_type="forum"),
            BenchPage("typed", "b", b"", date="2021-03-02", page_type="listing"),
            BenchPage("typed", "c", b"", date=None, page_type="article"),
        ]
    }


def _write(path: Path, audit: dict[str, object]) -> Path:
    path.write_text(json.dumps(audit), encoding="utf-8")
    return path


def test_page_types_and_dates_are_replaced_only_where_the_silver_label_matches(
    tmp_path: Path,
) -> None:
    audit = _write(
        tmp_path / "both.json",
        {
            "set": "typed",
            "dates": {"b": {"silver": "2021-03-02", "audited": None, "why": "updated only"}},
            "page_types": {
                "a": {"silver": "forum", "audited": "article", "why": "one post, no replies"},
                # c's silver label is article, not this one: the set changed, left alone.
                "c": {"silver": "listing", "audited": "product", "why": "stale"},
            },
        },
    )
    pages = _pages()
    lines = apply_audit(pages, audit)
    by_id = {p.id: p for p in pages["typed"]}
    assert (by_id["a"].page_type, by_id["a"].date) == ("article", "2020-01-01")
    assert (by_id["b"].page_type, by_id["b"].date) == ("listing", None)
    assert by_id["c"].page_type == "article"
    assert "  typed a page_type: forum -> article  (one post, no replies)" in lines
    assert "  typed b date: 2021-03-02 -> None  (updated only)" in lines
    assert lines[-1] == (f"typed: 1 of 1 date labels, 1 of 2 page type labels replaced by {audit}")


def test_several_audit_files_add_up_and_other_sets_are_untouched(tmp_path: Path) -> None:
    dates = _write(
        tmp_path / "dates.json",
        {"set": "typed", "dates": {"a": {"silver": "2020-01-01", "audited": "2019-12-31"}}},
    )
    types = _write(
        tmp_path / "types.json",
        {"set": "typed", "page_types": {"b": {"silver": "listing", "audited": "collection"}}},
    )
    other = _write(
        tmp_path / "other.json",
        {"set": "elsewhere", "page_types": {"a": {"silver": "forum", "audited": "article"}}},
    )
    pages = _pages()
    for path in (dates, types, other):
        apply_audit(pages, path)
    by_id = {p.id: p for p in pages["typed"]}
    assert (by_id["a"].date, by_id["a"].page_type) == ("2019-12-31", "forum")
    assert by_id["b"].page_type == "collection"


def test_an_unknown_page_type_or_an_empty_audit_is_refused(tmp_path: Path) -> None:
    bad_type = _write(
        tmp_path / "bad.json",
        {"set": "typed", "page_types": {"a": {"silver": "forum", "audited": "thread!"}}},
    )
    with pytest.raises(ValueError, match="unknown page type"):
        load_audit(bad_type)
    with pytest.raises(ValueError, match="an audit needs"):
        load_audit(_write(tmp_path / "empty.json", {"set": "typed"}))


def test_the_confusion_counts_each_truth_class_against_ours() -> None:
    def result(page_id: str, truth: str, ours: str | None) -> Result:
        page = BenchPage("typed", page_id, b"", page_type=truth)
        return Result(page, Output(page_type=ours), 0.0)

    results = [
        result("a", "article", "article"),
        result("b", "forum", "thread"),
        result("c", "forum", "article"),
        result("d", "collection", None),  # no type given: the 'none' column
        result("e", "other", "other"),  # an audited 'other' page
    ]
    header, article, thread, listing, other, total = render_confusion(results)
    assert header.split()[3:] == ["article", "thread", "listing", "other", "none", "F1"]
    assert article.split() == ["article", "1", "0", "0", "0", "0", "0.667"]
    assert thread.split() == ["thread", "1", "1", "0", "0", "0", "0.667"]
    assert listing.split() == ["listing", "0", "0", "0", "0", "1", "0.000"]
    assert other.split() == ["other", "0", "0", "0", "1", "0", "1.000"]
    assert total == "macro-F1 0.583 over 5 pages"  # (2/3 + 2/3 + 0 + 1) / 4


def test_the_command_takes_several_audits_and_prints_every_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "bench"
    write_typed_sets(root)  # page f of set 'typed' is a forum thread, no date label
    types = _write(
        tmp_path / "types.json",
        {"set": "typed", "page_types": {"f": {"silver": "forum", "audited": "blog", "why": "x"}}},
    )
    dates = _write(
        tmp_path / "dates.json",
        {"set": "typed", "dates": {"f": {"silver": None, "audited": "2020-01-01", "why": "y"}}},
    )
    out = tmp_path / "out.json"
    args = ["--bench", str(root), "--systems", "cx", "--sets", "typed", "--json", str(out)]
    assert accuracy.main([*args, "--audit", str(types), "--audit", str(dates)]) == 0
    err = capsys.readouterr().err
    assert "  typed f page_type: forum -> blog  (x)" in err
    assert "  typed f date: None -> 2020-01-01  (y)" in err
    [row] = json.loads(out.read_text())["type_rows"]
    assert row["page_type"] == "blog"  # grouped under the audited type
