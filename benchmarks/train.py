"""Train the shipped line labeller, ``scrapy_cx/extract/content/labeller.json`` (issue 38).

One deterministic command from the bench (no page or text of it enters the
repository, only the trees and two numbers per page type):

1. the labelled lines of every dev set (benchmarks.labels; ``--lines DIR`` reuses
   a folder it wrote);
2. each page's held-out P(main) by 5-fold cross-validation grouped by site
   (benchmarks.learn; ``--load-probs`` reuses ``learn --save-probs``);
3. the cut-offs, a (threshold, rules margin) per rules' page type, chosen on
   those held-out probabilities for wcxb_dev's gain with no set allowed to fall,
   article pages left to the rules; printed first as the nested figure (each
   fold's cut-offs chosen without it): the only figure that may be quoted;
4. the model trained on every page, written with its cut-offs.

    python -m benchmarks.train [--bench DIR] [--lines DIR] [--load-probs P.npz]
        [--trees 50] [--out scrapy_cx/extract/content/labeller.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import labels, learn
from scrapy_cx.extract.content import _trees, learned
from scrapy_cx.extract.content._features import MATRIX_NAMES, NAMES

TREES = 50
KEEP = ("article", "thread")  # left to the rules (learned.py says why)
FOCUS = "wcxb_dev"  # the set whose gain the cut-offs seek; the others are guarded
# Where the training pages come from; their licences ask that the notice travel
# with the data, and the model is made from it.
SOURCES = {
    "wcxb_dev": "WCXB v1.0 dev split (Murrough Foley, 2026), CC-BY-4.0",
    "aeb": "Article Extraction Benchmark (Scrapinghub, 2020), MIT",
    "readability": "Mozilla Readability test pages, Apache-2.0",
    "newspaper4k": "newspaper4k test pages, MIT",
    "cwce_zh_dev": "Chinese-Web-Content-Extraction-Dataset (immortal-autumn), MIT",
    "trafilatura_dev": "trafilatura evaluation set, half (Adrien Barbaresi), Apache-2.0",
}


def cutoffs(
    records: Sequence[dict[str, Any]], probs: Sequence[np.ndarray]
) -> tuple[dict[str, tuple[float, float]], str]:
    """The cut-offs chosen on every page's held-out P(main) (learn.final_pick: the
    pick learn.nested_choice makes per fold), and the nested report of the same choice."""
    tables = learn.score_table(records, probs, learn.GRID)
    choices, picks = learn.nested_choice(records, probs, 5, NAMES, True, True, tables, KEEP, FOCUS)
    nested = "\n".join(picks) + "\n" + learn.report(records, probs, 0.5, choices=choices)
    picked = learn.final_pick(records, tables, NAMES, KEEP, FOCUS)
    chosen = {g: tm for g, tm in picked.items() if g not in KEEP}
    return chosen, nested


def check(path: Path, booster: Any, train: Sequence[learn.TrainPage]) -> None:
    """The written trees, loaded and scored as the core scores them (compiled,
    _trees.compile_trees), must give LightGBM's own P(main): a wrong export, or trees
    too deep to compile, fail here, not in the crawl."""
    model = learned.labeller.__wrapped__(path)
    for page in train[:: max(1, len(train) // 50)]:
        mine = [_trees.logistic(model.score(row)) for row in page.matrix.tolist()]
        theirs = booster.predict(page.matrix)
        if np.max(np.abs(np.asarray(mine) - theirs)) > 1e-9:
            raise SystemExit(f"{path}: the exported trees disagree with LightGBM's")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.train", description=__doc__)
    parser.add_argument("--bench", help="bench dir (default: ../shared/bench)")
    parser.add_argument("--lines", type=Path, help="benchmarks.labels --out (default: write one)")
    parser.add_argument("--load-probs", type=Path, help="learn --save-probs of the same lines")
    parser.add_argument("--trees", type=int, default=TREES)
    parser.add_argument("--out", type=Path, default=learned.MODEL)
    args = parser.parse_args(argv)
    sets = list(labels.DEV_SETS)
    lines = args.lines or labels.DEFAULT_OUT
    if args.lines is None:
        labels.main(
            ["--out", str(lines), "--sets", ",".join(sets)]
            + (["--bench", args.bench] if args.bench else [])
        )
    records = learn.load(lines, sets)
    if args.load_probs:
        saved = np.load(args.load_probs)
        probs = [saved[f"{r['set']}/{r['id']}"] for r in records]
    else:
        fit = learn.lgbm_fit(args.trees)
        probs = learn.cross_validate(records, NAMES, 5, fit, learn.SET_WEIGHTS)
    chosen, nested = cutoffs(records, probs)
    print("cut-offs chosen per fold without it (the cross-validated figure):")
    print(nested)
    train = [
        learn.train_page(r, learn.page_matrix(r["features"], NAMES), NAMES, learn.SET_WEIGHTS)
        for r in records
        if r["lines"]
    ]
    booster = learn.lgbm_train(train, args.trees)
    model = {
        "about": "scrapy-cx's learned line labeller: python -m benchmarks.train (issue 38)",
        "trained_on": {
            s: f"{sum(r['set'] == s for r in records)} pages of {SOURCES[s]}" for s in sets
        },
        "features": list(MATRIX_NAMES),
        "cutoffs": {g: list(tm) for g, tm in sorted(chosen.items())},
        "trees": [learn.tree_json(t["tree_structure"]) for t in booster.dump_model()["tree_info"]],
    }
    args.out.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    check(args.out, booster, train)
    print(f"cut-offs {chosen}; {args.trees} trees -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
