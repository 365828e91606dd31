"""The learned line labeller (issue 38): which of the walk's lines are main text,
decided by boosted trees trained on 1 863 labelled pages, where the rules decide
worse.

Every line gets P(main) from its features and its neighbours' (_features.py),
the rules' own choice among them. Cross-validated by site (benchmarks.train), the
model beats the hand-set selection on listings, product and service pages and
loses to it on articles; a thread's text is its posts (posts.py), which the model
does not know. So only pages the rules type listing or other run it (the model
file's cut-offs name them), and there a line the rules chose stays
unless P(main) falls below ``threshold - margin``, another joins when it rises
above ``threshold + margin`` and the walk did not mark it boilerplate (:func:`kept`),
threshold and margin per page type, chosen by the same cross-validation. The
model is ``labeller.json``, loaded once per process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from ..classify.pagetype import PAGE_TYPES
from ..page import Evidence, Page
from ._features import MATRIX_NAMES, inside, line_matrix, page_features
from ._trees import Scorer, Tree, compile_trees, logistic, tree_of

__all__ = ["Labeller", "kept", "label_lines", "labeller", "select_learned"]

MODEL = Path(__file__).with_name("labeller.json")


@dataclass(frozen=True, slots=True)
class Labeller:
    """A trained model: its trees and the cut-offs per rules' page type; a page
    type without a cut-off is left to the rules."""

    trees: tuple[Tree, ...]
    cutoffs: dict[str, tuple[float, float]]  # page type -> (threshold, margin)
    # The trees as one function (_trees.compile_trees), made with the model.
    score: Scorer = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "score", compile_trees(self.trees))

    def probabilities(self, page: Page) -> list[float]:
        """P(main) of each line of ``page.selection.lines``."""
        score = self.score
        return [logistic(score(row)) for row in line_matrix(page_features(page))]


@cache
def labeller(path: Path = MODEL) -> Labeller:
    """The model file, read once (a process's extractions share it: it is never changed)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != MATRIX_NAMES:
        raise ValueError(f"{path} was trained on other features: retrain it (benchmarks.train)")
    cutoffs = {kind: (float(t), float(m)) for kind, (t, m) in data["cutoffs"].items()}
    return Labeller(tuple(tree_of(tree) for tree in data["trees"]), cutoffs)


def select_learned(page: Page) -> None:
    """The stage: :func:`label_lines` with the shipped model, unless turned off
    (``LineOptions.learned``)."""
    if page.options.learned and page.selection.lines:
        label_lines(page, labeller())


def label_lines(page: Page, model: Labeller) -> None:
    """On a page ``model`` is used for, replace the body by the lines it keeps
    (module doc). The rules' regions stay, best first, and each run of lines the
    model adds outside them becomes one more."""
    kind = page.page_type if page.page_type in PAGE_TYPES else "other"
    if kind not in model.cutoffs:
        return
    threshold, margin = model.cutoffs[kind]
    sel = page.selection
    chosen = {id(line) for line in sel.body}
    probs = page.line_scores = tuple(model.probabilities(page))
    keep = [
        kept(p, id(line) in chosen, line.boilerplate, threshold, margin)
        for line, p in zip(sel.lines, probs, strict=True)
    ]
    body = tuple(line for line, k in zip(sel.lines, keep, strict=True) if k)
    for line in body:
        line.boilerplate = False
    covered = inside(sel.regions, len(keep))
    added = _runs([k and not c for k, c in zip(keep, covered, strict=True)])
    page.selection = replace(sel, body=body, regions=(*sel.regions, *added))
    page.evidence["content"] = Evidence(
        "learned",
        None,
        f"learned labeller ({kind}: kept P(main) >= {threshold - margin:.2f} of the rules' "
        f"lines, >= {threshold + margin:.2f} of the others)",
    )


def kept(p: float, rules: bool, boilerplate: bool, threshold: float, margin: float) -> bool:
    """One line's fate: a line the rules chose stays unless P(main) falls below
    ``threshold - margin``; another joins above ``threshold + margin``, unless the
    walk marked it boilerplate (a menu, a footer, a dialog, a control: adding those
    cost more than it gained, cross-validated)."""
    if rules:
        return p >= threshold - margin
    return not boilerplate and p >= threshold + margin


def _runs(keep: list[bool]) -> list[tuple[int, int]]:
    """The maximal runs of kept lines, as (start, end) ranges."""
    runs = []
    start = None
    for i, k in enumerate(keep + [False]):
        if k and start is None:
            start = i
        elif not k and start is not None:
            runs.append((start, i))
            start = None
    return runs
