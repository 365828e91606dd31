"""Decision procedures over the learned labeller's held-out P(main) (issue 38).

``benchmarks.learn`` writes each line's held-out probability (``--save-probs``)
and combines it with the rules line by line: per rules' page type, a threshold
and a rules margin chosen on the other folds (``nested_choice``; "the
combination" below: guarded, article pages left to the rules, chosen for
wcxb_dev's gain). This module measures other ways to decide from the same
probabilities, every figure nested the same way, and how much of each gain is
noise (``benchmarks.learn_bootstrap``, sites resampled):

- **block decisions** (``smooth``): each line's P replaced by
  ``alpha * P + (1 - alpha) * mean P`` of its block by characters, the block being
  the smallest of the line's block and its ancestors holding at least
  ``min_lines`` lines (alpha 0: whole blocks kept or dropped). The (min_lines,
  alpha) variant is chosen per fold on the other folds, with the threshold and
  margin (``nested_variants``);
- **a page gate** (``nested_gate``): per page, one text or another (the
  combination's or the model's alone), chosen by a logistic regression over
  page features (``gate_features``) trained on the other folds' pages.

    python -m benchmarks.learn_decide --lines /tmp/lines --load-probs P.npz [--bootstrap 2000]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.align import score_set
from benchmarks.labels import DEFAULT_OUT, DEV_SETS, record_truth
from benchmarks.learn import (
    GRID,
    RULE_TYPES,
    chosen_text,
    focus_weights,
    fold_gains,
    folds_by_site,
    guarded,
    load,
    page_scorer,
    pick_points,
    rules_type,
    score_table,
)
from benchmarks.learn import final_pick as learn_final_pick
from benchmarks.learn_bootstrap import bootstrap_report, gain_groups

# (min_lines, alpha) of the block variants tried; (1, 1.0) is the line itself.
VARIANTS = ((1, 1.0), (1, 0.0), (3, 0.5), (3, 0.0), (8, 0.5), (8, 0.0))
KEEP = ("article",)  # the combination's: rules' article pages stay the rules'
FOCUS = "wcxb_dev"  # the set whose gain is sought; the others are guarded


def _lengths(record: dict[str, Any], names: Sequence[str]) -> np.ndarray:
    """Each line's characters (the features hold log1p of the length)."""
    feats = np.asarray(record["features"], np.float64).reshape(len(record["lines"]), -1)
    return np.expm1(feats[:, names.index("log_len")]) + 1.0


def smooth(
    record: dict[str, Any], prob: np.ndarray, names: Sequence[str], min_lines: int, alpha: float
) -> np.ndarray:
    """Each line's P mixed with its block's mean P by characters (module doc): the
    block is the line's own, or its nearest ancestor of ``min_lines`` lines or more."""
    p = np.asarray(prob, np.float64)
    if alpha >= 1.0 or not len(p):
        return p
    length = _lengths(record, names)
    by_chars = np.concatenate([[0.0], np.cumsum(p * length)])
    chars = np.concatenate([[0.0], np.cumsum(length)])
    spans, parents = record["spans"], record["parents"]
    n = len(p)
    means: dict[int, float] = {}
    out = np.empty(n)
    for i, b in enumerate(record["blocks"]):
        if b not in means:
            a = b
            while spans[a][1] - spans[a][0] < min_lines and parents[a] >= 0:
                a = parents[a]
            start, end = max(0, spans[a][0]), min(n, spans[a][1])
            means[b] = (by_chars[end] - by_chars[start]) / max(chars[end] - chars[start], 1e-9)
        out[i] = alpha * p[i] + (1 - alpha) * means[b]
    return out


def _objective(gains: dict[str, np.ndarray], pick: dict[str, int], weights: np.ndarray) -> float:
    """pick_points' guarded objective of one pick."""
    return guarded(sum(gains[g][:, c] for g, c in pick.items()), weights)


def nested_variants(
    records: Sequence[dict[str, Any]],
    tables: Sequence[tuple[np.ndarray, np.ndarray]],
    folds: int,
    names: Sequence[str],
    by_type: bool = False,
    keep: Collection[str] = KEEP,
    focus: str = FOCUS,
) -> tuple[list[tuple[int, int]], list[str]]:
    """Per page, a (variant, grid point) chosen without its fold: for each fold, each
    variant's guarded per-type pick on the other folds (learn.pick_points, as the
    combination's), and the variant whose pick scores best there; ``by_type``: the
    variant chosen per rules' page type too (pick_points over every variant's grid
    at once). ``tables``: one score_table per variant. Returns the choices and one
    line per fold."""
    fold = np.array(folds_by_site([r["site"] for r in records], folds))
    groups = np.array([rules_type(r, names) for r in records])
    weights = focus_weights(records, focus)
    start = GRID.index((0.5, 0.5))
    choice = [(0, start)] * len(records)
    picks = []
    for f in range(folds):
        per_variant = [fold_gains(records, t, fold != f, groups) for t in tables]
        if by_type:  # one grid of every variant's points: column v * len(GRID) + c
            joined = {g: np.hstack([v[g] for v in per_variant]) for g in per_variant[0]}
            pick = pick_points(joined, True, start, keep, weights)
            value = _objective(joined, pick, weights)
            chosen = {g: divmod(c, len(GRID)) for g, c in pick.items()}
        else:
            found = []
            for v, gains in enumerate(per_variant):
                pick = pick_points(gains, True, start, keep, weights)
                found.append((_objective(gains, pick, weights), -v, pick))
            value, v, pick = max(found, key=lambda x: (x[0], x[1]))
            chosen = {g: (-v, c) for g, c in pick.items()}
        how = ", ".join(f"{g} {v}:{GRID[c]}" for g, (v, c) in sorted(chosen.items()))
        picks.append(f"fold {f} ({value:+.4f} on the other folds): {how}")
        for i in np.flatnonzero(fold == f):
            choice[i] = chosen[str(groups[i])]
    return choice, picks


def final_pick(
    records: Sequence[dict[str, Any]],
    table: tuple[np.ndarray, np.ndarray],
    names: Sequence[str],
    keep: Collection[str] = KEEP,
    focus: str = FOCUS,
) -> dict[str, tuple[float, float]]:
    """The (threshold, margin) per rules' page type the combination would ship
    (learn.final_pick with the combination's ``keep`` and ``focus``)."""
    return learn_final_pick(records, table, names, keep, focus)


GATE_NAMES = (
    *(f"type_{k}" for k in RULE_TYPES),
    "log_lines",
    "rules_chars",
    "model_chars",
    "mean_p",
    "max_p",
    "agree",
    "p_in_rules",
    "p_out_rules",
)


def gate_features(record: dict[str, Any], prob: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """A page's gate features (GATE_NAMES): the rules' page type, the lines' number,
    the shares of characters the rules and the model (P >= 0.5) keep, the mean P by
    characters and the maximum, the share of characters on which they agree, and
    the mean P (by characters) of the rules' lines and of the others."""
    out = np.zeros(len(GATE_NAMES))
    out[RULE_TYPES.index(rules_type(record, names))] = 1.0
    p = np.asarray(prob, np.float64)
    if not len(p):
        return out
    length = _lengths(record, names)
    total = length.sum()
    rules = np.asarray(record["features"], np.float64)[:, names.index("rules")] > 0
    model = p >= 0.5
    inside, outside = length[rules].sum(), length[~rules].sum()
    out[4:] = (
        np.log1p(len(p)),
        inside / total,
        length[model].sum() / total,
        (p * length).sum() / total,
        p.max(),
        length[model == rules].sum() / total,
        (p * length)[rules].sum() / inside if inside else -1.0,
        (p * length)[~rules].sum() / outside if outside else -1.0,
    )
    return out


# The gate's cut-offs: it takes the second text where its P is above the cut-off
# chosen on the other folds (1.01: never).
GATE_CUTS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
# The pairs of texts gated (the first, the second), by procedures' column names.
GATES = (("rules", "model 0.5"), ("combination", "model 0.5"), ("rules", "combination"))


def nested_gate(
    records: Sequence[dict[str, Any]],
    features: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    folds: int,
    focus: str = FOCUS,
) -> tuple[np.ndarray, list[str]]:
    """Per page, True where the gate takes the second text: a logistic regression on
    the other folds' pages (``features``: gate_features per page; ``first`` and
    ``second``: the two texts' page figures, NaN without truth), each page weighing
    the size of its gain either way, so the pages where the choice matters decide it.
    Its cut-off (GATE_CUTS) is the one whose gain on ``focus`` is best on those
    pages, a set falling there costing as learn.pick_points' guard makes it."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    fold = np.array(folds_by_site([r["site"] for r in records], folds))
    diff = np.nan_to_num(second - first)
    set_names = list(dict.fromkeys(r["set"] for r in records))
    set_of = np.array([set_names.index(r["set"]) for r in records])
    weights = focus_weights(records, focus)
    take = np.zeros(len(records), bool)
    picks = []
    for f in range(folds):
        train = (fold != f) & (diff != 0)
        if len(set((diff[train] > 0).tolist())) < 2:
            picks.append(f"fold {f}: one class only, the first text")
            continue
        gate = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=1000))
        gate.fit(
            features[train], diff[train] > 0, logisticregression__sample_weight=abs(diff[train])
        )
        others = fold != f
        sizes = np.bincount(set_of[others], minlength=len(set_names)).clip(min=1)
        p_others = gate.predict_proba(features[others])[:, 1]

        values = []
        for cut in GATE_CUTS:
            taken = diff[others] * (p_others > cut)
            per_set = np.bincount(set_of[others], weights=taken, minlength=len(set_names))
            values.append(guarded(per_set / sizes, weights))
        cut = GATE_CUTS[int(np.argmax(values))]
        rows = fold == f
        take[rows] = gate.predict_proba(features[rows])[:, 1] > cut
        coef = gate[-1].coef_[0]
        top = sorted(zip(GATE_NAMES, coef, strict=True), key=lambda x: -abs(x[1]))[:4]
        picks.append(f"fold {f}: cut {cut}; " + ", ".join(f"{n} {c:+.2f}" for n, c in top))
    return take, picks


def score_columns(records: Sequence[dict[str, Any]], columns: dict[str, list[str]]) -> str:
    """Each set's figure (score_set's), and wcxb_dev's per page type, for each named
    list of page texts, side by side; the macro over sets last."""
    width = max(10, *(len(c) + 2 for c in columns))
    out = [f"{'set':<24}{'pages':>6}" + "".join(f"{c:>{width}}" for c in columns)]
    macro = np.zeros(len(columns))
    set_names = list(dict.fromkeys(r["set"] for r in records))
    for set_name in set_names:
        idx = [i for i, r in enumerate(records) if r["set"] == set_name]
        truths = [record_truth(records[i]) for i in idx]
        figures = [
            score_set(set_name, truths, [texts[i] for i in idx]) for texts in columns.values()
        ]
        macro += [s["main"] for s in figures]
        for key in ["main", *sorted(k for k in figures[0] if k != "main")]:
            label = set_name if key == "main" else f"  {key}"
            n = len(idx) if key == "main" else ""
            out.append(f"{label:<24}{n:>6}" + "".join(f"{s[key]:>{width}.3f}" for s in figures))
    out.append(f"{'macro':<30}" + "".join(f"{m / len(set_names):>{width}.3f}" for m in macro))
    return "\n".join(out)


def page_figures(records: Sequence[dict[str, Any]], texts: Sequence[str]) -> np.ndarray:
    """page_scorer's figure of each page's text (NaN without truth)."""
    out = []
    for r, t in zip(records, texts, strict=True):
        value = page_scorer(r)(t)
        out.append(np.nan if value is None else value)
    return np.array(out)


def read_probs(spec: str, records: Sequence[dict[str, Any]]) -> list[np.ndarray]:
    """The saved held-out P per page of ``spec``: one learn.py --save-probs file, or
    several joined by "+", averaged (an ensemble of models trained apart: their
    seeds' noise averages out, at the cost of every model's trees)."""
    saved = [np.load(part) for part in spec.split("+")]
    keys = [f"{r['set']}/{r['id']}" for r in records]
    return [np.mean([np.asarray(s[k], np.float64) for s in saved], axis=0) for k in keys]


def procedures(
    records: Sequence[dict[str, Any]],
    probs: Sequence[np.ndarray],
    names: Sequence[str],
    folds: int,
    variants: Sequence[tuple[int, float]],
    gates: bool = True,
) -> dict[str, list[str]]:
    """Each procedure's text per page, every choice nested: the combination (the
    first variant, line by line), the block variants (if more than one) chosen per
    fold and per fold and type, the model alone at 0.5, and (``gates``) the page
    gate between each pair of GATES."""
    smoothed, tables = [], []
    for min_lines, alpha in variants:
        variant = [
            smooth(r, p, names, min_lines, alpha) for r, p in zip(records, probs, strict=True)
        ]
        smoothed.append(variant)
        tables.append(score_table(records, variant, GRID))
        print(f"variant ({min_lines}, {alpha}) scored", file=sys.stderr, flush=True)

    def texts_of(choice: Sequence[tuple[int, int]]) -> list[str]:
        return [
            chosen_text(r, smoothed[v][i], *GRID[c])
            for i, (r, (v, c)) in enumerate(zip(records, choice, strict=True))
        ]

    final = final_pick(records, tables[0], names)
    print("the combination on every page: " + ", ".join(f"{g} {tm}" for g, tm in final.items()))
    columns: dict[str, list[str]] = {"rules": [r["rules_text"] for r in records]}
    runs = [("combination", tables[:1], False)]
    if len(tables) > 1:
        runs += [("blocks", tables, False), ("blocks by type", tables, True)]
    for name, some, by_type in runs:
        choice, picks = nested_variants(records, some, folds, names, by_type)
        print(f"{name}:\n" + "\n".join(picks), file=sys.stderr)
        columns[name] = texts_of(choice)
    alone = [chosen_text(r, p, 0.5) for r, p in zip(records, probs, strict=True)]
    columns["model 0.5"] = alone
    if not gates:
        return columns
    gate_x = np.array([gate_features(r, p, names) for r, p in zip(records, probs, strict=True)])
    figures = {n: page_figures(records, columns[n]) for n in ("rules", "combination", "model 0.5")}
    for first, second in GATES:
        take, picks = nested_gate(records, gate_x, figures[first], figures[second], folds)
        print(f"gate {first}/{second}:\n" + "\n".join(picks), file=sys.stderr)
        pairs = zip(columns[second], columns[first], take, strict=True)
        columns[f"gate {first}/{second}"] = [a if t else b for a, b, t in pairs]
    return columns


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learn_decide", description=__doc__)
    parser.add_argument("--lines", type=Path, default=DEFAULT_OUT, help="benchmarks.labels --out")
    parser.add_argument("--sets", default=",".join(DEV_SETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument(
        "--load-probs", required=True, help="learn.py --save-probs (A.npz+B.npz: their mean)"
    )
    parser.add_argument("--bootstrap", type=int, default=0, help="site resamples (0: none)")
    parser.add_argument(
        "--variants", default=",".join(f"{n}:{a}" for n, a in VARIANTS), help="min_lines:alpha,..."
    )
    parser.add_argument("--no-gates", action="store_true", help="leave the page gates out")
    parser.add_argument(
        "--compare", default="", help="more --save-probs files: their combination, side by side"
    )
    args = parser.parse_args(argv)
    names = json.loads((args.lines / "features.json").read_text())
    records = load(args.lines, args.sets.split(","))
    probs = read_probs(args.load_probs, records)
    variants = [
        (int(n), float(a)) for n, _, a in (v.partition(":") for v in args.variants.split(","))
    ]
    columns = procedures(records, probs, names, args.folds, variants, not args.no_gates)
    for spec in (p for p in args.compare.split(",") if p):
        probs = read_probs(spec, records)
        other = procedures(records, probs, names, args.folds, variants[:1], gates=False)
        columns["comb. " + "+".join(Path(p).stem for p in spec.split("+"))] = other["combination"]
    print(score_columns(records, columns))
    if args.bootstrap:
        figures = {name: page_figures(records, texts) for name, texts in columns.items()}
        sets = [r["set"] for r in records]
        types = [r["page_type"] for r in records]
        sites = [r["site"] for r in records]
        pairs = [(n, "rules") for n in columns if n != "rules"]
        pairs += [(n, "combination") for n in columns if n not in ("rules", "combination")]
        for name, base in pairs:
            gains = figures[name] - figures[base]
            print(f"\n{name} minus {base}, per-page figure, {args.bootstrap} site resamples")
            print(bootstrap_report(gain_groups(sets, types, sites, gains), args.bootstrap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
