"""A page handed to a worker through memory both processes map, not through its socket.

Written to a worker's socket, a page's body (wceb_dev's are 310 KB on average) is
copied into the kernel by the crawl's process and out of it by the worker: the
``writev`` was 115-220 us of the crawl process's CPU per page (thread time, the
16-page-wide crawl of ``benchmarks/crawl.py --canned``), the largest single part of
what the plugin costs that process. Here each worker gets a ring: a ``memfd``
mapped by the parent (read-write) and by the worker (read-only). The parent copies
a body into the ring (one ``memcpy``) and sends only where it lies; the worker's
reader copies it out as soon as the task arrives, so a region is free again once
the task's reply is back (tasks end in the order they were sent). A body the ring
has no room for now, or a system without ``memfd_create``, goes through the
socket as before.
"""

from __future__ import annotations

import mmap
import os
import struct
from collections import deque
from collections.abc import Sequence
from multiprocessing import reduction
from typing import Any

__all__ = ["RING_BYTES", "SHARED", "Ring", "RingHandle", "header", "read_regions"]

#: Bytes of each worker's ring: the crawl's two pages in flight per worker (``PREFETCH``)
#: of a few hundred KB each, with room to spare; memory is taken only as it is written.
#: (The bulk command's tasks name files; its workers read them themselves.)
RING_BYTES = 4 << 20
#: Leads a task whose large bytes lie in the worker's ring: the count of regions, each
#: region's offset and length, then the task's pickle.
SHARED = b"S"
_COUNT = struct.Struct("!I")
_REGION = struct.Struct("!QQ")


class Ring:
    """The parent's side of one worker's ring: regions taken at the end, freed from the
    start, in order (first in, first out)."""

    def __init__(self, fd: int, size: int) -> None:
        self.size = size
        self._map = mmap.mmap(fd, size)
        self._regions: deque[tuple[int, int]] = deque()  # (start, end), oldest first
        self._tail = 0  # where the next region starts, if it fits there

    @classmethod
    def create(cls, size: int | None = None) -> tuple[Ring, RingHandle] | None:
        """A new ring (of :data:`RING_BYTES` unless ``size`` is given) and the handle its
        worker maps it by, or None where the system has no ``memfd_create`` (the socket
        carries every page then)."""
        size = RING_BYTES if size is None else size
        create = getattr(os, "memfd_create", None)
        if create is None:
            return None
        try:
            fd = create("scrapy-cx-pages", os.MFD_CLOEXEC)
        except OSError:
            return None
        try:
            os.ftruncate(fd, size)
            return cls(fd, size), RingHandle(fd, size)
        except OSError:
            os.close(fd)
            return None

    def _room(self, size: int) -> int | None:
        """Where ``size`` bytes fit now, or None."""
        if not self._regions:
            return 0 if size <= self.size else None
        head = self._regions[0][0]
        if self._tail > head:  # used: [head, tail); free: [tail, end) and [0, head)
            if self._tail + size <= self.size:
                return self._tail
            return 0 if size <= head else None
        return self._tail if self._tail + size <= head else None  # free: [tail, head)

    def put(self, parts: Sequence[memoryview]) -> list[tuple[int, int]] | None:
        """Copy every part in and return where each lies, or take none and return None
        when they do not all fit now."""
        taken: list[tuple[int, int]] = []
        for part in parts:
            size = part.nbytes
            start = self._room(size) if size else None
            if start is None:
                self.unput(len(taken))
                return None
            self._map[start : start + size] = part
            self._regions.append((start, start + size))
            self._tail = start + size
            taken.append((start, size))
        return taken

    def unput(self, count: int) -> None:
        """Give back the ``count`` regions taken last (a task that could not be sent)."""
        for _ in range(count):
            self._regions.pop()
        self._tail = self._regions[-1][1] if self._regions else 0

    def free(self, count: int) -> None:
        """The ``count`` oldest regions are read: their room can be taken again."""
        for _ in range(count):
            self._regions.popleft()
        if not self._regions:
            self._tail = 0

    def close(self) -> None:
        self._regions.clear()
        self._map.close()


def header(regions: Sequence[tuple[int, int]]) -> bytes:
    """A task's lead when its buffers lie in the ring at ``regions``."""
    return SHARED + _COUNT.pack(len(regions)) + b"".join(_REGION.pack(*r) for r in regions)


def read_regions(data: bytes, ring: mmap.mmap) -> tuple[bytes, list[bytes]]:
    """The worker's side: the pickle of a :data:`SHARED` task and its buffers, copied out
    of the ring now (the parent takes the room again once the task's reply is back)."""
    (count,) = _COUNT.unpack_from(data, 1)
    at = 1 + _COUNT.size
    buffers = []
    for _ in range(count):
        start, size = _REGION.unpack_from(data, at)
        at += _REGION.size
        buffers.append(ring[start : start + size])
    return data[at:], buffers


class RingHandle:
    """What a worker maps its ring by: the ``memfd``, passed as multiprocessing passes a
    Connection's socket (duplicated into the new process: fork server or spawn)."""

    def __init__(self, fd: int, size: int) -> None:
        self.fd = fd
        self.size = size

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (reduction.DupFd(self.fd), self.size)

    def attach(self) -> mmap.mmap:
        """The ring, mapped read-only in this (the worker's) process."""
        try:
            return mmap.mmap(self.fd, self.size, prot=mmap.PROT_READ)
        finally:
            os.close(self.fd)

    def close(self) -> None:
        """The parent's copy of the descriptor: not needed once the worker has started."""
        os.close(self.fd)


def _rebuild(dup: Any, size: int) -> RingHandle:
    return RingHandle(dup.detach(), size)
