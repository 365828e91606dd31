"""A paired bootstrap, grouped by site, of a procedure's per-page gain (issue 38).

The learned labeller's gains over the rules are a few thousandths on sets of a
few hundred pages, many from the same site: is a gain above the noise? Each
page's gain is paired (the procedure's page figure minus the rules' on the same
page), and the bootstrap draws *sites* with replacement, not pages: pages of one
site share a template and a fault, so they are not independent draws, and
resampling them one by one would make the interval too narrow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95


@dataclass(frozen=True, slots=True)
class Interval:
    """The mean gain, its bootstrap interval, and the share of draws at or below 0."""

    mean: float
    low: float
    high: float
    below: float
    pages: int
    sites: int


def site_bootstrap(
    gains: Sequence[float] | np.ndarray, sites: Sequence[str], draws: int, seed: int = 0
) -> Interval:
    """The mean per-page gain and its LEVEL percentile interval over ``draws`` resamples
    of the sites (each resample's figure: the mean over the pages of its sites, as a
    set's mean of page figures would be). Pages without a figure (NaN) are left out."""
    values = np.asarray(gains, np.float64)
    known = ~np.isnan(values)
    values = values[known]
    site_names = [s for s, k in zip(sites, known, strict=True) if k]
    if not len(values):
        return Interval(float("nan"), float("nan"), float("nan"), float("nan"), 0, 0)
    _, site_of = np.unique(site_names, return_inverse=True)
    sums = np.bincount(site_of, weights=values)
    counts = np.bincount(site_of).astype(np.float64)
    k = len(sums)
    # how often each site is drawn in each resample: k draws with replacement
    picks = np.random.default_rng(seed).multinomial(k, np.full(k, 1.0 / k), size=draws)
    means = (picks @ sums) / (picks @ counts)
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return Interval(
        float(values.mean()), float(low), float(high), float((means <= 0).mean()), len(values), k
    )


def bootstrap_report(
    groups: Mapping[str, tuple[np.ndarray, Sequence[str]]], draws: int, seed: int = 0
) -> str:
    """One line per group (``name: (per-page gains, their sites)``): the mean gain,
    its interval, and P(gain <= 0) among the draws."""
    out = [f"{'group':<26}{'pages':>6}{'sites':>6}{'gain':>8}{'95% interval':>20}{'P<=0':>7}"]
    for name, (gains, sites) in groups.items():
        i = site_bootstrap(gains, sites, draws, seed)
        interval = f"[{i.low:+.4f}, {i.high:+.4f}]"
        out.append(
            f"{name:<26}{i.pages:>6}{i.sites:>6}{i.mean:>+8.4f}{interval:>20}{i.below:>7.3f}"
        )
    return "\n".join(out)


def gain_groups(
    sets: Sequence[str],
    page_types: Sequence[str | None],
    sites: Sequence[str],
    gains: np.ndarray,
    typed: str = "wcxb_dev",
) -> dict[str, tuple[np.ndarray, list[str]]]:
    """The per-page gains split by set, and the ``typed`` set's also by page type."""
    groups: dict[str, tuple[np.ndarray, list[str]]] = {}

    def add(name: str, rows: list[int]) -> None:
        groups[name] = (gains[rows], [sites[i] for i in rows])

    for set_name in dict.fromkeys(sets):
        add(set_name, [i for i, s in enumerate(sets) if s == set_name])
        if set_name != typed:
            continue
        for kind in sorted({t for s, t in zip(sets, page_types, strict=True) if s == typed and t}):
            pairs = enumerate(zip(sets, page_types, strict=True))
            add(f"  {typed} {kind}", [i for i, (s, t) in pairs if s == typed and t == kind])
    return groups
