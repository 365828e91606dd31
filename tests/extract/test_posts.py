"""posts.py: the search that leaves out class strings naming no post unit; post units."""

from __future__ import annotations

from scrapy_cx.extract import extract_page
from scrapy_cx.extract.posts import POST_UNIT_WORDS, PostUnits, _unit_key, post_units, unit_names
from tests.extract.test_pagetype import SAYINGS, news_item

NAMES = [
    None,
    "",
    "message message--post js-post",
    "postBody",
    "POST_WRAPPER",
    "comment-123",
    "comments\nlist",  # a newline inside a class attribute ("comments" is no unit word)
    "nav main-menu",
    "article-body",
    "answer",
    "reply-link",
    "repl y",
    "Ünïcode-comment",  # not ASCII: the slower road
    "İnfo post",  # lower() lengthens "İ"
    "compost-heap",  # spells a word, names no unit: kept by the search, keyed None
    "nav main-menu",
]


def _spells_a_word(name: str) -> bool:
    return any(word in name.lower() for word in POST_UNIT_WORDS)


def test_unit_names_are_the_distinct_names_spelling_a_post_word() -> None:
    expected = {name for name in NAMES if name and _spells_a_word(name)}
    assert unit_names(NAMES) == expected
    ascii_only = [name for name in NAMES if name is None or name.isascii()]
    assert unit_names(ascii_only) == {name for name in expected if name.isascii()}


def test_unit_names_keep_every_name_a_unit_key_keys() -> None:
    keyed = {name for name in NAMES if name and _unit_key(name) is not None}
    assert keyed <= unit_names(NAMES)
    assert keyed == {"message message--post js-post", "postBody", "POST_WRAPPER",
                     "comment-123", "answer", "reply-link",
                     "Ünïcode-comment", "İnfo post"}  # fmt: skip


def test_no_name_spelling_a_post_word_gives_nothing() -> None:
    assert unit_names([None, "nav", "article-body", "footer"]) == set()
    assert unit_names([]) == set()


def test_post_units_read_once_give_both_readings_in_either_order() -> None:
    """Hacker News's layout: each reply's dated header is the element above it, so
    only the reading that takes the line above finds the units."""
    page = extract_page(news_item([SAYINGS[i % len(SAYINGS)] for i in range(15)]))
    below, above = post_units(page), post_units(page, above=True)
    assert below == [] and len(above) == 15
    for order in ((False, True), (True, False)):
        units = PostUnits(page)
        assert {reading: units.units(above=reading) for reading in order} == {
            False: below,
            True: above,
        }
