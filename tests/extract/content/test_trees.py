"""Trees walked in plain Python (content/_trees.py): LightGBM's rule, left on <=."""

from __future__ import annotations

import math

import pytest

from scrapy_cx.extract.content._trees import compile_trees, logistic, probability, tree_of


def test_trees_walk_left_on_less_or_equal() -> None:
    tree = tree_of([0, 0.5, [1, 2.0, -1.0, 1.0], 2.0])
    assert probability([tree], [0.5, 2.0]) == pytest.approx(1 / (1 + math.e))
    assert probability([tree], [0.5, 2.5]) == pytest.approx(1 / (1 + math.e**-1))
    assert probability([tree, tree], [0.6, 0.0]) == pytest.approx(1 / (1 + math.e**-4))
    assert probability([-800.0], []) == 0.0  # no overflow


def test_compiled_trees_sum_the_same_leaves_as_the_walk() -> None:
    trees = [
        tree_of([0, 0.5, [1, 2.0, -1.0, 1.0], 2.0]),
        tree_of([1, -0.25, 0.125, [0, 0.1, -3.5, 0.3]]),
        0.75,
    ]
    score = compile_trees(trees)
    for row in ([0.5, 2.0], [0.6, 0.0], [0.0, -0.25], [0.05, -0.3], [0.7, 9.0]):
        assert logistic(score(row)) == probability(trees, row)
    assert score([0.6, 0.0]) == 2.0 + 0.3 + 0.75
    assert score([0.6, -0.5]) == 2.0 + 0.125 + 0.75


def test_trees_that_cannot_be_written_are_refused() -> None:
    with pytest.raises(ValueError, match="not finite"):
        compile_trees([tree_of([0, math.inf, 1.0, 2.0])])
