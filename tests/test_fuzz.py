"""Property-based tests: ``extract_article`` and the bulk readers hold up on any input.

The documented contract is "never raises on bad markup or bytes": for every
``str`` or ``bytes`` page, whatever the declared encoding, the result is an
:class:`Article` whose fields have their documented types and shapes. The bulk
readers (WARC archives, ``.gz`` pages, folders) turn any bytes and any folder
into pages within the size limit or skips with a reason, never an exception,
and never read outside the folders given.

Profiles: ``ci`` (default, about 3 600 examples, the same on every run) and
``long`` (``HYPOTHESIS_PROFILE=long``, see docs/reliability.rst).
"""

from __future__ import annotations

import gzip
import os
import re
import tempfile
from datetime import datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_cx import Article, extract_article
from scrapy_cx.article import FORMATS
from scrapy_cx.bulk import RawPage, Skip
from scrapy_cx.bulk._sources import Sources
from tests.extract.test_urls import HOSTILE as HOSTILE_URLS
from tests.extract.test_urls import ORDINARY as ORDINARY_URLS
from tests.support.html import assert_article_html, assert_markdown_agrees, assert_safe_markdown

# ci: the same examples on every run. The tag soup is where the fuzz found bugs: with two
# of its finds reverted (a title of escapes only came out as '', emphasis beside
# punctuation lost in Markdown), test_tag_soup_str fails at its 900 examples and passes
# at 300, so the soup keeps its size. The other properties replay one seed page, one
# nesting or random bytes: their ci counts were cut (each @fuzz's ci=) to what covers
# their shapes; new bugs are the long profile's job (fresh seeds, 20 000 examples).
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


def fuzz(scale: float = 1.0, ci: float | None = None) -> settings:
    """The selected profile, with ``scale`` times its example count (``ci`` times under
    the ci profile, where given: CI replays fewer, the long profile explores as many)."""
    if ci is not None and PROFILE is settings.get_profile("ci"):
        scale = ci
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
    related = [url for _title, url in article.related]
    images = [image.url for image in article.images or ()]
    for address in (article.image, article.canonical_url, *related, *images):  # http(s) only
        assert address is None or address.startswith(("http://", "https://")), address
        assert address is None or not re.search("[\t\n\r]", address), address
    # The body's HTML: well-formed, safe, the text of content; its Markdown safe too.
    assert_article_html(article)
    if article.content_markdown is not None:
        assert_safe_markdown(article.content_markdown)
        if article.content_html is not None:
            assert_markdown_agrees(article)
    article.to_dict()


# --- strategies -----------------------------------------------------------------------

TAGS = (
    "html head body title meta link script style div p span a b i br hr img h1 h2 h3 ul ol li "
    "table tr td th tbody nav aside footer header article section main time pre code "
    "blockquote form input textarea select option iframe noscript template svg math frameset "
    "frame xmp plaintext font center marquee x-custom o:p "
    # the body's structure (issue 22)
    "figure figcaption picture source dl dt dd h4 h6 em strong sub sup kbd q caption thead "
    "tfoot object embed "
    # void elements libxml2 reads as containers (issue 39), and media with fallback content
    "source track wbr keygen bgsound image param video audio"
).split()
ATTRS = (
    "class id style href src lang charset content name property itemprop datetime rel type "
    "http-equiv hidden aria-hidden role onclick data-x "
    "srcset data-src data-srcset alt width height colspan rowspan onerror"
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


# Addresses for href, src and content: ordinary, and the hostile forms that must never
# come out of the article (tests/extract/test_urls.py).
ADDRESSES = st.sampled_from([*HOSTILE_URLS, *(url for url, _expected in ORDINARY_URLS)])


@st.composite
def attribute(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(ATTRS) | st.text("abcxyz:-_", min_size=1, max_size=8))
    value = draw(
        words
        | text_chars
        | DATES
        | ENCODING_NAMES
        | ADDRESSES
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
                    # what a tag bound must not count (issue 27 #1) and what must not
                    # reach a terminal (#10)
                    "<script>" + "<" * 500 + "</script>",
                    "<style>/*" + "<" * 500 + "*/</style>",
                    "<!--" + "<b>" * 200 + "-->",
                    "\x1b[2J\x9b31m\x07",
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
    + "</article><aside><ul>"
    # related links, one with an address urljoin rejects, others no browser should follow
    + "".join(
        f"<li><a href='{href}'>Another headline readers also clicked, number {i}</a></li>"
        for i, href in enumerate(
            ("/a", "http://[::1/b", "/c", "JavaScript:alert(1)", "java\tscript:x", "data:,x")
        )
    )
    + "</ul></aside><footer>Copyright Daily Example</footer></body></html>"
)


# A story with every structure the body keeps (issue 22), for the mutations to break.
STRUCTURED_SEED = SEED.replace(
    "<p>Paragraph 3:",
    "<h3>What <a href='javascript:x()'>was</a> decided</h3><ul><li>Schools <b>first</b><ol>"
    "<li>primary</li><li>secondary</li></ol></li><li><a href='/roads'>Roads</a></li></ul>"
    "<table><caption>Costs</caption><tr><th>Part</th><th colspan='2'>Cost | year</th></tr>"
    "<tr><td rowspan='2'>Span</td><td>8</td><td>2025</td></tr><tr><td>1</td><td>2026</td></tr>"
    "<tr><td>Piers</td><td>2</td><td>2027</td></tr><tr><td>Roads</td><td>3</td><td>2028</td></tr>"
    "</table><figure><img src='data:image/gif;base64,R0lGOD' data-src='/a.jpg' srcset="
    "'data:image/gif;base64,R0lGOD 1w, /a-800.jpg 800w' alt='A'><figcaption>The <em>span"
    "</em></figcaption></figure><blockquote><p>We will finally have a bridge.</p></blockquote>"
    "<pre><code>x  =  1\n  y = '&lt;b&gt;'\n</code></pre><p>Paragraph 3:",
)


@st.composite
def mutated_structured_seed(draw: st.DrawFn) -> bytes:
    return mutate(draw, STRUCTURED_SEED.encode(draw(CODECS), errors="replace"))


@st.composite
def mutated_seed(draw: st.DrawFn) -> bytes:
    """The realistic page, encoded somehow, then truncated, flipped, cut and spliced."""
    return mutate(draw, SEED.encode(draw(CODECS), errors="replace"))


def mutate(draw: st.DrawFn, seed: bytes) -> bytes:
    """``seed`` truncated, flipped, cut and spliced a few times."""
    data = bytearray(seed)
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
    check_article(extract_article(page, url, formats=FORMATS), url)


@fuzz(1.0, ci=0.6)  # ci: the str soup's pages, encoded
@given(page=tag_soup, codec=CODECS, header=st.none() | ENCODING_NAMES, url=urls)
def test_tag_soup_bytes_in_random_encodings(
    page: str, codec: str, header: str | None, url: str | None
) -> None:
    data = page.encode(codec, errors="replace")
    check_article(extract_article(data, url, encoding=header, formats=FORMATS), url)


@fuzz(1.0, ci=0.3)  # ci: one seed page, mutated
@given(data=mutated_seed(), header=st.none() | ENCODING_NAMES)
def test_mutated_real_page(data: bytes, header: str | None) -> None:
    url = "http://example.com/2021/03/04/budget.html"
    check_article(extract_article(data, url, encoding=header, formats=FORMATS), url)


@fuzz(0.5, ci=0.3)  # ci: one seed page, mutated
@given(data=mutated_structured_seed(), header=st.none() | ENCODING_NAMES)
def test_mutated_structured_page(data: bytes, header: str | None) -> None:
    url = "http://example.com/2021/03/04/budget.html"
    check_article(extract_article(data, url, encoding=header, formats=FORMATS), url)


@fuzz(0.6, ci=0.2)  # ci: random bytes, one shape
@given(data=st.binary(max_size=4000), header=st.none() | ENCODING_NAMES)
def test_arbitrary_bytes(data: bytes, header: str | None) -> None:
    check_article(extract_article(data, None, encoding=header, formats=FORMATS), None)


@fuzz(0.3, ci=0.1)  # ci: 22 shapes, each at many depths
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
            # void elements libxml2 nests the rest in, and unclosed links each nesting
            # the next (issue 39: the text after an <embed> was lost; links x depth)
            "<embed src='/x.swf'>",
            "<wbr>",
            "<source src='/x.webm'>",
            "<em><a href='/x'>word ",
            # benchmarks/shapes.py's one shape over 10x the documented ns per byte
            "<figure><img src='/a.jpg' alt='A'><figcaption>A picture.</figcaption></figure>",
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
    article = extract_article(page, formats=FORMATS)
    check_article(article, None)
    if "<a " not in opening:  # text inside links is, rightly, not main text
        assert "Sentence 5 of the article" in article.content


# --- the bulk readers -------------------------------------------------------------------

LIMIT = 64 * 1024  # --max-page-bytes for these tests: small, so the bound is exercised


def _warc_seed(compress: bool) -> bytes:
    from io import BytesIO

    from tests.sample_pages import write_warc

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seed.warc"
        records = [
            ("http://example.com/a", "response", [("Content-Type", "text/html")], SEED.encode()),
            ("http://example.com/b", "resource", [("Content-Type", "text/html")], b"<p>b</p>"),
            ("http://example.com/c", "response", [("Status", "404 Not Found")], b"<p>c</p>"),
        ]
        write_warc(path, records, compress=compress)
        return BytesIO(path.read_bytes()).getvalue()


WARC_SEEDS = {name: _warc_seed(name.endswith(".gz")) for name in ("a.warc", "a.warc.gz")}


def read_all(paths: list[Path]) -> list[RawPage | Skip]:
    """Every item the bulk reader yields, each checked against the contract."""
    items = list(Sources(paths, max_page_bytes=LIMIT))
    for item in items:
        assert isinstance(item, (RawPage, Skip)), item
        if isinstance(item, RawPage):
            assert item.body.strip() and len(item.body) <= LIMIT
        else:
            assert item.reason and isinstance(item.reason, str)
    return items


@fuzz(0.1)
@given(data=st.data(), name=st.sampled_from(sorted(WARC_SEEDS)))
def test_mutated_warc_archives(data: st.DataObject, name: str) -> None:
    mutated = data.draw(st.composite(lambda draw: mutate(draw, WARC_SEEDS[name]))())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(mutated)
        read_all([path])


@fuzz(0.1)
@given(data=st.data(), members=st.integers(1, 3))
def test_mutated_gzip_pages(data: st.DataObject, members: int) -> None:
    member = gzip.compress(SEED.encode()[:20_000])
    mutated = data.draw(st.composite(lambda draw: mutate(draw, member * members))())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html.gz"
        path.write_bytes(mutated)
        (item,) = read_all([path])
        if mutated == member * members:  # untouched: every member is read
            assert isinstance(item, RawPage) and item.body == SEED.encode()[:20_000] * members


ENTRY = st.sampled_from(["page", "gz", "bomb", "other", "link-in", "link-out", "dir-link", "fifo"])


@fuzz(0.1)
@given(entries=st.lists(st.tuples(st.sampled_from(["", "sub/", "sub/deep/"]), ENTRY), max_size=8))
def test_folders_of_any_kind_of_entry(entries: list[tuple[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as outside, tempfile.TemporaryDirectory() as folder:
        secret = Path(outside) / "secret.html"
        secret.write_bytes(b"<p>secret</p>")
        root = Path(folder)
        made = []
        for i, (sub, kind) in enumerate(entries):
            (root / sub).mkdir(parents=True, exist_ok=True)
            path = root / sub / f"{i}-{kind}.html"
            if kind == "page":
                path.write_bytes(b"<p>page</p>")
            elif kind == "gz":
                path = path.with_suffix(".html.gz")
                path.write_bytes(gzip.compress(b"<p>a</p>") + gzip.compress(b"<p>b</p>"))
            elif kind == "bomb":
                path = path.with_suffix(".html.gz")
                path.write_bytes(gzip.compress(b" " * (LIMIT * 20)))
            elif kind == "other":
                path = path.with_suffix(".bin")
                path.write_bytes(b"\x00\x01")
            elif kind == "link-in":
                (root / "target.html").write_bytes(b"<p>target</p>")
                path.symlink_to(root / "target.html")
            elif kind == "link-out":
                path.symlink_to(secret)
            elif kind == "dir-link":
                path = path.with_suffix("")
                path.symlink_to(outside, target_is_directory=True)
            else:
                os.mkfifo(path)
            made.append(path)
        items = read_all([root])
        sources = [Path(item.source) for item in items]
        for path in made:  # each entry shows up, as a page or a skip
            assert path in sources, (path, sources)
        for item in items:
            if isinstance(item, RawPage):
                assert b"secret" not in item.body
                assert Path(item.source).resolve().is_relative_to(root.resolve())
