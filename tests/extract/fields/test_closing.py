"""Bylines after the text: a closing line and the author's box."""

from __future__ import annotations

import pytest

from scrapy_cx.extract.fields._closing import TAIL_SCAN, tail_authors
from tests.extract.fields.test_authors import DE_PARAGRAPHS, _meta, authors
from tests.extract.fields.test_bylines import _lines
from tests.extract.prose import PARAGRAPHS, ZH_PARAGRAPHS


def test_byline_closing_the_text() -> None:
    zh = ZH_PARAGRAPHS + "<p>（记者 王燕 通讯员 李强）</p>"
    assert authors("", paragraphs=zh) == ("王燕", "李强")
    de = DE_PARAGRAPHS + "<p>Text: Anna Berg</p>"
    assert authors("", paragraphs=de) == ("Anna Berg",)
    # A last paragraph opening with "By" is a sentence, not a byline.
    en = PARAGRAPHS + "<p>By now, you know how the night buses are paid for!</p>"
    assert authors("", paragraphs=en) == ()


def _after_text(box: str, head: str = "") -> tuple[str, ...]:
    return authors("", head, PARAGRAPHS + box + "<ul><li>Home</li><li>Contact</li></ul>")


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        ("<h3>Written by Cassidy Horton</h3><p>Cassidy writes on money.</p>", ("Cassidy Horton",)),
        (
            "<div>This post was written by Ann Lee, Head of Marketing and Community</div>",
            ("Ann Lee",),
        ),
        ("<div>Posted On: January 14 2026</div><div>By: Ray Ansari</div>", ("Ray Ansari",)),
        ("<h3>Nawaz Dhandala</h3><div>Author</div>", ("Nawaz Dhandala",)),
        ("<h3>Alban Brooke</h3><p>Alban Brooke is the head of sales.</p>", ("Alban Brooke",)),
        ("<h3>Stefan</h3><p>Stefan is the founder of the shop.</p>", ("Stefan",)),
    ],
)
def test_the_authors_box_after_the_text(box: str, expected: tuple[str, ...]) -> None:
    assert _after_text(box) == expected


def test_a_heading_over_a_paragraph_is_no_authors_box() -> None:
    assert _after_text("<h3>Copper Pipes</h3><p>Copper is among the oldest pipes.</p>") == ()
    assert _after_text("<h3>Copper Pipes</h3><p>Copper is a metal.</p>") == ()
    # one word after "About the Author" only where the page declares it its author
    assert _after_text("<h2>About the Author: Tom</h2>") == ()
    assert _after_text("<h2>About the Author: Tom</h2>", _meta("Tom")) == ("Tom",)



def test_a_closing_byline_is_read_in_the_last_lines_of_the_text_only() -> None:
    filler = ["The council met on Tuesday."] * (TAIL_SCAN + 1)
    lines = _lines("（记者 王燕）", *filler, "Text: Anna Berg")
    assert tail_authors(lines, len(lines) - 1) == ["Anna Berg"]
    assert tail_authors(lines, TAIL_SCAN) == ["王燕"]
    assert tail_authors(lines[:-1], len(lines) - 2) == []  # 王燕 is above the last lines
