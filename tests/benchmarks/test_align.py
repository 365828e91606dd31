"""The aligner that labels the walk's lines from a set's truth (benchmarks/align.py)."""

from __future__ import annotations

import pytest

from benchmarks.align import (
    MAIN,
    OTHER,
    UNKNOWN,
    Truth,
    label_by_snippets,
    label_by_text,
    label_lines,
    score_set,
    tokens,
    word_f1,
)

ARTICLE = [
    "Home | News | Sport | Weather",
    "Council approves the new riverside park after a long debate",
    "The city council voted on Tuesday to turn the old docks into a park.",
    "Share",
    "Work starts in spring & should finish within two years, officials said.",
    "Related: Ten things to do this weekend in town",
    "Copyright 2024 The Daily Example",
]
TRUTH = (
    "Council approves the new riverside park after a long debate\n\n"
    "The city council   voted on Tuesday to turn the old docks into a park. "
    "Work starts in spring &amp; should finish within two years, officials said."
)


def test_tokens_fold_case_width_and_split_cjk() -> None:
    assert tokens("Ｔｈｅ Park, PARK!") == ["the", "park", "park"]
    assert tokens("北京欢迎你 2024年") == ["北", "京", "欢", "迎", "你", "2024", "年"]


def test_text_labels_mark_the_article_lines_only() -> None:
    labels = label_by_text(ARTICLE, TRUTH)
    assert labels == [OTHER, MAIN, MAIN, OTHER, MAIN, OTHER, OTHER]


def test_text_labels_survive_reordered_and_respaced_truth() -> None:
    paragraphs = TRUTH.split("\n\n")
    reordered = "\n".join(reversed(paragraphs)).replace(" ", "  ")
    assert label_by_text(ARTICLE, reordered) == label_by_text(ARTICLE, TRUTH)


def test_a_line_sharing_a_few_words_with_the_truth_is_not_main() -> None:
    lines = ["Read more about the city council and its parks here today"]
    assert label_by_text(lines, TRUTH) == [OTHER]


def test_a_short_line_is_main_only_beside_main_text() -> None:
    truth = "Chapter one\nIt was a bright cold day in April, and the clocks struck thirteen."
    lines = [
        "Chapter one",
        "It was a bright cold day in April, and the clocks struck thirteen.",
        "Menu of the site with many links",
        "April",
    ]
    assert label_by_text(lines, truth) == [MAIN, MAIN, OTHER, OTHER]


def test_chinese_lines_are_labelled_by_character_trigrams() -> None:
    truth = "北京市今天发布了新的公园建设计划。市民可以在明年春天参观。"
    lines = [
        "首页 新闻 体育",
        "北京市今天发布了新的公园建设计划。",
        "市民可以在明年春天参观。",
        "版权所有",
    ]
    assert label_by_text(lines, truth) == [OTHER, MAIN, MAIN, OTHER]


def test_snippet_labels_are_partial() -> None:
    lines = ["Top stories", "The mayor said the park opens in May.", "Subscribe now", "Other"]
    labels = label_by_snippets(lines, ["park opens in May"], ["Subscribe now"])
    assert labels == [UNKNOWN, MAIN, OTHER, UNKNOWN]


def test_a_snippet_over_two_lines_labels_both_but_not_a_tiny_line() -> None:
    lines = ["The long heading of the story", "and its first paragraph goes on.", "story"]
    snippet = "The long heading of the story and its first paragraph goes on."
    assert label_by_snippets(lines, [snippet], []) == [MAIN, MAIN, UNKNOWN]


def test_label_lines_uses_the_whole_text_before_snippets() -> None:
    assert label_lines(ARTICLE, TRUTH, ["Copyright 2024"], []) == label_by_text(ARTICLE, TRUTH)
    assert label_lines(ARTICLE, None, ["Copyright 2024"], [])[-1] == MAIN


def test_word_f1() -> None:
    assert word_f1("the park the", "The park") == pytest.approx(0.8)
    assert word_f1("", "a park") == 0.0


def test_score_set_uses_the_sets_metric() -> None:
    truths = [
        Truth("one two three four five", page_type="article"),
        Truth("six seven", page_type="forum"),
    ]
    wcxb = score_set("wcxb_dev", truths, ["one two three four five", ""])
    assert wcxb == {"main": 0.5, "type:article": 1.0, "type:forum": 0.0}
    snips = score_set(
        "trafilatura_dev", [Truth(None, ("two three",), ("nine",))], ["one two three"]
    )
    assert snips == {"main": 1.0, "found": 1.0, "absent": 1.0}
    aeb = score_set("aeb", truths, ["one two three four five", "six seven"])
    assert aeb["main"] == pytest.approx(1.0)
