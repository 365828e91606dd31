"""posts.py: the search that leaves out class strings naming no post unit."""

from __future__ import annotations

from scrapy_cx.extract.posts import POST_UNIT_WORDS, _unit_key, unit_names

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
