"""What changed since an earlier run: ``--compare OLD.json``.

The table says whether a change to the extractor helped on balance; tuning also
needs to know which pages it broke. This compares the per-page records two
``--json`` files hold (same bench, same metric) for one system.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FIGURES = (
    ("main", "main"),
    ("F1", "f1"),
    ("charF1", "char_f1"),
    ("with", "with_found"),
    ("w/o", "without_absent"),
    ("title=", "title_exact"),
    ("date", "date_accuracy"),
    ("date±1", "date_1d"),
    ("authors=", "authors_exact"),
    ("author1", "author_first"),
    ("authP", "author_precision"),
    ("image", "image"),
    ("dek=", "dek"),
    ("ptypeF1", "page_type_f1"),
    ("typeOK", "page_type_right"),
    ("empty", "empty"),
    ("ms/pg", "median_ms"),
)
# Figures where higher is better, checked by render_drops (counts and times are not).
SCORES = frozenset(key for _, key in FIGURES) - {"empty", "median_ms"}
THRESHOLD = 0.05  # a per-page text score change smaller than this is noise
DROP = 0.005  # a set figure may not fall by more than this (the project's landing rule)


FLIPS = (  # per-page right/wrong fields whose changes are listed
    ("title_exact", "title"),
    ("date_ok", "date "),
    ("authors_ok", "authors"),
    ("image_ok", "image"),
    ("page_type_ok", "ptype"),
)


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _text_score(record: dict[str, Any]) -> float | None:
    """The page's text score on its own scale: char F1 on CJK pages, word F1 elsewhere,
    the share of must-have snippets found where the page has no main-text truth."""
    key = "char_f1" if record.get("level") == "char" else "f1"
    value = record.get(key)
    if value is None and record.get("n_with") and record.get("with_found") is not None:
        return float(record["with_found"]) / float(record["n_with"])
    return float(value) if value is not None else None


def render_rows(old_rows: Sequence[dict[str, Any]], new_rows: Sequence[dict[str, Any]]) -> str:
    """One line per (set, system) present in both runs: old -> new for the main figures."""
    old = {(r["set"], r["system"]): r for r in old_rows}
    out = []
    for row in new_rows:
        before = old.get((row["set"], row["system"]))
        if before is None:
            continue
        cells = []
        for label, key in FIGURES:
            a, b = before.get(key), row.get(key)
            if a is None and b is None:
                continue
            digits = 1 if key == "median_ms" else 0 if key == "empty" else 3
            delta = f" ({b - a:+.{digits}f})" if a is not None and b is not None else ""
            cells.append(f"{label} {_fmt(a, digits)}->{_fmt(b, digits)}{delta}")
        out.append(f"{row['set']}/{row['system']}: " + "  ".join(cells))
    return "\n".join(out)


def type_keyed(type_rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-page-type rows keyed like set rows (``set`` = ``wceb_dev[forum]``)."""
    return [{**t, "set": f"{t['set']}[{t['page_type']}]"} for t in type_rows]


def macro_common(
    old_rows: Sequence[dict[str, Any]], new_rows: Sequence[dict[str, Any]]
) -> dict[str, tuple[float, float, int]]:
    """Per system: old and new macro average of ``main`` over the sets both runs
    scored (so a run over fewer sets compares like with like), and how many sets."""
    old = {(r["set"], r["system"]): r.get("main") for r in old_rows}
    pairs: dict[str, list[tuple[float, float]]] = {}
    for row in new_rows:
        before, now = old.get((row["set"], row["system"])), row.get("main")
        if before is not None and now is not None:
            pairs.setdefault(row["system"], []).append((float(before), float(now)))
    return {
        name: (sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v), len(v))
        for name, v in pairs.items()
    }


def render_macro_change(
    old_rows: Sequence[dict[str, Any]], new_rows: Sequence[dict[str, Any]]
) -> str:
    """Old -> new macro average over the sets both runs have, per system."""
    cells = [
        f"{name} {a:.3f}->{b:.3f} ({b - a:+.3f}) over {n} sets"
        for name, (a, b, n) in macro_common(old_rows, new_rows).items()
    ]
    return "macro: " + ("  ".join(cells) if cells else "no set in both runs")


def drops(
    old_rows: Sequence[dict[str, Any]],
    new_rows: Sequence[dict[str, Any]],
    limit: float = DROP,
) -> list[tuple[str, str, str, float, float]]:
    """``(set, system, figure, old, new)`` for every score that fell by more than ``limit``."""
    old = {(r["set"], r["system"]): r for r in old_rows}
    out = []
    for row in new_rows:
        before = old.get((row["set"], row["system"]))
        if before is None:
            continue
        for label, key in FIGURES:
            a, b = before.get(key), row.get(key)
            if key in SCORES and a is not None and b is not None and a - b > limit:
                out.append((row["set"], row["system"], label, float(a), float(b)))
    return out


def render_drops(old_rows: Sequence[dict[str, Any]], new_rows: Sequence[dict[str, Any]]) -> str:
    """``DROP`` lines for the figures that fell by more than :data:`DROP`, or a clear OK."""
    lines = [
        f"DROP {set_name}/{system} {label} {a:.3f} -> {b:.3f} ({b - a:+.3f})"
        for set_name, system, label, a, b in drops(old_rows, new_rows)
    ]
    lines += [
        f"DROP macro/{name} {a:.3f} -> {b:.3f} ({b - a:+.3f})"
        for name, (a, b, _n) in macro_common(old_rows, new_rows).items()
        if a - b > DROP
    ]
    return "\n".join(lines) if lines else f"no figure of any set fell by more than {DROP}"


def render_pages(
    old_pages: Sequence[dict[str, Any]], new_pages: Sequence[dict[str, Any]], system: str
) -> str:
    """Pages of ``system`` whose text score moved by more than THRESHOLD, or whose
    title or date went from right to wrong (or back), worst change first."""
    old = {(p["set"], p["id"]): p for p in old_pages if p["system"] == system}
    text: list[tuple[float, str]] = []
    flips: list[str] = []
    for page in new_pages:
        if page["system"] != system:
            continue
        before = old.get((page["set"], page["id"]))
        if before is None:
            continue
        name = f"{page['set']}/{page['id']}"
        a, b = _text_score(before), _text_score(page)
        if a is not None and b is not None and abs(b - a) > THRESHOLD:
            text.append((b - a, f"  text  {name}  {a:.3f} -> {b:.3f} ({b - a:+.3f})"))
        for field, label in FLIPS:
            was, now = before.get(field), page.get(field)
            if was is not None and now is not None and was != now:
                verb = "fixed " if now else "BROKEN"
                flips.append(f"  {label} {verb} {name}")
    text.sort()
    worse = sum(d < 0 for d, _ in text)
    head = (
        f"{system}: text worse on {worse} pages, better on {len(text) - worse}; "
        f"titles/dates/fields changed on {len(flips)}"
    )
    return "\n".join([head, *(line for _, line in text), *sorted(flips)])
