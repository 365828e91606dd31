"""The ``scrapy-cx explain`` report: one self-contained HTML file per page.

Everything is inline (styles, the SVG figure); there is no script and nothing
is fetched, so the file opens offline and reads the same in any browser. The
page's own text appears only escaped.
"""

from __future__ import annotations

from html import escape

from ._explanation import (
    Explanation,
    ShownLine,
    line_spans,
    structure_summary,
    text_size,
    verdict_summary,
)
from ._plot import COST_COLOUR, REGION_COLOUR, blocks_per_column, render_plot

MAX_SHOWN = 160  # characters of each line shown in the line table
# A huge page's table shows its first lines, the start of each region and the
# lines around the evidence, so the report stays a few MB at most.
MAX_TABLE_LINES = 2000
HEAD_ROWS, REGION_ROWS, CONTEXT_ROWS = 200, 1000, 30

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1000px;
       color: #212121; padding: 0 12px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 6px; }
.source { color: #555; word-break: break-all; margin: 0 0 12px; }
table { border-collapse: collapse; }
td, th { padding: 3px 8px; vertical-align: top; text-align: left; }
.fields th { color: #555; font-weight: 600; } .fields td.where { color: #555; }
.missing { color: #b71c1c; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 6px 0; }
.swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -1px;
          margin-right: 5px; border: 1px solid #0003; }
.cx-plot text { font: 11px system-ui, sans-serif; fill: #333; }
.cx-plot .cx-region-label { font-weight: 600; fill: #6d4c00; }
.cx-plot .cx-cost-label { fill: #c62828; } .cx-plot .cx-mark { font-weight: 700; }
.note { color: #555; font-size: 13px; max-width: 900px; }
.lines td { border-bottom: 1px solid #eee; font-size: 13px; }
.lines td.n, .lines td.c { text-align: right; color: #555; white-space: nowrap; }
.lines td.k { white-space: nowrap; }
.lines tr.in-region td { background: $region; }
.lines td.text { word-break: break-word; }
.dash { display: inline-block; width: 22px; border-top: 2px dashed; vertical-align: 3px;
        margin-right: 5px; }
.tag { color: #555; font-family: ui-monospace, monospace; font-size: 12px; }
.role { font-weight: 700; }
.shape { font-family: ui-monospace, monospace; font-size: 12px; background: #e8eaf6;
         border-radius: 3px; padding: 0 4px; }
""".replace("$region", REGION_COLOUR)


def render_html(expl: Explanation) -> str:
    """The whole report for one page."""
    article = expl.article
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>scrapy-cx explain: {escape(article.title or expl.source)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>How scrapy-cx read this page</h1>",
        f'<p class="source">{escape(expl.source)}</p>',
        _fields(expl),
        "<h2>Where the text is: the line-block distribution</h2>",
        _legend(expl),
        render_plot(expl),
        _note(expl),
        "<h2>The page, line by line</h2>",
        '<p class="note">Every line of visible text, in page order, with its kind; the '
        "selected lines are shaded as in the figure, each with what it became in the "
        "body's HTML (a heading h2-h6, p, li, a table row or cell, a caption, a quote, "
        "code). Long lines are cut.</p>",
        _lines_table(expl),
        "</body></html>",
    ]
    return "\n".join(parts)


def _fields(expl: Explanation) -> str:
    rows = []
    for evidence in expl.evidence:
        if evidence.value is None:
            value = '<span class="missing">not found</span>'
        else:
            value = escape(evidence.value)
            if evidence.field == "published" and expl.article.published:
                read = f"<span class='tag'>(read from “{value}”)</span>"
                value = f"{escape(expl.article.published)} {read}"
        rows.append(
            f"<tr><th>{escape(evidence.field)}</th><td>{value}</td>"
            f'<td class="where">found in: {escape(evidence.where)}</td></tr>'
        )
    if expl.regions:
        region = f"{text_size(expl)} from lines {line_spans(expl.regions)} of {len(expl.lines)}"
    else:
        region = (
            '<span class="missing">none: no run of lines is dense enough (not an article)</span>'
        )
    chosen = f"chosen by the {expl.chosen_by}" if expl.chosen_by else ""
    rows.append(
        f"<tr><th>main text</th><td>{region}</td>"
        f'<td class="where">{escape(chosen)}</td></tr>'
    )
    why = f"because: {expl.page_type_why}" if expl.page_type_why else ""
    rows.append(
        f"<tr><th>page type</th><td>{escape(verdict_summary(expl))}</td>"
        f'<td class="where">{escape(why)}</td></tr>'
    )
    rows.append(
        f'<tr><th>structure</th><td colspan="2">{escape(structure_summary(expl))}</td></tr>'
    )
    if expl.article.language:
        rows.append(
            f'<tr><th>language</th><td colspan="2">{escape(expl.article.language)}</td></tr>'
        )
    return '<table class="fields">' + "".join(rows) + "</table>"


def _legend(expl: Explanation) -> str:
    items = [
        f'<span><span class="swatch" style="background:{REGION_COLOUR}"></span>'
        "selected as the article's main text</span>"
    ]
    for kind in expl.kinds:
        items.append(
            f'<span><span class="swatch" style="background:{kind.colour}"></span>'
            f"<b>{escape(kind.name)}</b>: {escape(kind.meaning)}</span>"
        )
    items.append(
        f'<span><span class="dash" style="border-color:{COST_COLOUR}"></span>block cost '
        f"({expl.line_cost:g} characters): the selected region is the run of blocks that "
        "most outweighs it, link text counting against</span>"
    )
    items.append(
        "<span><b>T</b>, <b>D</b>, <b>A</b> under the strip: the lines the title, date "
        "and authors were read from</span>"
    )
    return '<div class="legend">' + "".join(items) + "</div>"


def _note(expl: Explanation) -> str:
    k = expl.block_size
    more = ""
    per = blocks_per_column(len(expl.lines))
    if per > 1:
        more = (
            f" This page has {len(expl.lines)} blocks: each column stands for {per} "
            "consecutive blocks and shows the one with most text (below: most link text)."
        )
    return (
        f'<p class="note">Each bar is one block of {k} consecutive lines (x: its number, '
        "in page order), as the cx-extractor method weighs them: upwards, characters of "
        "text outside links; downwards, paler, characters inside links, on the same scale. "
        "A bar stacks its lines in page order, each in its kind's colour; the strip under "
        "the axis colours every line. Article text shows as a tall, dense run of bars; "
        "menus and headline lists as runs of link text. The letters under the strip mark "
        "the lines the <b>T</b>itle, <b>D</b>ate (published) and "
        f"<b>A</b>uthors were read from.{more}</p>"
    )


def _lines_table(expl: Explanation) -> str:
    inside: set[int] = set()
    for start, end in expl.regions:
        inside.update(range(start, end))
    roles: dict[int, list[str]] = {}
    for evidence in expl.evidence:
        if evidence.line is not None:
            roles.setdefault(evidence.line, []).append(evidence.field)
    scored = any(line.score is not None for line in expl.lines)
    rows = [
        '<table class="lines"><tr><th>line</th><th>kind</th><th>became</th><th>chars</th>'
        f"<th>in links</th>{'<th>P(main)</th>' if scored else ''}<th>text</th></tr>"
    ]
    shown = 0
    for first, last in _shown_windows(expl, roles):
        if first > shown:
            rows.append(_gap(first - shown, scored))
        for i in range(first, last):
            rows.append(_row(expl, i, i in inside, roles.get(i), scored))
        shown = last
    if shown < len(expl.lines):
        rows.append(_gap(len(expl.lines) - shown, scored))
    rows.append("</table>")
    return "".join(rows)


def _gap(count: int, scored: bool) -> str:
    span = 6 if scored else 5
    return f'<tr><td></td><td colspan="{span}" class="tag">… {count} lines not shown …</td></tr>'


def _shown_windows(expl: Explanation, roles: dict[int, list[str]]) -> list[tuple[int, int]]:
    """Line ranges the table shows: all of them, or on a huge page the telling ones."""
    n = len(expl.lines)
    if n <= MAX_TABLE_LINES:
        return [(0, n)]
    wanted = [(0, HEAD_ROWS)]
    wanted += [(a - CONTEXT_ROWS, min(b, a + REGION_ROWS) + CONTEXT_ROWS) for a, b in expl.regions]
    wanted += [(i - CONTEXT_ROWS, i + CONTEXT_ROWS) for i in roles]
    merged: list[tuple[int, int]] = []
    for a, b in sorted((max(0, a), min(n, b)) for a, b in wanted):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _row(expl: Explanation, i: int, inside: bool, role: list[str] | None, scored: bool) -> str:
    line = expl.lines[i]
    score = ""
    if scored:
        score = f'<td class="c">{line.score:.2f}</td>' if line.score is not None else "<td></td>"
    mark = f'<span class="role">[{escape(", ".join(role))}]</span> ' if role else ""
    shaded = ' class="in-region"' if inside else ""
    shape = f'<span class="shape">{escape(line.shape)}</span>' if line.shape else ""
    return (
        f'<tr{shaded}><td class="n">{i + 1}</td>'
        f'<td class="k"><span class="swatch" style="background:{line.kind.colour}"></span>'
        f'{escape(line.kind.name)}</td><td class="k">{shape}</td><td class="c">{line.length}</td>'
        f'<td class="c">{line.link_length}</td>{score}<td class="text">{mark}'
        f'<span class="tag">&lt;{escape(line.tag)}&gt;</span> {escape(_cut(line))}</td></tr>'
    )


def _cut(line: ShownLine) -> str:
    text = line.text
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"
