"""What ``scrapy-cx extract`` costs its parent process, and how it scales with ``-j``.

Usage (from the repo root)::

    python -m benchmarks.bulk ../shared/bench/wceb_dev/html --jobs 1,2,4
    python -m benchmarks.bulk ../shared/bench/wceb_dev/html --jobs 2 --side-by-side
    python -m benchmarks.bulk PAGES --jobs 1,2 --baseline ../main --rounds 3 --json bulk.json

Each run is ``scrapy-cx extract INPUT -o FILE -j N`` in a fresh process; reported:
pages/s (the command's own summary), the parent's CPU ms per page (its own
threads: listing, handing pages out, taking lines back, writing them; the
workers are the fork server's children, not counted; less a run over an empty
folder, whose start-up and imports every run pays once; "steady": from the first
line to the last, nothing subtracted, so no second run's noise in it) and, with ``--side-by-side``,
two ``-j 1`` runs started together against one ``-j 2`` run: with nothing in the
parent to wait on, ``-j 2`` makes as many pages per second as the two together.
``--baseline DIR`` runs the same with ``DIR``'s ``scrapy_cx`` in the same rounds.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

#: Runs the command, then prints the parent's own CPU seconds as the last stderr lines:
#: in all, and from its first line to its last (the steady state: no start-up in it,
#: nothing to subtract; the pages between, each handed out, taken back and written).
_WRAPPER = """
import resource, sys
import scrapy_cx.__main__ as cli

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

marks = []
inner = cli.extract_all

def extract_all(*args, **kwargs):
    count = 0
    for count, outcome in enumerate(inner(*args, **kwargs), 1):
        if count == 1:
            marks.append(cpu())
        yield outcome
    marks.append(cpu())
    marks.append(count)

cli.extract_all = extract_all
code = cli.main(sys.argv[1:])
if len(marks) == 3 and marks[2] > 1:
    print('PARENT_STEADY', marks[1] - marks[0], marks[2] - 1, file=sys.stderr)
print('PARENT_CPU', cpu(), file=sys.stderr)
sys.exit(code)
"""
_SUMMARY = re.compile(r"([\d,]+) pages, ([\d,]+) articles in ([\d.]+) s")


def _start(inputs: Sequence[str], jobs: int, out: Path, code: str | None) -> subprocess.Popen[str]:
    cwd = REPO
    if code is not None:  # python -c puts the working folder first on sys.path
        cwd = Path(tempfile.mkdtemp())
        (cwd / "scrapy_cx").symlink_to(Path(code).resolve() / "scrapy_cx")
    # Named from here, read from there: a relative input found no page in the baseline's run.
    inputs = [name if name == "-" else str(Path(name).resolve()) for name in inputs]
    command = [sys.executable, "-c", _WRAPPER, "extract", *inputs, "-o", str(out), "-j", str(jobs)]
    return subprocess.Popen(command, cwd=cwd, stderr=subprocess.PIPE, text=True)


def _result(proc: subprocess.Popen[str], jobs: int) -> dict[str, Any]:
    _, err = proc.communicate()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"extract failed:\n{err[-3000:]}")
    match = _SUMMARY.search(err)
    cpu = re.search(r"PARENT_CPU ([\d.]+)", err)
    if match is None or cpu is None:
        raise RuntimeError(f"no summary:\n{err[-3000:]}")
    pages, seconds = int(match[1].replace(",", "")), float(match[3])
    steady = re.search(r"PARENT_STEADY ([\d.]+) (\d+)", err)
    return {
        "parent_cpu_steady_ms_per_page": (
            float(steady[1]) * 1000 / int(steady[2]) if steady is not None else None
        ),
        "jobs": jobs,
        "pages": pages,
        "articles": int(match[2].replace(",", "")),
        "seconds": seconds,
        "pages_per_s": pages / seconds if seconds else 0.0,
        "parent_cpu_seconds": float(cpu[1]),
    }


def run(inputs: Sequence[str], jobs: int, code: str | None = None) -> dict[str, Any]:
    """One ``scrapy-cx extract`` run, and one over no page at all: the parent's CPU per
    page is the difference over the pages (start-up, imports and the workers' start
    are the same for any input, and would swamp a small one)."""
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty"
        empty.mkdir()
        idle = _result(_start([str(empty)], jobs, Path(tmp) / "none.jsonl", code), jobs)
        result = _result(_start(inputs, jobs, Path(tmp) / "out.jsonl", code), jobs)
    result["parent_cpu_ms_per_page"] = (
        (result["parent_cpu_seconds"] - idle["parent_cpu_seconds"]) * 1000 / max(result["pages"], 1)
    )
    result["parent_cpu_start_seconds"] = idle["parent_cpu_seconds"]
    return result


def side_by_side(inputs: Sequence[str], code: str | None = None) -> dict[str, Any]:
    """Two ``-j 1`` runs at once: their pages/s together."""
    with tempfile.TemporaryDirectory() as tmp:
        procs = [_start(inputs, 1, Path(tmp) / f"out{i}.jsonl", code) for i in range(2)]
        results = [_result(p, 1) for p in procs]
    return {"pages_per_s": sum(r["pages_per_s"] for r in results), "runs": results}


def _label(name: str, baseline: bool) -> str:
    return f"{name} (baseline)" if baseline else name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", help="files, folders, WARC archives")
    parser.add_argument("--jobs", default="1,2", help="-j values, comma-separated (default 1,2)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds (median)")
    parser.add_argument("--side-by-side", action="store_true", help="two -j 1 runs at once too")
    parser.add_argument("--baseline", type=Path, help="a checkout whose scrapy_cx also runs")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    codes: list[tuple[bool, str | None]] = [(False, None)]
    if args.baseline:
        codes.append((True, str(args.baseline)))
    runs: dict[str, list[dict[str, Any]]] = {}
    for round_no in range(args.rounds):
        for is_base, code in codes if round_no % 2 == 0 else codes[::-1]:
            for jobs in map(int, args.jobs.split(",")):
                result = run(args.inputs, jobs, code)
                runs.setdefault(_label(f"-j {jobs}", is_base), []).append(result)
                print(
                    f"{_label(f'-j {jobs}', is_base)}: {result['pages']} pages, "
                    f"{result['pages_per_s']:.1f} pages/s, parent CPU "
                    f"{result['parent_cpu_ms_per_page']:.3f} ms/page "
                    f"(steady {result['parent_cpu_steady_ms_per_page'] or 0:.3f})",
                    file=sys.stderr,
                )
            if args.side_by_side:
                pair = side_by_side(args.inputs, code)
                runs.setdefault(_label("2 x -j 1", is_base), []).append(pair)
                label = _label("2 x -j 1", is_base)
                print(f"{label}: {pair['pages_per_s']:.1f} pages/s", file=sys.stderr)
    figures: dict[str, Any] = {"inputs": list(args.inputs), "rounds": args.rounds}
    for name, results in runs.items():
        figure = {"pages_per_s": round(statistics.median(r["pages_per_s"] for r in results), 1)}
        for key in ("parent_cpu_ms_per_page", "parent_cpu_steady_ms_per_page"):
            values = [r[key] for r in results if r.get(key) is not None]
            if values:
                figure[key] = round(statistics.median(values), 3)
        figures[name] = figure
        print(f"{name}: {json.dumps(figure)}")
    figures["runs"] = runs
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
