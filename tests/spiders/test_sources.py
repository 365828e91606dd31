"""Sitemaps and feeds read within bounds, entities never expanded (spiders/_sources.py)."""

from __future__ import annotations

import json

from scrapy_cx.spiders._sources import Entry, feed_entries, feed_links, sitemap_entries

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'


def test_a_news_sitemap_gives_each_url_its_publication_date():
    body = (
        f'<?xml version="1.0"?><urlset {NS} {NEWS}><url><loc>https://x.test/a</loc>'
        "<news:news><news:publication><news:name>X</news:name></news:publication>"
        "<news:publication_date>2024-05-01T10:00:00Z</news:publication_date>"
        "<news:title>A</news:title></news:news></url>"
        "<url><loc>https://x.test/b</loc><lastmod>2024-04-01</lastmod></url></urlset>"
    ).encode()
    listed = sitemap_entries(body)
    assert listed.kind == "urlset"
    assert listed.entries == [
        Entry("https://x.test/a", "2024-05-01T10:00:00Z"),
        Entry("https://x.test/b", "2024-04-01"),
    ]


def test_a_sitemap_index_and_the_cap_on_urls():
    body = (
        f'<?xml version="1.0"?><sitemapindex {NS}>'
        + "".join(f"<sitemap><loc>https://x.test/s{i}.xml</loc></sitemap>" for i in range(10))
        + "</sitemapindex>"
    ).encode()
    listed = sitemap_entries(body, limit=4)
    assert listed.kind == "sitemapindex"
    assert [e.url for e in listed.entries] == [f"https://x.test/s{i}.xml" for i in range(4)]
    assert listed.capped == 6


def test_what_is_no_sitemap_is_unreadable():
    for body in (b"", b"<html><body>Not found</body></html>", b"\x00\x01garbage"):
        assert sitemap_entries(body).kind == ""


def test_rss_atom_and_rdf_feeds():
    rss = (
        b'<?xml version="1.0"?><rss version="2.0"><channel><item><title>A</title>'
        b"<link>https://x.test/a</link><pubDate>Wed, 01 May 2024 10:00:00 GMT</pubDate></item>"
        b'<item><guid isPermaLink="true">https://x.test/b</guid></item>'
        b'<item><guid isPermaLink="false">tag:1</guid></item></channel></rss>'
    )
    assert feed_entries(rss).entries == [
        Entry("https://x.test/a", "Wed, 01 May 2024 10:00:00 GMT"),
        Entry("https://x.test/b", None),
    ]
    atom = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="self" href="/self"/>'
        b'<link href="https://x.test/c"/><updated>2024-05-02T00:00:00Z</updated></entry></feed>'
    )
    assert feed_entries(atom).entries == [Entry("https://x.test/c", "2024-05-02T00:00:00Z")]
    rdf = (
        b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        b'xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        b'<item rdf:about="https://x.test/d"><link>https://x.test/d</link>'
        b"<dc:date>2024-05-03</dc:date></item></rdf:RDF>"
    )
    assert feed_entries(rdf).entries == [Entry("https://x.test/d", "2024-05-03")]


def test_a_hostile_feed_expands_no_entity_and_reads_what_it_can():
    body = (
        b'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">'
        b'<!ENTITY x SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel>'
        b"<item><title>&c;&x;</title><link>https://x.test/a&x;</link></item>"
        b"<item><link>https://x.test/b</link></item><item><broken"
    )
    listed = feed_entries(body)
    assert listed.kind == "feed"
    urls = [e.url for e in listed.entries]
    assert urls == ["https://x.test/b"]  # a's link is cut by &x;: left out, counted
    assert listed.bad == 1
    assert all("root:" not in url and "aaaa" not in url for url in urls)


def _laughs(levels: int = 10) -> str:
    entities = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)
    )
    return f'<?xml version="1.0"?><!DOCTYPE rss [{entities}]>'


def test_a_billion_laughs_feed_is_unreadable_not_empty():
    body = (
        _laughs() + '<rss version="2.0"><channel><title>&lol9;</title>'
        "<item><link>https://x.test/a</link></item></channel></rss>"
    ).encode()
    listed = feed_entries(body)
    assert listed.kind == "" and listed.entries == []
    assert "limits" in listed.why


def test_an_entity_never_cuts_a_link():
    body = (
        b'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY e "zzz">]><rss version="2.0"><channel>'
        b"<item><link>https://x.test/a&e;?q=1</link></item>"
        b"<item><link>https://x.test/b?q=1&amp;r=2</link></item></channel></rss>"
    )
    listed = feed_entries(body)
    assert [e.url for e in listed.entries] == ["https://x.test/b?q=1&r=2"]
    assert listed.bad == 1


def test_json_feed_1_0_and_1_1_are_read_as_json():
    for version in ("1", "1.1"):
        body = json.dumps(
            {
                "version": f"https://jsonfeed.org/version/{version}",
                "title": "X",
                "items": [
                    {"url": "https://x.test/a", "date_published": "2024-05-01T10:00:00Z"},
                    {"id": "2", "url": "https://x.test/b", "date_modified": "2024-05-02"},
                    {"id": "3", "external_url": "https://elsewhere.test/c"},
                    "junk",
                ],
            }
        ).encode()
        listed = feed_entries(b"\n  " + body, limit=1)
        assert listed.kind == "feed"
        assert listed.entries == [Entry("https://x.test/a", "2024-05-01T10:00:00Z")]
        assert listed.capped == 1 and listed.bad == 2


def test_what_is_no_json_feed_is_unreadable_with_a_reason():
    cases = {
        b'{"version": "https://jsonfeed.org/version/1", "items": [': "not JSON",
        b'{"items": []}': "no JSON Feed version",
        b'{"version": "https://jsonfeed.org/version/1.1", "items": {}}': "without items",
        b"[" * 100_000 + b"]" * 100_000: "not XML",  # no JSON object: read as XML, and not
        b"{" + b'"a":[' * 100_000 + b"1" + b"]" * 100_000 + b"}": "not JSON",  # too deep
    }
    for body, why in cases.items():
        listed = feed_entries(body)
        assert listed.kind == "" and why in listed.why, (body[:40], listed.why)


def test_an_html_page_is_no_feed():
    assert feed_entries(b"<html><body><p>Hello</p></body></html>").kind == ""


def test_feed_links_among_a_page_links():
    links = [
        ("alternate", "application/rss+xml", "/feed"),
        ("Alternate", "application/atom+xml ", "/atom.xml"),
        ("stylesheet", "text/css", "/a.css"),
        ("alternate", "text/html", "/fr/"),
        ("alternate", "application/rss+xml", "/feed"),
    ]
    assert feed_links(iter(links)) == ["/feed", "/atom.xml"]
