"""Hostile input files for the bulk command: bounded memory, a reason for each, clear failures.

Each bomb is a small file that would inflate to hundreds of megabytes if read
naively; the command runs in a subprocess (``-j 1``: everything in one
process) that reports its peak RSS, which must stay under a fixed budget
above the RSS of the same command on an ordinary page.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable
from pathlib import Path

import pytest

from scrapy_cx.bulk._records import MAX_HEADER_BYTES

from .sample_pages import article_html, write_warc
from .support.measure import CLI, MIB, run_measured

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

#: Peak RSS a bomb may add to the command's RSS on an ordinary page.
BOMB_BUDGET = 48 * MIB


def gzip_stream(parts: Iterable[bytes]) -> bytes:
    """One gzip member of ``parts`` (which may add up to far more than memory allows)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return b"".join(packer.compress(part) for part in parts) + packer.flush()


def repeated(chunk: bytes, total: int) -> Iterable[bytes]:
    block = chunk * max(1, MIB // len(chunk))
    for _ in range(total // len(block)):
        yield block


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> int:
    """Peak RSS of the command on one ordinary page in a WARC (warcio imported too)."""
    folder = tmp_path_factory.mktemp("baseline")
    html = article_html("An ordinary story").encode()
    write_warc(folder / "ok.warc.gz", [("http://x.test/a", "response", [], html)])
    proc, peak = run_measured(
        CLI, "extract", "-j", "1", "ok.warc.gz", "-o", "out.jsonl", cwd=folder
    )
    assert proc.returncode == 0, proc.stderr
    return peak


RECORD_HEAD = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.test/bomb\r\n"


@pytest.mark.parametrize(
    "bomb",
    [
        # one WARC header line of 300 MB (issue 13: a 35 KB file cost 658 MB)
        [RECORD_HEAD, b"X-Bomb: ", *repeated(b"a", 300 * MIB), b"\r\n\r\n"],
        # 20 million short HTTP header lines (each a Python tuple if parsed)
        [
            RECORD_HEAD,
            b"Content-Type: application/http; msgtype=response\r\n",
            b"Content-Length: 999999999\r\n\r\nHTTP/1.1 200 OK\r\n",
            *repeated(b"X: y\r\n", 120 * MIB),
        ],
    ],
    ids=["one-long-line", "many-lines"],
)
def test_warc_header_bombs_are_bounded(bomb: list[bytes], baseline: int, tmp_path: Path) -> None:
    warcs = tmp_path / "warcs"  # the output beside the folder read: inside it is refused
    warcs.mkdir()
    good = warcs / "0-good.warc.gz"
    write_warc(good, [("http://x.test/good", "response", [], article_html("Kept").encode())])
    (warcs / "1-bomb.warc.gz").write_bytes(gzip_stream(bomb))
    assert (warcs / "1-bomb.warc.gz").stat().st_size < MIB  # small on disk
    proc, peak = run_measured(CLI, "extract", "-j", "1", "warcs", "-o", "out.jsonl", cwd=tmp_path)
    assert proc.returncode == 3, proc.stderr[-2000:]  # records of a damaged WARC lost
    assert "damaged WARC, rest of file (header too large)" in proc.stderr
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 1  # the good archive
    assert peak - baseline < BOMB_BUDGET, (peak - baseline) / MIB
    assert MAX_HEADER_BYTES < BOMB_BUDGET


def test_gzip_page_bomb_is_bounded(baseline: int, tmp_path: Path) -> None:
    # 1 GB of spaces in ~1 MB, twice (a multi-member file): inflated only to --max-page-bytes.
    member = gzip_stream(repeated(b" ", 1024 * MIB))
    (tmp_path / "bomb.html.gz").write_bytes(member + member)
    proc, peak = run_measured(
        CLI, "extract", "-j", "1", "bomb.html.gz", "-o", "out.jsonl", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "page too large" in proc.stderr
    # The default --max-page-bytes (20 MB) held once, plus a chunk.
    assert peak - baseline < 20 * MIB + BOMB_BUDGET, (peak - baseline) / MIB


def test_output_in_a_missing_folder_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(article_html("A story"), encoding="utf-8")
    proc, _ = run_measured(CLI, "extract", "a.html", "-o", "no/such/dir/out.jsonl", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "scrapy-cx: cannot write no/such/dir/out.jsonl: No such file or directory"
    ]


def test_output_that_fails_mid_run_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(article_html("A story"), encoding="utf-8")
    proc, _ = run_measured(CLI, "extract", "a.html", "-o", "/dev/full", cwd=tmp_path)
    assert proc.returncode == 2  # an unwritable output, as the help says (1: a missing path)
    assert "Traceback" not in proc.stderr
    assert "scrapy-cx: cannot write /dev/full: No space left on device" in proc.stderr


def test_dev_zero_and_a_named_pipe_as_input_end_with_a_reason(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "a.html").write_text(article_html("A story"), encoding="utf-8")
    proc, _ = run_measured(
        CLI, "extract", "/dev/zero", "pipe", "a.html", "-o", "out.jsonl", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "not a regular file (character device)" in proc.stderr
    assert "not a regular file (named pipe)" in proc.stderr
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 1
