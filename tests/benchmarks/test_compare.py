"""``--compare``: which figures and which pages changed between two runs."""

from __future__ import annotations

from typing import Any

from benchmarks.compare import render_pages, render_rows


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
    assert lines[0] == "cx: text worse on 1 pages, better on 1; titles/dates changed on 2"
    assert lines[1] == "  text  s/a  0.900 -> 0.300 (-0.600)"
    assert lines[2] == "  text  s/c  0.500 -> 0.700 (+0.200)"
    assert sorted(lines[3:]) == ["  date  fixed  s/d", "  title BROKEN s/d"]
