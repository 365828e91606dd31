"""Bulk offline extraction: pages in, JSON lines out, on every core.

The parent lists the inputs and feeds them to the worker pool that the crawl
uses too (:mod:`scrapy_cx.pool`), keeping only a fixed number in flight, so
memory stays bounded on inputs of any size (``Pool.imap`` would read the whole
input ahead). A saved file goes as its path (:class:`PageFile`): the worker
reads, inflates and sniffs it; a WARC's records are read by the parent (their
bounds in a ``.warc.gz`` are found only by inflating it). Results come back in
input order. Workers serialize to JSON themselves so the parent only writes
lines. The parent's work per page is bookkeeping around system calls, so it is
done in batches: pages go to a worker several at a time (one write, one wake-up
of the worker), and while every worker has pages in hand the parent lets lines
gather before it wakes for them (:class:`_Lull`). A page past its deadline, or
one that kills its worker, is skipped with that reason and the worker replaced:
bad input is never fatal.
"""

from __future__ import annotations

import json
import os
import pickle
import time
from collections import Counter, deque
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field, fields
from datetime import datetime
from functools import partial
from multiprocessing.context import BaseContext
from typing import Any

from ..dedup import DedupIndex
from ..extract import extract_article
from ..pool import EventPool, PoolError, SelectorLoop, TaskTimeout, WorkerDied, loads_once
from ..settings import CxSettings
from ..verdict import invalid_reason
from ._markdown import markdown_document
from ._output import printable
from ._records import DAMAGED_WARC, PageFile, RawPage, Skip
from ._sources import read_page

# The crawl's stats keys (scrapy_cx.verdict), as the bulk summary words them.
_REASONS = {
    "no_content": "main text too short",
    "short_content": "main text too short",
    "no_title": "no title",
    "bad_published": "bad published date",
}


@dataclass(frozen=True, slots=True)
class Options:
    """What every worker needs to know to turn a page into a line.

    ``settings`` are the crawl's, defaults included, so both ways of extracting
    agree on what an article is and extract it alike.
    """

    settings: CxSettings = field(default_factory=CxSettings)
    encoding: str | None = None  # used when the page's transport declared no charset
    markdown: bool = False  # also make each article's Markdown file (--markdown-dir)
    # --reference-time: what every page's relative and year-less dates count from,
    # instead of each page's own fetch time (RawPage.fetched).
    reference_time: datetime | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One page's result: an output line (an article) or a skip reason."""

    source: str
    line: bytes | None = None  # UTF-8, made in the worker: the parent only writes it
    reason: str | None = None
    fingerprint: str | None = None  # of an article's main text, for --dedup
    truncated: bool = False  # the page was too big to read whole (Article.truncated)
    url: str | None = None  # an article's, with its Markdown file
    markdown: str | None = None  # the file (Options.markdown), made in the worker


def extract_one(item: RawPage | PageFile | Skip, options: Options) -> Outcome:
    """Read (a :class:`PageFile`) and extract one page into a JSON line, or say why not.
    Never raises."""
    if isinstance(item, PageFile):
        item = read_page(item)
    if isinstance(item, Skip):
        return Outcome(item.source, reason=item.reason)
    try:
        reference = options.reference_time or item.fetched
        kwargs = options.settings.extract_kwargs(item.encoding or options.encoding, reference)
        article = extract_article(item.body, item.url, **kwargs)
    except Exception as exc:  # noqa: BLE001 - one bad page must not end a bulk run
        return Outcome(item.source, reason=f"extraction error ({type(exc).__name__})")
    record = article.to_dict()  # once: judged, then written
    reason = invalid_reason(record, *options.settings.rule())
    if reason is not None:
        words = _REASONS.get(reason) or reason.replace("_", " ")
        return Outcome(item.source, reason=f"no article ({words})", truncated=article.truncated)
    if options.settings.item_schema == "zyte":  # --schema zyte: the line is Zyte's Article
        from ..zyte import downloaded_at, zyte_record

        record = zyte_record(article, downloaded_at(item.fetched))
    try:  # the bytes cross to the parent as they are: no decoding there, no encoding again
        line = json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate no UTF-8 file can hold
        return Outcome(item.source, reason=f"extraction error ({type(exc).__name__})")
    return Outcome(
        item.source,
        line=line,
        fingerprint=article.fingerprint,
        truncated=article.truncated,
        url=article.url,
        markdown=markdown_document(article) if options.markdown else None,
    )


#: The skip reason of an article whose main text repeats an earlier one's (--dedup).
DUPLICATE = "duplicate (main text of an earlier article)"


def drop_duplicates(outcomes: Iterable[Outcome], index: DedupIndex) -> Iterator[Outcome]:
    """The outcomes in input order, each repost of an earlier article turned into a skip."""
    for outcome in outcomes:
        if outcome.line is not None and outcome.fingerprint is not None:
            if index.add(outcome.fingerprint, outcome.source) is not None:
                outcome = Outcome(outcome.source, reason=DUPLICATE, truncated=outcome.truncated)
        yield outcome


@dataclass
class Summary:
    """Counts for the end-of-run report."""

    pages: int = 0
    articles: int = 0
    truncated: int = 0  # pages too big to read whole (the crawl's cx/truncated)
    missing: int = 0  # paths named that do not exist: no page was there to count
    without_html: int = 0  # folders named that hold no HTML or WARC file
    skipped: Counter[str] = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.pages += 1
        self.truncated += outcome.truncated
        if outcome.line is not None:
            self.articles += 1
        else:
            self.skipped[outcome.reason or "unknown"] += 1

    def stop(self) -> None:
        self.seconds = time.monotonic() - self.started

    @property
    def damaged(self) -> int:
        """Skips for records lost to a damaged archive (a record each, or a file's rest)."""
        return sum(n for reason, n in self.skipped.items() if reason.startswith(DAMAGED_WARC))

    @property
    def rate(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    def format(self, jobs: int) -> str:
        lines = [
            f"{self.pages:,} pages, {self.articles:,} articles in {self.seconds:.1f} s "
            f"({self.rate:,.1f} pages/s, {jobs} job{'s' if jobs != 1 else ''})"
        ]
        if self.missing:
            lines.append(f"{self.missing:,} path{'s' if self.missing != 1 else ''} not found")
        if self.without_html:
            n = self.without_html
            lines.append(f"{n:,} folder{'s' if n != 1 else ''} with no HTML")
        if self.truncated:
            lines.append(f"{self.truncated:,} too big to read whole: extracted from their start")
        if self.skipped:
            lines.append(f"skipped {sum(self.skipped.values()):,}:")
            for reason, count in sorted(self.skipped.items(), key=lambda kv: (-kv[1], kv[0])):
                lines.append(f"  {count:>8,}  {printable(reason)}")  # may quote a WARC header
        return "\n".join(lines)


def default_jobs() -> int:
    """Worker processes to use by default: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


#: Pages read ahead of the one written next, per job. Results are written in input
#: order, so one slow page holds back the lines of every page after it: with 4 per
#: job the other workers ran out of pages behind it. Replaying wceb_dev's and aeb's
#: 629 pages with their own extraction times, the workers were busy 0.98 / 0.94 /
#: 0.74 of the time at -j 2 / 4 / 16 with 4 per job, 1.00 / 1.00 / 0.98 with 16.
WINDOW_PER_JOB = 16
#: ... and at most this many bytes per job of pages read ahead (a WARC's records are
#: read by this process) and of lines back and not yet written: the window's count
#: alone would let large pages take gigabytes.
HELD_BYTES_PER_JOB = 16 * 2**20
#: Pages sent ahead to each worker, topped up once it holds half of them: a worker
#: gets its pages four at a time, in one write that wakes it once, where the crawl's
#: 2 cost the parent a write and a wake-up per page.
PREFETCH = 8
#: Lines the parent lets come in before it wakes for them, when the workers have pages
#: in hand (:class:`_Lull`), and the longest it waits so (seconds): a line is written
#: at most this much later than it could have been.
LINES_PER_WAKE = 4
MAX_LULL = 0.05


def extract_all(
    items: Iterable[RawPage | PageFile | Skip],
    options: Options,
    jobs: int,
    *,
    in_flight: int | None = None,
    timeout: float | None = CxSettings.page_timeout,
    max_pages: int = CxSettings.worker_max_pages,
    mp_context: BaseContext | None = None,
) -> Generator[Outcome, None, None]:
    """Yield one :class:`Outcome` per item, in input order.

    ``jobs == 1`` runs in this process (no pickling, for small inputs and for
    measuring one core; no deadline either). Otherwise pages go one by one to
    ``jobs`` worker processes (:mod:`scrapy_cx.pool`), at most ``in_flight``
    (default ``WINDOW_PER_JOB * jobs``) and ``HELD_BYTES_PER_JOB * jobs`` bytes
    read ahead of the results; a page past ``timeout`` seconds or one that kills
    its worker is skipped with that reason. Closing the iterator (or an exception
    in the caller's loop) kills the workers.
    """
    if jobs <= 1:
        for item in items:
            yield extract_one(item, options)
        return
    window = _Window(in_flight or WINDOW_PER_JOB * jobs, HELD_BYTES_PER_JOB * jobs)
    blob = pickle.dumps(options, pickle.HIGHEST_PROTOCOL)  # pickled once, not per page
    loop = SelectorLoop()
    # The pool waits in this thread, in ``loop`` turned between pages: no dispatcher
    # thread to hand each page and each line over to (see scrapy_cx.pool).
    pool = EventPool(
        jobs,
        loop=loop,
        timeout=timeout,
        max_tasks=max_pages,
        capacity=window.pages,
        context=mp_context,
        prefetch=PREFETCH,
    )
    pages = iter(items)
    more = True
    lull = _Lull(jobs)
    try:
        while more or window:
            if more and window.room() >= max(1, window.pages // 4):
                with pool.batch():  # handed out together: one write per worker
                    while not window.full():
                        page = next(pages, None)
                        if page is None:
                            more = False
                            break
                        window.add(page, _submit(pool, page, options, blob))
            while window and not window.ready():
                lull.wait(pool.backlog())
                loop.run_once(None)
            while window.ready():
                lull.took()
                yield window.take()
    finally:
        pool.close()
        loop.close()


class _Lull:
    """Lets lines gather before the parent wakes for them, while every worker has
    pages in hand: each wake-up (the wait, the read, the pool's pass over its workers)
    cost the parent about as much as the lines it took, one line each. Woken for
    several at once, it pays that once for them all; the workers, with pages sent
    ahead, go on meanwhile."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.taken = 0
        self.first: float | None = None  # when the first line was taken

    def took(self) -> None:
        self.taken += 1
        if self.first is None:
            self.first = time.monotonic()

    def wait(self, backlog: int) -> None:
        """Sleep while about :data:`LINES_PER_WAKE` lines come in, if every worker holds
        enough pages to go on meanwhile (half of what the slack ahead of its running
        page lasts, at the pace so far), and never past :data:`MAX_LULL` seconds."""
        if backlog < 2 or self.first is None or self.taken < LINES_PER_WAKE:
            return
        interval = (time.monotonic() - self.first) / self.taken  # between two lines
        slack = (backlog - 1) * interval * self.jobs / 2
        pause = min(MAX_LULL, LINES_PER_WAKE * interval, slack)
        if pause > 0:
            time.sleep(pause)


def _submit(
    pool: EventPool, item: RawPage | PageFile | Skip, options: Options, blob: bytes
) -> Future[Any]:
    if isinstance(item, Skip):  # nothing to extract: its outcome is known now
        future: Future[Any] = Future()
        future.set_result(_as_tuple(extract_one(item, options)))
        return future
    return pool.submit(_extract_in_worker, *_as_task(item), blob)


class _Window:
    """The pages handed out and not yet written, oldest first, and the bytes they hold:
    a WARC record's page until its worker is done with it, then the page's line."""

    def __init__(self, pages: int, max_bytes: int) -> None:
        self.pages = pages
        self.max_bytes = max_bytes
        self.held = 0
        self._pending: deque[tuple[str, Future[Any]]] = deque()

    def __bool__(self) -> bool:
        return bool(self._pending)

    def add(self, item: RawPage | PageFile | Skip, future: Future[Any]) -> None:
        size = len(item.body) if isinstance(item, RawPage) else 0
        self.held += size
        self._pending.append((item.source, future))
        future.add_done_callback(partial(self._done, size))

    def _done(self, size: int, future: Future[Any]) -> None:
        # Called where the pool settles it: in this thread, in loop.run_once (at once
        # for a settled one). The page is dropped with its task; its line is kept.
        self.held -= size
        if _succeeded(future):
            self.held += _size(future.result())

    def room(self) -> int:
        """Pages that may still be handed out (by count; :meth:`full` minds the bytes)."""
        return self.pages - len(self._pending)

    def full(self) -> bool:
        return len(self._pending) >= self.pages or self.held > self.max_bytes

    def ready(self) -> bool:
        return bool(self._pending) and self._pending[0][1].done()

    def take(self) -> Outcome:
        source, future = self._pending.popleft()
        if _succeeded(future):
            self.held -= _size(future.result())
        return _outcome(source, future)


def _succeeded(future: Future[Any]) -> bool:
    return not future.cancelled() and future.exception() is None


def _size(result: tuple[Any, ...]) -> int:
    """Bytes an outcome tuple holds: its line and its Markdown file."""
    line, markdown = result[_LINE], result[_MARKDOWN]
    return (len(line) if line else 0) + (len(markdown) if markdown else 0)


# What crosses between the processes is plain tuples: a slotted dataclass pickles
# through ``dataclasses.fields`` each time, on both sides.
_RECORDS: dict[str, Any] = {"file": PageFile, "page": RawPage}
_OUTCOME_FIELDS = tuple(f.name for f in fields(Outcome))
_LINE, _MARKDOWN = _OUTCOME_FIELDS.index("line"), _OUTCOME_FIELDS.index("markdown")


_TASK_FIELDS = {kind: tuple(f.name for f in fields(record)) for kind, record in _RECORDS.items()}


def _as_task(item: RawPage | PageFile) -> tuple[str, tuple[Any, ...]]:
    kind = "file" if isinstance(item, PageFile) else "page"
    return kind, tuple([getattr(item, name) for name in _TASK_FIELDS[kind]])


def _as_tuple(outcome: Outcome) -> tuple[Any, ...]:
    return tuple(getattr(outcome, name) for name in _OUTCOME_FIELDS)


def _extract_in_worker(kind: str, values: tuple[Any, ...], blob: bytes) -> tuple[Any, ...]:
    """:func:`extract_one` in a worker, its page and its outcome as plain tuples."""
    return _as_tuple(extract_one(_RECORDS[kind](*values), loads_once(blob)))


def _outcome(source: str, future: Future[Any]) -> Outcome:
    try:
        return Outcome(*future.result())
    except TaskTimeout as exc:
        return Outcome(source, reason=f"timeout ({exc})")
    except WorkerDied:
        return Outcome(source, reason="worker process died on page")
    except PoolError as exc:
        return Outcome(source, reason=f"extraction error ({type(exc).__name__})")
