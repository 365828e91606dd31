"""The page model: stages fill one Page; evidence says where title, date and authors came from."""

from __future__ import annotations

import pytest

from scrapy_cx.article import Article, Post
from scrapy_cx.extract import STAGES, extract_article
from scrapy_cx.extract.content import choose
from scrapy_cx.extract.content.blocks import BOILERPLATE, CONTENT, NAVIGATION, RELATED
from scrapy_cx.extract.page import Evidence, Page, without_controls
from scrapy_cx.extract.parse.decode import decode_page
from scrapy_cx.extract.parse.dom import parse_html
from tests.extract.prose import BRIDGE_STORY
from tests.sample_pages import structured_html

HEAD = (
    "<title>Bridge to be rebuilt | Town News</title>"
    '<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">'
    '<meta name="author" content="Meta Writer">'
)
RELATED_LINKS = "".join(
    f"<li><a href='/news/{i}'>Another story readers also clicked, number {i}</a></li>"
    for i in range(3)
)
BODY = (
    "<nav><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li></ul></nav>"
    "<article><h1>Bridge to be rebuilt</h1><p class='byline'>By Jane Smith</p>"
    + "".join(f"<p>{p}</p>" for p in BRIDGE_STORY)
    + f"</article><aside class='related'><ul>{RELATED_LINKS}</ul></aside>"
    "<footer><p>Copyright Town News. All rights reserved.</p></footer>"
)


def run(html: str, url: str = "http://town.test/news/bridge") -> Page:
    text, encoding, utf8 = decode_page(html)
    page = Page(parse_html(text, utf8), url, encoding=encoding)
    for stage in STAGES:
        stage(page)
    return page


def test_the_stages_fill_the_page_and_the_article_is_made_from_it() -> None:
    html = f"<html><head>{HEAD}</head><body>{BODY}</body></html>"
    page = run(html)
    assert page.article() == extract_article(html, "http://town.test/news/bridge")
    assert page.lines[page.headline].text == "Bridge to be rebuilt"
    assert page.headline is not None  # None: the page does not show it
    assert page.content == "\n".join(BRIDGE_STORY)
    assert page.regions == ((page.start, page.end),) and page.headline < page.start < page.end


def test_the_headline_is_decided_once_and_the_stages_read_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decided: list[int] = []
    decide = choose.find_headline

    def counted(page: Page) -> None:
        decide(page)
        decided.append(page.headline)

    monkeypatch.setattr(choose, "find_headline", counted)
    page = run(f"<html><head>{HEAD}</head><body>{BODY}</body></html>")
    assert decided == [page.headline]  # one decision for an article
    assert page.title == page.lines[page.headline].text  # the title is that line's
    assert page.headline < page.start  # the text starts under it
    byline = page.evidence["authors"].line
    assert byline is not None and page.headline < byline < page.start  # read under it


def test_evidence_names_the_source_of_each_field() -> None:
    page = run(f"<html><head>{HEAD}</head><body>{BODY}</body></html>")
    assert page.evidence_of("title") == Evidence("line", page.headline, "Bridge to be rebuilt")
    assert page.evidence["published"] == Evidence(
        "meta:article:published_time", None, "2024-03-05T09:30:00+01:00"
    )
    byline = page.evidence["authors"]
    assert byline.source == "byline" and byline.line is not None
    assert page.lines[byline.line].text == "By Jane Smith"


def test_evidence_of_a_title_from_the_title_tag_and_a_date_from_a_line() -> None:
    body = "<div>" + "".join(f"<p>{p}</p>" for p in BRIDGE_STORY) + "</div><p>5 March 2024</p>"
    page = run(
        f"<html><head><title>Bridge to be rebuilt | Town News</title></head>"
        f"<body><p>Posted 5 March 2024</p>{body}</body></html>"
    )
    title = page.evidence_of("title")
    assert title == Evidence("title_tag", None, "Bridge to be rebuilt | Town News")
    date = page.evidence["published"]
    assert date.source == "line" and date.line is not None
    assert "5 March 2024" in page.lines[date.line].text


def test_every_line_has_a_kind() -> None:
    page = run(f"<html><head>{HEAD}</head><body>{BODY}</body></html>")
    kinds = dict(zip((line.text for line in page.lines), page.kinds, strict=True))
    assert len(page.kinds) == len(page.lines)
    assert kinds[BRIDGE_STORY[0]] == CONTENT
    assert kinds["Home"] == NAVIGATION
    assert kinds["Another story readers also clicked, number 0"] == RELATED
    assert kinds["Copyright Town News. All rights reserved."] == BOILERPLATE
    assert page.related[0] == (
        "Another story readers also clicked, number 0",
        "http://town.test/news/0",
    )


def test_a_malformed_link_or_address_is_no_related_link_and_no_failure() -> None:
    # urljoin raises ValueError on an unclosed IPv6 bracket, in the page's
    # address or in a link's; the page is still read, the link left out.
    body = BODY.replace("href='/news/0'", "href='http://[::1/news/0'")
    assert body != BODY
    for url in ("http://town.test/a", "http://[::1"):
        page = run(f"<html><head>{HEAD}</head><body>{body}</body></html>", url)
        assert page.article().content.startswith(BRIDGE_STORY[0])
        assert "Another story readers also clicked, number 0" not in dict(page.related)


_CONTROL = set(map(chr, [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)]))


def _strings(value: object) -> list[str]:
    """Every string an article holds, through its tuples, posts and images."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [s for item in value for s in _strings(item)]
    if hasattr(value, "__dataclass_fields__"):
        return [s for name in value.__dataclass_fields__ for s in _strings(getattr(value, name))]
    return []


def test_no_text_field_holds_a_control_character() -> None:
    # A terminal's colour codes pasted into a CMS, a bell, a C1 "next line": bytes a
    # terminal acts on; a log, a CSV or a screen showing the article must not get them.
    esc = "\x1b[31m"
    html = (
        f"<html><head><title>Bridge {esc}to be rebuilt\x1b[0m | Town News</title>"
        f"<meta name='description' content='A bridge\x07 story'>"
        f"<meta name='keywords' content='bridge{esc}, town'></head><body>"
        f"<article><h1>Bridge {esc}to be rebuilt\x1b[0m</h1>"
        "<p class='byline'>By Jane\x1b[1m Smith</p>"
        + "".join(f"<p>{p}\x85 {esc}</p>" for p in BRIDGE_STORY)
        + "</article></body></html>"
    )
    article = extract_article(html, "https://town.example/bridge")
    strings = _strings(article)
    assert article.title == "Bridge to be rebuilt"
    assert not [s for s in strings if _CONTROL & set(s)]
    assert "[31m" not in article.content  # the whole sequence, not only its ESC
    assert "\n" in article.content  # newlines and tabs are text


def test_a_title_of_control_characters_only_is_none() -> None:
    """Found by the fuzz test: a first line of nothing but escapes was the title, and
    taking them out left "" where a missing title is None."""
    article = extract_article("\x1b[2J\x9b31m\x07<br>0000000000", None)
    assert article.title is None


def test_without_controls_reaches_posts_and_keeps_what_holds_none() -> None:
    post = Post(author="Ann\x1b[1m Lee", text="Hi\x07 there")
    article = Article(title="Plain", posts=(post,), keywords=("a\x00b",))
    clean = without_controls(article)
    assert clean.posts[0].author == "Ann Lee" and clean.posts[0].text == "Hi there"
    assert clean.keywords == ("ab",)
    plain = Article(title="Plain", content="One\ttwo\nthree")
    assert without_controls(plain) is plain


SAVED_FROM = "https://news.test/2024/story.html"


@pytest.mark.parametrize(
    "declared",
    [
        f'<link rel="canonical" href="{SAVED_FROM}">',
        f'<meta property="og:url" content="{SAVED_FROM}">',
        '<base href="https://news.test/2024/">',
    ],
)
@pytest.mark.parametrize("address", ["file:///home/me/saved/story.html", None])
def test_a_saved_page_reads_its_addresses_against_the_one_it_declares(
    declared: str, address: str | None
) -> None:
    """A saved page's ``file:`` address resolves no relative picture or link: read them
    against the address the page declares, so a saved copy gives what the crawl gave."""
    html = structured_html().replace("</head>", declared + "</head>", 1)
    crawled = extract_article(html, SAVED_FROM)
    saved = extract_article(html, address)
    assert crawled.images and saved.images == crawled.images
    assert saved.content_html == crawled.content_html
    assert 'href="https://news.test/documents/plan-2024"' in (saved.content_html or "")


def test_a_page_with_an_http_address_reads_against_its_own_not_its_canonical() -> None:
    html = structured_html().replace(
        "</head>", '<link rel="canonical" href="https://elsewhere.test/story">', 1
    )
    article = extract_article(html, "https://mirror.test/2024/story.html")
    assert [image.url for image in article.images or ()] == [
        "https://mirror.test/images/depot.jpg"
    ]
