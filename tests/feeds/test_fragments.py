"""The worker's JSON of long strings, and what the crawl's process holds of it."""

from __future__ import annotations

import json

import pytest

from scrapy_cx import Article
from scrapy_cx.feeds import _fragments, forget, fragments, offer
from scrapy_cx.feeds._fragments import LONG, offered, written


def test_only_long_strings_get_fragments_in_the_forms_asked_for() -> None:
    text = "é" * LONG
    article = Article(title="short", content=text, content_html="x" * (LONG - 1))
    made = fragments(article, (False,))
    assert list(made) == ["content"]
    assert made["content"] == (json.dumps(text, ensure_ascii=False).encode(), None)
    both = fragments(article, (False, True))["content"]
    assert both[1] == json.dumps(text).encode()
    assert fragments(article, ()) == {}


def test_an_ascii_text_has_one_fragment_for_both_forms_but_not_with_a_del() -> None:
    plain = fragments(Article(content="a" * LONG), (False, True))["content"]
    assert plain[0] is plain[1]
    with_del = fragments(Article(content="a" * LONG + "\x7f"), (False, True))["content"]
    assert with_del[0] != with_del[1] and with_del[1].endswith(b'\\u007f"')  # json escapes it


def test_a_fragment_is_written_only_for_the_very_same_string() -> None:
    text = "word " * 200
    offer(text, b'"plain"', b'"ascii"')
    equal = "".join(list(text))
    assert equal == text and equal is not text
    assert written(equal, False) is None
    assert written(text, True) == b'"ascii"' and written(text, False) == b'"plain"'
    _fragments.writer_opened()  # one exporter open: a written fragment is let go
    assert written(text, False) == b'"plain"' and offered() == 0
    _fragments.writer_closed()


def test_offers_are_bounded_in_count_and_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fragments, "MAX_OFFERED", 3)
    texts = [f"{i} " * 300 for i in range(5)]
    for text in texts:
        offer(text, text.encode(), None)
    assert offered() == 3 and written(texts[0], False) is None  # the oldest went
    assert written(texts[-1], False) == texts[-1].encode()
    monkeypatch.setattr(_fragments, "MAX_OFFERED_BYTES", 2 * len(texts[0]) * 2)
    offer(texts[0], texts[0].encode(), None)
    assert offered() == 2 and _fragments._offered_bytes <= _fragments.MAX_OFFERED_BYTES


def test_a_dropped_items_strings_are_forgotten() -> None:
    text = "gone " * 200
    offer(text, b"x", None)
    forget([None, 3, "other", text])
    assert offered() == 0 and _fragments._offered_bytes == 0
