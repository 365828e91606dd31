"""What the bulk readers produce: a :class:`RawPage` to extract or a :class:`Skip` with its
reason, or a :class:`PageFile` for the worker that extracts it to read.

Its own small module so both readers (``_sources`` for files and folders,
``_warc`` for archives) and the consumers (``_runner``, the command line,
``explain``) depend on it and not on each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

#: WARC and HTTP header lines of one record, in bytes: more means a damaged or hostile archive.
MAX_HEADER_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class RawPage:
    """One page to extract: raw bytes plus what its transport said about them."""

    source: str  # where it came from, for messages: a path, or path@offset in a WARC
    url: str | None
    body: bytes
    encoding: str | None = None  # charset from the HTTP headers, if any
    # When the page was fetched or saved (a WARC record's WARC-Date, a file's mtime):
    # what its year-less and relative dates ("09-30 22:46", "前天") count from.
    fetched: datetime | None = None


#: How every skip for a damaged archive's lost records begins (``damaged WARC record
#: (...)``: one record; ``damaged WARC, rest of file (...)``): the run's exit status says so.
DAMAGED_WARC = "damaged WARC"


@dataclass(frozen=True, slots=True)
class Skip:
    """A page (or file) that was not extracted, and why."""

    source: str
    reason: str


@dataclass(frozen=True, slots=True)
class PageFile:
    """A saved page not read yet: the worker that extracts it reads it (and inflates
    it, and checks it is HTML), so the process that lists the inputs stays light."""

    source: str  # the path as it was found, for messages
    size: int  # bytes when it was listed
    max_bytes: int  # read no more than this (the page is skipped past it)
    url: str | None = None  # where it was saved from (--base-url); else its file: address
