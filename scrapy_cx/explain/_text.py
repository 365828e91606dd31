"""``scrapy-cx explain PAGE --text``: the report's gist for a terminal.

The fields with where each was found, the page type and what a crawl does
with the page, the selected lines and the structure they kept (headings, list
items, table rows... each with its line), the count of lines by kind, and the
line-block distribution as one row of bar characters with the selected region
marked under it. Every line is escaped for the terminal:
a title or file name holding ESC or CSI would otherwise drive it.
"""

from __future__ import annotations

from ..bulk import printable
from ._explanation import (
    Explanation,
    line_spans,
    structure_summary,
    text_size,
    verdict_summary,
)
from ._plot import block_sums

BARS = " ▁▂▃▄▅▆▇█"
COLUMNS = 72  # width of the distribution row
LABEL = 11  # width of the left column
MAX_OUTLINE = 30  # kept lines shown with their shape, beyond the paragraphs
OUTLINE_TEXT = 50  # characters of each


def render_text(expl: Explanation) -> str:
    """A few lines summing up one page's explanation."""
    out = [expl.source]
    for evidence in expl.evidence:
        value = evidence.value if evidence.value is not None else "(not found)"
        if evidence.field == "published" and expl.article.published:
            value = f"{expl.article.published}  (read from {evidence.value!r})"
        out.append(f"  {evidence.field:<{LABEL - 1}} {value}")  # a long name still spaced
        out.append(f"  {'':<{LABEL}}  found in: {evidence.where}")
    out.append(f"  {'page type':<{LABEL}}{verdict_summary(expl)}")
    if expl.page_type_why:
        out.append(f"  {'':<{LABEL}}  because: {expl.page_type_why}")
    if expl.regions:
        spans = line_spans(expl.regions)
        out.append(
            f"  {'main text':<{LABEL}}{text_size(expl)}, lines {spans} of {len(expl.lines)}"
        )
    else:
        out.append(f"  {'main text':<{LABEL}}none: no run of lines is dense enough")
    if expl.chosen_by:
        out.append(f"  {'':<{LABEL}}  chosen by the {expl.chosen_by}")
    out.append(f"  {'structure':<{LABEL}}{structure_summary(expl)}")
    out.extend(_outline(expl))
    counts = {kind.name: 0 for kind in expl.kinds}
    for line in expl.lines:
        counts[line.kind.name] = counts.get(line.kind.name, 0) + 1
    out.append(f"  {'lines':<{LABEL}}" + ", ".join(f"{n} {name}" for name, n in counts.items()))
    bars, marks = _sparkline(expl)
    if bars:
        out.append(f"  {'blocks':<{LABEL}}{bars}")
        out.append(f"  {'':<{LABEL}}{marks}  (^ selected; bar height: text outside links)")
    return "\n".join(printable(line) for line in out)


def _outline(expl: Explanation) -> list[str]:
    """The kept lines that became more than a paragraph: number, shape, start of the text."""
    shaped = [(i, line) for i, line in enumerate(expl.lines) if line.shape not in (None, "p")]
    out = []
    for i, line in shaped[:MAX_OUTLINE]:
        text = line.text if len(line.text) <= OUTLINE_TEXT else line.text[: OUTLINE_TEXT - 1] + "…"
        out.append(f"  {'':<{LABEL}}{i + 1:>5}  {line.shape:<8}{text}")
    if len(shaped) > MAX_OUTLINE:
        out.append(f"  {'':<{LABEL}}… {len(shaped) - MAX_OUTLINE} more")
    return out


def _sparkline(expl: Explanation) -> tuple[str, str]:
    text, _links = block_sums(expl)
    n = len(text)
    if not n:
        return "", ""
    columns = min(COLUMNS, n)
    peaks = [0] * columns
    for i, value in enumerate(text):
        column = i * columns // n
        peaks[column] = max(peaks[column], value)
    top = max(peaks) or 1
    bars = "".join(BARS[round(p / top * (len(BARS) - 1))] for p in peaks)
    marks = [" "] * columns
    for start, end in expl.regions:
        for column in range(
            start * columns // n, max(start * columns // n + 1, -(-end * columns // n))
        ):
            marks[min(column, columns - 1)] = "^"
    return bars, "".join(marks)
