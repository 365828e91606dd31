"""Whether the article is free to read: schema.org ``isAccessibleForFree``.

Publishers that paywall a story say so for search engines (Google's "paywalled
content" markup): ``isAccessibleForFree: false`` on the article, and a ``hasPart``
naming the paywalled section (``cssSelector``) with ``isAccessibleForFree: false``.
Only what the page declares counts: a page that says nothing is None, never a
guess from its text ("Subscribe to read" is on free stories too).
"""

from __future__ import annotations

from typing import Any

from ..page import Evidence, Page
from ..parse.meta import jsonld_types

__all__ = ["find_access", "read_flag"]

_TRUE = frozenset(("true", "yes", "1", "https://schema.org/true", "http://schema.org/true"))
_FALSE = frozenset(("false", "no", "0", "https://schema.org/false", "http://schema.org/false"))
_KEY = "isAccessibleForFree"
_MAX_PARTS = 20  # hasPart entries read
# Types whose flag is not the page's (an offer, a product, an event on the page).
_PAGE_TYPES_WORDS = ("Article", "Posting", "WebPage", "CreativeWork", "Report")


def read_flag(value: Any) -> bool | None:
    """A schema.org Boolean as written: ``true``, ``"False"``, ``"https://schema.org/True"``;
    None for anything else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return None


def _about_page(node: dict[str, Any]) -> bool:
    """A node describing the page or its article (not an offer or product on it)."""
    types = jsonld_types(node)
    return not types or any(word in kind for kind in types for word in _PAGE_TYPES_WORDS)


def _node_flag(node: dict[str, Any]) -> tuple[bool, str, str] | None:
    """What one node says, where and as written: a paywalled part (``hasPart``) makes
    it not free whatever the node's own flag says; else its own flag; None if it says
    nothing."""
    parts = node.get("hasPart")
    for part in (parts if isinstance(parts, list) else [parts])[:_MAX_PARTS]:
        if isinstance(part, dict) and read_flag(part.get(_KEY)) is False:
            return False, "hasPart", f"{_KEY}: {part.get(_KEY)}"
    flag = read_flag(node.get(_KEY))
    return None if flag is None else (flag, _KEY, str(node.get(_KEY)))


def find_access(page: Page) -> None:
    """Fill ``page.accessible_for_free`` from the JSON-LD (the article's node first,
    then any node about the page), else microdata; leave None when nothing says.

    Reads the metadata's JSON-LD nodes and ``<meta itemprop>`` flags; writes the field and its
    evidence (``jsonld:isAccessibleForFree``, ``jsonld:hasPart``, ``itemprop:...``)."""
    nodes = [node for node in page.meta.jsonld if _about_page(node)]
    nodes.sort(
        key=lambda node: not any("Article" in k or "Posting" in k for k in jsonld_types(node))
    )
    for node in nodes:
        found = _node_flag(node)
        if found is not None:
            flag, key, raw = found
            page.accessible_for_free = flag
            page.evidence["accessible_for_free"] = Evidence(f"jsonld:{key}", None, raw)
            return
    _microdata_flag(page)


def _microdata_flag(page: Page) -> None:
    """The first ``<meta itemprop="isAccessibleForFree">`` that says true or false (the
    metadata pass read them: microdata writes the flag so)."""
    for raw in page.meta.free:
        flag = read_flag(raw)
        if flag is not None:
            page.accessible_for_free = flag
            page.evidence["accessible_for_free"] = Evidence(f"itemprop:{_KEY}", None, raw)
            return
