"""Property-based tests: ``extract_article`` returns a sane Article for any input.

The documented contract is "never raises on bad markup or bytes": for every
``str`` or ``bytes`` page, whatever the declared encoding, the result is an
:class:`Article` whose fields have their documented types and shapes.

Profiles: ``ci`` (default, a few thousand examples in about a minute) and
``long`` (``HYPOTHESIS_PROFILE=long``, see docs/reliability.rst).
"""

from __future__ import annotations

import os
import re
from datetime import datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_cx import Article, extract_article

settings.register_profile(
    "ci",
    max_examples=1500,
    deadline=10_000,  # ms: a guard against hangs, not a benchmark (the box is shared)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,  # CI must not fail on a seed it never saw before
)
settings.register_profile(
    "long",
    max_examples=20_000,
    deadline=30_000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def fuzz(scale: float = 1.0) -> settings:
    """The selected profile, with ``scale`` times its example count."""
    return settings(PROFILE, max_examples=max(1, int(PROFILE.max_examples * scale)))


# --- the contract -------------------------------------------------------------------


def check_article(article: object, url: str | None) -> None:
    """What every result must look like, whatever the page."""
    assert isinstance(article, Article)
    assert article.url == url
    assert isinstance(article.content, str)
    for line in article.content.split("\n") if article.content else []:
        assert line.strip() == line and line, repr(line)
    for name in ("title", "published", "published_raw", "description", "language"):
        value = getattr(article, name)
        assert value is None or isinstance(value, str), (name, value)
    assert article.title is None or article.title.strip(), repr(article.title)
    assert isinstance(article.authors, tuple) and all(isinstance(a, str) for a in article.authors)
    assert isinstance(article.keywords, tuple) and all(isinstance(k, str) for k in article.keywords)
    if article.published is not None:
        datetime.fromisoformat(article.published)  # ISO 8601, as documented
        assert article.published_raw is not None
    assert "\x00" not in article.content
    article.to_dict()


# --- strategies -----------------------------------------------------------------------

TAGS = (
    "html head body title meta link script style div p span a b i br hr img h1 h2 h3 ul ol li "
    "table tr td th tbody nav aside footer header article section main time pre code "
    "blockquote form input textarea select option iframe noscript template svg math frameset "
    "frame xmp plaintext font center marquee x-custom o:p"
).split()
ATTRS = (
    "class id style href src lang charset content name property itemprop datetime rel type "
    "http-equiv hidden aria-hidden role onclick data-x"
).split()
DATES = st.sampled_from(
    [
        "2019-13-45",
        "2019-02-30T25:61:61Z",
        "0000-00-00",
        "9999-12-31T23:59:59+14:00",
        "2125-01-01",
        "1970-01-01T00:00:00Z",
        "-1",
        "1e308",
        "2021-06-01T12:00:00+99:00",
        "Tue, 32 Jan 2021",
        "2020年13月45日",
        "yesterday",
        "",
    ]
)
ENCODING_NAMES = st.sampled_from(
    [
        "utf-8",
        "utf-16",
        "utf-16-be",
        "utf-32",
        "gb2312",
        "gbk",
        "big5",
        "shift_jis",
        "euc-kr",
        "koi8-r",
        "windows-1251",
        "iso-8859-1",
        "ascii",
        "utf-7",
        "base64",
        "rot13",
        "idna",
        "undefined",
        "x-bogus",
        "",
        "text/html",
    ]
)
CODECS = st.sampled_from(
    ["utf-8", "utf-16-le", "utf-32", "gb18030", "big5", "cp932", "cp949", "koi8_r", "cp1252"]
)
text_chars = st.text(
    alphabet=st.characters(codec=None, exclude_categories=()), max_size=60
)  # any code point, surrogates included
words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz 中文日本語éà,.", min_size=0, max_size=80)


@st.composite
def attribute(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(ATTRS) | st.text("abcxyz:-_", min_size=1, max_size=8))
    value = draw(
        words
        | text_chars
        | DATES
        | ENCODING_NAMES
        | st.integers(0, 200_000).map(lambda n: "x" * n)  # huge attributes
    )
    quote = draw(st.sampled_from(['"', "'", ""]))
    return f" {name}={quote}{value}{quote}"


@st.composite
def token(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 11))
    tag = draw(st.sampled_from(TAGS))
    if kind <= 2:
        attrs = "".join(draw(st.lists(attribute(), max_size=4)))
        return f"<{tag}{attrs}{draw(st.sampled_from(['>', '/>', '', ' >']))}"
    if kind <= 4:
        return f"</{tag}>"
    if kind <= 6:
        return draw(words)
    if kind == 7:
        return draw(text_chars)
    if kind == 8:
        return draw(
            st.sampled_from(
                [
                    "&amp;",
                    "&#0;",
                    "&#x110000;",
                    "&#xD800;",
                    "&bogus;",
                    "&#99999999999;",
                    "&",
                    "<!--",
                    "-->",
                    "<![CDATA[",
                    "]]>",
                    "<!DOCTYPE html>",
                    "<?xml version='1.0' encoding='utf-16'?>",
                    "<",
                    ">",
                    "\x00",
                    "\ufeff",
                ]
            )
        )
    if kind == 9:
        return f'<meta charset="{draw(ENCODING_NAMES)}">'
    if kind == 10:
        return (
            f'<meta property="article:published_time" content="{draw(DATES)}">'
            f'<time datetime="{draw(DATES)}" pubdate>{draw(DATES)}</time>'
        )
    return (
        '<script type="application/ld+json">'
        + draw(
            st.sampled_from(
                [
                    '{"datePublished": "%s", "headline": "%s"}',
                    '[{"@graph": [{"datePublished": "%s", "author": {"name": "%s"}}]}]',
                    '{"datePublished": {"x": "%s"}, "author": [1, null, "%s"]}',
                    '{"datePublished": "%s" "%s"',
                ]
            )
        )
        % (draw(DATES), draw(words).replace('"', ""))
        + "</script>"
    )


tag_soup = st.lists(token(), max_size=60).map("".join)

SEED = (
    "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
    "<title>Budget approved | Daily Example</title>"
    "<meta property='article:published_time' content='2021-03-04T10:00:00Z'></head><body>"
    "<nav><a href='/'>Home</a> <a href='/world'>World</a> <a href='/sport'>Sport</a></nav>"
    "<article><h1>Budget approved</h1><time datetime='2021-03-04'>4 March 2021</time>"
    + "".join(
        f"<p>Paragraph {i}: the parliament approved the budget after a long debate "
        "about schools, hospitals and roads, and the minister thanked the members.</p>"
        for i in range(8)
    )
    + "</article><footer>Copyright Daily Example</footer></body></html>"
)


@st.composite
def mutated_seed(draw: st.DrawFn) -> bytes:
    """The realistic page, encoded somehow, then truncated, flipped, cut and spliced."""
    data = bytearray(SEED.encode(draw(CODECS), errors="replace"))
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.integers(0, 4))
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        if op == 0:  # truncation
            del data[i:]
        elif op == 1:  # byte flip
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == 2:  # random bytes inserted
            data[i:i] = draw(st.binary(max_size=40))
        elif op == 3:  # a span deleted
            del data[i : i + draw(st.integers(1, 200))]
        else:  # a span repeated (bounded growth)
            data[i:i] = data[i : i + draw(st.integers(1, 500))] * draw(st.integers(1, 20))
    return bytes(data)


urls = st.none() | st.sampled_from(
    [
        "http://example.com/2021/03/04/budget.html",
        "http://example.com/2019/13/45/impossible",
        "https://例子.cn/news/2020-02-30/a.shtml",
        "not a url",
        "",
        "http://[::1/",
    ]
)


# --- properties -------------------------------------------------------------------------


@fuzz(0.6)
@given(page=tag_soup, url=urls)
def test_tag_soup_str(page: str, url: str | None) -> None:
    check_article(extract_article(page, url), url)


@fuzz(1.0)
@given(page=tag_soup, codec=CODECS, header=st.none() | ENCODING_NAMES, url=urls)
def test_tag_soup_bytes_in_random_encodings(
    page: str, codec: str, header: str | None, url: str | None
) -> None:
    data = page.encode(codec, errors="replace")
    check_article(extract_article(data, url, encoding=header), url)


@fuzz(1.0)
@given(data=mutated_seed(), header=st.none() | ENCODING_NAMES)
def test_mutated_real_page(data: bytes, header: str | None) -> None:
    url = "http://example.com/2021/03/04/budget.html"
    check_article(extract_article(data, url, encoding=header), url)


@fuzz(0.6)
@given(data=st.binary(max_size=4000), header=st.none() | ENCODING_NAMES)
def test_arbitrary_bytes(data: bytes, header: str | None) -> None:
    check_article(extract_article(data, None, encoding=header), None)


@fuzz(0.3)
@given(
    n=st.integers(1, 4000),
    opening=st.sampled_from(
        [
            "<div>",
            "<b>",
            "<span class='x'>",
            "<table>",
            "<table><tr><td>",
            "<ul><li>",
            "<p>",
            "<font size=2>",
            "<blockquote>",
            "<div title='<' data-x=\"a>b\">",
            "<a href='/x'>",
        ]
    ),
    closed=st.booleans(),
)
def test_deep_nesting_keeps_the_article(n: int, opening: str, closed: bool) -> None:
    body = "".join(
        f"<p>Sentence {i} of the article that must survive any nesting around it.</p>"
        for i in range(6)
    )
    closing = "".join(f"</{t}>" for t in reversed(re.findall(r"<([a-z]+)", opening)))
    page = f"<html><body>{opening * n}{body}{closing * n if closed else ''}</body></html>"
    article = extract_article(page)
    check_article(article, None)
    if not opening.startswith("<a "):  # text inside links is, rightly, not main text
        assert "Sentence 5 of the article" in article.content
