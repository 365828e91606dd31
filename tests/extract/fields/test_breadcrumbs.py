"""breadcrumbs: the trail JSON-LD, microdata or the page's breadcrumb navigation shows."""

from __future__ import annotations

import json
from typing import Any

from scrapy_cx import Breadcrumb, extract_article
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.fields.breadcrumbs import MAX_CRUMBS, jsonld_trail
from tests.extract.prose import PARAGRAPHS

URL = "https://news.example/city/night-buses"
HOME, CITY = (
    Breadcrumb("Home", "https://news.example/"),
    Breadcrumb("City", "https://news.example/city/"),
)
HERE = Breadcrumb("Night buses approved")


def page(head: str = "", body: str = "") -> str:
    return (
        f"<html><head><title>Night buses approved</title>{head}</head><body>{body}"
        f"<h1>Night buses approved</h1>{PARAGRAPHS}</body></html>"
    )


def ld(node: dict[str, Any]) -> str:
    return f'<script type="application/ld+json">{json.dumps(node)}</script>'


def crumbs(head: str = "", body: str = "", url: str | None = URL) -> tuple[Breadcrumb, ...]:
    return extract_article(page(head, body), url).breadcrumbs


TRAIL = {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    "itemListElement": [
        {"@type": "ListItem", "position": 3, "name": "Night buses approved"},
        {"@type": "ListItem", "position": "2", "item": {"@id": "/city/", "name": "City"}},
        {"@type": "ListItem", "position": 1, "name": "Home", "item": "https://news.example/"},
    ],
}


def test_a_json_ld_trail_in_position_order_with_absolute_urls() -> None:
    result = extract_page(page(ld(TRAIL)), URL)
    assert result.article().breadcrumbs == (HOME, CITY, HERE)
    evidence = result.evidence_of("breadcrumbs")
    assert evidence.source == "jsonld:BreadcrumbList"
    assert evidence.raw == "Home › City › Night buses approved"


def test_a_web_pages_breadcrumb_in_a_graph() -> None:
    graph = {"@graph": [{"@type": "WebPage", "breadcrumb": TRAIL}, {"@type": "NewsArticle"}]}
    assert crumbs(ld(graph)) == (HOME, CITY, HERE)


def test_in_the_item_a_list_of_name_and_url() -> None:
    data = extract_article(page(ld(TRAIL)), URL).to_dict()
    assert data["breadcrumbs"] == [
        {"name": "Home", "url": "https://news.example/"},
        {"name": "City", "url": "https://news.example/city/"},
        {"name": "Night buses approved", "url": None},
    ]


def test_only_http_addresses_and_named_crumbs() -> None:
    items = [
        {"position": 1, "name": "Home", "item": "javascript:alert(1)"},
        {"position": 2, "item": "https://news.example/city/"},  # no name: left out
        {"position": 3, "name": "  Mail  ", "item": "mailto:desk@news.example"},
        {"position": 4, "name": "x" * 500},  # a paragraph, not a crumb
    ]
    trail = jsonld_trail({"@type": "BreadcrumbList", "itemListElement": items}, URL)
    assert trail == [Breadcrumb("Home"), Breadcrumb("Mail")]


def test_microdata_trail() -> None:
    body = (
        '<ol itemscope itemtype="https://schema.org/BreadcrumbList">'
        '<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">'
        '<a itemprop="item" href="/"><span itemprop="name">Home</span></a>'
        '<meta itemprop="position" content="1"></li> › '
        '<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">'
        '<a itemprop="item" href="/city/"><span itemprop="name">City</span></a>'
        '<meta itemprop="position" content="2"></li></ol>'
    )
    result = extract_page(page(body=body), URL)
    assert result.article().breadcrumbs == (HOME, CITY)
    assert result.evidence_of("breadcrumbs").source == "microdata BreadcrumbList"


def test_a_breadcrumb_navigation_list() -> None:
    body = (
        '<nav aria-label="Breadcrumb"><ol>'
        '<li><a href="/">Home</a></li><li class="sep">/</li>'
        '<li><a href="/city/">City</a></li>'
        '<li aria-current="page">Night buses approved</li></ol></nav>'
    )
    assert crumbs(body=body) == (HOME, CITY, HERE)


def test_a_list_less_trail_with_separators_and_a_label() -> None:
    body = (
        '<div class="Breadcrumbs">You are here: <a href="/">Home</a> &gt; '
        '<a href="/city/">City</a> &gt; <span>Night buses approved</span></div>'
    )
    assert crumbs(body=body) == (HOME, CITY, HERE)


def test_json_ld_first() -> None:
    body = '<ul class="breadcrumb"><li><a href="/">Start</a></li><li><a href="/x/">X</a></li></ul>'
    assert crumbs(ld(TRAIL), body) == (HOME, CITY, HERE)


def test_what_is_not_a_trail() -> None:
    assert crumbs() == ()
    one = '<nav class="breadcrumb"><a href="/">Home</a></nav>'  # one crumb: no trail
    assert crumbs(body=one) == ()
    menu = "".join(f'<li><a href="/s{k}/">Section {k}</a></li>' for k in range(MAX_CRUMBS + 1))
    assert crumbs(body=f'<ul class="breadcrumbs">{menu}</ul>') == ()
    prose = '<div class="breadcrumb"><a href="/">Home</a> ' + "word " * 40 + "</div>"
    assert crumbs(body=prose) == ()
    page_class = f'<div class="has-breadcrumbs"><p>{"word " * 30}</p></div>'
    assert crumbs(body=page_class) == ()


def test_navigation_read_as_a_reader_sees_it() -> None:
    icon = '<svg aria-hidden="true"><title>Icon Chevron</title></svg>'
    body = (
        '<div class="breadcrumbs"><ul><li class="here">Sie sind hier:</li>'
        f'<li><a href="/">Home</a>{icon}</li><li><a href="/city/">City</a>'
        '<i class="material-icons" aria-hidden="true">navigate_next</i></li>'
        "<li>▸ Night buses approved</li></ul>"
        '<ul class="share"><li><a href="/share">teilen</a></li></ul></div>'
    )
    assert crumbs(body=body) == (HOME, CITY, HERE)


def test_links_read_against_the_base_address() -> None:
    head = '<base href="https://www.news.example/site/">'
    body = '<nav class="breadcrumb"><a href="start.html">Start</a> › <a href="city/">City</a></nav>'
    assert crumbs(head, body) == (
        Breadcrumb("Start", "https://www.news.example/site/start.html"),
        Breadcrumb("City", "https://www.news.example/site/city/"),
    )


def test_a_pager_named_breadcrumb_is_no_trail_but_a_date_archive_is() -> None:
    numbers = "".join(f'<a href="?page={k}">{k}</a> ' for k in range(1, 6))
    pager = f'<div class="breadcrumb"><a href="?page=0">« Previous</a> {numbers} … </div>'
    assert crumbs(body=pager) == ()
    archive = '<div class="breadcrumb"><a href="/2023/">2023</a> › <a href="/2023/11/">11</a></div>'
    assert [crumb.name for crumb in crumbs(body=archive)] == ["2023", "11"]


def test_a_list_of_tags_named_breadcrumb_is_no_trail() -> None:
    tags = ", ".join(f'<a href="/tag/{k}/">Tag {k}</a>' for k in range(4))
    assert crumbs(body=f'<div class="breadcrumb">{tags}</div>') == ()


def test_odd_json_ld_is_read_as_far_as_it_goes() -> None:
    odd: list[Any] = [
        {"@type": ["BreadcrumbList"], "itemListElement": {"name": "not a list"}},
        {"@type": 7, "itemListElement": [{"name": "Home"}]},
        {"@type": "BreadcrumbList", "itemListElement": [None, 3, "Home", {"name": 5}]},
        {
            "@type": "schema:BreadcrumbList",
            "itemListElement": [
                {"position": {"x": 1}, "name": "B", "item": {"@id": 5}},
                {"position": True, "name": "A", "item": ["/a"]},
                {"position": "first", "name": "\u0000C\t\n", "item": "http://[bad"},
            ],
        },
    ]
    trails = [jsonld_trail(node, URL) for node in odd]
    assert trails[:3] == [[], [], []]
    assert trails[3] == [Breadcrumb("B"), Breadcrumb("A"), Breadcrumb("\u0000C")]
    # and the record holds no control character
    article = extract_article(page(ld(odd[3])), URL)
    assert [crumb.name for crumb in article.breadcrumbs] == ["B", "A", "C"]
