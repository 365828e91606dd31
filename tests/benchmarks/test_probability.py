"""benchmarks/probability.py: the fit, the calibration table and the thresholds."""

from __future__ import annotations

import random

from benchmarks.probability import Sample, calibration, fit, precision_recall, score, scored
from scrapy_cx.extract.classify.probability import FEATURES


def _samples(n: int = 400) -> list[Sample]:
    """Pages whose first signal (typed_article) makes them articles 9 times in 10,
    and whose absence makes them so 1 time in 10."""
    rng = random.Random(5)
    out = []
    for i in range(n):
        typed = i % 2
        label = rng.random() < (0.9 if typed else 0.1)
        features = (float(typed),) + (0.0,) * (len(FEATURES) - 1)
        out.append(Sample("set", str(i), label, features))
    return out


def test_the_fit_recovers_the_rates_its_signal_carries() -> None:
    samples = _samples()
    weights = fit(samples)
    assert weights[1] > 2  # typed_article's weight: log(81) = 4.4, shrunk by the penalty
    on = score(weights, samples[1].features)
    off = score(weights, samples[0].features)
    assert 0.8 < on < 0.95 and 0.05 < off < 0.2
    # A page where no text was found scores 0, whatever its signals.
    empty = Sample("set", "x", True, samples[1].features, text=False)
    assert scored(weights, empty) == 0.0


def test_the_calibration_table_holds_a_bin_of_30_pages_to_its_share() -> None:
    labels = [True] * 27 + [False] * 3 + [True] * 10 + [False] * 30
    good = [0.95] * 30 + [0.15] * 40
    lines, ok = calibration(labels, good)
    assert ok and len(lines) == 11
    bad = [0.95] * 30 + [0.45] * 40  # 40 pages scored 0.45, a quarter of them articles
    lines, ok = calibration(labels, bad)
    assert not ok and any("FAIL" in line for line in lines)


def test_precision_and_recall_at_each_threshold() -> None:
    labels = [True, True, False, True]
    rows = precision_recall(labels, [0.9, 0.6, 0.8, 0.3])
    assert rows[1].split()[:4] == ["0.0", "4", "0.750", "1.000"]
    assert rows[2].split()[:4] == ["0.5", "3", "0.667", "0.667"]
