"""text.py: selected lines joined into the text, pull quotes left out."""

from __future__ import annotations

from tests.extract.test_regions import PROSE, selected


def test_a_pull_quote_repeating_a_sentence_of_the_text_is_left_out() -> None:
    quoted = "The bank has stood empty for eleven years and now everyone can share it."
    aside = "The new library opens in May and will keep longer hours than the old one."
    html = (
        "<html><body><article><h1>Library moves into the old bank</h1>"
        f"<p>{PROSE[0]}</p>"
        f"<p>Councillors approved the plan on Tuesday. {quoted} The work starts soon.</p>"
        f"<blockquote class='pullquote'><p>\u201c{quoted}\u201d</p></blockquote>"
        f"<p>{PROSE[1]}</p><aside>{aside}</aside><p>{PROSE[2]} {aside}</p>"
        "<p>Advertisement</p><p>Advertisement</p>"  # short lines may repeat
        "</article></body></html>"
    )
    text = selected(html)
    assert text.count(quoted) == 1 and text.count(aside) == 1
    assert f"Tuesday. {quoted} The work" in text and f"{PROSE[2]} {aside}" in text
    assert text.count("Advertisement") == 2


def test_a_sentence_repeated_among_sibling_paragraphs_stays() -> None:
    """A refrain repeated in the body's own paragraphs is text, not a pull quote."""
    refrain = "The river keeps its own counsel and the town keeps its own."
    html = (
        f"<html><body><article><p>{PROSE[0]}</p><p>{refrain}</p>"
        f"<p>{PROSE[1]} {refrain}</p><p>{PROSE[2]}</p></article></body></html>"
    )
    assert selected(html).count(refrain) == 2
