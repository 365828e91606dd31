"""Block kinds (Quark's page segmentation): every line is content, related links,
navigation or other boilerplate, and the related-article links are kept.

Decided after the selection, in one pass over the lines: lines of the main
regions are content; outside them, a linked headline in a group of at least
two (a "related", "read more" or "most read" list) is a related link, other
link-dominated lines are navigation, the rest is boilerplate. The links'
addresses come from one walk over the page's <a> elements, only for those lines.
"""

from __future__ import annotations

from itertools import islice
from urllib.parse import urljoin

from ._page import Page
from .lines import is_headline_link

__all__ = ["BLOCK_KINDS", "find_blocks"]

CONTENT, RELATED, NAVIGATION, BOILERPLATE = "content", "related", "navigation", "boilerplate"
BLOCK_KINDS = (CONTENT, RELATED, NAVIGATION, BOILERPLATE)
MIN_RELATED_GROUP = 2  # linked headlines sharing a parent that make a list of links
MAX_RELATED = 50  # related links kept per page
_MAX_ANCHORS = 20_000  # <a> elements read for addresses
NAVIGATION_LINK_SHARE = 0.5  # a line more linked than this is navigation


def find_blocks(page: Page) -> None:
    """Fill ``page.kinds`` (one per line) and ``page.related`` ((title, URL) pairs)."""
    lines = page.lines
    kinds = [BOILERPLATE] * len(lines)
    for start, end in page.regions:
        for i in range(start, end):
            if not lines[i].boilerplate:
                kinds[i] = CONTENT
    groups: dict[int, list[int]] = {}
    parents = lines.parents
    for i, line in enumerate(lines):
        if kinds[i] == CONTENT:
            continue
        if is_headline_link(line):
            group = parents[line.block] if line.block >= 0 else -1
            groups.setdefault(group, []).append(i)
            kinds[i] = NAVIGATION
        elif line.link_density > NAVIGATION_LINK_SHARE:
            kinds[i] = NAVIGATION
    titles: dict[str, int] = {}
    for members in groups.values():
        if len(members) >= MIN_RELATED_GROUP:
            for i in members:
                kinds[i] = RELATED
                titles.setdefault(lines[i].text, i)
    page.kinds = kinds
    if titles and page.page_type in ("article", "thread"):
        page.related = _addresses(page, titles)


def _addresses(page: Page, titles: dict[str, int]) -> list[tuple[str, str]]:
    """(title, absolute URL) of the related lines, in page order, each once."""
    found: dict[str, tuple[int, str]] = {}
    for anchor in islice(page.root.iter("a"), _MAX_ANCHORS):
        href = anchor.get("href")
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        text = " ".join("".join(anchor.itertext()).split())
        if text in titles and text not in found:
            url = urljoin(page.url, href.strip()) if page.url else href.strip()
            found[text] = (titles[text], url)
            if len(found) >= MAX_RELATED:
                break
    return [(text, url) for text, (_i, url) in sorted(found.items(), key=lambda kv: kv[1][0])]
