"""Boosted trees walked in plain Python: the learned labeller's model at run time.

The core imports neither numpy nor LightGBM: the trees are exported once
(benchmarks.train, from LightGBM's public ``dump_model()``) as nested lists in a
JSON file shipped with the package. A tree is a leaf value or
``[feature, threshold, left, right]``: go left when ``row[feature] <= threshold``,
LightGBM's own rule for numeric splits. P(main) is the logistic of the leaves' sum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Tree = float | tuple[int, float, "Tree", "Tree"]


def tree_of(node: Any) -> Tree:
    """One tree of the JSON file (nested lists) as nested tuples (faster to walk)."""
    if isinstance(node, list):
        feature, threshold, left, right = node
        return (int(feature), float(threshold), tree_of(left), tree_of(right))
    return float(node)


def probability(trees: Sequence[Tree], row: Sequence[float]) -> float:
    """P(main) of one line's row."""
    total = 0.0
    for node in trees:
        while type(node) is tuple:
            node = node[2] if row[node[0]] <= node[1] else node[3]
        total += node  # type: ignore[operator]
    if total < -700:  # math.exp overflows past ~709
        return 0.0
    return 1.0 / (1.0 + math.exp(-total))
