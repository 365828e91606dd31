"""A listing's teaser links and the next page (extract/fields/navigation.py)."""

from __future__ import annotations

import pytest

from scrapy_cx.extract import extract_article
from scrapy_cx.extract.fields.navigation import continues, same_site, site_of


def _listing(pager: str = "", extra: str = "", head: str = "") -> str:
    teasers = "".join(
        f'<li><h2><a href="/2024/story-{i}.html">A long headline about story number {i}</a></h2>'
        f"<p>One line of teaser text for the story.</p></li>"
        for i in range(8)
    )
    return (
        f"<html><head><title>World news</title>{head}</head><body>"
        '<header><a href="/">The Daily Example news site</a></header>'
        '<nav><a href="/world">World</a> <a href="/sport">Sport</a></nav>'
        f"<h1>World</h1><ul>{teasers}</ul>{extra}{pager}"
        '<aside class="sidebar"><ul><li><a href="/most-read-1.html">Most read story one of the '
        'week</a></li><li><a href="/most-read-2.html">Most read story two of the week</a></li>'
        "</ul></aside></body></html>"
    )


URL = "https://www.example.com/world/"


def test_a_listing_gives_its_teasers_in_order_absolute_once_each():
    twice = '<p><a href="/2024/story-0.html#top">A long headline about story number 0</a></p>'
    article = extract_article(_listing(extra=twice), URL)
    assert article.page_type == "listing"
    assert article.article_links == tuple(
        f"https://www.example.com/2024/story-{i}.html" for i in range(8)
    )


def test_teasers_leave_out_other_sites_the_home_page_and_the_listing_own_pages():
    extra = (
        '<p><a href="https://elsewhere.org/a-story.html">A story on another site entirely</a></p>'
        '<p><a href="https://m.example.com/2024/mobile.html">The same story on the mobile site'
        "</a></p>"
        '<p><a href="/world/?page=2">More world news from the archive</a></p>'
    )
    links = extract_article(_listing(extra=extra), URL).article_links
    assert "https://elsewhere.org/a-story.html" not in links
    assert "https://m.example.com/2024/mobile.html" in links  # the same site
    assert "https://www.example.com/" not in links
    assert "https://www.example.com/world/?page=2" not in links


def test_an_article_has_no_article_links():
    html = "<html><body><h1>Title</h1>" + "<p>A sentence of the story text.</p>" * 20
    html += '<p><a href="/other-story.html">Another long headline about something</a></p>'
    article = extract_article(html + "</body></html>", URL)
    assert article.page_type == "article"
    assert article.article_links == ()


@pytest.mark.parametrize(
    ("pager", "expected"),
    [
        # rel=next on a link wins over everything else
        ('<a href="?p=9">9</a><a rel="next prefetch" href="?p=2">›</a>', "?p=2"),
        # a numbered run: the current page shown without a link
        ('<div class="pager"><a href="p1">1</a> <span>2</span> <a href="p3">3</a></div>', "p3"),
        # ... or marked so (a list of links, the current one aria-current)
        (
            '<ul class="pagination"><li><a href="p1">1</a></li>'
            '<li><a href="p2" aria-current="page">2</a></li><li><a href="p3">3</a></li></ul>',
            "p3",
        ),
        # ... the first page, which pagers do not link
        ('<div class="pages"><a href="p2">2</a> <a href="p3">3</a></div>', "p2"),
        # the words, in several languages, arrows and spaces aside
        ('<p><a href="n.html">Next page »</a></p>', "n.html"),
        ('<p><a href="index_2.shtml">下一页</a></p>', "index_2.shtml"),
        ('<p><a href="tsugi">次へ</a></p>', "tsugi"),
        ('<p><a href="w">Weiter</a></p>', "w"),
    ],
)
def test_next_page_from_a_pager(pager, expected):
    article = extract_article(_listing(pager=pager), URL)
    assert article.next_page == "https://www.example.com/world/" + expected


def test_next_page_declared_in_the_head_wins():
    head = '<link rel="next" href="/world/page/2/">'
    pager = '<p><a href="other">Next</a></p>'
    assert (
        extract_article(_listing(pager=pager, head=head), URL).next_page
        == "https://www.example.com/world/page/2/"
    )


@pytest.mark.parametrize(
    "pager",
    [
        "",
        '<div class="pager"><a href="p1">1</a> <span>2</span></div>',  # the last page
        '<p><a href="https://elsewhere.org/p2">Next</a></p>',  # another site
        '<p><a href="javascript:next()">Next</a></p>',  # no address
        f'<p><a href="{URL}">Next</a></p>',  # this page itself
        '<p><a href="/other">Next article: the harbour reopens</a></p>',  # not a pager
    ],
)
def test_no_next_page(pager):
    assert extract_article(_listing(pager=pager), URL).next_page is None


def test_next_page_of_an_article_split_over_pages():
    html = "<html><body><h1>Title</h1>" + "<p>A sentence of the story text.</p>" * 20
    html += '<div class="pages">1 <a href="story_2.shtml">2</a> <a href="story_3.shtml">3</a>'
    html += ' <a href="story_2.shtml">下一页</a></div></body></html>'
    article = extract_article(html, "http://news.example.cn/a/story.shtml")
    assert article.next_page == "http://news.example.cn/a/story_2.shtml"


@pytest.mark.parametrize(
    ("host", "site"),
    [
        ("www.example.com", "example.com"),
        ("news.example.co.uk", "example.co.uk"),
        ("a.b.example.com.cn", "example.com.cn"),
        ("127.0.0.1", "127.0.0.1"),
        ("localhost", "localhost"),
        ("WWW.Example.COM.", "example.com"),
        # The Public Suffix List, private domains too: each blog is a site of its own.
        ("foo.blogspot.com", "foo.blogspot.com"),
        ("www.a.github.io", "a.github.io"),
        ("x.y.sch.uk", "x.y.sch.uk"),
        ("www.city.kawasaki.jp", "city.kawasaki.jp"),
        ("::1", "::1"),
    ],
)
def test_site_of(host, site):
    assert site_of(host) == site


def test_same_site():
    assert same_site("https://m.example.com/a", "https://www.example.com/")
    assert not same_site("https://example.org/a", "https://www.example.com/")
    assert same_site("https://example.org/a", None)  # nothing to compare with
    assert not same_site("https://foo.blogspot.com/a", "https://bar.blogspot.com/")


@pytest.mark.parametrize(
    ("url", "following"),
    [
        ("http://x.cn/a/c123.shtml", "http://x.cn/a/c123_2.shtml"),
        ("http://x.cn/a/c123_2.shtml", "http://x.cn/a/c123_3.shtml"),
        ("http://x.cn/a/index.html", "http://x.cn/a/index_1.html"),
        ("https://x.test/story/", "https://x.test/story/2/"),
        ("https://x.test/story/2/", "https://x.test/story/3/"),
        ("https://x.test/story", "https://x.test/story/page/3"),
        ("https://x.test/story.html", "https://x.test/story.html?page=2"),
        ("https://x.test/story.html?page=2", "https://x.test/story.html?page=3"),
        ("https://x.test/s?id=9", "https://x.test/s?id=9&p=2"),
        ("https://x.test/a/story-17180397.html", "https://x.test/a/story-17180397-p2.html"),
    ],
)
def test_a_later_page_of_the_same_article(url, following):
    assert continues(url, following)


@pytest.mark.parametrize(
    ("url", "following"),
    [
        ("https://x.test/2024/story-a.html", "https://x.test/2024/story-b.html"),
        ("https://x.test/2024/story-195.html", "https://x.test/2024/story-196.html"),
        ("https://x.test/s?id=9", "https://x.test/s?id=10"),
        ("https://x.test/a.html", "https://y.test/a_2.html"),
        ("https://x.test/2018/07/02/a-post/", "https://x.test/2018/10/08/another-post/"),
        ("https://x.test/?p=3289", "https://x.test/?p=3293"),  # WordPress post ids
    ],
)
def test_another_article(url, following):
    assert not continues(url, following)


def test_an_article_next_page_is_its_own_never_the_next_story():
    html = "<html><head><link rel='next' href='/2018/10/08/another-post/'></head><body>"
    html += "<h1>Title</h1>" + "<p>A sentence of the story text.</p>" * 20 + "</body></html>"
    article = extract_article(html, "https://x.test/2018/07/02/a-post/")
    assert article.page_type == "article"
    assert article.next_page is None
    listing = extract_article(_listing(head="<link rel='next' href='/archive/'>"), URL)
    assert listing.next_page == "https://www.example.com/archive/"  # a listing's is any


FOOTER_LINKS = "".join(
    f'<p><a href="/{path}/">{text}</a></p>'
    for path, text in [
        ("newsletters", "Sign up for our morning newsletters today"),
        ("apps", "Download the Daily Example apps for your phone"),
        ("advertise", "Advertise with the Daily Example news site"),
        ("jobs", "Work with us: open jobs in the newsroom"),
        ("rss-feeds", "All the RSS feeds of the Daily Example site"),
        ("podcasts", "Listen to the podcasts of the Daily Example"),
    ]
)


@pytest.mark.parametrize(
    ("opening", "closing"), [("<footer>", "</footer>"), ('<div id="site-footer">', "</div>")]
)
def test_a_footer_is_no_teasers_where_it_holds_most_of_a_small_listing_text(opening, closing):
    # (the walk marks no element boilerplate that holds most of the page's text)
    page = (
        "<html><head><title>World news</title></head><body><nav><a href='/'>Home</a></nav>"
        '<main><h1>World</h1><h2><a href="/2024/story-1.html">A long headline about story '
        'number one</a></h2><time datetime="2024-05-01">1 May 2024</time><div class="pager">'
        f'<a href="/world/">1</a> <span>2</span></div></main>{opening}{FOOTER_LINKS}{closing}'
        "</body></html>"
    )
    article = extract_article(page, "https://www.example.com/world/?page=2")
    assert article.page_type == "listing"
    assert article.article_links == ("https://www.example.com/2024/story-1.html",)


def test_legal_links_are_no_teasers_wherever_they_stand():
    legal = (
        '<div class="bottom"><ul><li><a href="/privacy-policy.html">Privacy and cookie policy '
        'of the site</a></li><li><a href="/about-us/">About the Daily Example news site</a>'
        "</li></ul></div>"
    )
    story = '<li><a href="/2024/privacy-law-passes.html">A privacy law passes after a vote</a></li>'
    article = extract_article(_listing(extra=f"<ul>{story}</ul>{legal}"), URL)
    assert article.page_type == "listing"
    links = article.article_links
    assert "https://www.example.com/2024/privacy-law-passes.html" in links  # a story's address
    legal_links = {
        "https://www.example.com/privacy-policy.html",
        "https://www.example.com/about-us/",
    }
    assert not legal_links & set(links)


def test_a_last_listing_page_of_one_teaser_is_a_listing():
    page = (
        "<html><head><title>World | Example</title></head><body><nav><a href='/'>Home</a></nav>"
        '<main><h1>World</h1><article><h2><a href="/2024/story-9.html">A long headline about '
        'story number nine</a></h2><time datetime="2024-05-01">1 May 2024</time></article>'
        '<div class="pagination"><a href="/world/">1</a> <a href="/world/page/2/">2</a> '
        "<span>3</span></div></main></body></html>"
    )
    article = extract_article(page, "https://www.example.com/world/page/3/")
    assert article.page_type == "listing"
    assert article.article_links == ("https://www.example.com/2024/story-9.html",)


def test_a_links_text_is_read_only_for_a_link_of_a_few_elements():
    # Nested <em><a> pairs: every <a> holds the rest of the page; joining each one's
    # text cost anchors x depth (issue 39: 3.9 s for 470 KB).
    from lxml import etree

    from scrapy_cx.extract.fields.navigation import _link_text

    root = etree.fromstring("<em><a href='/x'>word " * 10_000, etree.HTMLParser())
    anchors = list(root.iter("a"))
    assert _link_text(anchors[0]) is None  # reads a bounded number of elements
    assert _link_text(anchors[-1]) == "word"
    pager = etree.fromstring("<a href='/2'><span>Next</span> <i>page</i> →</a>", etree.HTMLParser())
    assert _link_text(next(pager.iter("a"))) == "Next page →"


def test_next_page_is_found_after_thousands_of_nested_links():
    # (Each unclosed pair nests the rest, the pager too: it is read all the same.)
    nested = "<p>" + "<em><a href='/x'>word " * 3000 + "</p>"
    pager = '<div class="pager"><a href="/world/?page=2">Next</a></div>'
    article = extract_article(_listing(pager=pager, extra=nested), URL)
    assert article.next_page == "https://www.example.com/world/?page=2"
