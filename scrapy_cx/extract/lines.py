"""Main text by line-block distribution (cx-extractor, Chen Xin, HIT 2010).

The published method reads the source's own newlines; minified pages have one
line, so lines here come from one walk over the parsed tree: every block-level
element starts a new line. Each line keeps how much of it is link text and
whether it sits in boilerplate (menus, asides, hidden or boilerplate-named
elements), so the selection stays a linear scan over lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

BLOCK_TAGS = frozenset(
    """address article aside blockquote body br dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav
    ol p pre section summary table tbody td tfoot th thead tr ul caption center""".split()
)
SKIP_TAGS = frozenset(
    """script style noscript template svg math iframe object embed canvas video audio
    select option textarea button input head title map""".split()
)
HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6".split())
BOILERPLATE_TAGS = frozenset("nav aside footer menu".split())
_BOILERPLATE_NAME = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|menu|footer|sidebar|side-bar|breadcrumbs?|share|sharing|"
    r"social|comments?|related|recommend\w*|promo|advert\w*|ads?|banner|cookie|popup|"
    r"newsletter|subscribe|copyright|toolbar|pagination|pager|tags?)(?:$|[\s_-])",
    re.I,
)
_WS = re.compile(r"\s+")


@dataclass(slots=True)
class Line:
    """One visual line of the page: the text of one block element's inline run."""

    text: str
    length: int  # non-whitespace characters
    link_length: int  # non-whitespace characters inside <a>
    tag: str  # the block element that holds the line
    boilerplate: bool  # inside an element that is never main text

    @property
    def is_heading(self) -> bool:
        return self.tag in HEADING_TAGS

    @property
    def link_density(self) -> float:
        return self.link_length / self.length if self.length else 0.0


def _nonspace_len(text: str) -> int:
    return len(text) - sum(text.count(c) for c in " \t\n\r\f\v\u3000\xa0")


def _is_boilerplate(el: etree._Element) -> bool:
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag in BOILERPLATE_TAGS:
        return True
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    if style and "display:none" in style.replace(" ", "").lower():
        return True
    names = (el.get("class") or "") + " " + (el.get("id") or "")
    if names.strip() and _BOILERPLATE_NAME.search(names):
        return True
    role = el.get("role")
    return role in ("navigation", "banner", "contentinfo", "complementary")


def page_lines(root: etree._Element) -> list[Line]:
    """Walk the tree once and cut its visible text into lines (linear in the page size)."""
    lines: list[Line] = []
    parts: list[str] = []
    link_chars = 0
    block_stack: list[str] = []
    boiler_depth = 0  # how many open boilerplate ancestors
    link_depth = 0
    boiler_marks: list[bool] = []

    def flush() -> None:
        nonlocal link_chars
        if parts:
            text = _WS.sub(" ", "".join(parts)).strip()
            parts.clear()
            if text:
                lines.append(
                    Line(
                        text,
                        _nonspace_len(text),
                        min(link_chars, _nonspace_len(text)),
                        block_stack[-1] if block_stack else "body",
                        boiler_depth > 0,
                    )
                )
        link_chars = 0

    def add(text: str | None) -> None:
        nonlocal link_chars
        if text:
            parts.append(text)
            if link_depth:
                link_chars += _nonspace_len(text)

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            if tag in SKIP_TAGS or not tag:
                walker.skip_subtree()
                boiler_marks.append(False)
                continue
            if tag in BLOCK_TAGS:
                flush()
                block_stack.append(tag)
            marked = _is_boilerplate(el)
            boiler_marks.append(marked)
            if marked:
                boiler_depth += 1
            if tag == "a":
                link_depth += 1
            add(el.text)
        else:
            if boiler_marks.pop():
                boiler_depth -= 1
            if tag == "a" and link_depth:
                link_depth -= 1
            if tag in BLOCK_TAGS and tag not in SKIP_TAGS:
                flush()
                if block_stack:
                    block_stack.pop()
            add(el.tail)
    flush()
    return lines


@dataclass(frozen=True, slots=True)
class LineOptions:
    """Tunables of the line-block selection (defaults calibrated on the AEB set)."""

    block_size: int = 3  # K: lines per block
    line_cost: int = 40  # subtracted from each block before the maximum-sum run
    max_link_density: float = 0.5  # lines more linked than this count as empty


def _weights(lines: list[Line], options: LineOptions) -> list[int]:
    return [
        0
        if (line.boilerplate or line.link_density > options.max_link_density)
        else line.length - line.link_length
        for line in lines
    ]


def select_main(lines: list[Line], options: LineOptions = LineOptions()) -> tuple[int, int]:
    """Return ``(start, end)``: the slice of ``lines`` holding the main text.

    Block *i* is the weight of lines *i..i+K-1*; the region is the maximum-sum run
    of (block - line_cost), found in one pass (Kadane), then trimmed to lines
    that carry text.
    """
    weights = _weights(lines, options)
    k = max(1, options.block_size)
    window = sum(weights[:k])
    best_sum, best = 0, (0, 0)
    run_sum, run_start = 0, 0
    for i in range(len(weights)):
        if i:
            window += (weights[i + k - 1] if i + k - 1 < len(weights) else 0) - weights[i - 1]
        score = window - options.line_cost
        if run_sum <= 0:
            run_sum, run_start = score, i
        else:
            run_sum += score
        if run_sum > best_sum:
            best_sum, best = run_sum, (run_start, i + 1)
    start, end = best
    while start < end and weights[start] == 0:
        start += 1
    while end > start and weights[end - 1] == 0:
        end -= 1
    return start, end


def main_text(lines: Iterable[Line]) -> str:
    """Join selected lines into the article text, one paragraph per line."""
    return "\n".join(line.text for line in lines if not line.boilerplate)
