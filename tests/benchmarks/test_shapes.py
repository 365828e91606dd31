"""benchmarks/shapes.py: the hostile shapes are what they say, and the fit reads a
blow-up as one (the timings themselves are the benchmark's business)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.shapes import DOCUMENTED_NS_PER_BYTE, SHAPES, flagged, main, make_page, slope


def test_the_fit_tells_linear_from_quadratic() -> None:
    assert slope([(n, 3e-6 * n) for n in (1e3, 2e3, 4e3, 8e3)]) == pytest.approx(1.0)
    assert slope([(n, 1e-9 * n * n) for n in (1e3, 2e3, 4e3, 8e3)]) == pytest.approx(2.0)
    assert slope([(1e3, 1.0)]) is None


@pytest.mark.parametrize(
    ("shape", "n", "piece", "count"),
    [
        ("table", 100, "<td>", 100),
        ("spans", 100, "colspan='1000'", 100),
        ("lists", 50, "<ul><li>", 50),
        ("srcset", 1_600, "/img/x.jpg 10w", 100),
        ("pre", 4_200, "spend(budget)", 100),
        ("figures", 30, "<figcaption>", 30),
        ("inline", 30, "<a href='/n/", 30),
        ("embeds", 30, "<embed ", 30),
        ("wbr", 30, "<wbr>", 30),
        ("sources", 30, "<source ", 30),
        ("anchors", 30, "<em><a href=", 30),
    ],
)
def test_each_shape_grows_with_n(shape: str, n: int, piece: str, count: int) -> None:
    assert make_page(shape, n).count(piece) == count
    assert make_page(shape, 2 * n).count(piece) == 2 * count


def test_a_quick_run_writes_a_row_per_shape_and_size(tmp_path: Path) -> None:
    out = tmp_path / "shapes.json"
    assert main(["--scale", "0.002", "--steps", "2", "--repeat", "1", "--json", str(out)]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [r["shape"] for r in rows] == [shape for shape in SHAPES for _step in range(2)]
    assert all(b["n"] == 2 * a["n"] for a, b in zip(rows[::2], rows[1::2], strict=True))
    assert all(r["all"] > 0 and r["none"] > 0 for r in rows)


def test_a_shape_over_ten_times_the_documented_cost_per_byte_is_flagged() -> None:
    def row(shape: str, n: int, ns: float) -> dict[str, object]:
        return {"shape": shape, "n": n, "bytes": 1_000_000, "all": ns * 1e-3, "none": 0.0}

    slow = 11 * DOCUMENTED_NS_PER_BYTE
    rows = [
        row("anchors", 1, slow),  # slow when small only: not flagged
        row("anchors", 2, DOCUMENTED_NS_PER_BYTE),
        row("embeds", 1, DOCUMENTED_NS_PER_BYTE),
        row("embeds", 2, slow),
    ]
    assert flagged(rows, 10) == ["embeds"]
    assert flagged(rows, 12) == []
