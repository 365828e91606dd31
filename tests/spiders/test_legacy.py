"""The page sources: a URL list, a folder of saved pages (spiders/_legacy.py)."""

from __future__ import annotations

from scrapy_cx.spiders._legacy import flag, html_files, local_path, read_url_list


def test_read_url_list(tmp_path):
    (tmp_path / "saved.html").write_text("<html></html>", encoding="utf-8")
    listing = tmp_path / "urls.txt"
    listing.write_text("# comment\n\nhttps://x.test/a\nsaved.html\n", encoding="utf-8")
    assert read_url_list(listing) == ["https://x.test/a", (tmp_path / "saved.html").as_uri()]


def test_html_files(tmp_path):
    (tmp_path / "b").mkdir()
    for name in ("b/2.HTM", "a.html", "c.txt"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert html_files(tmp_path) == [(tmp_path / "a.html").as_uri(), (tmp_path / "b/2.HTM").as_uri()]


def test_flag_and_local_path():
    assert flag("yes") and flag(1) and not flag("0") and not flag(False)
    assert str(local_path("file:///tmp/a.jsonl")) == "/tmp/a.jsonl"
    assert local_path("s3://bucket/a.jsonl") is None
    assert str(local_path("out.jsonl")) == "out.jsonl"
