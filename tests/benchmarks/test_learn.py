"""The cross-validated line labeller (benchmarks/learn.py) on pages we make up.

numpy, scikit-learn and python-crfsuite are the ``train`` extra, not the ``test``
one: without them these tests are skipped, and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="benchmarks.learn needs the train extra")

from benchmarks.learn import (  # noqa: E402 (after the skip)
    NEIGHBOUR_COLUMNS,
    OFFSETS,
    TrainPage,
    chosen_text,
    cross_validate,
    folds_by_site,
    line_weights,
    page_matrix,
    report,
)
from benchmarks.linefeatures import NAMES  # noqa: E402

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


@pytest.mark.parametrize("model", ["gbdt", "crf"])
def test_a_model_learns_the_rules_column_on_held_out_sites(model: str) -> None:
    from benchmarks import learn

    if model == "gbdt":
        pytest.importorskip("sklearn", reason="the train extra")
        fit = learn.gbdt_fit(20)
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
