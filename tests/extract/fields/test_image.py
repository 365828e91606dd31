"""The lead image: declared images first, logos and pixels refused, else the story's picture."""

from __future__ import annotations

import html

import pytest

from scrapy_cx import extract_article
from scrapy_cx.extract.fields.image import is_lead_candidate
from tests.extract.prose import PARAGRAPHS
from tests.extract.test_urls import HOSTILE

URL = "https://news.example/city/night-buses"


def image(head: str = "", body: str = "", url: str | None = URL) -> str | None:
    html = (
        f"<html><head><title>Night buses approved</title>{head}</head><body>"
        "<header><img src='/static/site.png' width='600' height='300'></header>"
        f"<h1>Night buses approved</h1>{body}{PARAGRAPHS}</body></html>"
    )
    return extract_article(html, url).image


def test_og_image_made_absolute() -> None:
    head = "<meta property='og:image' content='/media/2016/bus.jpg?w=1200'>"
    assert image(head) == "https://news.example/media/2016/bus.jpg?w=1200"


def test_twitter_and_json_ld_images() -> None:
    assert image("<meta name='twitter:image' content='https://cdn.example/t.jpg'>") == (
        "https://cdn.example/t.jpg"
    )
    ld = """<script type="application/ld+json">{"@type": "NewsArticle",
    "image": {"@type": "ImageObject", "url": "https://cdn.example/ld.jpg"}}</script>"""
    assert image(ld) == "https://cdn.example/ld.jpg"


def test_a_logo_is_not_the_lead_image() -> None:
    head = "<meta property='og:image' content='https://news.example/img/site-logo.png'>"
    body = "<figure><img src='/media/bus-depot.jpg' width='900' height='600'></figure>"
    assert image(head, body) == "https://news.example/media/bus-depot.jpg"
    assert image(head) is None  # the header's picture sits above the headline: not the story's


def test_first_large_picture_of_the_story() -> None:
    body = (
        "<div class='author-box'><img src='/u/ann.jpg' width='600' height='600'></div>"
        "<img src='/img/pixel.gif' width='1' height='1'>"
        "<img src='data:image/png;base64,iVBORw0KGgo=' width='800' height='500'>"
        "<img src='/img/icon-share.png'>"
        "<img src='/img/small.jpg' width='40' height='40'>"
        "<p><img src='/online?u=ann'></p>"  # no size, no picture file: a status badge
        "<figure><img data-src='/media/lazy.jpg' src='data:,' width='800'></figure>"
    )
    assert image(body=body) == "https://news.example/media/lazy.jpg"


def test_no_url_keeps_only_absolute_images() -> None:
    assert image("<meta property='og:image' content='/media/bus.jpg'>", url=None) is None
    head = "<meta property='og:image' content='https://cdn.example/bus.jpg'>"
    assert image(head, url=None) == "https://cdn.example/bus.jpg"


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://cdn.example/2016/03/bus.jpg", True),
        ("https://cdn.example/assets/logo.png", False),
        ("https://cdn.example/favicon.ico", False),
        ("https://cdn.example/img/spacer.gif", False),
        ("https://cdn.example/img/brand.svg", False),
        ("https://cdn.example/cgi-bin/advt/ads.cgi?page=1", False),
        ("https://cdn.example/QRCode/8389416.png", False),
        ("data:image/png;base64,AAAA", False),
    ],
)
def test_is_lead_candidate(url: str, ok: bool) -> None:
    assert is_lead_candidate(url) is ok


def _picture(name: str) -> str:
    return f"<img src='/media/{name}.jpg' width='800' height='500'>"


def test_without_a_headline_the_first_pictures_of_the_page_count() -> None:
    from lxml import etree

    from scrapy_cx.extract.fields.image import _MAX_IMAGES, body_image

    page = f"<html><body><div>{_picture('first')}</div><p>Text</p>{_picture('second')}</body>"
    assert body_image(etree.HTML(page), URL) == "https://news.example/media/first.jpg"
    icons = "<img src='/img/small.jpg' width='40' height='40'>" * _MAX_IMAGES
    crowded = f"<html><body>{icons}{_picture('late')}</body></html>"
    assert body_image(etree.HTML(crowded), URL) is None  # past the pictures looked at
    headed = f"<html><body>{icons}<h1>Title</h1>{_picture('late')}<h1>Two</h1></body></html>"
    assert body_image(etree.HTML(headed), URL) == "https://news.example/media/late.jpg"
    late = f"<html><body><h1>Title</h1>{icons}{_picture('late')}</body></html>"
    assert body_image(etree.HTML(late), URL) is None


@pytest.mark.parametrize("url", HOSTILE)
def test_the_lead_image_is_an_http_address(url: str) -> None:
    src = html.escape(url, quote=True)
    assert image(f"<meta property='og:image' content='{src}'>") is None
    assert image(body=f"<figure><img src='{src}' width='900' height='600'></figure>") is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/media/bus.jpg", "https://news.example/media/bus.jpg"),
        ("//cdn.example/bus.jpg", "https://cdn.example/bus.jpg"),
        ("HTTPS://cdn.example/bus.jpg", "https://cdn.example/bus.jpg"),
        (" ht\ttps://cdn.example/bus.jpg\n", "https://cdn.example/bus.jpg"),
    ],
)
def test_the_lead_image_is_read_as_a_browser_reads_it(url: str, expected: str) -> None:
    assert image(f"<meta property='og:image' content='{url}'>") == expected
    assert image(body=f"<figure><img src='{url}' width='900' height='600'></figure>") == expected
