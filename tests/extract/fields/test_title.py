"""The headline: <title> runs matched against the body, site-name titles, no-title pages."""

from __future__ import annotations

import sys
import time

import pytest

from scrapy_cx import extract_article
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.fields.title import (
    _MULTI_FOLD,
    _key,
    _key_length_known,
    site_from_title,
    title_spans,
)
from tests.extract.prose import EN_SENTENCES, ZH_SENTENCES, paragraphs

PARAGRAPHS = paragraphs(
    *EN_SENTENCES, "Tickets will cost the same as on day buses, and monthly passes will be valid."
)
ZH_PARAGRAPHS = paragraphs(
    *ZH_SENTENCES,
    "不少市民对此表示欢迎。在机场工作的王先生说，以前上早班只能打车，每月要多花好几百元。",
)

NAV = (
    "<nav><ul>"
    + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(8))
    + "</ul></nav>"
)


def page(head: str, body: str, lang: str = "en") -> str:
    return (
        f"<html lang='{lang}'><head><meta charset='utf-8'>{head}</head><body>{body}</body></html>"
    )


def test_title_spans_rejoin_neighbouring_parts() -> None:
    spans = title_spans("Russia: U.S.-backed forces | Daily Example")
    assert "Russia: U.S.-backed forces" in spans
    assert "U.S.-backed forces" in spans
    assert "Daily Example" in spans
    assert spans[0] == "Russia: U.S.-backed forces | Daily Example"  # longest first


def test_site_suffix_dropped_and_headline_kept_whole() -> None:
    headline = "Night buses to the airport approved: service starts in March"
    html = page(
        f"<title>{headline} | Daily Example</title>",
        f"{NAV}<h1>{headline}</h1>{PARAGRAPHS}",
    )
    assert extract_article(html).title == headline


def test_headline_containing_separators() -> None:
    headline = "Russia and Syria: U.S.-backed forces block refugee return - report"
    html = page(
        f"<title>{headline} - World - Daily Example</title>",
        f"{NAV}<div class='story'><h1>{headline}</h1>{PARAGRAPHS}</div>",
    )
    assert extract_article(html).title == headline


def test_chinese_title_with_underscore_suffix() -> None:
    html = page(
        "<title>本市开通三条机场夜间公交线路_新闻中心_示例网</title>",
        "<div><a href='/'>示例网</a> &gt; <a href='/news'>新闻中心</a></div>"
        "<div class='title'>本市开通三条机场夜间公交线路</div>"
        f"<div>发布时间：2016年03月02日 10:20</div>{ZH_PARAGRAPHS}",
        lang="zh-CN",
    )
    assert extract_article(html).title == "本市开通三条机场夜间公交线路"


def test_title_that_is_only_the_site_name() -> None:
    # Old portals put only the site name in <title>; the headline is a plain cell.
    html = page(
        "<title>示例新闻网</title>",
        "<table><tr><td><a href='/'>首页</a></td><td><a href='/n'>新闻</a></td></tr></table>"
        "<h1><a href='/'>示例新闻网</a></h1>"
        "<table><tr><td>当前位置：<a href='/'>首页</a> &gt; 新闻</td></tr>"
        "<tr><td>机场夜间公交下月开通(图)</td></tr>"
        f"<tr><td>2005-06-14 03:25:55</td></tr><tr><td>{ZH_PARAGRAPHS}</td></tr></table>",
        lang="zh",
    )
    assert extract_article(html).title == "机场夜间公交下月开通(图)"


def test_no_title_element_uses_the_heading_above_the_text() -> None:
    html = page("", f"{NAV}<h2>Night buses approved</h2>{PARAGRAPHS}")
    assert extract_article(html).title == "Night buses approved"


def test_no_title_and_no_heading_gives_none_not_a_sentence() -> None:
    assert extract_article(page("", f"{NAV}{PARAGRAPHS}")).title is None


def test_shown_headline_beats_a_different_seo_title() -> None:
    html = page(
        "<title>Airport night bus plan: what commuters need to know | Daily Example</title>",
        f"{NAV}<h1>Council approves night buses to the airport</h1>{PARAGRAPHS}",
    )
    assert extract_article(html).title == "Council approves night buses to the airport"


def test_headline_shown_on_two_lines() -> None:
    html = page(
        "<title>为现代化建设凝聚力量——热烈祝贺市政协会议开幕_示例市人民政府</title>",
        "<div>首页&gt;政务动态</div><p>为现代化建设凝聚力量</p><div>——热烈祝贺市政协会议开幕</div>"
        f"<div>2022-02-11 09:52</div>{ZH_PARAGRAPHS}",
        lang="zh",
    )
    assert extract_article(html).title == "为现代化建设凝聚力量——热烈祝贺市政协会议开幕"


def test_headline_shown_on_two_lines_the_second_a_link() -> None:
    # The second line, mostly a link, is no headline of its own but still ends the pair.
    html = page(
        "<title>为现代化建设凝聚力量——热烈祝贺市政协会议开幕_示例市人民政府</title>",
        "<div>首页&gt;政务动态</div><p>为现代化建设凝聚力量</p>"
        "<div><a href='/hui'>——热烈祝贺市政协会议开幕</a></div>"
        f"<div>2022-02-11 09:52</div>{ZH_PARAGRAPHS}",
        lang="zh",
    )
    assert extract_article(html).title == "为现代化建设凝聚力量——热烈祝贺市政协会议开幕"


def test_headline_with_a_marker_the_title_lacks() -> None:
    html = page(
        "<title>机场夜间公交下月开通 - 示例网</title>",
        f"<div>机场夜间公交下月开通(图)</div><div>2005-03-31</div>{ZH_PARAGRAPHS}",
        lang="zh",
    )
    assert extract_article(html).title == "机场夜间公交下月开通(图)"


def test_a_short_title_part_with_a_word_added_names_something_else() -> None:
    """<title> "Voyager — Plan every trip together — Example": a menu heading "Voyager Pro"
    shows the short part "Voyager" with a word added, another product, not the page's
    headline; the heading right above the text is. A long run keeps a kicker glued
    to it ("Genetics" + the headline, over the breadcrumb's older version of it)."""
    menu = "".join(
        f"<div class='menu-heading'>{name}</div><ul><li><a href='/{i}'>Download</a></li>"
        f"<li><a href='/{i}/help'>Need help?</a></li></ul>"
        for i, name in enumerate(("Voyager Pro", "Voyager Mobile"))
    )
    html = page(
        "<title>Voyager — Plan every trip together — Example</title>",
        f"{menu}<h1>Make every trip your own</h1>{PARAGRAPHS}",
    )
    assert extract_article(html).title == "Make every trip your own"
    headline = "The secret of the giant parasitic flowers"
    kicker = page(
        "<title>Genetics: Giant parasitic blooms - Science Example</title>"
        f"<meta property='og:title' content='Genetics: {headline}'>",
        f"{NAV}<div class='breadcrumb'><h1>Genetics: Giant parasitic blooms"
        f"</h1></div><h2><span>Genetics</span> {headline}</h2>{PARAGRAPHS}",
    )
    assert extract_article(kicker).title == f"Genetics {headline}"


@pytest.mark.parametrize("site", ["【示例日报 今日本地新闻】", " ＜示例日报　今日本地新闻＞"])
def test_a_bracketed_site_name_is_a_part_of_the_title(site: str) -> None:
    """CJK titles set the site's name apart in lenticular or angle brackets."""
    html = page(
        f"<title>机场夜间公交下月开通{site}</title>",
        "<p>首页 &gt; 本地新闻</p><p>机场夜间公交下月开通</p><p><a href='/en'>English</a></p>"
        "<table><tr><td>♪ 听新闻(html5)</td></tr><tr><td><a href='/read'>朗读版</a></td></tr>"
        f"</table>{ZH_PARAGRAPHS}",
        lang="zh",
    )
    assert extract_article(html).title == "机场夜间公交下月开通"


def test_linked_h1_headline_is_found() -> None:
    headline = "Council approves night buses to the airport"
    html = page(
        f"<title>{headline} - Daily Example</title>",
        f"{NAV}<h1><a href='/story'>{headline}</a></h1>{PARAGRAPHS}",
    )
    assert extract_article(html).title == headline


def test_the_one_h1_showing_the_title_is_the_headline_wherever_the_text_starts() -> None:
    # A shop page: the product's name on top, a long list of options, the description
    # far below under a heading that repeats the name.
    name = "Trail Runner Two waterproof shoe"
    options = "".join(f"<li>Size {size} in stock</li>" for size in range(30, 75))
    html = page(
        f"<title>{name} | Example Shop</title>",
        f"{NAV}<h1>{name}</h1><ul>{options}</ul><h2>{name}</h2>{PARAGRAPHS}",
    )
    found = extract_page(html)
    assert found.title == name
    assert found.lines[found.headline].tag == "h1"
    assert EN_SENTENCES[0] in found.content


def test_a_part_of_the_title_inside_the_text_loses_to_the_heading_above_it() -> None:
    # The site's name (the short part of <title>) shown as a credit inside the text
    # is no headline: the heading right above the text is, and the text stays whole.
    headline = "Council approves night buses to the airport"
    html = page(
        "<title>Night bus plan for airport workers approved | The Riverside Chronicle</title>",
        f"{NAV}<h1>{headline}</h1><div>{paragraphs(*EN_SENTENCES)}{PARAGRAPHS}"
        f"<p>The Riverside Chronicle</p>{PARAGRAPHS}</div>",
    )
    found = extract_page(html)
    assert found.title == headline
    assert found.content.startswith(EN_SENTENCES[0])


def test_a_page_of_short_headings_keeps_them_as_its_text() -> None:
    # The only lines are the text: none of them is a headline above it.
    found = extract_page(page("<title>Lazy images</title>", "<h2>Test one</h2><h2>Test two</h2>"))
    assert found.content == "Test one\nTest two"
    assert found.title == "Lazy images" and found.headline is None


def test_og_title_used_when_nothing_matches_and_no_heading() -> None:
    html = page(
        "<title>Daily Example</title>"
        "<meta property='og:title' content='Council approves night buses'>"
        "<meta property='og:site_name' content='Daily Example'>",
        f"{NAV}{PARAGRAPHS}",
    )
    assert extract_article(html).title == "Council approves night buses"


def test_huge_title_is_bounded() -> None:
    title = " | ".join(["part"] * 200_000)
    html = page(f"<title>{title}</title>", f"<h1>Headline here</h1>{PARAGRAPHS}")
    started = time.process_time()  # CPU: a loaded machine does not fail it
    extract_article(html)
    assert time.process_time() - started < 5
    assert len(title_spans(title)) <= 12 * 13


def test_hostile_separator_runs_stay_linear() -> None:
    dashes = "- " * 100 + "x"
    html = page(f"<title>{dashes}</title>", f"<h2>{dashes}</h2><h2>{'-' * 250}</h2>{PARAGRAPHS}")
    started = time.process_time()
    extract_article(html)
    assert time.process_time() - started < 2


def test_blog_template_decoration_is_dropped() -> None:
    html = page("<title>Ann's blog</title>", f"<h2>Night buses approved - -</h2>{PARAGRAPHS}")
    assert extract_article(html).title == "Night buses approved"


@pytest.mark.parametrize(
    ("title_tag", "headline", "site"),
    [
        ("Night buses approved | Daily Example", "Night buses approved", "Daily Example"),
        ("Night buses approved - City - Daily Example", "Night buses approved", "Daily Example"),
        ("Daily Example: Night buses approved", "Night buses approved", "Daily Example"),
        ("夜间公交获批_青河新闻网", "夜间公交获批", "青河新闻网"),
        ("Night buses approved", "Night buses approved", None),
        ("Night buses approved by council", "Night buses approved", None),  # no separator
        (None, "Night buses approved", None),
    ],
)
def test_site_from_title(title_tag: str | None, headline: str, site: str | None) -> None:
    assert site_from_title(title_tag, headline) == site


def test_site_name_sources_in_order() -> None:
    body = "<body><h1>Night buses approved</h1>" + "<p>The council voted for night buses.</p>" * 4
    head = "<title>Night buses approved | Daily Example</title>"
    og = "<meta property='og:site_name' content='The Daily Example'>"
    ld = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "x",'
        ' "publisher": {"@type": "Organization", "name": "Example Press"}}</script>'
    )
    assert extract_article(f"<html><head>{head}{og}{ld}</head>{body}").site_name == (
        "The Daily Example"
    )
    assert extract_article(f"<html><head>{head}{ld}</head>{body}").site_name == "Example Press"
    assert extract_article(f"<html><head>{head}</head>{body}").site_name == "Daily Example"


def test_key_folds_case_quotes_dashes_and_drops_spaces() -> None:
    assert _key("“Straße” – Ｆｕｌｌ  Width ’s") == '"strasse"-fullwidth\'s'
    assert _key("Plain ASCII - Title") == "plainascii-title"


def test_multi_fold_holds_every_character_whose_case_folding_is_longer() -> None:
    longer = {c for c in range(sys.maxunicode + 1) if len(chr(c).casefold()) != 1}
    matched = {c for c in range(sys.maxunicode + 1) if _MULTI_FOLD.match(chr(c))}
    assert matched == longer


@pytest.mark.parametrize(
    "text",
    [
        "Plain ASCII headline",
        "“Quoted” headline – with dashes’",
        "Grüße aus Köln",  # ß folds to ss
        "ﬁnal ligature",  # NFKC makes it fi
        "全角ＡＢＣ 标题",  # NFKC narrows it
        "İstanbul’da",  # İ folds to two characters
        "Ελληνικά ᾳ",
        "Заголовок — новости",
    ],
)
def test_key_length_known_only_when_the_key_keeps_the_length(text: str) -> None:
    if _key_length_known(text):
        assert len(_key(text)) == len("".join(text.split()))
    else:
        assert not text.isascii()


def test_key_length_known_refuses_texts_whose_key_changes_length() -> None:
    for text in ("Straße", "ﬁ", "İ", "e\u0301"):  # keys longer or shorter than the text
        assert len(_key(text)) != len(text)
        assert not _key_length_known(text)
