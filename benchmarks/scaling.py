"""Linear cost: time and memory of ``extract_article`` as the page size doubles.

Usage (from the repo root)::

    python -m benchmarks.scaling                      # 1 KB .. 16 MB, both variants, + 20 MB
    python -m benchmarks.scaling --max-kb 1024        # a quick run
    python -m benchmarks.scaling --json scaling.json --check

Pages are realistic news-site markup made of repeated blocks (menu, article,
teasers, sidebar with script and style), generated here, in two variants:
``pretty`` (indented, one tag per line) and ``minified`` (the same page on one
line). Each (variant, size) is measured in a fresh subprocess, so one run's
memory cannot hide in another's:

* ``ms``: CPU time (``time.process_time``, so other processes on a shared box
  do not count) of the fastest of several runs (as many as fit in ~1 s, at
  least two); the JSON also has the wall time;
* ``ns/B``: that time per byte: it must stay flat as the size doubles;
* ``rss+``: growth of the process's peak RSS (``ru_maxrss``) during the first
  extraction, over the RSS with the page's bytes already loaded: this includes
  libxml2's tree, which tracemalloc cannot see;
* ``py peak``: tracemalloc's peak of Python allocations during one extraction;
* ``stage``: the stage of ``scrapy_cx.extract`` that took the most time, with
  its share of the mean time of the repeated runs.

``slope`` is the least-squares exponent of time against size over the sizes of
64 KB and more: 1.0 is linear, 2.0 quadratic. ``--check`` exits 1 when a
variant's slope exceeds ``--max-slope`` (default 1.2).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

KB = 1024
VARIANTS = ("pretty", "minified")
MIN_FIT_KB = 64  # smaller pages are dominated by fixed per-page costs

WORDS = (
    "government minister budget parliament schools hospitals railway council election "
    "economy inflation market workers union weather storm river city village museum "
    "football season coach players tournament science research university students"
).split()


def _sentence(seed: int, n: int = 18) -> str:
    words = [WORDS[(seed * 7 + i * 13) % len(WORDS)] for i in range(n)]
    return " ".join(words).capitalize() + f" number {seed}."


def _blocks(index: int) -> list[tuple[int, str]]:
    """One repeat unit as (indent level, line) pairs."""
    menu = [(2, "<nav class='menu'><ul>")]
    menu += [(3, f"<li><a href='/section/{index}/{j}'>Section {j}</a></li>") for j in range(15)]
    menu.append((2, "</ul></nav>"))
    article = [
        (2, "<article class='story'>"),
        (3, f"<h2>{_sentence(index, 8)}</h2>"),
        (
            3,
            f"<p class='byline'>By Staff Reporter, 2021-03-{1 + index % 28:02d} "
            f"10:{index % 60:02d}</p>",
        ),
    ]
    for j in range(5):
        seed = index * 10 + j
        article.append(
            (
                3,
                f"<p>{_sentence(seed)} {_sentence(seed + 1)} <a href='/tag/{seed}'>"
                f"{WORDS[seed % len(WORDS)]}</a> {_sentence(seed + 2)} <b>{_sentence(seed + 3, 6)}"
                f"</b></p>",
            )
        )
    article.append((2, "</article>"))
    teasers = []
    for j in range(4):
        seed = index * 4 + j
        teasers += [
            (2, "<div class='teaser'>"),
            (3, f"<h3><a href='/story/{seed}'>{_sentence(seed, 7)}</a></h3>"),
            (3, f"<p class='summary'>{_sentence(seed + 5, 12)}</p>"),
            (3, f"<span class='date'>2020-0{1 + j}-1{j} | {j} comments</span>"),
            (2, "</div>"),
        ]
    aside = [
        (2, "<aside class='sidebar'>"),
        (
            3,
            f"<script>var slot{index} = {{id: {index}, sizes: [[300, 250]], "
            f"date: '2021-03-04'}}; if (a < b && c > d) {{ render(slot{index}); }}</script>",
        ),
        (3, f"<style>.slot{index} {{ width: 300px; height: 250px; }}</style>"),
        (3, f"<div class='ad' style='display:none'>Advertisement {index}</div>"),
        (3, "<ul class='popular'>"),
    ]
    aside += [
        (4, f"<li><a href='/popular/{index}/{j}'>{_sentence(j, 5)}</a></li>") for j in range(6)
    ]
    aside += [(3, "</ul>"), (2, "</aside>")]
    return menu + article + teasers + aside


def make_page(size: int, variant: str) -> bytes:
    """A page of about ``size`` bytes (UTF-8), ``pretty`` or ``minified``."""
    head = [
        (0, "<!DOCTYPE html>"),
        (0, "<html lang='en'>"),
        (0, "<head>"),
        (1, "<meta charset='utf-8'>"),
        (1, "<title>Parliament approves the budget | Daily Example</title>"),
        (1, "<meta property='article:published_time' content='2021-03-04T10:00:00Z'>"),
        (1, "<link rel='stylesheet' href='/site.css'>"),
        (0, "</head>"),
        (0, "<body>"),
        (1, "<div id='page'>"),
    ]
    tail = [(1, "</div>"), (1, "<footer>Copyright Daily Example</footer>"), (0, "</body>"),
            (0, "</html>")]  # fmt: skip

    def render(lines: list[tuple[int, str]]) -> str:
        if variant == "minified":
            return "".join(text for _, text in lines)
        return "".join("  " * level + text + "\n" for level, text in lines)

    parts = [render(head)]
    total = len(parts[0]) + len(render(tail))
    index = 0
    while total < size:
        unit = render(_blocks(index))
        if total + len(unit) > size:
            unit = unit[: size - total]  # cut mid-block, as a truncated page would be
        parts.append(unit)
        total += len(unit)
        index += 1
    parts.append(render(tail))
    return "".join(parts).encode("utf-8")


# --- the child: one measurement in a fresh process --------------------------------------


def _maxrss_bytes() -> int:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024


def _instrument(stages: dict[str, float]) -> None:
    """Time every stage function ``extract_article`` calls, whatever the wiring."""
    import scrapy_cx.extract as ex

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                stages[name] += time.perf_counter() - start

        return timed

    for name, value in list(vars(ex).items()):
        module = getattr(value, "__module__", "") or ""
        if (
            callable(value)
            and module.startswith("scrapy_cx.extract.")
            and not isinstance(value, type)
        ):
            setattr(ex, name, wrap(name, value))


def child(path: str, budget: float) -> dict[str, Any]:
    from scrapy_cx import extract_article

    warm = make_page(16 * KB, "pretty")
    extract_article(warm, "http://example.com/2021/03/04/warm.html")  # imports, caches
    data = Path(path).read_bytes()
    url = "http://example.com/2021/03/04/budget.html"

    rss_before = _maxrss_bytes()
    wall, cpu = time.perf_counter(), time.process_time()
    article = extract_article(data, url)
    first_cpu, first_wall = time.process_time() - cpu, time.perf_counter() - wall
    rss_growth = max(0, _maxrss_bytes() - rss_before)

    stages: dict[str, float] = defaultdict(float)
    _instrument(stages)
    cpu_times, wall_times = [first_cpu], [first_wall]
    runs = 0
    while runs == 0 or (sum(wall_times) < budget and runs < 200):
        wall, cpu = time.perf_counter(), time.process_time()
        extract_article(data, url)
        cpu_times.append(time.process_time() - cpu)
        wall_times.append(time.perf_counter() - wall)
        runs += 1
    mean = sum(wall_times[1:]) / runs
    stage_share = {k: v / runs / mean for k, v in stages.items()} if mean else {}

    tracemalloc.start()
    extract_article(data, url)
    _, py_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "bytes": len(data),
        "seconds": min(cpu_times),  # CPU time: other processes on the box do not count
        "wall_seconds": min(wall_times),
        "runs": len(cpu_times),
        "rss_growth": rss_growth,
        "py_peak": py_peak,
        "mean_seconds": mean,
        "stages": stage_share,  # share of the mean time of an instrumented run
        "content_chars": len(article.content),
    }


# --- the parent ---------------------------------------------------------------------------


def measure(size: int, variant: str, budget: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.html"
        path.write_bytes(make_page(size, variant))
        cmd = [sys.executable, "-m", "benchmarks.scaling", "--child", str(path), str(budget)]
        root = Path(__file__).resolve().parents[1]
        proc = subprocess.run(
            cmd, cwd=root, capture_output=True, text=True, check=False, env=dict(os.environ)
        )
    if proc.returncode != 0:
        raise RuntimeError(f"child failed for {variant} {size}: {proc.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result.update(variant=variant, size=size)
    return result


def slope(rows: Sequence[dict[str, Any]]) -> float | None:
    """Least-squares exponent of seconds against bytes (1.0 = linear)."""
    points = [
        (math.log(r["bytes"]), math.log(r["seconds"]))
        for r in rows
        if r["bytes"] >= MIN_FIT_KB * KB and r["seconds"] > 0
    ]
    if len(points) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


def _human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def render_table(rows: Sequence[dict[str, Any]]) -> str:
    head = f"{'variant':<9} {'size':>9} {'ms':>10} {'ns/B':>7} {'rss+':>9} {'py peak':>9}  stage"
    out = [head, "-" * len(head)]
    for r in rows:
        stage = max(r["stages"], key=r["stages"].get) if r["stages"] else "-"
        share = r["stages"].get(stage, 0)
        out.append(
            f"{r['variant']:<9} {_human(r['bytes']):>9} {r['seconds'] * 1000:>10.2f} "
            f"{r['seconds'] / r['bytes'] * 1e9:>7.1f} {_human(r['rss_growth']):>9} "
            f"{_human(r['py_peak']):>9}  {stage} {share:.0%}"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", nargs=2, metavar=("PAGE", "BUDGET"), help=argparse.SUPPRESS)
    parser.add_argument("--min-kb", type=int, default=1)
    parser.add_argument("--max-kb", type=int, default=16 * KB)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of repeats per size")
    parser.add_argument("--big-mb", type=int, default=20, help="extra page size; 0 to skip")
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--check", action="store_true", help="exit 1 on a super-linear slope")
    parser.add_argument("--max-slope", type=float, default=1.2)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(child(args.child[0], float(args.child[1]))))
        return 0

    rows: list[dict[str, Any]] = []
    verdict = 0
    for variant in args.variants.split(","):
        variant_rows = []
        size = args.min_kb * KB
        while size <= args.max_kb * KB:
            row = measure(size, variant, args.budget)
            variant_rows.append(row)
            print(render_table([row]).splitlines()[-1], flush=True)
            size *= 2
        fit = slope(variant_rows)
        ns = [
            r["seconds"] / r["bytes"] * 1e9 for r in variant_rows if r["bytes"] >= MIN_FIT_KB * KB
        ]
        spread = max(ns) / min(ns) if ns else float("nan")
        print(
            f"{variant}: slope {fit if fit is None else round(fit, 3)} over >= {MIN_FIT_KB} KB; "
            f"ns/B max/min {spread:.2f}",
            flush=True,
        )
        if fit is not None and fit > args.max_slope:
            verdict = 1
        rows += variant_rows
    if args.big_mb:
        for variant in args.variants.split(","):
            row = measure(args.big_mb * KB * KB, variant, 0.0)
            row["big"] = True
            rows.append(row)
            print(render_table([row]).splitlines()[-1] + "   <- big page", flush=True)
    print()
    print(render_table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return verdict if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
