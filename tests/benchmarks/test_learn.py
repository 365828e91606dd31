"""The cross-validated line labeller (benchmarks/learn.py) on pages we make up.

numpy, scikit-learn and python-crfsuite are the ``train`` extra, not the ``test``
one: without them these tests are skipped, and say so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="benchmarks.learn needs the train extra")

from benchmarks.learn import (  # noqa: E402 (after the skip)
    TrainPage,
    chosen_text,
    cross_validate,
    folds_by_site,
    line_weights,
    nested_choice,
    page_matrix,
    page_score,
    pick_points,
    report,
    rules_type,
    stack_columns,
    tree_json,
)
from scrapy_cx.extract.content._features import NAMES, NEIGHBOUR_COLUMNS, OFFSETS  # noqa: E402
from scrapy_cx.extract.content._trees import probability, tree_of  # noqa: E402

RULES = NAMES.index("rules")
LOG_LEN = NAMES.index("log_len")


def _page(site: str, pattern: list[int], page_id: str) -> dict[str, Any]:
    """A page whose main lines are long and chosen by the rules, the others short."""
    features = []
    for label in pattern:
        row = [0.0] * len(NAMES)
        row[RULES] = float(label)
        row[LOG_LEN] = 4.0 if label else 1.0
        features.append(row)
    words = {1: "the main text of the page goes here", 0: "menu"}
    lines = [f"{words[v]} {page_id} {i}" for i, v in enumerate(pattern)]
    body = "\n".join(t for t, v in zip(lines, pattern, strict=True) if v)
    return {
        "set": "wcxb_dev",
        "id": page_id,
        "site": site,
        "page_type": "article",
        "truth": {"body": body, "with": [], "without": []},
        "rules_text": body,
        "lines": lines,
        "labels": pattern,
        "features": features,
        # each line its own block, all under one page block (id 0)
        "blocks": [i + 1 for i in range(len(pattern))],
        "spans": [[0, len(pattern)], *([i, i + 1] for i in range(len(pattern)))],
        "parents": [-1, *(0 for _ in pattern)],
    }


def test_folds_keep_a_site_together_and_are_deterministic() -> None:
    sites = ["a.com"] * 5 + ["b.com"] * 3 + ["c.com"] * 3 + ["d.com"] * 2 + ["e.com"]
    folds = folds_by_site(sites, 3)
    assert folds == folds_by_site(sites, 3)
    for site in set(sites):
        assert len({f for s, f in zip(sites, folds, strict=True) if s == site}) == 1
    assert sorted(folds.count(f) for f in range(3)) == [4, 5, 5]


def test_page_matrix_adds_each_neighbours_columns() -> None:
    page = _page("a.com", [0, 1, 1, 0], "p")
    m = page_matrix(page["features"], NAMES)
    assert m.shape == (4, len(NAMES) + len(NEIGHBOUR_COLUMNS) * (len(OFFSETS) + 1))
    rules_col = NEIGHBOUR_COLUMNS.index("rules")
    before = len(NAMES) + OFFSETS.index(-1) * len(NEIGHBOUR_COLUMNS) + rules_col
    after = len(NAMES) + OFFSETS.index(1) * len(NEIGHBOUR_COLUMNS) + rules_col
    assert m[:, before].tolist() == [-1.0, 0.0, 1.0, 1.0]  # -1: no line there
    assert m[:, after].tolist() == [1.0, 1.0, 0.0, -1.0]


def test_line_weights_make_each_page_weigh_one() -> None:
    m = page_matrix(_page("a.com", [0, 1, 1, 0, 0], "p")["features"], NAMES)
    weights = line_weights(m, NAMES)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[1] > weights[0]  # a long line weighs more than a short one


def _records() -> list[dict[str, Any]]:
    patterns = [[0, 1, 1, 1, 0], [0, 0, 1, 1, 0, 0], [1, 1, 0], [0, 1, 1, 0, 1, 0]]
    return [_page(f"site{i % 7}.com", patterns[i % len(patterns)], f"p{i}") for i in range(28)]


def _oracle(train: Sequence[TrainPage], test: Sequence[Any]) -> list[Any]:
    """A stand-in fit that reads the rules' column: the held-out plumbing alone."""
    assert train and all(p.matrix.shape[0] == len(p.labels) for p in train)
    return [m[:, RULES] for m in test]


def test_cross_validation_scores_every_page_held_out() -> None:
    records = _records()
    probs = cross_validate(records, NAMES, 3, _oracle)
    assert [len(p) for p in probs] == [len(r["lines"]) for r in records]
    assert chosen_text(records[0], probs[0], 0.5) == records[0]["rules_text"]
    table = report(records, probs, 0.5)
    assert "wcxb_dev" in table and "+0.000" in table


@pytest.mark.parametrize("model", ["gbdt", "lgbm", "crf"])
def test_a_model_learns_the_rules_column_on_held_out_sites(model: str) -> None:
    from benchmarks import learn

    if model == "gbdt":
        pytest.importorskip("sklearn", reason="the train extra")
        fit = learn.gbdt_fit(20)
    elif model == "lgbm":
        pytest.importorskip("lightgbm", reason="the train extra")
        fit = learn.lgbm_fit(20, min_data_in_leaf=2, min_sum_hessian_in_leaf=0.0)
    else:
        pytest.importorskip("pycrfsuite", reason="the train extra")
        fit = learn.crf_fit
    records = _records()
    probs = cross_validate(records, NAMES, 3, fit)
    for record, prob in zip(records, probs, strict=True):
        assert ((prob >= 0.5) == np.asarray(record["labels"], dtype=bool)).all()


def test_a_rules_margin_keeps_the_rules_choice_unless_the_model_is_sure() -> None:
    record = _page("a.com", [1, 1, 0, 0], "p")
    prob = np.array([0.4, 0.1, 0.6, 0.9])
    lines = record["lines"]
    assert chosen_text(record, prob, 0.5) == "\n".join(lines[2:])
    assert chosen_text(record, prob, 0.5, margin=0.2) == "\n".join([lines[0], lines[3]])


def test_stack_columns_read_the_neighbours_blocks_and_page() -> None:
    record = _page("a.com", [0, 1, 1, 0], "p")
    prob = np.array([0.0, 1.0, 0.5, 0.25])
    cols = stack_columns(record, prob, NAMES)
    assert cols.shape[0] == 4
    assert cols[:, 0].tolist() == prob.tolist()
    assert cols[:, 4].tolist() == [-1.0, 0.0, 1.0, 0.5]  # the line above (offset -1)
    assert cols[:, 5].tolist() == [1.0, 0.5, 0.25, -1.0]  # the line below (offset +1)
    block = 1 + 8 + 3 + 1  # p, offsets, windows, the weighted window
    assert cols[:, block].tolist() == prob.tolist()  # each line is its own block
    assert cols[:, block + 2].tolist() == [0.4375] * 4  # the parent: the whole page
    assert cols[:, block + 4].tolist() == [-1.0] * 4  # no grandparent
    long, short = np.expm1(4.0) + 1, np.expm1(1.0) + 1  # the lines' characters
    share = 2 * long / (2 * long + 2 * short)  # of the page's, at 0.5 or more: the long two
    assert cols[:, -2] == pytest.approx([share] * 4)
    assert cols[:, -1].tolist() == [0.75, 0.0, 0.25, 0.5]  # rank, best first
    empty = {**record, "lines": [], "features": [], "blocks": [], "spans": [], "parents": []}
    assert stack_columns(empty, np.zeros(0), NAMES).shape == (0, cols.shape[1])


def test_page_score_uses_each_sets_metric() -> None:
    record = _page("a.com", [0, 1, 1, 0], "p")
    body = record["truth"]["body"]
    assert page_score(record, body) == 1.0
    assert page_score(record, "") == 0.0
    snippets = {**record, "set": "trafilatura_dev"}
    snippets["truth"] = {"body": None, "with": ["main text of"], "without": ["menu p 0"]}
    assert page_score(snippets, "menu p 0") == 0.0
    assert page_score(snippets, "the main text of the page") == 1.0
    assert page_score({**snippets, "truth": {"body": None, "with": [], "without": []}}, "x") is None


def test_rules_type_reads_the_page_type_column() -> None:
    record = _page("a.com", [0, 1], "p")
    assert rules_type(record, NAMES) == "other"
    for row in record["features"]:
        row[NAMES.index("type_thread")] = 1.0
    assert rules_type(record, NAMES) == "thread"


def test_nested_choice_picks_without_the_scored_fold() -> None:
    """Every page's model keeps the long lines only at a high threshold: a model
    sure of nothing but the menu lines. The choice must learn that from the other
    folds and apply it to each fold."""
    records = _records()
    probs = [np.where(np.asarray(r["labels"]) == 1, 0.62, 0.58) for r in records]
    choices, picks = nested_choice(records, probs, 3, NAMES, by_type=False)
    assert len(picks) == 3
    for record, prob, choice in zip(records, probs, choices, strict=True):
        assert chosen_text(record, prob, *choice) == record["rules_text"]
    table = report(records, probs, 0.5, choices=choices)
    assert "macro" in table and "+0.000" in table


def test_the_guard_keeps_a_set_from_falling_for_anothers_gain() -> None:
    # two groups, two sets, three grid points; point 0 is the rules' own
    gains = {
        "article": np.array([[0.0, 0.02, 0.05], [0.0, 0.0, -0.02]]),
        "thread": np.array([[0.0, 0.01, 0.0], [0.0, -0.001, 0.0]]),
    }
    assert pick_points(gains, guard=False, start=0) == {"article": 2, "thread": 1}
    # set 1 may fall 0.002 at most: the article pages take point 1, the threads still fit
    assert pick_points(gains, guard=True, start=0) == {"article": 1, "thread": 1}
    # pages typed "article" left to the rules: the threads alone may move
    assert pick_points(gains, guard=True, start=0, keep=("article",)) == {"article": 0, "thread": 1}
    # only set 0's gain sought: set 1 may fall to the tolerance, no further
    focus = np.array([1.0, 0.0])
    assert pick_points(gains, guard=True, start=0, weights=focus) == {"article": 1, "thread": 1}
    assert pick_points(gains, guard=False, start=0, weights=focus) == {"article": 2, "thread": 1}


def test_a_second_stage_reads_the_extra_columns_and_the_set_weights() -> None:
    records = _records()
    extra = [np.asarray(r["labels"], np.float32)[:, None] * 0.9 for r in records]
    seen: list[float] = []

    def last_column(train: Sequence[TrainPage], test: Sequence[Any]) -> list[Any]:
        seen.extend(p.weights.sum() for p in train)
        return [m[:, -1] for m in test]

    for r in records[::2]:
        r["set"] = "aeb"
    probs = cross_validate(records, NAMES, 3, last_column, {"aeb": 2.0}, extra)
    for record, prob in zip(records, probs, strict=True):
        assert prob.tolist() == pytest.approx([0.9 * v for v in record["labels"]])
    assert sorted(set(round(w, 6) for w in seen)) == [1.0, 2.0]  # a page weighs its set's weight


# x0 <= 1.5 ? (x1 <= 0.0 ? -1 : 2) : 3, as LightGBM's dump_model() writes it
_NODE = {
    "split_feature": 0,
    "threshold": 1.5,
    "decision_type": "<=",
    "left_child": {
        "split_feature": 1,
        "threshold": 0.0,
        "decision_type": "<=",
        "left_child": {"leaf_value": -1.0},
        "right_child": {"leaf_value": 2.0},
    },
    "right_child": {"leaf_value": 3.0},
}


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def test_a_dumped_tree_exports_to_the_cores_trees_and_sums_its_leaves() -> None:
    # (was tests/benchmarks/test_trees.py, of benchmarks/trees.py: the core's walker now)
    tree = tree_of(tree_json(_NODE))
    assert tree == (0, 1.5, (1, 0.0, -1.0, 2.0), 3.0)
    trees = [tree, tree_of(tree_json({"leaf_value": 0.5}))]
    assert probability(trees, [1.5, 0.0]) == pytest.approx(_logistic(-0.5))  # equal goes left
    assert probability(trees, [1.0, 0.1]) == pytest.approx(_logistic(2.5))
    assert probability(trees, [2.0, -5.0]) == pytest.approx(_logistic(3.5))


def test_a_categorical_split_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported split"):
        tree_json({**_NODE, "decision_type": "=="})
