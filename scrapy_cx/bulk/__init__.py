"""Bulk offline extraction (``scrapy-cx extract``): saved pages in, JSON lines out.

The readers turn paths into :class:`RawPage` records to extract or :class:`Skip`
records with a reason (HTML files and folders: ``Sources``, whose ``listing()``
gives a file as a :class:`PageFile` for the worker to read; WARC archives:
``read_warc``); the runner feeds the pages to the worker pool the crawl uses and
writes one line per article. Scrapy-free: the command runs without a crawl.
The output is replaced whole, never over an input (``Replacement``, ``clash``),
and what reaches the terminal is escaped (``printable``, ``say``); ``explain`` shares both.
``--markdown-dir`` writes each article to a file of its own (``MarkdownDir``).
"""

from ._markdown import MarkdownDir
from ._output import Replacement, clash, printable, say
from ._progress import Progress
from ._records import MAX_HEADER_BYTES, PageFile, RawPage, Skip
from ._runner import (
    Options,
    Outcome,
    Summary,
    default_jobs,
    drop_duplicates,
    extract_all,
    extract_one,
)
from ._sources import HTML_SUFFIXES, STDIN, Sources, kind_of, read_page, read_stdin
from ._warc import MissingDependency, read_warc, require_warcio

__all__ = [
    "HTML_SUFFIXES",
    "MAX_HEADER_BYTES",
    "MarkdownDir",
    "MissingDependency",
    "STDIN",
    "Options",
    "Outcome",
    "PageFile",
    "Progress",
    "RawPage",
    "Replacement",
    "Skip",
    "Sources",
    "Summary",
    "clash",
    "default_jobs",
    "drop_duplicates",
    "extract_all",
    "extract_one",
    "kind_of",
    "printable",
    "read_page",
    "read_stdin",
    "read_warc",
    "require_warcio",
    "say",
]
