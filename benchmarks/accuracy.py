"""Score scrapy-cx (and trafilatura, readability-lxml when installed) on the bench sets.

Usage (from the repo root)::

    python -m benchmarks.accuracy                       # every set, every system
    python -m benchmarks.accuracy --sets aeb --systems cx --misses text
    python -m benchmarks.accuracy --json out.json --markdown
    python -m benchmarks.accuracy --variant nameless --compare out.json

Metrics are those of the bench dir's README.md (see benchmarks/metrics.py and
docs/benchmarks.rst). The systems take turns on each page in this process; each
extraction call is timed in CPU time (``time.process_time``) after one untimed
warm-up page, so the speed ratios hold on a shared, loaded machine. A page that
raises counts as an error with empty output.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .audit import apply_audit
from .compare import render_drops, render_macro_change, render_pages, render_rows, type_keyed
from .datasets import BenchPage, available_sets, bench_dir, load_set
from .metrics import (
    NGRAM,
    PAGE_CLASSES,
    Overlap,
    aggregate,
    authors_exact,
    authors_precise,
    calendar_day,
    char_tokens,
    day_within,
    first_author,
    image_match,
    macro_f1,
    overlap,
    page_class,
    per_class_f1,
    score_dates,
    score_snippets,
    shingles,
    snippets_found,
    title_exact,
    title_lenient,
    word_tokens,
)
from .systems import FIELDS, SYSTEMS, Output, System, make_system
from .variants import VARIANTS

CJK_LANGS = ("zh", "ja", "ko")


@dataclass(frozen=True, slots=True)
class Result:
    """One system on one page."""

    page: BenchPage
    output: Output
    seconds: float


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: one system on one set."""

    set: str
    system: str
    pages: int
    f1: float
    precision: float
    recall: float
    char_f1: float
    char_precision: float
    char_recall: float
    title_exact: float | None
    title_lenient: float | None
    n_title: int
    date_accuracy: float | None
    date_coverage: float | None
    date_precision: float | None
    n_date: int
    median_ms: float
    pages_per_s: float
    vs_trafilatura: float | None
    errors: int
    empty: int
    # the set's main-text figure (see primary_text) and which one it is
    main: float | None = None
    main_kind: str | None = None
    # snippets: must-have found / must-not absent, shares over snippets
    with_found: float | None = None
    without_absent: float | None = None
    n_with: int = 0
    n_without: int = 0
    # fields (None: no truth on this set, or the system has no such field)
    date_1d: float | None = None  # right day +-1 / pages with date truth
    date_1d_precision: float | None = None  # right day +-1 / pages with truth and a date
    authors_exact: float | None = None
    author_first: float | None = None
    author_precision: float | None = None  # pages whose every name is right / pages given any
    n_authors: int = 0
    n_authors_given: int = 0  # labelled pages given any author
    image: float | None = None
    n_image: int = 0
    dek: float | None = None
    n_dek: int = 0
    page_type_f1: float | None = None  # macro-F1 over PAGE_CLASSES
    n_page_type: int = 0


@dataclass(frozen=True, slots=True)
class TypeRow:
    """One system on the pages of one ``page_type`` of a set."""

    set: str
    system: str
    page_type: str
    pages: int
    with_found: float | None
    without_absent: float | None
    n_with: int
    n_without: int
    empty: int
    f1: float | None  # None: no main-text truth on these pages
    page_type_right: float | None  # predicted class == truth class (None: not measured)


class PageTimeout(Exception):
    """An extraction ran past ``--timeout``."""


@contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`PageTimeout` in the block after ``seconds`` (SIGALRM; main thread only).

    A runaway page must cost one error, not the run; where SIGALRM is unavailable
    the block simply runs unbounded.
    """
    if (
        seconds is None
        or seconds <= 0
        or not hasattr(signal, "SIGALRM")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def expire(_signum: int, _frame: object) -> None:
        raise PageTimeout(f"no result after {seconds:g}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_system(
    system: System, pages: Sequence[BenchPage], label: str, timeout: float | None = None
) -> list[Result]:
    """Extract every page with one system (see :func:`run_systems`)."""
    return run_systems([system], pages, label, timeout)[system.name]


def run_systems(
    systems: Sequence[System], pages: Sequence[BenchPage], label: str, timeout: float | None = None
) -> dict[str, list[Result]]:
    """Extract every page with every system, page by page, timing only ``system.run``
    in CPU seconds of this process; errors become empty outputs.

    The systems take turns on each page, so a shared machine's load changes over the
    run land on all of them alike, and CPU time (``time.process_time``) leaves out
    what other processes take: the speed ratios compare like with like.
    """
    results: dict[str, list[Result]] = {system.name: [] for system in systems}
    errors = 0
    started = time.perf_counter()
    for i, page in enumerate(pages, 1):
        for system in systems:
            t0 = time.process_time()
            try:
                arg = system.prepare(page)
                with _deadline(timeout):
                    t0 = time.process_time()
                    output = system.run(arg)
            except Exception as exc:  # noqa: BLE001 - one bad page must not end the run
                output = Output(error=f"{type(exc).__name__}: {exc}"[:300])
            seconds = time.process_time() - t0
            if output.error:
                errors += 1
            results[system.name].append(Result(page, output, seconds))
        if i % 50 == 0:
            _progress(f"  {label}: {i}/{len(pages)}")
    _progress(
        f"{label}: {len(pages)} pages in {time.perf_counter() - started:.1f}s"
        + (f", {errors} errors" if errors else "")
    )
    return results


def warm_up(system: System, page: BenchPage) -> None:
    """One untimed call so imports and caches do not land on the first timed page."""
    try:
        system.run(system.prepare(page))
    except Exception:  # noqa: BLE001, S110 - the timed run will count it
        pass


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def text_overlaps(results: Sequence[Result], level: str) -> list[Overlap]:
    """Per-page overlaps for the pages that have main-text truth."""
    return [overlap(r.output.text, r.page.body, level) for r in results if r.page.body is not None]


def snippet_counts(result: Result) -> tuple[int, int, int, int]:
    """``(with found, with total, without found, without total)`` for one page.

    Must-have snippets marked ``with_verbatim: false`` (not in the page's visible
    text as written) are left out.
    """
    page, text = result.page, result.output.text
    musts = () if page.with_verbatim is False else page.with_snippets
    return (
        snippets_found(text, musts),
        len(musts),
        snippets_found(text, page.without_snippets),
        len(page.without_snippets),
    )


def _share(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def primary_text(row: Row, results: Sequence[Result]) -> tuple[float | None, str | None]:
    """The set's one main-text figure: AEB F1 where main-text truth exists (char F1
    when most such pages are Chinese/Japanese/Korean), else must-have found."""
    bodies = [r.page for r in results if r.page.body is not None]
    if bodies:
        chars = sum(text_level(p) == "char" for p in bodies)
        return (row.char_f1, "charF1") if 2 * chars > len(bodies) else (row.f1, "F1")
    if row.with_found is not None:
        return row.with_found, "with"
    return None, None


def _field_pairs(
    results: Sequence[Result], fields: frozenset[str]
) -> dict[str, float | int | None]:
    """Authors, image, dek and page-type figures; None where no truth or no field."""
    out: dict[str, float | int | None] = {}
    authored = [r for r in results if r.page.authors]
    exact = [authors_exact(r.output.authors, r.page.authors) for r in authored]
    first = [first_author(r.output.authors, r.page.authors) for r in authored]
    exact_ok = [x for x in exact if x is not None]
    precise = [authors_precise(r.output.authors, r.page.authors) for r in authored]
    precise_ok = [x for x in precise if x is not None]
    out["n_authors"] = len(exact_ok)
    out["n_authors_given"] = len(precise_ok)
    has = "authors" in fields
    out["authors_exact"] = _share(exact_ok) if has else None
    out["author_precision"] = _share(precise_ok) if has and precise_ok else None
    out["author_first"] = _share([x for x in first if x is not None]) if has else None
    imaged = [r for r in results if r.page.image]
    out["n_image"] = len(imaged)
    out["image"] = (
        _share([image_match(r.output.image, r.page.image) for r in imaged])
        if "image" in fields
        else None
    )
    deks = [r for r in results if r.page.description]
    out["n_dek"] = len(deks)
    out["dek"] = (
        _share([title_exact(r.output.description, r.page.description) for r in deks])
        if "description" in fields
        else None
    )
    typed = [(r, page_class(r.page.page_type)) for r in results]
    typed_ok = [(r.output.page_type, cls) for r, cls in typed if cls is not None]
    out["n_page_type"] = len(typed_ok)
    out["page_type_f1"] = (
        macro_f1(typed_ok, PAGE_CLASSES) if "page_type" in fields and typed_ok else None
    )
    return out


def score(
    set_name: str,
    system: str,
    results: Sequence[Result],
    has_dates: bool = True,
    fields: frozenset[str] = FIELDS,
) -> Row:
    """All table figures for one system on one set (speed ratio filled in later).

    ``has_dates=False`` (a system without date extraction) leaves the date
    figures None rather than a misleading 0; ``fields`` likewise names the
    optional fields (authors, image, description, page_type) the system has.
    """
    word = aggregate(text_overlaps(results, "word"))
    char = aggregate(text_overlaps(results, "char"))
    titled = [r for r in results if r.page.title is not None]
    exact = sum(title_exact(r.output.title, r.page.title) for r in titled)
    lenient = sum(title_lenient(r.output.title, r.page.title) for r in titled)
    dates = score_dates((r.output.date, r.page.date) for r in results)
    dated = [r for r in results if calendar_day(r.page.date)]
    near = [day_within(r.output.date, r.page.date) for r in dated]
    near_given = [ok for ok, r in zip(near, dated, strict=True) if calendar_day(r.output.date)]
    snippets = score_snippets(snippet_counts(r) for r in results)
    times = [r.seconds for r in results]
    total = sum(times)
    row = Row(
        set=set_name,
        system=system,
        pages=len(results),
        f1=word.f1,
        precision=word.precision,
        recall=word.recall,
        char_f1=char.f1,
        char_precision=char.precision,
        char_recall=char.recall,
        title_exact=exact / len(titled) if titled else None,
        title_lenient=lenient / len(titled) if titled else None,
        n_title=len(titled),
        date_accuracy=dates.accuracy if has_dates and dates.n_truth else None,
        date_coverage=dates.coverage if has_dates else None,
        date_precision=dates.precision if has_dates and dates.n_truth and dates.n_given else None,
        n_date=dates.n_truth,
        median_ms=statistics.median(times) * 1000 if times else 0.0,
        pages_per_s=len(times) / total if total else 0.0,
        vs_trafilatura=None,
        errors=sum(r.output.error is not None for r in results),
        empty=sum(not r.output.text.strip() for r in results),
        with_found=snippets.with_found,
        without_absent=snippets.without_absent,
        n_with=snippets.n_with,
        n_without=snippets.n_without,
        date_1d=_share(near) if has_dates else None,
        date_1d_precision=_share(near_given) if has_dates else None,
        **_field_pairs(results, fields),  # type: ignore[arg-type]
    )
    main, kind = primary_text(row, results)
    return replace(row, main=main, main_kind=kind)


def score_types(
    set_name: str, system: str, results: Sequence[Result], fields: frozenset[str] = FIELDS
) -> list[TypeRow]:
    """Per ``page_type`` figures (wceb_dev), in order of first appearance."""
    groups: dict[str, list[Result]] = {}
    for r in results:
        if r.page.page_type:
            groups.setdefault(r.page.page_type, []).append(r)
    rows = []
    for page_type, group in groups.items():
        snippets = score_snippets(snippet_counts(r) for r in group)
        right = [r.output.page_type == page_class(page_type) for r in group]
        rows.append(
            TypeRow(
                set=set_name,
                system=system,
                page_type=page_type,
                pages=len(group),
                with_found=snippets.with_found,
                without_absent=snippets.without_absent,
                n_with=snippets.n_with,
                n_without=snippets.n_without,
                empty=sum(not r.output.text.strip() for r in group),
                f1=(
                    aggregate(text_overlaps(group, "word")).f1
                    if any(r.page.body is not None for r in group)
                    else None
                ),
                page_type_right=_share(right) if "page_type" in fields else None,
            )
        )
    return rows


def macro_average(rows: Sequence[Row]) -> dict[str, float]:
    """Per system: the mean of the sets' main-text figures (``Row.main``).

    Only comparable between runs over the same sets (``sets`` is saved beside it).
    """
    by_system: dict[str, list[float]] = {}
    for row in rows:
        if row.main is not None:
            by_system.setdefault(row.system, []).append(row.main)
    return {name: sum(v) / len(v) for name, v in by_system.items()}


def with_speed_ratio(rows: list[Row]) -> list[Row]:
    """Fill ``vs_trafilatura`` = trafilatura's median ms / the system's, per set."""
    base = {r.set: r.median_ms for r in rows if r.system == "trafilatura"}
    out = []
    for row in rows:
        ref = base.get(row.set)
        ratio = ref / row.median_ms if ref and row.median_ms else None
        out.append(Row(**{**asdict(row), "vs_trafilatura": ratio}))
    return out


def page_records(
    set_name: str, system: str, results: Sequence[Result], fields: frozenset[str] = FIELDS
) -> list[dict[str, Any]]:
    """Per-page figures for ``--json`` (no page text: the pages stay in the bench dir)."""
    records = []
    for r in results:
        page, out = r.page, r.output
        word = overlap(out.text, page.body, "word") if page.body is not None else None
        char = overlap(out.text, page.body, "char") if page.body is not None else None
        true_day = calendar_day(page.date)
        w_found, w_total, wo_found, wo_total = snippet_counts(r)
        records.append(
            {
                "set": set_name,
                "system": system,
                "id": page.id,
                "level": text_level(page),
                "f1": word.f1 if word else None,
                "precision": word.precision if word else None,
                "recall": word.recall if word else None,
                "char_f1": char.f1 if char else None,
                "title": out.title,
                "title_exact": title_exact(out.title, page.title) if page.title else None,
                "title_lenient": title_lenient(out.title, page.title) if page.title else None,
                "date": out.date,
                "date_ok": calendar_day(out.date) == true_day if true_day else None,
                "date_1d_ok": day_within(out.date, page.date) if true_day else None,
                "with_found": w_found if w_total else None,
                "n_with": w_total,
                "without_found": wo_found if wo_total else None,
                "n_without": wo_total,
                "empty": not out.text.strip(),
                "authors": list(out.authors),
                "authors_ok": authors_exact(out.authors, page.authors),
                "author_first_ok": first_author(out.authors, page.authors),
                "image": out.image,
                "image_ok": image_match(out.image, page.image) if page.image else None,
                "dek_ok": (
                    title_exact(out.description, page.description) if page.description else None
                ),
                "page_type": out.page_type,
                "page_type_truth": page_class(page.page_type),
                "page_type_ok": (
                    out.page_type == page_class(page.page_type)
                    if "page_type" in fields and page_class(page.page_type)
                    else None
                ),
                "ms": r.seconds * 1000,
                "error": out.error,
            }
        )
    return records


# --- rendering ------------------------------------------------------------------------------

Column = tuple[str, str, str]  # header, Row field, format

COLUMNS: tuple[Column, ...] = (
    ("set", "set", "s"),
    ("system", "system", "s"),
    ("pages", "pages", "d"),
    ("main", "main", ".3f"),
    ("F1", "f1", ".3f"),
    ("P", "precision", ".3f"),
    ("R", "recall", ".3f"),
    ("charF1", "char_f1", ".3f"),
    ("title=", "title_exact", ".3f"),
    ("title~", "title_lenient", ".3f"),
    ("date", "date_accuracy", ".3f"),
    ("dcov", "date_coverage", ".3f"),
    ("dprec", "date_precision", ".3f"),
    ("ms/pg", "median_ms", ".1f"),
    ("pg/s", "pages_per_s", ".1f"),
    ("xtraf", "vs_trafilatura", ".2f"),
    ("err", "errors", "d"),
    ("empty", "empty", "d"),
)
FIELD_COLUMNS: tuple[Column, ...] = (
    ("set", "set", "s"),
    ("system", "system", "s"),
    ("with", "with_found", ".3f"),
    ("w/o", "without_absent", ".3f"),
    ("empty", "empty", "d"),
    ("ptypeF1", "page_type_f1", ".3f"),
    ("date±1", "date_1d", ".3f"),
    ("d±1prec", "date_1d_precision", ".3f"),
    ("authors=", "authors_exact", ".3f"),
    ("author1", "author_first", ".3f"),
    ("authP", "author_precision", ".3f"),
    ("authN", "n_authors_given", "d"),
    ("image", "image", ".3f"),
    ("dek=", "dek", ".3f"),
)
TYPE_COLUMNS: tuple[Column, ...] = (
    ("set", "set", "s"),
    ("page_type", "page_type", "s"),
    ("system", "system", "s"),
    ("pages", "pages", "d"),
    ("with", "with_found", ".3f"),
    ("w/o", "without_absent", ".3f"),
    ("empty", "empty", "d"),
    ("F1", "f1", ".3f"),
    ("typeOK", "page_type_right", ".3f"),
)


def _cells(row: object, columns: Sequence[Column] = COLUMNS) -> list[str]:
    cells = []
    for _header, name, fmt in columns:
        value = getattr(row, name)
        cells.append("-" if value is None else format(value, fmt))
    return cells


def render_text(
    rows: Sequence[Any], columns: Sequence[Column] = COLUMNS, group: str = "set"
) -> str:
    """Aligned plain-text table (text left-aligned, numbers right-aligned); a blank
    line between groups (rows with another ``group`` value)."""
    headers = [c[0] for c in columns]
    body = [_cells(r, columns) for r in rows]
    widths = [max(len(x) for x in col) for col in zip(headers, *body, strict=True)]
    left = {i for i, c in enumerate(columns) if c[2] == "s"}

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    previous = None
    for row, cells in zip(rows, body, strict=True):
        key = getattr(row, group)
        if previous is not None and key != previous:
            out.append("")
        out.append(line(cells))
        previous = key
    return "\n".join(out)


def render_markdown(rows: Sequence[Any], columns: Sequence[Column] = COLUMNS) -> str:
    """The same table as GitHub markdown."""
    headers = [c[0] for c in columns]
    out = ["| " + " | ".join(headers) + " |"]
    out.append("|" + "|".join("---" if c[2] == "s" else "---:" for c in columns) + "|")
    out.extend("| " + " | ".join(_cells(r, columns)) + " |" for r in rows)
    return "\n".join(out)


def render_macro(rows: Sequence[Row]) -> str:
    """The macro-average line: per system, the mean of the sets' ``main`` figures."""
    macro = macro_average(rows)
    kinds = {r.set: r.main_kind for r in rows if r.main_kind}
    parts = "  ".join(f"{name} {value:.3f}" for name, value in macro.items())
    sets = ", ".join(f"{name} {kind}" for name, kind in kinds.items())
    return f"macro over {len(kinds)} sets ({sets}):  {parts}"


def truth_counts(pages_by_set: dict[str, list[BenchPage]]) -> str:
    """One line per set: how many pages carry each kind of truth (the denominators)."""
    lines = []
    for name, pages in pages_by_set.items():
        n_body = sum(p.body is not None for p in pages)
        n_title = sum(p.title is not None for p in pages)
        n_date = sum(p.date is not None for p in pages)
        extra = [
            ("with", sum(len(p.with_snippets) for p in pages)),
            ("without", sum(len(p.without_snippets) for p in pages)),
            ("authors", sum(p.authors is not None for p in pages)),
            ("image", sum(p.image is not None for p in pages)),
            ("dek", sum(p.description is not None for p in pages)),
            ("page_type", sum(p.page_type is not None for p in pages)),
        ]
        lines.append(
            f"{name}: {len(pages)} pages; truth: text {n_body}, title {n_title}, date {n_date}"
            + "".join(f", {label} {n}" for label, n in extra if n)
        )
    return "\n".join(lines)


# --- misses ---------------------------------------------------------------------------------


def _short(text: str | None, width: int = 110) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _tokens(text: str, level: str) -> list[str]:
    return char_tokens(text) if level == "char" else word_tokens(text)


def _unmatched_lines(text: str, other: str, level: str, limit: int = 3) -> list[str]:
    """Lines of ``text`` whose grams are mostly absent from ``other``.

    A line shorter than a gram is looked up among ``other``'s grams of its own
    length, so a short heading is not reported just for being short.
    """
    other_tokens = _tokens(other, level)
    pools: dict[int, set[tuple[str, ...]]] = {}

    def pool(size: int) -> set[tuple[str, ...]]:
        if size not in pools:
            pools[size] = set(shingles(other_tokens, size))
        return pools[size]

    found = []
    for line in text.splitlines():
        tokens = _tokens(line, level)
        if not tokens:
            continue
        grams = shingles(tokens, min(NGRAM, len(tokens)))
        known = pool(min(NGRAM, len(tokens)))
        hit = sum(n for g, n in grams.items() if g in known) / sum(grams.values())
        if hit < 0.5:
            found.append(line)
            if len(found) >= limit:
                break
    return found


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def text_level(page: BenchPage) -> str:
    """``"char"`` for Chinese/Japanese/Korean pages (by label, else by the truth text)."""
    if (page.lang or "")[:2] in CJK_LANGS:
        return "char"
    body = "".join((page.body or "").split())
    return "char" if body and len(_CJK.findall(body)) > 0.3 * len(body) else "word"


def _text_key(result: Result) -> float:
    return overlap(result.output.text, result.page.body, text_level(result.page)).f1


def _with_misses(results: Sequence[Result]) -> list[str]:
    """Pages missing must-have snippets (up to two shown) or keeping must-not ones."""
    out = []
    for r in results:
        page = r.page
        found, total, present, n_not = snippet_counts(r)
        if found == total and not present:
            continue
        kind = f"  [{page.page_type}]" if page.page_type else ""
        empty = "  EMPTY" if not r.output.text.strip() else ""
        out.append(
            f"{page.id}{kind}  with {found}/{total}  without present {present}/{n_not}{empty}"
        )
        musts = () if page.with_verbatim is False else page.with_snippets
        missed = [s for s in musts if not snippets_found(r.output.text, [s])]
        kept = [s for s in page.without_snippets if snippets_found(r.output.text, [s])]
        out.extend(f"    missed {_short(s)}" for s in missed[:2])
        out.extend(f"    kept   {_short(s)}" for s in kept[:2])
    return out


FIELD_MISSES = ("authors", "image", "ptype")


def _field_misses(kind: str, results: Sequence[Result]) -> list[str]:
    """Pages whose authors, lead image or page type is wrong: truth beside ours."""
    out = []
    for r in results:
        page, got = r.page, r.output
        if kind == "authors" and authors_exact(got.authors, page.authors) is False:
            first = "first ok" if first_author(got.authors, page.authors) else "first wrong"
            out.append(f"{page.id}  ({first})")
            out.append(f"    truth  {list(page.authors or ())}")
            out.append(f"    ours   {list(got.authors)}")
        elif kind == "image" and page.image and not image_match(got.image, page.image):
            out.append(f"{page.id}\n    truth  {page.image}\n    ours   {got.image}")
        elif kind == "ptype" and (truth := page_class(page.page_type)) and got.page_type != truth:
            out.append(f"{page.id}  truth {truth} ({page.page_type})  ours {got.page_type}")
    return out


def render_confusion(results: Sequence[Result]) -> list[str]:
    """Page-type confusion (rows truth, columns ours) and each class's F1.

    Says where the macro-F1 comes from: which kinds of page are taken for which.
    """
    pairs = [
        (r.output.page_type, truth) for r in results if (truth := page_class(r.page.page_type))
    ]
    if not pairs:
        return []
    columns = (*PAGE_CLASSES, "none")
    counts = Counter((truth, ours if ours in PAGE_CLASSES else "none") for ours, truth in pairs)
    width = max(len(c) for c in columns) + 2
    out = ["truth \\ ours".ljust(width + 2) + "".join(c.rjust(width) for c in columns) + "  F1"]
    f1 = per_class_f1(pairs, PAGE_CLASSES)
    for truth in PAGE_CLASSES:
        cells = "".join(str(counts[(truth, c)]).rjust(width) for c in columns)
        score = f1[truth]
        out.append(f"{truth.ljust(width + 2)}{cells}  {'-' if score is None else f'{score:.3f}'}")
    out.append(f"macro-F1 {macro_f1(pairs, PAGE_CLASSES):.3f} over {len(pairs)} pages")
    return out


def render_misses(kind: str, results: Sequence[Result], top: int) -> str:
    """Per-page misses of one system on one set, worst first (text) or in page order."""
    out: list[str] = []
    if kind == "text":
        scored = sorted((r for r in results if r.page.body is not None), key=_text_key)
        for r in scored[:top]:
            word = overlap(r.output.text, r.page.body, "word")
            char = overlap(r.output.text, r.page.body, "char")
            if word.f1 >= 0.999 and char.f1 >= 0.999:
                break
            body = r.page.body or ""
            out.append(
                f"{r.page.id}  F1 {word.f1:.3f} (P {word.precision or 0:.3f} "
                f"R {word.recall or 0:.3f})  charF1 {char.f1:.3f}  "
                f"chars truth {len(body)} ours {len(r.output.text)}"
                + (f"  ERROR {r.output.error}" if r.output.error else "")
            )
            if r.page.url:
                out.append(f"    url    {r.page.url}")
            out.append(f"    truth  {_short(body)}")
            out.append(f"    ours   {_short(r.output.text)}")
            level = text_level(r.page)
            for line in _unmatched_lines(body, r.output.text, level):
                out.append(f"    missed {_short(line)}")
            for line in _unmatched_lines(r.output.text, body, level):
                out.append(f"    extra  {_short(line)}")
    elif kind == "title":
        for r in results:
            if r.page.title is None or title_exact(r.output.title, r.page.title):
                continue
            mark = "~" if title_lenient(r.output.title, r.page.title) else "x"
            out.append(f"{mark} {r.page.id}")
            out.append(f"    truth  {r.page.title}")
            out.append(f"    ours   {r.output.title}")
    elif kind == "date":
        for r in results:
            truth, ours = calendar_day(r.page.date), calendar_day(r.output.date)
            if truth is None or truth == ours:
                continue
            raw = _short(r.output.date_raw, 60)
            out.append(f"{r.page.id}  truth {truth}  ours {r.output.date}  raw {raw!r}")
            if r.page.url:
                out.append(f"    url    {r.page.url}")
    elif kind == "with":
        out.extend(_with_misses(results))
    elif kind == "ptype":
        out.extend(render_confusion(results))
        out.extend(_field_misses(kind, results))
    elif kind in FIELD_MISSES:
        out.extend(_field_misses(kind, results))
    else:
        raise ValueError(kind)
    return "\n".join(out)


# --- main -----------------------------------------------------------------------------------


def _csv(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.accuracy", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--bench", help="bench dir (default: $CX_BENCH or ../shared/bench)")
    parser.add_argument("--sets", help="comma-separated set names (default: all in the bench dir)")
    parser.add_argument(
        "--systems", help=f"comma-separated, from {','.join(SYSTEMS)} (default: all installed)"
    )
    parser.add_argument("--limit", type=int, help="at most N pages per set")
    parser.add_argument("--ids", help="comma-separated page ids (any set)")
    parser.add_argument(
        "--misses",
        choices=("text", "title", "date", "with", *FIELD_MISSES),
        help="print cx's per-page misses",
    )
    parser.add_argument("--top", type=int, default=30, help="text misses shown per set (30)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table too")
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds before one page counts as an error (30; 0 = none)",
    )
    parser.add_argument(
        "--audit",
        metavar="AUDIT_JSON",
        action="append",
        help="replace silver date / page-type labels a person checked against the page "
        "(benchmarks/audits/*.json; repeatable; every replacement is printed)",
    )
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        help="score the pages rewritten as the web also serves them, same text and truth "
        "(benchmarks/variants.py: minified, reencoded, nameless)",
    )
    parser.add_argument(
        "--compare",
        metavar="OLD_JSON",
        help="compare with an earlier --json run: figures, and cx pages that changed",
    )
    return parser.parse_args(argv)


def _systems(names: list[str]) -> list[System]:
    """The systems asked for that are installed: a missing one is skipped, not fatal."""
    systems: list[System] = []
    for name in names:
        system = make_system(name)
        if system is None:
            _progress(f"{name}: not installed, skipped")
        else:
            systems.append(system)
    return systems


def _pages_by_set(
    args: argparse.Namespace, root: Path, names: list[str], ids: set[str] | None
) -> dict[str, list[BenchPage]]:
    """The pages of each set asked for (variant rewritten, audit applied); empty sets dropped."""
    pages_by_set = {}
    for name in names:
        pages = load_set(root / name, ids, args.limit)
        if args.variant:
            rewrite = VARIANTS[args.variant]
            pages = [replace(page, html=rewrite(page.html)) for page in pages]
        if pages:
            pages_by_set[name] = pages
    for audit in args.audit or ():
        for line in apply_audit(pages_by_set, Path(audit)):
            _progress(line)
    return pages_by_set


def _run_all(
    systems: Sequence[System], pages_by_set: dict[str, list[BenchPage]], timeout: float | None
) -> dict[tuple[str, str], list[Result]]:
    """Every system on every set, each warmed up first: (set, system) -> its results."""
    results: dict[tuple[str, str], list[Result]] = {}
    first = next(iter(pages_by_set.values()))[0]
    for system in systems:
        warm_up(system, first)
    label = "/".join(s.name for s in systems)
    for name, pages in pages_by_set.items():
        for system_name, done in run_systems(systems, pages, f"{name}/{label}", timeout).items():
            results[(name, system_name)] = done
    return results


def _print_tables(
    args: argparse.Namespace,
    rows: list[Row],
    type_rows: list[TypeRow],
    pages_by_set: dict[str, list[BenchPage]],
    systems: Sequence[System],
) -> None:
    """The report's tables on stdout: text always, markdown when asked."""
    field_rows = [r for r in rows if any(getattr(r, c[1]) is not None for c in FIELD_COLUMNS[2:])]
    versions = ", ".join(f"{s.name} {s.version}" for s in systems)
    print(f"# {versions}; {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(render_text(rows))
    print()
    print(render_macro(rows))
    if field_rows:
        print("\n== snippets and fields ==")
        print(render_text(field_rows, FIELD_COLUMNS))
    if type_rows:
        print("\n== per page type ==")
        print(render_text(type_rows, TYPE_COLUMNS, group="page_type"))
    print()
    print(truth_counts(pages_by_set))
    if args.markdown:
        print()
        print(render_markdown(rows))
        print()
        print(render_markdown(field_rows, FIELD_COLUMNS))
        if type_rows:
            print()
            print(render_markdown(type_rows, TYPE_COLUMNS))


def _errors(results: dict[tuple[str, str], list[Result]]) -> list[tuple[str, str, str, str]]:
    """(set, system, page id, error) of every page that raised, also listed on stderr."""
    errors = [
        (s, sysname, r.page.id, r.output.error)
        for (s, sysname), res in results.items()
        for r in res
        if r.output.error
    ]
    if errors:
        print("\nerrors:", file=sys.stderr)
        for s, sysname, page_id, error in errors:
            print(f"  {s}/{sysname} {page_id}: {error}", file=sys.stderr)
    return errors


def _print_comparison(
    path: str,
    rows: list[Row],
    type_rows: list[TypeRow],
    records: list[dict[str, Any]],
    systems: Sequence[System],
) -> None:
    """What changed since an earlier ``--json`` report: rows, macro, drops and pages."""
    old = json.loads(Path(path).read_text(encoding="utf-8"))
    new_rows = [asdict(r) for r in rows]
    print(f"\n== compared with {path} ({old.get('time', '?')}) ==")
    print(render_rows(old.get("rows", []), new_rows))
    new_types = [asdict(t) for t in type_rows]
    if new_types and old.get("type_rows"):
        print(render_rows(type_keyed(old["type_rows"]), type_keyed(new_types)))
    print(render_macro_change(old.get("rows", []), new_rows))
    print(render_drops(old.get("rows", []), new_rows))
    for name in (s.name for s in systems if s.name == "cx"):
        print(render_pages(old.get("pages", []), records, name))


def _write_json(
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    root: Path,
    systems: Sequence[System],
    rows: list[Row],
    type_rows: list[TypeRow],
    errors: list[tuple[str, str, str, str]],
    records: list[dict[str, Any]],
) -> None:
    """The whole report as JSON (``--json``), for a later ``--compare``."""
    payload: dict[str, Any] = {
        "command": "python -m benchmarks.accuracy " + " ".join(argv or sys.argv[1:]),
        "bench": str(root),
        "variant": args.variant,
        "versions": {s.name: s.version for s in systems},
        "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "rows": [asdict(r) for r in rows],
        "macro": macro_average(rows),
        "macro_sets": {r.set: r.main_kind for r in rows if r.main_kind},
        "type_rows": [asdict(t) for t in type_rows],
        "errors": [{"set": s, "system": n, "id": i, "error": e} for s, n, i, e in errors],
        "pages": records,
    }
    Path(args.json).write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Load, run, score and report; 2 when there is nothing to run."""
    args = parse_args(argv)
    root = bench_dir(args.bench)
    names = _csv(args.sets) or available_sets(root)
    if not names:
        print(f"no benchmark sets under {root} (use --bench DIR or $CX_BENCH)", file=sys.stderr)
        return 2
    ids = set(_csv(args.ids) or []) or None
    systems = _systems(_csv(args.systems) or list(SYSTEMS))
    if args.misses and not any(s.name == "cx" for s in systems):
        print("--misses needs the cx system", file=sys.stderr)
        return 2
    pages_by_set = _pages_by_set(args, root, names, ids)
    if not pages_by_set:
        print("no pages selected", file=sys.stderr)
        return 2
    _progress(
        f"bench {root}"
        + (f" ({args.variant})" if args.variant else "")
        + ": "
        + ", ".join(f"{k} {len(v)}" for k, v in pages_by_set.items())
    )
    results = _run_all(systems, pages_by_set, args.timeout)

    by_name = {s.name: s for s in systems}
    rows = with_speed_ratio(
        [score(s, n, res, by_name[n].dates, by_name[n].fields) for (s, n), res in results.items()]
    )
    order = {name: i for i, name in enumerate(pages_by_set)}
    sys_order = {s.name: i for i, s in enumerate(systems)}
    rows.sort(key=lambda r: (order[r.set], sys_order[r.system]))
    type_rows = [
        t
        for (s, n), res in sorted(results.items(), key=lambda kv: order[kv[0][0]])
        for t in score_types(s, n, res, by_name[n].fields)
    ]
    type_rows.sort(key=lambda t: (order[t.set], t.page_type, sys_order[t.system]))

    _print_tables(args, rows, type_rows, pages_by_set, systems)
    for name in pages_by_set if args.misses else ():
        print(f"\n== {args.misses} misses of cx on {name} ==")
        print(render_misses(args.misses, results[(name, "cx")], args.top))
    errors = _errors(results)
    records = [
        rec for (s, n), res in results.items() for rec in page_records(s, n, res, by_name[n].fields)
    ]
    if args.compare:
        _print_comparison(args.compare, rows, type_rows, records, systems)
    if args.json:
        _write_json(args, argv, root, systems, rows, type_rows, errors, records)
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
