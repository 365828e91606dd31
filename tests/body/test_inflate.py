"""Decompression that stops at a size limit (scrapy_cx/body/_inflate.py)."""

from __future__ import annotations

import gzip
import zlib

import pytest

from scrapy_cx.body import TooLarge, decoded_size_over, inflate, supported_coding


def test_gzip_and_deflate_inflate_within_the_limit() -> None:
    data = b"<p>hello</p>" * 100
    assert inflate(gzip.compress(data), "gzip", len(data)) == data
    assert inflate(zlib.compress(data), "deflate", len(data)) == data


def test_past_the_limit_raises_too_large_without_inflating_it_all() -> None:
    bomb = gzip.compress(b"\0" * 10_000_000)  # about 10 kB that would inflate to 10 MB
    with pytest.raises(TooLarge):
        inflate(bomb, "gzip", 1_000_000)
    assert decoded_size_over(bomb, ["gzip"], 1_000_000)
    assert not decoded_size_over(bomb, ["gzip"], 20_000_000)


def test_supported_codings() -> None:
    assert supported_coding("gzip") and supported_coding(" Deflate ")
    assert supported_coding("identity")
    assert not supported_coding("compress")
