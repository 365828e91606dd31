"""A shared scrapy-redis queue that survives a crawler dying: requests are leased, not popped.

scrapy-redis pops a request from Redis and marks its URL seen; if the process
is then killed, the request is gone and no other process fetches it again (a
crash lost 20 of 550 articles). Here a pop moves the request, atomically, to
a lease (``<queue key>:leases``, a sorted set scored by a deadline in Redis's
own clock) and the request is acknowledged, the lease deleted, only once it is
done:

* its response went through the spider and every item it yielded has left the
  item pipelines (scraped, dropped or failed): :class:`LeaseAcks`;
* its download failed for good (after RetryMiddleware gave up), or it was
  ignored on the way (robots.txt, offsite): :class:`LeaseAcks` too;
* it turned into another request (a redirect, a retry): the new request is
  queued and the old lease deleted in one transaction (:meth:`LeasedQueue.push`);
* that other request was a duplicate, dropped by the shared dupefilter;
* its response was dropped as too large by
  :class:`scrapy_cx.sizeguard.SizeGuardMiddleware` (which says so with a signal:
  an exception raised in ``process_response`` reaches no other middleware).

A lease not acknowledged ``CX_REDIS_LEASE_TIMEOUT`` seconds after the pop
(its process died or hangs) is handed to the next process that asks for work,
before any queued request. After ``CX_REDIS_MAX_DELIVERIES`` deliveries a
request is given up (moved to ``<queue key>:dead``) so that one that kills
every process which fetches it cannot stall the crawl forever.

This gives at-least-once fetching; :class:`scrapy_cx.distributed.ExportOnce`
makes the export exactly once on top of it.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import load_object
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler as RedisScheduler

from ..settings import CxSettings
from ..sizeguard import request_too_large
from ._health import RedisHealth, redis_errors
from ._shared import ExportFailed

__all__ = ["META_LEASE", "LeaseAcks", "LeasedQueue", "Scheduler"]

logger = logging.getLogger(__name__)

#: Requests (and acknowledgements) kept in memory while Redis does not answer; past
#: this the oldest are given up, counted: a bound on memory, however long the outage.
MAX_KEPT = 100_000

#: ``request.meta`` key holding the lease of a request popped from the shared queue.
META_LEASE = "cx_lease"

# KEYS: queue, leases, deliveries, dead. ARGV: lease ms, max deliveries (0: no limit).
# Expired leases first (a dead process's work before new work), then the queue's top.
_POP = """
redis.replicate_commands()
local now = redis.call('TIME')
local t = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local deadline = t + tonumber(ARGV[1])
local most = tonumber(ARGV[2])
while true do
  local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', t, 'LIMIT', 0, 1)
  if #expired == 0 then break end
  local data = expired[1]
  local n = redis.call('HINCRBY', KEYS[3], data, 1)
  if most > 0 and n > most then
    redis.call('ZREM', KEYS[2], data)
    redis.call('HDEL', KEYS[3], data)
    redis.call('RPUSH', KEYS[4], data)
  else
    redis.call('ZADD', KEYS[2], deadline, data)
    return data
  end
end
local top = redis.call('ZRANGE', KEYS[1], 0, 0)
if #top == 0 then return false end
redis.call('ZREM', KEYS[1], top[1])
redis.call('ZADD', KEYS[2], deadline, top[1])
redis.call('HSET', KEYS[3], top[1], 1)
return top[1]
"""


def lease_keys(queue_key: str) -> tuple[str, str, str]:
    """``(leases, deliveries, dead)`` keys that go with a queue key."""
    return f"{queue_key}:leases", f"{queue_key}:deliveries", f"{queue_key}:dead"


def ack(server: Any, queue_key: str, lease: bytes) -> None:
    """Delete a lease: its request is done."""
    leases, deliveries, _dead = lease_keys(queue_key)
    pipe = server.pipeline()
    pipe.zrem(leases, lease).hdel(deliveries, lease)
    pipe.execute()


class LeasedQueue(PriorityQueue):
    """scrapy-redis's priority queue, with pops that lease (``SCHEDULER_QUEUE_CLASS``)."""

    def __init__(self, server: Any, spider: Spider, key: str, serializer: Any = None) -> None:
        super().__init__(server, spider, key, serializer)
        settings = CxSettings.from_settings(spider.crawler.settings)
        self.lease_ms = int(1000 * settings.redis_lease_timeout)
        self.max_deliveries = settings.redis_max_deliveries
        self.leases, self.deliveries, self.dead = lease_keys(self.key)
        self._pop = server.register_script(_POP)

    def __len__(self) -> int:
        # Leased requests count as pending: the crawl is not done while any
        # process (or a dead one's lease) still holds work that may add links.
        pipe = self.server.pipeline()
        pipe.zcard(self.key).zcard(self.leases)
        return int(sum(pipe.execute()))

    def push(self, request: Request) -> None:
        parent = request.meta.pop(META_LEASE, None)
        data = self._encode_request(request)
        pipe = self.server.pipeline()  # MULTI/EXEC: both or neither
        pipe.execute_command("ZADD", self.key, -request.priority, data)
        if parent is not None:  # a redirect or retry takes over its parent's lease
            pipe.zrem(self.leases, parent).hdel(self.deliveries, parent)
        pipe.execute()

    def pop(self, timeout: int = 0) -> Request | None:
        data = self._pop(
            keys=[self.key, self.leases, self.deliveries, self.dead],
            args=[self.lease_ms, self.max_deliveries],
        )
        if not data:
            return None
        request = self._decode_request(data)
        request.meta[META_LEASE] = data
        return request

    def clear(self) -> None:
        self.server.delete(self.key, self.leases, self.deliveries)


class Scheduler(RedisScheduler):
    """scrapy-redis's scheduler (``SCHEDULER``), waiting out a Redis that does not answer.

    A request that cannot be queued (Redis unreachable or full) is kept here and
    queued once Redis answers, so the links of a page fetched meanwhile are not
    lost (its lease is acknowledged: its work is done); while any is kept, or
    while Redis does not answer, the crawl is not idle. Taking a request from a
    Redis that does not answer gives none. Failures are reported to
    :class:`~scrapy_cx.distributed._health.RedisHealth` (one line per change, and
    the crawl stopped after ``CX_REDIS_GIVE_UP`` seconds) instead of raising into
    the engine at every turn.
    """

    def open(self, spider: Spider) -> Any:
        self.health = RedisHealth.of(spider.crawler)
        self.errors = redis_errors()
        self.kept: deque[Request] = deque()
        return super().open(spider)

    def enqueue_request(self, request: Request) -> bool:
        if not self.kept or self._queue_kept():
            try:
                queued = self._enqueue(request)
            except self.errors as exc:
                self.health.failed(exc, "queueing a request")
            else:
                self.health.answered()
                return queued
        self._keep(request)
        return True

    def next_request(self) -> Request | None:
        if self.kept and not self._queue_kept():
            return None
        try:
            request: Request | None = self.queue.pop(self.idle_before_close)
        except self.errors as exc:
            self.health.failed(exc, "taking a request")
            return None
        if request is not None:  # a write went through (the lease): Redis takes writes again
            self.health.answered()
            self.spider.crawler.stats.inc_value("scheduler/dequeued/redis")
        return request

    def _enqueue(self, request: Request) -> bool:
        """scrapy-redis's enqueue, with its stats counted without the ``spider`` argument
        Scrapy 2.13+ deprecates."""
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        self.spider.crawler.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def has_pending_requests(self) -> bool:
        if self.kept:
            return True
        try:
            pending = len(self) > 0
        except self.errors as exc:
            self.health.failed(exc, "counting the requests left")
            return True  # not known to be done: wait, or give up after CX_REDIS_GIVE_UP
        # A read that works says nothing of a full Redis, which refuses writes only:
        # only a write that goes through ends an outage (no line per engine turn).
        return pending

    def close(self, reason: str) -> Any:
        try:
            return super().close(reason)
        except self.errors as exc:
            logger.error("scrapy-cx: could not close the shared queue in Redis: %s", exc)
            return None

    def _keep(self, request: Request) -> None:
        if len(self.kept) >= MAX_KEPT:
            self.kept.popleft()
            self.spider.crawler.stats.inc_value("cx/redis/requests_given_up")
        self.kept.append(request)
        self.spider.crawler.stats.inc_value("cx/redis/requests_kept")

    def _queue_kept(self) -> bool:
        """Queue the requests kept, in order; False if Redis still does not answer.

        The dupefilter is asked again (it may not have recorded one), but a request
        it now calls seen is queued anyway: that may be this process's own record
        of it from before the queueing failed."""
        while self.kept:
            request = self.kept[0]
            try:
                if not request.dont_filter:
                    self.df.request_seen(request)
                self.queue.push(request)
            except self.errors as exc:
                self.health.failed(exc, "queueing a request kept")
                return False
            self.kept.popleft()
        self.health.answered()
        return True


class _Pending:
    __slots__ = ("items", "done", "failed")

    def __init__(self) -> None:
        self.items = 0
        self.done = False
        self.failed = False  # an item's pipelines failed: its page must be fetched again


def _is_leased_queue(queue_class: Any) -> bool:
    """Whether the scheduler's queue class is :class:`LeasedQueue` (or a subclass), named
    by any of its paths (``scrapy_cx.distributed.LeasedQueue``, the old
    ``scrapy_cx.leases.LeasedQueue``) or given as the class."""
    try:
        loaded = load_object(queue_class) if isinstance(queue_class, str) else queue_class
    except (ImportError, AttributeError, ValueError, NameError):
        return False
    return isinstance(loaded, type) and issubclass(loaded, LeasedQueue)


class LeaseAcks:
    """Acknowledge each leased request once it is done (see the module doc).

    One class for both lists: as a spider middleware (``SPIDER_MIDDLEWARES``,
    order 10, after HttpErrorMiddleware) it sees a response's whole output and
    waits for its items; as a downloader middleware (``DOWNLOADER_MIDDLEWARES``,
    order 10, after RetryMiddleware) it sees the failures that end a request.
    """

    def __init__(self, crawler: Crawler) -> None:
        from scrapy_redis.connection import get_redis_from_settings

        self.crawler = crawler
        settings = crawler.settings
        if not _is_leased_queue(settings.get("SCHEDULER_QUEUE_CLASS")):
            raise NotConfigured("SCHEDULER_QUEUE_CLASS is not scrapy_cx.distributed.LeasedQueue")
        self.server = get_redis_from_settings(settings)
        self.queue_key_template = settings.get("SCHEDULER_QUEUE_KEY", "%(spider)s:requests")
        self.queue_key = ""
        self.pending: dict[int, _Pending] = {}
        self.health = RedisHealth.of(crawler)
        self.errors = redis_errors()
        self.unacked: deque[bytes] = deque()  # acknowledgements Redis did not take
        for signal in (signals.item_scraped, signals.item_dropped):
            crawler.signals.connect(self.item_done, signal=signal)
        crawler.signals.connect(self.item_failed, signal=signals.item_error)
        crawler.signals.connect(self.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(self.request_dropped, signal=request_too_large)
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LeaseAcks:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        self.queue_key = self.queue_key_template % {"spider": spider.name}

    def _ack(self, lease: bytes) -> None:
        try:
            ack(self.server, self.queue_key, lease)
        except self.errors as exc:
            self.health.failed(exc, "acknowledging a request")
            if not self.unacked:
                self.health.when_answering(self._ack_kept)
            if len(self.unacked) < MAX_KEPT:  # else its lease expires: fetched again, no loss
                self.unacked.append(lease)
        # A delete that goes through says nothing: a full Redis still takes deletes.

    def _ack_kept(self) -> None:
        """Acknowledge what Redis did not take while it did not answer (its leases would
        otherwise expire and the pages be fetched again: no loss, but time)."""
        kept, self.unacked = self.unacked, deque()
        for lease in kept:
            self._ack(lease)

    # --- spider middleware -----------------------------------------------------------

    def process_spider_output(
        self, response: Any, result: Any, spider: Spider | None = None
    ) -> Any:
        lease = response.meta.get(META_LEASE)
        if lease is None:
            yield from result
            return
        pending = self.pending.setdefault(id(response), _Pending())
        try:
            for output in result:
                yield self._track(output, pending)
        finally:
            self._finish(response, pending)

    async def process_spider_output_async(
        self, response: Any, result: Any, spider: Spider | None = None
    ) -> Any:
        lease = response.meta.get(META_LEASE)
        if lease is None:
            async for output in result:
                yield output
            return
        pending = self.pending.setdefault(id(response), _Pending())
        try:
            async for output in result:
                yield self._track(output, pending)
        finally:
            self._finish(response, pending)

    @staticmethod
    def _track(output: Any, pending: _Pending) -> Any:
        if isinstance(output, Request):
            # A follow-up is new work with no lease; if a spider copied meta into
            # it, it must not carry (and later acknowledge) this response's lease.
            output.meta.pop(META_LEASE, None)
        else:
            pending.items += 1
        return output

    def _finish(self, response: Any, pending: _Pending) -> None:
        pending.done = True
        self._settle(response)

    def item_done(
        self, item: Any, response: Any = None, exception: Any = None, **kwargs: Any
    ) -> None:
        if isinstance(exception, ExportFailed):  # dropped because Redis did not take it
            self.item_failed(item, response)
            return
        pending = self.pending.get(id(response)) if response is not None else None
        if pending is not None:
            pending.items -= 1
            self._settle(response)

    def item_failed(self, item: Any, response: Any = None, **kwargs: Any) -> None:
        """An item's pipelines raised, or it was dropped as ``ExportFailed``: the
        request is not acknowledged, so its lease expires and the page is fetched
        again, and the item exported then."""
        pending = self.pending.get(id(response)) if response is not None else None
        if pending is not None:
            pending.failed = True
            pending.items -= 1
            self._settle(response)

    def _settle(self, response: Any) -> None:
        pending = self.pending.get(id(response))
        if pending is not None and pending.done and pending.items <= 0:
            del self.pending[id(response)]
            if pending.failed:
                self.crawler.stats.inc_value("cx/redis/not_acknowledged")
            else:
                self._ack(response.meta[META_LEASE])

    # --- downloader middleware and signals ---------------------------------------------

    def process_exception(
        self, request: Request, exception: BaseException, spider: Spider | None = None
    ) -> None:
        lease = request.meta.get(META_LEASE)
        if lease is not None:  # nobody before us turned it into a retry: it is over
            self._ack(lease)

    def request_dropped(self, request: Request, spider: Spider | None = None) -> None:
        lease = request.meta.pop(META_LEASE, None)
        if lease is not None:  # a redirect to a page already seen, or a bomb: it is over
            self._ack(lease)
