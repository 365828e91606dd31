"""What a ``site=`` crawl takes over from the last run on its JOBDIR: the exported set
(``_seen.py``), never Scrapy's request queue, and whether that run finished.

A SIGKILL can tear Scrapy's disk queue (``JOBDIR/requests.queue``): the next run
then fails to enqueue every request of that priority (``unpack requires a buffer
of 4 bytes``) and loses the articles (issue 43, item 3). A site crawl needs no
queue: it reads its sitemaps, feeds and listings again every run and skips what
it exported, so the queue is set aside at start. A listing's older pages are
skipped when "caught up" only after a run that finished (a marker file written at
a clean close): after a killed one, the pages it never reached are read again.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

from ._exported import ExportLedger
from ._seen import SeenStore

__all__ = ["RunMarker", "drop_request_queue", "resume_site_crawl"]

logger = logging.getLogger(__name__)

QUEUE = "requests.queue"  # Scrapy's scheduler keeps its disk queue there
FINISHED = "cx-news-finished"


def drop_request_queue(jobdir: str) -> None:
    """Remove the last run's Scrapy request queue (see the module's docstring)."""
    queue = Path(jobdir) / QUEUE
    if queue.exists():
        shutil.rmtree(queue, ignore_errors=True)
        logger.info("%s: the last run's request queue is not resumed (sources are read again)",
                    queue)


class RunMarker:
    """Whether the last run on a JOBDIR finished; this run's finish, once it does."""

    def __init__(self, jobdir: str) -> None:
        self.path = Path(jobdir) / FINISHED
        self.finished_before = self.path.is_file()
        self.path.unlink(missing_ok=True)  # killed from here on: not finished

    def finished(self) -> None:
        self.path.touch()


def resume_site_crawl(spider: Any, crawler: Any) -> None:
    """Give a ``site=`` spider its state: the exported set (Redis, else JOBDIR, else
    memory), the ledger that fills it, and on a JOBDIR this module's rules."""
    settings = crawler.settings
    jobdir = settings.get("JOBDIR")
    redis_url = settings.get("CX_REDIS_URL") if spider.seen_in_redis else None
    spider.seen = SeenStore.open(jobdir, redis_url, spider.name)
    if jobdir:
        drop_request_queue(jobdir)
        spider.run_marker = RunMarker(jobdir)
        if not redis_url:  # a rerun only after a run that finished
            spider.seen.rerun = spider.run_marker.finished_before
    spider.ledger = ExportLedger(crawler, spider.seen, spider.exported_urls)
