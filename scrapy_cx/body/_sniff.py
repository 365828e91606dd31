"""What a body is when nothing trustworthy says so: binary, JSON, text, or HTML.

The crawl asks only "binary?" of bodies labelled ``text/html`` (servers label
PDFs and images so); bulk extraction has no label at all for a file named on
the command line, so it asks the whole question. Both look at the head only:
constant time whatever the size.
"""

from __future__ import annotations

import re

__all__ = ["binary_kind", "looks_binary", "not_html_reason"]

# Magic numbers of formats servers like to label text/html, and their names.
_BINARY_MAGIC = (
    (b"%PDF-", "PDF"),
    (b"\x89PNG", "PNG"),
    (b"GIF8", "GIF"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"PK\x03\x04", "zip"),  # also docx, xlsx, epub
    (b"\x1f\x8b", "gzip"),  # gzip that nobody decompressed
    (b"BZh", "bzip2"),
    (b"\xd0\xcf\x11\xe0", "MS Office 97"),
    (b"RIFF", "RIFF media"),
    (b"OggS", "Ogg"),
    (b"ID3", "MP3"),
    (b"\x00\x00\x00", "ISO media"),  # mp4 box
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
    (b"\x7fELF", "ELF executable"),
)
_MAGIC = tuple(magic for magic, _name in _BINARY_MAGIC)
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_CONTROL = frozenset(range(0, 9)) | frozenset(range(14, 27)) | frozenset(range(28, 32))
_CONTROL_BYTES = bytes(sorted(_CONTROL))  # for bytes.translate: counted in C, once per page
HEAD = 1024  # bytes looked at for magic numbers and control bytes
MARKUP_HEAD = 4096  # bytes looked at for a first tag (a PHP warning may come before it)
# Random bytes are 26/256 = 10.2% control bytes (1.0% standard deviation over HEAD); of
# the 2 974 pages of the bench sets, one has 1.7% in its head, all the others none. At
# 10% half of all random files passed as HTML; 5% keeps three times the worst page's.
MAX_CONTROL_SHARE = 0.05
# A start tag, end tag, comment, doctype or processing instruction.
_TAG = re.compile(rb"<[A-Za-z!/?]")


def binary_kind(body: bytes) -> str | None:
    """The binary format ``body`` starts with ("PDF"...), "binary" for control bytes, or None."""
    head = body[:HEAD].lstrip(b" \t\r\n")
    if head.startswith(_MAGIC):
        return next(name for magic, name in _BINARY_MAGIC if head.startswith(magic))
    if not head or head.startswith(_BOMS):  # UTF-16 text has NUL bytes and is still text
        return None
    control = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return "binary" if control / len(head) > MAX_CONTROL_SHARE else None


def looks_binary(body: bytes) -> bool:
    """A known binary format, or a head mostly made of control bytes."""
    return binary_kind(body) is not None


def not_html_reason(body: bytes) -> str | None:
    """Why ``body`` is not an HTML page ("PDF", "JSON", "no markup"...), or None if it may be."""
    kind = binary_kind(body)
    if kind is not None:
        return kind
    head = body[:MARKUP_HEAD]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16: read the ASCII it holds
        head = head.replace(b"\x00", b"")
    head = head.lstrip(b"\xef\xbb\xbf\xff\xfe \t\r\n")
    if head.startswith((b"{", b"[")):
        return "JSON"
    return None if _TAG.search(head) else "no markup"
