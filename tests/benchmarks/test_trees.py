"""Trees as nested tuples (benchmarks/trees.py): the pure-Python evaluator a shipped
labeller would need, checked on a tree we write and against LightGBM itself."""

from __future__ import annotations

import math

import pytest

from benchmarks.trees import probability, score, tree_of, trees_of

# x0 <= 1.5 ? (x1 <= 0.0 ? -1 : 2) : 3
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


def test_a_dumped_tree_becomes_nested_tuples_and_sums_its_leaves() -> None:
    tree = tree_of(_NODE)
    assert tree == (0, 1.5, (1, 0.0, -1.0, 2.0), 3.0)
    trees = trees_of(
        {"tree_info": [{"tree_structure": _NODE}, {"tree_structure": {"leaf_value": 0.5}}]}
    )
    assert score(trees, [1.5, 0.0]) == -0.5  # a value equal to the threshold goes left
    assert score(trees, [1.0, 0.1]) == 2.5
    assert score(trees, [2.0, -5.0]) == 3.5
    assert probability(trees, [1.5, 0.0]) == pytest.approx(1 / (1 + math.exp(0.5)))


def test_a_categorical_split_is_refused() -> None:
    with pytest.raises(ValueError, match="numeric features only"):
        tree_of({**_NODE, "decision_type": "=="})


def test_the_tuples_give_lightgbms_own_probabilities() -> None:
    np = pytest.importorskip("numpy", reason="the train extra")
    lgb = pytest.importorskip("lightgbm", reason="the train extra")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 4))
    y = (x[:, 0] + 0.5 * x[:, 2] > 0).astype(float)
    params = {"objective": "binary", "num_leaves": 7, "verbose": -1, "seed": 0, "num_threads": 1}
    booster = lgb.train(params, lgb.Dataset(x, y), num_boost_round=15)
    trees = trees_of(booster.dump_model())
    ours = [probability(trees, row) for row in x.tolist()]
    assert np.allclose(ours, booster.predict(x), atol=1e-9)
