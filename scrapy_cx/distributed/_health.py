"""Whether the crawl's Redis answers: one line per change, and a bounded wait.

Every distributed component talks to Redis on every page (the queue, the
dupefilter, the leases, the export record). When Redis is unreachable or full
(``maxmemory``), each of those calls raised on its own: raw redis-py tracebacks
at every engine turn, and a process that never ended once Redis was gone for
good. They now report here instead: :meth:`RedisHealth.failed` logs one line
when Redis stops answering and :meth:`RedisHealth.answered` one line when it
answers again (then runs what was kept to retry); a process that has not been
answered for ``CX_REDIS_GIVE_UP`` seconds stops its crawl with
``cx_redis_unavailable`` and exit status 1.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

from scrapy.crawler import Crawler

from ..middleware import stop_crawl
from ..settings import CxSettings

__all__ = ["REDIS_UNAVAILABLE", "RedisHealth", "redis_errors", "unavailable"]

logger = logging.getLogger(__name__)

#: The crawl's finish reason when Redis did not answer for ``CX_REDIS_GIVE_UP`` seconds.
REDIS_UNAVAILABLE = "cx_redis_unavailable"

#: Seconds after the last failure before a write that goes through ends an outage: right
#: after ``maxmemory`` is reached some writes still pass (Redis's own timing), and each
#: pass would otherwise be one more "answers again" and "does not answer" pair of lines.
SETTLE_SECONDS = 1.0

_health: weakref.WeakKeyDictionary[Crawler, RedisHealth] = weakref.WeakKeyDictionary()


def redis_errors() -> tuple[type[BaseException], ...]:
    """What to catch around a Redis call; :func:`unavailable` then says whether it is
    Redis unable to do it now (else it is re-raised: a bug is not an outage)."""
    from redis.exceptions import RedisError

    return (RedisError,)


#: What a refusal reads like inside a Lua script's error (redis-py raises those as a
#: plain ResponseError: "Error running script ... -OOM command not allowed ...").
_REFUSALS = ("OOM command not allowed", "-LOADING", "-READONLY", "-MASTERDOWN")


def unavailable(error: BaseException) -> bool:
    """Whether a Redis call failed because Redis cannot do it now: unreachable, timed
    out, full (``maxmemory``), loading, or a read-only replica."""
    from redis.exceptions import (
        BusyLoadingError,
        ConnectionError,  # noqa: A004 - redis-py's name
        OutOfMemoryError,
        ReadOnlyError,
        TimeoutError,  # noqa: A004 - redis-py's name
    )

    if isinstance(
        error, (ConnectionError, TimeoutError, OutOfMemoryError, BusyLoadingError, ReadOnlyError)
    ):
        return True
    text = str(error)
    return any(refusal in text for refusal in _REFUSALS)


class RedisHealth:
    """One per crawler, shared by the scheduler, the lease acknowledgements and the export."""

    def __init__(self, crawler: Crawler, give_up: float) -> None:
        self.crawler = crawler
        self.give_up = give_up
        self.down_since: float | None = None
        self.last_failure = 0.0
        self.stopped = False  # whether it stopped the crawl (stop_crawl: once)
        self._on_answer: list[Callable[[], None]] = []

    @classmethod
    def of(cls, crawler: Crawler) -> RedisHealth:
        health = _health.get(crawler)
        if health is None:
            give_up = CxSettings.from_settings(crawler.settings).redis_give_up
            health = _health[crawler] = cls(crawler, give_up)
        return health

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def when_answering(self, retry: Callable[[], None]) -> None:
        """Call ``retry`` once Redis answers again (at once if it does now)."""
        self._on_answer.append(retry)
        if not self.down:
            self._retry()

    def failed(self, error: BaseException, doing: str) -> None:
        """A call failed: re-raise it unless Redis is :func:`unavailable`; say so if it is
        the first failure since Redis last answered, and stop the crawl once Redis has
        not answered for ``give_up`` seconds. Call it in an ``except`` block."""
        if not unavailable(error):
            raise error
        now = self.last_failure = time.monotonic()
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value("cx/redis/errors")
        if self.down_since is None:
            self.down_since = now
            if stats is not None:
                stats.inc_value("cx/redis/outages")
            logger.error(
                "scrapy-cx: Redis does not answer (%s while %s: %s); waiting for it, "
                "for up to %g s (CX_REDIS_GIVE_UP)",
                type(error).__name__,
                doing,
                _first_line(error),
                self.give_up,
            )
        elif not self.stopped and now - self.down_since >= self.give_up:
            self.stopped = True
            stop_crawl(
                self.crawler,
                REDIS_UNAVAILABLE,
                f"Redis has not answered for {now - self.down_since:.0f} s "
                f"(CX_REDIS_GIVE_UP {self.give_up:g} s); last: {type(error).__name__} "
                f"while {doing}",
            )

    def answered(self) -> None:
        """A write succeeded: if Redis was down, say it is back and retry what waited.
        (Not a read: a full Redis serves reads and refuses writes.)"""
        if self.down_since is None or time.monotonic() - self.last_failure < SETTLE_SECONDS:
            return
        logger.warning(
            "scrapy-cx: Redis answers again, after %.1f s", time.monotonic() - self.down_since
        )
        self.down_since = None
        self._retry()

    def _retry(self) -> None:
        waiting, self._on_answer = self._on_answer, []
        for retry in waiting:
            retry()


def _first_line(error: BaseException) -> Any:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else "no message"
