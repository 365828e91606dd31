"""What changed since an earlier run: ``--compare OLD.json``.

The table says whether a change to the extractor helped on balance; tuning also
needs to know which pages it broke. This compares the per-page records two
``--json`` files hold (same bench, same metric) for one system.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FIGURES = (
    ("F1", "f1"),
    ("charF1", "char_f1"),
    ("title=", "title_exact"),
    ("date", "date_accuracy"),
    ("ms/pg", "median_ms"),
)
THRESHOLD = 0.05  # a per-page text score change smaller than this is noise


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _text_score(record: dict[str, Any]) -> float | None:
    """The page's text score on its own scale: char F1 on CJK pages, word F1 elsewhere."""
    key = "char_f1" if record.get("level") == "char" else "f1"
    value = record.get(key)
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
            digits = 1 if key == "median_ms" else 3
            delta = f" ({b - a:+.{digits}f})" if a is not None and b is not None else ""
            cells.append(f"{label} {_fmt(a, digits)}->{_fmt(b, digits)}{delta}")
        out.append(f"{row['set']}/{row['system']}: " + "  ".join(cells))
    return "\n".join(out)


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
        for field in ("title_exact", "date_ok"):
            was, now = before.get(field), page.get(field)
            if was is not None and now is not None and was != now:
                label = "title" if field == "title_exact" else "date "
                verb = "fixed " if now else "BROKEN"
                flips.append(f"  {label} {verb} {name}")
    text.sort()
    worse = sum(d < 0 for d, _ in text)
    head = (
        f"{system}: text worse on {worse} pages, better on {len(text) - worse}; "
        f"titles/dates changed on {len(flips)}"
    )
    return "\n".join([head, *(line for _, line in text), *sorted(flips)])
