"""The exported set kept across runs (spiders/_seen.py)."""

from __future__ import annotations

import pytest

from scrapy_cx.spiders._seen import FILE_NAME, SeenStore


def test_urls_survive_the_run_and_a_torn_last_line_is_not_read(tmp_path):
    store = SeenStore.open(str(tmp_path), None, "news")
    store.add(["https://x.test/a", "https://x.test/b"])
    store.add(["https://x.test/a"])  # once
    # Killed mid-write: the file holds what was flushed, the torn line is no URL.
    with (tmp_path / FILE_NAME).open("a", encoding="utf-8") as fh:
        fh.write("https://x.test/c")
    again = SeenStore.open(str(tmp_path), None, "news")
    assert "https://x.test/a" in again and "https://x.test/b" in again
    assert "https://x.test/c" not in again
    assert len(again) == 2
    store.close()
    again.close()


def test_without_jobdir_nothing_is_kept(tmp_path):
    store = SeenStore.open(None, None, "news")
    store.add(["https://x.test/a"])
    assert "https://x.test/a" in store
    assert "https://x.test/a" not in SeenStore.open(None, None, "news")
    assert list(tmp_path.iterdir()) == []


def test_with_redis_the_set_is_shared_by_every_process(tmp_path):
    pytest.importorskip("redis")  # (the Scrapy 2.11 leg of CI installs no Redis client)
    from tests.support.redis import running_redis

    with running_redis(tmp_path) as url:
        one = SeenStore.open(str(tmp_path / "job"), url, "news")  # Redis wins over JOBDIR
        other = SeenStore.open(None, url, "news")
        one.add(["https://x.test/a"])
        assert "https://x.test/a" in other
        assert "https://x.test/b" not in other
        assert "https://x.test/a" not in SeenStore.open(None, url, "another-spider")
        one.close()
    assert not (tmp_path / "job").exists()


def test_junk_is_ignored_and_the_next_record_starts_on_its_own_line(tmp_path, caplog):
    path = tmp_path / FILE_NAME
    path.write_bytes(b"\xff\xfe junk\nhttps://x.test/a\nhttps://x.test/b")  # torn: no newline
    store = SeenStore.open(str(tmp_path), None, "news")
    assert "https://x.test/a" in store and "https://x.test/b" not in store
    assert [r.getMessage() for r in caplog.records if str(path) in r.getMessage()] == [
        f"{path}: ignored 1 unreadable line(s) and a torn last line; "
        "those articles may be fetched again"
    ]
    assert store.rerun
    store.add(["https://x.test/c"])
    store.close()
    assert path.read_bytes().endswith(b"https://x.test/b\nhttps://x.test/c\n")
    assert "https://x.test/c" in SeenStore.open(str(tmp_path), None, "news")


def test_a_first_run_is_no_rerun(tmp_path):
    assert not SeenStore.open(str(tmp_path), None, "news").rerun
