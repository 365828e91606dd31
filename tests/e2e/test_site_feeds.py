"""``scrapy crawl news -a site=URL`` reads JSON Feed, and says so when a feed is hostile
(issue 43, items 9 and 14): a real crawl of a site served on 127.0.0.1."""

from __future__ import annotations

import json

from tests.e2e.test_boundary import FAST, article
from tests.support.crawl import run_crawl
from tests.support.server import Route, serve


def _laughs() -> str:
    entities = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)
    )
    return f'<?xml version="1.0"?><!DOCTYPE rss [{entities}]>'


def test_a_json_feed_is_read_and_a_billion_laughs_feed_is_unreadable(tmp_path):
    routes: dict[str, Route] = {}
    with serve(routes) as (base, hits):
        json_feed = {
            "version": "https://jsonfeed.org/version/1.1",
            "title": "Example",
            "items": [
                {"id": "a", "url": f"{base}/a.html", "date_published": "2024-05-01T10:00:00Z"},
                {"id": "b", "url": f"{base}/b.html"},
            ],
        }
        laughs = (
            _laughs() + '<rss version="2.0"><channel><title>&lol9;</title>'
            f"<item><link>{base}/c.html</link></item></channel></rss>"
        )
        routes.update(
            {
                "/": Route(
                    b'<html><head><link rel="alternate" type="application/feed+json" '
                    b'href="/feed.json"><link rel="alternate" type="application/rss+xml" '
                    b'href="/laughs.xml"></head><body><h1>Home</h1></body></html>'
                ),
                "/feed.json": Route(
                    json.dumps(json_feed).encode(),
                    headers={"Content-Type": "application/feed+json"},
                ),
                "/laughs.xml": Route(
                    laughs.encode(), headers={"Content-Type": "application/rss+xml"}
                ),
                "/a.html": article("Story A", "Alpha."),
                "/b.html": article("Story B", "Beta."),
                "/c.html": article("Story C", "Gamma."),
            }
        )
        proc, items = run_crawl(["-a", f"site={base}/"], tmp_path / "out.jsonl", settings=FAST)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    assert {item["url"] for item in items} == {f"{base}/a.html", f"{base}/b.html"}
    assert "'cx/news/feed_unreadable': 1" in proc.stderr
    assert f"Not a readable feed: {base}/laughs.xml (over the XML parser's limits" in proc.stderr
    assert "lollollol" not in proc.stderr
