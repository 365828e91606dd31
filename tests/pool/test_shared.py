"""Pages handed to workers through their rings (memory both processes map), in order,
wrapped around, and through the socket when a ring has no room."""

from __future__ import annotations

import os
import pickle
import zlib
from concurrent.futures import Future
from typing import Any

import pytest

from scrapy_cx.pool import _shared
from scrapy_cx.pool._reactor import ReactorPool
from scrapy_cx.pool._shared import Ring
from tests.pool.test_evented import reactor, turn  # noqa: F401 - the fixture, by name

pytestmark = pytest.mark.skipif(Ring.create() is None, reason="no memfd_create here")

KB = 1024


def new_ring(size: int) -> Ring:
    created = Ring.create(size)
    assert created is not None
    ring, handle = created
    handle.close()
    return ring


def view(size: int, fill: bytes = b"x") -> memoryview:
    return memoryview(fill * size)


def test_regions_are_taken_at_the_end_freed_from_the_start_and_wrap_around() -> None:
    ring = new_ring(100 * KB)
    assert ring.put([view(40 * KB)]) == [(0, 40 * KB)]
    assert ring.put([view(40 * KB)]) == [(40 * KB, 40 * KB)]
    assert ring.put([view(30 * KB)]) is None  # 20 KB left at the end, none at the start
    ring.free(1)  # the first is read: its 40 KB at the start are free
    assert ring.put([view(30 * KB)]) == [(0, 30 * KB)]  # wrapped
    assert ring.put([view(20 * KB)]) is None  # 10 KB before the region still held
    ring.free(1)
    assert ring.put([view(50 * KB)]) == [(30 * KB, 50 * KB)]
    ring.free(2)  # all read: the next starts at the start again
    assert ring.put([view(100 * KB)]) == [(0, 100 * KB)]
    assert ring.put([view(1)]) is None
    ring.close()


def test_a_task_whose_parts_do_not_all_fit_takes_no_room() -> None:
    ring = new_ring(100 * KB)
    assert ring.put([view(30 * KB)]) is not None
    assert ring.put([view(30 * KB), view(50 * KB)]) is None  # the first part is given back
    assert ring.put([view(70 * KB)]) == [(30 * KB, 70 * KB)]
    ring.free(1)
    ring.unput(1)  # a task that could not be sent after all
    assert ring.put([view(100 * KB)]) == [(0, 100 * KB)]
    assert ring.put([view(0)]) is None  # nothing to share: the socket carries it
    ring.close()


def crc(data: Any) -> int:
    return zlib.crc32(data)


def test_pages_reach_the_workers_whole_through_the_rings_and_the_socket(
    reactor: Any,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pages of every size, many in flight: each worker's ring wraps around many times,
    pages larger than it (or than the room left) go through the socket, and every worker
    reads every page as it was."""
    shared: list[int] = []
    put = Ring.put

    def counted(self: Ring, parts: Any) -> Any:
        regions = put(self, parts)
        if regions is not None:
            shared.append(len(regions))
        return regions

    monkeypatch.setattr(Ring, "put", counted)
    monkeypatch.setattr(_shared, "RING_BYTES", 1024 * KB)
    sizes = [300 * KB, 5 * KB, 700 * KB, 2000 * KB, 450 * KB, 1] * 8
    pages = [os.urandom(size) for size in sizes]
    pool = ReactorPool(2, reactor=reactor, capacity=len(pages), warm_up=None)
    try:
        futures: list[Future[Any]] = [pool.submit(crc, pickle.PickleBuffer(p)) for p in pages]
        turn(reactor, futures)
        assert [f.result() for f in futures] == [crc(p) for p in pages]
    finally:
        pool.close()
    assert len(shared) >= len(pages) // 2  # most went through the rings
    assert len(shared) < len(pages)  # the 2 MB pages could not
