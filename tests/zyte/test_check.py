"""scrapy_cx.zyte._check: what the rest asks of the extra without importing it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scrapy_cx import ArticleItem
from scrapy_cx.zyte import installed, is_zyte_item


def test_is_zyte_item_imports_nothing() -> None:
    code = (
        "import sys; from scrapy_cx.zyte import is_zyte_item; "
        "assert not is_zyte_item({'url': 'x'}); assert 'zyte_common_items' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_is_zyte_item() -> None:
    zci = pytest.importorskip("zyte_common_items")
    assert installed()
    assert is_zyte_item(zci.Article(url="http://example.com/a"))
    assert not is_zyte_item(ArticleItem(url="http://example.com/a"))
    assert not is_zyte_item({"url": "http://example.com/a"})
