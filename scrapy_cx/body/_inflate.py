"""Decompression that stops at a size limit: a compression bomb costs the limit, not its payload.

A 2 MB gzip file can inflate to 2 GB; every reader of compressed bytes here
(saved ``.gz`` pages, the crawl's size guard) goes through :func:`chunks`,
which never holds more than one :data:`CHUNK` of output at a time, and
:func:`inflate`, which keeps at most ``limit`` bytes. Multi-member gzip (what
``cat a.gz b.gz`` makes, and what some servers and archivers write) is read
whole, member after member, as ``gzip -d`` does.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

#: Output produced per decompression step.
CHUNK = 64 * 1024
_GZIP = zlib.MAX_WBITS | 16
_RAW_DEFLATE = -zlib.MAX_WBITS
_GZIP_MAGIC = b"\x1f\x8b"


class TooLarge(Exception):
    """The decompressed data would be larger than the limit."""


def _brotli() -> Any | None:
    try:
        import brotli
    except ImportError:
        try:
            import brotlicffi as brotli
        except ImportError:
            return None
    return brotli


def supported(coding: str) -> bool:
    """Whether :func:`chunks` can decode this ``Content-Encoding`` token."""
    coding = coding.strip().lower()
    if coding == "br":
        return _brotli() is not None
    return coding in ("gzip", "x-gzip", "deflate", "identity", "")


def chunks(data: bytes, coding: str, strict: bool = False) -> Iterator[bytes]:
    """The decompressed bytes of ``data``, :data:`CHUNK` at a time.

    ``strict``: a truncated stream raises EOFError (files); otherwise what
    could be decoded is all (a browser shows a cut-off page too).
    """
    coding = coding.strip().lower()
    if coding in ("identity", ""):
        yield data
    elif coding in ("gzip", "x-gzip"):
        yield from _gzip(data, strict)
    elif coding == "deflate":
        yield from _deflate(data, strict)
    elif coding == "br":
        yield from _unbrotli(data)
    else:
        raise ValueError(f"unsupported encoding {coding!r}")


def _zlib(decompressor: Any, data: bytes) -> Iterator[bytes]:
    out = decompressor.decompress(data, CHUNK)
    while True:
        if out:
            yield out
        if decompressor.eof or not decompressor.unconsumed_tail:
            return
        out = decompressor.decompress(decompressor.unconsumed_tail, CHUNK)


def _gzip(data: bytes, strict: bool) -> Iterator[bytes]:
    rest = data
    while True:
        decompressor = zlib.decompressobj(_GZIP)
        yield from _zlib(decompressor, rest)
        if not decompressor.eof:
            if strict:
                raise EOFError("truncated gzip data")
            return
        rest = decompressor.unused_data
        if not rest.startswith(_GZIP_MAGIC):
            return  # the end, or trailing padding (zeros) as gzip -d allows


def _deflate(data: bytes, strict: bool) -> Iterator[bytes]:
    decompressor = zlib.decompressobj()
    try:
        first = decompressor.decompress(data[:2], 0)
    except zlib.error:
        first = None
    if first is None:  # raw deflate, as some servers send it
        decompressor = zlib.decompressobj(_RAW_DEFLATE)
        yield from _zlib(decompressor, data)
    else:
        yield from _zlib(decompressor, data[2:])
    if strict and not decompressor.eof:
        raise EOFError("truncated deflate data")


def _unbrotli(data: bytes) -> Iterator[bytes]:
    brotli = _brotli()
    if brotli is None:
        raise ValueError("unsupported encoding 'br'")
    decompressor = brotli.Decompressor()
    try:
        out = decompressor.process(data, output_buffer_limit=CHUNK)
    except TypeError:  # brotli < 1.2: no output limit, feed the input in small pieces
        yield from _unbrotli_pieces(decompressor, data)
        return
    while out:
        yield out
        if decompressor.is_finished():
            return
        out = decompressor.process(b"", output_buffer_limit=CHUNK)


def _unbrotli_pieces(decompressor: Any, data: bytes) -> Iterator[bytes]:
    piece = 256  # input bytes per step: bounds one step's output for old brotli
    for start in range(0, len(data), piece):
        out = decompressor.process(data[start : start + piece])
        if out:
            yield out


def inflate(data: bytes, coding: str, limit: int, strict: bool = False) -> bytes:
    """All of ``data`` decoded, or TooLarge as soon as it passes ``limit`` bytes (0: no limit)."""
    parts: list[bytes] = []
    size = 0
    for part in chunks(data, coding, strict):
        size += len(part)
        if limit and size > limit:
            raise TooLarge
        parts.append(part)
    return b"".join(parts)


def decoded_size_over(data: bytes, codings: list[str], limit: int) -> bool:
    """Whether decoding ``codings`` (in the order they were applied) passes ``limit`` bytes.

    One encoding (the usual case) is measured chunk by chunk without keeping
    the output; stacked ones are decoded layer by layer, each kept to ``limit``.
    """
    if not limit:
        return False
    layers = [c for c in (c.strip().lower() for c in codings) if c not in ("identity", "")]
    try:
        for coding in reversed(layers[1:]):
            data = inflate(data, coding, limit)
        if not layers:
            return len(data) > limit
        size = 0
        for part in chunks(data, layers[0]):
            size += len(part)
            if size > limit:
                return True
    except TooLarge:
        return True
    except (zlib.error, ValueError, OSError, EOFError):
        return False  # undecodable: Scrapy's own middleware decides what that means
    return False
