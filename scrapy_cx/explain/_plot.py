"""The line-block distribution as an inline SVG (the cx-extractor paper's figure).

Block *i* is lines *i..i+K-1*, as the selection weighs it; the x axis is the
block index (page order), the y axis the block's characters: text that is not
a link upwards, link text downwards on the same scale, so menus and headline
lists show as what they are. Bars take the colour of their first line's kind;
the selected region is a shaded band behind them; a strip under the axis shows
every line's kind. Plain SVG: any browser draws it, no script.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from html import escape

from ._explanation import Explanation

WIDTH = 960
LEFT, RIGHT = 64, 16  # room for the y tick labels
TOP = 34  # room for the region labels
UP_HEIGHT = 240  # plot height above the axis at the largest block
MIN_DOWN, MAX_DOWN = 36, 120  # plot height below the axis (link text)
STRIP = 14  # the per-line strip under the plot
MARKS = 16  # the T/D/A markers under the strip
BOTTOM = 40  # x tick labels and axis title
REGION_COLOUR = "#ffe082"
COST_COLOUR = "#c62828"
MIN_TICK_GAP = 14  # px between the axis and the first link tick label
LINK_OPACITY = 0.55
TICKS = 5  # about this many ticks per axis
MIN_BAR = 0.6  # px: thinner bars are widened so they still show
# Past this many blocks a column stands for several (its tallest block shows):
# thinner bars would be under a pixel anyway, and the file stays small.
MAX_COLUMNS = 1500


def _nice_step(top: float) -> int:
    """A round tick step (1, 2, 5 x 10^n) giving about ``TICKS`` ticks up to ``top``."""
    raw = max(top / TICKS, 1.0)
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= raw:
                return step * factor
        step *= 10


def block_sums(expl: Explanation) -> tuple[list[int], list[int]]:
    """Per block: characters of unlinked text and of link text (sliding sums, linear)."""
    k = max(1, expl.block_size)
    lines = expl.lines
    n = len(lines)
    text = [line.length - line.link_length for line in lines]
    links = [line.link_length for line in lines]
    out_text, out_links = [], []
    t = sum(text[:k])
    li = sum(links[:k])
    for i in range(n):
        if i:
            last = i + k - 1
            t += (text[last] if last < n else 0) - text[i - 1]
            li += (links[last] if last < n else 0) - links[i - 1]
        out_text.append(t)
        out_links.append(li)
    return out_text, out_links


def render_plot(expl: Explanation) -> str:
    """The figure, as an ``<svg>`` element."""
    text, links = block_sums(expl)
    n = max(len(text), 1)
    top_text = max(text, default=0) or 1
    top_link = max(links, default=0)
    scale = UP_HEIGHT / top_text
    down = min(MAX_DOWN, max(MIN_DOWN, top_link * scale))
    if top_link * scale > down:  # keep one scale unless links would dwarf the text
        scale = min(scale, down / top_link)
    axis_y = TOP + top_text * scale
    plot_w = WIDTH - LEFT - RIGHT
    bar_w = plot_w / n
    strip_y = axis_y + down + 8
    height = strip_y + STRIP + MARKS + BOTTOM

    def x(i: float) -> float:
        return LEFT + i * bar_w

    out: list[str] = [
        f'<svg class="cx-plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} '
        f'{height:.0f}" width="{WIDTH}" height="{height:.0f}" role="img" '
        f'aria-label="line-block distribution of the page">'
    ]
    for number, (start, end) in enumerate(expl.regions, 1):
        label = "selected: main text" if len(expl.regions) == 1 else f"selected region {number}"
        out.append(
            f'<rect class="cx-region" x="{x(start):.1f}" y="{TOP - 6}" '
            f'width="{max(x(end) - x(start), 2):.1f}" height="{strip_y + STRIP - TOP + 6:.1f}" '
            f'fill="{REGION_COLOUR}"><title>{escape(label)}: lines {start + 1}-{end}</title></rect>'
            f'<text class="cx-region-label" x="{x(start):.1f}" y="{TOP - 12}">'
            f"{escape(label)} (lines {start + 1}-{end})</text>"
        )
    out.extend(_y_axis(axis_y, scale, top_text, top_link, down))
    per = blocks_per_column(len(text))
    widen = max(bar_w * per, MIN_BAR)
    k = max(1, expl.block_size)
    for b in range(0, len(text), per):
        span = range(b, min(b + per, len(text)))
        tallest = max(span, key=text.__getitem__)
        linkiest = max(span, key=links.__getitem__)
        if text[tallest] or links[linkiest]:
            out.append('<g class="cx-block">')
            out.extend(_stack(expl, tallest, k, x(b), widen, axis_y, scale, upwards=True))
            out.extend(_stack(expl, linkiest, k, x(b), widen, axis_y, scale, upwards=False))
            out.append("</g>")
    out.append(
        f'<line class="cx-axis" x1="{LEFT}" y1="{axis_y:.1f}" x2="{WIDTH - RIGHT}" '
        f'y2="{axis_y:.1f}" stroke="#222"/>'
    )
    cost_y = axis_y - expl.line_cost * scale
    if cost_y > TOP:
        out.append(
            f'<line class="cx-cost" x1="{LEFT}" y1="{cost_y:.1f}" x2="{WIDTH - RIGHT}" '
            f'y2="{cost_y:.1f}" stroke="{COST_COLOUR}" stroke-dasharray="5 4"/>'
        )
    lines = expl.lines
    for b in range(0, len(lines), per):
        # One cell per line; on a huge page, per column: its most common kind.
        kind = Counter(line.kind for line in lines[b : b + per]).most_common(1)[0][0]
        out.append(
            f'<rect class="cx-line cx-{kind.name}" x="{x(b):.2f}" y="{strip_y:.1f}" '
            f'width="{widen:.2f}" height="{STRIP}" fill="{kind.colour}"/>'
        )
    out.extend(_marks(expl, x, strip_y + STRIP, bar_w))
    out.extend(_x_axis(len(expl.lines), x, strip_y + STRIP + MARKS, expl.block_size))
    out.append("</svg>")
    return "".join(out)


def blocks_per_column(blocks: int) -> int:
    """1, or on a huge page how many blocks share one drawn column (the tallest shows)."""
    return max(1, -(-blocks // MAX_COLUMNS))


def _stack(
    expl: Explanation,
    block: int,
    k: int,
    x: float,
    width: float,
    axis_y: float,
    scale: float,
    *,
    upwards: bool,
) -> list[str]:
    """One block's bar: its lines stacked in page order, each in its kind's colour;
    text outside links upwards from the axis, or link text downwards, paler."""
    out = []
    up = down = 0.0
    for line in expl.lines[block : block + k]:
        kind = line.kind
        text = (line.length - line.link_length) * scale if upwards else 0
        links = 0 if upwards else line.link_length * scale
        if text:
            up += text
            out.append(
                f'<rect class="cx-bar cx-{kind.name}" x="{x:.2f}" y="{axis_y - up:.2f}" '
                f'width="{width:.2f}" height="{text:.2f}" fill="{kind.colour}"/>'
            )
        if links:
            out.append(
                f'<rect class="cx-link-bar cx-{kind.name}" x="{x:.2f}" y="{axis_y + down:.2f}" '
                f'width="{width:.2f}" height="{links:.2f}" fill="{kind.colour}" '
                f'fill-opacity="{LINK_OPACITY}"/>'
            )
            down += links
    return out


def _y_axis(axis_y: float, scale: float, top_text: int, top_link: int, down: float) -> list[str]:
    out = []
    step = _nice_step(top_text)
    for value in range(0, top_text + 1, step):
        y = axis_y - value * scale
        out.append(
            f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
            f'stroke="#e0e0e0"/><text class="cx-tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
            f'text-anchor="end">{value}</text>'
        )
    if top_link:
        value = _nice_step(top_link)
        if MIN_TICK_GAP <= value * scale <= down:
            y = axis_y + value * scale
            out.append(
                f'<text class="cx-tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
                f'text-anchor="end">{value}</text>'
            )
    mid_up = (TOP + axis_y) / 2
    mid_down = axis_y + down / 2
    out.append(
        f'<text class="cx-axis-title" transform="translate(14 {mid_up:.0f}) rotate(-90)" '
        f'text-anchor="middle">text characters</text>'
        f'<text class="cx-axis-title" transform="translate(14 {mid_down:.0f}) rotate(-90)" '
        f'text-anchor="middle">links</text>'
    )
    return out


def _marks(expl: Explanation, x: Callable[[float], float], y: float, bar_w: float) -> list[str]:
    """T, D and A under the strip: the lines the title, date and authors came from."""
    out = []
    for evidence in expl.evidence:
        if evidence.line is None:
            continue
        letter = evidence.field[0].upper()
        cx = x(evidence.line) + bar_w / 2
        out.append(
            f'<text class="cx-mark" x="{cx:.1f}" y="{y + 12:.1f}" text-anchor="middle">'
            f"{letter}<title>{escape(evidence.field)}: {escape(evidence.where)}</title></text>"
        )
    return out


def _x_axis(n: int, x: Callable[[float], float], y: float, k: int) -> list[str]:
    out = []
    step = _nice_step(max(n, 1))
    for value in [1, *range(step, n + 1, step)]:  # numbered from 1, as lines are
        out.append(
            f'<text class="cx-tick" x="{x(value - 0.5):.1f}" y="{y + 12:.1f}" '
            f'text-anchor="middle">{value}</text>'
        )
    out.append(
        f'<text class="cx-axis-title" x="{LEFT + (WIDTH - LEFT - RIGHT) / 2:.0f}" '
        f'y="{y + 30:.1f}" text-anchor="middle">block number i (lines i to i+{k - 1}), '
        f"in page order; the strip above: each line's kind</text>"
    )
    return out
