"""Which article came first: an index of fingerprints that finds near duplicates.

Scrapy-free, so the crawl's pipeline and the bulk command share it. A
fingerprint (:mod:`scrapy_cx.extract.fields.fingerprint`) is cut into :data:`BANDS`
bands of :data:`ROWS` slots (LSH banding): two texts that share a band are
candidates, and a candidate is a duplicate when at least ``threshold`` of all
slots match (the estimated Jaccard similarity of their shingles). With 16
bands of 4 slots, a pair at similarity 0.5 shares a band with probability
0.64, at 0.7 0.99, at 0.8 0.9999.

Both indexes check and add in one step, so a story is accepted once:
:class:`MemoryIndex` for one process, :class:`RedisIndex` for processes
that share a Redis (one Lua script per article, which Redis runs atomically).

Memory per article kept, :class:`MemoryIndex`: its 128-byte signature, its
URL, and 16 band cells of 12 bytes in an open-addressing table kept at most
half full (it doubles): about 670 bytes with the benchmark's URLs
(``benchmarks/dedup.py`` measures it), so 1 million articles take about
0.7 GB. Redis: one hash field per band and one record per article, about
1.6 KB of Redis memory per article.
"""

from __future__ import annotations

import sys
from array import array
from operator import xor
from typing import Any, Protocol

from ..extract.fields.fingerprint import SLOTS, matching_slots, signature

__all__ = ["BANDS", "DEFAULT_THRESHOLD", "DedupIndex", "MemoryIndex", "RedisIndex", "ROWS"]

#: Bands per fingerprint, and slots per band (BANDS * ROWS == SLOTS).
BANDS = 16
ROWS = SLOTS // BANDS
#: Share of equal slots from which two texts are the same story (see README, "Duplicates").
DEFAULT_THRESHOLD = 0.5

_BAND_BYTES = ROWS * 2  # one array("Q") word per band
_MASK64 = (1 << 64) - 1
_BAND_SALT = 0x9E3779B97F4A7C15  # odd: band b's key is its bytes XOR b * salt
_INITIAL_CELLS = 1 << 10
_BAND_SALTS = [band * _BAND_SALT & _MASK64 for band in range(BANDS)]


def band_keys(sig: bytes) -> list[int]:
    """One 64-bit key per band; the band's number is mixed in, so bands never collide.

    Band b's key is its 8 bytes read big-endian, XOR ``b * _BAND_SALT`` (64 bits),
    or 1 where that is 0 (0 marks an empty cell). The keys live in Redis
    indexes: changing them is a breaking change, like the fingerprint's scheme.
    """
    bands = array("Q", sig)  # one 8-byte word per band, read in C
    if sys.byteorder == "little":
        bands.byteswap()
    keys = list(map(xor, bands, _BAND_SALTS))
    return keys if all(keys) else [key or 1 for key in keys]


def needed_slots(threshold: float) -> int:
    """Equal slots a pair needs to be near duplicates at ``threshold``."""
    if not 0 < threshold <= 1:
        raise ValueError(f"dedup threshold must be in (0, 1], not {threshold}")
    return max(1, round(threshold * SLOTS))


class DedupIndex(Protocol):
    def add(self, fingerprint: str, url: str) -> str | None:
        """The URL of the first near duplicate seen, or None (and ``url`` is now recorded)."""


class MemoryIndex:
    """Near-duplicate index of one process; compact enough for millions of articles."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.needed = needed_slots(threshold)
        self.urls: list[str] = []
        self.signatures = bytearray()
        self._keys = array("Q", bytes(8 * _INITIAL_CELLS))
        self._values = array("I", bytes(4 * _INITIAL_CELLS))
        self._used = 0

    def __len__(self) -> int:
        return len(self.urls)

    def add(self, fingerprint: str, url: str) -> str | None:
        sig = signature(fingerprint)
        keys = band_keys(sig)
        width = len(sig)
        checked: set[int] = set()
        for key in keys:
            number = self._get(key)
            if number and number not in checked:
                checked.add(number)
                start = (number - 1) * width
                if matching_slots(sig, self.signatures[start : start + width]) >= self.needed:
                    return self.urls[number - 1]
        self.urls.append(url)
        self.signatures += sig
        number = len(self.urls)
        for key in keys:
            self._put(key, number)
        return None

    def _slot(self, key: int) -> int:
        """The cell holding ``key``, or the empty cell where it would go (linear probing)."""
        mask = len(self._keys) - 1
        cell = (key ^ (key >> 29)) & mask
        keys = self._keys
        while keys[cell] and keys[cell] != key:
            cell = (cell + 1) & mask
        return cell

    def _get(self, key: int) -> int:
        return self._values[self._slot(key)]

    def _put(self, key: int, number: int) -> None:
        """First article wins: a band already seen keeps pointing at its first article."""
        cell = self._slot(key)
        if self._keys[cell]:
            return
        self._keys[cell] = key
        self._values[cell] = number
        self._used += 1
        if 2 * self._used > len(self._keys):
            self._grow()

    def _grow(self) -> None:
        old = zip(self._keys, self._values, strict=True)
        size = 2 * len(self._keys)
        self._keys = array("Q", bytes(8 * size))
        self._values = array("I", bytes(4 * size))
        for key, number in old:
            if key:
                cell = self._slot(key)
                self._keys[cell] = key
                self._values[cell] = number

    def memory_bytes(self) -> int:
        """Bytes held for the articles kept (tables, signatures, URLs)."""
        keys = self._keys.itemsize * len(self._keys)
        values = self._values.itemsize * len(self._values)
        urls = sys.getsizeof(self.urls) + sum(map(sys.getsizeof, self.urls))
        return keys + values + len(self.signatures) + urls


# KEYS: bands hash, articles hash, counter. ARGV: signature, url, needed slots, band keys.
# One script, so no other process can add the same story between the check and the add.
_CHECK_AND_ADD = """
local sig = ARGV[1]
local needed = tonumber(ARGV[3])
local width = #sig
local checked = {}
for i = 4, #ARGV do
  local number = redis.call('HGET', KEYS[1], ARGV[i])
  if number and not checked[number] then
    checked[number] = true
    local record = redis.call('HGET', KEYS[2], number)
    local same = 0
    for j = 1, width, 2 do
      if string.sub(sig, j, j + 1) == string.sub(record, j, j + 1) then same = same + 1 end
    end
    if same >= needed then return string.sub(record, width + 1) end
  end
end
local number = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[2], number, sig .. ARGV[2])
for i = 4, #ARGV do redis.call('HSETNX', KEYS[1], ARGV[i], number) end
return false
"""


class RedisIndex:
    """Near-duplicate index shared through Redis by every process of a crawl.

    Keys: ``<prefix>:bands`` (band key -> article number), ``<prefix>:articles``
    (number -> signature and URL) and ``<prefix>:count``. Delete them to start over.
    """

    def __init__(self, server: Any, prefix: str, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.needed = needed_slots(threshold)
        self.keys = [f"{prefix}:bands", f"{prefix}:articles", f"{prefix}:count"]
        self._script = server.register_script(_CHECK_AND_ADD)

    @classmethod
    def from_url(
        cls,
        url: str,
        prefix: str,
        threshold: float = DEFAULT_THRESHOLD,
        timeout: float | None = None,
    ) -> RedisIndex:
        """The index in the Redis at ``url``; ``timeout`` bounds each connect and reply."""
        import redis  # scrapy-redis brings it: pip install -e '.[redis]'

        server = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        return cls(server, prefix, threshold)

    def add(self, fingerprint: str, url: str) -> str | None:
        sig = signature(fingerprint)
        bands = [key.to_bytes(8, "big") for key in band_keys(sig)]
        first = self._script(keys=self.keys, args=[sig, url.encode(), self.needed, *bands])
        if first is None:
            return None
        return first.decode() if isinstance(first, bytes) else str(first)
