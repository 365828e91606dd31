"""Bylines next to the headline: credits left out, marked names, labels read once."""

from __future__ import annotations

import pytest

from scrapy_cx.extract.fields._bylines import (
    _CREDIT,
    byline_authors,
    is_credit,
    unlabelled_byline,
)
from scrapy_cx.extract.parse.lines import Line

CREDITS = [
    "Photo: Ann Lee",
    "PHOTOS BY ANN LEE",
    "Foto von Max Weber",
    "Bild: dpa",
    "Credit: Ann Lee",
    "Illustration par Anne Roux",
    "Video: Reuters",
    "Spencer Platt/Getty Images",
    "Ann Lee / AFP",
    "Ann Lee via AP",
    "Shutterstock",
    "记者 何俊 摄",
    "（图/王建国）",
    "圖：中央社",
    "写真：共同",
    # Characters the case-blind pattern takes for an ASCII letter, lower-casing not.
    "\u0130mage by Ann Lee",
    "\u0131mage: Ann Lee",
    "\u017fhutter\u017ftock",
    "Shutterstoc\u212a",
]


NOT_CREDITS = ["By Ann Lee", "Ann Lee | March 2, 2016", "Updated 3 hours ago", "记者 王燕", ""]


def test_is_credit_reads_as_the_credit_pattern() -> None:
    for text in CREDITS:
        assert is_credit(text), text
        assert _CREDIT.search(text), text
    for text in NOT_CREDITS:
        assert not is_credit(text) and not _CREDIT.search(text), text


def _lines(*texts: str, tag: str = "div") -> list[Line]:
    return [Line(text, len("".join(text.split())), 0, tag, False) for text in texts]


@pytest.mark.parametrize(
    ("texts", "marks", "headline", "expected"),
    [
        (("Night buses approved", "Gina TrapaniCEO", "March 2, 2016"), ["Gina Trapani"], 0, 1),
        (("Night buses approved", "Dan Goodin - Apr 16, 2015"), [], 0, 1),
        (("Night buses approved", "Dan Goodin - Apr 16, 2015"), [], None, 0),  # no headline
        (("Night buses approved", "Photo: Gina Trapani"), ["Gina Trapani"], 0, 0),
        (("Night buses approved", "By", "the river"), ["Ann Lee"], 0, 0),
        (("Night buses approved", "Spencer Platt/Getty", "Ann Lee, 2016"), ["Ann Lee"], 0, 1),
    ],
)
def test_unlabelled_byline_reads_as_byline_authors_after_no_label(
    texts: tuple[str, ...], marks: list[str], headline: int | None, expected: int
) -> None:
    lines = _lines(*texts)
    assert byline_authors(lines, headline, 1, None, bare=False) == []  # no label
    names = unlabelled_byline(lines, headline, 1, marks)
    assert names == byline_authors(lines, headline, 1, marks)
    assert len(names) == expected
    # In a caption, a marked name is a credit too.
    captions = [lines[0], *_lines(*texts[1:], tag="figcaption")]
    assert unlabelled_byline(captions, headline, 1, marks) == []
    assert byline_authors(captions, headline, 1, marks) == []

