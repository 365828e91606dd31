"""``--compare``: which figures and which pages changed between two runs."""

from __future__ import annotations

from typing import Any

from benchmarks.compare import (
    drops,
    render_drops,
    render_macro_change,
    render_pages,
    render_rows,
    type_keyed,
)


def _page(
    pid: str,
    f1: float,
    title: bool | None = None,
    date: bool | None = None,
    level: str = "word",
    system: str = "cx",
) -> dict[str, Any]:
    return {"set": "s", "system": system, "id": pid, "level": level, "f1": f1,
            "char_f1": f1 / 2, "title_exact": title, "date_ok": date}  # fmt: skip


def test_rows_show_old_new_and_delta_for_runs_in_both() -> None:
    old = [{"set": "s", "system": "cx", "f1": 0.9, "char_f1": 0.8, "title_exact": 0.5,
            "date_accuracy": None, "median_ms": 4.0}]  # fmt: skip
    new = [
        {"set": "s", "system": "cx", "f1": 0.95, "char_f1": 0.8, "title_exact": 0.25,
         "date_accuracy": 0.7, "median_ms": 5.5},
        {"set": "t", "system": "cx", "f1": 1.0},
    ]  # fmt: skip
    text = render_rows(old, new)
    assert text.splitlines() == [
        "s/cx: F1 0.900->0.950 (+0.050)  charF1 0.800->0.800 (+0.000)  "
        "title= 0.500->0.250 (-0.250)  date -->0.700  ms/pg 4.0->5.5 (+1.5)"
    ]


def test_pages_list_text_moves_beyond_noise_and_title_date_flips() -> None:
    old = [
        _page("a", 0.9),
        _page("b", 0.9),
        _page("c", 0.5),
        _page("d", 0.8, title=True, date=False),
        _page("zh", 0.2, level="char"),
        _page("a", 0.1, system="trafilatura"),
    ]
    new = [
        _page("a", 0.3),  # worse by 0.6
        _page("b", 0.93),  # noise
        _page("c", 0.7),  # better by 0.2
        _page("d", 0.8, title=False, date=True),
        _page("zh", 0.2, level="char"),  # char_f1 unchanged (0.1 -> 0.1)
        _page("new", 0.0),  # not in the old run: ignored
        _page("a", 0.9, system="trafilatura"),  # other system: ignored
    ]
    lines = render_pages(old, new, "cx").splitlines()
    assert lines[0] == "cx: text worse on 1 pages, better on 1; titles/dates/fields changed on 2"
    assert lines[1] == "  text  s/a  0.900 -> 0.300 (-0.600)"
    assert lines[2] == "  text  s/c  0.500 -> 0.700 (+0.200)"
    assert sorted(lines[3:]) == ["  date  fixed  s/d", "  title BROKEN s/d"]


def test_pages_without_text_truth_are_compared_by_must_have_share_and_field_flips() -> None:
    old = [{"set": "m", "system": "cx", "id": "x", "f1": None, "with_found": 2, "n_with": 2,
            "authors_ok": True, "image_ok": False}]  # fmt: skip
    new = [{"set": "m", "system": "cx", "id": "x", "f1": None, "with_found": 1, "n_with": 2,
            "authors_ok": False, "image_ok": True}]  # fmt: skip
    lines = render_pages(old, new, "cx").splitlines()
    assert lines[1] == "  text  m/x  1.000 -> 0.500 (-0.500)"
    assert sorted(lines[2:]) == ["  authors BROKEN m/x", "  image fixed  m/x"]


def test_rows_skip_figures_neither_run_has_and_show_new_ones() -> None:
    old = [{"set": "w", "system": "cx", "main": 0.6, "with_found": 0.6, "empty": 23,
            "page_type_f1": None}]  # fmt: skip
    new = [{"set": "w", "system": "cx", "main": 0.7, "with_found": 0.7, "empty": 4,
            "page_type_f1": 0.9}]  # fmt: skip
    assert render_rows(old, new) == (
        "w/cx: main 0.600->0.700 (+0.100)  with 0.600->0.700 (+0.100)  "
        "ptypeF1 -->0.900  empty 23->4 (-19)"
    )


def test_drops_flag_any_score_falling_more_than_half_a_point() -> None:
    old = [
        {"set": "a", "system": "cx", "main": 0.970, "title_exact": 0.90, "median_ms": 3.0,
         "empty": 1},
        {"set": "b", "system": "cx", "main": 0.800, "image": 0.5},
    ]  # fmt: skip
    new = [
        {"set": "a", "system": "cx", "main": 0.968, "title_exact": 0.80, "median_ms": 9.0,
         "empty": 0},
        {"set": "b", "system": "cx", "main": 0.794, "image": None},
    ]  # fmt: skip
    # a: main -0.002 is within the rule, title -0.10 is not; ms and counts never count;
    # b: main -0.006 drops; a figure gone from the new run is not compared.
    assert drops(old, new) == [
        ("a", "cx", "title=", 0.90, 0.80),
        ("b", "cx", "main", 0.800, 0.794),
    ]
    text = render_drops(old, new)
    # macro over a and b: (0.970 + 0.800) / 2 = 0.885 -> (0.968 + 0.794) / 2 = 0.881: fine
    assert text.splitlines() == [
        "DROP a/cx title= 0.900 -> 0.800 (-0.100)",
        "DROP b/cx main 0.800 -> 0.794 (-0.006)",
    ]
    worse = [{**new[0], "main": 0.95}, new[1]]
    assert render_drops(old, worse).splitlines()[-1] == "DROP macro/cx 0.885 -> 0.872 (-0.013)"
    assert render_drops(old, old).startswith("no figure of any set")


def test_macro_change_and_type_rows_keyed_by_set_and_type() -> None:
    old = [{"set": "a", "system": "cx", "main": 0.8}, {"set": "b", "system": "cx", "main": 0.2}]
    new = [{"set": "a", "system": "cx", "main": 0.85}, {"set": "a", "system": "new", "main": 0.1}]
    # only set a is in both runs: the macro compares over it alone
    assert render_macro_change(old, new) == "macro: cx 0.800->0.850 (+0.050) over 1 sets"
    assert render_macro_change([], new) == "macro: no set in both runs"
    rows = type_keyed([{"set": "w", "page_type": "forum", "system": "cx", "with_found": 0.5}])
    assert rows[0]["set"] == "w[forum]" and rows[0]["with_found"] == 0.5
