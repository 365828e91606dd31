"""Block kinds (Quark's page segmentation): every line is content, related links,
navigation or other boilerplate, and the related-article links are kept.

Decided after the selection, in one pass over the lines: lines of the main
regions that the text holds are content; outside them, a linked headline in a group of at least
two (a "related", "read more" or "most read" list) is a related link, other
link-dominated lines are navigation, the rest is boilerplate. A line keeps its
first link's address from the line walk.
"""

from __future__ import annotations

from .._urls import http_url
from ..page import Page
from .regions import is_headline_link

__all__ = ["BLOCK_KINDS", "find_blocks"]

CONTENT, RELATED, NAVIGATION, BOILERPLATE = "content", "related", "navigation", "boilerplate"
BLOCK_KINDS = (CONTENT, RELATED, NAVIGATION, BOILERPLATE)
MIN_RELATED_GROUP = 2  # linked headlines sharing a parent that make a list of links
MAX_RELATED = 50  # related links kept per page
NAVIGATION_LINK_SHARE = 0.5  # a line more linked than this is navigation


def find_blocks(page: Page) -> None:
    """Fill ``page.kinds`` (one per line) and ``page.related`` ((title, URL) pairs)."""
    lines = page.lines
    kinds = [BOILERPLATE] * len(lines)
    # A region's line is content when the text holds it: the text's own rules (a
    # dateline, a credit, a teaser, a pull quote: text.main_lines, choose.select_lead)
    # leave some unmarked lines of the region out of it.
    body = {id(line) for line in page.selection.body}
    for start, end in page.regions:
        for i in range(start, end):
            if not lines[i].boilerplate and id(lines[i]) in body:
                kinds[i] = CONTENT
    groups: dict[int, list[int]] = {}
    parents = lines.parents
    for i, line in enumerate(lines):
        if not line.link_length or kinds[i] == CONTENT:
            continue
        if is_headline_link(line):
            group = parents[line.block] if line.block >= 0 else -1
            groups.setdefault(group, []).append(i)
            kinds[i] = NAVIGATION
        elif line.link_length > NAVIGATION_LINK_SHARE * line.length:
            kinds[i] = NAVIGATION
    listed: list[int] = []  # the related lines (each line is in one group)
    for members in groups.values():
        if len(members) >= MIN_RELATED_GROUP:
            for i in members:
                kinds[i] = RELATED
            listed += members
    page.kinds = kinds
    if page.page_type not in ("article", "thread"):
        return
    related: dict[str, str] = {}
    for i in sorted(listed):  # in page order, without a pass over every line
        href = lines[i].href
        if href and not href.lstrip().startswith("#"):  # not a place in this page
            text = lines[i].text
            if text not in related:
                address = http_url(page.base_url, href)  # http(s) only: no javascript:
                if address is None:
                    continue
                related[text] = address
                if len(related) >= MAX_RELATED:
                    break
    page.related = list(related.items())
