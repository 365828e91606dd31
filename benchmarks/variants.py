"""The bench pages as the web also serves them: the same text, other bytes.

Held-out pages differ from the dev pages in ways no rule was tuned on: minified
templates, legacy charsets, class names hashed by a CSS toolchain. Each variant
here rewrites a page's bytes so that its truth still holds (the same visible
text), and ``python -m benchmarks.accuracy --variant NAME`` scores the systems on
it: a rule that leans on the dev pages' spelling shows as a drop.

* ``minified``: newlines and tabs become spaces, whitespace between two tags one
  space (a minifier's "collapse whitespace"; text inside ``<pre>`` changes too,
  which the metrics, blind to whitespace, do not see).
* ``reencoded``: a UTF-8 page whose charset declaration w3lib finds (the one a
  crawler reads) is written in the legacy charset of its script (Shift_JIS with
  kana, GBK with Chinese, windows-1251 with Cyrillic, windows-1252 otherwise),
  its declaration rewritten, characters the charset lacks as numeric character
  references. Other pages are left as they are. (A page whose UTF-8 text holds
  C1 control characters, mojibake, changes: ``&#128;`` reads as "€".)
* ``nameless``: every ``class`` and ``id`` attribute removed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from w3lib.encoding import html_body_declared_encoding

__all__ = ["VARIANTS", "minified", "nameless", "reencoded"]

_BETWEEN_TAGS = re.compile(rb">\s+<")
_LINE_BREAKS = re.compile(rb"[\r\n\t]+")


def minified(html: bytes) -> bytes:
    """``html`` on one line, whitespace between tags collapsed to one space."""
    return _LINE_BREAKS.sub(b" ", _BETWEEN_TAGS.sub(b"> <", html))


_NAME_ATTRIBUTE = re.compile(rb"""\s(?:class|id)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)""", re.I)


def nameless(html: bytes) -> bytes:
    """``html`` without its ``class`` and ``id`` attributes."""
    return _NAME_ATTRIBUTE.sub(b"", html)


_DECLARED_UTF8 = re.compile(rb"""((?:charset|encoding)\s*=\s*["']?)utf-?8""", re.I)
# Characters that name a page's script, and how many make it that script's.
_SCRIPTS = (
    (re.compile("[\u3040-\u30ff]"), 200, "shift_jis"),  # kana
    (re.compile("[\u4e00-\u9fff]"), 500, "gbk"),  # ideographs, no kana
    (re.compile("[\u0400-\u04ff]"), 500, "cp1251"),  # Cyrillic
)
_WESTERN = "cp1252"


def reencoded(html: bytes) -> bytes:
    """``html`` in the legacy charset of its script, when it is UTF-8 declared as such."""
    declared = html_body_declared_encoding(html)
    if declared is None or declared.replace("-", "").lower() != "utf8":
        return html
    try:
        text = html.decode("utf-8")
    except UnicodeDecodeError:
        return html
    codec = next(
        (codec for script, least, codec in _SCRIPTS if len(script.findall(text)) > least),
        _WESTERN,
    )
    name = codec.encode("ascii")
    relabelled = _DECLARED_UTF8.sub(lambda m: m.group(1) + name, html).decode("utf-8")
    return relabelled.encode(codec, "xmlcharrefreplace")


VARIANTS: dict[str, Callable[[bytes], bytes]] = {
    "minified": minified,
    "nameless": nameless,
    "reencoded": reencoded,
}
