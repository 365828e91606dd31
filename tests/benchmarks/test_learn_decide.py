"""The decision procedures over held-out probabilities (benchmarks/learn_decide.py)
and the site bootstrap (benchmarks/learn_bootstrap.py), on pages we make up."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="benchmarks.learn needs the train extra")

from benchmarks.learn import (  # noqa: E402 (after the skip)
    GRID,
    chosen_text,
    lgbm_param,
    nested_bootstrap,
    nested_choice,
    score_table,
)
from benchmarks.learn_bootstrap import gain_groups, site_bootstrap  # noqa: E402
from benchmarks.learn_decide import (  # noqa: E402
    GATE_NAMES,
    final_pick,
    gate_features,
    nested_gate,
    nested_variants,
    read_probs,
    score_columns,
    smooth,
)
from scrapy_cx.extract.content._features import NAMES  # noqa: E402
from tests.benchmarks.test_learn import _page, _records  # noqa: E402


def test_the_bootstrap_draws_sites_not_pages() -> None:
    # two sites of ten pages each, one all gain, one all loss: a draw holds one
    # site twice (mean -1 or +1) half the time, which page draws would never give
    gains = [1.0] * 10 + [-1.0] * 10
    sites = ["a.com"] * 10 + ["b.com"] * 10
    interval = site_bootstrap(gains, sites, 2000, seed=0)
    assert interval.mean == 0.0
    assert (interval.low, interval.high) == (-1.0, 1.0)
    assert 0.7 < interval.below < 0.8  # draws at -1 or 0: three in four
    assert (interval.pages, interval.sites) == (20, 2)


def test_the_bootstrap_leaves_pages_without_a_figure_out() -> None:
    interval = site_bootstrap([0.01, float("nan"), 0.01, 0.01], ["a", "b", "c", "d"], 500)
    assert interval.mean == pytest.approx(0.01)
    assert interval.low == pytest.approx(0.01) and interval.high == pytest.approx(0.01)
    assert interval.below == 0.0 and interval.sites == 3
    assert site_bootstrap([float("nan")], ["a"], 10).pages == 0


def test_gain_groups_split_by_set_and_the_typed_sets_page_type() -> None:
    sets = ["wcxb_dev", "wcxb_dev", "aeb", "wcxb_dev"]
    types = ["forum", "listing", None, "forum"]
    gains = np.array([0.1, 0.2, 0.3, 0.4])
    groups = gain_groups(sets, types, ["s1", "s2", "s3", "s4"], gains)
    assert list(groups) == ["wcxb_dev", "  wcxb_dev forum", "  wcxb_dev listing", "aeb"]
    assert groups["  wcxb_dev forum"][0].tolist() == [0.1, 0.4]
    assert groups["  wcxb_dev forum"][1] == ["s1", "s4"]


def test_smooth_mixes_a_line_with_its_block_by_characters() -> None:
    record = _page("a.com", [0, 1, 1, 0], "p")  # each line its own block, under the page
    prob = np.array([0.0, 1.0, 0.5, 0.25])
    assert smooth(record, prob, NAMES, 1, 1.0).tolist() == prob.tolist()
    assert smooth(record, prob, NAMES, 1, 0.0) == pytest.approx(prob)  # one-line blocks
    long, short = np.expm1(4.0) + 1, np.expm1(1.0) + 1
    page = (1.0 * long + 0.5 * long + 0.25 * short) / (2 * long + 2 * short)
    assert smooth(record, prob, NAMES, 2, 0.0) == pytest.approx([page] * 4)
    half = smooth(record, prob, NAMES, 4, 0.5)
    assert half == pytest.approx(0.5 * prob + 0.5 * page)


def test_gate_features_read_the_rules_and_the_model() -> None:
    record = _page("a.com", [0, 1, 1, 0], "p")
    x = gate_features(record, np.array([0.0, 1.0, 0.2, 0.0]), NAMES)
    named = dict(zip(GATE_NAMES, x.tolist(), strict=True))
    long, short = np.expm1(4.0) + 1, np.expm1(1.0) + 1
    total = 2 * long + 2 * short
    assert named["type_other"] == 1.0 and named["type_article"] == 0.0
    assert named["rules_chars"] == pytest.approx(2 * long / total)
    assert named["model_chars"] == pytest.approx(long / total)  # the one line at 0.5 or more
    assert named["agree"] == pytest.approx((long + 2 * short) / total)
    assert named["p_in_rules"] == pytest.approx(0.6)
    assert named["p_out_rules"] == 0.0 and named["max_p"] == 1.0


def _noisy_probs(records: list[dict]) -> list[np.ndarray]:
    """Sure of the main lines on some pages, unsure (below 0.5) on the others."""
    return [
        np.where(np.asarray(r["labels"]) == 1, 0.9 if i % 3 else 0.45, 0.1)
        for i, r in enumerate(records)
    ]


def test_one_variant_is_the_combination_of_learn_nested_choice() -> None:
    records = _records()
    for i, record in enumerate(records):  # four rules' types, the guard's ascent over them
        kind = ("thread", "listing", "article", "other")[i % 4]
        for row in record["features"]:
            row[NAMES.index(f"type_{kind}")] = 1.0
    probs = _noisy_probs(records)
    tables = score_table(records, probs, GRID)
    expected, _ = nested_choice(
        records, probs, 3, NAMES, True, True, tables, ("article",), "wcxb_dev"
    )
    for by_type in (False, True):
        choice, picks = nested_variants(records, [tables], 3, NAMES, by_type)
        assert len(picks) == 3
        assert [GRID[c] for v, c in choice] == expected and {v for v, _ in choice} == {0}


def test_nested_variants_take_the_variant_that_wins_on_the_other_folds() -> None:
    records = _records()
    for record in records:  # the rules take the first line too, a menu line or not
        record["features"][0][NAMES.index("rules")] = 1.0
        pairs = enumerate(zip(record["lines"], record["labels"], strict=True))
        record["rules_text"] = "\n".join(t for i, (t, v) in pairs if v or not i)
    probs = [np.where(np.asarray(r["labels"]) == 1, 0.9, 0.1) for r in records]
    useless = [np.full(len(p), 0.5) for p in probs]  # keeps everything or nothing
    tables = [score_table(records, useless, GRID), score_table(records, probs, GRID)]
    for by_type in (False, True):
        choice, _ = nested_variants(records, tables, 3, NAMES, by_type)
        assert {v for v, _ in choice} == {1}
        for record, prob, (_, c) in zip(records, probs, choice, strict=True):
            assert chosen_text(record, prob, *GRID[c]) == record["truth"]["body"]


def test_the_gate_learns_on_which_pages_the_second_text_wins() -> None:
    records = _records()
    for i, record in enumerate(records):  # the thread pages are the second text's
        if i % 2:
            for row in record["features"]:
                row[NAMES.index("type_thread")] = 1.0
    x = np.array([gate_features(r, np.asarray(r["labels"], float), NAMES) for r in records])
    first = np.array([0.5] * len(records))
    second = np.array([0.9 if i % 2 else 0.2 for i in range(len(records))])
    take, picks = nested_gate(records, x, first, second, 3)
    assert len(picks) == 3
    assert take.tolist() == [bool(i % 2) for i in range(len(records))]


def test_score_columns_put_the_texts_side_by_side() -> None:
    records = _records()
    rules = [r["rules_text"] for r in records]
    table = score_columns(records, {"rules": rules, "nothing": [""] * len(records)})
    assert "rules" in table and "nothing" in table
    main = next(line for line in table.splitlines() if line.startswith("wcxb_dev"))
    assert main.split()[-2:] == ["1.000", "0.000"]


def test_nested_bootstrap_reads_each_pages_chosen_grid_point() -> None:
    records = _records()
    table = np.zeros((len(records), len(GRID)))
    table[:, GRID.index((0.5, 0.0))] = 0.01
    rules = np.zeros(len(records))
    choices = [(0.5, 0.0)] * len(records)
    out = nested_bootstrap(records, (table, rules), choices, 200)
    line = next(x for x in out.splitlines() if x.startswith("wcxb_dev"))
    assert "+0.0100" in line


def test_read_probs_averages_the_models_joined_by_a_plus(tmp_path: Path) -> None:
    records = _records()[:2]
    keys = [f"{r['set']}/{r['id']}" for r in records]
    sizes = [len(r["lines"]) for r in records]
    np.savez(tmp_path / "a.npz", **{k: np.zeros(n) for k, n in zip(keys, sizes, strict=True)})
    np.savez(tmp_path / "b.npz", **{k: np.ones(n) for k, n in zip(keys, sizes, strict=True)})
    assert read_probs(str(tmp_path / "b.npz"), records)[1].tolist() == [1.0] * sizes[1]
    both = read_probs(f"{tmp_path / 'a.npz'}+{tmp_path / 'b.npz'}", records)
    assert [p.tolist() for p in both] == [[0.5] * n for n in sizes]


def test_lgbm_param_reads_numbers_and_text() -> None:
    assert lgbm_param("num_leaves=15") == ("num_leaves", 15)
    assert lgbm_param("lambda_l2=0.5") == ("lambda_l2", 0.5)
    assert lgbm_param("boosting=dart") == ("boosting", "dart")


def test_final_pick_is_the_combinations_choice_on_every_page() -> None:
    records = _records()
    for i, record in enumerate(records):  # the rules take a menu line the model knows is one
        record["features"][0][NAMES.index("rules")] = 1.0
        if i % 2:
            for row in record["features"]:
                row[NAMES.index("type_article")] = 1.0
        pairs = enumerate(zip(record["lines"], record["labels"], strict=True))
        record["rules_text"] = "\n".join(t for i, (t, v) in pairs if v or not i)
    probs = [np.where(np.asarray(r["labels"]) == 1, 0.9, 0.1) for r in records]
    picked = final_pick(records, score_table(records, probs, GRID), NAMES)
    assert picked["article"] == (0.5, 0.5)  # left to the rules
    threshold, margin = picked["other"]
    for record, prob in zip(records, probs, strict=True):
        assert chosen_text(record, prob, threshold, margin) == record["truth"]["body"]
