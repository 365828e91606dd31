"""Pages to extract, read from HTML files, folders and WARC archives.

Reading happens in order, one page at a time, so memory stays bounded however
large the input is; extraction (the costly part) happens elsewhere.
``Sources.listing()`` (the bulk command) only lists an HTML file, as a
:class:`PageFile`: the worker that extracts it reads it (:func:`read_page`), so
the listing process does no more per page than a stat. Anything that cannot be
read becomes a :class:`Skip` with a short reason instead of an exception: one
bad file must not end a long run.
"""

from __future__ import annotations

import os
import stat
import zlib
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote

from ..body import TooLarge, inflate, not_html_reason
from ..settings import CxSettings
from ._records import PageFile, RawPage, Skip

__all__ = [
    "HTML_SUFFIXES",
    "STDIN",
    "PageFile",
    "RawPage",
    "Skip",
    "Sources",
    "kind_of",
    "read_page",
    "read_stdin",
    "saved_url",
]

HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
WARC_SUFFIXES = (".warc", ".arc")
#: What a path is when it is not a regular file, for skip reasons.
_FILE_TYPES = (
    (stat.S_ISFIFO, "named pipe"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISDIR, "folder"),
)
#: The kind of an entry that is reported as skipped without being opened.
SKIPPED = "skip"


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
        self,
        paths: Iterable[str | os.PathLike[str]],
        max_page_bytes: int = CxSettings.max_body_size,
        base_url: str | None = None,
    ) -> None:
        self.max_page_bytes = max_page_bytes
        #: Each HTML file's address where ``base_url`` gives one (:func:`saved_url`).
        self.urls: dict[Path, str] = {}
        # (path, kind, size); kind SKIPPED entries carry their reason in self.reasons.
        self.files: list[tuple[Path, str | None, int]] = []
        self.reasons: dict[Path, str] = {}
        #: Folders named that hold no file named as HTML or WARC: a wrong folder, most
        #: likely, which the command says rather than report "0 pages" as a finished run.
        self.without_html: list[str] = []
        for raw in paths:
            path = Path(raw)
            if path.is_dir():
                found = False
                for file, reason, size in _walk(path):
                    if reason is None:
                        kind = kind_of(file)
                        found = found or kind is not None
                        self.files.append((file, kind, size))
                        if base_url:
                            self.urls[file] = saved_url(base_url, file.relative_to(path))
                    else:
                        self._skip(file, reason)
                if not found:
                    self.without_html.append(str(raw))
            else:
                reason = _not_regular(path, follow=True)
                if reason is None:
                    self.files.append((path, kind_of(path) or "html", _size(path)))
                    if base_url:
                        self.urls[path] = saved_url(base_url, None)
                else:
                    self._skip(path, reason)
        self.total_bytes = sum(size for _, _, size in self.files)
        self.done_bytes = 0

    def _skip(self, path: Path, reason: str) -> None:
        self.files.append((path, SKIPPED, 0))
        self.reasons[path] = reason

    def has_warc(self) -> bool:
        """Whether any input is a WARC archive (so warcio will be needed)."""
        return any(kind == "warc" for _, kind, _ in self.files)

    def __iter__(self) -> Iterator[RawPage | Skip]:
        """Every page, read."""
        for item in self.listing():
            yield read_page(item) if isinstance(item, PageFile) else item

    def listing(self) -> Iterator[RawPage | PageFile | Skip]:
        """Every page, an HTML file listed as a :class:`PageFile` for the worker that
        extracts it to read (a WARC's records are read here: see ``read_warc``)."""
        for path, kind, size in self.files:
            start = self.done_bytes
            if kind == "warc":
                from ._warc import read_warc

                for item, offset in read_warc(path, self.max_page_bytes):
                    self.done_bytes = start + offset
                    yield item
                self.done_bytes = start + size
            elif kind == SKIPPED:
                yield Skip(str(path), self.reasons[path])
            else:
                page: RawPage | PageFile | Skip | None = None
                if kind == "html":
                    page = PageFile(str(path), size, self.max_page_bytes, self.urls.get(path))
                self.done_bytes = start + size  # before yielding: it is read
                yield page or Skip(str(path), "not an HTML or WARC file name")


def read_page(listed: PageFile) -> RawPage | Skip:
    """The page of a listed HTML file (inflated if ``.gz``), or why it is skipped."""
    path, limit = Path(listed.source), listed.max_bytes
    if listed.size > limit:
        return Skip(listed.source, "page too large")
    try:
        # Read to the limit, not to the end: the file may have grown since it was listed.
        with path.open("rb") as fh:
            body = fh.read(limit + 1)
        if len(body) > limit:
            return Skip(listed.source, "page too large")
        if path.name.lower().endswith(".gz"):
            body = inflate(body, "gzip", limit, strict=True)
    except (OSError, EOFError, zlib.error) as exc:
        return Skip(listed.source, f"unreadable file ({type(exc).__name__})")
    except TooLarge:
        return Skip(listed.source, "page too large")
    url = listed.url or path.resolve().as_uri()
    return _page(listed.source, url, body, _saved_at(path))


def saved_url(base_url: str, relative: Path | None) -> str:
    """A saved file's address, given where it was saved from (``--base-url``): a file
    under a folder named is its path under it read below ``base_url`` (a mirror's
    layout: ``saved/2024/a.html`` with ``https://news.test`` is
    ``https://news.test/2024/a.html``); a file named on its own is ``base_url`` itself."""
    if relative is None:
        return base_url
    return base_url.rstrip("/") + "/" + quote(relative.as_posix())


#: How a page piped in is named in messages and the summary.
STDIN = "<stdin>"


def read_stdin(
    stream: BinaryIO, max_page_bytes: int, url: str | None, fetched: datetime
) -> RawPage | Skip:
    """The one page piped in (``scrapy-cx extract -``), read to the limit and
    checked as a file is; ``fetched`` (now, or ``--reference-time``) dates it."""
    try:
        body = stream.read(max_page_bytes + 1)
    except OSError as exc:
        return Skip(STDIN, f"unreadable input ({type(exc).__name__})")
    if len(body) > max_page_bytes:
        return Skip(STDIN, "page too large")
    if body[:2] == b"\x1f\x8b":  # `curl --compressed` is not always used: take gzip as is
        try:
            body = inflate(body, "gzip", max_page_bytes, strict=True)
        except (EOFError, zlib.error, OSError) as exc:
            return Skip(STDIN, f"unreadable input ({type(exc).__name__})")
        except TooLarge:
            return Skip(STDIN, "page too large")
    return _page(STDIN, url, body, fetched)


def _page(source: str, url: str | None, body: bytes, fetched: datetime | None) -> RawPage | Skip:
    if not body.strip():
        return Skip(source, "empty page")
    # No server says what a file is, and its name may lie (a PDF saved as .html).
    why = not_html_reason(body)
    if why is not None:
        return Skip(source, f"not HTML ({why})")
    return RawPage(source, url, body, fetched=fetched)


def _not_regular(path: Path, follow: bool) -> str | None:
    """Why ``path`` is not a regular file we may read, or None if it is one."""
    try:
        mode = path.stat().st_mode if follow else path.lstat().st_mode
    except OSError as exc:
        return f"unreadable file ({type(exc).__name__})"
    return _why_irregular(mode)


def _why_irregular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    for test, name in _FILE_TYPES:
        if test(mode):
            return f"not a regular file ({name})"
    return "not a regular file"


def _walk(folder: Path) -> list[tuple[Path, str | None, int]]:
    """Every entry under ``folder`` as ``(path, why it is skipped or None, size)``.

    Sorted by path so runs are reproducible (by each path's parts, as paths compare,
    computed once: comparing the paths themselves was a quarter of the listing's time,
    which the bulk command's parent pays per file). Only regular files are read: a
    symlink is followed only to a regular file inside ``folder`` (never out of
    it: a link to /etc/passwd in a folder of pages is not a page), folder
    symlinks are not walked, and pipes, devices and sockets (a read could block
    forever or never end) and unreadable subfolders are reported, not lost.
    """
    root = folder.resolve()
    found: list[tuple[Path, str | None, int]] = []

    def unreadable(exc: OSError) -> None:
        name = Path(exc.filename) if exc.filename else folder
        found.append((name, f"unreadable folder ({type(exc).__name__})", 0))

    for top, dirs, files in os.walk(folder, onerror=unreadable):
        base = Path(top)
        for name in dirs:
            sub = base / name
            if sub.is_symlink():
                found.append((sub, "symlink to a folder (not followed)", 0))
        for name in files:
            found.append((base / name, *_why_not(base / name, root)))
    return sorted(found, key=lambda entry: (entry[0].parts, entry[1] or ""))


def _why_not(path: Path, root: Path) -> tuple[str | None, int]:
    """Why ``path`` is not read (or None) and its size, from one ``lstat`` of a file."""
    try:
        info = path.lstat()
    except OSError as exc:
        return f"unreadable file ({type(exc).__name__})", 0
    if stat.S_ISLNK(info.st_mode):
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return "broken symlink", 0
        if not target.is_relative_to(root):
            return "symlink out of the folder", 0
        reason = _not_regular(target, follow=True)
        return reason, _size(target) if reason is None else 0
    return _why_irregular(info.st_mode), info.st_size


def _saved_at(path: Path) -> datetime | None:
    """When the file was last written: the page's own time, not the clock's, for
    its relative and year-less dates (a page saved years ago says "前天" of then)."""
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)
    except (OSError, OverflowError, ValueError):
        return None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
