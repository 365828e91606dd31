"""End to end: what a crawl's feed export and log hold for a big article.

The example project's bundled pages plus one article of about 180 KB of text,
crawled from a folder with a real ``scrapy crawl news``: exported as CSV, the
nested fields (authors, keywords, images, related, posts, breadcrumbs) are JSON cells equal
to the JSON lines export of the same crawl, and the 180 KB cell reads back with
``csv.DictReader`` once ``csv.field_size_limit`` allows it (as the README
says). Dropped, the same article is one short log line naming its URL and why.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from tests.sample_pages import PARAGRAPHS, article_html
from tests.support.crawl import EXAMPLE_PROJECT, run_crawl

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

FAST = {"DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "False"}
NESTED = ("authors", "keywords", "images", "related", "posts", "breadcrumbs")
BIG_TITLE = "The tram extension, every hearing in full"
BIG_TEXT = 180_000  # characters: more than csv's default field limit (131 072)


def big_page() -> str:
    """An article of about BIG_TEXT characters, each paragraph different."""
    body = []
    while sum(map(len, body)) < BIG_TEXT:
        body.append(f"Hearing {len(body) + 1}. {PARAGRAPHS[len(body) % len(PARAGRAPHS)]}")
    return article_html(BIG_TITLE, body=body)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pages")
    for page in (EXAMPLE_PROJECT / "news" / "pages").glob("*.html"):
        shutil.copy(page, folder / page.name)
    (folder / "big.html").write_text(big_page(), encoding="utf-8")
    (folder / "live.html").write_text(live_page(), encoding="utf-8")
    return folder


LIVE_HEAD = (
    '<script type="application/ld+json">{"@type": "LiveBlogPosting", "isAccessibleForFree":'
    ' false, "liveBlogUpdate": [{"datePublished": "2024-03-05T10:00:00Z", "articleBody":'
    ' "The vote passes."}]}</script><script type="application/ld+json">{"@type":'
    ' "BreadcrumbList", "itemListElement": [{"position": 1, "name": "Home", "item": "/"},'
    ' {"position": 2, "name": "City"}]}</script></head>'
)


def live_page() -> str:
    """A paywalled live blog with a breadcrumb trail: the new fields, filled."""
    return article_html("Tram vote live").replace("</head>", LIVE_HEAD)


def test_csv_export_reads_back_with_nested_fields_as_json(pages: Path, tmp_path: Path) -> None:
    out_csv, out_jsonl = tmp_path / "articles.csv", tmp_path / "articles.jsonl"
    proc, _ = run_crawl(["-a", f"dir={pages}", "-O", str(out_jsonl)], out_csv, settings=FAST)
    assert proc.returncode == 0, proc.stderr[-3000:]
    expected = {item["url"]: item for item in map(json.loads, out_jsonl.read_text().splitlines())}
    csv.field_size_limit(2**31 - 1)  # as the README says: a cell may be longer than 131 072
    with out_csv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(expected) >= 8
    for row in rows:
        item = expected[row["url"]]
        for name in NESTED:
            assert json.loads(row[name]) == item[name], (row["url"], name, row[name][:200])
        assert row["content"] == item["content"]
    big = next(row for row in rows if row["url"].endswith("/big.html"))
    assert len(big["content"]) > 131_072
    # The bundled pages do have nested values, so the JSON is more than "[]".
    assert any(json.loads(row["related"]) for row in rows)
    assert any(len(json.loads(row["authors"])) > 1 for row in rows)
    live = next(row for row in rows if row["url"].endswith("/live.html"))
    assert [crumb["name"] for crumb in json.loads(live["breadcrumbs"])] == ["Home", "City"]
    assert json.loads(live["posts"])[0]["published"] == "2024-03-05T10:00:00+00:00"
    assert live["accessible_for_free"] == "False"  # a bool as Scrapy's CSV writes one
    assert {row["accessible_for_free"] for row in rows if row is not live} == {""}  # None


def test_dropped_big_article_is_one_short_log_line(pages: Path, tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(pages / "big.html", folder / "big.html")
    # A length minimum above the article's: dropped as short_content.
    settings = {**FAST, "CX_MIN_CONTENT_LENGTH": str(10 * BIG_TEXT)}
    proc, items = run_crawl(["-a", f"dir={folder}"], tmp_path / "out.jsonl", settings=settings)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert items == []
    dropped = [line for line in proc.stderr.splitlines() if "Dropped:" in line]
    assert len(dropped) == 1, proc.stderr[-3000:]
    line = dropped[0]
    assert len(line) < 500, line[:1000]
    assert "INFO" in line and "short_content" in line and "/big.html" in line
    assert BIG_TITLE in line
    length = int(re.search(r"content (\d+) characters", line).group(1))  # type: ignore[union-attr]
    assert length > BIG_TEXT
    # Scrapy writes the item on the lines after "Dropped:": the text is nowhere in the log.
    assert PARAGRAPHS[1][:40] not in proc.stderr
    assert len(proc.stderr) < BIG_TEXT / 4
