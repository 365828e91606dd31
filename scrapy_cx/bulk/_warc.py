"""HTML pages out of WARC (and ARC) archives, with warcio.

Only captured HTML responses are pages: ``response`` records with HTTP status
200 and an HTML content type (``resource`` records too, for archives made by
tools that store files without HTTP). The HTTP headers' charset and the
record's target URI travel with the body, as a crawler would have seen them.
warcio is imported on first use so the rest of scrapy-cx does not need it.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Generator, Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ._records import DAMAGED_WARC, MAX_HEADER_BYTES, RawPage, Skip

# A gzip member's first bytes (deflate): where reading resumes after a damaged member.
_GZIP_MAGIC = b"\x1f\x8b\x08"
_SCAN_BYTES = 1 << 20
# Blank lines a writer may leave after the last record (more is a record cut short).
_MAX_TRAILER = 64

HTML_TYPES = ("text/html", "application/xhtml+xml")
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([^;\"'\s]+)", re.I)
_HTML_START = re.compile(rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)", re.I | re.S)


class HeaderTooLarge(ValueError):
    """A record's header lines passed :data:`MAX_HEADER_BYTES`: a damaged or hostile archive."""


class MissingDependency(RuntimeError):
    """An optional dependency needed for this input is not installed."""


def require_warcio() -> Any:
    """Import warcio's iterator, or explain how to install it."""
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError as exc:
        raise MissingDependency(
            "reading WARC files needs warcio: pip install warcio "
            "(in a checkout: pip install -e '.[warc]')"
        ) from exc
    return ArchiveIterator


def parse_content_type(value: str | None) -> tuple[str | None, str | None]:
    """``"text/html; charset=UTF-8"`` -> ``("text/html", "UTF-8")``."""
    if not value:
        return None, None
    media = value.split(";", 1)[0].strip().lower() or None
    match = _CHARSET.search(value)
    return media, match.group(1) if match else None


def looks_like_html(body: bytes) -> bool:
    """For records without a content type: does the body start like an HTML document?"""
    return bool(_HTML_START.match(body[:2048].lstrip(b"\xef\xbb\xbf")))


def read_warc(path: Path, max_page_bytes: int) -> Iterator[tuple[RawPage | Skip, int]]:
    """Yield ``(page or skip, file offset reached)`` for each captured page in ``path``.

    Requests, metadata and warcinfo records are not pages and are passed over
    silently. A damaged gzip member costs its record only: reading resumes at
    the next member that opens a WARC record, and the damaged one is one skip,
    ``damaged WARC record``. Where no member follows (a plain WARC, a file cut
    short) the rest of the file is one skip, ``damaged WARC, rest of file``.
    Never an exception.
    """
    archive_iterator = require_warcio()
    try:
        fh = path.open("rb")
    except OSError as exc:
        yield Skip(str(path), f"unreadable file ({type(exc).__name__})"), 0
        return
    with fh:
        gzipped = fh.read(2) == _GZIP_MAGIC[:2]
        start: int | None = 0
        while start is not None:
            fh.seek(start)
            start = yield from _read_from(
                fh, path, start, max_page_bytes, archive_iterator(fh, arc2warc=True), gzipped
            )


def _read_from(
    fh: Any, path: Path, base: int, max_page_bytes: int, records: Any, gzipped: bool
) -> Generator[tuple[RawPage | Skip, int], None, int | None]:
    """:func:`read_warc` from offset ``base`` on (``records`` iterates from there; its
    offsets count from the start of the file): where to resume after a damaged gzip
    member, or None at the end of the file."""
    _bound_headers(records.reader)
    offset = base
    seen = 0
    end = base  # where the last record read whole ends
    try:
        for record in records:
            records.reader.cx_header_bytes = 0  # the next record's headers start here
            seen += 1
            if gzipped and records.reader.decompressor is None:
                # warcio reads a member that fails to inflate at once as plain bytes
                # (and the members after it): this "record" is the damage.
                raise _Damaged("not gzip")
            if record.length is None:  # no Content-Length: the file ends in its headers
                raise _Damaged("cut short")
            item = _page(record, str(path), max_page_bytes)
            if _block_cut(record):  # the file (or the member) ends inside this record
                raise _Damaged("cut short")
            # Only after the body is read: asking for the offset reads to the record's end.
            offset = records.get_record_offset()
            end = offset + records.get_record_length()
            if item is not None:
                yield replace(item, source=f"{path}@{offset}"), fh.tell()
    except HeaderTooLarge:
        yield (
            Skip(f"{path}@{offset}", f"{DAMAGED_WARC}, rest of file (header too large)"),
            fh.tell(),
        )
        return None
    # warcio's parser fails on damaged input in ways beyond its own exceptions
    # (AttributeError on a record without a target URI, found by fuzzing): any
    # of them means the record at ``end`` cannot be read, never the end of the run.
    except Exception as exc:  # noqa: BLE001 - ArchiveLoadFailed, OSError, zlib.error...
        why = str(exc) if isinstance(exc, _Damaged) else type(exc).__name__
        resume = _next_member(fh, end + 1) if gzipped else None
        if resume is not None:
            yield Skip(f"{path}@{end}", f"{DAMAGED_WARC} record ({why})"), resume
            return resume
        yield Skip(f"{path}@{end}", f"{DAMAGED_WARC}, rest of file ({why})"), fh.tell()
        return None
    size = fh.seek(0, 2)
    if not seen and size > 0 and base == 0:
        yield Skip(str(path), "not a WARC file (no records)"), size
    elif _cut_short(fh, end, size) or _member_cut(fh, offset, max_page_bytes):
        yield Skip(f"{path}@{end}", f"{DAMAGED_WARC}, rest of file (cut short)"), size
    return None


class _Damaged(ValueError):
    """A record that cannot be read whole: cut short, or a gzip member that fails to inflate."""


def _next_member(fh: Any, start: int) -> int | None:
    """The offset of the first gzip member at or after ``start`` that opens a WARC
    record (its first bytes inflate to ``WARC/``), or None. One pass over the file's
    bytes: the magic is searched in C, and each hit inflates a few bytes only."""
    pos = start
    while True:
        fh.seek(pos)
        chunk = fh.read(_SCAN_BYTES)
        at = chunk.find(_GZIP_MAGIC)
        while at >= 0:
            if _opens_record(fh, pos + at):
                return pos + at
            at = chunk.find(_GZIP_MAGIC, at + 1)
        if len(chunk) < _SCAN_BYTES:
            return None
        pos += len(chunk) - len(_GZIP_MAGIC) + 1  # a magic across the chunks' edge


def _opens_record(fh: Any, at: int) -> bool:
    fh.seek(at)
    try:
        return zlib.decompressobj(31).decompress(fh.read(4096), 5) == b"WARC/"
    except zlib.error:
        return False


def _cut_short(fh: Any, end: int, size: int) -> bool:
    """Whether bytes other than blank lines follow the last whole record: warcio
    stops without a word at a record the file ends inside (its headers cut, or
    its gzip member), so a cut archive looked whole."""
    if size - end > _MAX_TRAILER:
        return True
    fh.seek(end)
    return bool(fh.read(_MAX_TRAILER).strip())


def _bound_headers(reader: Any) -> None:
    """Make warcio's reader refuse header lines past :data:`MAX_HEADER_BYTES` per record.

    warcio reads WARC and HTTP headers with unbounded ``readline()`` calls, so
    one gzipped header line of a few KB inflates to gigabytes in memory. Every
    line is read through ``reader.readline``: capping it there bounds both a
    single line and the sum of a record's lines (``read_warc`` resets the count
    at each record).
    """
    unbounded = reader.readline

    def readline(length: int | None = None) -> bytes:
        room = MAX_HEADER_BYTES + 1 - reader.cx_header_bytes
        line: bytes = unbounded(room if length is None or length > room else length)
        reader.cx_header_bytes += len(line)
        if reader.cx_header_bytes > MAX_HEADER_BYTES:
            raise HeaderTooLarge
        return line

    reader.cx_header_bytes = 0
    reader.readline = readline


def _page(record: Any, source: str, max_page_bytes: int) -> RawPage | Skip | None:
    rec_type = record.rec_type
    if rec_type == "revisit":
        return Skip(source, "WARC revisit record (no body)")
    if rec_type not in ("response", "resource"):
        return None
    url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip().strip("<>") or None
    http = record.http_headers
    if rec_type == "response" and http is not None:
        status = http.get_statuscode()
        if status != "200":
            return Skip(source, f"HTTP status {status}")
        media, charset = parse_content_type(http.get_header("Content-Type"))
        coding = (http.get_header("Content-Encoding") or "identity").strip().lower()
        if coding not in ("identity", "none", "") and coding not in _decompressors():
            return Skip(source, f"unsupported Content-Encoding {coding}")
    elif rec_type == "response" and not (url or "").startswith(("http:", "https:")):
        return None  # dns: and similar records
    else:
        media, charset = parse_content_type(record.rec_headers.get_header("Content-Type"))
    if media is not None and media not in HTML_TYPES:
        return Skip(source, "not HTML (content type)")
    try:
        body = record.content_stream().read(max_page_bytes + 1)
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        return Skip(source, f"unreadable record body ({type(exc).__name__})")
    if len(body) > max_page_bytes:
        return Skip(source, "page too large")
    if not body.strip():
        return Skip(source, "empty page")
    if media is None and not looks_like_html(body):
        return Skip(source, "not HTML (content type)")
    fetched = warc_date(record.rec_headers.get_header("WARC-Date"))
    return RawPage(source, url, body, charset, fetched)


def warc_date(value: str | None) -> datetime | None:
    """A record's ``WARC-Date`` (W3C/ISO 8601, UTC): when the page was fetched, what
    its relative and year-less dates count from. None when absent or unreadable."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _member_cut(fh: Any, start: int, max_page_bytes: int) -> bool:
    """Whether the gzip member of the last record (at ``start``) ends before its end:
    the file cut in the member's last bytes (the record's closing blank lines, the
    gzip trailer), which warcio reads past in silence. Inflated once more, up to
    a bound (a bigger member is left to warcio's reading)."""
    fh.seek(start)
    data = fh.read(65536)
    if not data.startswith(b"\x1f\x8b"):
        return False
    inflater = zlib.decompressobj(31)
    budget = 2 * max_page_bytes + MAX_HEADER_BYTES
    try:
        while not inflater.eof:
            if not data:
                return True
            budget -= len(inflater.decompress(data, 65536))
            if budget < 0:
                return False
            data = inflater.unconsumed_tail or fh.read(65536)
    except zlib.error:
        return True
    return False


def _block_cut(record: Any) -> bool:
    """Whether the file ends inside the record's block (its promised Content-Length):
    warcio hands over the bytes there are, so a page cut mid-word looked whole."""
    raw = record.raw_stream
    left = getattr(raw, "limit", 0)
    while left > 0:  # what the body's decoding left unread (a chunked body's trailer)
        chunk = raw.read(min(left, 65536))
        if not chunk:
            return True
        left -= len(chunk)
    return False


def _decompressors() -> tuple[str, ...]:
    from warcio.bufferedreaders import BufferedReader

    return tuple(BufferedReader.get_supported_decompressors())
