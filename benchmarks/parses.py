"""What one ``extract_article`` costs, counted in lxml parses of the same page.

Issue 12's core target: the median, over the ``aeb`` pages, of (CPU time of
``extract_article`` on the page's bytes) / (CPU time of a plain
``lxml.etree.fromstring(bytes, etree.HTMLParser())``), both measured in this
one process, best of ``--repeat`` runs each (``time.process_time``: other
processes on a shared machine do not count). The physical floor is 1.0.

It also prints where the time goes: the decode and parse (``decode_page`` +
``parse_html``) and each stage of :data:`scrapy_cx.extract.STAGES`, summed
over the pages (best of the repeats per page and stage), as shares of the total.

``--outputs FILE`` writes instead, for every page of ``--sets``, the article and
the page's lines (text, lengths, tag, boilerplate mark, block, link) as JSON
lines: two such files, made before and after a change that should not change
results, must be equal (``cmp``).

    python -m benchmarks.parses [--sets aeb] [--repeat 5] [--json FILE]
    python -m benchmarks.parses --sets all --outputs FILE
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from lxml import etree

from benchmarks.datasets import Page, available_sets, bench_dir, load_set
from scrapy_cx.extract import STAGES, extract_article, extract_page
from scrapy_cx.extract._page import Page as CorePage
from scrapy_cx.extract.decode import decode_page
from scrapy_cx.extract.dom import parse_html

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


def parse_ratio(page: Page, repeat: int) -> tuple[float, float]:
    """``(plain parse seconds, extract_article seconds)`` for one page."""
    data, url = page.html, page.url

    def plain() -> object:
        return etree.fromstring(data, etree.HTMLParser())

    def extract() -> object:
        return extract_article(data, url)

    extract()  # warm caches (regexes, lru caches) outside the timing
    return best_time(plain, repeat), best_time(extract, repeat)


def stage_name(stage: Callable[..., object]) -> str:
    return getattr(stage, "__name__", repr(stage)).lstrip("_")


def stage_times(page: Page, repeat: int) -> dict[str, float]:
    """Best-of-``repeat`` CPU seconds of each stage on one page, the parse first."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        start = time.process_time()
        text, encoding, utf8 = decode_page(page.html)
        core = CorePage(parse_html(text, utf8), page.url, encoding=encoding)
        took = {PARSE_STAGE: time.process_time() - start}
        for stage in STAGES:
            start = time.process_time()
            stage(core)
            took[stage_name(stage)] = time.process_time() - start
        for name, seconds in took.items():
            best[name] = min(best.get(name, seconds), seconds)
    return best


def measure(pages: Sequence[Page], repeat: int) -> dict[str, Any]:
    """The per-page ratios, their median, and the stage profile over ``pages``."""
    ratios = []
    parse_total = extract_total = 0.0
    profile: dict[str, float] = {}
    for page in pages:
        plain, extract = parse_ratio(page, repeat)
        parse_total += plain
        extract_total += extract
        ratios.append(extract / plain if plain > 0 else float("inf"))
        for name, seconds in stage_times(page, repeat).items():
            profile[name] = profile.get(name, 0.0) + seconds
    return {
        "pages": len(pages),
        "repeat": repeat,
        "median_ratio": statistics.median(ratios) if ratios else None,
        "mean_ratio": statistics.fmean(ratios) if ratios else None,
        "total_ratio": extract_total / parse_total if parse_total else None,
        "extract_ms_total": 1000 * extract_total,
        "parse_ms_total": 1000 * parse_total,
        "profile_ms": {name: 1000 * s for name, s in profile.items()},
    }


def render(result: dict[str, Any]) -> str:
    """The ratio and the stage profile as text."""
    profile: dict[str, float] = result["profile_ms"]
    total = sum(profile.values()) or 1.0
    out = [
        f"pages {result['pages']}, best of {result['repeat']} (process_time)",
        f"extract_article / plain lxml parse: median {result['median_ratio']:.2f}, "
        f"mean {result['mean_ratio']:.2f}, total {result['total_ratio']:.2f}",
        f"total: extract {result['extract_ms_total']:.0f} ms, "
        f"plain parse {result['parse_ms_total']:.0f} ms",
        "stage profile (sum over pages of each stage's best time):",
    ]
    for name, ms in sorted(profile.items(), key=lambda item: -item[1]):
        out.append(f"  {name:<16} {ms:8.1f} ms {100 * ms / total:5.1f}%")
    return "\n".join(out)


def page_output(page: Page) -> dict[str, Any]:
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
        "headline": core.headline,
        "kinds": core.kinds,
    }


def load(sets: str, bench: str | None) -> list[Page]:
    root = bench_dir(bench)
    names = available_sets(root) if sets == "all" else sets.split(",")
    pages: list[Page] = []
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
    result = measure(pages, max(1, args.repeat))
    print(render(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
