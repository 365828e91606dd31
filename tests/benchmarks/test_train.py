"""The shipped model's export (benchmarks/train.py): LightGBM's trees as the core's
nested lists give LightGBM's own probabilities. Needs the train extra (lightgbm)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="benchmarks.train needs the train extra")
lightgbm = pytest.importorskip("lightgbm", reason="benchmarks.train needs the train extra")

from benchmarks.learn import TrainPage, tree_json  # noqa: E402
from benchmarks.train import check  # noqa: E402
from scrapy_cx.extract.content._features import MATRIX_NAMES  # noqa: E402
from scrapy_cx.extract.content._trees import probability, tree_of  # noqa: E402


def _booster(rows: np.ndarray, labels: np.ndarray) -> object:
    params = {"objective": "binary", "num_leaves": 7, "min_data_in_leaf": 5, "verbose": -1}
    return lightgbm.train(params, lightgbm.Dataset(rows, labels), num_boost_round=5)


def test_exported_trees_give_lightgbms_probabilities(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    rows = rng.random((400, len(MATRIX_NAMES))).astype(np.float32)
    labels = (rows[:, 0] + rows[:, 3] > 1.0).astype(int)
    booster = _booster(rows, labels)
    trees = [tree_json(t["tree_structure"]) for t in booster.dump_model()["tree_info"]]
    assert any(isinstance(t, list) for t in trees)  # real splits, not only leaves
    walked = [probability([tree_of(t) for t in trees], row) for row in rows.tolist()]
    assert np.allclose(walked, booster.predict(rows), atol=1e-12)
    path = tmp_path / "labeller.json"
    model = {"features": list(MATRIX_NAMES), "cutoffs": {"listing": [0.5, 0.0]}, "trees": trees}
    path.write_text(json.dumps(model))
    page = TrainPage(rows[:50], labels[:50], np.ones(50))
    check(path, booster, [page])  # passes: the file is LightGBM's model
    model["trees"] = trees[:-1]
    path.write_text(json.dumps(model))
    with pytest.raises(SystemExit, match="disagree"):
        check(path, booster, [page])
