"""Block kinds (Quark's page segmentation): every line is content, related links,
navigation or other boilerplate, and the related-article links are kept.

Decided after the selection, in one pass over the lines: lines of the main
regions that the text holds are content; outside them, a linked headline in a group of at least
two (a "related", "read more" or "most read" list) is a related link, other
link-dominated lines are navigation, the rest is boilerplate. A line keeps its
first link's address from the line walk.

A related link is another page to read: not the page itself (a "recent posts"
list holds it), not a share button (a share service's address), not a bare
label ("Previous post" above the headline it leads to) or a labelled line of
tags ("Tags: islanders").
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from .._urls import http_url
from ..page import Page
from ..parse.lines import Line
from .regions import is_headline_link

__all__ = ["BLOCK_KINDS", "find_blocks"]

CONTENT, RELATED, NAVIGATION, BOILERPLATE = "content", "related", "navigation", "boilerplate"
BLOCK_KINDS = (CONTENT, RELATED, NAVIGATION, BOILERPLATE)
MIN_RELATED_GROUP = 2  # linked headlines sharing a parent that make a list of links
MAX_RELATED = 50  # related links kept per page
NAVIGATION_LINK_SHARE = 0.5  # a line more linked than this is navigation
# Sites whose links on an article are share buttons (or follow buttons), never
# another story: a host is theirs when it is one of these or under one.
SHARE_HOSTS = frozenset(
    """twitter.com x.com facebook.com fb.com linkedin.com pinterest.com reddit.com
    tumblr.com whatsapp.com wa.me t.me telegram.me vk.com ok.ru weibo.com line.me
    getpocket.com flipboard.com buffer.com digg.com mix.com xing.com addtoany.com
    sharethis.com""".split()
)
# A link's whole text that only names where it leads in a sequence, not what.
_LABEL = re.compile(
    r"(?:previous|prev|next|older|newer)(?: (?:post|article|story|entry|page))?"
    r"|read more|continue reading|more",
    re.IGNORECASE,
)
# A line that opens with an unlinked label of a list of terms ("Tags: islanders").
_LABELLED = re.compile(
    r"(?:tags?|tagged(?: with)?|topics?|categories|category|categori[sz]ed as|filed under"
    r"|posted in|labels?|keywords|share(?: this)?(?: on)?|schlagw[öo]rter|themen|标签|標籤"
    r"|关键词|關鍵詞)\b\s*[:：]?",
    re.IGNORECASE,
)
_DECORATION = " \t\n«»‹›<>←→⟵⟶|·:-–—"


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
    base = page.base_url
    own = {_place(url)[0] for url in (page.url, page.meta.canonical_url) if url}
    host = _place(base)[1] if base else ""
    for i in sorted(listed):  # in page order, without a pass over every line
        line = lines[i]
        href = line.href
        if href and not href.lstrip().startswith("#"):  # not a place in this page
            text = line.text
            if text not in related and not _label(line):
                address = http_url(base, href)  # http(s) only: no javascript:, mailto:
                if address is None:
                    continue
                key, target = _place(address)
                if key in own or _shares(target, host):
                    continue
                related[text] = address
                if len(related) >= MAX_RELATED:
                    break
    page.related = list(related.items())


def _label(line: Line) -> bool:
    """Whether a line is a bare label ("Previous post") or opens with an unlinked one
    ("Tags: islanders")."""
    text = line.text
    if _LABEL.fullmatch(text.strip(_DECORATION)):
        return True
    label = _LABELLED.match(text)
    if label is None:
        return False
    unlinked = line.length - line.link_length
    return unlinked >= len("".join(label.group().split()))


def _place(url: str) -> tuple[str, str]:
    """``(key, host)``: the page's address as the same page compares (host and path, no
    trailing slash, query; no scheme, no fragment) and its lower-case host ("" for an
    address urlsplit refuses)."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:
        return url, ""
    return f"{host}{parts.path.rstrip('/')}?{parts.query}", host


def _shares(target: str, host: str) -> bool:
    """Whether host ``target`` is a share service's (or under one), and the page's
    ``host`` is not on that service."""
    service = target
    while service:
        if service in SHARE_HOSTS:
            return not (host == service or host.endswith("." + service))
        dot = service.find(".")
        service = service[dot + 1 :] if dot >= 0 else ""
    return False
