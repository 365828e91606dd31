"""The scoring functions on strings we write, with figures worked out by hand."""

from __future__ import annotations

import pytest

from benchmarks.metrics import (
    Overlap,
    aggregate,
    calendar_day,
    char_tokens,
    normalize_title,
    overlap,
    score_dates,
    shingles,
    title_exact,
    title_lenient,
    word_tokens,
)

# --- tokens and grams -------------------------------------------------------------------------


def test_word_tokens_drop_punctuation_and_keep_case() -> None:
    assert word_tokens("Hello, World! It's 2019-11-19.") == [
        "Hello",
        "World",
        "It",
        "s",
        "2019",
        "11",
        "19",
    ]


def test_word_tokens_are_unicode_and_a_chinese_run_is_one_token() -> None:
    assert word_tokens("Zürich café") == ["Zürich", "café"]
    assert word_tokens("我是怎样卷入的，后来") == ["我是怎样卷入的", "后来"]


def test_char_tokens_drop_only_whitespace() -> None:
    assert char_tokens("我 是\n，a\tb") == ["我", "是", "，", "a", "b"]
    assert char_tokens(None) == []


def test_shingles_are_4_grams_with_multiplicity() -> None:
    grams = shingles("a b c d a b c d".split())
    assert sum(grams.values()) == 5
    assert grams[("a", "b", "c", "d")] == 2
    assert grams[("b", "c", "d", "a")] == 1


def test_short_text_is_one_shorter_gram_and_empty_is_none() -> None:
    assert shingles(["a", "b", "c"]) == {("a", "b", "c"): 1}
    assert shingles(["a"]) == {("a",): 1}
    assert shingles([]) == {}


# --- one page ---------------------------------------------------------------------------------


def test_identical_texts_score_one_whatever_the_spacing_and_punctuation() -> None:
    page = overlap("One two three four five.", "One  two, three\nfour five")
    assert (page.tp, page.fp, page.fn) == (2, 0, 0)
    assert page.precision == page.recall == page.f1 == 1.0


def test_case_is_kept() -> None:
    page = overlap("one two three four", "One two three four")
    assert (page.tp, page.fp, page.fn) == (0, 1, 1)
    assert page.f1 == 0.0


def test_extra_boilerplate_costs_precision_not_recall() -> None:
    # truth: 6 tokens -> 3 grams; prediction adds 2 tokens at the end -> 5 grams, 3 shared.
    page = overlap("a b c d e f menu login", "a b c d e f")
    assert (page.tp, page.fp, page.fn) == (3, 2, 0)
    assert page.precision == pytest.approx(3 / 5)
    assert page.recall == 1.0
    assert page.f1 == pytest.approx(2 * 0.6 / 1.6)


def test_multiset_counts_a_repeated_gram_only_as_often_as_the_truth_has_it() -> None:
    page = overlap("a b c d a b c d", "a b c d")
    assert (page.tp, page.fp, page.fn) == (1, 4, 0)


def test_empty_prediction_has_no_precision_and_zero_recall() -> None:
    page = overlap("", "a b c d e")
    assert page.precision is None
    assert page.recall == 0.0
    assert page.f1 == 0.0


def test_empty_truth_has_no_recall() -> None:
    page = overlap("a b c d", "")
    assert page.recall is None
    assert page.precision == 0.0


def test_char_level_sees_inside_chinese_runs() -> None:
    truth = "今天天气很好我们去公园"
    ours = "今天天气很好我们去公园散步"  # two extra characters at the end
    assert overlap(ours, truth, "word").f1 == 0.0  # one differing \w+ token: nothing shared
    page = overlap(ours, truth, "char")
    # truth: 11 chars -> 8 grams, ours: 13 chars -> 10 grams, all 8 of truth shared.
    assert (page.tp, page.fp, page.fn) == (8, 2, 0)


def test_unknown_level_is_an_error() -> None:
    with pytest.raises(ValueError):
        overlap("a", "a", "line")


# --- a set ------------------------------------------------------------------------------------


def test_aggregate_is_f1_of_the_means_with_the_aeb_exclusions() -> None:
    pages = [
        Overlap(tp=1, fp=1, fn=0),  # P 0.5, R 1
        Overlap(tp=3, fp=0, fn=1),  # P 1, R 0.75
        Overlap(tp=0, fp=0, fn=4),  # empty output: R 0, left out of P
        Overlap(tp=0, fp=2, fn=0),  # empty truth: P 0, left out of R
    ]
    result = aggregate(pages)
    assert result.precision == pytest.approx((0.5 + 1 + 0) / 3)
    assert result.recall == pytest.approx((1 + 0.75 + 0) / 3)
    p, r = result.precision, result.recall
    assert result.f1 == pytest.approx(2 * p * r / (p + r))
    # Not the mean of per-page F1.
    assert result.f1 != pytest.approx(sum(o.f1 for o in pages) / len(pages))
    assert (result.n_precision, result.n_recall) == (3, 3)


def test_aggregate_of_nothing_is_zero() -> None:
    result = aggregate([])
    assert (result.precision, result.recall, result.f1) == (0.0, 0.0, 0.0)


# --- titles -----------------------------------------------------------------------------------


def test_title_normalization_nfkc_whitespace_casefold() -> None:
    assert normalize_title("  Ｈｅｌｌｏ\u00a0  WORLD\n") == "hello world"
    assert normalize_title("Straße") == "strasse"
    assert normalize_title(None) == ""


def test_title_exact() -> None:
    assert title_exact("Big  News Today", "big news today")
    assert not title_exact("Big News Today - Site", "Big News Today")
    assert not title_exact(None, "Big News")
    assert not title_exact("", "")


def test_title_lenient_needs_containment_and_80_percent() -> None:
    truth = "abcdefghij"  # 10 chars
    assert title_lenient("abcdefgh", truth)  # contained, 8/10
    assert not title_lenient("abcdefg", truth)  # contained, 7/10
    assert title_lenient("abcdefghij!!", truth)  # truth inside ours, 10/12
    assert not title_lenient("abcdefghij - The Site", truth)  # 10/21
    assert not title_lenient("abcdefgxyz", truth)  # same length, not contained
    assert title_lenient("ABCDEFGHIJ", truth)  # exact implies lenient
    assert not title_lenient(None, truth)


# --- dates ------------------------------------------------------------------------------------


def test_calendar_day_reads_iso_dates_and_datetimes() -> None:
    assert calendar_day("2019-11-19") == "2019-11-19"
    assert calendar_day("2019-11-19T23:30:00-05:00") == "2019-11-19"
    assert calendar_day(" 2019-11-19 10:00") == "2019-11-19"
    assert calendar_day("19 November 2019") is None
    assert calendar_day(None) is None


def test_score_dates_accuracy_coverage_precision() -> None:
    pairs = [
        ("2020-01-02", "2020-01-02"),  # right
        ("2020-01-03T08:00:00+08:00", "2020-01-03"),  # right (datetime)
        ("2020-01-05", "2020-01-04"),  # wrong day
        (None, "2020-01-06"),  # no date given
        ("2020-01-07", None),  # given, no truth: coverage only
        (None, None),
    ]
    score = score_dates(pairs)
    assert (score.n_truth, score.n_given, score.n_right) == (4, 4, 2)
    assert score.accuracy == pytest.approx(2 / 4)
    assert score.coverage == pytest.approx(4 / 6)
    assert score.precision == pytest.approx(2 / 3)


def test_score_dates_without_truth_or_pages() -> None:
    assert score_dates([]).accuracy == 0.0
    score = score_dates([(None, "2020-01-01")])
    assert (score.accuracy, score.coverage, score.precision) == (0.0, 0.0, 0.0)
