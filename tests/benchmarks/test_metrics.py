"""The scoring functions on strings we write, with figures worked out by hand."""

from __future__ import annotations

import pytest

from benchmarks.metrics import (
    PAGE_CLASSES,
    Overlap,
    aggregate,
    authors_exact,
    authors_precise,
    calendar_day,
    char_tokens,
    day_within,
    first_author,
    image_key,
    image_match,
    macro_f1,
    normalize_name,
    normalize_title,
    overlap,
    page_class,
    per_class_f1,
    score_dates,
    score_snippets,
    shingles,
    snippet_key,
    snippets_found,
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


# --- snippets ---------------------------------------------------------------------------------


def test_snippets_are_found_whatever_the_whitespace() -> None:
    assert snippet_key(" T he  Smith\u00a0sonian\n") == "TheSmithsonian"
    assert snippet_key("ｆｕｌｌ") == "full"  # NFKC: full-width letters
    text = "The first post.\n\nA reply   with\tspaces.\nT he glued one"
    musts = ["first post.", "A reply with spaces.", "The glued one", "missing line", "  "]
    # the last snippet is blank: it cannot be checked, so it is never found
    assert snippets_found(text, musts) == 3
    assert snippets_found("", musts) == 0
    assert snippets_found(None, ["x"]) == 0


def test_snippet_shares_pool_snippets_not_pages() -> None:
    # page 1: 3 of 4 must-have found, 1 of 2 must-not present; page 2: 0 of 1, no must-not.
    score = score_snippets([(3, 4, 1, 2), (0, 1, 0, 0)])
    assert score.with_found == pytest.approx(3 / 5)
    assert score.without_absent == pytest.approx(1 / 2)
    assert (score.n_with, score.n_without) == (5, 2)
    none = score_snippets([(0, 0, 0, 0)])
    assert (none.with_found, none.without_absent) == (None, None)


# --- authors, image, dates within a day -------------------------------------------------------


def test_names_lose_labels_mail_urls_and_case() -> None:
    assert normalize_name("著者：後藤大地") == "後藤大地"
    assert normalize_name("Mike Cason | mcason@al.com") == "mike cason"
    assert normalize_name("  Jane   DOE ") == "jane doe"
    assert normalize_name("https://getnews.jp/author/neol") == ""
    assert normalize_name(None) == ""


def test_author_lists_are_exact_as_sets_and_first_author_in_order() -> None:
    truth = ["Ann Lee", "Bob Ray"]
    assert authors_exact(["bob ray", "ANN LEE"], truth) is True  # order ignored
    assert authors_exact(["Ann Lee"], truth) is False  # one missing
    assert authors_exact(["Ann Lee", "Bob Ray", "Staff"], truth) is False  # one extra
    assert authors_exact([], truth) is False
    assert authors_exact(["Ann Lee"], None) is None  # no truth: not scored
    assert authors_exact(["Ann Lee"], ["https://x.example/author/a"]) is None
    assert first_author(["ann lee", "Someone"], truth) is True
    assert first_author(["Bob Ray", "Ann Lee"], truth) is False
    assert first_author((), truth) is False
    assert first_author(["x"], []) is None


def test_images_match_without_query_fragment_or_scheme() -> None:
    truth = "https://cdn.Example.com/a/b.jpg?w=1200&h=630"
    assert image_key(truth) == "cdn.example.com/a/b.jpg"
    assert image_match("http://cdn.example.com/a/b.jpg", truth)
    assert image_match("//cdn.example.com/a/b.jpg#top", truth)
    assert not image_match("https://cdn.example.com/a/c.jpg", truth)
    assert not image_match("https://cdn.example.com/A/b.jpg", truth)  # paths keep case
    assert not image_match(None, truth) and not image_match("", "")


def test_day_within_one_day_either_side() -> None:
    truth = "2016-09-19"
    assert day_within("2016-09-19T23:00:00-05:00", truth)
    assert day_within("2016-09-18", truth) and day_within("2016-09-20T01:00", truth)
    assert not day_within("2016-09-21", truth)
    assert day_within("2017-01-01", "2016-12-31")  # across a year end
    assert not day_within(None, truth) and not day_within("2016-09-19", None)


# --- page types -------------------------------------------------------------------------------


def test_truth_page_types_map_to_four_classes() -> None:
    assert [page_class(t) for t in ("article", "blog", "forum", "listing", "collection")] == [
        "article",
        "article",
        "thread",
        "listing",
        "listing",
    ]
    assert {page_class(t) for t in ("product", "service", "documentation")} == {"other"}
    assert page_class(None) is None and page_class("weird") is None
    assert PAGE_CLASSES == ("article", "thread", "listing", "other")


def test_macro_f1_by_hand() -> None:
    pairs = [
        ("article", "article"),
        ("article", "article"),
        ("article", "thread"),  # article fp, thread fn
        ("thread", "thread"),
        (None, "listing"),  # no prediction: listing fn only
    ]
    # article 2*2/(4+1+0)=0.8; thread 2/(2+0+1)=2/3; listing 0/(0+0+1)=0; other: absent.
    assert macro_f1(pairs, PAGE_CLASSES) == pytest.approx((0.8 + 2 / 3 + 0) / 3)
    assert macro_f1([("a", "a")], PAGE_CLASSES) == 0.0  # only unknown classes: nothing right
    assert macro_f1([], PAGE_CLASSES) is None
    assert per_class_f1(pairs, PAGE_CLASSES) == {
        "article": pytest.approx(0.8),
        "thread": pytest.approx(2 / 3),
        "listing": 0.0,
        "other": None,  # neither true nor predicted
    }
    assert page_class("other") == "other"  # an audited page of none of wceb_dev's kinds


def test_authors_precise_every_name_given_is_the_labels() -> None:
    assert authors_precise(["ann lee"], ["Ann Lee", "Bo Chen"]) is True  # fewer: still precise
    assert authors_precise(["Ann Lee", "Staff"], ["Ann Lee"]) is False
    assert authors_precise([], ["Ann Lee"]) is None  # nothing given: not counted
    assert authors_precise(["Ann Lee"], None) is None  # no label


def test_a_one_string_author_label_is_split_as_the_bench_says() -> None:
    from benchmarks.datasets import _author_label

    assert _author_label("Anna Berg und Jonas Keller") == ("Anna Berg", "Jonas Keller")
    assert _author_label("red, wien.ORF.at/Agenturen") == ("red", "wien.ORF.at", "Agenturen")
    assert _author_label("A & B; C and D") == ("A", "B", "C", "D")
    assert _author_label(["Ann Lee", "Bo Chen"]) == ("Ann Lee", "Bo Chen")
    assert _author_label("  ") is None
