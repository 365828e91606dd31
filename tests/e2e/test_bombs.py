"""Compression bombs in a real crawl: each costs at most the limit, is counted, and logged once.

A real ``scrapy crawl news`` (the example project, add-on only) in a fresh
process against a real server on 127.0.0.1 that sends 256 MiB of HTML as a
gzip, a deflate and a brotli bomb of a few hundred KB, and a body larger than
DOWNLOAD_MAXSIZE on the wire. The crawl's peak RSS is compared with the same
crawl of the ordinary pages alone.
"""

from __future__ import annotations

import importlib.util
import json
import re
import zlib
from collections.abc import Iterable
from pathlib import Path

from scrapy_cx.addon import MAXSIZE_FACTOR
from scrapy_cx.settings import DEFAULTS
from tests.sample_pages import article_html
from tests.support.crawl import EXAMPLE_PROJECT
from tests.support.measure import MIB, SCRAPY, run_measured
from tests.support.server import Route, serve

BOMB_SIZE = 256 * MIB
#: What the bombs may add to the crawl's peak RSS: the compressed bodies and a
#: few decompression chunks, far below one bomb (256 MiB) or DOWNLOAD_MAXSIZE (20 MiB).
BUDGET = 24 * MIB
ARTICLES = [f"/news/{i}.html" for i in range(3)]
#: br where Scrapy can decode it (brotli is an optional dependency of Scrapy's).
CODINGS = ["gzip", "deflate"] + (["br"] if importlib.util.find_spec("brotli") else [])


def squeeze(coding: str, size: int) -> bytes:
    """``size`` bytes of HTML-looking whitespace, compressed with ``coding``, streamed."""
    block = b"<p>" + b" " * (MIB - 3)
    blocks: Iterable[bytes] = (block for _ in range(size // MIB))
    if coding == "br":
        import brotli

        packer = brotli.Compressor(quality=5)
        return b"".join(packer.process(b) for b in blocks) + packer.finish()
    wbits = zlib.MAX_WBITS | 16 if coding == "gzip" else zlib.MAX_WBITS
    deflater = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return b"".join(deflater.compress(b) for b in blocks) + deflater.flush()


def crawl(routes: dict[str, Route], paths: list[str], tmp_path: Path) -> tuple[str, list, int]:
    with serve(routes) as (base, _hits):
        urls = tmp_path / "urls.txt"
        urls.write_text("".join(f"{base}{p}\n" for p in paths), encoding="utf-8")
        out = tmp_path / "out.jsonl"
        proc, peak = run_measured(
            SCRAPY,
            "crawl", "news", "-a", f"urls={urls}", "-O", str(out),
            "-s", "ROBOTSTXT_OBEY=False", "-s", "DOWNLOAD_DELAY=0",
            "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=8",
            cwd=EXAMPLE_PROJECT,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = out.read_text().replace(base, "BASE").splitlines() if out.exists() else []
    return proc.stderr.replace(base, "BASE"), [json.loads(line) for line in lines], peak


def test_compression_bombs_cost_at_most_the_limit(tmp_path: Path) -> None:
    routes = {p: Route(article_html(f"Story {p}").encode()) for p in ARTICLES}
    _log, items, baseline = crawl(routes, ARTICLES, tmp_path)
    assert len(items) == len(ARTICLES)

    bombs = {}
    for coding in CODINGS:
        body = squeeze(coding, BOMB_SIZE)
        assert len(body) < MIB
        bombs[f"/bomb-{coding}.html"] = Route(
            body, headers={"Content-Type": "text/html", "Content-Encoding": coding}
        )
    log, items, peak = crawl({**routes, **bombs}, [*bombs, *ARTICLES], tmp_path)

    assert sorted(item["url"] for item in items) == sorted(f"BASE{p}" for p in ARTICLES)
    assert_skipped_and_logged_once(log, list(bombs))
    assert peak - baseline < BUDGET, f"bombs added {(peak - baseline) / MIB:.0f} MiB"


def test_a_body_over_the_limit_on_the_wire_is_counted_and_logged_once(tmp_path: Path) -> None:
    over = MAXSIZE_FACTOR * DEFAULTS["CX_MAX_BODY_SIZE"] + 1
    routes = {
        "/huge.html": Route(b"<p>" + b" " * over),
        ARTICLES[0]: Route(article_html("A").encode()),
    }
    log, items, _peak = crawl(routes, list(routes), tmp_path)
    assert [item["url"] for item in items] == [f"BASE{ARTICLES[0]}"]
    assert_skipped_and_logged_once(log, ["/huge.html"])


def assert_skipped_and_logged_once(log: str, paths: list[str]) -> None:
    stats = re.search(r"'cx/skipped/too_large': (\d+)", log)
    assert stats is not None and int(stats.group(1)) == len(paths), log[-3000:]
    for path in paths:  # one line names each, and it is not an error
        lines = [line for line in log.splitlines() if f"BASE{path}" in line]
        assert len(lines) == 1, lines
        assert "ERROR" not in lines[0]
    assert "Traceback" not in log
