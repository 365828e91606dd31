"""The structure metric of the bench dir's README.md ("structure (``readability/expected``)").

From a body's HTML take the items of each kind: ``heading`` the text of each
h1-h6, ``item`` of each li, ``cell`` of each td/th, ``quote`` of each
blockquote, ``code`` of each pre, ``image`` the src of each img, ``link`` the
href of each a. Texts are NFKC, casefolded, whitespace collapsed, punctuation
stripped at both ends, cut to 120 characters; URLs are made absolute against
the address the expected output was made with (``http://fakehost/test/page.html``),
lose query and fragment, and only http(s) ones count.

Truth and output items are matched as multisets per kind and pooled over the
pages: recall = truth items found, precision = output items found in the
truth, kept = recall over only the truth items whose text is in the system's
plain text at all (did the text it kept keep its form?). "In the plain text"
is a substring test once both are NFKC, casefolded and stripped of every
whitespace character (the README's snippet rule, so a line break the extractor
put inside an item does not hide it). Images and links are addresses, not
text: every one of them stays in ``kept``, whose figure for them is their
recall. These two readings reproduce the README's reference figures
(readability-lxml 0.927, trafilatura 0.811 / 0.619 at 0.620) where the others
tried miss by 0.003 to 0.03 (docs/benchmarks.rst).

Kept free of I/O and of any extractor, like :mod:`benchmarks.metrics`, so the
unit tests pin it down on strings we write.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

KINDS = ("heading", "item", "cell", "quote", "code", "image", "link")
BASE_URL = "http://fakehost/test/page.html"
MAX_CHARS = 120

_TEXT_TAGS = {
    "h1": "heading",
    "h2": "heading",
    "h3": "heading",
    "h4": "heading",
    "h5": "heading",
    "h6": "heading",
    "li": "item",
    "td": "cell",
    "th": "cell",
    "blockquote": "quote",
    "pre": "code",
}
_SPACE = re.compile(r"\s+")


def _is_edge(char: str) -> bool:
    """Punctuation (Unicode category P*) or whitespace: what the ends of a text lose."""
    return char.isspace() or unicodedata.category(char).startswith("P")


def normalize_text(text: str | None, limit: int | None = MAX_CHARS) -> str:
    """NFKC, casefold, whitespace collapsed, punctuation stripped at both ends, cut to ``limit``."""
    value = _SPACE.sub(" ", unicodedata.normalize("NFKC", text or "").casefold())
    start, end = 0, len(value)
    while start < end and _is_edge(value[start]):
        start += 1
    while end > start and _is_edge(value[end - 1]):
        end -= 1
    value = value[start:end]
    return value[:limit] if limit is not None else value


def normalize_url(url: str | None, base: str = BASE_URL) -> str | None:
    """``url`` absolute against ``base``, without query and fragment; None unless http(s)."""
    if not url or not url.strip():
        return None
    try:
        parts = urlsplit(urljoin(base, url.strip()))
    except ValueError:  # a malformed address (bad IPv6 literal, port)
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path, "", ""))


@dataclass(frozen=True, slots=True)
class Item:
    """One structure item: ``key`` is what is matched, ``text`` what ``kept`` looks for
    in the plain text (None for an image or link: no text, always in ``kept``)."""

    kind: str
    key: str
    text: str | None


def _parse(html: str) -> Any:
    import lxml.html

    try:
        return lxml.html.document_fromstring(html)
    except Exception:  # noqa: BLE001 - lxml refuses only when there is no element at all
        return None


def _tag(element: Any) -> str:
    return element.tag.lower() if isinstance(element.tag, str) else ""


def _text_of(element: Any) -> str:
    """The element's text as ``itertext`` gives it (comments and the like carry none)."""
    return "".join(element.itertext())


def _item(element: Any, tag: str, base: str) -> Item | None:
    kind = _TEXT_TAGS.get(tag)
    if kind is not None:
        text = normalize_text(_text_of(element))
        return Item(kind, text, text) if text else None
    if tag == "img":
        src = normalize_url(element.get("src"), base)
        return Item("image", src, None) if src else None
    if tag == "a":
        href = normalize_url(element.get("href"), base)
        return Item("link", href, None) if href else None
    return None


def structure_items(html: str | None, base: str = BASE_URL) -> list[Item]:
    """Every structure item of ``html`` in document order (empty for no or blank HTML).

    An item whose text normalizes to nothing (an empty cell or heading) and an
    image or link without an http(s) address are not items.
    """
    if not html or not html.strip():
        return []
    root = _parse(html)
    if root is None:
        return []
    items = []
    for element in root.iter():
        tag = _tag(element)
        if tag and (item := _item(element, tag, base)) is not None:
            items.append(item)
    return items


def plain_key(text: str | None) -> str:
    """A text ready for the ``kept`` substring test: NFKC, casefold, no whitespace at all."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text or "").casefold())


def in_plain_text(item: Item, plain: str) -> bool:
    """Whether ``item`` counts in ``kept``: its text is in ``plain`` (a :func:`plain_key`)."""
    return item.text is None or plain_key(item.text) in plain


@dataclass(frozen=True, slots=True)
class KindCounts:
    """Pooled counts of one kind: truth, output and matched items, and ``kept``'s share."""

    truth: int = 0
    output: int = 0
    matched: int = 0
    in_text: int = 0  # truth items whose text is in the output's plain text
    in_text_matched: int = 0  # ... of which matched

    def __add__(self, other: KindCounts) -> KindCounts:
        return KindCounts(
            self.truth + other.truth,
            self.output + other.output,
            self.matched + other.matched,
            self.in_text + other.in_text,
            self.in_text_matched + other.in_text_matched,
        )

    @property
    def recall(self) -> float | None:
        """None when the truth has no item of this kind."""
        return self.matched / self.truth if self.truth else None

    @property
    def precision(self) -> float | None:
        """None when the output has no item of this kind."""
        return self.matched / self.output if self.output else None

    @property
    def kept(self) -> float | None:
        """None when no truth item's text is in the plain text."""
        return self.in_text_matched / self.in_text if self.in_text else None


def page_counts(
    truth: Sequence[Item], output: Sequence[Item], plain_text: str | None
) -> dict[str, KindCounts]:
    """Counts of each kind on one page: multiset matches of ``key`` per kind."""
    plain = plain_key(plain_text)
    counts = {}
    for kind in KINDS:
        true = Counter(i.key for i in truth if i.kind == kind)
        given = Counter(i.key for i in output if i.kind == kind)
        present = Counter(i.key for i in truth if i.kind == kind and in_plain_text(i, plain))
        counts[kind] = KindCounts(
            truth=sum(true.values()),
            output=sum(given.values()),
            matched=sum((true & given).values()),
            in_text=sum(present.values()),
            in_text_matched=sum((present & given).values()),
        )
    return counts


def pooled(pages: Iterable[Mapping[str, KindCounts]]) -> dict[str, KindCounts]:
    """Per-kind counts summed over pages."""
    total = {kind: KindCounts() for kind in KINDS}
    for page in pages:
        for kind in KINDS:
            total[kind] = total[kind] + page.get(kind, KindCounts())
    return total


@dataclass(frozen=True, slots=True)
class Macro:
    """The mean over kinds of each figure (a kind without the figure leaves its mean)."""

    recall: float | None
    kept: float | None
    precision: float | None


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def macro(counts: Mapping[str, KindCounts]) -> Macro:
    """Macro averages over :data:`KINDS` of recall, kept and precision."""
    kinds = [counts[k] for k in KINDS if k in counts]
    return Macro(
        recall=_mean(c.recall for c in kinds),
        kept=_mean(c.kept for c in kinds),
        precision=_mean(c.precision for c in kinds),
    )


def missed(truth: Sequence[Item], output: Sequence[Item], kind: str) -> list[str]:
    """Keys of ``kind`` in the truth that the output lacks (with multiplicity, in order)."""
    left = Counter(i.key for i in output if i.kind == kind)
    out = []
    for item in truth:
        if item.kind != kind:
            continue
        if left[item.key] > 0:
            left[item.key] -= 1
        else:
            out.append(item.key)
    return out
