"""Authors: the byline under the headline first, the metadata's names otherwise."""

from __future__ import annotations

from scrapy_cx import extract_article
from tests.extract.prose import PARAGRAPHS, ZH_PARAGRAPHS


def authors(byline: str, head: str = "", paragraphs: str = PARAGRAPHS) -> tuple[str, ...]:
    html = (
        f"<html><head><title>Night buses approved | Daily Example</title>{head}</head><body>"
        f"<nav><a href='/'>Home</a></nav><h1>Night buses approved</h1>{byline}{paragraphs}"
        "</body></html>"
    )
    return extract_article(html).authors


def test_english_byline_with_two_names_and_a_date() -> None:
    assert authors("<div>By Ann Lee and Bo Chen | March 2, 2016</div>") == ("Ann Lee", "Bo Chen")


def test_byline_beats_metadata_naming_the_site() -> None:
    head = "<meta name='author' content='Daily Example Staff'>"
    assert authors("<p>By Ann Lee, Transport Correspondent</p>", head) == ("Ann Lee",)
    assert authors("", head) == ("Daily Example Staff",)


def test_bare_name_followed_by_a_date() -> None:
    assert authors("<div>Dan Goodin - Apr 16, 2015 8:02 pm UTC</div>") == ("Dan Goodin",)
    assert authors("<address>Mike Conley</address>") == ("Mike Conley",)
    # A short line alone is a kicker or a section as often as a name.
    assert authors("<div>Breaking News</div>") == ()


def test_chinese_bylines() -> None:
    assert authors("<p>光明日报记者 王建宏 张文攀</p>", paragraphs=ZH_PARAGRAPHS) == (
        "王建宏",
        "张文攀",
    )
    byline = "<p>时间：2004年10月21日14:18 作者：郭励弘 我来说两句(0)</p>"
    assert authors(byline, paragraphs=ZH_PARAGRAPHS) == ("郭励弘",)
    # "记者从市交通局获悉" is a sentence, not a byline.
    assert authors("<p>记者从市交通局获悉</p>", paragraphs=ZH_PARAGRAPHS) == ()


def test_a_sentence_with_by_is_not_a_byline() -> None:
    line = "<p>A study by Stanford University found that night buses pay for themselves.</p>"
    assert authors(line) == ()
