"""Bytes to text, the way a crawler decodes a page.

Order: the caller's encoding (HTTP header), a byte-order mark, ``<meta charset>``
or ``http-equiv`` in the first bytes, then detection. GB2312 and GBK are read
as GB18030, their superset, because portals label pages GB2312 and then use
characters only GBK/GB18030 have.
"""

from __future__ import annotations

import codecs
import re

from w3lib.encoding import html_to_unicode

_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "euc-cn": "gb18030",
    "ascii": "cp1252",
    "us-ascii": "cp1252",
    "iso-8859-1": "cp1252",
    "latin-1": "cp1252",
    "latin1": "cp1252",
}


def normalize_encoding(name: str | None) -> str | None:
    """A Python codec name for ``name``, widened to its superset, or None if unknown."""
    if not name:
        return None
    name = name.strip().strip("\"'").lower()
    name = _SUPERSETS.get(name, name)
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return None
    return _SUPERSETS.get(codec, codec)


_CJK_LEGACY = ("gb18030", "big5", "shift_jis", "euc_jp", "euc_kr")


def _detect(data: bytes) -> str | None:
    """Guess an encoding for bytes that declare none (cheap, no extra dependency)."""
    sample = data[:65536]
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        # A cut multi-byte sequence at the end of the sample is still UTF-8.
        if exc.start > len(sample) - 4:
            return "utf-8"
    if re.search(rb"[\x81-\xfe][\x40-\xfe]", sample):
        best, best_bad = None, None
        for enc in _CJK_LEGACY:
            bad = len(sample.decode(enc, errors="replace").split("\ufffd")) - 1
            if best_bad is None or bad < best_bad:
                best, best_bad = enc, bad
        return best
    return "cp1252"


def decode_html(data: bytes | str, encoding: str | None = None) -> tuple[str, str]:
    """Return ``(text, encoding)``; never raises on bad bytes (they become U+FFFD)."""
    if isinstance(data, str):
        return data, "unicode"
    header = f"text/html; charset={encoding}" if normalize_encoding(encoding) else None
    enc, text = html_to_unicode(
        header,
        data,
        default_encoding="utf-8",
        auto_detect_fun=_detect,
    )
    enc_name = normalize_encoding(enc) or enc
    if enc_name != enc:
        text = data.decode(enc_name, errors="replace")
        if text.startswith("\ufeff"):
            text = text[1:]
    return text, enc_name
