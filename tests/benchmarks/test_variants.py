"""benchmarks/variants.py: the same pages in other bytes, and the runner's --variant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import accuracy
from benchmarks.variants import VARIANTS, minified, nameless, reencoded
from scrapy_cx import extract_article
from tests.benchmarks.test_accuracy import write_bench
from tests.extract.prose import BRIDGE_STORY, ZH_SENTENCES

STORY = "".join(f"<p>{sentence}</p>\n" for sentence in BRIDGE_STORY[:4])
PAGE = f"""<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <title>Bridge to be rebuilt – “soon” | Town News</title>
  </head>
  <body>
    <nav class="main-nav" id="top"><a href="/">Home</a> <a href="/news">News</a></nav>
    <article class="story">
      <h1>Bridge to be rebuilt – “soon”</h1>
      {STORY}
    </article>
    <footer class='site-footer'>Copyright Town News</footer>
  </body>
</html>
"""
ZH_PAGE = (
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
    "<title>地铁新线明年开通</title></head><body><h1>地铁新线明年开通</h1>"
    + "".join(f"<p>{sentence}</p>" for sentence in ZH_SENTENCES)
    + "</body></html>"
)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_keeps_the_pages_article(name: str) -> None:
    for page in (PAGE, ZH_PAGE):
        original = extract_article(page.encode("utf-8"), "https://news.example/a")
        variant = extract_article(VARIANTS[name](page.encode("utf-8")), "https://news.example/a")
        assert variant.content == original.content
        assert variant.title == original.title


def test_minified_is_one_line_with_the_same_text() -> None:
    html = minified(PAGE.encode("utf-8"))
    assert b"\n" not in html and b">  <" not in html and b"> <" in html


def test_nameless_drops_every_class_and_id() -> None:
    html = nameless(PAGE.encode("utf-8"))
    assert b"class" not in html and b" id=" not in html
    assert b'<meta charset="utf-8">' in html  # other attributes stay


def test_reencoded_writes_the_legacy_charset_of_the_script() -> None:
    western = reencoded(PAGE.encode("utf-8"))
    assert b'charset="cp1252"' in western and "“soon”".encode("cp1252") in western
    chinese = reencoded(ZH_PAGE.encode("utf-8"))  # too few ideographs: western
    assert b"charset=cp1252" in chinese and b"&#" in chinese
    long_chinese = ZH_PAGE.replace("</body>", "<p>" + "新闻" * 300 + "</p></body>")
    gbk = reencoded(long_chinese.encode("utf-8"))
    assert b"charset=gbk" in gbk and "地铁新线".encode("gbk") in gbk


def test_reencoded_leaves_a_page_without_a_utf8_declaration_alone() -> None:
    undeclared = PAGE.replace('<meta charset="utf-8">', "").encode("utf-8")
    assert reencoded(undeclared) == undeclared
    legacy = PAGE.replace("utf-8", "iso-8859-1").encode("cp1252")
    assert reencoded(legacy) == legacy


def test_the_runner_scores_a_variant_and_records_it(tmp_path: Path) -> None:
    root = write_bench(tmp_path / "bench")
    out = tmp_path / "nameless.json"
    args = ["--bench", str(root), "--systems", "cx", "--sets", "aeb"]
    assert accuracy.main([*args, "--variant", "nameless", "--json", str(out)]) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["variant"] == "nameless"
    assert payload["rows"][0]["main"] > 0.9  # the tiny set's story, found without names
