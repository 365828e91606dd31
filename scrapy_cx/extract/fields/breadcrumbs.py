"""The page's breadcrumb trail: where the site files the story ("Home › World › Europe").

Read where the page states it, best first: a JSON-LD ``BreadcrumbList``, microdata
``BreadcrumbList``, then the breadcrumb navigation a reader sees (``<nav
aria-label="breadcrumb">``, an element whose class or id names it "breadcrumb(s)").
Precision first: a trail is at most :data:`MAX_CRUMBS` short names, and one read from
navigation alone at least two; navigation that is anything else (a menu, a pager, a
tag list, a share bar beside the trail) is not read as one.

Each crumb is a :class:`~scrapy_cx.article.Breadcrumb` (``{"name": ..., "url": ...}``
in the item): ``url`` is an absolute http(s) address, or None where the page links
none (usually the last crumb, the page itself: kept, since it names where the trail
ends); a crumb without a name is left out.
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from ...article import Breadcrumb
from .._urls import http_url
from ..page import Evidence, Page
from ..parse.meta import jsonld_types

__all__ = ["find_breadcrumbs", "jsonld_trail"]

MAX_CRUMBS = 12  # crumbs kept of one trail (more: a menu, not a trail)
MAX_NAME = 120  # characters of a crumb's name (longer: a headline or a paragraph)
MIN_HTML_CRUMBS = 2  # crumbs of a trail read from navigation alone
_MAX_ITEMS = 50  # itemListElement entries read
_NAMING = frozenset(("class", "id", "aria-label"))  # attributes that name a trail
MAX_HOLDERS = 5  # breadcrumb-named elements read for a trail
# Separators a trail writes between its crumbs, as text of their own.
_SEPARATORS = frozenset("›»>/|·•→▸▶►‣〉⟩\\-–—")  # not ",": tags are listed so
_STRIPPED = "".join(_SEPARATORS) + " "
_EMPTY = _SEPARATORS | frozenset(".… ")  # a name of these is no crumb ("...": a collapsed trail)
MAX_NUMBERS = 2  # crumbs without a letter ("2023", "11"): more are a pager's page numbers
# "You are here" before a trail, in the languages we meet: a label, not a crumb.
_HERE = re.compile(
    r"(?:you are here|sie (?:sind|befinden sich) hier|vous [êe]tes ici|est[áa]s? aqu[íi]"
    r"|sei qui|u bent hier|jeste[śs] tutaj|voc[êe] est[áa] aqui|当前位置|您的位置|現在位置)\b",
    re.IGNORECASE,
)
# Elements whose text a reader does not see as text: an icon's, a script's.
_UNSEEN = frozenset(
    ("svg", "script", "style", "noscript", "template", "button", "select", "form", "label")
)
# Elements that may hold a trail (not <body class="has-breadcrumbs">, not one crumb).
_HOLDERS = frozenset(("nav", "ol", "ul", "div", "p", "section", "header"))
MAX_HOLDER_ELEMENTS = 200  # elements inside a trail's holder (more: a page part)
_MICRODATA = etree.XPath(
    "(/descendant::*/@itemtype[contains(., 'BreadcrumbList')])[position() <= 3]/.."
)
_MICRO_ITEMS = etree.XPath(".//*[@itemprop='itemListElement']")
_MICRO_PROP = etree.XPath(".//*[@itemprop=$name]")


def find_breadcrumbs(page: Page) -> None:
    """Fill ``page.breadcrumbs`` (and its evidence) from the first source that holds a
    trail. Reads the JSON-LD nodes, the tree (microdata: only on a page declaring a
    BreadcrumbList) and the walk's boilerplate-named blocks (navigation)."""
    for node in page.meta.jsonld:
        trail = jsonld_trail(node, page.base_url)
        if trail:
            _found(page, trail, "jsonld:BreadcrumbList")
            return
    base = page.link_base()
    if "BreadcrumbList" in page.declared:  # (pagetype read the itemtypes: no pass here)
        for el in _MICRODATA(page.root):
            trail = _microdata_trail(el, base)
            if trail:
                _found(page, trail, "microdata BreadcrumbList")
                return
    for el in _navigation(page):
        if el.tag not in _HOLDERS or _larger(el):
            continue
        trail = _navigation_trail(el, base)
        if len(trail) >= MIN_HTML_CRUMBS:
            _found(page, trail, f"<{el.tag}> breadcrumb navigation")
            return


def _navigation(page: Page) -> list[etree._Element]:
    """Block elements named for a breadcrumb (class, id or ARIA label: "Breadcrumb",
    "breadcrumbs", "BreadCrumb"), in page order, at most :data:`MAX_HOLDERS`.
    "breadcrumb" is a boilerplate word and ``<nav>`` a boilerplate tag: the walk kept
    the attributes of every such element (PageLines.named), so no pass over the tree is
    made."""
    lines = page.lines
    blocks = sorted(
        block
        for block, items in lines.named.items()
        for key, value in items
        if ("readcrumb" in value or "READCRUMB" in value or "readCrumb" in value) and key in _NAMING
    )
    return [lines.elements[block] for block in dict.fromkeys(blocks)][:MAX_HOLDERS]


def _found(page: Page, trail: list[Breadcrumb], source: str) -> None:
    page.breadcrumbs = trail
    raw = " › ".join(crumb.name for crumb in trail)
    page.evidence["breadcrumbs"] = Evidence(source, None, raw)


def _list_of(node: dict[str, Any]) -> dict[str, Any] | None:
    """The BreadcrumbList a node is, or holds under ``breadcrumb`` (a WebPage's)."""
    if "BreadcrumbList" in jsonld_types(node):
        return node
    inner = node.get("breadcrumb")
    if isinstance(inner, dict) and "BreadcrumbList" in jsonld_types(inner):
        return inner
    return None


def jsonld_trail(node: dict[str, Any], base: str | None) -> list[Breadcrumb]:
    """The crumbs of a JSON-LD node that is (or holds) a BreadcrumbList, ordered by
    their ``position`` (as written where it is missing); [] for any other node."""
    found = _list_of(node)
    items = found.get("itemListElement") if found is not None else None
    if not isinstance(items, list):
        return []
    ranked: list[tuple[float, int, Breadcrumb]] = []
    for k, item in enumerate(items[:_MAX_ITEMS]):
        if not isinstance(item, dict):
            continue
        target = item.get("item")
        name = item.get("name")
        url = target if isinstance(target, str) else None
        if isinstance(target, dict):
            name = name or target.get("name")
            url = target.get("@id") or target.get("url")
        crumb = _crumb(name, url, base)
        if crumb is not None:
            ranked.append((_position(item.get("position"), k), k, crumb))
    ranked.sort(key=lambda entry: entry[:2])
    return [crumb for _, _, crumb in ranked][:MAX_CRUMBS]


def _position(value: Any, default: int) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            pass
    return float(default)


def _crumb(name: Any, url: Any, base: str | None) -> Breadcrumb | None:
    """A crumb of a name (cleaned; None if none or too long) and an address (kept only
    as an absolute http(s) one)."""
    if not isinstance(name, str):
        return None
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        return None
    address = http_url(base, url) if isinstance(url, str) and url.strip() else None
    return Breadcrumb(name, address)


def _microdata_trail(el: etree._Element, base: str | None) -> list[Breadcrumb]:
    ranked: list[tuple[float, int, Breadcrumb]] = []
    for k, item in enumerate(_MICRO_ITEMS(el)[:_MAX_ITEMS]):
        names = _MICRO_PROP(item, name="name")
        if not names:
            continue
        name = names[0].get("content") or " ".join(names[0].itertext())
        targets = _MICRO_PROP(item, name="item")
        url = None
        if targets:
            target = targets[0]
            url = target.get("href") or target.get("itemid") or target.get("content")
        elif item.tag == "a" or names[0].tag == "a":
            url = (item if item.tag == "a" else names[0]).get("href")
        positions = _MICRO_PROP(item, name="position")
        position = positions[0].get("content") if positions else None
        crumb = _crumb(name, url, base)
        if crumb is not None:
            ranked.append((_position(position, k), k, crumb))
    ranked.sort(key=lambda entry: entry[:2])
    return [crumb for _, _, crumb in ranked][:MAX_CRUMBS]


def _navigation_trail(el: etree._Element, base: str | None) -> list[Breadcrumb]:
    """A trail from navigation: the items of its first list, or its links and the text
    between them (the last run: the current page). [] where it holds more than a trail
    would: a crumb too long, too many crumbs, a pager's numbers."""
    items = _items(el)
    pieces = [(_text(li), _link(li)) for li in items] if items else _runs(el)
    trail: list[Breadcrumb] = []
    for name, url in pieces:
        name = _label_less(name)
        if not name or all(char in _EMPTY for char in name):
            continue
        crumb = _crumb(name, url, base)
        if crumb is None:
            return []
        trail.append(crumb)
    numbers = sum(1 for crumb in trail if not any(char.isalpha() for char in crumb.name))
    if len(trail) > MAX_CRUMBS or numbers > MAX_NUMBERS:
        return []
    return trail


def _items(el: etree._Element) -> list[etree._Element]:
    """The items of the holder's first list (not those of a share bar or a language
    menu beside it)."""
    first = el if el.tag in ("ol", "ul") else next(el.iter("ol", "ul"), None)
    return [] if first is None else [child for child in first if child.tag == "li"]


def _larger(el: etree._Element) -> bool:
    """Whether ``el`` holds more than :data:`MAX_HOLDER_ELEMENTS` elements."""
    for k, _ in enumerate(el.iterdescendants()):
        if k >= MAX_HOLDER_ELEMENTS:
            return True
    return False


def _text(el: etree._Element) -> str:
    return " ".join(name for name, _ in _runs(el))


def _link(el: etree._Element) -> str | None:
    anchor = el if el.tag == "a" else next(el.iter("a"), None)
    return anchor.get("href") if anchor is not None else None


def _runs(el: etree._Element) -> list[tuple[str, str | None]]:
    """The links of a list-less trail, and each run of text between them (a separator,
    or the current page's name after the last link), in document order: the text a
    reader sees, not an icon's (an ``<svg>``'s title, an aria-hidden ligature word) nor
    a script's. One walk of the holder's (few) elements."""
    pieces: list[tuple[str, str | None]] = []
    text: list[str] = []
    anchor: etree._Element | None = None  # the link being read
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if not isinstance(node.tag, str) or _unseen(node):
                walker.skip_subtree()
                continue
            if node.tag == "a" and anchor is None:
                pieces.append((" ".join("".join(text).split()), None))
                text, anchor = [], node
            text.append(node.text or "")
            continue
        if anchor is not None and node is anchor:
            pieces.append((" ".join("".join(text).split()), anchor.get("href")))
            text, anchor = [], None
        if node is not el:
            text.append(node.tail or "")
    pieces.append((" ".join("".join(text).split()), None))
    return [piece for piece in pieces if piece[0] or piece[1]]


def _unseen(node: etree._Element) -> bool:
    return node.tag in _UNSEEN or node.get("aria-hidden") == "true"


def _label_less(text: str) -> str:
    """A crumb's name without separators around it; "" for a label ("You are here:")."""
    text = " ".join(text.split()).strip(_STRIPPED)
    return "" if text.endswith((":", "：")) or _HERE.match(text) else text
