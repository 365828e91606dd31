"""Linear cost of the body's structure (issue 22) on the hostile shapes of its bounds.

Usage (from the repo root)::

    python -m benchmarks.shapes                     # every shape, 4 sizes, each x2
    python -m benchmarks.shapes --shapes table,pre --steps 3
    python -m benchmarks.shapes --json shapes.json --check

Each shape (a table of N cells, N nested lists, a srcset or a ``<pre>`` of N
bytes, ...) is generated at N, 2N, 4N, ... and read by ``extract_article`` with
every format and with none (CPU time, the fastest of ``--repeat`` runs). The
difference is what the structure costs; ``slope`` is the least-squares exponent
of the time with every format against N (1.0 linear, 2.0 quadratic), over sizes
that stay under the parse's bounds (dom.MAX_TAGS), so the bound does not hide a
blow-up. ``--check`` exits 1 when a shape's slope passes ``--max-slope``.
tests/test_hostile.py only checks that the largest shapes complete, safely.

Hostile shapes beside the body's (issue 39): N ``<embed>`` between paragraphs
(libxml2 nested the rest in each), N ``<wbr>`` in one paragraph, N ``<source>``
in a ``<video>``, N unclosed ``<em><a href>`` pairs (each link nesting the
rest: joining every link's text cost links x depth, ~8 000 ns per byte). Every
row shows its ns per byte (CPU time with every format, over the page's bytes),
and the summary flags each shape whose largest page costs more than
``--flag`` (10) times the documented whole-page figure,
:data:`DOCUMENTED_NS_PER_BYTE` (docs/reliability.rst, "Figures"); ``--check``
exits 1 on a flag too.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HEAD = (
    "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Budget approved | "
    "Daily Example</title></head><body><nav><a href='/'>Home</a> <a href='/w'>World</a></nav>"
    "<article><h1>Budget approved</h1>"
)
TEXT = "".join(
    f"<p>Paragraph {i}: the parliament approved the budget after a long debate about "
    "schools, hospitals and roads, and the minister thanked the members.</p>"
    for i in range(4)
)
TAIL = "</article><footer>Copyright Daily Example</footer></body></html>"
# benchmarks/scaling.py's ns per byte on a realistic 16 MB page (docs/reliability.rst).
DOCUMENTED_NS_PER_BYTE = 85
CELL = "<td>Money the council spent on schools</td>"


def _table(n: int) -> str:
    row = "<tr>" + CELL * 10 + "</tr>"
    return "<table><tr>" + "<th>Year</th>" * 10 + "</tr>" + row * (n // 10) + "</table>"


def _spans(n: int) -> str:
    row = "<tr>" + "<td colspan='1000' rowspan='1000'>Money the council spent</td>" * 10
    return "<table><tr><th>Line</th></tr>" + (row + "</tr>") * (n // 10) + "</table>"


def _lists(n: int) -> str:
    return "<ul><li>A point of the plan the council approved" * n + "</li></ul>" * n


def _srcset(n: int) -> str:
    srcset = "/img/big.jpg 2000w, " + "/img/x.jpg 10w, " * (n // 16)
    return f"<figure><img srcset='{srcset}'><figcaption>The chamber.</figcaption></figure>"


def _pre(n: int) -> str:
    return "<pre>" + "if budget  >  0:\n    spend(budget)  # &lt;ok&gt;\n" * (n // 42) + "</pre>"


def _figures(n: int) -> str:
    return "".join(
        f"<figure><img src='/img/{i}.jpg' alt='Picture {i}'><figcaption>The council meeting, "
        f"picture {i}.</figcaption></figure>"
        for i in range(n)
    )


def _inline(n: int) -> str:
    return (
        "<p>"
        + " ".join(f"<a href='/n/{i}'>note <em>{i}</em></a> and <b>more</b>" for i in range(n))
        + "</p>"
    )


def _embeds(n: int) -> str:
    return "<p>The minister spoke.</p><embed src='/media/a.swf' width=640>" * n


def _wbr(n: int) -> str:
    return "<p>" + "budget-approved-after-debate<wbr>" * n + "</p>"


def _sources(n: int) -> str:
    return "<video controls>" + "<source src='/media/v.webm' type='video/webm'>" * n + "</video>"


def _anchors(n: int) -> str:
    return "<p>" + "<em><a href='/x'>word " * n + "</p>"


# name -> (the shape at size N, what N counts, the first N)
SHAPES: dict[str, tuple[Callable[[int], str], str, int]] = {
    "table": (_table, "cells", 10_000),
    "spans": (_spans, "cells", 10_000),
    "lists": (_lists, "nested lists", 1_000),
    "srcset": (_srcset, "bytes", 6_250_000),
    "pre": (_pre, "bytes", 625_000),
    "figures": (_figures, "figures", 2_000),
    "inline": (_inline, "links", 2_000),
    "embeds": (_embeds, "embeds", 4_000),
    "wbr": (_wbr, "wbr", 10_000),
    "sources": (_sources, "sources", 10_000),
    "anchors": (_anchors, "link pairs", 5_000),
}


def make_page(shape: str, n: int) -> str:
    """The news page with ``shape`` of size ``n`` between its paragraphs."""
    return HEAD + TEXT + SHAPES[shape][0](n) + TEXT + TAIL


def _cpu(page: str, formats: Sequence[str], repeat: int) -> float:
    from scrapy_cx import extract_article

    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        extract_article(page, "http://news.example.com/a.html", formats=formats)
        best = min(best, time.process_time() - start)
    return best


def measure(shape: str, steps: int, repeat: int, scale: float = 1.0) -> list[dict[str, Any]]:
    rows = []
    n = max(1, int(SHAPES[shape][2] * scale))
    for _ in range(steps):
        page = make_page(shape, n)
        every = _cpu(page, ("html", "markdown", "images"), repeat)
        none = _cpu(page, (), repeat)
        rows.append({"shape": shape, "n": n, "bytes": len(page), "all": every, "none": none})
        n *= 2
    return rows


def slope(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares exponent of y against x (1.0 = linear)."""
    logs = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(logs) < 2:
        return None
    mx = sum(x for x, _ in logs) / len(logs)
    my = sum(y for _, y in logs) / len(logs)
    sxx = sum((x - mx) ** 2 for x, _ in logs)
    return sum((x - mx) * (y - my) for x, y in logs) / sxx if sxx else None


def ns_per_byte(row: dict[str, Any]) -> float:
    """CPU time with every format, per byte of the page."""
    return float(row["all"]) * 1e9 / max(1, int(row["bytes"]))


def render(rows: Sequence[dict[str, Any]]) -> str:
    head = (
        f"{'shape':<8} {'N':>10} {'MB':>7} {'all ms':>9} {'none ms':>9} {'structure':>9} "
        f"{'ns/B':>7}"
    )
    out = [head, "-" * len(head)]
    for r in rows:
        out.append(
            f"{r['shape']:<8} {r['n']:>10} {r['bytes'] / 1e6:>7.2f} {r['all'] * 1e3:>9.1f} "
            f"{r['none'] * 1e3:>9.1f} {(r['all'] - r['none']) * 1e3:>9.1f} {ns_per_byte(r):>7.0f}"
        )
    return "\n".join(out)


def flagged(rows: Sequence[dict[str, Any]], times: float) -> list[str]:
    """The shapes whose largest page costs more than ``times`` the documented ns per byte."""
    largest: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["n"] >= largest.get(r["shape"], r)["n"]:
            largest[r["shape"]] = r
    limit = times * DOCUMENTED_NS_PER_BYTE
    return [shape for shape, r in largest.items() if ns_per_byte(r) > limit]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--steps", type=int, default=4, help="sizes per shape, each twice the last")
    parser.add_argument("--repeat", type=int, default=2, help="runs per size (fastest kept)")
    parser.add_argument("--scale", type=float, default=1.0, help="times each shape's first N")
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--check", action="store_true", help="exit 1 on a super-linear slope")
    parser.add_argument("--max-slope", type=float, default=1.3)
    parser.add_argument(
        "--flag", type=float, default=10.0, help="times the documented ns per byte flagged"
    )
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    verdict = 0
    for shape in args.shapes.split(","):
        shape_rows = measure(shape, args.steps, args.repeat, args.scale)
        print(render(shape_rows).splitlines()[-args.steps :][-1], flush=True)
        fit = slope([(r["n"], r["all"]) for r in shape_rows])
        print(f"{shape}: slope {fit if fit is None else round(fit, 3)} ({SHAPES[shape][1]})")
        for r in shape_rows:
            r["slope"] = fit
        if fit is not None and fit > args.max_slope:
            verdict = 1
        rows += shape_rows
    print()
    print(render(rows))
    over = flagged(rows, args.flag)
    limit = args.flag * DOCUMENTED_NS_PER_BYTE
    print(f"\nshapes tried: {', '.join(args.shapes.split(','))}")
    print(
        f"over {args.flag:g}x the documented {DOCUMENTED_NS_PER_BYTE} ns/B ({limit:g} ns/B): "
        + (", ".join(over) if over else "none")
    )
    if over:
        verdict = 1
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return verdict if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
