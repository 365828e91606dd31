"""Page metadata: meta tags, JSON-LD, microdata, canonical URL, authors and keywords."""

from __future__ import annotations

import re
import string
import sys
import time
from html import escape

import pytest

from scrapy_cx import extract_article
from scrapy_cx.extract.parse.dom import parse_document, parse_html
from scrapy_cx.extract.parse.meta import author_marks, read_meta
from tests.extract.test_urls import HOSTILE

BODY = (
    "<body><h1>Night buses approved</h1><p>"
    + "The council voted for night buses. " * 8
    + "</p></body>"
)


def meta_of(head: str, url: str | None = None, html_attrs: str = "") -> object:
    return read_meta(parse_html(f"<html {html_attrs}><head>{head}</head>{BODY}</html>"), url)


def test_published_candidates_ranked_explicit_first() -> None:
    meta = read_meta(
        parse_html(
            "<html><head><meta name='date' content='2016-03-01'>"
            "<meta property='article:published_time' content='2016-03-02T10:20:00Z'>"
            "<meta property='article:modified_time' content='2016-03-09'></head></html>"
        )
    )
    assert meta.published[0] == ("2016-03-02T10:20:00Z", "meta:article:published_time")
    assert ("2016-03-01", "meta:date") in meta.published
    assert meta.modified == ["2016-03-09"]


def test_json_ld_graph_gives_date_headline_authors_keywords() -> None:
    head = """<script type="application/ld+json">
    {"@context": "https://schema.org", "@graph": [
      {"@type": "WebSite", "name": "Daily Example"},
      {"@type": "NewsArticle", "headline": "Night buses approved",
       "datePublished": "2016-03-02T10:20:00+01:00", "dateModified": "2016-03-03",
       "author": [{"@type": "Person", "name": "Ann Lee"}, {"name": "Bo Chen"}],
       "keywords": "transport, night buses"}]}
    </script>"""
    meta = read_meta(parse_html(f"<html><head>{head}</head>{BODY}</html>"))
    assert meta.published[0] == ("2016-03-02T10:20:00+01:00", "jsonld:datePublished")
    assert ("Night buses approved", "jsonld") in meta.titles
    assert meta.authors == ["Ann Lee", "Bo Chen"]
    assert meta.keywords == ["transport", "night buses"]
    assert meta.site_name == "Daily Example"
    assert meta.modified == ["2016-03-03"]


@pytest.mark.parametrize(
    "script",
    [
        # MediaWiki wraps its JSON-LD in <![CDATA[ ]]>.
        '//<![CDATA[\n{"@type": "Article", "datePublished": "2016-03-02"}\n//]]>',
        # Invalid JSON (a control character inside a string), but what CMSs write.
        '{"@type": "DiscussionForumPosting", "articleBody": "First line\nsecond line\tend",'
        ' "datePublished": "2016-03-02"}',
    ],
)
def test_json_ld_as_cms_write_it(script: str) -> None:
    head = f'<script type="application/ld+json">{script}</script>'
    meta = read_meta(parse_html(f"<html><head>{head}</head>{BODY}</html>"))
    assert meta.published == [("2016-03-02", "jsonld:datePublished")]


def test_page_wide_comment_classes_do_not_hide_the_story_dates() -> None:
    # "comments-page" on <body> names the page; a thread's own container is what counts.
    html = (
        "<html><body class='listing-page comments-page'><article>"
        "<time datetime='2016-03-02T10:20:00Z'>2 March</time><p>Story</p></article>"
        "<div class='commentarea'><time datetime='2016-03-05'>5 March</time></div>"
        "</body></html>"
    )
    assert read_meta(parse_html(html)).published == [("2016-03-02T10:20:00Z", "time")]


def test_microdata_dates_of_comments_are_not_the_story_dates() -> None:
    comment = (
        "<div itemscope itemtype='https://schema.org/Comment'><p>Agreed.</p>"
        "<time itemprop='datePublished'>2019-01-21T21:40:59Z</time></div>"
    )
    html = (
        "<html><body><div itemscope itemtype='https://schema.org/Question'>"
        "<time itemprop='dateCreated' datetime='2014-02-04T13:02:51Z'>Feb 4, 2014</time>"
        f"<p>Why?</p>{comment}</div><div class='comments'>"
        "<span itemprop='datePublished' content='2020-05-31'></span></div></body></html>"
    )
    meta = read_meta(parse_html(html))
    assert meta.published == [("2014-02-04T13:02:51Z", "itemprop:dateCreated")]


def test_broken_json_ld_is_ignored() -> None:
    head = '<script type="application/ld+json">{"datePublished": "2016-03-02",</script>'
    meta = read_meta(parse_html(f"<html><head>{head}</head>{BODY}</html>"))
    assert meta.published == []


def test_article_fields() -> None:
    html = (
        "<html lang='en-GB'><head><title>Night buses approved | Daily Example</title>"
        "<meta name='author' content='By Ann Lee'>"
        "<meta name='author' content='https://example.com/ann'>"
        "<meta name='keywords' content='transport, night buses;airport，夜间公交'>"
        "<meta name='description' content='The council voted for night buses.'>"
        "<link rel='canonical' href='/news/night-buses'>"
        f"</head>{BODY}</html>"
    )
    article = extract_article(html, "https://example.com/news/night-buses?utm=x")
    assert article.authors == ("Ann Lee",)
    assert article.keywords == ("transport", "night buses", "airport", "夜间公交")
    assert article.description == "The council voted for night buses."
    assert article.canonical_url == "https://example.com/news/night-buses"
    assert article.language == "en"


def test_og_url_is_the_canonical_fallback() -> None:
    html = (
        f"<html><head><meta property='og:url' content='https://example.com/a'></head>{BODY}</html>"
    )
    assert (
        extract_article(html, "https://example.com/a?x=1").canonical_url == "https://example.com/a"
    )


def test_microdata_date_and_time_pubdate() -> None:
    html = (
        "<html><body><h1>Night buses</h1>"
        "<span itemprop='datePublished' content='2016-03-02'>2 March</span>"
        "<time pubdate datetime='2016-03-04'>4 March</time></body></html>"
    )
    meta = read_meta(parse_html(html))
    sources = [source for _raw, source in meta.published]
    assert "itemprop:datePublished" in sources and "time:pubdate" in sources


def test_huge_meta_values_are_cut() -> None:
    head = f"<meta name='description' content='{'x' * 1_000_000}'>"
    meta = read_meta(parse_html(f"<html><head>{head}</head>{BODY}</html>"))
    assert meta.description is not None and len(meta.description) <= 2000


def test_a_million_meta_tags_are_bounded() -> None:
    head = "<meta property='og:title' content='Night buses'>" * 200_000
    head += "<script type='application/ld+json'>" + '{"headline": "x"}' + "</script>"
    started = time.process_time()  # CPU: a loaded machine does not fail it
    meta = read_meta(parse_html(f"<html><head>{head}</head>{BODY}</html>"))
    assert time.process_time() - started < 5
    assert len(meta.titles) <= 20


def test_canonical_must_be_a_web_address() -> None:
    head = "<link rel='canonical' href='javascript:void(0)'><meta property='og:url' content='/a'>"
    html = f"<html><head>{head}</head>{BODY}</html>"
    assert (
        extract_article(html, "https://example.com/a?x=1").canonical_url == "https://example.com/a"
    )
    assert extract_article(html).canonical_url is None  # relative, and nothing to resolve it


@pytest.mark.parametrize("url", HOSTILE)
def test_canonical_is_never_another_scheme(url: str) -> None:
    target = escape(url, quote=True)
    head = f"<link rel='canonical' href='{target}'><meta property='og:url' content='{target}'>"
    html = f"<html><head>{head}</head>{BODY}</html>"
    assert extract_article(html, "https://example.com/a?x=1").canonical_url is None


def test_canonical_is_read_as_a_browser_reads_it() -> None:
    for target in ("HTTPS://example.com/a", " ht\ttps://example.com/a\n", "//example.com/a"):
        html = f"<html><head><link rel='canonical' href='{target}'></head>{BODY}</html>"
        assert extract_article(html, "https://example.com/a?x=1").canonical_url == (
            "https://example.com/a"
        )


def test_author_prefix_stripped_but_not_name_particles() -> None:
    head = "<meta name='author' content='By Ann Lee'><meta name='author' content='Da Silva'>"
    meta = read_meta(parse_html(f"<html><head>{head}</head>{BODY}</html>"))
    assert meta.author_tags == ["Ann Lee", "Da Silva"]


def test_icon_titles_and_comment_times_are_not_page_metadata() -> None:
    html = (
        "<html><head></head><body><svg><title>Share on Facebook</title></svg>"
        f"{BODY[6:-7]}<div class='comments'><time datetime='2016-03-09'>9 March</time></div>"
        "<time datetime='2016-03-02'>2 March</time></body></html>"
    )
    meta = read_meta(parse_html(html))
    assert meta.title_tag is None
    assert meta.published == [("2016-03-02", "time")]


def test_space_separated_chinese_keywords_are_split_latin_phrases_are_not() -> None:
    html = (
        "<html><head><meta name='keywords' content='经济  金融 股市 iPhone 15 发布'>"
        '<script type=\'application/ld+json\'>{"@type": "NewsArticle", '
        '"keywords": "night buses 夜间公交 机场"}</script>'
        f"</head>{BODY}</html>"
    )
    article = extract_article(html, "https://example.com/a")
    assert article.keywords == (
        "经济",
        "金融",
        "股市",
        "iPhone 15",
        "发布",
        "night buses",
        "夜间公交",
        "机场",
    )


@pytest.mark.parametrize(
    ("html", "marks"),
    [
        ('<p>Story</p><span class="byline">Ann Lee</span>', ["Ann Lee"]),
        ('<p>Story</p><span class="&#98;yline">Ann Lee</span>', ["Ann Lee"]),
        ('<p>Story</p><a rel="author" href="/ann">Ann Lee</a>', ["Ann Lee"]),
        ('<p>Story by Ann Lee</p><span class="by">x</span>', []),
    ],
)
def test_author_marks_with_the_markup_are_the_marks_without(html: str, marks: list[str]) -> None:
    parsed = parse_document(html)
    assert author_marks(parsed.root, parsed.markup) == author_marks(parsed.root) == marks


@pytest.mark.parametrize(
    "html",
    [
        '<body><h1 itemprop="headline">Night buses</h1>'
        '<span itemprop="datePublished" content="2024-03-02">2 March</span></body>',
        '<body><span itemprop="&#100;atePublished" content="2024-03-02">x</span></body>',
        "<body><p>No microdata here</p></body>",
    ],
)
def test_microdata_is_read_when_the_head_lacks_a_date(html: str) -> None:
    parsed = parse_document(html)
    meta = read_meta(parsed.root, None, parsed.elements)
    assert meta == read_meta(parsed.root)  # the parse's index reads as the tree
    if "atePublished" in html:
        assert meta.published == [("2024-03-02", "itemprop:datePublished")]
    else:
        assert meta.published == []


def test_meta_names_are_read_stripped_and_a_language_under_any_name() -> None:
    head = (
        "<meta name='viewport' content='width=device-width'>"
        "<meta property=' OG:Title ' content='Night  buses'>"
        "<meta name='og: title' content='Not a name read'>"
        "<meta name='generator' http-equiv='Content-Language' content='de-DE'>"
        "<meta property='og:site_name' content=''>"
        "<meta property='og:site_name' content='City News'>"
    )
    meta = meta_of(head)
    assert meta.titles == [("Night buses", "meta:og:title")]
    assert meta.language == "de-DE"
    assert meta.site_name == "City News"


SCRIPTS = [
    'var ct = "1570496400";',
    'window.x={"publish_time":"2019-10-08 09:00:00","ct":1570496400}',
    '{ct:"2019-10-08T09:00:00Z", PublishedAt: "2020-01-02T03:04:05+08:00"}',  # ct needs a stamp
    'a.PUB_DATE = 1570496400123; b.datePublished="2021-02-03"',
    '"{\\"first_published_at\\":\\"2018-07-06T05:04:03.123Z\\"}"',  # JSON in a string
    "function select(){return object.ct}; var date_published = '2017-01-01 10:00'",
    "nopublish_time=1570496400 republished_at:1570496400",  # no key start before
    "var s = 'Straße €'; var pubtime = 1570496400",  # other characters, in place
    "var s = 'İstanbul'; var pubtime = 1570496400",  # lower() lengthens: the slow road
    "var ſ = 1; var publiſh_time = 1570496400",  # long s: matched case-blind
    "var k = 'K'; var first_publish_date='2016-05-04'",  # Kelvin sign
    "var d = {publish_date: '2019-13-45', pubDate: 1570496400}",
    "x" * 199_990 + " ct=1570496400",  # past the characters scanned
    "",
]


@pytest.mark.parametrize("text", SCRIPTS)
def test_a_scripts_date_read_key_by_key_is_the_one_regex_reads(text: str) -> None:
    from scrapy_cx.extract.parse.meta import script_date, script_date_slow

    assert script_date(text) == script_date_slow(text)


def test_script_dates_read_as_written() -> None:
    from scrapy_cx.extract.parse.meta import script_date

    assert script_date(SCRIPTS[2]) == "2020-01-02T03:04:05+08:00"  # case kept
    assert script_date(SCRIPTS[9]) == "1570496400"
    assert script_date(SCRIPTS[6]) is None


def test_lower_for_search_refuses_what_a_case_blind_regex_folds_otherwise() -> None:
    from scrapy_cx.extract.parse.meta import lower_for_search

    assert lower_for_search("Veröffentlicht AM 3. März") == "veröffentlicht am 3. märz"
    for text in ("PUBLİSHED", "publıshed", "poſted", "\u212aey"):  # İ ı ſ and the Kelvin sign
        assert lower_for_search(text) is None


def test_lower_for_search_covers_every_character_a_case_blind_letter_matches() -> None:
    """Each character that ``re.IGNORECASE`` matches to a letter the searches use is
    lower-cased to it, or refused: checked over every code point."""
    from scrapy_cx.extract.fields import dates
    from scrapy_cx.extract.parse.meta import lower_for_search

    letters = set(string.ascii_lowercase) | {c for c in dates._LABEL_WORDS if c.isalpha()}
    any_letter = re.compile("[" + "".join(sorted(letters)) + "]", re.IGNORECASE)
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if any_letter.fullmatch(char) is None or lower_for_search(char) is None:
            continue
        matched = {x for x in letters if re.fullmatch(re.escape(x), char, re.IGNORECASE)}
        assert matched == {char.lower()} & letters, (hex(code), matched)
