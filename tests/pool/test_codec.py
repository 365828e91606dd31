"""The compact record a worker's result crosses back in: every field, any field added."""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from operator import attrgetter
from typing import Any

import pytest

from scrapy_cx import Article, extract_article
from scrapy_cx.article import FORMATS
from scrapy_cx.pool import _codec, call_packed, call_prepared, pack, prepare_call, unpack
from scrapy_cx.verdict import article_reason
from tests.sample_pages import structured_html


def sample(hint: Any, name: str) -> Any:
    """A value of type ``hint`` that is no field's default (text with a non-ASCII
    character and a lone surrogate, which UTF-8 alone would refuse)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)), name)
    if hint is str:
        return f"{name} é 新 \ud800"
    if hint is bool:
        return True
    if hint is int:
        return 7
    if hint is float:
        return 0.625
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (sample(args[0], name), sample(args[0], name + "2"))
        return tuple(sample(a, f"{name}{i}") for i, a in enumerate(args))
    if origin is list:
        return [sample(args[0], name)]
    if origin is dict:
        return {sample(args[0], name): sample(args[1], name)}
    if dataclasses.is_dataclass(hint):
        return instance(hint)
    raise AssertionError(f"no sample for {name}: {hint!r} (teach sample() this type)")


def instance(cls: Any) -> Any:
    """``cls`` with every field set to a sample of its type."""
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: sample(hints[f.name], f.name) for f in dataclasses.fields(cls)})


@dataclass(frozen=True, slots=True)
class WiderArticle(Article):
    """Article with fields it does not have (yet): they must travel with no change to
    the codec, as a field added to Article would."""

    pages: tuple[str, ...] = ()
    next_page: str | None = None
    article_links: tuple[tuple[str, str], ...] = ()
    article_probability: float | None = None


@pytest.mark.parametrize("cls", [Article, WiderArticle])
def test_every_field_of_the_article_round_trips_the_fast_way(cls: Any) -> None:
    article = instance(cls)
    record = pack(article)
    assert record[:1] == b"M"  # marshal, not the pickle fallback
    back = unpack(record)
    assert type(back) is cls and back == article
    for field in dataclasses.fields(cls):
        value, got = getattr(article, field.name), getattr(back, field.name)
        assert got == value and type(got) is type(value), field.name
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            assert [type(v) for v in got] == [type(v) for v in value], field.name


def test_a_real_article_with_every_format_round_trips() -> None:
    article = extract_article(structured_html(), "http://news.test/a", formats=FORMATS)
    assert article.images and article.content_html and article.content_markdown
    assert unpack(pack(article)) == article


def test_the_default_article_and_odd_values_round_trip() -> None:
    values = [
        Article(),
        (..., "a tuple that starts like a dataclass"),
        ((...,), [(..., None)], {"k": (..., 1)}),
        frozenset({"a", "b"}),
        {"nested": [1, 2.5, None, b"bytes", ("t",)]},
    ]
    for value in values:
        record = pack(value)
        assert record[:1] in (b"M", b"m")  # marshal: with marks to rebuild, or none
        assert unpack(record) == value
    assert [pack(value)[:1] for value in values] == [b"M", b"M", b"M", b"m", b"m"]


def test_plain_values_come_back_as_marshal_reads_them() -> None:
    fields = Article(title="T", authors=("A",), images=()).to_dict()
    record = pack((fields, None, {"content": (b"x", b"y")}))
    assert record[:1] == b"m" and unpack(record) == (fields, None, {"content": (b"x", b"y")})
    assert pack([Article()])[:1] == pack((0, (..., 1)))[:1] == b"M"  # after a plain one too


def test_a_value_marshal_cannot_hold_makes_the_record_a_pickle() -> None:
    value = (Article(title="x"), datetime(2024, 3, 1, tzinfo=timezone.utc))
    record = pack(value)
    assert record[:1] == b"P"
    assert unpack(record) == value


@dataclass(frozen=True)
class Counted:
    """A dataclass whose ``__post_init__`` must not run again when it is rebuilt."""

    name: str
    runs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "runs", (*self.runs, "post_init"))


def test_a_rebuilt_dataclass_is_what_was_sent_as_pickle_would_rebuild_it() -> None:
    back = unpack(pack(Article(title="t", authors=("a",))))
    assert back.authors == ("a",) and type(back.authors) is tuple
    sent = Counted("x")
    assert sent.runs == ("post_init",)
    assert unpack(pack(sent)) == sent  # not ("post_init", "post_init")


def test_call_packed_runs_the_function_and_the_judge_in_one_record() -> None:
    judge = partial(article_reason, 10, False, ("article",), 0.5)
    record = call_packed(Article, (), {"title": "T", "content": "x" * 50}, judge)
    article, verdict, prepared = unpack(record)
    assert article == Article(title="T", content="x" * 50) and verdict is None and prepared is None
    _, verdict, _ = unpack(call_packed(Article, (), {"title": "T"}, judge))
    assert verdict == "no_content"
    unsure = {"title": "T", "content": "x" * 50, "article_probability": 0.2}
    _, verdict, _ = unpack(call_packed(Article, (), unsure, judge))
    assert verdict == "low_probability"  # CX_MIN_ARTICLE_PROBABILITY holds in the worker too
    assert unpack(call_packed(len, ("abc",), {})) == (3, None, None)
    assert unpack(call_packed(len, ("abc",), {}, None, str)) == (3, None, "3")


def test_a_prepared_call_runs_with_each_tasks_own_arguments_over_the_fixed_ones() -> None:
    judge = partial(article_reason, 10, False, ("article",), 0.5)
    call = prepare_call(
        Article, {"title": "fixed", "content": "x" * 50}, judge, attrgetter("title")
    )
    article, verdict, prepared = unpack(call_prepared(call, "http://a/", title="own"))
    assert article == Article(url="http://a/", title="own", content="x" * 50)
    assert verdict is None and prepared == "own"
    article, verdict, prepared = unpack(call_prepared(call, "http://b/", content=""))
    assert (article.url, article.title, verdict, prepared) == (
        "http://b/",
        "fixed",
        "no_content",
        "fixed",
    )
    hits = _codec.loads_once.cache_info().hits
    call_prepared(call, "http://c/")
    assert _codec.loads_once.cache_info().hits == hits + 1  # unpickled once per worker


def test_classes_are_looked_up_once() -> None:
    unpack(pack(Article()))
    path = f"{Article.__module__}:{Article.__qualname__}"
    assert _codec._classes[path][0] is Article
