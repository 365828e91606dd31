"""Per-line features of an extracted page, for the learned line labeller (learned.py).

Language-independent: counts of characters, links and punctuation, the block
element's tag, depth and share of the page, class-name words of its ancestors,
position, the page type, and the current rules' own choice (in the body, in a
region, boilerplate); then each line's neighbours' values (:func:`line_matrix`).
Training (benchmarks.learn, benchmarks.train) and extraction compute them with
this one module, rounded the same way, so a shipped model sees at run time exactly
the numbers it was trained on.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence

from ..classify.pagetype import PAGE_TYPES
from ..page import Page

TAGS = (
    "p",
    "div",
    "li",
    "td",
    "th",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "dd",
    "dt",
    "pre",
    "blockquote",
    "figcaption",
    "section",
    "article",
    "span",
)
KINDS = ("text", "cards", "headlines")
# Class/id name parts that say content or not-content; read on a line's three
# nearest block ancestors. English words, but the page's names, not its language.
GOOD_WORDS = (
    "content",
    "article",
    "post",
    "entry",
    "body",
    "text",
    "main",
    "story",
    "message",
    "description",
    "product",
    "review",
)
BAD_WORDS = (
    "nav",
    "menu",
    "footer",
    "header",
    "sidebar",
    "related",
    "share",
    "social",
    "comment",
    "ad",
    "promo",
    "widget",
    "breadcrumb",
    "cookie",
    "newsletter",
    "tag",
    "meta",
    "author",
    "date",
    "caption",
    "card",
    "teaser",
    "list",
)
# A tag's one-hot columns, made once.
_TAG_COLUMNS = {tag: [float(tag == t) for t in TAGS] for tag in TAGS}
_NO_TAG = [0.0] * len(TAGS)
# A line outside any block element: one line, depth 0, the whole page's shares.
_NO_BLOCK = [0.0, round(math.log1p(1), 4), 1.0, 1.0, 0.0, 1.0, 0.0]
_PUNCT = re.compile(r"[^\w\s]")
_DIGIT = re.compile(r"\d")
_PART = re.compile(r"[a-z]+")
_END = re.compile(r"[.!?。！？:;…]\s*$")
ANCESTORS = 3
_WORDS = GOOD_WORDS + BAD_WORDS

NAMES: tuple[str, ...] = (
    (
        "log_len",
        "log_link",
        "link_density",
        "punct",
        "digits",
        "log_words",
        "ends_stop",
        "boilerplate",
        "rules",
        "in_region",
        "in_itemprop_body",
        "has_href",
        "depth",
        "log_block_lines",
        "block_share",
        "parent_share",
        "parent_link",
        "grand_share",
        "grand_link",
        "pos",
        "char_pos",
        "rule_dist",
        "log_n_lines",
        "rules_share",
    )
    + tuple(f"tag_{t}" for t in TAGS)
    + tuple(f"type_{t}" for t in PAGE_TYPES)
    + tuple(f"kind_{k}" for k in KINDS)
    + tuple(f"good_{w}" for w in GOOD_WORDS)
    + tuple(f"bad_{w}" for w in BAD_WORDS)
)


def _name_parts(name: str | None) -> set[str]:
    return set(_PART.findall(name.lower())) if name else set()


def inside(ranges: Iterable[tuple[int, int]], n: int) -> list[bool]:
    """Whether each of ``n`` lines is in one of the (start, end) ``ranges``."""
    marks = [False] * n
    for start, end in ranges:
        for i in range(max(0, start), min(n, end)):
            marks[i] = True
    return marks


def _depths(parents: Sequence[int]) -> list[int]:
    """Depth of each block element (parents come before their children)."""
    depths = [0] * len(parents)
    for b, parent in enumerate(parents):
        depths[b] = depths[parent] + 1 if 0 <= parent < b else 0
    return depths


def page_features(page: Page) -> list[list[float]]:
    """One row of :data:`NAMES` per line of ``page.selection.lines``, each value
    rounded to 4 places (what the training records hold)."""
    sel = page.selection
    lines = sel.lines
    n = len(lines)
    if not n:
        return []
    in_body = {id(line) for line in sel.body}
    rules = [id(line) in in_body for line in lines]
    region = inside(sel.regions, n)
    itemprop = inside((lines.spans[b] for b in lines.bodies if 0 <= b < len(lines.spans)), n)
    cum = [0]
    link_cum = [0]
    for line in lines:
        cum.append(cum[-1] + line.length)
        link_cum.append(link_cum[-1] + line.link_length)
    total = cum[-1] or 1
    rule_idx = [i for i, r in enumerate(rules) if r]
    rules_share = sum(line.length for line, r in zip(lines, rules, strict=True) if r) / total
    # Every value rounded to 4 places, but the 0/1 ones, which are already, and the
    # page's and a block's, rounded once (round() of a rounded value is itself).
    page_values = [round(math.log1p(n), 4), round(rules_share, 4)]
    page_onehots = [float(page.page_type == t) for t in PAGE_TYPES] + [
        float(sel.kind == k) for k in KINDS
    ]
    rows = []
    nearest = _nearest_distances(rule_idx, n)
    logs = _Logs()
    blocks = _BlockValues(page, cum, link_cum, total, logs)
    for i, line in enumerate(lines):
        text = line.text
        length = line.length or 1
        row = [
            logs[line.length],
            logs[line.link_length],
            round(line.link_density, 4),
            round(len(_PUNCT.findall(text)) / length, 4),
            round(len(_DIGIT.findall(text)) / length, 4),
            logs[len(text.split())],
            float(bool(_END.search(text))),
            float(line.boilerplate),
            float(rules[i]),
            float(region[i]),
            float(itemprop[i]),
            float(line.href is not None),
            *blocks.of(line.block),
            round(i / n, 4),
            round(cum[i] / total, 4),
            round(nearest[i], 4),
            *page_values,
        ]
        row += _TAG_COLUMNS.get(line.tag, _NO_TAG)
        row.extend(page_onehots)
        row.extend(blocks.words(line.block))
        rows.append(row)
    return rows


class _Logs(dict[int, float]):
    """``log1p`` of a count, rounded to 4 places, made once per count (rounding costs
    more than the look-up, and a page's counts repeat)."""

    def __missing__(self, count: int) -> float:
        value = self[count] = round(math.log1p(count), 4)
        return value


class _BlockValues:
    """The values a line takes from its block element, its parent and grandparent,
    each block's share and link density computed once (siblings share a parent)."""

    def __init__(
        self, page: Page, cum: list[int], link_cum: list[int], total: int, logs: _Logs
    ) -> None:
        self.lines = page.selection.lines
        self.cum, self.link_cum, self.total, self.logs = cum, link_cum, total, logs
        self.depths = _depths(self.lines.parents)
        self._stats: dict[int, tuple[float, float]] = {}
        self._words: dict[tuple[str | None, ...], list[float]] = {}

    def _span_stats(self, b: int) -> tuple[float, float]:
        """The block's share of the page's text and its link density, rounded; once
        per block (siblings share their parent's)."""
        found = self._stats.get(b)
        if found is not None:
            return found
        lines = self.lines
        if not 0 <= b < len(lines.spans):
            return 1.0, 0.0
        start, end = lines.spans[b]
        size = self.cum[end] - self.cum[start]
        link = (self.link_cum[end] - self.link_cum[start]) / size if size else 0.0
        found = self._stats[b] = (round(size / self.total, 4), round(link, 4))
        return found

    def of(self, b: int) -> list[float]:
        """depth, log block lines, block share, parent share and link, grandparent's.
        Made per line: a line's block is seldom another's (98% of the labelled
        lines of wcxb_dev), its parent's and grandparent's often are."""
        lines = self.lines
        if not 0 <= b < len(lines.spans):
            return _NO_BLOCK
        parent = lines.parents[b]
        grand = lines.parents[parent] if 0 <= parent < len(lines.parents) else -1
        start, end = lines.spans[b]
        return [  # (a depth is a whole number: rounded already)
            float(self.depths[b]),
            self.logs[end - start],
            self._span_stats(b)[0],
            *self._span_stats(parent),
            *self._span_stats(grand),
        ]

    def words(self, b: int) -> list[float]:
        """The good and bad class-name words of the block's nearest ancestors (one
        list per sequence of their names: a listing's items repeat theirs)."""
        lines = self.lines
        names: list[str | None] = []
        a = b
        for _ in range(ANCESTORS):
            if not 0 <= a < len(lines.names):
                break
            names.append(lines.names[a])
            a = lines.parents[a]
        key = tuple(names)
        found = self._words.get(key)
        if found is None:
            parts: set[str] = set()
            for name in key:
                parts |= _name_parts(name)
            found = self._words[key] = [float(w in parts) for w in _WORDS]
        return found


def _nearest_distances(rule_idx: Sequence[int], n: int) -> list[float]:
    """Signed log distance of each line to the nearest rule-selected line (0 inside)."""
    if not rule_idx:
        return [10.0] * n
    out = []
    j = 0
    for i in range(n):
        while j + 1 < len(rule_idx) and abs(rule_idx[j + 1] - i) <= abs(rule_idx[j] - i):
            j += 1
        d = i - rule_idx[j]
        out.append(math.copysign(math.log1p(abs(d)), d))
    return out


# Columns whose neighbours' values a line sees, the offsets read, and the lines
# each side averaged for the window columns.
NEIGHBOUR_COLUMNS = (
    "log_len",
    "link_density",
    "punct",
    "rules",
    "boilerplate",
    "block_share",
    "parent_share",
    "ends_stop",
    "tag_li",
    "tag_p",
)
OFFSETS = (-3, -2, -1, 1, 2, 3)
WINDOW = 5
MATRIX_NAMES: tuple[str, ...] = (
    NAMES
    + tuple(f"{c}@{off:+d}" for off in OFFSETS for c in NEIGHBOUR_COLUMNS)
    + tuple(f"{c}@window" for c in NEIGHBOUR_COLUMNS)
)
_PICKED = tuple(NAMES.index(c) for c in NEIGHBOUR_COLUMNS)


def line_matrix(rows: Sequence[Sequence[float]]) -> Iterator[list[float]]:
    """Each row of :func:`page_features` with its neighbours' values appended
    (:data:`MATRIX_NAMES`: -1 past the page's ends) and the window means, every value
    a 32-bit float as the trees were trained on (held as Python floats). One row at
    a time: a page of 10 000 lines never holds its whole matrix."""
    n = len(rows)
    picked = [array("f", [row[c] for c in _PICKED]).tolist() for row in rows]
    cum = [[0.0] * len(_PICKED)]
    for values in picked:
        cum.append([a + b for a, b in zip(cum[-1], values, strict=True)])
    missing = [-1.0] * len(_PICKED)
    for i, row in enumerate(rows):
        full = array("f", row).tolist()
        for off in OFFSETS:
            j = i + off
            full += picked[j] if 0 <= j < n else missing
        lo, hi = max(i - WINDOW, 0), min(i + WINDOW + 1, n)
        size = hi - lo
        full += array("f", [(b - a) / size for a, b in zip(cum[lo], cum[hi], strict=True)]).tolist()
        yield full
