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
from datetime import date
from urllib.parse import urlsplit

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


# --- snippets (must-have / must-not) --------------------------------------------------------


def snippet_key(text: str | None) -> str:
    """``text`` ready for a substring test: NFKC, every whitespace character removed.

    Removing (not collapsing) whitespace is what Mercury's SOURCE.md asks for
    (cheerio's ``.text()`` glues block texts: "T he", "2019AA+"), and elsewhere it
    keeps a snippet from failing on how an extractor spaces inline elements or
    code lines; it reproduces the figures issue 9 quotes for wceb_dev.
    """
    return _SPACE.sub("", unicodedata.normalize("NFKC", text or ""))


def snippets_found(text: str | None, snippets: Sequence[str]) -> int:
    """How many of ``snippets`` occur in ``text`` (both normalized by :func:`snippet_key`).

    A snippet that normalizes to nothing is never found (it cannot be checked).
    """
    haystack = snippet_key(text)
    found = 0
    for snippet in snippets:
        needle = snippet_key(snippet)
        found += bool(needle) and needle in haystack
    return found


@dataclass(frozen=True, slots=True)
class SnippetScore:
    """Must-have / must-not snippets of one system on a group of pages."""

    with_found: float | None  # must-have snippets found / must-have snippets
    without_absent: float | None  # must-not snippets absent / must-not snippets
    n_with: int
    n_without: int


def score_snippets(pages: Iterable[tuple[int, int, int, int]]) -> SnippetScore:
    """Pool ``(with_found, n_with, without_found, n_without)`` per page into shares.

    Shares are over snippets, not pages (a page with 10 must-have sentences
    weighs 10 times one with a single sentence); None when no page has any.
    """
    found = n_with = present = n_without = 0
    for w_found, w_total, wo_found, wo_total in pages:
        found += w_found
        n_with += w_total
        present += wo_found
        n_without += wo_total
    return SnippetScore(
        with_found=found / n_with if n_with else None,
        without_absent=(n_without - present) / n_without if n_without else None,
        n_with=n_with,
        n_without=n_without,
    )


# --- authors, image, dates within a day -----------------------------------------------------

_EMAIL = re.compile(r"\S+@\S+")
_URL = re.compile(r"\w+://\S+")
_LABEL = re.compile(r"^[^:：]{0,12}[:：]\s*")  # "著者：", "By:", "作者： " before the name
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def normalize_name(name: str | None) -> str:
    """A person name ready to compare: NFKC, casefold, one space, no label/e-mail/URL.

    Mercury's labels keep quirks ("著者：後藤大地", "Mike Cason | mcason@al.com");
    the same cleaning applies to both sides, so it favours no system.
    """
    text = unicodedata.normalize("NFKC", name or "")
    text = _URL.sub(" ", _EMAIL.sub(" ", text))
    text = _LABEL.sub("", text.strip())
    text = _EDGE.sub("", _SPACE.sub(" ", text).strip())
    return text.casefold()


def name_keys(names: Iterable[str] | None) -> list[str]:
    """Normalized names in order, blanks dropped."""
    return [key for key in (normalize_name(n) for n in names or ()) if key]


def authors_exact(predicted: Sequence[str] | None, truth: Sequence[str] | None) -> bool | None:
    """The same set of names (order ignored, after :func:`normalize_name`); None: no truth."""
    true = name_keys(truth)
    if not true:
        return None
    return set(name_keys(predicted)) == set(true)


def authors_precise(predicted: Sequence[str] | None, truth: Sequence[str] | None) -> bool | None:
    """Every name given is one of the truth's; None: no truth, or no name given (the
    precision of a system that may rather say nothing than a wrong name)."""
    true = name_keys(truth)
    pred = name_keys(predicted)
    if not true or not pred:
        return None
    return set(pred) <= set(true)


def first_author(predicted: Sequence[str] | None, truth: Sequence[str] | None) -> bool | None:
    """The first name given is the truth's first name; None: no truth."""
    true = name_keys(truth)
    if not true:
        return None
    pred = name_keys(predicted)
    return bool(pred) and pred[0] == true[0]


def image_key(url: str | None) -> str:
    """An image URL without scheme, query and fragment, host lowercased ("" for none)."""
    if not url or not url.strip():
        return ""
    parts = urlsplit(url.strip())
    if not parts.netloc:
        return parts.path
    return parts.netloc.lower() + parts.path


def image_match(predicted: str | None, truth: str | None) -> bool:
    """Same image once query string, fragment and scheme are ignored; none never matches."""
    pred = image_key(predicted)
    return bool(pred) and pred == image_key(truth)


def day_within(predicted: str | None, truth: str | None, days: int = 1) -> bool:
    """The calendar day of ``predicted`` is within ``days`` of ``truth``'s (None: no)."""
    pred, true = calendar_day(predicted), calendar_day(truth)
    if pred is None or true is None:
        return False
    return abs((date.fromisoformat(pred) - date.fromisoformat(true)).days) <= days


# --- page types -----------------------------------------------------------------------------

PAGE_CLASSES = ("article", "thread", "listing", "other")
PAGE_CLASS_OF = {
    "article": "article",
    "blog": "article",
    "forum": "thread",
    "listing": "listing",
    "collection": "listing",
    "product": "other",
    "service": "other",
    "documentation": "other",
    # Not in wceb_dev's truth: an audited page that is none of its kinds (a bot
    # check, a saved "not found" page); see benchmarks/audit.py.
    "other": "other",
}


def page_class(page_type: str | None) -> str | None:
    """A truth ``page_type`` (wceb_dev's eight, or an audited ``other``) as a PAGE_CLASSES one."""
    return PAGE_CLASS_OF.get((page_type or "").strip().lower())


def per_class_f1(
    pairs: Iterable[tuple[str | None, str]], classes: Sequence[str]
) -> dict[str, float | None]:
    """F1 of each of ``classes`` for ``(predicted, truth)`` pairs.

    None for a class neither in the truth nor predicted; a prediction outside
    ``classes`` (or None) is simply wrong.
    """
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for predicted, truth in pairs:
        if predicted == truth:
            tp[truth] += 1
            continue
        fn[truth] += 1
        if predicted is not None:
            fp[predicted] += 1
    out: dict[str, float | None] = {}
    for cls in classes:
        denominator = 2 * tp[cls] + fp[cls] + fn[cls]
        out[cls] = 2 * tp[cls] / denominator if denominator else None
    return out


def macro_f1(pairs: Iterable[tuple[str | None, str]], classes: Sequence[str]) -> float | None:
    """Mean over ``classes`` of per-class F1 for ``(predicted, truth)`` pairs.

    A class neither in the truth nor predicted is left out of the mean; a
    prediction outside ``classes`` (or None) is simply wrong. None: no pairs.
    """
    listed = list(pairs)
    if not listed:
        return None
    scores = [f for f in per_class_f1(listed, classes).values() if f is not None]
    return sum(scores) / len(scores) if scores else 0.0
