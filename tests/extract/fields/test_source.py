"""The source: the agency or outlet a page names, never one of its authors."""

from __future__ import annotations

from scrapy_cx import extract_article
from scrapy_cx.extract.fields._source import _AGENCY_IN_TEXT, _agency_in
from tests.extract.prose import PARAGRAPHS, ZH_PARAGRAPHS


def source_of(byline: str, head: str = "", paragraphs: str = ZH_PARAGRAPHS) -> str | None:
    html = (
        f"<html><head><title>夜间公交获批</title>{head}</head><body><h1>夜间公交获批</h1>"
        f"{byline}{paragraphs}</body></html>"
    )
    return extract_article(html).source


def test_source_is_the_agency_or_outlet_named() -> None:
    assert source_of("<p>2016-03-02 10:20 来源：新华社 编辑：张丽</p>") == "新华社"
    assert source_of("<p>来源：本站原创</p>") is None
    en = "<p>LONDON (Reuters) - The city council voted on Tuesday to extend night buses.</p>"
    assert source_of("", paragraphs=en + PARAGRAPHS) == "Reuters"
    article = extract_article(
        "<html><head><meta name='author' content='Reuters'></head><body>"
        "<h1>Night buses approved</h1>" + PARAGRAPHS + "</body></html>"
    )
    assert article.source == "Reuters" and article.authors == ()
    # An agency among a byline's fields, after the name.
    fields = "<p>Saibal Dasgupta / TNN / Updated: Mar 2, 2016</p>"
    assert source_of("", paragraphs=fields + PARAGRAPHS) == "TNN"


def test_an_agency_is_found_from_the_first_character_it_may_start_with() -> None:
    for text in (
        "LONDON (Reuters) - The council voted.",
        "The council (in session) voted (AP).",
        "本报讯 据新华社报道",
        "中央 中新社",
        "(no agency here)",
        "",
    ):
        expected = _AGENCY_IN_TEXT.search(text)
        found = _agency_in(text)
        assert (found and found.span()) == (expected and expected.span()), text
    assert _agency_in("The council (in session) voted (AP).").group("en") == "AP"

