"""Trees walked in plain Python (content/_trees.py): LightGBM's rule, left on <=."""

from __future__ import annotations

import math

import pytest

from scrapy_cx.extract.content._trees import probability, tree_of


def test_trees_walk_left_on_less_or_equal() -> None:
    tree = tree_of([0, 0.5, [1, 2.0, -1.0, 1.0], 2.0])
    assert probability([tree], [0.5, 2.0]) == pytest.approx(1 / (1 + math.e))
    assert probability([tree], [0.5, 2.5]) == pytest.approx(1 / (1 + math.e**-1))
    assert probability([tree, tree], [0.6, 0.0]) == pytest.approx(1 / (1 + math.e**-4))
    assert probability([-800.0], []) == 0.0  # no overflow
