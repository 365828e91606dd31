"""``Article.article_probability`` on the dev sets: its calibration, and its fit.

Every page of every set in the bench dir is extracted once; its truth is "one
article or one thread" (wceb_dev's page types article, blog and forum; its
listings, collections, products, services and documentation are not; every
page of the other sets is an article). The report:

* the calibration table: the pages in 10 bins of their probability (0-0.1, ...,
  0.9-1), each bin's mean probability beside the share of its pages that are
  articles; a bin of 30 pages or more should be within 0.1 of its share;
* the precision and recall of article pages kept at thresholds of
  ``CX_MIN_ARTICLE_PROBABILITY`` (0, today's default, keeps every page).

``--fit`` fits the weights again (a logistic regression on the features of
:mod:`scrapy_cx.extract.classify.probability`, Newton's method with a small L2 penalty,
pure Python) and prints them as the module's code; ``--cv K`` reports the table
of a K-fold cross-validated fit beside it (each page scored by weights fit
without it: what held-out pages can expect). ``--features FILE`` keeps the
pages' features, so a refit needs no second extraction.

    python -m benchmarks.probability [--audit benchmarks/audits/wceb_dev_page_types.json]
    python -m benchmarks.probability --fit --cv 5 [--features /tmp/features.json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.audit import apply_audit
from benchmarks.datasets import available_sets, bench_dir, load_set
from benchmarks.metrics import page_class
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.classify.probability import FEATURES, INTERCEPT, WEIGHTS, probability

#: The classes of wceb_dev's truth that the probability is of.
KEPT_CLASSES = ("article", "thread")
THRESHOLDS = (0.5, 0.7, 0.9)
BINS = 10
MIN_BIN = 30  # pages a bin needs to be held to its share
MAX_GAP = 0.1  # ... within this
L2 = 1.0  # the fit's penalty on the squared weights (not on the intercept)


@dataclass(frozen=True, slots=True)
class Sample:
    """One page: its set and id, its truth (an article or thread), its features, and
    whether the extractor found text on it."""

    set_name: str
    id: str
    label: bool
    features: tuple[float, ...]
    text: bool = True


def collect(root: Path, audits: Sequence[str]) -> list[Sample]:
    """Every page of every set in ``root``, extracted once, with its label."""
    pages_by_set = {name: load_set(root / name) for name in available_sets(root)}
    for audit in audits:
        for line in apply_audit(pages_by_set, Path(audit)):
            print(line, file=sys.stderr)
    from scrapy_cx.extract.classify.probability import features

    samples = []
    for name, pages in pages_by_set.items():
        for page in pages:
            label = page_class(page.page_type) in KEPT_CLASSES if page.page_type else True
            extracted = extract_page(page.html, page.url)
            found = features(extracted)
            samples.append(Sample(name, page.id, label, found, bool(extracted.content)))
        print(f"{name}: {len(pages)} pages", file=sys.stderr)
    return samples


def score(weights: Sequence[float], x: Sequence[float]) -> float:
    """The logistic of ``weights[0] + weights[1:] . x`` (unrounded: the fit's)."""
    z = weights[0] + sum(w * v for w, v in zip(weights[1:], x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def scored(weights: Sequence[float], sample: Sample) -> float:
    """The page's probability as the module gives it with these weights (0: no text)."""
    return probability(sample.features, weights[0], tuple(weights[1:])) if sample.text else 0.0


def _with_text(samples: Sequence[Sample]) -> list[Sample]:
    """The pages with some text: the module scores a page with none 0, unweighted."""
    return [s for s in samples if s.text]


def fit(samples: Sequence[Sample], l2: float = L2, rounds: int = 50) -> list[float]:
    """Intercept and weights of an L2-penalized logistic regression (Newton's method)."""
    n = len(FEATURES) + 1
    weights = [0.0] * n
    for _ in range(rounds):
        gradient = [0.0] * n
        hessian = [[0.0] * n for _ in range(n)]
        for sample in samples:
            x = (1.0, *sample.features)
            p = score(weights, sample.features)
            error, slope = p - sample.label, p * (1 - p)
            for i in range(n):
                gradient[i] += error * x[i]
                row = hessian[i]
                for j in range(n):
                    row[j] += slope * x[i] * x[j]
        for i in range(1, n):
            gradient[i] += l2 * weights[i]
            hessian[i][i] += l2
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] if rows[i][i] else 0.0 for i in range(n)]


def cross_validated(samples: Sequence[Sample], folds: int) -> list[float]:
    """Each page's probability under weights fit on the other folds (seeded split)."""
    order = list(range(len(samples)))
    random.Random(23).shuffle(order)
    scores = [0.0] * len(samples)
    for k in range(folds):
        held = set(order[k::folds])
        weights = fit(_with_text([s for i, s in enumerate(samples) if i not in held]))
        for i in held:
            scores[i] = scored(weights, samples[i])
    return scores


def calibration(labels: Sequence[bool], scores: Sequence[float]) -> tuple[list[str], bool]:
    """The calibration table's lines, and whether every bin of MIN_BIN pages is within
    MAX_GAP of its share."""
    lines = ["bin        pages  mean p  articles  gap    held"]
    ok = True
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [
            (p, y)
            for p, y in zip(scores, labels, strict=True)
            if low <= p < high or (b == BINS - 1 and p == 1.0)
        ]
        if not inside:
            lines.append(f"{low:.1f}-{high:.1f}  {0:5d}       -         -      -       -")
            continue
        mean = sum(p for p, _ in inside) / len(inside)
        rate = sum(y for _, y in inside) / len(inside)
        gap = abs(mean - rate)
        held = len(inside) >= MIN_BIN
        good = gap <= MAX_GAP or not held
        ok = ok and good
        mark = ("ok" if good else "FAIL") if held else "(few)"
        lines.append(
            f"{low:.1f}-{high:.1f}  {len(inside):5d}  {mean:6.3f}  {rate:8.3f}  {gap:5.3f}  {mark}"
        )
    return lines, ok


def precision_recall(labels: Sequence[bool], scores: Sequence[float]) -> list[str]:
    """Precision and recall of article pages kept at each threshold (0: today's default)."""
    lines = ["threshold  kept  precision  recall  articles dropped  others kept"]
    articles = sum(labels)
    for threshold in (0.0, *THRESHOLDS):
        kept = [y for p, y in zip(scores, labels, strict=True) if p >= threshold]
        right = sum(kept)
        precision = right / len(kept) if kept else 0.0
        recall = right / articles if articles else 0.0
        lines.append(
            f"{threshold:9.1f}  {len(kept):4d}  {precision:9.3f}  {recall:6.3f}  "
            f"{articles - right:16d}  {len(kept) - right:11d}"
        )
    return lines


def report(title: str, samples: Sequence[Sample], scores: Sequence[float]) -> bool:
    labels = [s.label for s in samples]
    table, ok = calibration(labels, scores)
    print(f"== {title}: {len(samples)} pages, {sum(labels)} articles or threads ==")
    print("\n".join(table))
    print("calibrated" if ok else "NOT calibrated (a bin of 30+ pages off by more than 0.1)")
    print("\n".join(precision_recall(labels, scores)))
    per_set: dict[str, list[float]] = {}
    for sample, p in zip(samples, scores, strict=True):
        per_set.setdefault(sample.set_name, []).append(p)
    print("mean probability by set: " + ", ".join(
        f"{name} {sum(ps) / len(ps):.3f}" for name, ps in per_set.items()
    ))
    print()
    return ok


def _code(weights: Sequence[float]) -> str:
    """The weights as the probability module writes them."""
    rows = "\n".join(
        f"    {w:.4f},  # {name}" for name, w in zip(FEATURES, weights[1:], strict=True)
    )
    return f"INTERCEPT = {weights[0]:.4f}\nWEIGHTS = (\n{rows}\n)"


def _load_or_collect(args: argparse.Namespace) -> list[Sample]:
    path = Path(args.features) if args.features else None
    if path is not None and path.is_file() and not args.refresh:
        rows = json.loads(path.read_text(encoding="utf-8"))
        if rows.get("features") == list(FEATURES):
            return [Sample(r[0], r[1], r[2], tuple(r[3]), r[4]) for r in rows["samples"]]
    samples = collect(bench_dir(args.bench), args.audit or ())
    if path is not None:
        data = {
            "features": list(FEATURES),
            "samples": [
                [s.set_name, s.id, s.label, list(s.features), s.text] for s in samples
            ],
        }
        path.write_text(json.dumps(data), encoding="utf-8")
    return samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.probability", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--bench", help="bench dir (default: $CX_BENCH or ../shared/bench)")
    parser.add_argument(
        "--audit", action="append", help="audited page-type labels (benchmarks/audits/*.json)"
    )
    parser.add_argument("--fit", action="store_true", help="fit the weights again and print them")
    parser.add_argument("--cv", type=int, default=0, help="also a K-fold cross-validated table")
    parser.add_argument("--features", help="JSON file the pages' features are kept in")
    parser.add_argument("--refresh", action="store_true", help="extract again over --features")
    args = parser.parse_args(argv)
    samples = _load_or_collect(args)
    weights = [INTERCEPT, *WEIGHTS]
    if args.fit:
        weights = fit(_with_text(samples))
        print(_code(weights))
        print()
    ok = report(
        "fit now" if args.fit else "the module's weights",
        samples,
        [scored(weights, s) for s in samples],
    )
    if args.cv:
        report(f"{args.cv}-fold cross-validated", samples, cross_validated(samples, args.cv))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
