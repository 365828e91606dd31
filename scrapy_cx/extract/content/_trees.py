"""Boosted trees walked in plain Python: the learned labeller's model at run time.

The core imports neither numpy nor LightGBM: the trees are exported once
(benchmarks.train, from LightGBM's public ``dump_model()``) as nested lists in a
JSON file shipped with the package. A tree is a leaf value or
``[feature, threshold, left, right]``: go left when ``row[feature] <= threshold``,
LightGBM's own rule for numeric splits. P(main) is the logistic of the leaves' sum.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

Tree = float | tuple[int, float, "Tree", "Tree"]
Scorer = Callable[[Sequence[float]], float]


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
    return logistic(total)


def logistic(total: float) -> float:
    """P(main) of the leaves' sum."""
    if total < -700:  # math.exp overflows past ~709
        return 0.0
    return 1.0 / (1.0 + math.exp(-total))


def compile_trees(trees: Sequence[Tree]) -> Scorer:
    """The leaves' sum of ``trees`` for a row, as one Python function of nested ``if``s
    made once per model: the same comparisons and the same additions in the same
    order as :func:`probability`'s (so the same float), twice as fast as walking
    the tuples (the labeller scores every line of a listing, 50 trees deep 10).
    Compiling the shipped model costs ~30 ms once per process, what scoring ~10
    listings saves. Thresholds and leaves are written as their ``repr``, which
    reads back the same float."""
    code = ["def score(row):", " total = 0.0"]
    for tree in trees:
        _write(tree, 1, code)
    code.append(" return total")
    scope: dict[str, Any] = {}
    exec(compile("\n".join(code), "<labeller trees>", "exec"), scope)  # noqa: S102
    score: Scorer = scope["score"]
    return score


def _write(node: Tree, depth: int, code: list[str]) -> None:
    pad = " " * depth
    if type(node) is tuple:
        feature, threshold, left, right = node
        if not math.isfinite(threshold):
            raise ValueError(f"a tree's threshold is not finite: {threshold!r}")
        code.append(f"{pad}if row[{int(feature)}] <= {float(threshold)!r}:")
        _write(left, depth + 1, code)
        code.append(f"{pad}else:")
        _write(right, depth + 1, code)
    else:
        value = float(node)  # type: ignore[arg-type]
        if not math.isfinite(value):
            raise ValueError(f"a tree's leaf is not finite: {value!r}")
        code.append(f"{pad}total += {value!r}")
