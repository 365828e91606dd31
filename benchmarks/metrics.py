"""Scoring functions, exactly as /work/shared/bench/README.md defines them.

Kept free of I/O and of any extractor so unit tests can pin them down on strings
we write: a scoring bug would silently move every figure the tuning relies on.

Main text (the AEB metric): tokens are ``\\w+`` matches (Unicode, case kept); a
page is the multiset of its word 4-grams (1-3 tokens give one shorter gram).
Per page P = TP/(TP+FP), R = TP/(TP+FN); the set's P is the mean over pages
with a non-empty prediction, R the mean over pages with non-empty truth, and
F1 = 2PR/(P+R) of those two means (not the mean of per-page F1).

Character level: the same formula with every non-whitespace character as a
token (so 4-grams of characters). ``\\w+`` makes a run of Chinese one token,
which makes the word figure meaningless there; this one is the fair one.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

NGRAM = 4
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def word_tokens(text: str | None) -> list[str]:
    """``\\w+`` tokens, case kept, punctuation dropped (the AEB tokenizer)."""
    return _WORD.findall(text or "")


def char_tokens(text: str | None) -> list[str]:
    """Every character except whitespace (punctuation kept)."""
    return [c for c in (text or "") if not c.isspace()]


def shingles(tokens: Sequence[str], n: int = NGRAM) -> Counter[tuple[str, ...]]:
    """Multiset of ``n``-grams; 1..n-1 tokens give one shorter gram, none give none."""
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


@dataclass(frozen=True, slots=True)
class Overlap:
    """Multiset overlap of one page's prediction and truth."""

    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float | None:
        """None when the prediction is empty (the page leaves the precision mean)."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """None when the truth is empty (the page leaves the recall mean)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float:
        """Per-page F1, only to rank misses (the set figure is F1 of the means)."""
        p, r = self.precision or 0.0, self.recall or 0.0
        return 2 * p * r / (p + r) if p + r else 0.0


def overlap(prediction: str | None, truth: str | None, level: str = "word") -> Overlap:
    """TP/FP/FN between the gram multisets of ``prediction`` and ``truth``.

    ``level`` is ``"word"`` (AEB ``\\w+`` tokens) or ``"char"`` (non-whitespace
    characters).
    """
    if level == "word":
        tok = word_tokens
    elif level == "char":
        tok = char_tokens
    else:
        raise ValueError(f"unknown level {level!r}")
    pred, true = shingles(tok(prediction)), shingles(tok(truth))
    tp = sum((pred & true).values())
    return Overlap(tp=tp, fp=sum(pred.values()) - tp, fn=sum(true.values()) - tp)


@dataclass(frozen=True, slots=True)
class PRF:
    """Set-level precision, recall and F1 (F1 of the two means)."""

    precision: float
    recall: float
    f1: float
    n_precision: int
    n_recall: int


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def aggregate(pages: Iterable[Overlap]) -> PRF:
    """AEB aggregation: P over pages with output, R over pages with truth, F1 of means."""
    ps: list[float] = []
    rs: list[float] = []
    for page in pages:
        if (p := page.precision) is not None:
            ps.append(p)
        if (r := page.recall) is not None:
            rs.append(r)
    p, r = _mean(ps), _mean(rs)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return PRF(precision=p, recall=r, f1=f1, n_precision=len(ps), n_recall=len(rs))


def normalize_title(title: str | None) -> str:
    """NFKC, whitespace runs collapsed to one space and stripped, casefolded."""
    text = unicodedata.normalize("NFKC", title or "")
    return _SPACE.sub(" ", text).strip().casefold()


def title_exact(prediction: str | None, truth: str | None) -> bool:
    """Equal after :func:`normalize_title`; an empty prediction never matches."""
    pred, true = normalize_title(prediction), normalize_title(truth)
    return bool(pred) and pred == true


def title_lenient(prediction: str | None, truth: str | None, ratio: float = 0.8) -> bool:
    """One contains the other and the shorter is at least ``ratio`` of the longer."""
    pred, true = normalize_title(prediction), normalize_title(truth)
    if not pred or not true:
        return False
    short, long_ = sorted((pred, true), key=len)
    return short in long_ and len(short) >= ratio * len(long_)


def calendar_day(value: str | None) -> str | None:
    """The ``YYYY-MM-DD`` an ISO 8601 date or datetime starts with, else None.

    The day is taken as written (the page's local day when a time zone is
    given), which is what the labels record.
    """
    if not value:
        return None
    match = _DAY.match(value.strip())
    return match.group(0) if match else None


@dataclass(frozen=True, slots=True)
class DateScore:
    """Dates of one system on one set."""

    accuracy: float  # right day / pages with date truth
    coverage: float  # pages given a date / all pages
    precision: float  # right day / pages with date truth and a predicted date
    n_truth: int
    n_given: int
    n_right: int


def score_dates(pairs: Iterable[tuple[str | None, str | None]]) -> DateScore:
    """Score ``(predicted, truth)`` pairs; truth None means "no label for this page"."""
    n = n_truth = n_given = n_both = n_right = 0
    for predicted, truth in pairs:
        n += 1
        day = calendar_day(predicted)
        true_day = calendar_day(truth)
        n_given += day is not None
        if true_day is None:
            continue
        n_truth += 1
        if day is not None:
            n_both += 1
            n_right += day == true_day
    return DateScore(
        accuracy=n_right / n_truth if n_truth else 0.0,
        coverage=n_given / n if n else 0.0,
        precision=n_right / n_both if n_both else 0.0,
        n_truth=n_truth,
        n_given=n_given,
        n_right=n_right,
    )
