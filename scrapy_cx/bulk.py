"""Bulk offline extraction: pages in, JSON lines out, on every core.

The reader (one process) feeds batches of pages to a process pool and keeps
only a fixed number of batches in flight, so memory stays bounded on inputs
of any size (``Pool.imap`` would read the whole input ahead). Results come
back in input order. Workers serialize to JSON themselves so the parent only
writes lines. A page that breaks a worker process is retried alone and, if it
breaks it again, skipped: bad input is never fatal.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext

from ._verdict import DEFAULT_PAGE_TYPES, invalid_reason
from .dedup import DedupIndex
from .extract import extract_article
from .records import Page, Skip

# The same as the crawl's CX_MIN_CONTENT_LENGTH, so both ways of extracting agree on
# what an article is (tests/test_bulk.py checks it).
DEFAULT_MIN_CONTENT_LENGTH = 200
# The crawl's stats keys (scrapy_cx._verdict), as the bulk summary words them.
_REASONS = {
    "no_content": "main text too short",
    "short_content": "main text too short",
    "no_title": "no title",
    "bad_published": "bad published date",
}


@dataclass(frozen=True, slots=True)
class Options:
    """What every worker needs to know to turn a page into a line."""

    min_content_length: int = DEFAULT_MIN_CONTENT_LENGTH
    encoding: str | None = None  # used when the page's transport declared no charset
    page_types: tuple[str, ...] = DEFAULT_PAGE_TYPES  # the crawl's CX_PAGE_TYPES


@dataclass(frozen=True, slots=True)
class Outcome:
    """One page's result: an output line (an article) or a skip reason."""

    source: str
    line: str | None = None
    reason: str | None = None
    fingerprint: str | None = None  # of an article's main text, for --dedup


def extract_one(item: Page | Skip, options: Options) -> Outcome:
    """Extract one page into a JSON line, or say why not. Never raises."""
    if isinstance(item, Skip):
        return Outcome(item.source, reason=item.reason)
    try:
        article = extract_article(item.body, item.url, encoding=item.encoding or options.encoding)
    except Exception as exc:  # noqa: BLE001 - one bad page must not end a bulk run
        return Outcome(item.source, reason=f"extraction error ({type(exc).__name__})")
    reason = invalid_reason(
        article.to_dict(), options.min_content_length, False, options.page_types
    )
    if reason is not None:
        words = _REASONS.get(reason) or reason.replace("_", " ")
        return Outcome(item.source, reason=f"no article ({words})")
    line = json.dumps(article.to_dict(), ensure_ascii=False)
    return Outcome(item.source, line=line, fingerprint=article.fingerprint)


#: The skip reason of an article whose main text repeats an earlier one's (--dedup).
DUPLICATE = "duplicate (main text of an earlier article)"


def drop_duplicates(outcomes: Iterable[Outcome], index: DedupIndex) -> Iterator[Outcome]:
    """The outcomes in input order, each repost of an earlier article turned into a skip."""
    for outcome in outcomes:
        if outcome.line is not None and outcome.fingerprint is not None:
            if index.add(outcome.fingerprint, outcome.source) is not None:
                outcome = Outcome(outcome.source, reason=DUPLICATE)
        yield outcome


_worker_options = Options()


def _init_worker(options: Options) -> None:
    global _worker_options
    _worker_options = options


def _extract_batch(batch: list[Page | Skip]) -> list[Outcome]:
    return [extract_one(item, _worker_options) for item in batch]


@dataclass
class Summary:
    """Counts for the end-of-run report."""

    pages: int = 0
    articles: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.pages += 1
        if outcome.line is not None:
            self.articles += 1
        else:
            self.skipped[outcome.reason or "unknown"] += 1

    def stop(self) -> None:
        self.seconds = time.monotonic() - self.started

    @property
    def rate(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    def format(self, jobs: int) -> str:
        lines = [
            f"{self.pages:,} pages, {self.articles:,} articles in {self.seconds:.1f} s "
            f"({self.rate:,.1f} pages/s, {jobs} job{'s' if jobs != 1 else ''})"
        ]
        if self.skipped:
            lines.append(f"skipped {sum(self.skipped.values()):,}:")
            for reason, count in sorted(self.skipped.items(), key=lambda kv: (-kv[1], kv[0])):
                lines.append(f"  {count:>8,}  {reason}")
        return "\n".join(lines)


def batches(items: Iterable[Page | Skip], size: int, max_bytes: int) -> Iterator[list[Page | Skip]]:
    """Group items into lists of at most ``size`` items or about ``max_bytes`` of pages."""
    batch: list[Page | Skip] = []
    weight = 0
    for item in items:
        batch.append(item)
        if isinstance(item, Page):
            weight += len(item.body)
        if len(batch) >= size or weight >= max_bytes:
            yield batch
            batch, weight = [], 0
    if batch:
        yield batch


def default_jobs() -> int:
    """Worker processes to use by default: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def extract_all(
    items: Iterable[Page | Skip],
    options: Options,
    jobs: int,
    *,
    batch_size: int = 16,
    batch_bytes: int = 4 * 1024 * 1024,
    in_flight: int | None = None,
    mp_context: BaseContext | None = None,
) -> Iterator[Outcome]:
    """Yield one :class:`Outcome` per item, in input order.

    ``jobs == 1`` runs in this process (no pickling, for small inputs and for
    measuring one core). Otherwise at most ``in_flight`` batches (default
    ``4 * jobs``) are read ahead of the results.
    """
    groups = batches(items, batch_size, batch_bytes)
    if jobs <= 1:
        for group in groups:
            for item in group:
                yield extract_one(item, options)
        return
    limit = in_flight or 4 * jobs
    pool = _Pool(jobs, options, mp_context)
    pending: deque[tuple[list[Page | Skip], Future[list[Outcome]]]] = deque()
    try:
        for group in groups:
            pending.append((group, pool.submit(group)))
            while len(pending) >= limit:
                yield from pool.result(*pending.popleft())
        while pending:
            yield from pool.result(*pending.popleft())
    finally:
        pool.shutdown()


class _Pool:
    """A process pool that survives a worker dying on a page (segfault, OOM kill)."""

    def __init__(self, jobs: int, options: Options, mp_context: BaseContext | None) -> None:
        self.jobs = jobs
        self.options = options
        self.mp_context = mp_context
        self.executor = self._new()
        self.broken = False

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.jobs, self.mp_context, initializer=_init_worker, initargs=(self.options,)
        )

    def submit(self, group: list[Page | Skip]) -> Future[list[Outcome]]:
        try:
            return self.executor.submit(_extract_batch, group)
        except BrokenProcessPool:
            self.broken = True
            self._restart()
            return self.executor.submit(_extract_batch, group)

    def result(self, group: list[Page | Skip], future: Future[list[Outcome]]) -> list[Outcome]:
        try:
            return future.result()
        except BrokenProcessPool:
            self.broken = True
        # The batch was lost with its worker: redo it one page at a time to find the culprit.
        outcomes = []
        for item in group:
            self._restart()
            try:
                outcomes.extend(self.executor.submit(_extract_batch, [item]).result())
            except BrokenProcessPool:
                self.broken = True
                outcomes.append(Outcome(_source(item), reason="worker process died on page"))
        self._restart()
        return outcomes

    def _restart(self) -> None:
        if self.broken:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new()
            self.broken = False

    def shutdown(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def _source(item: Page | Skip) -> str:
    return item.source
