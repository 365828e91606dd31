"""The output rules both commands share: never over an input, replaced whole, escaped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scrapy_cx.bulk._output import Replacement, clash, printable


def test_printable_escapes_c0_del_and_c1_but_keeps_tabs_and_text() -> None:
    assert printable("a\x1b[2Jb\x9b31m\x7f\x00\n\r") == "a\\x1b[2Jb\\x9b31m\\x7f\\x00\\x0a\\x0d"
    assert printable("tab\there, 滨江 — é ▁▂") == "tab\there, 滨江 — é ▁▂"


def test_clash_names_the_input_it_would_destroy(tmp_path: Path) -> None:
    (tmp_path / "site" / "sub").mkdir(parents=True)
    (tmp_path / "a.html").write_text("a")
    (tmp_path / "link").symlink_to("a.html")
    (tmp_path / "alias").symlink_to("site")
    os.link(tmp_path / "a.html", tmp_path / "hard")
    a, site = str(tmp_path / "a.html"), str(tmp_path / "site")
    assert clash(tmp_path / "a.html", [a]) == f"it is the input {a}"
    assert clash(tmp_path / "link", [a]) == f"it is the input {a}"
    assert clash(tmp_path / "hard", [a]) == f"it is the input {a}"
    assert clash(tmp_path / "site", [site]) == f"it is the input {site}"
    inside = clash(tmp_path / "alias/sub/new.jsonl", [site])
    assert inside == f"it is inside the input folder {site}"
    assert clash(tmp_path / "out.jsonl", [a, site, "https://news.test/a.html"]) is None
    assert clash(tmp_path / "missing.html", [str(tmp_path / "missing.html")]) is None


def test_replacement_puts_the_file_in_place_only_on_commit(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    with Replacement(out) as new:
        new.file.write(b"half")
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["out.jsonl"]
    with pytest.raises(RuntimeError), Replacement(out) as new:
        new.file.write(b"half")
        raise RuntimeError
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["out.jsonl"]
    with Replacement(out) as new:
        new.file.write(b"whole")
        new.commit()
    assert out.read_text() == "whole" and os.listdir(tmp_path) == ["out.jsonl"]


def test_replacement_refuses_a_folder_and_writes_a_device_in_place(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        Replacement(tmp_path)
    with pytest.raises(FileNotFoundError):
        Replacement(tmp_path / "no" / "such.jsonl")
    with Replacement("/dev/null") as new:  # never renamed over: /dev/null stays a device
        new.file.write(b"x")
        new.commit()
    assert Path("/dev/null").is_char_device()
    assert os.listdir(tmp_path) == []
