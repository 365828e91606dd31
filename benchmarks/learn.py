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

Beyond one model at one threshold: ``--model lgbm`` (LightGBM: faster, and its
trees export to the core's nested lists, tree_json); ``--weigh-sets`` (the small
sets' pages weigh more, SET_WEIGHTS); ``--stack``, a second stage trained by the
same folds on the first stage's held-out probabilities of each line's
neighbours, block and page (stack_columns: the sequence smoothing); ``--nested``,
the rules margin and threshold chosen per fold (and per rules' page type) on the
other folds only (nested_choice), the way the model and the rules would be
combined; ``--cost N``, what an N-tree model costs per aeb page in pure Python;
``--bootstrap N``, with ``--nested``, each nested gain's interval over N
resamples of the sites (benchmarks.learn_bootstrap: is the gain above the noise?);
``--lgbm-params``, LightGBM's settings overridden. Other decision procedures over
saved probabilities (whole blocks, a page gate): benchmarks.learn_decide.

    python -m benchmarks.learn [--lines DIR] [--sets ...] [--folds 5] [--trees 200]
        [--model gbdt|lgbm|crf] [--weigh-sets] [--stack] [--nested [--bootstrap N]] [--cost N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.align import (
    CHAR_SETS,
    MAIN,
    SNIPPET_SETS,
    UNKNOWN,
    WORD_F1_SETS,
    score_set,
    word_f1,
)
from benchmarks.labels import DEFAULT_OUT, DEV_SETS, read_records, record_truth
from benchmarks.metrics import char_tokens, shingles, snippets_found, word_tokens
from scrapy_cx.extract.content._features import NAMES, line_matrix
from scrapy_cx.extract.content.learned import kept

SEED = 0


def page_matrix(features: Sequence[Sequence[float]], names: Sequence[str]) -> np.ndarray:
    """The page's rows with neighbour and window columns appended: the core's own
    computation (line_matrix), so the trees see in training what they see at run
    time. ``names`` must be the core's (a records folder of older features fails)."""
    if tuple(names) != NAMES:
        raise ValueError("the records' features are not the core's: run benchmarks.labels again")
    return np.asarray(list(line_matrix(features)), dtype=np.float32)


def _shifted(values: np.ndarray, off: int) -> np.ndarray:
    """``values`` read ``off`` lines away (-1 where there is no line)."""
    out = np.full_like(values, -1.0)
    n = len(values)
    if off < 0 and n > -off:
        out[-off:] = values[:off]
    elif off > 0 and n > off:
        out[:-off] = values[off:]
    return out


def _window_mean(values: np.ndarray, width: int) -> np.ndarray:
    """The mean of ``values`` over ``width`` lines each side of each line."""
    n = len(values)
    cum = np.concatenate([[0.0], np.cumsum(values)])
    idx = np.arange(n)
    lo, hi = np.maximum(idx - width, 0), np.minimum(idx + width + 1, n)
    return (cum[hi] - cum[lo]) / (hi - lo)


STACK_OFFSETS = (-5, -3, -2, -1, 1, 2, 3, 5)
STACK_WINDOWS = (2, 5, 10)
# p, offsets, windows, the weighted window, 3 blocks x 2 means, 3 page values, the rank
STACK_WIDTH = 1 + len(STACK_OFFSETS) + len(STACK_WINDOWS) + 1 + 6 + 3 + 1


def stack_columns(record: dict[str, Any], prob: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """A second stage's columns from the first stage's held-out P(main): the
    neighbours' (STACK_OFFSETS), window means, the mean over the line's block, its
    parent and grandparent (plain and by characters), the page's mean, maximum and
    share of characters above 0.5, and the line's rank. This is the sequence
    smoothing: a line learns from what the model thought of the lines around it."""
    p = np.asarray(prob, np.float64)
    n = len(p)
    if not n:  # a page without lines: no rows, as many columns
        return np.zeros((0, STACK_WIDTH), np.float32)
    length = np.expm1(np.asarray(record["features"], np.float64)[:, names.index("log_len")]) + 1
    cols = [p, *(_shifted(p, off) for off in STACK_OFFSETS)]
    cols += [_window_mean(p, w) for w in STACK_WINDOWS]
    cols.append(_window_mean(p * length, 5) / np.maximum(_window_mean(length, 5), 1e-9))
    cum = np.concatenate([[0.0], np.cumsum(p)])
    by_chars = np.concatenate([[0.0], np.cumsum(p * length)])
    chars = np.concatenate([[0.0], np.cumsum(length)])
    spans, parents = record["spans"], record["parents"]

    def span_means(b: int) -> tuple[float, float]:
        if not 0 <= b < len(spans):
            return -1.0, -1.0
        start, end = max(0, spans[b][0]), min(n, spans[b][1])
        if end <= start:
            return -1.0, -1.0
        mean = (cum[end] - cum[start]) / (end - start)
        return mean, (by_chars[end] - by_chars[start]) / max(chars[end] - chars[start], 1e-9)

    rows = []
    for b in record["blocks"]:
        parent = parents[b] if 0 <= b < len(parents) else -1
        grand = parents[parent] if 0 <= parent < len(parents) else -1
        rows.append((*span_means(b), *span_means(parent), *span_means(grand)))
    cols += list(np.asarray(rows, np.float64).reshape(n, 6).T)
    total = length.sum()
    for value in ((p * length).sum() / total, p.max(), length[p >= 0.5].sum() / total):
        cols.append(np.full(n, value))
    cols.append(np.argsort(np.argsort(-p, kind="stable"), kind="stable") / n)
    return np.vstack(cols).T.astype(np.float32)


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


# Set weights for --weigh-sets: a page of a small set of clean articles weighs more,
# so the 999 wcxb_dev and 493 trafilatura_dev pages do not drown aeb, readability,
# newspaper4k and cwce_zh_dev (whose figures the rules hold and the model must not lose).
SET_WEIGHTS = {"aeb": 2.0, "readability": 2.5, "newspaper4k": 4.0, "cwce_zh_dev": 4.0}


def cross_validate(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    folds: int,
    fit: Callable[[Sequence[TrainPage], Sequence[np.ndarray]], list[np.ndarray]],
    set_weights: Mapping[str, float] | None = None,
    extra: Sequence[np.ndarray] | None = None,
) -> list[np.ndarray]:
    """Held-out probabilities per page, each from the model of the fold without it.
    ``fit(train pages, test matrices)`` trains on the first and returns P(main) per
    line of each of the second. A page weighs ``set_weights[its set]`` (default 1);
    ``extra`` holds more columns per page (a second stage's, :func:`stack_columns`)."""
    mats = [page_matrix(r["features"], names) if r["lines"] else None for r in records]
    if extra is not None:
        mats = [None if m is None else np.hstack([m, e]) for m, e in zip(mats, extra, strict=True)]
    fold = folds_by_site([r["site"] for r in records], folds)
    probs: list[np.ndarray] = [np.zeros(len(r["lines"])) for r in records]
    for f in range(folds):
        train = []
        for i, r in enumerate(records):
            m = mats[i]
            if fold[i] != f and m is not None:
                train.append(train_page(r, m, names, set_weights))
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


def train_page(
    record: dict[str, Any],
    matrix: np.ndarray,
    names: Sequence[str],
    set_weights: Mapping[str, float] | None = None,
) -> TrainPage:
    """A page to train on: its ``matrix`` (page_matrix's, maybe with more columns), its
    labels, and its lines' weights (line_weights) times its set's (``set_weights``,
    default 1): the folds' models and the shipped one (benchmarks.train) alike."""
    weight = (set_weights or {}).get(record["set"], 1.0)
    return TrainPage(matrix, np.asarray(record["labels"]), line_weights(matrix, names) * weight)


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


LGBM_PARAMS = {
    "objective": "binary",
    "learning_rate": 0.1,
    "num_leaves": 31,
    "min_data_in_leaf": 40,
    "lambda_l2": 1.0,
    "feature_fraction": 0.8,
    "max_bin": 63,
    "num_threads": 2,
    "seed": SEED,
    "deterministic": True,
    "force_row_wise": True,
    "verbose": -1,
}


def lgbm_train(train: Sequence[TrainPage], trees: int, **params: Any) -> Any:
    """A LightGBM booster on every known label of ``train`` (its trees export to
    the core's nested lists, :func:`tree_json`, as the shipped model's do)."""
    import lightgbm

    known = [p.labels != UNKNOWN for p in train]
    data = lightgbm.Dataset(
        np.vstack([p.matrix[k] for p, k in zip(train, known, strict=True)]),
        np.concatenate([p.labels[k] == MAIN for p, k in zip(train, known, strict=True)]),
        weight=np.concatenate([p.weights[k] for p, k in zip(train, known, strict=True)]),
    )
    return lightgbm.train({**LGBM_PARAMS, **params}, data, num_boost_round=trees)


def tree_json(node: dict[str, Any]) -> Any:
    """A LightGBM dump node as the core's nested lists (scrapy_cx/extract/content/_trees.py)."""
    if "leaf_value" in node:
        return float(node["leaf_value"])
    if node.get("decision_type", "<=") != "<=" or node.get("missing_type") == "Zero":
        raise ValueError(f"unsupported split {node.get('decision_type')!r}")
    return [
        int(node["split_feature"]),
        float(node["threshold"]),
        tree_json(node["left_child"]),
        tree_json(node["right_child"]),
    ]


def lgbm_fit(
    trees: int, **params: Any
) -> Callable[[Sequence[TrainPage], Sequence[np.ndarray]], list[np.ndarray]]:
    """The LightGBM line classifier (faster to train than gbdt_fit's, same kind);
    ``params`` override LGBM_PARAMS."""

    def fit(train: Sequence[TrainPage], test: Sequence[np.ndarray]) -> list[np.ndarray]:
        booster = lgbm_train(train, trees, **params)
        return [booster.predict(m) for m in test]

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
    line goes below ``threshold - margin``, another comes above ``threshold + margin``);
    a line the walk marked boilerplate never joins. The core's own decision
    (scrapy_cx.extract.content.learned.kept)."""
    rules, boilerplate = NAMES.index("rules"), NAMES.index("boilerplate")
    return "\n".join(
        t
        for t, p, row in zip(record["lines"], prob, record["features"], strict=True)
        if kept(p, bool(row[rules]), bool(row[boilerplate]), threshold, margin)
    )


# The grid a rules margin and threshold are chosen from (nested_choice).
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8)
MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
GRID = [(t, m) for t in THRESHOLDS for m in MARGINS]
RULE_TYPES = ("article", "thread", "listing", "other")


def page_scorer(record: dict[str, Any]) -> Callable[[str], float | None]:
    """One page's figure for a text, in its set's metric, as a page's share of a
    mean: word F1 (WCXB), 4-gram F1 (AEB's grams; characters for Chinese), the mean
    of found and absent snippet shares; None where the page has no truth. What
    nested_choice maximises (the truth's grams made once); the reported figures
    stay score_set's."""
    truth = record_truth(record)
    musts, nots = truth.with_snippets, truth.without_snippets
    body = truth.body
    if record["set"] in SNIPPET_SETS:

        def snippets(text: str) -> float | None:
            parts = [snippets_found(text, musts) / len(musts)] if musts else []
            if nots:
                parts.append(1 - snippets_found(text, nots) / len(nots))
            return sum(parts) / len(parts) if parts else None

        return snippets
    if body is None:
        return lambda text: None
    if record["set"] in WORD_F1_SETS:
        return lambda text: word_f1(text, body)
    tokenize = char_tokens if record["set"] in CHAR_SETS else word_tokens
    true = shingles(tokenize(body))
    n_true = sum(true.values())

    def grams_f1(text: str) -> float:
        pred = shingles(tokenize(text))
        tp = sum((pred & true).values())
        return 2 * tp / (sum(pred.values()) + n_true) if tp else 0.0

    return grams_f1


def page_score(record: dict[str, Any], text: str) -> float | None:
    """:func:`page_scorer` for one text."""
    return page_scorer(record)(text)


def rules_type(record: dict[str, Any], names: Sequence[str]) -> str:
    """The page type the rules gave the page (a feature column of every line)."""
    row = record["features"][0] if record["features"] else None
    for kind in RULE_TYPES:
        if row is not None and row[names.index(f"type_{kind}")]:
            return kind
    return "other"


def score_table(
    records: Sequence[dict[str, Any]],
    probs: Sequence[np.ndarray],
    grid: Sequence[tuple[float, float]],
) -> tuple[np.ndarray, np.ndarray]:
    """page_scorer of each page's text at each grid point, and of the rules' text
    (NaN where the page has no truth)."""
    table = np.full((len(records), len(grid)), np.nan)
    rules = np.full(len(records), np.nan)
    for i, r in enumerate(records):
        scorer = page_scorer(r)
        seen: dict[str, float | None] = {}
        for c, (t, m) in enumerate(grid):
            text = chosen_text(r, probs[i], t, m)
            if text not in seen:
                seen[text] = scorer(text)
            table[i, c] = np.nan if seen[text] is None else seen[text]
        value = scorer(r["rules_text"])
        rules[i] = np.nan if value is None else value
    return table, rules


# guarded nested_choice: a set whose (training folds') figure falls more than
# GUARD_TOLERANCE below the rules' costs GUARD_PENALTY times the fall.
GUARD_TOLERANCE = 0.002
GUARD_PENALTY = 10.0


def guarded(per_set: np.ndarray, weights: np.ndarray) -> float:
    """The guarded objective of each set's mean gain: their sum by ``weights``, less
    GUARD_PENALTY times each set's fall beyond GUARD_TOLERANCE."""
    fall = np.maximum(0.0, -per_set - GUARD_TOLERANCE)
    return float(weights @ per_set - GUARD_PENALTY * fall.sum())


def fold_gains(
    records: Sequence[dict[str, Any]],
    tables: tuple[np.ndarray, np.ndarray],
    rows: np.ndarray,
    groups: np.ndarray,
) -> dict[str, np.ndarray]:
    """pick_points' gains: per group (``groups``, one per page, in sorted order: the
    guard's coordinate ascent depends on it), each set's mean gain over the rules at
    each point of score_table's ``tables``, over the pages of ``rows`` (a mask) that
    have a truth."""
    table, rules = tables
    gain = np.nan_to_num(table - rules[:, None])
    set_names = list(dict.fromkeys(r["set"] for r in records))
    set_of = np.array([set_names.index(r["set"]) for r in records])
    rows_known = rows & ~np.isnan(rules)
    sizes = np.bincount(set_of[rows_known], minlength=len(set_names)).clip(min=1)
    out = {}
    for g in sorted(set(groups.tolist())):
        picked = rows_known & (groups == g)
        per_set = np.zeros((len(set_names), table.shape[1]))
        np.add.at(per_set, set_of[picked], gain[picked])
        out[str(g)] = per_set / sizes[:, None]
    return out


def focus_weights(records: Sequence[dict[str, Any]], focus: str) -> np.ndarray:
    """pick_points' set weights (the sets in their order in ``records``): only
    ``focus``'s gain counts, the others are only guarded."""
    return np.array([float(s == focus) for s in dict.fromkeys(r["set"] for r in records)])


def pick_points(
    gains: Mapping[str, np.ndarray],
    guard: bool,
    start: int,
    keep: Collection[str] = (),
    weights: np.ndarray | None = None,
) -> dict[str, int]:
    """A grid point per group maximising the summed gain over sets (``gains[group]``:
    sets x grid, each set's mean gain over the rules); ``guard`` penalises a set's
    fall beyond the tolerance, which couples the groups: coordinate ascent from the
    unguarded choice. The groups in ``keep`` stay at ``start``, the rules' own point
    (their pages would never run the model). ``weights``: each set's share of the
    sum (default: all one; a set weighing 0 is only guarded)."""
    some = next(iter(gains.values()))
    w = np.ones(some.shape[0]) if weights is None else weights
    choice = {g: start if g in keep else int(np.argmax(w @ v)) for g, v in gains.items()}
    if not guard:
        return choice

    def objective(pick: Mapping[str, int]) -> float:
        return guarded(sum(gains[g][:, c] for g, c in pick.items()), w)

    for _ in range(3):
        for g, v in gains.items():
            if g in keep:
                continue
            scores = [objective({**choice, g: c}) for c in range(v.shape[1])]
            choice[g] = int(np.argmax(scores))
    return choice


def nested_choice(
    records: Sequence[dict[str, Any]],
    probs: Sequence[np.ndarray],
    folds: int,
    names: Sequence[str],
    by_type: bool = True,
    guard: bool = False,
    tables: tuple[np.ndarray, np.ndarray] | None = None,
    keep: Collection[str] = (),
    focus: str | None = None,
) -> tuple[list[tuple[float, float]], list[str]]:
    """A (threshold, margin) per page, chosen without its fold: for each fold and
    each rules' page type (``by_type``), the grid point that maximises the macro
    over sets of page_scorer's gain over the rules on the other folds' pages
    (``guard``: no set may fall, :func:`pick_points`). Those pages' probabilities are
    held out too, but came from models that saw this fold: the choice never reads
    this fold's scores, which is what keeps the figure honest. Returns the
    choices and one line per pick. ``tables``: score_table's, made once for many
    calls; ``keep``: rules' page types left to the rules; ``focus``: the one set whose
    gain is sought, the others only guarded."""
    tables = tables or score_table(records, probs, GRID)
    fold = np.array(folds_by_site([r["site"] for r in records], folds))
    groups = np.array([rules_type(r, names) if by_type else "all" for r in records])
    weights = None if focus is None else focus_weights(records, focus)
    choice: list[tuple[float, float]] = [(0.5, 0.0)] * len(records)
    picks = []
    for f in range(folds):
        gains = fold_gains(records, tables, fold != f, groups)
        picked = pick_points(gains, guard, GRID.index((0.5, 0.5)), keep, weights)
        for g, c in picked.items():
            picks.append(f"fold {f} {g}: threshold {GRID[c][0]} margin {GRID[c][1]}")
            for i in np.flatnonzero((fold == f) & (groups == g)):
                choice[i] = GRID[c]
    return choice, picks


def final_pick(
    records: Sequence[dict[str, Any]],
    tables: tuple[np.ndarray, np.ndarray],
    names: Sequence[str],
    keep: Collection[str] = (),
    focus: str | None = None,
) -> dict[str, tuple[float, float]]:
    """The (threshold, margin) per rules' page type that would ship: nested_choice's
    guarded pick made once on every page (its nested figures say what it is worth)."""
    groups = np.array([rules_type(r, names) for r in records])
    gains = fold_gains(records, tables, np.ones(len(records), bool), groups)
    weights = None if focus is None else focus_weights(records, focus)
    pick = pick_points(gains, True, GRID.index((0.5, 0.5)), keep, weights)
    return {g: GRID[c] for g, c in sorted(pick.items())}


def report(
    records: Sequence[dict[str, Any]],
    probs: Sequence[np.ndarray],
    threshold: float,
    margin: float = 0.0,
    choices: Sequence[tuple[float, float]] | None = None,
) -> str:
    """Rules against the held-out model, per set (and WCXB page type), and the macro
    over sets; ``choices`` (nested_choice) replaces threshold and margin per page."""
    per_page = choices or [(threshold, margin)] * len(records)
    macro: list[tuple[float, float]] = []
    out = [f"{'set':<24}{'pages':>6}{'rules':>8}{'model':>8}{'delta':>8}"]
    for set_name in dict.fromkeys(r["set"] for r in records):
        idx = [i for i, r in enumerate(records) if r["set"] == set_name]
        truths = [record_truth(records[i]) for i in idx]
        rules = score_set(set_name, truths, [records[i]["rules_text"] for i in idx])
        model = score_set(
            set_name, truths, [chosen_text(records[i], probs[i], *per_page[i]) for i in idx]
        )
        macro.append((rules["main"], model["main"]))
        for key in ["main", *sorted(k for k in rules if k != "main")]:
            label = set_name if key == "main" else f"  {key}"
            n = len(idx) if key == "main" else ""
            out.append(
                f"{label:<24}{n:>6}{rules[key]:>8.3f}{model[key]:>8.3f}"
                f"{model[key] - rules[key]:>+8.3f}"
            )
    rules_macro = sum(r for r, _ in macro) / len(macro)
    model_macro = sum(m for _, m in macro) / len(macro)
    gain = model_macro - rules_macro
    out.append(f"{'macro':<30}{rules_macro:>8.3f}{model_macro:>8.3f}{gain:>+8.3f}")
    return "\n".join(out)


def cost(lines_dir: Path, trees: int, bench: str | None = None) -> str:
    """What a ``trees``-tree labeller would cost per ``aeb`` page in pure Python, next
    to ``extract_article`` in the same loop: the features (the core's
    content/_features.py), the neighbour columns (the core's line_matrix, and a
    numpy array of them) and the trees (exported by tree_json, walked by the core's
    content/_trees.py) over every line. The model is trained on aeb's labelled lines:
    the cost depends on the trees' number and depth, not on what they learned."""
    import statistics
    import time

    import lightgbm

    from benchmarks.datasets import bench_dir, load_set
    from scrapy_cx.extract import extract_article, extract_page
    from scrapy_cx.extract.content._features import page_features
    from scrapy_cx.extract.content._trees import probability, tree_of

    names = json.loads((lines_dir / "features.json").read_text())
    records = [r for r in load(lines_dir, ["aeb"]) if r["lines"]]
    data = lightgbm.Dataset(
        np.vstack([page_matrix(r["features"], names) for r in records]),
        np.concatenate([np.asarray(r["labels"]) == MAIN for r in records]),
    )
    booster = lightgbm.train(LGBM_PARAMS, data, num_boost_round=trees)
    dumped = [tree_json(t["tree_structure"]) for t in booster.dump_model()["tree_info"]]
    model = [tree_of(t) for t in dumped]
    timings: dict[str, list[float]] = {"extract_article": [], "features": [], "columns": []}
    timings["trees"] = []
    lines = []
    for page in load_set(bench_dir(bench) / "aeb"):
        t0 = time.perf_counter()
        extract_article(page.html, page.url)
        t1 = time.perf_counter()
        extracted = extract_page(page.html, page.url, formats=())
        t15 = time.perf_counter()
        rows = page_features(extracted)
        t2 = time.perf_counter()
        matrix = page_matrix(rows, names).tolist() if rows else []
        t3 = time.perf_counter()
        for row in matrix:
            probability(model, row)
        t4 = time.perf_counter()
        lines.append(len(rows))
        for key, spent in zip(timings, (t1 - t0, t2 - t15, t3 - t2, t4 - t3), strict=True):
            timings[key].append(spent * 1000)
    size = len(json.dumps(dumped))
    medians = ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in timings.items())
    return (
        f"{trees} trees ({size} bytes as JSON), median ms per aeb page: {medians}; "
        f"median lines {statistics.median(lines)}; "
        f"{sum(timings['trees']) / sum(lines) / trees * 1000:.2f} us per line and tree"
    )


def nested_bootstrap(
    records: Sequence[dict[str, Any]],
    tables: tuple[np.ndarray, np.ndarray],
    choices: Sequence[tuple[float, float]],
    draws: int,
) -> str:
    """The per-page gain over the rules of nested choices (page_scorer's, read from
    score_table's ``tables``), per set and wcxb_dev page type, with its interval
    over ``draws`` resamples of the sites (benchmarks.learn_bootstrap)."""
    from benchmarks.learn_bootstrap import bootstrap_report, gain_groups

    table, rules = tables
    gains = table[np.arange(len(records)), [GRID.index(c) for c in choices]] - rules
    sets, types = [r["set"] for r in records], [r["page_type"] for r in records]
    groups = gain_groups(sets, types, [r["site"] for r in records], gains)
    return f"gain per page, {draws} resamples of the sites\n" + bootstrap_report(groups, draws)


def lgbm_param(pair: str) -> tuple[str, int | float | str]:
    """``name=value`` as LightGBM reads it: an int, else a float, else the text."""
    name, _, text = pair.partition("=")
    for kind in (int, float):
        try:
            return name.strip(), kind(text)
        except ValueError:
            pass
    return name.strip(), text.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learn", description=__doc__)
    parser.add_argument("--lines", type=Path, default=DEFAULT_OUT, help="benchmarks.labels --out")
    parser.add_argument("--sets", default=",".join(DEV_SETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--trees", type=int, default=200)
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--model", choices=("gbdt", "lgbm", "crf"), default="gbdt")
    parser.add_argument(
        "--margins", default="0", help="comma-separated rule margins to report (chosen_text)"
    )
    parser.add_argument("--weigh-sets", action="store_true", help="pages weigh SET_WEIGHTS")
    parser.add_argument(
        "--stack", action="store_true", help="a second stage on the first's held-out P (lgbm)"
    )
    parser.add_argument(
        "--nested", action="store_true", help="also threshold and margin by nested_choice"
    )
    parser.add_argument(
        "--bootstrap", type=int, default=0, help="with --nested: site resamples of each gain"
    )
    parser.add_argument(
        "--lgbm-params", default="", help="LGBM_PARAMS overrides, e.g. num_leaves=15,num_threads=1"
    )
    parser.add_argument("--cost", type=int, help="time an N-tree model per aeb page, then stop")
    parser.add_argument("--save-probs", type=Path, help="write the held-out P(main) (.npz)")
    parser.add_argument("--load-probs", type=Path, help="the first stage's P: train nothing for it")
    args = parser.parse_args(argv)
    if args.cost:
        print(cost(args.lines, args.cost))
        return 0
    names = json.loads((args.lines / "features.json").read_text())
    records = load(args.lines, args.sets.split(","))
    keys = [f"{r['set']}/{r['id']}" for r in records]
    weights = SET_WEIGHTS if args.weigh_sets else None
    params = dict(lgbm_param(kv) for kv in args.lgbm_params.split(",") if kv)
    fits = {"gbdt": gbdt_fit(args.trees), "lgbm": lgbm_fit(args.trees, **params), "crf": crf_fit}
    fit = fits[args.model]
    if args.load_probs:
        saved = np.load(args.load_probs)
        probs = [saved[key] for key in keys]
    else:
        probs = cross_validate(records, names, args.folds, fit, weights)
    if args.stack:
        extra = [stack_columns(r, p, names) for r, p in zip(records, probs, strict=True)]
        print("first stage, threshold 0.5")
        print(report(records, probs, 0.5))
        probs = cross_validate(records, names, args.folds, lgbm_fit(args.trees), weights, extra)
    if args.save_probs:
        np.savez_compressed(args.save_probs, **dict(zip(keys, probs, strict=True)))
    for margin in (float(m) for m in args.margins.split(",")):
        print(f"threshold {args.threshold}, rules margin {margin}")
        print(report(records, probs, args.threshold, margin))
    if args.nested:
        tables = score_table(records, probs, GRID)
        variants: list[tuple[bool, bool, tuple[str, ...], str | None]] = [
            (False, False, (), None),
            (True, False, (), None),
            (True, True, (), None),
            (True, True, ("article",), None),
            (True, True, (), "wcxb_dev"),
            (True, True, ("article",), "wcxb_dev"),
        ]
        for by_type, guard, keep, focus in variants:
            choices, picks = nested_choice(
                records, probs, args.folds, names, by_type, guard, tables, keep, focus
            )
            print("\n".join(picks), file=sys.stderr)
            how = "per rules type" if by_type else "one for all"
            how += ", guarded" if guard else ""
            how += f", the rules alone on {'/'.join(keep)} pages" if keep else ""
            how += f", for {focus}'s gain" if focus else ""
            print(f"threshold and margin by nested choice, {how}")
            print(report(records, probs, 0.5, choices=choices))
            if args.bootstrap:
                print(nested_bootstrap(records, tables, choices, args.bootstrap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
