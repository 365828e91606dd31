"""benchmarks.parses on a tiny bench dir written here (no shared bench data needed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks import parses
from benchmarks.datasets import REPO_ROOT
from scrapy_cx.extract import STAGES
from tests.benchmarks.test_accuracy import write_bench


def test_the_ratio_and_every_stage_are_reported(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    bench = write_bench(tmp_path / "bench")
    assert parses.main(["--bench", str(bench), "--repeat", "1", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["pages"] == 1  # the aeb set of the tiny bench
    (core,) = result["cores"]
    # a ratio, not a speed target: timings belong to the benchmark's runs, not to a test
    assert 0 < core["median_ratio"] < float("inf")
    stages = {parses.stage_name(stage) for stage in STAGES}
    assert set(core["profile_ms"]) == stages | {parses.PARSE_STAGE}
    assert "lines" in parses.render(result)


def test_outputs_hold_each_pages_article_and_lines(tmp_path: Path) -> None:
    out = tmp_path / "outputs.jsonl"
    bench = write_bench(tmp_path / "bench")
    assert parses.main(["--bench", str(bench), "--sets", "all", "--outputs", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    pages = parses.load("all", str(bench))
    assert [(row["set"], row["id"]) for row in rows] == [(p.set_name, p.id) for p in pages]
    first = rows[0]
    assert first["article"]["title"] == "Council backs new bridge"
    assert any("new bridge across the river" in line[0] for line in first["lines"])


@pytest.mark.skipif(
    shutil.which("git") is None or not (REPO_ROOT / ".git").exists(),
    reason="--base reads a git ref: needs git and a checkout",
)
def test_a_base_ref_is_timed_beside_this_checkout(tmp_path: Path) -> None:
    bench = write_bench(tmp_path / "bench")
    out = tmp_path / "result.json"
    args = ["--bench", str(bench), "--repeat", "1", "--base", "HEAD", "--json", str(out)]
    assert parses.main(args) == 0
    labels = [core["label"] for core in json.loads(out.read_text())["cores"]]
    assert labels == ["base HEAD", "this checkout"]


def test_a_cold_run_times_each_page_once_with_every_stage(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    bench = write_bench(tmp_path / "bench")
    assert parses.main(["--bench", str(bench), "--cold", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["cold"] is True
    (core,) = result["cores"]
    stages = {parses.stage_name(stage) for stage in STAGES}
    assert set(core["profile_ms"]) == stages | {parses.PARSE_STAGE}
    assert core["extract_ms_total"] == pytest.approx(sum(core["profile_ms"].values()))
    assert "one cold run per page" in parses.render(result)
