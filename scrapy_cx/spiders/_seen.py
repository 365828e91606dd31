"""The articles an incremental crawl has exported already, kept across runs.

With Scrapy's ``JOBDIR`` the set is an append-only text file there, one URL a
line, each record one ``os.write`` of whole lines to a file opened ``O_APPEND``
(the spider records an article only once its feed holds it: ``_exported.py``).
A run that is killed leaves at most a torn last line; the next run reports it
(and any junk) in one line naming the file, ignores it, and starts its own
records on a new line. With ``CX_REDIS_URL`` it is a Redis set shared by
every process of a distributed crawl. Without either, nothing is kept.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["SeenStore"]

logger = logging.getLogger(__name__)

FILE_NAME = "cx-news-seen.txt"


class SeenStore:
    """A set of URLs that survives the run: in memory, and in a file or Redis."""

    def __init__(self, path: Path | None = None, redis: Any = None, key: str = "") -> None:
        self.urls: set[str] = set()
        self.redis = redis
        self.key = key
        self._fd: int | None = None
        self._torn = False  # the file ends in a torn line: the next record starts a new one
        self.unreadable = 0  # lines of the file not read (junk, a torn last one)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_file():
                self._torn = self._load(path)
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._rerun: bool | None = None

    def _load(self, path: Path) -> bool:
        """Read the URLs a killed or corrupted file still holds; say once what was not."""
        data = path.read_bytes()
        lines = data.split(b"\n")
        torn = lines.pop()  # b"" when the file ends with a newline
        bad = 0
        for raw in lines:
            try:
                url = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                url = ""
            if url.startswith(("http://", "https://")) and url.isprintable() and " " not in url:
                self.urls.add(url)
            elif raw.strip():
                bad += 1
        self.unreadable = bad + bool(torn)
        if bad or torn:
            logger.warning(
                "%s: ignored %d unreadable line(s)%s; those articles may be fetched again",
                path, bad, " and a torn last line" if torn else "",
            )
        return bool(torn)

    @classmethod
    def open(cls, jobdir: str | None, redis_url: str | None, name: str) -> SeenStore:
        """The store a crawl's settings ask for: Redis, else JOBDIR, else memory only."""
        if redis_url:
            import redis  # the [redis] extra

            return cls(redis=redis.Redis.from_url(redis_url), key=f"{name}:cx-news:seen")
        if jobdir:
            return cls(Path(jobdir) / FILE_NAME)
        return cls()

    @property
    def rerun(self) -> bool:
        """Whether an earlier run exported anything (a rerun: listings may stop when
        caught up); a JOBDIR crawl sets it from whether the last run finished
        (``_resume.py``). Redis is asked when first needed, not at start."""
        if self._rerun is None:
            self._rerun = bool(self.urls) or (
                self.redis is not None and bool(self.redis.scard(self.key))
            )
        return self._rerun

    @rerun.setter
    def rerun(self, value: bool) -> None:
        self._rerun = value

    @property
    def kept(self) -> bool:
        """Whether the set outlives the run (a file or Redis), not memory only."""
        return self._fd is not None or self.redis is not None

    def __contains__(self, url: str) -> bool:
        if url in self.urls:
            return True
        if self.redis is not None and self.redis.sismember(self.key, url):
            self.urls.add(url)
            return True
        return False

    def __len__(self) -> int:
        return len(self.urls)

    def add(self, urls: Iterable[str]) -> None:
        """Record ``urls`` as exported, at once (flushed to the file, sent to Redis)."""
        new = [u for u in dict.fromkeys(urls) if u and "\n" not in u and u not in self.urls]
        if not new:
            return
        self.urls.update(new)
        if self._fd is not None:
            # One write of whole lines to an O_APPEND file: a kill tears at most this
            # record's last line, never one written before.
            data = "".join(url + "\n" for url in new).encode("utf-8")
            if self._torn:
                data = b"\n" + data
            self._write(data)
            self._torn = False
        if self.redis is not None:
            self.redis.sadd(self.key, *new)

    def _write(self, data: bytes) -> None:
        assert self._fd is not None
        written = os.write(self._fd, data)
        while written < len(data):  # a short write (disk full, a signal): finish the line
            written += os.write(self._fd, data[written:])

    def close(self) -> None:
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None
