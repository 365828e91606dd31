"""Bytes to text, the way a crawler decodes a page, but never failing.

Order: a byte-order mark, the caller's encoding (HTTP header), ``<meta charset>``
or ``http-equiv`` / ``<?xml encoding?>`` in the first bytes, then detection.
GB2312 and GBK are read as GB18030, their superset, because portals label pages
GB2312 and then use characters only GBK/GB18030 have.

A label is only a hint: servers and templates lie. So a label is dropped when
the bytes contradict it in a way no real page does: UTF-16/32 without any NUL
byte (ASCII markup in UTF-16 is half NULs), a legacy label on bytes that are
valid multi-byte UTF-8, a UTF-8 label on bytes that are mostly invalid UTF-8.
Codecs that are not character sets (``base64``, ``rot13``, ``idna``, ``utf-7``
...) are refused, whatever a page declares. Only a bounded sample is examined,
so the cost stays linear in the page size.
"""

from __future__ import annotations

import codecs
import re

from w3lib.encoding import html_body_declared_encoding, read_bom, resolve_encoding, to_unicode

_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "euc-cn": "gb18030",
    "hz": "gb18030",
    "ascii": "cp1252",
    "us-ascii": "cp1252",
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin-1": "cp1252",
    "latin1": "cp1252",
    "x-user-defined": "cp1252",
}
# Python codecs that are text codecs but not character sets a page can be in:
# they raise on errors="replace" (idna, undefined), re-spell markup (utf-7), or
# interpret escapes (unicode_escape).
_REFUSED = frozenset(
    {
        "idna",
        "punycode",
        "undefined",
        "utf-7",
        "unicode-escape",
        "raw-unicode-escape",
        "mbcs",
        "oem",
    }
)
_WIDE = ("utf-16", "utf-32")
_SAMPLE = 65536


def normalize_encoding(name: str | None) -> str | None:
    """A Python codec name for ``name``, widened to its superset, or None if unusable."""
    if not name or not isinstance(name, str) or len(name) > 64:
        return None
    name = name.strip().strip("\"'").lower()
    if not name:
        return None
    name = _SUPERSETS.get(name, name)
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):
        resolved = resolve_encoding(name)
        if resolved is None:
            return None
        info = codecs.lookup(resolved)
    if not getattr(info, "_is_text_encoding", True):
        return None
    codec = _SUPERSETS.get(info.name, info.name)
    if codec.replace("_", "-") in _REFUSED:
        return None
    return codec


def _utf8_counts(sample: bytes) -> tuple[int, int]:
    """``(valid multi-byte sequences, invalid bytes)`` of ``sample`` read as UTF-8."""
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:  # valid (the common case): its ASCII characters are its bytes below 0x80
        if text.isascii():  # (a flag of the str: no pass over it)
            return 0, 0
        return len(text) - len(sample.translate(None, _HIGH_BYTES)), 0
    text = sample.decode("utf-8", errors="replace")
    bad = max(0, text.count("\ufffd") - sample.count(b"\xef\xbf\xbd"))
    non_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    # A multi-byte sequence cut by the end of the sample is not an error.
    if bad and text.endswith("\ufffd") and any(b >= 0xC0 for b in sample[-3:]):
        bad -= 1
        non_ascii -= 1
    return non_ascii - bad, bad


_CJK_LEGACY = ("gb18030", "big5hkscs", "cp932", "euc_jp", "cp949")
_HIGH_PAIR = re.compile(rb"[\x81-\xfe][\x80-\xfe]")
_HIGH_BYTES = bytes(range(0x80, 0x100))


def _normalizer_guess(sample: bytes) -> str | None:
    """charset-normalizer's answer (it comes with Scrapy through requests), if installed."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - Scrapy's dependencies bring it
        return None
    try:
        best = from_bytes(sample).best()
    except Exception:  # noqa: BLE001 - a detector bug must not lose the page
        return None
    return normalize_encoding(best.encoding) if best is not None else None


def _utf16_without_bom(head: bytes) -> str | None:
    """UTF-16 whose markup reads as markup: every ``<`` byte is one UTF-16 ``<``.

    A UTF-8 page with stray NULs has its ``<`` bytes at random alignments, so
    read as UTF-16 it shows almost none of them.
    """
    if head.count(0) < 4:
        return None  # every UTF-16 page has NULs in its ASCII markup
    total = head.count(b"<")
    if total < 2:
        return None
    even = head[: len(head) // 2 * 2]
    for codec in ("utf-16-le", "utf-16-be"):
        if even.decode(codec, errors="replace").count("<") * 10 >= total * 8:
            return codec
    return None


def _detect(data: bytes, valid_utf8: bool = False) -> str:
    """Guess an encoding for bytes that declare none (on a bounded sample).
    ``valid_utf8``: the whole of ``data`` is known to be valid UTF-8."""
    wide = _utf16_without_bom(data[:1024])
    if wide is not None:
        return wide
    if valid_utf8:
        return "utf-8"  # what the sample's counts below would say: no invalid byte
    sample = data[:_SAMPLE]
    good, bad = _utf8_counts(sample)
    if bad == 0 or good >= 4 * bad:
        return "utf-8"  # pure ASCII, UTF-8, or UTF-8 with a few stray legacy bytes
    high = len(sample) - len(sample.translate(None, _HIGH_BYTES))
    # Western legacy text has isolated accented letters between ASCII ones; the
    # browsers' default, windows-1252, is the right guess there.
    paired = len(_HIGH_PAIR.findall(sample))
    if paired * 2 < high // 2:
        return "cp1252"
    # Cyrillic, Greek, CJK...: runs of high bytes need a real detector.
    guess = _normalizer_guess(sample)
    if guess is not None and not guess.startswith(_WIDE):
        return guess
    best, best_bad = "cp1252", None
    for enc in _CJK_LEGACY:
        errors = sample.decode(enc, errors="replace").count("\ufffd")
        if best_bad is None or errors < best_bad:
            best, best_bad = enc, errors
    if best_bad is not None and best_bad * 50 <= high:
        return best
    return "cp1252"


def _plausible(label: str, data: bytes, valid_utf8: bool = False) -> bool:
    """Whether the bytes can be in ``label`` (see the module docstring).
    ``valid_utf8``: the whole of ``data`` is known to be valid UTF-8."""
    head = data[:1024]
    if label.startswith(_WIDE):
        return b"\x00" in head
    if valid_utf8 and label == "utf-8":
        return True  # no invalid byte in the sample either
    sample = data[:_SAMPLE]
    good, bad = _utf8_counts(sample)
    if label == "utf-8":
        return bad <= max(8, good)
    # A legacy single- or double-byte label on clean multi-byte UTF-8: the
    # template says latin-1 but the CMS writes UTF-8.
    return not (bad == 0 and good >= 4)


def _decode(data: bytes, encoding: str) -> str:
    try:
        return to_unicode(data, encoding)
    except (UnicodeError, LookupError, TypeError, ValueError):
        return data.decode("utf-8", errors="replace")


def choose_encoding(
    data: bytes, encoding: str | None = None, valid_utf8: bool = False
) -> tuple[str, int]:
    """``(codec, bytes to skip)``: the encoding to read ``data`` with (BOM length skipped).

    ``valid_utf8``: the whole of ``data`` is known to be valid UTF-8 (decode_page
    tries that first, as it must read most pages so anyway): a UTF-8 label, or
    none, then needs no count of the sample's bytes.
    """
    bom_encoding, bom = read_bom(data)
    if bom_encoding is not None and bom is not None:
        return bom_encoding, len(bom)
    header = normalize_encoding(encoding)
    if header is not None and _plausible(header, data, valid_utf8):
        return header, 0
    try:
        declared = normalize_encoding(html_body_declared_encoding(data))
    except (ValueError, TypeError, LookupError):
        declared = None
    if declared is not None and declared.startswith(_WIDE):
        # WHATWG: a <meta> readable as ASCII cannot be in UTF-16/32.
        declared = "utf-8"
    if declared is not None and _plausible(declared, data, valid_utf8):
        return declared, 0
    return _detect(data, valid_utf8), 0


def decode_html(
    data: bytes | bytearray | memoryview | str, encoding: str | None = None
) -> tuple[str, str]:
    """Return ``(text, encoding)``; never raises on bad bytes (they become U+FFFD)."""
    text, codec, _utf8 = decode_page(data, encoding)
    return text, codec


def decode_page(
    data: bytes | bytearray | memoryview | str, encoding: str | None = None
) -> tuple[str, str, bytes | None]:
    """:func:`decode_html`, plus the page's bytes when they are exactly ``text`` in UTF-8.

    Valid UTF-8 (most of the web) need not be encoded again for the parser:
    it reads these bytes as they are.
    """
    if isinstance(data, str):
        return data, "unicode", None
    data = bytes(data)
    try:
        whole: str | None = data.decode("utf-8")  # most of the web: read once, here
    except UnicodeDecodeError:
        whole = None  # (stops at the first bad byte: a legacy page costs its ASCII head)
    codec, skip = choose_encoding(data, encoding, whole is not None)
    body = data[skip:] if skip else data
    utf8: bytes | None = None
    if codec == "utf-8" and not skip and whole is not None:
        text, utf8 = whole, body
    elif codec == "utf-8":
        try:
            text = body.decode("utf-8")
            utf8 = body
        except UnicodeDecodeError:
            text = _decode(body, codec)
    else:
        text = _decode(body, codec)
    if text.startswith("\ufeff"):
        text = text[1:]
        utf8 = None
    return text, codec, utf8
