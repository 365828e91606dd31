"""RedisHealth: which Redis failures are an outage, and one line per change (real redis-server)."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from scrapy import Spider

from scrapy_cx.distributed._health import SETTLE_SECONDS, RedisHealth, unavailable
from tests.crawler import make_crawler
from tests.support.redis import running_redis

EXPORT = "if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then return 1 end return 0"


def error_of(call: Callable[[], Any]) -> BaseException:
    try:
        call()
    except redis.RedisError as exc:
        return exc
    raise AssertionError("the call did not fail")


def test_full_unreachable_and_refusals_inside_scripts_are_outages(tmp_path: Path) -> None:
    with running_redis(tmp_path) as url:
        server = redis.Redis.from_url(url)
        server.set("text", "x")
        script = server.register_script(EXPORT)
        wrong_type = error_of(lambda: server.sadd("text", "1"))
        server.config_set("maxmemory", 1)
        in_script = error_of(lambda: script(keys=["seen"], args=["u"]))
        direct = error_of(lambda: server.sadd("seen", "u"))
    with socket.socket() as held:  # bound, never listening: refused, and no one else's port
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        gone = error_of(redis.Redis(port=port, socket_connect_timeout=1).ping)
    # A script's refusal comes as a plain ResponseError: "-OOM" is inside its text.
    assert type(in_script) is redis.ResponseError and unavailable(in_script)
    assert unavailable(direct) and unavailable(gone)
    assert not unavailable(wrong_type)  # a bug, not an outage: raised, never waited on


def test_one_line_per_change_and_a_bug_is_raised(caplog: pytest.LogCaptureFixture) -> None:
    health = RedisHealth(make_crawler(Spider, {}), give_up=60)
    retried: list[str] = []
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            health.failed(redis.ConnectionError("refused"), "taking a request")
        health.when_answering(lambda: retried.append("acks"))
        assert retried == []  # Redis is down: it waits
        health.answered()  # a write right after a failure does not end the outage yet
        assert retried == [] and health.down
        time.sleep(SETTLE_SECONDS + 0.1)
        health.answered()
        health.answered()
    assert retried == ["acks"] and not health.down
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and "does not answer (ConnectionError while taking" in said[0]
    with pytest.raises(redis.ResponseError):
        health.failed(redis.ResponseError("WRONGTYPE Operation"), "queueing a request")
