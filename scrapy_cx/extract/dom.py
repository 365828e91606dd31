"""One lxml parse per page, robust to whatever the web sends."""

from __future__ import annotations

import re

from lxml import etree, html

_PARSER = html.HTMLParser(
    remove_comments=True,
    remove_pis=True,
    collect_ids=False,
    huge_tree=True,
    default_doctype=False,
)
# lxml refuses str input that carries an encoding declaration; NULs truncate libxml2 input.
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


def parse_html(text: str) -> html.HtmlElement:
    """Parse ``text`` into an ``<html>`` root; an empty or unparsable page gives an empty root."""
    text = _XML_DECL.sub("", text, count=1).replace("\x00", "")
    if not text.strip():
        return html.Element("html")
    try:
        root = html.document_fromstring(text, parser=_PARSER)
    except (etree.ParserError, ValueError):
        return html.Element("html")
    if root is None:
        return html.Element("html")
    return root
