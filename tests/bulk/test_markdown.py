"""``--markdown-dir``: safe names from URLs, front matter YAML reads, no article written over."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
from pathlib import Path

import pytest

from scrapy_cx import Article
from scrapy_cx.__main__ import main
from scrapy_cx.bulk import MarkdownDir
from scrapy_cx.bulk._markdown import FRONT_MATTER, MAX_STEM, file_stem, markdown_document

from ..sample_pages import PARAGRAPHS, listing_html, write_warc
from ..test_main import run_cli

# What every system takes in a file name: Windows refuses these device names
# whatever follows the first dot, and a trailing dot or space; macOS and Windows
# fold case, so names must not differ by case alone.
WINDOWS_DEVICES = {"con", "prn", "aux", "nul"} | {
    f"{device}{n}" for device in ("com", "lpt") for n in range(10)
}
SAFE = re.compile(r"[a-z0-9_][a-z0-9._-]*[a-z0-9_]|[a-z0-9_]")


def is_safe_everywhere(stem: str) -> bool:
    return (
        SAFE.fullmatch(stem) is not None
        and len(stem) <= MAX_STEM
        and stem.partition(".")[0] not in WINDOWS_DEVICES
    )


@pytest.mark.parametrize(
    ("url", "stem"),
    [
        ("https://news.example.org/2024/03/tram-vote.html", "news.example.org_2024_03_tram-vote"),
        ("https://News.Example.org/World/Story", "news.example.org_world_story"),
        ("http://127.0.0.1:8080/a/b/", "127.0.0.1_8080_a_b"),
        ("https://site.test/article.php?id=123&p=2", "site.test_article_id_123_p_2"),
        ("https://user:pw@site.test/x#comments", "site.test_x"),
        ("file:///home/me/saved/news/story-1.html", "story-1"),
        ("file:///srv/pages/index.html.gz", "index"),
        ("https://site.test/%E6%96%B0%E9%97%BB/2024/", "site.test_2024"),
        ("https://site.test/", "site.test"),
    ],
)
def test_the_name_is_the_urls_host_and_path(url: str, stem: str) -> None:
    assert file_stem(url, "page-1") == stem
    assert is_safe_everywhere(stem)


@pytest.mark.parametrize(
    ("url", "stem"),
    [
        ("file:///tmp/CON.html", "_con"),  # the console, on Windows
        ("file:///tmp/nul.tar.html", "_nul.tar"),
        ("file:///tmp/com1", "_com1"),
        ("file:///tmp/Lpt9.htm", "_lpt9"),
        ("file:///tmp/console.html", "console"),  # only the device names themselves
    ],
)
def test_device_names_windows_reserves_are_avoided(url: str, stem: str) -> None:
    assert file_stem(url, "page-1") == stem


@pytest.mark.parametrize(
    "url",
    [None, "", "https:///", "file:///", "file:///tmp/...html", "file:///tmp/新闻.html", "?"],
)
def test_a_url_that_leaves_nothing_gives_the_page_number(url: str | None) -> None:
    assert file_stem(url, "page-7") == "page-7"


@pytest.mark.parametrize(
    "url",
    [
        "https://site.test/" + "segment/" * 80 + "the-article-slug-42",
        "https://" + "sub." * 60 + "site.test/a",
        "https://site.test/a. . .",
        "https://site.test/trailing-dot.",
        "https://site.test/ spaces and\ttabs \r\n/x?q= y ",
        "https://site.test/..%2F..%2Fetc%2Fpasswd",
        "https://site.test/a\\b:c*d?e|f\"g<h>i",
        "file:///C:/Users/me/AUX.html",
        "https://site.test/-dash-",
    ],
)
def test_every_name_is_safe_on_every_system(url: str) -> None:
    stem = file_stem(url, "page-1")
    assert is_safe_everywhere(stem), stem


def test_a_long_name_keeps_the_end_of_the_path_where_the_slug_is() -> None:
    stem = file_stem("https://site.test/" + "segment/" * 80 + "the-article-slug-42", "p")
    assert len(stem) == MAX_STEM
    assert stem.startswith("site.test_") and stem.endswith("the-article-slug-42")


def front_matter(document: str) -> tuple[dict[str, object], str]:
    """The YAML subset we write: ``---``, ``key: JSON value`` lines, ``---``, the body."""
    lines = document.split("\n")
    assert lines[0] == "---"
    end = lines.index("---", 1)
    fields: dict[str, object] = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(": ")
        assert sep and re.fullmatch(r"[a-z_]+", key), line
        fields[key] = json.loads(value)
        # YAML takes a double-quoted scalar of printable characters only.
        assert not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]", value), value
    return fields, "\n".join(lines[end + 1 :])


def test_front_matter_holds_the_fields_as_yaml_reads_them() -> None:
    hostile = 'A "title": with # --- and\nnew line\u2028 \x85 \x7f \ufeff 新闻'
    article = Article(
        url="https://site.test/a",
        title=hostile,
        published="2024-03-05T09:30:00+01:00",
        authors=("Ann O'Neil", "李明"),
        site_name=None,
        language="en",
        content_markdown="## Heading\n\n- one\n- two\n",
    )
    fields, body = front_matter(markdown_document(article))
    assert list(fields) == list(FRONT_MATTER)
    assert fields == {
        "title": hostile,
        "url": "https://site.test/a",
        "published": "2024-03-05T09:30:00+01:00",
        "authors": ["Ann O'Neil", "李明"],
        "site_name": None,
        "language": "en",
    }
    assert body == "\n## Heading\n\n- one\n- two\n"
    assert "新闻" in markdown_document(article)  # readable, not escaped


def test_an_article_without_markdown_has_front_matter_only() -> None:
    fields, body = front_matter(markdown_document(Article(url="https://site.test/a")))
    assert fields["title"] is None and fields["authors"] == [] and body == ""


def document(url: str, text: str) -> str:
    return markdown_document(Article(url=url, title=text, content_markdown=text))


def names(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def test_two_articles_with_one_name_get_two_files(tmp_path: Path) -> None:
    folder = MarkdownDir(tmp_path)
    first = folder.write("https://site.test/Story", document("https://site.test/Story", "A"), 1)
    second = folder.write("https://site.test/story", document("https://site.test/story", "B"), 2)
    assert first.name == "site.test_story.md"
    assert re.fullmatch(r"site\.test_story-[0-9a-f]{8}\.md", second.name)
    assert "A" in first.read_text(encoding="utf-8") and "B" in second.read_text(encoding="utf-8")
    assert names(tmp_path) == sorted([first.name, second.name])  # no temporary file left
    assert folder.written == 2


def test_the_same_url_again_replaces_its_own_file(tmp_path: Path) -> None:
    url, other = "https://site.test/story", "https://site.test/Story"
    MarkdownDir(tmp_path).write(url, document(url, "old"), 1)
    MarkdownDir(tmp_path).write(other, document(other, "theirs"), 2)
    before = names(tmp_path)
    rerun = MarkdownDir(tmp_path)  # a later run into the same folder
    path = rerun.write(url, document(url, "new"), 1)
    again = rerun.write(other, document(other, "theirs, updated"), 2)
    assert names(tmp_path) == before
    assert path.name == "site.test_story.md" and "new" in path.read_text(encoding="utf-8")
    assert "updated" in again.read_text(encoding="utf-8")


def test_a_file_that_is_not_that_articles_is_never_written_over(tmp_path: Path) -> None:
    url = "https://site.test/story"
    hashed = f"site.test_story-{hashlib.sha1(url.encode()).hexdigest()[:8]}.md"
    (tmp_path / "site.test_story.md").write_text("my own notes", encoding="utf-8")
    (tmp_path / hashed).write_text("---\nurl: \"https://elsewhere.test/\"\n---\n")
    path = MarkdownDir(tmp_path).write(url, document(url, "article"), 1)
    assert path.name == hashed.replace(".md", "-2.md")
    assert (tmp_path / "site.test_story.md").read_text(encoding="utf-8") == "my own notes"
    assert "elsewhere" in (tmp_path / hashed).read_text(encoding="utf-8")


def test_a_folder_or_a_link_in_the_way_is_left_alone(tmp_path: Path) -> None:
    url = "https://site.test/story"
    (tmp_path / "site.test_story.md").mkdir()
    path = MarkdownDir(tmp_path).write(url, document(url, "x"), 1)
    assert re.fullmatch(r"site\.test_story-[0-9a-f]{8}\.md", path.name) and path.is_file()
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "elsewhere.md"
    target.write_text(document(url, "theirs"))  # even this article's: a link leads out
    (out / "site.test_story.md").symlink_to(target)
    written = MarkdownDir(out).write(url, document(url, "y"), 1)
    assert written.name != "site.test_story.md" and not written.is_symlink()
    assert "theirs" in target.read_text()


def test_a_page_named_as_input_is_never_written_over(tmp_path: Path) -> None:
    url = "https://site.test/story"
    page = tmp_path / "site.test_story.md"
    page.write_text("<html>a page saved as .md, named on the command line</html>")
    written = MarkdownDir(tmp_path, inputs=[page]).write(url, document(url, "x"), 1)
    assert written != page and "saved as .md" in page.read_text()


def article_page(title: str) -> bytes:
    """An article whose body has a heading and a list, for the Markdown to show."""
    body = (
        f"<p>{PARAGRAPHS[0]}</p><h2>What changes</h2><ul><li>{PARAGRAPHS[1]}</li>"
        f"<li>{PARAGRAPHS[2]}</li></ul><p>{PARAGRAPHS[3]}</p>"
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{title} | Harbour Gazette</title>"
        '<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">'
        '<meta name="author" content="Ann Smith"></head><body>'
        f"<article><h1>{title}</h1>{body}</article></body></html>"
    ).encode()


def crawl_warc(folder: Path) -> None:
    html = [("Content-Type", "text/html; charset=utf-8")]
    write_warc(
        folder / "crawl.warc.gz",
        [
            ("https://news.test/2024/tram-vote.html", "response", html, article_page("Tram vote")),
            ("https://news.test/", "response", html, listing_html().encode()),
            ("https://news.test/2024/Tram-Vote.html", "response", html, article_page("Other")),
        ],
    )


def test_cli_writes_one_markdown_file_per_article(tmp_path: Path) -> None:
    crawl_warc(tmp_path)
    proc = run_cli(
        "extract", "crawl.warc.gz", "-o", "out.jsonl", "--markdown-dir", "md", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "2 Markdown files in md" in proc.stderr
    files = names(tmp_path / "md")  # the listing page wrote none
    assert len(files) == 2 and "news.test_2024_tram-vote.md" in files
    other = next(name for name in files if name != "news.test_2024_tram-vote.md")
    assert re.fullmatch(r"news\.test_2024_tram-vote-[0-9a-f]{8}\.md", other)
    first = (tmp_path / "md" / "news.test_2024_tram-vote.md").read_text(encoding="utf-8")
    fields, body = front_matter(first)
    assert fields["title"] == "Tram vote" and fields["authors"] == ["Ann Smith"]
    assert fields["url"] == "https://news.test/2024/tram-vote.html"
    assert str(fields["published"]).startswith("2024-03-05")
    assert "## What changes" in body and "- Supporters of the plan" in body
    # --markdown-dir asks for the Markdown; the JSON lines carry it too.
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["content_markdown"] is not None for r in records] == [True, True]
    # A second run replaces the same files, adding none.
    again = run_cli("extract", "crawl.warc.gz", "-q", "--markdown-dir", "md", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert names(tmp_path / "md") == files


def test_cli_formats_choose_the_fields(tmp_path: Path) -> None:
    crawl_warc(tmp_path)
    runs = {"": "--format=", "markdown": "--format=markdown", "default": "-q"}
    records = {}
    for name, option in runs.items():
        proc = run_cli("extract", "crawl.warc.gz", option, "-j", "1", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        records[name] = json.loads(proc.stdout.splitlines()[0])
    fields = ("content_html", "content_markdown", "images")
    assert [records[""][f] for f in fields] == [None, None, None]
    assert records["markdown"]["content_html"] is None
    assert "## What changes" in records["markdown"]["content_markdown"]
    assert "<h2>What changes</h2>" in records["default"]["content_html"]
    assert records["default"]["content_markdown"] is None
    assert records["default"]["images"] == []


@pytest.mark.parametrize("bad", ["pdf", "html,Markdown", "html;images"])
def test_cli_an_unknown_format_is_a_clear_error(bad: str, tmp_path: Path) -> None:
    proc = run_cli("extract", "x.html", "--format", bad, cwd=tmp_path)
    assert proc.returncode == 2
    assert "argument --format: unknown format(s)" in proc.stderr
    assert "choose among html, markdown, images" in proc.stderr


def test_cli_refuses_a_markdown_dir_inside_a_folder_being_read(tmp_path: Path) -> None:
    crawl_warc(tmp_path)
    proc = run_cli("extract", ".", "--markdown-dir", "md", "-o", "/dev/null", cwd=tmp_path)
    assert proc.returncode == 2
    assert "refusing to write Markdown files into md: it is inside the input folder ." in (
        proc.stderr
    )
    assert not (tmp_path / "md").exists()


def test_cli_a_markdown_dir_that_cannot_be_made_is_refused_at_start(tmp_path: Path) -> None:
    crawl_warc(tmp_path)
    (tmp_path / "taken").write_text("a file, not a folder")
    proc = run_cli("extract", "crawl.warc.gz", "--markdown-dir", "taken/md", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "scrapy-cx: cannot write taken/md: Not a directory" in proc.stderr


def test_cli_a_file_that_cannot_be_written_stops_the_run_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    crawl_warc(tmp_path)

    def full(*args: object) -> Path:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(MarkdownDir, "write", full)
    args = ["extract", str(tmp_path / "crawl.warc.gz"), "-o", str(tmp_path / "out.jsonl")]
    assert main([*args, "-j", "1", "--markdown-dir", str(tmp_path / "md")]) == 2
    err = capsys.readouterr().err
    folder = tmp_path / "md"
    assert err == f"scrapy-cx: cannot write Markdown files into {folder}: No space left on device\n"
    assert not (tmp_path / "out.jsonl").exists()  # the JSON lines are not left half done
