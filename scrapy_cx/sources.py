"""Pages to extract, read from HTML files, folders and WARC archives.

Reading happens in one process, in order, one page at a time, so memory stays
bounded however large the input is; extraction (the costly part) happens
elsewhere. Anything that cannot be read becomes a :class:`Skip` with a short
reason instead of an exception: one bad file must not end a long run.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ._sniff import not_html_reason

HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
WARC_SUFFIXES = (".warc", ".arc")
#: Pages larger than this are skipped, in bulk and (``CX_MAX_BODY_SIZE``) in a crawl
#: alike: one page is an article in both or in neither. Extraction time grows
#: linearly with size, and HTML this large is almost never one article.
DEFAULT_MAX_PAGE_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Page:
    """One page to extract: raw bytes plus what its transport said about them."""

    source: str  # where it came from, for messages: a path, or path@offset in a WARC
    url: str | None
    body: bytes
    encoding: str | None = None  # charset from the HTTP headers, if any


@dataclass(frozen=True, slots=True)
class Skip:
    """A page (or file) that was not extracted, and why."""

    source: str
    reason: str


def kind_of(path: Path) -> str | None:
    """``"warc"``, ``"html"`` or None, by file name (``.gz`` is looked through)."""
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    if name.endswith(WARC_SUFFIXES):
        return "warc"
    if name.endswith(HTML_SUFFIXES):
        return "html"
    return None


class Sources:
    """Iterate over the pages in ``paths`` (files, folders, WARC archives).

    Folders are walked recursively, sorted by path. A file named on the command
    line is read as HTML unless its name says WARC; inside folders, files that
    are neither ``*.html``-like nor WARC are reported as skipped.
    ``done_bytes`` / ``total_bytes`` measure progress through the input files:
    when an item is yielded, ``done_bytes`` counts it as read.
    """

    def __init__(
        self, paths: Iterable[str | os.PathLike[str]], max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES
    ) -> None:
        self.max_page_bytes = max_page_bytes
        self.files: list[tuple[Path, str | None, int]] = []
        for raw in paths:
            path = Path(raw)
            if path.is_dir():
                for file in _walk(path):
                    self.files.append((file, kind_of(file), _size(file)))
            else:
                self.files.append((path, kind_of(path) or "html", _size(path)))
        self.total_bytes = sum(size for _, _, size in self.files)
        self.done_bytes = 0

    def has_warc(self) -> bool:
        """Whether any input is a WARC archive (so warcio will be needed)."""
        return any(kind == "warc" for _, kind, _ in self.files)

    def __iter__(self) -> Iterator[Page | Skip]:
        for path, kind, size in self.files:
            start = self.done_bytes
            if kind == "warc":
                from .warc import read_warc

                for item, offset in read_warc(path, self.max_page_bytes):
                    self.done_bytes = start + offset
                    yield item
                self.done_bytes = start + size
            else:
                page = self._read_html(path, size) if kind == "html" else None
                self.done_bytes = start + size  # before yielding: it is read
                yield page or Skip(str(path), "not an HTML or WARC file name")

    def _read_html(self, path: Path, size: int) -> Page | Skip:
        if size > self.max_page_bytes:
            return Skip(str(path), "page too large")
        try:
            body = path.read_bytes()
            if path.name.lower().endswith(".gz"):
                body = _gunzip(body, self.max_page_bytes)
        except (OSError, EOFError, zlib.error) as exc:
            return Skip(str(path), f"unreadable file ({type(exc).__name__})")
        except _TooLarge:
            return Skip(str(path), "page too large")
        if not body.strip():
            return Skip(str(path), "empty page")
        # No server says what a file is, and its name may lie (a PDF saved as .html).
        why = not_html_reason(body)
        if why is not None:
            return Skip(str(path), f"not HTML ({why})")
        return Page(str(path), path.resolve().as_uri(), body)


class _TooLarge(Exception):
    pass


def _gunzip(data: bytes, limit: int) -> bytes:
    """Decompress, refusing to inflate past ``limit`` (a gzip bomb must not eat memory)."""
    out = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)
    body = out.decompress(data, limit + 1)
    if len(body) > limit:
        raise _TooLarge
    if not out.eof:
        raise EOFError("truncated gzip data")
    return body


def _walk(folder: Path) -> list[Path]:
    """Every file under ``folder``, sorted by path so runs are reproducible."""
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
