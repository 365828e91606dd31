"""Per-line features of an extracted page, for a learned line labeller (issue 38).

Language-independent: counts of characters, links and punctuation, the block
element's tag, depth and share of the page, class-name words of its ancestors,
position, the page type, and the current rules' own choice (in the body, in a
region, boilerplate). Neighbours' features are added by the learner
(benchmarks.learn), which reads these rows from the files benchmarks.labels wrote.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from scrapy_cx.extract import Page

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
PAGE_TYPES = ("article", "thread", "listing", "other")
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
_PUNCT = re.compile(r"[^\w\s]")
_DIGIT = re.compile(r"\d")
_PART = re.compile(r"[a-z]+")
_END = re.compile(r"[.!?。！？:;…]\s*$")
ANCESTORS = 3

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


def _depths(parents: Sequence[int]) -> list[int]:
    """Depth of each block element (parents come before their children)."""
    depths = [0] * len(parents)
    for b, parent in enumerate(parents):
        depths[b] = depths[parent] + 1 if 0 <= parent < b else 0
    return depths


def page_features(page: Page) -> list[list[float]]:
    """One row of :data:`NAMES` per line of ``page.selection.lines``."""
    sel = page.selection
    lines = sel.lines
    n = len(lines)
    if not n:
        return []
    in_body = {id(line) for line in sel.body}
    rules = [id(line) in in_body for line in lines]
    region = [False] * n
    for start, end in sel.regions:
        for i in range(max(0, start), min(n, end)):
            region[i] = True
    itemprop = [False] * n
    for b in lines.bodies:
        if 0 <= b < len(lines.spans):
            start, end = lines.spans[b]
            for i in range(max(0, start), min(n, end)):
                itemprop[i] = True
    cum = [0]
    link_cum = [0]
    for line in lines:
        cum.append(cum[-1] + line.length)
        link_cum.append(link_cum[-1] + line.link_length)
    total = cum[-1] or 1
    depths = _depths(lines.parents)
    rule_idx = [i for i, r in enumerate(rules) if r]
    rules_share = sum(line.length for line, r in zip(lines, rules, strict=True) if r) / total
    page_counts = [math.log1p(n), rules_share]
    page_onehots = [float(page.page_type == t) for t in PAGE_TYPES] + [
        float(sel.kind == k) for k in KINDS
    ]

    def span_stats(b: int) -> tuple[float, float]:
        if not 0 <= b < len(lines.spans):
            return 1.0, 0.0
        start, end = lines.spans[b]
        size = cum[end] - cum[start]
        return size / total, (link_cum[end] - link_cum[start]) / size if size else 0.0

    rows = []
    nearest = _nearest_distances(rule_idx, n)
    for i, line in enumerate(lines):
        b = line.block
        valid = 0 <= b < len(lines.spans)
        parent = lines.parents[b] if valid else -1
        grand = lines.parents[parent] if 0 <= parent < len(lines.parents) else -1
        block_share, _ = span_stats(b)
        parent_share, parent_link = span_stats(parent)
        grand_share, grand_link = span_stats(grand)
        span = lines.spans[b] if valid else (i, i + 1)
        parts: set[str] = set()
        a = b
        for _ in range(ANCESTORS):
            if not 0 <= a < len(lines.names):
                break
            parts |= _name_parts(lines.names[a])
            a = lines.parents[a]
        text = line.text
        length = line.length or 1
        row = [
            math.log1p(line.length),
            math.log1p(line.link_length),
            line.link_density,
            len(_PUNCT.findall(text)) / length,
            len(_DIGIT.findall(text)) / length,
            math.log1p(len(text.split())),
            float(bool(_END.search(text))),
            float(line.boilerplate),
            float(rules[i]),
            float(region[i]),
            float(itemprop[i]),
            float(line.href is not None),
            float(depths[b]) if valid else 0.0,
            math.log1p(span[1] - span[0]),
            block_share,
            parent_share,
            parent_link,
            grand_share,
            grand_link,
            i / n,
            cum[i] / total,
            nearest[i],
            *page_counts,
        ]
        row.extend(float(line.tag == t) for t in TAGS)
        row.extend(page_onehots)
        row.extend(float(w in parts) for w in GOOD_WORDS)
        row.extend(float(w in parts) for w in BAD_WORDS)
        rows.append(row)
    return rows


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
