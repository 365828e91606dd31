"""The benchmark runner on a tiny bench dir written here (no shared bench data needed)."""

from __future__ import annotations

import gzip
import json
import signal
import time
from pathlib import Path

import pytest

from benchmarks import accuracy
from benchmarks.accuracy import (
    Result,
    macro_average,
    render_macro,
    render_misses,
    render_text,
    run_system,
    run_systems,
    score,
    score_types,
)
from benchmarks.datasets import DEFAULT_BENCH, BenchPage, available_sets, bench_dir, load_set
from benchmarks.systems import FIELDS, Output, System, html_fragment_text, make_system

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
    write_typed_sets(root)
    return root


FORUM = """<html><head><title>Help: bridge noise</title></head><body><nav>Forum Home</nav>
<h1>Help: bridge noise</h1><div class="post"><p>The new bridge hums all night long.</p></div>
<div class="post"><p>Same here, it started in March.</p></div>
<footer>Rules</footer></body></html>"""
NEWS = """<html><head><title>Storm hits coast</title>
<meta property="og:image" content="https://img.example/storm.jpg?w=800">
<meta name="author" content="Ann Lee"></head><body>
<h1>Storm hits coast</h1><p>A storm hit the coast on Monday night, cutting power to many homes.</p>
</body></html>"""


def write_typed_sets(root: Path) -> None:
    """A wceb_dev-like set (gzipped page, page_type) and a mercury_dev-like one."""
    typed = root / "typed"
    (typed / "html").mkdir(parents=True)
    (typed / "html" / "f.html.gz").write_bytes(gzip.compress(FORUM.encode("utf-8")))
    row = {"id": "f", "html": "html/f.html.gz", "url": "https://forum.example/t/1", "lang": "en",
           "title": "Help: bridge noise", "date": None, "body": None, "page_type": "forum",
           "title_in_html": True, "with": ["The new bridge hums all night long.",
           "Same here, it started in March."], "without": ["Forum Home", "Rules"]}  # fmt: skip
    (typed / "manifest.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    merc = root / "merc"
    (merc / "html").mkdir(parents=True)
    (merc / "html" / "n.html").write_bytes(NEWS.encode("utf-8"))
    (merc / "html" / "v.html").write_bytes(NEWS.encode("utf-8"))
    rows = [
        {"id": "n", "html": "html/n.html", "url": "https://news.example/storm", "lang": "en",
         "title": "Storm hits coast", "date": "2021-05-03", "body": None,
         "with": ["A storm hit the coast on Monday"], "without": [],
         "date_time": "2021-05-03T02:00:00.000Z", "date_status": "annotated",
         "authors": ["Ann Lee"], "author_raw": "Ann Lee", "description": None,
         "image": "http://img.example/storm.jpg", "with_verbatim": True},
        {"id": "v", "html": "html/v.html", "url": None, "lang": "en", "title": None,
         "date": None, "body": None, "with": ["words Mercury made up"], "without": [],
         "date_time": None, "date_status": "unannotated", "authors": None, "author_raw": None,
         "description": "A dek", "image": None, "with_verbatim": False},
    ]  # fmt: skip
    (merc / "manifest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


# --- datasets ---------------------------------------------------------------------------------


def test_sets_are_found_and_loaded_in_both_layouts(tmp_path: Path) -> None:
    root = write_bench(tmp_path)
    assert available_sets(root) == ["aeb", "merc", "typed", "zh_set"]
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


def test_gzipped_manifest_pages_and_the_new_fields_load(tmp_path: Path) -> None:
    root = write_bench(tmp_path)
    (forum,) = load_set(root / "typed")
    assert forum.html == FORUM.encode("utf-8")  # gunzipped like the aeb pages
    assert (forum.page_type, forum.title_in_html, forum.authors) == ("forum", True, None)
    assert forum.without_snippets == ("Forum Home", "Rules")
    news, made_up = load_set(root / "merc")
    assert news.date_time == "2021-05-03T02:00:00.000Z"
    assert (news.date_status, news.authors, news.author_raw) == (
        "annotated",
        ("Ann Lee",),
        "Ann Lee",
    )
    assert (news.image, news.with_verbatim, news.page_type) == (
        "http://img.example/storm.jpg",
        True,
        None,
    )
    assert (made_up.authors, made_up.description, made_up.with_verbatim) == (
        None,
        "A dek",
        False,
    )


def test_one_string_author_labels_load_split_for_wcxb_and_trafilatura_sets_only(
    tmp_path: Path,
) -> None:
    rows = [
        {"id": "a", "html": "html/a.html", "author": "Ann Lee, MD, and Bo Chen"},
        {"id": "b", "html": "html/b.html", "author": "ggailey777"},
        {"id": "c", "html": "html/c.html", "author": None},
    ]
    for name in ("wcxb_dev", "trafilatura_dev", "readability"):
        folder = tmp_path / name
        (folder / "html").mkdir(parents=True)
        for row in rows:
            (folder / row["html"]).write_bytes(NEWS.encode("utf-8"))
        (folder / "manifest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    for name in ("wcxb_dev", "trafilatura_dev"):
        a, b, c = load_set(tmp_path / name)
        # split as the bench README says: the credential after a comma is a name of its own
        assert a.authors == ("Ann Lee", "MD", "Bo Chen")
        assert (b.authors, c.authors) == (("ggailey777",), None)
    # readability's ``author`` is the byline Readability found, not a label: not scored
    assert [p.authors for p in load_set(tmp_path / "readability")] == [None, None, None]


def test_bench_dir_option_beats_env_beats_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CX_BENCH", raising=False)
    assert bench_dir(None) == DEFAULT_BENCH
    assert DEFAULT_BENCH.parts[-2:] == ("shared", "bench")
    monkeypatch.setenv("CX_BENCH", "/from/env")
    assert bench_dir(None) == Path("/from/env")
    assert bench_dir("/from/cli") == Path("/from/cli")


# --- scoring and running ----------------------------------------------------------------------


def _page(pid: str, body: str | None, title: str | None, date: str | None) -> BenchPage:
    return BenchPage(set_name="s", id=pid, html=b"", body=body, title=title, date=date)


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


def _typed(pid: str, page_type: str, musts: tuple[str, ...], nots: tuple[str, ...]) -> BenchPage:
    return BenchPage(set_name="w", id=pid, html=b"", page_type=page_type, with_snippets=musts,
                without_snippets=nots)  # fmt: skip


def test_snippets_empty_outputs_and_page_types_per_set_and_per_type() -> None:
    results = [
        Result(_typed("1", "forum", ("first post", "a reply"), ("Sign in",)),
               Output(text="first  post\nSign in", page_type="thread"), 0.001),
        Result(_typed("2", "article", ("the story",), ("Menu", "Footer")),
               Output(text="the story", page_type="article"), 0.001),
        Result(_typed("3", "collection", ("intro",), ()), Output(text=" "), 0.001),
        Result(_typed("4", "product", ("spec",), ()), Output(text="spec", page_type="listing"),
               0.001),
    ]  # fmt: skip
    row = score("w", "cx", results)
    assert row.with_found == pytest.approx(3 / 5)  # first post, the story, spec
    assert row.without_absent == pytest.approx(2 / 3)  # "Sign in" was output
    assert (row.n_with, row.n_without, row.empty) == (5, 3, 1)
    assert (row.main, row.main_kind) == (pytest.approx(3 / 5), "with")  # no text truth
    # truth classes thread, article, listing, other; predicted thread, article, None, listing:
    # thread 1, article 1, listing 2*0/(0+1+1)=0, other 0 -> (1+1+0+0)/4.
    assert row.page_type_f1 == pytest.approx(0.5)
    assert row.n_page_type == 4
    without_types = score("w", "cx", results, fields=FIELDS - {"page_type"})
    assert without_types.page_type_f1 is None  # not measured, not 0
    types = {t.page_type: t for t in score_types("w", "cx", results)}
    assert list(types) == ["forum", "article", "collection", "product"]
    forum = types["forum"]
    assert (forum.pages, forum.with_found, forum.without_absent, forum.empty) == (1, 0.5, 0.0, 0)
    assert forum.page_type_right == 1.0
    assert (types["collection"].empty, types["product"].page_type_right) == (1, 0.0)
    assert score_types("w", "cx", results, fields=frozenset())[0].page_type_right is None


def _news(pid: str, **truth: object) -> BenchPage:
    return BenchPage(set_name="m", id=pid, html=b"", **truth)  # type: ignore[arg-type]


def test_mercury_fields_authors_image_dek_and_dates_within_a_day() -> None:
    results = [
        Result(_news("1", date="2021-05-03", authors=("Ann Lee", "Bob Ray"),
                     image="https://i.example/a.jpg?w=1", description="A dek",
                     with_snippets=("Storm hit the coast",), with_verbatim=True),
               Output(text="Storm hit\nthe coast today", date="2021-05-02T22:00-04:00",
                      authors=("bob ray", "Ann Lee"), image="http://i.example/a.jpg",
                      description="a  DEK"), 0.001),
        Result(_news("2", date="2021-05-03", authors=("Cy Doe",), image="https://i.example/b.jpg",
                     with_snippets=("Made up by Mercury",), with_verbatim=False),
               Output(text="Other words", date="2021-05-05", authors=("Cy Doe", "Staff")),
               0.001),
        Result(_news("3", date="2021-05-03"), Output(text="x"), 0.001),
    ]  # fmt: skip
    row = score("m", "cx", results)
    # with_verbatim false leaves page 2's snippet out; page 1's is found across the line break.
    assert (row.with_found, row.n_with) == (1.0, 1)
    assert (row.date_1d, row.date_1d_precision) == (pytest.approx(1 / 3), 0.5)
    assert row.date_accuracy == 0.0  # the exact day is wrong on both
    assert (row.authors_exact, row.author_first, row.n_authors) == (0.5, 0.5, 2)
    # Precision: of the 2 pages given names, page 2's "Staff" is no name of the label.
    assert (row.author_precision, row.n_authors_given) == (0.5, 2)
    assert (row.image, row.n_image) == (0.5, 2)
    assert (row.dek, row.n_dek) == (1.0, 1)
    assert row.page_type_f1 is None  # no page-type truth on this set
    none = score("m", "readability", results, has_dates=False, fields=frozenset())
    assert (none.authors_exact, none.image, none.dek, none.date_1d) == (None, None, None, None)
    assert none.with_found == 1.0  # text figures are for every system


def test_main_figure_per_set_and_macro_average() -> None:
    en = _page("1", "a b c d e", None, None)
    zh = BenchPage(set_name="z", id="2", html=b"", lang="zh", body="今天天气很好我们出去玩")
    rows = [
        score("aeb", "cx", [Result(en, Output(text="a b c d e"), 0.001)]),
        score("zh", "cx", [Result(zh, Output(text="今天天气很好"), 0.001)]),
        score("w", "cx", [Result(_typed("3", "forum", ("x y",), ()), Output(text="x y"), 0.001)]),
        score("n", "cx", [Result(_typed("4", "forum", (), ()), Output(text="x"), 0.001)]),
        score("aeb", "trafilatura", [Result(en, Output(text=""), 0.001)]),
    ]  # fmt: skip
    assert [(r.main_kind, r.main) for r in rows[:2]] == [("F1", 1.0), ("charF1", rows[1].char_f1)]
    assert (rows[2].main_kind, rows[2].main) == ("with", 1.0)
    assert (rows[3].main_kind, rows[3].main) == (None, None)  # nothing to score: left out
    macro = macro_average(rows)
    assert macro["cx"] == pytest.approx((1.0 + rows[1].char_f1 + 1.0) / 3)
    assert macro["trafilatura"] == 0.0
    line = render_macro(rows)
    assert line.startswith("macro over 3 sets (aeb F1, zh charF1, w with):  cx ")


def test_cx_fields_come_from_the_article_and_page_type_waits_for_it() -> None:
    import dataclasses

    from scrapy_cx import Article

    cx = make_system("cx")
    assert cx is not None
    has_type = "page_type" in {f.name for f in dataclasses.fields(Article)}
    assert ("page_type" in cx.fields) == has_type
    out = cx.run((NEWS.encode("utf-8"), "https://news.example/storm"))
    assert isinstance(out.authors, tuple)
    assert out.image is None or out.image.startswith("http")
    if not has_type:
        assert out.page_type is None


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


def test_systems_take_turns_on_each_page_and_only_their_cpu_counts() -> None:
    calls: list[str] = []

    def runner(name: str, wait: float) -> System:
        def run(page_id: str) -> Output:
            calls.append(f"{name}{page_id}")
            time.sleep(wait)  # waiting is not working: no CPU time
            return Output(text="x")

        return System(name, "0", lambda page: page.id, run)

    pages = [_page(pid, "x", None, None) for pid in ("1", "2")]
    results = run_systems([runner("a", 0.0), runner("b", 0.2)], pages, "s/ab")
    assert calls == ["a1", "b1", "a2", "b2"]
    assert [r.page.id for r in results["b"]] == ["1", "2"]
    assert all(r.seconds < 0.1 for r in results["b"])  # 0.2 s of wall clock each


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
    assert lines[0].split()[:5] == ["set", "system", "pages", "main", "F1"]
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


def test_misses_for_snippets_authors_images_and_page_types() -> None:
    forum = Result(_typed("f", "forum", ("first post", "a reply"), ("Sign in",)),
                   Output(text="first post Sign in", page_type="article"), 0.001)  # fmt: skip
    fine = Result(_typed("a", "article", ("story",), ()),
                  Output(text="story", page_type="article"), 0.001)  # fmt: skip
    text = render_misses("with", [forum, fine], top=10)
    assert text.splitlines() == [
        "f  [forum]  with 1/2  without present 1/1",
        "    missed a reply",
        "    kept   Sign in",
    ]
    # The confusion (rows truth, columns ours) first, then each page typed wrong.
    ptype = render_misses("ptype", [forum, fine], top=10).splitlines()
    assert ptype[-2:] == ["macro-F1 0.333 over 2 pages", "f  truth thread (forum)  ours article"]
    news = Result(_news("n", authors=("Ann Lee", "Bob Ray"), image="https://i.example/a.jpg?x=1"),
                  Output(authors=("Ann Lee",), image="https://i.example/b.jpg"), 0.001)  # fmt: skip
    assert render_misses("authors", [news], top=10).splitlines() == [
        "n  (first ok)",
        "    truth  ['Ann Lee', 'Bob Ray']",
        "    ours   ['Ann Lee']",
    ]
    assert "truth  https://i.example/a.jpg?x=1" in render_misses("image", [news], top=10)
    assert render_misses("image", [fine], top=10) == ""  # no image truth: no miss


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
    assert "zh_set: 2 pages; truth: text 2, title 1, date 1, with 1" in stdout
    assert "typed: 1 pages; truth: text 0, title 1, date 0, with 2, without 2, page_type 1" in (
        stdout
    )
    assert "== title misses of cx on zh_set ==" in stdout
    assert "macro over 4 sets (aeb F1, merc with, typed with, zh_set F1):  cx " in stdout
    assert "== snippets and fields ==" in stdout and "== per page type ==" in stdout
    data = json.loads(out.read_text())
    assert [(r["set"], r["system"], r["pages"]) for r in data["rows"]] == [
        ("aeb", "cx", 1),
        ("merc", "cx", 2),
        ("typed", "cx", 1),
        ("zh_set", "cx", 2),
    ]
    assert set(data["macro"]) == {"cx"} and data["macro_sets"]["typed"] == "with"
    assert [(t["set"], t["page_type"]) for t in data["type_rows"]] == [("typed", "forum")]
    assert data["errors"] == []
    for row in data["rows"]:
        assert 0.0 <= row["f1"] <= 1.0 and 0.0 <= row["char_f1"] <= 1.0
        assert row["median_ms"] > 0
    pages = {(p["set"], p["id"]): p for p in data["pages"]}
    assert sorted(pages) == [
        ("aeb", "p1"),
        ("merc", "n"),
        ("merc", "v"),
        ("typed", "f"),
        ("zh_set", "a"),
        ("zh_set", "b"),
    ]
    assert pages[("merc", "n")]["image_ok"] is not None  # scored: the page has image truth
    assert pages[("merc", "v")]["n_with"] == 0  # with_verbatim false: left out
    assert pages[("zh_set", "a")]["level"] == "char"
    assert pages[("zh_set", "b")]["level"] == "word"
    assert pages[("zh_set", "a")]["date_ok"] is None  # no date label
    assert "html" not in pages[("aeb", "p1")]  # no page content in the figures

    # The same extractor on the same pages: nothing changed.
    assert accuracy.main(["--bench", str(root), "--systems", "cx", "--compare", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "cx: text worse on 0 pages, better on 0; titles/dates/fields changed on 0" in stdout
    assert "aeb/cx: main " in stdout and "(+0.000)" in stdout
    assert "typed[forum]/cx: with " in stdout
    assert "no figure of any set fell by more than 0.005" in stdout


def test_command_refuses_an_empty_bench_dir(tmp_path: Path) -> None:
    assert accuracy.main(["--bench", str(tmp_path), "--systems", "cx"]) == 2


def test_audit_replaces_only_the_silver_labels_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_bench(tmp_path / "bench")
    audit = tmp_path / "audit.json"
    audit.write_text(
        json.dumps(
            {
                "set": "zh_set",
                "dates": {
                    # b's silver label says 2021-03-02: replaced (the page says 2021-03-02 too,
                    # so the audited 1999 label makes cx's date wrong: the audit is applied).
                    "b": {"silver": "2021-03-02", "audited": "1999-01-01", "why": "test"},
                    # a's silver label is null, not this one: the set changed, left alone.
                    "a": {"silver": "2020-01-01", "audited": "2020-01-02", "why": "test"},
                },
            }
        )
    )
    plain, audited = tmp_path / "plain.json", tmp_path / "audited.json"
    args = ["--bench", str(root), "--systems", "cx", "--sets", "zh_set"]
    assert accuracy.main([*args, "--json", str(plain)]) == 0
    assert accuracy.main([*args, "--json", str(audited), "--audit", str(audit)]) == 0
    assert "zh_set: 1 of 2 date labels replaced by" in capsys.readouterr().err
    [before] = json.loads(plain.read_text())["rows"]
    [after] = json.loads(audited.read_text())["rows"]
    assert (before["date_accuracy"], after["date_accuracy"]) == (1.0, 0.0)
    assert before["n_date"] == after["n_date"] == 1
