"""Boosted trees as plain nested tuples, evaluated in pure Python (issue 38).

The core may not import numpy, scikit-learn or LightGBM, so a shipped labeller
would have to walk its trees in plain Python. This module is that evaluator and
the export from a LightGBM booster's public ``dump_model()``: it is how
``python -m benchmarks.learn --cost`` measures what a model of a given size would
cost per page before anything is wired in.

A tree is a leaf value (a float) or ``(feature, threshold, left, right)``: go
left when ``row[feature] <= threshold``. A model's score is the sum of its trees'
leaves; P(main) its logistic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Tree = float | tuple[int, float, "Tree", "Tree"]


def tree_of(node: dict[str, Any]) -> Tree:
    """One node of ``dump_model()["tree_info"][i]["tree_structure"]`` as a :data:`Tree`."""
    if "leaf_value" in node:
        return float(node["leaf_value"])
    if node.get("decision_type", "<=") != "<=":
        raise ValueError(f"unsupported split {node['decision_type']!r}: numeric features only")
    return (
        int(node["split_feature"]),
        float(node["threshold"]),
        tree_of(node["left_child"]),
        tree_of(node["right_child"]),
    )


def trees_of(dumped: dict[str, Any]) -> list[Tree]:
    """Every tree of a dumped LightGBM model (``booster.dump_model()``)."""
    return [tree_of(info["tree_structure"]) for info in dumped["tree_info"]]


def score(trees: Sequence[Tree], row: Sequence[float]) -> float:
    """The summed leaves of ``trees`` for one feature row (the raw margin)."""
    total = 0.0
    for node in trees:
        while isinstance(node, tuple):
            node = node[2] if row[node[0]] <= node[1] else node[3]
        total += node
    return total


def probability(trees: Sequence[Tree], row: Sequence[float]) -> float:
    """P(main) of one row: the logistic of :func:`score`."""
    return 1.0 / (1.0 + math.exp(-score(trees, row)))
