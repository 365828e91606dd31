#!/usr/bin/env bash
# What scrapy-cx costs a crawl's own process, rerun on a many-core machine (issue 26).
#
# Runs, in about 5 minutes on 16 cores (7 at most):
#   1. python -m benchmarks.crawl --mode list    (generated pages, a URL list)
#   2. python -m benchmarks.crawl --mode saved   (wceb_dev's real pages, real extraction)
#   3. the same with --canned                    (each page's real article replayed:
#                                                 the plugin's own cost, no extraction)
#   4. python -m benchmarks.crawl --mode follow  (generated site, following links)
#   5. python -m benchmarks.bulk -j 1,2,4,8,16   (wceb_dev + aeb saved pages)
# then prints one table. Every format is on (CX_FORMATS=html,markdown,images).
#
# Needs no network. What it needs on the machine:
#   - Python 3.10+ (PYTHON, default python3);
#   - the dependencies: a virtual environment that imports scrapy and scrapy_cx's
#     requirements (VENV, default .venv, reused as it is), or else a folder of wheels
#     for that Python (WHEELS, default .device-wheels; made beforehand where there is
#     a network: `pip download -d .device-wheels 'scrapy>=2.11' parsel dateparser
#     htmldate itemadapter charset-normalizer` with the device's Python version),
#     installed into a new VENV with --no-index;
#   - the saved pages (BENCH, default ../shared/bench: wceb_dev/html and aeb/html,
#     34 MB; they are not in the repository): without them steps 2, 3 and 5 are
#     skipped and say so.
# OUT (default /tmp/device_check) receives each step's JSON and log.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
WHEELS=${WHEELS:-.device-wheels}
BENCH=${BENCH:-../shared/bench}
OUT=${OUT:-/tmp/device_check}
mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONHASHSEED=0

if ! "$VENV/bin/python" -c "import scrapy, lxml, dateparser, htmldate" 2>/dev/null; then
    if [ ! -d "$WHEELS" ]; then
        echo "no usable $VENV and no wheels in $WHEELS: see the head of this script" >&2
        exit 2
    fi
    "$PYTHON" -m venv "$VENV" || exit 2
    "$VENV/bin/python" -m pip install -q --no-index --find-links "$WHEELS" "$WHEELS"/*.whl || exit 2
fi
PY="$VENV/bin/python"
"$PY" -c "import scrapy, sys, os; print('python', sys.version.split()[0], 'scrapy', scrapy.__version__, 'cores', len(os.sched_getaffinity(0)))"

step() {  # step NAME COMMAND...: run it, keep its log, say how long it took
    local name=$1
    shift
    local start=$SECONDS
    if "$@" >"$OUT/$name.log" 2>&1; then
        echo "$name: $((SECONDS - start)) s"
    else
        echo "$name: FAILED after $((SECONDS - start)) s (see $OUT/$name.log)"
        tail -5 "$OUT/$name.log"
    fi
}

CRAWL=("$PY" -m benchmarks.crawl --workers auto --formats html,markdown,images)
step list "${CRAWL[@]}" --mode list --pages 3000 --rounds 2 --json "$OUT/list.json"
if [ -d "$BENCH/wceb_dev/html" ]; then
    SAVED=(--mode saved --saved "$BENCH/wceb_dev/html" --repeat 4 --rounds 2)
    step saved "${CRAWL[@]}" "${SAVED[@]}" --json "$OUT/saved.json"
    step canned "${CRAWL[@]}" "${SAVED[@]}" --canned --json "$OUT/canned.json"
else
    echo "saved, canned: skipped ($BENCH/wceb_dev/html not found)"
fi
step follow "${CRAWL[@]}" --mode follow --pages 1500 --json "$OUT/follow.json"
if [ -d "$BENCH/aeb/html" ]; then
    step bulk "$PY" -m benchmarks.bulk "$BENCH/wceb_dev/html" "$BENCH/aeb/html" \
        --jobs 1,2,4,8,16 --side-by-side --json "$OUT/bulk.json"
else
    echo "bulk: skipped ($BENCH/aeb/html not found)"
fi

"$PY" - "$OUT" <<'TABLE'
import json, sys
from pathlib import Path

out = Path(sys.argv[1])
print("\n| mode | plain pages/s | with scrapy-cx | ratio | crawl-process CPU ms/page, plain -> with (extra) | workers ms/page | 16-core ceiling |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name in ("list", "saved", "canned", "follow"):
    path = out / f"{name}.json"
    if not path.exists():
        continue
    figures = json.loads(path.read_text())
    plain = figures["plain"]
    for label, cx in figures.items():
        if not label.startswith("cx "):
            continue
        ceiling = figures["projection"][label]
        top = ceiling[max(ceiling, key=int)]
        tag = " (baseline)" if "baseline" in label else ""
        print(
            f"| {name}{tag} | {plain['pages_per_s']:.0f} | {cx['pages_per_s']:.0f} | {cx['vs_plain']:.2f}x "
            f"| {plain['cpu_ms_per_page']:.2f} -> {cx['cpu_ms_per_page']:.2f} "
            f"({cx['extra_cpu_ms_per_page']:+.2f}) | {cx['worker_cpu_ms_per_page']:.2f} "
            f"| {top['ratio']:.2f}x ({top['bound_by']}) |"
        )
path = out / "bulk.json"
if path.exists():
    figures = json.loads(path.read_text())
    print("\n| bulk | pages/s | parent CPU ms/page |")
    print("| --- | --- | --- |")
    for label, figure in figures.items():
        if isinstance(figure, dict) and "pages_per_s" in figure:
            cpu = figure.get("parent_cpu_ms_per_page")
            print(f"| {label} | {figure['pages_per_s']} | {'' if cpu is None else cpu} |")
TABLE
