"""What a body is when nothing trustworthy says so (scrapy_cx/body/_sniff.py)."""

from __future__ import annotations

import pytest

from scrapy_cx.body import binary_kind, looks_binary, not_html_reason


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b"%PDF-1.7\n...", "PDF"),
        (b"\n  \x89PNG\r\n\x1a\n", "PNG"),
        (b"\x1f\x8b\x08\x00", "gzip"),
        (bytes(range(1, 9)) * 40, "binary"),
        (b"<!doctype html><p>text</p>", None),
        ("\ufeff<p>中文</p>".encode("utf-16"), None),  # NUL bytes, but text
        (b"", None),
    ],
)
def test_binary_kind_names_the_format_or_none(body: bytes, kind: str | None) -> None:
    assert binary_kind(body) == kind
    assert looks_binary(body) is (kind is not None)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b'  {"a": 1}', "JSON"),
        (b"\xef\xbb\xbf[1, 2]", "JSON"),
        (b"just some words, no tag at all", "no markup"),
        (b"%PDF-1.4", "PDF"),
        (b"Warning: something in PHP\n<html><body>x</body></html>", None),
        ("<html><p>é</p></html>".encode("utf-16"), None),
    ],
)
def test_not_html_reason(body: bytes, reason: str | None) -> None:
    assert not_html_reason(body) == reason
