"""``scrapy-cx extract --schema zyte``: each line is a CxArticle (Zyte's Article and ours)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from scrapy_cx.__main__ import main
from tests.sample_pages import STRUCTURED_TITLE, listing_html, structured_html


def test_lines_in_zytes_schema(tmp_path: Path) -> None:
    zci = pytest.importorskip("zyte_common_items")
    from scrapy_cx.zyte import CxArticle

    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "tram.html").write_text(structured_html(), encoding="utf-8")
    (tmp_path / "pages" / "index.html").write_text(listing_html(), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    args = ["extract", "-q", "-j", "1", "--schema", "zyte", str(tmp_path / "pages")]
    assert main([*args, "-o", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(lines) == 1  # the listing is no article, as without --schema
    item = CxArticle.from_dict(lines[0])
    attrs.validate(item)
    assert isinstance(item, zci.Article)
    assert item.headline == STRUCTURED_TITLE
    assert item.url.endswith("/tram.html") and item.pageType == "article"
    assert item.metadata.dateDownloaded.endswith("Z")  # the file's modification time
    assert "title" not in lines[0] and "content" not in lines[0]  # no field of ours twice


def test_a_csv_output_has_zytes_columns(tmp_path: Path) -> None:
    """``--schema zyte -o x.csv`` wrote our columns, which Zyte's lines do not fill:
    every row was empty but for its URL and fingerprint."""
    pytest.importorskip("zyte_common_items")
    from scrapy_cx.zyte import CxArticle
    from tests.test_first_hour import read_csv

    (tmp_path / "tram.html").write_text(structured_html(), encoding="utf-8")
    out = tmp_path / "out.csv"
    args = ["extract", "-q", "-j", "1", "--schema", "zyte", str(tmp_path / "tram.html")]
    assert main([*args, "-o", str(out)]) == 0
    columns, rows = read_csv(out)
    assert columns == [field.name for field in attrs.fields(CxArticle)]
    assert [row["headline"] for row in rows] == [STRUCTURED_TITLE]
    assert json.loads(rows[0]["metadata"])["dateDownloaded"].endswith("Z")
