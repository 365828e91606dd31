"""``python -m benchmarks.structure --agree`` and ``--speed``: what the body costs and promises.

``--agree`` runs cx with every format on every page of every bench set and
checks what issue 22 promises of the body: the text of ``content_html`` is
``content`` (whitespace collapsed), the HTML holds nothing active or styled and
only absolute http(s) addresses, and the Markdown renders.

``--speed`` times ``extract_article`` on aeb with no format, the default ones
and all of them, in turn on each page in this process (CPU time, as
``benchmarks.accuracy`` times), and prints the medians and their ratios
(``--rounds N``: each page's fastest of N rounds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .bodies import html_text, markdown_html, text_difference, unsafe_parts, words_apart
from .datasets import BenchPage, available_sets, load_set

SHOWN = 10


@dataclass(slots=True)
class Agreement:
    """What ``--agree`` found, over all pages."""

    pages: int = 0
    no_html: int = 0
    agree: int = 0
    agree_ignoring_spaces: int = 0  # the same characters once every whitespace is gone
    unsafe: Counter[str] = field(default_factory=Counter)
    unsafe_pages: int = 0
    markdown_errors: int = 0
    errors: int = 0
    failures: list[tuple[int, str, str]] = field(default_factory=list)  # (words apart, id, diff)
    unsafe_shown: list[str] = field(default_factory=list)
    markdown_shown: list[str] = field(default_factory=list)


def _unsafe_kind(part: str) -> str:
    """``a[href='javascript:...']`` -> ``a[href=...]``: one count per kind of problem."""
    return part.split("=", 1)[0] + ("=...]" if "=" in part else "")


def check_page(page: BenchPage, found: Agreement) -> None:
    """Extract ``page`` with every format and add what it shows to ``found``."""
    from scrapy_cx import extract_article

    found.pages += 1
    label = f"{page.set_name}/{page.id}"
    try:
        article = extract_article(page.html, page.url, formats={"html", "markdown", "images"})
    except Exception as exc:  # noqa: BLE001 - it promises never to raise: count it
        found.errors += 1
        found.failures.append((10**9, label, f"raised {type(exc).__name__}: {exc}"[:200]))
        return
    html, text = article.content_html, article.content or ""
    if html is None:
        found.no_html += 1
        return
    diff = text_difference(html, text)
    if diff is None:
        found.agree += 1
    else:
        spaceless = "".join(html_text(html, text).split())
        found.agree_ignoring_spaces += spaceless == "".join(text.split())
        found.failures.append((words_apart(html, text), label, diff))
    parts = unsafe_parts(html)
    if parts:
        found.unsafe_pages += 1
        found.unsafe.update(_unsafe_kind(p) for p in parts)
        found.unsafe_shown.append(f"{label}: {', '.join(parts[:4])}")
    try:
        markdown_html(article.content_markdown)
    except Exception as exc:  # noqa: BLE001 - a Markdown the parser cannot take is the finding
        found.markdown_errors += 1
        found.markdown_shown.append(f"{label}: {type(exc).__name__}: {exc}"[:200])


def render_agreement(found: Agreement) -> str:
    """Counts, then the worst text disagreements and the first unsafe / Markdown failures."""
    made = found.pages - found.no_html - found.errors
    unsafe = ", ".join(f"{k} {n}" for k, n in found.unsafe.most_common())
    lines = [
        f"pages {found.pages}: content_html made on {made}, None on {found.no_html}, "
        f"raised on {found.errors}",
        f"text agrees {found.agree}/{made}; of the {made - found.agree} that do not, "
        f"{found.agree_ignoring_spaces} agree once all whitespace is removed",
        f"unsafe HTML on {found.unsafe_pages} pages" + (f": {unsafe}" if unsafe else ""),
        f"Markdown that does not render: {found.markdown_errors}",
    ]
    if found.failures:
        lines.append("\nworst text disagreements (words apart, page, where):")
        for apart, label, diff in sorted(found.failures, reverse=True)[:SHOWN]:
            lines.append(f"  {apart:>6}  {label}  {diff}")
    for title, shown in (("unsafe", found.unsafe_shown), ("markdown", found.markdown_shown)):
        if shown:
            lines.append(f"\nfirst {title} pages:")
            lines.extend(f"  {line}" for line in shown[:SHOWN])
    return "\n".join(lines)


def _sets(args: argparse.Namespace, root: Path) -> list[str]:
    if args.sets:
        return [s.strip() for s in args.sets.split(",") if s.strip()]
    return available_sets(root)


def run_agree(args: argparse.Namespace, root: Path) -> int:
    """``--agree`` over every page of the sets asked for (all by default)."""
    names = _sets(args, root)
    if not names:
        print(f"no benchmark sets under {root}", file=sys.stderr)
        return 2
    found = Agreement()
    started = time.perf_counter()
    for name in names:
        for page in load_set(root / name, limit=args.limit):
            check_page(page, found)
        print(f"{name}: {found.pages} pages so far", file=sys.stderr, flush=True)
    print(f"== --agree: {', '.join(names)} ({time.perf_counter() - started:.0f}s) ==")
    print(render_agreement(found))
    return 0


# --- speed ----------------------------------------------------------------------------------


def _choices() -> dict[str, frozenset[str]]:
    from scrapy_cx.article import DEFAULT_FORMATS, FORMATS

    return {"none": frozenset(), "default": DEFAULT_FORMATS, "all": frozenset(FORMATS)}


def time_formats(
    pages: Iterable[BenchPage], choices: dict[str, frozenset[str]]
) -> dict[str, list[float]]:
    """CPU seconds of each choice on each page, the choices in turn (rotated) per page."""
    from scrapy_cx import extract_article

    names = list(choices)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for i, page in enumerate(pages):
        order = names[i % len(names) :] + names[: i % len(names)]
        for name in order:
            t0 = time.process_time()
            try:
                extract_article(page.html, page.url, formats=choices[name])
            except Exception:  # noqa: BLE001, S110 - speed only; --agree counts errors
                pass
            seconds[name].append(time.process_time() - t0)
    return seconds


def run_speed(args: argparse.Namespace, root: Path) -> int:
    """``--speed``: medians of each format choice on aeb, and their ratios to none."""
    pages = load_set(root / "aeb", limit=args.limit)
    if not pages:
        print(f"no aeb pages under {root}", file=sys.stderr)
        return 2
    choices = _choices()
    time_formats(pages[:1], choices)  # warm-up: imports and caches off the clock
    seconds = time_formats(pages, choices)
    for _ in range(args.rounds - 1):  # each page's fastest round: less of the machine's noise
        again = time_formats(pages, choices)
        seconds = {
            n: [min(a, b) for a, b in zip(s, again[n], strict=True)] for n, s in seconds.items()
        }
    medians = {name: statistics.median(s) * 1000 for name, s in seconds.items()}
    rounds = f", fastest of {args.rounds} rounds" if args.rounds > 1 else ""
    print(f"== --speed: aeb, {len(pages)} pages{rounds}, median CPU ms of extract_article ==")
    base = medians["none"]
    for name, ms in medians.items():
        formats = ",".join(sorted(choices[name])) or "-"
        total = sum(seconds[name])
        ratios = [t / n for t, n in zip(seconds[name], seconds["none"], strict=True) if n > 0]
        print(
            f"  {name:<8} {formats:<22} {ms:7.2f} ms  x{ms / base:.3f} of none"
            f"  (median per-page ratio x{statistics.median(ratios):.3f}, total {total:.1f}s)"
        )
    return 0
