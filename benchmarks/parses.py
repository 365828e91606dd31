"""What one ``extract_article`` costs, counted in lxml parses of the same page.

Issue 12's core target: the median, over the ``aeb`` pages, of (CPU time of
``extract_article`` on the page's bytes) / (CPU time of a plain
``lxml.etree.fromstring(bytes, etree.HTMLParser())``), both measured in this
one process, best of ``--repeat`` runs each (``time.process_time``: other
processes on a shared machine do not count). The physical floor is 1.0.

It also prints where the time goes: the decode and parse (``decode_page`` +
``parse_html``) and each stage of :data:`scrapy_cx.extract.STAGES`, summed
over the pages (best of the repeats per page and stage), as shares of the total.

``--base REF`` also times the core of git ref ``REF`` (``main``, a commit), imported
in the same process as a second package, page by page beside this checkout's, and
reports both ratios and both profiles: a before/after comparison from one run.

``--cold`` times each page once per core, as a crawl meets it (no warm-up call,
no best of several: caches keyed by what a page holds, and the CPU's caches,
start as the pages before left them), the cores taking turns first page by
page; its total is the stage profile's sum of that one run. Slower stages
hidden by a warm rerun (an lru_cache of class names, a tree out of the CPU's
cache) show there. dateparser is imported beforehand: its one-time import
would land on whichever core needs it first. The plain parse it is divided by
stays the best of ``--repeat``.

``--outputs FILE`` writes instead, for every page of ``--sets``, the article and
the page's lines (text, lengths, tag, boilerplate mark, block, link) as JSON
lines: two such files, made before and after a change that should not change
results, must be equal (``cmp``).

    python -m benchmarks.parses [--sets aeb] [--repeat 5] [--base main] [--cold] [--json FILE]
    python -m benchmarks.parses --sets all --outputs FILE
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import importlib.util
import io
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from lxml import etree

from benchmarks.datasets import REPO_ROOT, BenchPage, available_sets, bench_dir, load_set
from scrapy_cx.extract import extract_page

DEFAULT_REPEAT = 5
PARSE_STAGE = "decode+parse"


def best_time(call: Callable[[], object], repeat: int) -> float:
    """Least CPU seconds of ``repeat`` calls (the least disturbed run)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best


@dataclass(frozen=True, slots=True)
class Core:
    """One version of the extraction core: its package's ``extract`` modules."""

    label: str
    extract: ModuleType  # scrapy_cx.extract, or the base ref's copy
    decode: ModuleType
    dom: ModuleType
    page: ModuleType


def load_core(label: str, package: str) -> Core:
    def part(name: str) -> ModuleType:
        return importlib.import_module(f"{package}.extract{name}")

    # (the Page's module was private, ``._page``, before the core's layout of issue 21;
    # decode and dom sat directly in extract/ before its phases of issue 42)
    page = ".page" if importlib.util.find_spec(f"{package}.extract.page") else "._page"
    parse = ".parse" if importlib.util.find_spec(f"{package}.extract.parse") else ""
    return Core(label, part(""), part(f"{parse}.decode"), part(f"{parse}.dom"), part(page))


def base_core(ref: str) -> Core:
    """The core of git ref ``ref``, unpacked to a temporary dir as package ``scrapy_cx_base``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref, "scrapy_cx"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="cx-base-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "scrapy_cx").rename(folder / BASE_PACKAGE)
    sys.path.insert(0, str(folder))
    return load_core(f"base {ref}", BASE_PACKAGE)


BASE_PACKAGE = "scrapy_cx_base"


def stage_times(core: Core, page: BenchPage, repeat: int) -> dict[str, float]:
    """Best-of-``repeat`` CPU seconds of each stage on one page, the parse first."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        start = time.process_time()
        text, encoding, utf8 = core.decode.decode_page(page.html)
        if hasattr(core.dom, "parse_document"):  # the parse and its index of the tree
            parsed = core.dom.parse_document(text, utf8)
            state = core.page.Page(parsed.root, page.url, encoding=encoding)
            state.elements, state.markup = parsed.elements, parsed.markup
        else:  # a base ref from before the parse's index
            state = core.page.Page(core.dom.parse_html(text, utf8), page.url, encoding=encoding)
        took = {PARSE_STAGE: time.process_time() - start}
        for stage in core.extract.STAGES:
            start = time.process_time()
            stage(state)
            took[stage_name(stage)] = time.process_time() - start
        for name, seconds in took.items():
            best[name] = min(best.get(name, seconds), seconds)
    return best


def _import_dateparser() -> None:
    """Import dateparser and load its languages' data, outside every timing."""
    import dateparser

    dateparser.parse("3 mars 2019", languages=["fr"])
    dateparser.parse("3 March 2019")


def _plain_parse(data: bytes) -> object:
    return etree.fromstring(data, etree.HTMLParser())


def stage_name(stage: Callable[..., object]) -> str:
    return getattr(stage, "__name__", repr(stage)).lstrip("_")


def measure(
    pages: Sequence[BenchPage], cores: Sequence[Core], repeat: int, cold: bool = False
) -> dict[str, Any]:
    """Per core: the median ratio to a plain parse over ``pages``, and its stage profile.

    Page by page, the plain parse and every core are timed one after the other,
    so a busy spell of the machine weighs on all of them alike. ``cold``: each
    page once per core, the cores taking turns first (see the module's doc).
    """
    ratios: dict[str, list[float]] = {core.label: [] for core in cores}
    totals = dict.fromkeys(ratios, 0.0)
    profiles: dict[str, dict[str, float]] = {core.label: {} for core in cores}
    parse_total = 0.0
    if cold:
        _import_dateparser()
    for i, page in enumerate(pages):
        data, url = page.html, page.url
        if not cold:
            _plain_parse(data)  # warmed like the cores below: one cold call is not a parse's cost
        plain = best_time(partial(_plain_parse, data), repeat)
        parse_total += plain
        if cold:
            for core in [*cores[i % len(cores) :], *cores[: i % len(cores)]]:
                took_stages = stage_times(core, page, 1)
                took = sum(took_stages.values())
                totals[core.label] += took
                ratios[core.label].append(took / plain if plain > 0 else float("inf"))
                profile = profiles[core.label]
                for name, seconds in took_stages.items():
                    profile[name] = profile.get(name, 0.0) + seconds
            continue
        for core in cores:
            extract = core.extract.extract_article
            extract(data, url)  # warm caches (regexes, lru caches) outside the timing
            took = best_time(partial(extract, data, url), repeat)
            totals[core.label] += took
            ratios[core.label].append(took / plain if plain > 0 else float("inf"))
            profile = profiles[core.label]
            for name, seconds in stage_times(core, page, repeat).items():
                profile[name] = profile.get(name, 0.0) + seconds
    return {
        "pages": len(pages),
        "repeat": repeat,
        "cold": cold,
        "parse_ms_total": 1000 * parse_total,
        "cores": [
            {
                "label": core.label,
                "median_ratio": statistics.median(ratios[core.label]),
                "mean_ratio": statistics.fmean(ratios[core.label]),
                "total_ratio": totals[core.label] / parse_total if parse_total else None,
                "extract_ms_total": 1000 * totals[core.label],
                "profile_ms": {name: 1000 * s for name, s in profiles[core.label].items()},
            }
            for core in cores
        ],
    }


def render(result: dict[str, Any]) -> str:
    """The ratios and the stage profiles as text."""
    runs = "one cold run per page" if result.get("cold") else f"best of {result['repeat']}"
    out = [
        f"pages {result['pages']}, {runs} (process_time), "
        f"plain lxml parse {result['parse_ms_total']:.0f} ms in all"
    ]
    for core in result["cores"]:
        out.append(
            f"{core['label']}: extract_article / plain parse: median {core['median_ratio']:.2f}, "
            f"mean {core['mean_ratio']:.2f}, total {core['total_ratio']:.2f} "
            f"({core['extract_ms_total']:.0f} ms)"
        )
    names = list(result["cores"][0]["profile_ms"])
    for core in result["cores"][1:]:
        names += [name for name in core["profile_ms"] if name not in names]
    first = result["cores"][0]["profile_ms"]
    names.sort(key=lambda name: -first.get(name, 0.0))
    each = "time in its one run" if result.get("cold") else "best time"
    out.append(f"stage profile, ms (share), sum over pages of each stage's {each}:")
    out.append(f"  {'stage':<16}" + "".join(f"{core['label']:>24}" for core in result["cores"]))
    for name in names:
        cells = []
        for core in result["cores"]:
            profile = core["profile_ms"]
            ms = profile.get(name, 0.0)
            cells.append(f"{ms:15.1f} ({100 * ms / (sum(profile.values()) or 1):4.1f}%)")
        out.append(f"  {name:<16}" + "".join(cells))
    return "\n".join(out)


def page_output(page: BenchPage) -> dict[str, Any]:
    """Everything a mechanical-preserving change must leave identical on one page."""
    core = extract_page(page.html, page.url)
    lines = core.lines
    return {
        "set": page.set_name,
        "id": page.id,
        "article": asdict(core.article()),
        "lines": [
            [x.text, x.length, x.link_length, x.tag, x.boilerplate, x.block, x.href]
            for x in lines
        ],
        "spans": lines.spans,
        "parents": lines.parents,
        "bodies": lines.bodies,
        "regions": core.regions,
        "headline": -1 if core.headline is None else core.headline,  # as written before None
        "kinds": core.kinds,
    }


def load(sets: str, bench: str | None) -> list[BenchPage]:
    root = bench_dir(bench)
    names = available_sets(root) if sets == "all" else sets.split(",")
    pages: list[BenchPage] = []
    for name in names:
        pages.extend(load_set(root / name))
    return pages


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parses", description=__doc__)
    parser.add_argument("--bench", help="bench dir (default: ../shared/bench)")
    parser.add_argument("--sets", default="aeb", help="comma-separated sets, or 'all'")
    parser.add_argument("--repeat", type=int, default=DEFAULT_REPEAT)
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--base", help="also time the core of this git ref, side by side")
    parser.add_argument(
        "--cold", action="store_true", help="each page once per core, as a crawl meets it"
    )
    parser.add_argument("--outputs", help="write every page's article and lines here instead")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    pages = load(args.sets, args.bench)[: args.limit]
    if not pages:
        print("no pages found", file=sys.stderr)
        return 1
    if args.outputs:
        with open(args.outputs, "w", encoding="utf-8") as out:
            for page in pages:
                out.write(json.dumps(page_output(page), ensure_ascii=False, default=str) + "\n")
        print(f"{len(pages)} pages written to {args.outputs}")
        return 0
    cores = [load_core("this checkout", "scrapy_cx")]
    if args.base:
        cores.insert(0, base_core(args.base))
    result = measure(pages, cores, max(1, args.repeat), args.cold)
    print(render(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
