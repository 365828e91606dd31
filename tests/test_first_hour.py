"""What a newcomer's first commands meet (issue 39): each wrong turn of a first hour
with ``scrapy-cx extract`` and ``explain`` now ends in a message that says what happened."""

from __future__ import annotations

import csv
import importlib.util
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from scrapy_cx import Article, extract_article
from scrapy_cx.__main__ import main
from scrapy_cx.body import binary_kind

from .sample_pages import article_html, structured_html


def test_an_empty_folder_says_no_html_was_found_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "0 pages, 0 articles", exit 0: a wrong folder looked like a finished run."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("nothing to see")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "story.html").write_text(article_html("Story 1 about the tram"))
    out = tmp_path / "o.jsonl"
    names = [str(tmp_path / name) for name in ("empty", "notes", "site")]
    assert main(["extract", *names, "-o", str(out), "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert f"no HTML found in {names[0]} (" in err
    assert f"no HTML found in {names[1]} (" in err
    assert "site (" not in err
    assert "2 folders with no HTML" in err
    assert out.read_text(encoding="utf-8").count("\n") == 1  # the others were read


def test_explain_of_a_folder_says_it_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "saved").mkdir()
    assert main(["explain", str(tmp_path / "saved"), "--text"]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'saved'}: is a folder" in err
    assert "no such file" not in err


@pytest.mark.parametrize("seed", range(20))
def test_random_bytes_are_binary(seed: int) -> None:
    """Random bytes hold about 10% control bytes: the old 10% bound let half of them
    through as HTML ("main text too short")."""
    assert binary_kind(random.Random(seed).randbytes(4096)) == "binary"


def test_random_bytes_named_html_are_not_html_binary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = []
    for seed in range(5):
        path = tmp_path / f"noise-{seed}.html"
        path.write_bytes(random.Random(seed).randbytes(8192))
        names.append(str(path))
    assert main(["extract", *names, "-o", str(tmp_path / "o.jsonl"), "-j", "1", "-v"]) == 0
    err = capsys.readouterr().err
    for name in names:
        assert f"skipped {name}: not HTML (binary)\n" in err
    assert "main text too short" not in err


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    csv.field_size_limit(2**31 - 1)
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def test_extract_to_a_csv_file_writes_the_crawls_csv(tmp_path: Path) -> None:
    """``-o x.csv`` wrote JSON lines into the .csv file; now the rows a crawl's CSV
    export of the same pages holds: the same columns, nested fields as JSON cells."""
    from tests.support.crawl import EXAMPLE_PROJECT, run_crawl

    crawl, _ = run_crawl([], tmp_path / "crawl.csv")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    out = tmp_path / "bulk.csv"
    pages = str(EXAMPLE_PROJECT / "news" / "pages")
    assert main(["extract", pages, "-o", str(out), "-j", "1", "-q"]) == 0
    columns, rows = read_csv(out)
    crawl_columns, crawl_rows = read_csv(tmp_path / "crawl.csv")
    assert columns == crawl_columns == list(Article.field_names())
    assert len(rows) == 8
    assert sorted(rows, key=lambda r: r["url"]) == sorted(crawl_rows, key=lambda r: r["url"])
    assert all(isinstance(json.loads(row["authors"]), list) for row in rows)
    assert out.read_bytes().startswith(b"url,title,")  # no BOM: Scrapy's utf-8


def test_text_into_a_csv_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "story.html").write_text(article_html("Story 1 about the tram"))
    out = tmp_path / "x.CSV"
    args = ["extract", str(tmp_path / "story.html"), "-o", str(out), "--text"]
    assert main(args) == 2
    assert "--text" in capsys.readouterr().err
    assert not out.exists()


SAVED_FROM = "https://news.test/2024/story.html"


def test_a_saved_page_gives_the_crawls_images_read_against_its_canonical_address(
    tmp_path: Path,
) -> None:
    """Relative pictures and links of a saved page resolved against nothing (its
    ``file:`` address) and were dropped: bulk and crawl gave different ``images``."""
    html = structured_html().replace(
        "</head>", f'<link rel="canonical" href="{SAVED_FROM}"></head>', 1
    )
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "story.html").write_text(html, encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert main(["extract", str(tmp_path / "saved"), "-o", str(out), "-j", "1", "-q"]) == 0
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    crawled = extract_article(html, SAVED_FROM).to_dict()
    assert record["images"] == crawled["images"] != []
    assert record["content_html"] == crawled["content_html"]
    assert record["url"].startswith("file:///")  # still the file it was read from


def test_base_url_gives_saved_pages_their_addresses(tmp_path: Path) -> None:
    """A saved page declaring no address of its own: ``--base-url`` says where the
    folder (or the file) was saved from."""
    html = structured_html()
    (tmp_path / "mirror" / "2024").mkdir(parents=True)
    (tmp_path / "mirror" / "2024" / "story.html").write_text(html, encoding="utf-8")
    out = tmp_path / "o.jsonl"
    folder = str(tmp_path / "mirror")
    args = ["extract", folder, "-o", str(out), "-j", "1", "-q", "--base-url", "https://news.test"]
    assert main(args) == 0
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record == extract_article(html, SAVED_FROM).to_dict()
    one = str(tmp_path / "mirror" / "2024" / "story.html")
    args = ["extract", one, "-o", str(out), "-j", "1", "-q", "--base-url", SAVED_FROM]
    assert main(args) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["url"] == SAVED_FROM


@pytest.mark.parametrize("bad", ["ftp://news.test/", "news.test/2024/", "https://"])
def test_base_url_must_be_an_http_address(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["extract", str(tmp_path), "--base-url", bad])
    assert exc.value.code == 2


ROOT = Path(__file__).resolve().parents[1]


def shown_as(shown: object, actual: object) -> bool:
    """Whether a README value shows ``actual``: equal, or a string with parts left out
    (``…`` or ``...``) whose other parts are ``actual``'s, in order."""
    if not isinstance(shown, str) or not isinstance(actual, str):
        return shown == actual
    at = 0
    for part in re.split(r"…|\.\.\.", shown):
        found = actual.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def test_the_readmes_sample_line_is_what_the_example_page_gives(tmp_path: Path) -> None:
    """It showed ``article_probability`` 0.956 where the output says 0.96: every field
    of the line, in order, as ``scrapy-cx extract`` (which the crawl agrees with) gives."""
    readme = (ROOT / "README.rst").read_text(encoding="utf-8")
    found = re.search(
        r"A line of ``articles.jsonl`` from the example project.*?::\n\n(.*?)\n\n", readme, re.S
    )
    assert found, "the README's sample line is gone"
    shown = json.loads(found.group(1))
    page = ROOT / "example_project" / "news" / "pages" / "nanling-rice-purchase.html"
    out = tmp_path / "o.jsonl"
    assert main(["extract", str(page), "-o", str(out), "-j", "1", "-q"]) == 0
    actual = json.loads(out.read_text(encoding="utf-8"))
    assert list(shown) == list(actual) == list(Article.field_names())
    wrong = {
        key: (shown[key], actual[key]) for key in shown if not shown_as(shown[key], actual[key])
    }
    assert not wrong


def readme_commands() -> Any:
    """``.ci/readme_commands.py``, which ``.ci/quickstart`` runs the README's commands with."""
    spec = importlib.util.spec_from_file_location(
        "readme_commands", ROOT / ".ci" / "readme_commands.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("readme", ["README.rst", "example_project/README.rst"])
def test_every_install_command_of_the_readmes_installs_from_the_checkout(readme: str) -> None:
    """``pip install scrapy-cx`` / ``'scrapy-cx[cli]'``: not on the package index."""
    commands = [
        c
        for block in readme_commands().blocks((ROOT / readme).read_text(encoding="utf-8"))
        for c in block
    ]
    installs = [c.split("#")[0] for c in commands if "pip install" in c.split("#")[0]]
    assert installs
    for command in installs:
        assert re.search(r"pip install (-q )?-e (\.|'\.\[\w+\]'|\"\.\[\w+\]\")( |$)", command), (
            command
        )


def test_the_readmes_later_commands_run_in_the_quick_starts_venv() -> None:
    """After the Quick start the README says ``scrapy`` and ``scrapy-cx``: the Quick start
    says to activate the venv they are in, and ``.ci/quickstart`` runs them so."""
    script = readme_commands().script(ROOT / "README.rst", ROOT / "example_project" / "README.rst")
    run = [line for line in script.splitlines() if line.startswith(("scrapy", "pip"))]
    assert "scrapy-cx extract example_project/news/pages -o articles.jsonl -j 2" in run
    assert script.count(". .venv/bin/activate\n") >= len(re.findall(r"^\($", script, re.M))
