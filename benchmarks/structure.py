"""Score the structure of the article body (headings, lists, tables, quotes, code,
images, links) on ``readability/expected``, scrapy-cx beside its peers.

Usage (from the repo root)::

    python -m benchmarks.structure                  # every system, the 60 expected pages
    python -m benchmarks.structure --misses link    # cx-html's missed truth links, per page
    python -m benchmarks.structure --json out.json
    python -m benchmarks.structure --agree          # content_html vs content, every bench page
    python -m benchmarks.structure --speed          # extract_article's cost of each format, aeb

The metric is the bench README's (``benchmarks/structure_metrics.py``). Every
system gets the page's text and ``http://fakehost/test/page.html`` as its
address: the address Readability's own test harness extracted with, so the
expected output's absolute links and the systems' own compare (``--own-url``
gives each page its manifest url instead, where it has one).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .accuracy import render_text
from .bodies import markdown_html
from .datasets import BenchPage, bench_dir, load_set
from .structure_metrics import (
    BASE_URL,
    KINDS,
    Item,
    KindCounts,
    macro,
    missed,
    page_counts,
    pooled,
    structure_items,
)
from .systems import decoded, html_fragment_text

SET = "readability"
EXPECTED = "expected"
SYSTEMS = ("cx-html", "cx-markdown", "readability-lxml", "trafilatura-html", "trafilatura-markdown")


@dataclass(frozen=True, slots=True)
class Body:
    """One system's body for one page: the HTML scored, its plain text (for ``kept``)."""

    html: str | None
    text: str
    error: str | None = None


# --- the systems --------------------------------------------------------------------------


def _cx(page: BenchPage, url: str) -> dict[str, Body]:
    """One extraction gives both cx bodies; the plain text is cx's own ``content``."""
    from scrapy_cx import extract_article

    article = extract_article(page.html, url, formats={"html", "markdown", "images"})
    text = article.content or ""
    return {
        "cx-html": Body(article.content_html, text),
        "cx-markdown": Body(markdown_html(article.content_markdown), text),
    }


def _readability(page: BenchPage, url: str) -> dict[str, Body]:
    from readability import Document

    html = Document(decoded(page)[0], url=url).summary()
    return {"readability-lxml": Body(html, html_fragment_text(html))}


def _trafilatura(page: BenchPage, url: str, output: str) -> Body:
    """``extract`` with formatting, links, images and tables on, defaults otherwise."""
    from trafilatura import extract

    body = extract(
        decoded(page)[0],
        url=url,
        output_format=output,
        include_formatting=True,
        include_links=True,
        include_images=True,
        include_tables=True,
    )
    html = markdown_html(body) if output == "markdown" else body
    return Body(html, html_fragment_text(html or ""))


Runner = Callable[[BenchPage, str], dict[str, Body]]
RUNNERS: dict[tuple[str, ...], Runner] = {
    ("cx-html", "cx-markdown"): _cx,
    ("readability-lxml",): _readability,
    ("trafilatura-html",): lambda p, u: {"trafilatura-html": _trafilatura(p, u, "html")},
    ("trafilatura-markdown",): lambda p, u: {
        "trafilatura-markdown": _trafilatura(p, u, "markdown")
    },
}
VERSIONS = {
    "cx": "scrapy-cx",
    "readability": "readability-lxml",
    "trafilatura": "trafilatura",
}


def _run_page(page: BenchPage, url: str, names: Sequence[str]) -> dict[str, Body]:
    """Every runner that makes one of ``names``; a runner that raises gives empty bodies."""
    bodies: dict[str, Body] = {}
    for made, runner in RUNNERS.items():
        if not set(made) & set(names):
            continue
        try:
            bodies.update(runner(page, url))
        except Exception as exc:  # noqa: BLE001 - one bad page must not end the run
            error = f"{type(exc).__name__}: {exc}"[:300]
            bodies.update({name: Body(None, "", error) for name in made})
    return {name: body for name, body in bodies.items() if name in names}


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageResult:
    """One system on one page: its items and counts (no page text)."""

    id: str
    output: list[Item]
    counts: dict[str, KindCounts]
    error: str | None


@dataclass(frozen=True, slots=True)
class StructRow:
    """One line of a system's table: one kind, or ``macro``."""

    system: str
    kind: str
    truth: int | None
    output: int | None
    matched: int | None
    recall: float | None
    kept: float | None
    precision: float | None


COLUMNS = (
    ("system", "system", "s"),
    ("kind", "kind", "s"),
    ("truth", "truth", "d"),
    ("given", "output", "d"),
    ("found", "matched", "d"),
    ("recall", "recall", ".3f"),
    ("kept", "kept", ".3f"),
    ("precision", "precision", ".3f"),
)


def rows_of(system: str, counts: dict[str, KindCounts]) -> list[StructRow]:
    """A row per kind and the macro row."""
    rows = [
        StructRow(system, k, c.truth, c.output, c.matched, c.recall, c.kept, c.precision)
        for k, c in counts.items()
    ]
    m = macro(counts)
    return rows + [StructRow(system, "macro", None, None, None, m.recall, m.kept, m.precision)]


def expected_pages(root: Path, limit: int | None = None) -> list[tuple[BenchPage, str]]:
    """The readability pages that have an expected body, with that body's HTML."""
    folder = root / SET / EXPECTED
    ids = {path.stem for path in folder.glob("*.html")}
    if not ids:
        return []
    pages = load_set(root / SET, ids, limit)
    return [(p, (folder / f"{p.id}.html").read_text(encoding="utf-8")) for p in pages]


def score_pages(
    pages: Sequence[tuple[BenchPage, str]], names: Sequence[str], own_url: bool = False
) -> dict[str, list[PageResult]]:
    """Run every system on every page (turn by turn) and count each page's items."""
    results: dict[str, list[PageResult]] = {name: [] for name in names}
    started = time.perf_counter()
    for i, (page, expected) in enumerate(pages, 1):
        truth = structure_items(expected)
        url = (page.url or BASE_URL) if own_url else BASE_URL
        for name, body in _run_page(page, url, names).items():
            output = structure_items(body.html)
            counts = page_counts(truth, output, body.text)
            results[name].append(PageResult(page.id, output, counts, body.error))
        if i % 20 == 0:
            _progress(f"  {i}/{len(pages)}")
    _progress(f"{len(pages)} pages in {time.perf_counter() - started:.1f}s")
    return results


def render_misses(
    kind: str, pages: Sequence[tuple[BenchPage, str]], results: Sequence[PageResult], top: int
) -> str:
    """Per page: the truth items of ``kind`` the system missed, and the ones it gave extra."""
    out = []
    for (page, expected), result in zip(pages, results, strict=True):
        truth = structure_items(expected)
        lost = missed(truth, result.output, kind)
        extra = missed(result.output, truth, kind)
        if not lost and not extra:
            continue
        c = result.counts[kind]
        out.append(f"{page.id}: truth {c.truth}, given {c.output}, found {c.matched}")
        out.extend(f"   - {key[:110]}" for key in lost[:top])
        out.extend(f"   + {key[:110]}" for key in extra[:top])
    return "\n".join(out) or f"no {kind} misses"


def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- main -----------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.structure", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--bench", help="bench dir (default: $CX_BENCH or ../shared/bench)")
    parser.add_argument("--systems", help=f"comma-separated, from {','.join(SYSTEMS)} (all)")
    parser.add_argument("--limit", type=int, help="at most N pages (per set for --agree)")
    parser.add_argument("--misses", choices=KINDS, help="print cx-html's misses of a kind")
    parser.add_argument(
        "--misses-of", default="cx-html", choices=SYSTEMS, help="whose misses (cx-html)"
    )
    parser.add_argument("--top", type=int, default=10, help="misses shown per page (10)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--own-url", action="store_true", help="extract with the manifest url, not fakehost"
    )
    parser.add_argument(
        "--agree", action="store_true", help="check content_html against content on every set"
    )
    parser.add_argument("--sets", help="sets for --agree (comma-separated; default: all)")
    parser.add_argument("--speed", action="store_true", help="time each format choice on aeb")
    parser.add_argument(
        "--rounds", type=int, default=1, help="--speed: each page's fastest of N rounds (1)"
    )
    return parser.parse_args(argv)


def _write_json(
    path: str, argv: Sequence[str] | None, rows: list[StructRow], results: dict[str, Any]
) -> None:
    payload = {
        "command": "python -m benchmarks.structure " + " ".join(argv or sys.argv[1:]),
        "versions": {short: _version(dist) for short, dist in VERSIONS.items()},
        "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "rows": [asdict(r) for r in rows],
        "pages": {
            name: [
                {"id": r.id, "error": r.error, **{k: asdict(c) for k, c in r.counts.items()}}
                for r in done
            ]
            for name, done in results.items()
        },
    }
    Path(path).write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


def run_structure(args: argparse.Namespace, root: Path, argv: Sequence[str] | None) -> int:
    """The structure tables (and misses, JSON) for the systems asked for."""
    names = [n.strip() for n in (args.systems or ",".join(SYSTEMS)).split(",") if n.strip()]
    unknown = sorted(set(names) - set(SYSTEMS))
    if unknown:
        print(f"unknown system(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    pages = expected_pages(root, args.limit)
    if not pages:
        print(f"no pages with an expected body under {root / SET / EXPECTED}", file=sys.stderr)
        return 2
    results = score_pages(pages, names, args.own_url)
    rows = [row for name in names for row in rows_of(name, pooled(r.counts for r in results[name]))]
    versions = ", ".join(f"{short} {_version(dist)}" for short, dist in VERSIONS.items())
    print(f"# {versions}; {len(pages)} pages; {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(render_text(rows, COLUMNS, group="system"))
    print("\nmacro (recall / kept / precision):")
    for row in (r for r in rows if r.kind == "macro"):
        figures = [_fmt(row.recall), _fmt(row.kept), _fmt(row.precision)]
        print(f"  {row.system:<22} " + " / ".join(figures))
    for name, done in results.items():
        for r in done:
            if r.error:
                print(f"error {name} {r.id}: {r.error}", file=sys.stderr)
    if args.misses and args.misses_of in results:
        print(f"\n== {args.misses} misses of {args.misses_of} (- missed, + extra) ==")
        print(render_misses(args.misses, pages, results[args.misses_of], args.top))
    if args.json:
        _write_json(args.json, argv, rows, results)
    return 0


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def main(argv: Sequence[str] | None = None) -> int:
    """The structure tables, or ``--agree`` / ``--speed``; 2 when there is nothing to run."""
    args = parse_args(argv)
    root = bench_dir(args.bench)
    if args.agree or args.speed:
        from .structure_checks import run_agree, run_speed

        code = run_agree(args, root) if args.agree else 0
        return code or (run_speed(args, root) if args.speed else 0)
    return run_structure(args, root, argv)


if __name__ == "__main__":
    raise SystemExit(main())
