"""The articles an incremental crawl has exported already, kept across runs.

With Scrapy's ``JOBDIR`` the set is an append-only text file there, one URL a
line, flushed as each item is exported: a run that is killed loses at most the
line being written, and an article not yet exported was never written, so the
next run fetches it again. With ``CX_REDIS_URL`` it is a Redis set shared by
every process of a distributed crawl. Without either, nothing is kept.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["SeenStore"]

logger = logging.getLogger(__name__)

FILE_NAME = "cx-news-seen.txt"


class SeenStore:
    """A set of URLs that survives the run: in memory, and in a file or Redis."""

    def __init__(self, path: Path | None = None, redis: Any = None, key: str = "") -> None:
        self.urls: set[str] = set()
        self.redis = redis
        self.key = key
        self._file: TextIO | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_file():
                with path.open(encoding="utf-8") as fh:
                    self.urls.update(line.rstrip("\n") for line in fh if line.endswith("\n"))
            self._file = path.open("a", encoding="utf-8")

    @classmethod
    def open(cls, jobdir: str | None, redis_url: str | None, name: str) -> SeenStore:
        """The store a crawl's settings ask for: Redis, else JOBDIR, else memory only."""
        if redis_url:
            import redis  # the [redis] extra

            return cls(redis=redis.Redis.from_url(redis_url), key=f"{name}:cx-news:seen")
        if jobdir:
            return cls(Path(jobdir) / FILE_NAME)
        return cls()

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
        if self._file is not None:
            self._file.write("".join(url + "\n" for url in new))
            self._file.flush()
        if self.redis is not None:
            self.redis.sadd(self.key, *new)

    def close(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
