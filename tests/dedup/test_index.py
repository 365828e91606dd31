"""The near-duplicate indexes: first article wins, in memory and in a real Redis."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scrapy_cx.dedup._index import BANDS, ROWS, MemoryIndex, RedisIndex, band_keys, needed_slots
from scrapy_cx.extract.fields.fingerprint import SLOTS, fingerprint, signature
from tests.extract.prose import BRIDGE_STORY
from tests.support.redis import running_redis

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

STORY = "\n".join(BRIDGE_STORY)
UPDATE = "\n".join(["Update: the detour map is out, the council said tonight.", *BRIDGE_STORY])


def other_story(n: int) -> str:
    """Distinct texts on one topic: the same words, other sentences."""
    return "\n".join(
        f"Report {n}: council meeting number {n * 7 + i} discussed the budget line {i} "
        f"for district {n % 13}, with {n + i} residents in the hall and {i * n} letters."
        for i in range(6)
    )


def fp(text: str) -> str:
    value = fingerprint(text)
    assert value is not None
    return value


def test_bands_cover_every_slot() -> None:
    assert BANDS * ROWS == SLOTS
    keys = band_keys(signature(fp(STORY)))
    assert len(keys) == BANDS and all(keys)


def test_band_keys_are_the_documented_ones() -> None:
    # Band keys are stored in Redis indexes: they must not drift with the code.
    sig = bytes(range(2 * SLOTS))
    salt, mask = 0x9E3779B97F4A7C15, (1 << 64) - 1
    expected = [
        int.from_bytes(sig[8 * band : 8 * band + 8], "big") ^ (band * salt & mask)
        for band in range(BANDS)
    ]
    assert band_keys(sig) == expected
    assert expected[:2] == [0x0001020304050607, 0x08090A0B0C0D0E0F ^ salt]
    # A band whose key would be 0 (the empty cell's mark) gets 1.
    assert band_keys(bytes(2 * SLOTS))[0] == 1


def test_first_article_wins_and_its_repost_names_it() -> None:
    index = MemoryIndex()
    assert index.add(fp(STORY), "http://a/story") is None
    assert index.add(fp(UPDATE), "http://b/update") == "http://a/story"
    assert len(index) == 1  # reposts are not kept


def test_many_different_stories_are_all_kept() -> None:
    index = MemoryIndex()
    firsts = [index.add(fp(other_story(n)), f"http://a/{n}") for n in range(3000)]
    assert firsts == [None] * 3000  # the table grew past its first size on the way
    assert index.add(fp(other_story(1234)), "http://b/1234") == "http://a/1234"
    assert 0 < index.memory_bytes() / len(index) < 2000


@pytest.mark.parametrize("threshold", [0, -0.1, 1.5])
def test_threshold_out_of_range_is_refused(threshold: float) -> None:
    with pytest.raises(ValueError, match="threshold"):
        needed_slots(threshold)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


def test_redis_index_first_wins_and_survives_a_new_connection(redis_url: str) -> None:
    index = RedisIndex.from_url(redis_url, "t1")
    assert index.add(fp(STORY), "http://a/story") is None
    assert index.add(fp(other_story(1)), "http://a/other") is None
    again = RedisIndex.from_url(redis_url, "t1")  # another process would do the same
    assert again.add(fp(UPDATE), "http://b/update") == "http://a/story"
    assert again.add(fp(other_story(2)), "http://a/2") is None
    assert RedisIndex.from_url(redis_url, "t2").add(fp(STORY), "http://c/") is None  # own keys


def test_redis_index_accepts_a_story_once_under_concurrent_adds(redis_url: str) -> None:
    # Many clients add reposts of the same stories at once: the check and the add
    # are one Lua script, so exactly one copy of each story is accepted.
    stories = [other_story(n) for n in range(20)]
    jobs = [(s, f"http://site{c}/{n}") for c in range(4) for n, s in enumerate(stories)]
    indexes = [RedisIndex.from_url(redis_url, "race") for _ in range(8)]

    def add(job: tuple[int, tuple[str, str]]) -> str | None:
        i, (text, url) = job
        return indexes[i % len(indexes)].add(fp(text), url)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(add, enumerate(jobs)))
    accepted = [url for (_text, url), first in zip(jobs, results, strict=True) if first is None]
    assert len(accepted) == len(stories)
    assert sorted(url.rsplit("/", 1)[1] for url in accepted) == sorted(map(str, range(20)))


def test_redis_memory_per_article_is_bounded(redis_url: str, tmp_path: Path) -> None:
    import redis

    server = redis.Redis.from_url(redis_url)
    before = int(server.info("memory")["used_memory"])
    index = RedisIndex(server, "mem")
    count = 2000
    for n in range(count):
        assert index.add(fp(other_story(10_000 + n)), f"http://news.example/2024/{n:06d}") is None
    per_article = (int(server.info("memory")["used_memory"]) - before) / count
    assert per_article < 3000, per_article
