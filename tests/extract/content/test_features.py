"""The labeller's line features (content/_features.py): one row per line, the
neighbours' values beside it, every value as the trees were trained on."""

from __future__ import annotations

from array import array

from scrapy_cx.extract import extract_page
from scrapy_cx.extract.content._features import (
    MATRIX_NAMES,
    NAMES,
    inside,
    line_matrix,
    page_features,
)

from .test_learned import listing_page


def test_features_are_one_row_per_line_and_the_matrix_adds_neighbours() -> None:
    page = extract_page(listing_page(), "https://gazette.example/harbour", learned=False)
    rows = page_features(page)
    assert len(rows) == len(page.lines) and all(len(r) == len(NAMES) for r in rows)
    matrix = list(line_matrix(rows))
    assert all(len(r) == len(MATRIX_NAMES) for r in matrix)
    first = MATRIX_NAMES.index("log_len@-1")
    assert matrix[0][first] == -1.0  # no line before the first
    assert matrix[1][first] == matrix[0][NAMES.index("log_len")]
    window = MATRIX_NAMES.index("log_len@window")
    first_six = [r[NAMES.index("log_len")] for r in matrix[:6]]
    assert matrix[0][window] == array("f", [sum(first_six) / 6]).tolist()[0]


def test_every_value_is_a_32_bit_float_and_the_rules_choice_is_a_feature() -> None:
    page = extract_page(listing_page(), "https://gazette.example/harbour", learned=False)
    matrix = list(line_matrix(page_features(page)))
    assert all(array("f", row).tolist() == row for row in matrix)
    rules = NAMES.index("rules")
    chosen = {id(line) for line in page.selection.body}
    assert [row[rules] for row in matrix] == [float(id(line) in chosen) for line in page.lines]


def test_every_feature_is_rounded_to_four_places_as_the_training_records() -> None:
    page = extract_page(listing_page(), "https://gazette.example/harbour", learned=False)
    rows = page_features(page)
    assert all(round(value, 4) == value for row in rows for value in row)
    share = NAMES.index("block_share")
    assert any(0 < row[share] < 1 for row in rows)  # not only whole numbers


def test_inside_marks_each_ranges_lines_clipped_to_the_page() -> None:
    assert inside([(1, 3), (-2, 1), (4, 9)], 6) == [True, True, True, False, True, True]
    assert inside([], 2) == [False, False]
