"""The benchmark runner on a tiny bench dir written here (no shared bench data needed)."""

from __future__ import annotations

import gzip
import json
import signal
import time
from pathlib import Path

import pytest

from benchmarks import accuracy
from benchmarks.accuracy import Result, render_misses, render_text, run_system, score
from benchmarks.datasets import DEFAULT_BENCH, Page, available_sets, bench_dir, load_set
from benchmarks.systems import Output, System, html_fragment_text

BODY = (
    "The city council voted on Tuesday to build a new bridge across the river. "
    "Work will start next spring and should take three years to finish."
)
ARTICLE = f"""<html><head><meta charset="utf-8"><title>Council backs new bridge - Daily</title>
<meta property="article:published_time" content="2021-03-02T10:00:00Z"></head>
<body><nav>Home News Sport Weather</nav>
<h1>Council backs new bridge</h1><p>{BODY}</p>
<footer>Copyright Daily</footer></body></html>"""
ZH_BODY = "今天市政府宣布，新的地铁线路将于明年年底正式开通运营，全长三十公里，设站二十座。"
ZH_ARTICLE = f"""<html><head><meta charset="gb2312"><title>地铁新线明年开通</title></head>
<body><h1>地铁新线明年开通</h1><p>{ZH_BODY}</p></body></html>"""


def write_bench(root: Path) -> Path:
    """One set in each layout: AEB (gzip + two JSON files) and manifest (raw bytes)."""
    aeb = root / "aeb"
    (aeb / "html").mkdir(parents=True)
    (aeb / "html" / "p1.html.gz").write_bytes(gzip.compress(ARTICLE.encode("utf-8")))
    (aeb / "ground-truth.json").write_text(
        json.dumps({"p1": {"articleBody": BODY, "url": "https://news.example/p1"}})
    )
    (aeb / "meta-truth.json").write_text(
        json.dumps({"p1": {"title": "Council backs new bridge", "date": "2021-03-02"}})
    )
    zh = root / "zh_set"
    (zh / "html").mkdir(parents=True)
    (zh / "html" / "a.html").write_bytes(ZH_ARTICLE.encode("gb18030"))
    (zh / "html" / "b.html").write_bytes(ARTICLE.encode("utf-8"))
    rows = [
        {"id": "a", "html": "html/a.html", "url": None, "lang": "zh", "title": "地铁新线明年开通",
         "date": None, "body": ZH_BODY, "with": ["三十公里"], "without": None},
        {"id": "b", "html": "html/b.html", "url": "https://news.example/b", "lang": "en",
         "title": None, "date": "2021-03-02", "body": BODY, "with": None, "without": None},
    ]  # fmt: skip
    (zh / "manifest.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    (root / "not_a_set").mkdir()
    return root


# --- datasets ---------------------------------------------------------------------------------


def test_sets_are_found_and_loaded_in_both_layouts(tmp_path: Path) -> None:
    root = write_bench(tmp_path)
    assert available_sets(root) == ["aeb", "zh_set"]
    (p1,) = load_set(root / "aeb")
    assert p1.html == ARTICLE.encode("utf-8")  # gunzipped, still bytes
    assert (p1.url, p1.body, p1.title, p1.date) == (
        "https://news.example/p1",
        BODY,
        "Council backs new bridge",
        "2021-03-02",
    )
    a, b = load_set(root / "zh_set")
    assert a.html == ZH_ARTICLE.encode("gb18030")  # raw bytes, never decoded by the loader
    assert (a.url, a.date, a.lang, a.with_snippets) == (None, None, "zh", ("三十公里",))
    assert b.title is None  # null label: no truth for this field
    assert [p.id for p in load_set(root / "zh_set", ids={"b"})] == ["b"]
    assert [p.id for p in load_set(root / "zh_set", limit=1)] == ["a"]
    with pytest.raises(FileNotFoundError):
        load_set(root / "not_a_set")


def test_bench_dir_option_beats_env_beats_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CX_BENCH", raising=False)
    assert bench_dir(None) == DEFAULT_BENCH
    assert DEFAULT_BENCH.parts[-2:] == ("shared", "bench")
    monkeypatch.setenv("CX_BENCH", "/from/env")
    assert bench_dir(None) == Path("/from/env")
    assert bench_dir("/from/cli") == Path("/from/cli")


# --- scoring and running ----------------------------------------------------------------------


def _page(pid: str, body: str | None, title: str | None, date: str | None) -> Page:
    return Page(set_name="s", id=pid, html=b"", body=body, title=title, date=date)


def test_score_one_set_from_known_outputs() -> None:
    results = [
        Result(_page("1", "a b c d e", "Big News", "2020-01-01"),
               Output(text="a b c d e", title="big  news", date="2020-01-01T09:00"), 0.002),
        Result(_page("2", "f g h i j", "Other Story Here", "2020-01-02"),
               Output(text="f g h i j x", title="Other Story Here - Site", date="2020-01-03"),
               0.004),
        Result(_page("3", "k l m n", None, None), Output(error="ValueError: boom"), 0.010),
    ]  # fmt: skip
    row = score("s", "sys", results)
    # page 1: P=R=1; page 2: 3 grams, 2 shared -> P 2/3, R 1; page 3: empty -> R 0, no P.
    assert row.precision == pytest.approx((1 + 2 / 3) / 2)
    assert row.recall == pytest.approx((1 + 1 + 0) / 3)
    assert row.f1 == pytest.approx(2 * row.precision * row.recall / (row.precision + row.recall))
    assert (row.title_exact, row.title_lenient, row.n_title) == (0.5, 0.5, 2)
    assert (row.date_accuracy, row.date_coverage, row.date_precision) == (0.5, 2 / 3, 0.5)
    assert row.median_ms == pytest.approx(4.0)
    assert row.pages_per_s == pytest.approx(3 / 0.016)
    assert (row.errors, row.empty) == (1, 1)
    no_dates = score("s", "sys", results, has_dates=False)
    assert (no_dates.date_accuracy, no_dates.date_coverage, no_dates.date_precision) == (
        None,
        None,
        None,
    )


def test_speed_ratio_is_trafilatura_median_over_the_system_median() -> None:
    page = _page("1", "a", None, None)
    rows = [
        score("s", "cx", [Result(page, Output(text="a"), 0.005)]),
        score("s", "trafilatura", [Result(page, Output(text="a"), 0.020)]),
        score("t", "cx", [Result(page, Output(text="a"), 0.005)]),
    ]
    ratios = [r.vs_trafilatura for r in accuracy.with_speed_ratio(rows)]
    assert ratios[0] == pytest.approx(4.0)
    assert ratios[1] == pytest.approx(1.0)
    assert ratios[2] is None  # no trafilatura row on that set


def test_a_crashing_page_is_an_error_not_the_end_of_the_run() -> None:
    def run(page_id: str) -> Output:
        if page_id == "bad":
            raise RuntimeError("parser exploded")
        return Output(text="fine text here")

    system = System("fake", "0", lambda page: page.id, run)
    pages = [_page(pid, "fine text here", None, None) for pid in ("ok1", "bad", "ok2")]
    results = run_system(system, pages, "s/fake")
    assert [r.output.error for r in results] == [None, "RuntimeError: parser exploded", None]
    assert all(r.seconds >= 0 for r in results)
    assert score("s", "fake", results).errors == 1


def test_a_runaway_page_times_out_as_an_error() -> None:
    def run(page_id: str) -> Output:
        if page_id == "slow":
            time.sleep(5)
        return Output(text="done")

    system = System("fake", "0", lambda page: page.id, run)
    pages = [_page(pid, "done", None, None) for pid in ("slow", "fast")]
    started = time.perf_counter()
    results = run_system(system, pages, "s/fake", timeout=0.2)
    assert time.perf_counter() - started < 2
    assert results[0].output.error == "PageTimeout: no result after 0.2s"
    assert results[1].output == Output(text="done")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind


def test_text_table_is_aligned() -> None:
    page = _page("1", "a b c d", None, None)
    rows = [
        score("aeb", "cx", [Result(page, Output(text="a b c d"), 0.001)]),
        score("aeb", "readability", [Result(page, Output(text=""), 0.1)], has_dates=False),
    ]
    lines = render_text(rows).splitlines()
    assert lines[0].split()[:4] == ["set", "system", "pages", "F1"]
    # Right-aligned numbers: the F1 column ends at the same offset on every line.
    end = lines[0].index("F1") + 2
    assert lines[2][end - 5 : end] == "1.000"
    assert lines[3][end - 5 : end] == "0.000"
    assert " - " in lines[3]  # no date figures for a system without dates


def test_html_fragment_text_breaks_lines_at_blocks_only() -> None:
    html = "<div><h2>Head</h2><p>One <b>bold</b>word.</p><p>Two</p><script>x()</script></div>"
    assert html_fragment_text(html) == "Head\nOne boldword.\nTwo"
    assert html_fragment_text("") == ""


def test_misses_list_worst_text_first_and_wrong_titles_and_dates() -> None:
    good = Result(
        _page("good", "a b c d e", "T", "2020-01-01"),
        Output(text="a b c d e", title="T", date="2020-01-01"),
        0.001,
    )
    bad = Result(
        _page("bad", "a b c d e f g", "Right Title", "2020-01-01"),
        Output(text="zz yy xx ww a b", title="Wrong", date="2019-12-31", date_raw="31.12.2019"),
        0.001,
    )
    text = render_misses("text", [good, bad], top=10)
    assert text.startswith("bad  F1 0.000")
    assert "good" not in text  # a perfect page is not a miss
    titles = render_misses("title", [good, bad], top=10)
    assert "x bad" in titles and "Right Title" in titles and "good" not in titles
    dates = render_misses("date", [good, bad], top=10)
    assert "truth 2020-01-01  ours 2019-12-31" in dates and "31.12.2019" in dates


# --- the command ------------------------------------------------------------------------------


def test_command_runs_cx_on_every_set_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_bench(tmp_path / "bench")
    out = tmp_path / "figures.json"
    code = accuracy.main(
        ["--bench", str(root), "--systems", "cx", "--json", str(out), "--misses", "title"]
    )
    assert code == 0
    stdout = capsys.readouterr().out
    assert "aeb: 1 pages; truth: text 1, title 1, date 1" in stdout
    assert "zh_set: 2 pages; truth: text 2, title 1, date 1" in stdout
    assert "== title misses of cx on zh_set ==" in stdout
    data = json.loads(out.read_text())
    assert [(r["set"], r["system"], r["pages"]) for r in data["rows"]] == [
        ("aeb", "cx", 1),
        ("zh_set", "cx", 2),
    ]
    assert data["errors"] == []
    for row in data["rows"]:
        assert 0.0 <= row["f1"] <= 1.0 and 0.0 <= row["char_f1"] <= 1.0
        assert row["median_ms"] > 0
    pages = {(p["set"], p["id"]): p for p in data["pages"]}
    assert sorted(pages) == [("aeb", "p1"), ("zh_set", "a"), ("zh_set", "b")]
    assert pages[("zh_set", "a")]["level"] == "char"
    assert pages[("zh_set", "b")]["level"] == "word"
    assert pages[("zh_set", "a")]["date_ok"] is None  # no date label
    assert "html" not in pages[("aeb", "p1")]  # no page content in the figures

    # The same extractor on the same pages: nothing changed.
    assert accuracy.main(["--bench", str(root), "--systems", "cx", "--compare", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "cx: text worse on 0 pages, better on 0; titles/dates changed on 0" in stdout
    assert "aeb/cx: F1 " in stdout and "(+0.000)" in stdout


def test_command_refuses_an_empty_bench_dir(tmp_path: Path) -> None:
    assert accuracy.main(["--bench", str(tmp_path), "--systems", "cx"]) == 2
