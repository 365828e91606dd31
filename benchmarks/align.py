"""Line labels from a set's truth, and the metrics a line selection is scored by (issue 38).

Scrapy-free and extractor-free, so its tests pin it down on strings we write: a
wrong label moves every figure a learned labeller is trained and judged on.

A line of the walk is *main* (1) when most of its word trigrams occur in the
truth's main text, *not main* (0) when few do, and *unknown* (-1) when the truth
cannot say (no truth, or only snippets that touch neither way). Trigrams, not a
sequence alignment, so a truth that reorders paragraphs, spaces them otherwise or
writes ``&amp;`` as ``&`` still labels each line. Tokens are case-folded ``\\w+``
runs with each CJK character its own token, so Chinese lines get trigrams too.
A line of one or two tokens has no trigram: it is main when its whole token run
occurs in the truth and a longer neighbour line is main (a lone "Share" that the
truth's prose also says is not made main by that word).

Where a set has only must-have / must-not snippets (``trafilatura_dev``) the
labels are partial: a line holding a must-have snippet is main, one holding a
must-not snippet is not main, and the rest are unknown.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.metrics import aggregate, overlap, score_snippets, snippet_key, snippets_found

N = 3
MAIN, OTHER, UNKNOWN = 1, 0, -1
# Share of a line's trigrams found in the truth that makes it main. Lines are
# mostly all in (a paragraph of the text) or all out (a menu); the middle holds
# lines the truth trimmed (a "Read more" glued to a teaser) and is rare.
MAIN_SHARE = 0.5
_TOKEN = re.compile(r"\w+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def tokens(text: str | None) -> list[str]:
    """Case-folded ``\\w+`` tokens of NFKC text, a CJK character being one token."""
    out: list[str] = []
    for run in _TOKEN.findall(unicodedata.normalize("NFKC", text or "").casefold()):
        if _CJK.search(run):
            out.extend(_CJK.sub(lambda m: f" {m.group()} ", run).split())
        else:
            out.append(run)
    return out


def grams(toks: Sequence[str], n: int = N) -> list[tuple[str, ...]]:
    """The ``n``-grams of ``toks`` in order (none when there are fewer than ``n``)."""
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


def _short_grams(toks: Sequence[str]) -> set[tuple[str, ...]]:
    """Every run of one or two tokens: what a short line is looked up in."""
    return {tuple(toks[i : i + k]) for k in (1, 2) for i in range(len(toks) - k + 1)}


def label_by_text(lines: Sequence[str], truth: str) -> list[int]:
    """1/0 per line by trigram overlap with the whole ``truth`` text (module doc)."""
    truth_toks = tokens(truth)
    pool = set(grams(truth_toks))
    short = _short_grams(truth_toks)
    labels: list[int] = []
    pending: list[int] = []  # short lines whose run occurs in the truth
    for i, text in enumerate(lines):
        toks = tokens(text)
        if not toks:
            labels.append(OTHER)
        elif len(toks) < N:
            labels.append(OTHER)
            if tuple(toks) in short:
                pending.append(i)
        else:
            line_grams = grams(toks)
            found = sum(g in pool for g in line_grams)
            labels.append(MAIN if found >= MAIN_SHARE * len(line_grams) else OTHER)
    long_lines = [i for i, text in enumerate(lines) if len(tokens(text)) >= N]
    for i in pending:
        if _neighbour_main(i, long_lines, labels):
            labels[i] = MAIN
    return labels


def _neighbour_main(i: int, long_lines: Sequence[int], labels: Sequence[int]) -> bool:
    """Whether the nearest long line before or after ``i`` is main."""
    at = bisect.bisect_left(long_lines, i)
    before = long_lines[at - 1] if at > 0 else None
    after = long_lines[at] if at < len(long_lines) else None
    return any(j is not None and labels[j] == MAIN for j in (before, after))


def label_by_snippets(
    lines: Sequence[str], with_snippets: Sequence[str], without_snippets: Sequence[str]
) -> list[int]:
    """Partial labels: 1 holds a must-have snippet, 0 a must-not one, else -1.

    A snippet may run over two lines (a heading and its paragraph): a line then
    counts when the snippet holds the whole line (and the line is not tiny).
    """
    keys = [snippet_key(text) for text in lines]
    labels = [UNKNOWN] * len(lines)
    for snippets, value in ((without_snippets, OTHER), (with_snippets, MAIN)):
        for snippet in snippets:
            skey = snippet_key(snippet)
            if not skey:
                continue
            for i, key in enumerate(keys):
                if key and (skey in key or (len(key) >= 20 and key in skey)):
                    labels[i] = value
    return labels


def label_lines(
    lines: Sequence[str],
    body: str | None,
    with_snippets: Sequence[str] = (),
    without_snippets: Sequence[str] = (),
) -> list[int]:
    """Labels from the whole truth text where there is one, else from the snippets."""
    if body is not None:
        return label_by_text(lines, body)
    return label_by_snippets(lines, with_snippets, without_snippets)


def word_f1(prediction: str | None, truth: str | None) -> float:
    """WCXB's word F1 of one page: ``\\w+`` tokens of the lower-cased texts as
    multisets; 0 for an empty prediction (or truth)."""
    pred = Counter(_TOKEN.findall((prediction or "").lower()))
    true = Counter(_TOKEN.findall((truth or "").lower()))
    common = sum((pred & true).values())
    if not common:
        return 0.0
    p, r = common / sum(pred.values()), common / sum(true.values())
    return 2 * p * r / (p + r)


# The set's own main-text figure (../shared/bench/README.md): WCXB's word F1 where
# the set is WCXB's, the snippets where a set has only those, character F1 for the
# Chinese set, the AEB metric elsewhere.
WORD_F1_SETS = ("wcxb_dev", "wceb_dev")
SNIPPET_SETS = ("trafilatura_dev",)
CHAR_SETS = ("cwce_zh_dev",)


@dataclass(frozen=True, slots=True)
class Truth:
    """What a page's text is scored against."""

    body: str | None
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()
    page_type: str | None = None


def score_set(set_name: str, truths: Sequence[Truth], texts: Sequence[str]) -> dict[str, float]:
    """The set's figures for one text per page: ``main`` is its headline figure;
    WCXB sets add ``type:<page type>``, snippet sets ``found`` and ``absent``."""
    if set_name in SNIPPET_SETS:
        counts = [
            (
                snippets_found(text, t.with_snippets),
                len(t.with_snippets),
                snippets_found(text, t.without_snippets),
                len(t.without_snippets),
            )
            for t, text in zip(truths, texts, strict=True)
        ]
        s = score_snippets(counts)
        found, absent = s.with_found or 0.0, s.without_absent or 0.0
        return {"main": found, "found": found, "absent": absent}
    pairs = [(t, text) for t, text in zip(truths, texts, strict=True) if t.body is not None]
    if set_name in WORD_F1_SETS:
        out = {"main": _mean([word_f1(text, t.body) for t, text in pairs])}
        types = sorted({t.page_type for t, _ in pairs if t.page_type})
        for kind in types:
            out[f"type:{kind}"] = _mean(
                [word_f1(text, t.body) for t, text in pairs if t.page_type == kind]
            )
        return out
    level = "char" if set_name in CHAR_SETS else "word"
    return {"main": aggregate(overlap(text, t.body, level) for t, text in pairs).f1}


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
