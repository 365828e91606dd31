"""A learned line labeller, scored only by cross-validation grouped by site (issue 38).

Reads the labelled lines ``python -m benchmarks.labels`` wrote, adds each line's
neighbours' features, and trains a gradient-boosted line classifier
(scikit-learn's HistGradientBoostingClassifier, the ``train`` extra) over the pool
of every set. Pages are split into ``--folds`` folds by site (the registrable
domain: two pages of one site never sit on both sides), and every page is scored
by the model of the fold that did not see it: a figure on pages the model was
trained on would measure memory, not the method. The text of a page is its lines
with a probability of ``--threshold`` or more, in page order.

Reported per set with the set's own metric (benchmarks.align.score_set), the
current rules and the held-out model on the same pages in the same run, and per
page type on wcxb_dev. Deterministic: fixed folds and seeds.

    python -m benchmarks.learn [--lines DIR] [--sets ...] [--folds 5] [--trees 200]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.align import MAIN, UNKNOWN, score_set
from benchmarks.labels import DEFAULT_OUT, DEV_SETS, read_records, record_truth
from benchmarks.linefeatures import NAMES

# Columns whose neighbours' values a line sees, and the offsets read.
NEIGHBOUR_COLUMNS = (
    "log_len",
    "link_density",
    "punct",
    "rules",
    "boilerplate",
    "block_share",
    "parent_share",
    "ends_stop",
    "tag_li",
    "tag_p",
)
OFFSETS = (-3, -2, -1, 1, 2, 3)
WINDOW = 5  # lines each side averaged for the context columns
SEED = 0


def page_matrix(features: Sequence[Sequence[float]], names: Sequence[str]) -> np.ndarray:
    """The page's rows with neighbour and window columns appended (module doc)."""
    base = np.asarray(features, dtype=np.float32)
    n = base.shape[0]
    cols = [names.index(c) for c in NEIGHBOUR_COLUMNS]
    picked = base[:, cols]
    extra = []
    for off in OFFSETS:
        shifted = np.full_like(picked, -1.0)
        if off < 0 and n > -off:
            shifted[-off:] = picked[:off]
        elif off > 0 and n > off:
            shifted[:-off] = picked[off:]
        extra.append(shifted)
    cum = np.vstack([np.zeros((1, picked.shape[1]), np.float32), np.cumsum(picked, axis=0)])
    idx = np.arange(n)
    lo, hi = np.maximum(idx - WINDOW, 0), np.minimum(idx + WINDOW + 1, n)
    extra.append((cum[hi] - cum[lo]) / (hi - lo)[:, None])
    return np.hstack([base, *extra])


def line_weights(features: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """Each page weighs one in all; within it a line weighs half by count, half by
    its characters: the metrics count words, and a page of 3 000 menu lines must
    not outweigh 30 pages of articles."""
    length = np.expm1(features[:, names.index("log_len")]) + 1.0
    n = len(length)
    return 0.5 / n + 0.5 * length / length.sum()


def load(lines_dir: Path, sets: Sequence[str]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for set_name in sets:
        records.extend(read_records(lines_dir / f"{set_name}.jsonl.gz"))
    return records


def folds_by_site(sites: Sequence[str], k: int) -> list[int]:
    """Fold of each page: sites sorted by size (largest first, then by name) dealt
    to the fold holding the fewest pages so far; deterministic."""
    counts: dict[str, int] = {}
    for s in sites:
        counts[s] = counts.get(s, 0) + 1
    sizes = [0] * k
    fold_of: dict[str, int] = {}
    for s in sorted(counts, key=lambda s: (-counts[s], s)):
        f = min(range(k), key=lambda i: (sizes[i], i))
        fold_of[s] = f
        sizes[f] += counts[s]
    return [fold_of[s] for s in sites]


def make_model(trees: int) -> Any:
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(
        max_iter=trees,
        learning_rate=0.1,
        max_leaf_nodes=31,
        min_samples_leaf=40,
        l2_regularization=1.0,
        early_stopping=False,
        random_state=SEED,
    )


def cross_validate(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    folds: int,
    fit: Callable[[Sequence[TrainPage], Sequence[np.ndarray]], list[np.ndarray]],
) -> list[np.ndarray]:
    """Held-out probabilities per page, each from the model of the fold without it.
    ``fit(train pages, test matrices)`` trains on the first and returns P(main) per
    line of each of the second."""
    mats = [page_matrix(r["features"], names) if r["lines"] else None for r in records]
    fold = folds_by_site([r["site"] for r in records], folds)
    probs: list[np.ndarray] = [np.zeros(len(r["lines"])) for r in records]
    for f in range(folds):
        train = []
        for i, r in enumerate(records):
            m = mats[i]
            if fold[i] != f and m is not None:
                train.append(TrainPage(m, np.asarray(r["labels"]), line_weights(m, names)))
        test = [(i, m) for i, m in enumerate(mats) if fold[i] == f and m is not None]
        held_out = fit(train, [m for _, m in test])
        for (i, _), prob in zip(test, held_out, strict=True):
            probs[i] = prob
        print(f"fold {f}: trained on {len(train)} pages", file=sys.stderr, flush=True)
    return probs


@dataclass(frozen=True, slots=True)
class TrainPage:
    """A training page: its line matrix, labels (1/0/-1) and line weights."""

    matrix: np.ndarray
    labels: np.ndarray
    weights: np.ndarray


def gbdt_fit(trees: int) -> Callable[[Sequence[TrainPage], Sequence[np.ndarray]], list[np.ndarray]]:
    """The gradient-boosted line classifier: every known label is a sample."""

    def fit(train: Sequence[TrainPage], test: Sequence[np.ndarray]) -> list[np.ndarray]:
        known = [p.labels != UNKNOWN for p in train]
        model = make_model(trees)
        model.fit(
            np.vstack([p.matrix[k] for p, k in zip(train, known, strict=True)]),
            np.concatenate([p.labels[k] == MAIN for p, k in zip(train, known, strict=True)]),
            sample_weight=np.concatenate([p.weights[k] for p, k in zip(train, known, strict=True)]),
        )
        return [model.predict_proba(m)[:, 1] for m in test]

    return fit


# --- the linear-chain CRF (python-crfsuite), the sequence model compared --------------------

CRF_BINS = 8


def bin_edges(mats: Sequence[np.ndarray]) -> np.ndarray:
    """Per column, the inner quantile edges of the training lines (CRFsuite weighs a
    real value linearly; bins let it learn a shape)."""
    allrows = np.vstack(mats)
    qs = np.linspace(0, 1, CRF_BINS + 1)[1:-1]
    return np.quantile(allrows, qs, axis=0).T  # (columns, CRF_BINS - 1)


def crf_items(m: np.ndarray, edges: np.ndarray) -> list[dict[str, float]]:
    """One feature dict per line: each column's bin, as a name."""
    bins = np.stack(
        [np.searchsorted(edges[c], m[:, c], side="right") for c in range(m.shape[1])], 1
    )
    return [{f"{c}:{b}": 1.0 for c, b in enumerate(row)} for row in bins.tolist()]


def crf_fit(train: Sequence[TrainPage], test: Sequence[np.ndarray]) -> list[np.ndarray]:
    """A linear-chain CRF over each page's lines, trained on the fully labelled pages
    (a snippet set's partial labels make no sequence); P(main) is the line's marginal."""
    import pycrfsuite

    full = [p for p in train if not (p.labels == UNKNOWN).any()]
    edges = bin_edges([p.matrix for p in full])
    trainer = pycrfsuite.Trainer(verbose=False)
    for p in full:
        trainer.append(crf_items(p.matrix, edges), ["1" if v == MAIN else "0" for v in p.labels])
    trainer.set_params(
        {"c1": 0.05, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True}
    )
    with tempfile.TemporaryDirectory() as workdir:
        model = str(Path(workdir) / "crf.model")
        trainer.train(model)
        tagger = pycrfsuite.Tagger()
        tagger.open(model)
        out = []
        for m in test:
            tagger.set(crf_items(m, edges))
            out.append(np.array([tagger.marginal("1", i) for i in range(m.shape[0])]))
        tagger.close()
    return out


def chosen_text(
    record: dict[str, Any], prob: np.ndarray, threshold: float, margin: float = 0.0
) -> str:
    """The page's text: lines of P(main) >= ``threshold``; with a ``margin``, the
    rules' choice stands unless the model disagrees by more than it (a rule-chosen
    line goes below ``threshold - margin``, another comes above ``threshold + margin``)."""
    rules = NAMES.index("rules")
    return "\n".join(
        t
        for t, p, row in zip(record["lines"], prob, record["features"], strict=True)
        if p >= (threshold - margin if row[rules] else threshold + margin)
    )


def report(
    records: Sequence[dict[str, Any]],
    probs: Sequence[np.ndarray],
    threshold: float,
    margin: float = 0.0,
) -> str:
    """Rules against the held-out model, per set (and WCXB page type)."""
    out = [f"{'set':<24}{'pages':>6}{'rules':>8}{'model':>8}{'delta':>8}"]
    for set_name in dict.fromkeys(r["set"] for r in records):
        idx = [i for i, r in enumerate(records) if r["set"] == set_name]
        truths = [record_truth(records[i]) for i in idx]
        rules = score_set(set_name, truths, [records[i]["rules_text"] for i in idx])
        model = score_set(
            set_name, truths, [chosen_text(records[i], probs[i], threshold, margin) for i in idx]
        )
        for key in ["main", *sorted(k for k in rules if k != "main")]:
            label = set_name if key == "main" else f"  {key}"
            n = len(idx) if key == "main" else ""
            out.append(
                f"{label:<24}{n:>6}{rules[key]:>8.3f}{model[key]:>8.3f}"
                f"{model[key] - rules[key]:>+8.3f}"
            )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learn", description=__doc__)
    parser.add_argument("--lines", type=Path, default=DEFAULT_OUT, help="benchmarks.labels --out")
    parser.add_argument("--sets", default=",".join(DEV_SETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--trees", type=int, default=200)
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--model", choices=("gbdt", "crf"), default="gbdt")
    parser.add_argument(
        "--margins", default="0", help="comma-separated rule margins to report (chosen_text)"
    )
    parser.add_argument("--save-probs", type=Path, help="write the held-out P(main) (.npz)")
    parser.add_argument("--load-probs", type=Path, help="score these, train nothing")
    args = parser.parse_args(argv)
    names = json.loads((args.lines / "features.json").read_text())
    records = load(args.lines, args.sets.split(","))
    keys = [f"{r['set']}/{r['id']}" for r in records]
    if args.load_probs:
        saved = np.load(args.load_probs)
        probs = [saved[key] for key in keys]
    else:
        fit = gbdt_fit(args.trees) if args.model == "gbdt" else crf_fit
        probs = cross_validate(records, names, args.folds, fit)
    if args.save_probs:
        np.savez_compressed(args.save_probs, **dict(zip(keys, probs, strict=True)))
    for margin in (float(m) for m in args.margins.split(",")):
        print(f"threshold {args.threshold}, rules margin {margin}")
        print(report(records, probs, args.threshold, margin))
    return 0


if __name__ == "__main__":
    sys.exit(main())
