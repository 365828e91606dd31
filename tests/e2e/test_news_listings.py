"""Listings in a ``site=`` crawl (issue 43, items 11, 12, 13): a first run pages through
a section whatever the sitemap gave, a last page of one teaser is a listing, and a
small listing's footer links are no articles. Real crawls of a site on 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.newssite import Story, _article_page, _listing, _pager, build_news_site
from tests.e2e.test_newscrawl import FAST
from tests.support.crawl import run_crawl
from tests.support.server import Route, serve

HTML = {"Content-Type": "text/html; charset=utf-8"}
# A footer the walk cannot tell for one: no <footer>, no footer name (legal addresses only).
FOOTER = (
    '<div class="bottom"><ul><li><a href="/privacy.html">Privacy and cookie policy</a></li>'
    '<li><a href="/terms-of-use/">Terms and conditions of use</a></li>'
    '<li><a href="/contact-us">Contact the newsroom team</a></li>'
    '<li><a href="/about/">About The Example Courier</a></li></ul>'
)


def _section(base: str, stories: list[Story], per_page: int, footer: bool) -> dict[str, Any]:
    """A home page naming one section, whose pager shows ``per_page`` teasers a page."""
    routes: dict[str, Any] = {
        "/robots.txt": Route(b"User-agent: *\n", headers={"Content-Type": "text/plain"}),
    }
    pages = -(-len(stories) // per_page)
    for n in range(1, pages + 1):
        path = "/world/" if n == 1 else f"/world/page/{n}/"
        chunk = stories[(n - 1) * per_page : n * per_page]
        body = _listing("World", chunk, _pager("/world/", n, pages, "en"))
        if footer:
            body = body.replace(b"<footer>", FOOTER.encode()).replace(b"</footer>", b"</div>")
        routes[path] = Route(body, headers=HTML)
    routes["/"] = Route(_listing("Latest news", [], ""), headers=HTML)
    for story in stories:
        routes[story.path] = Route(_article_page(story, 0), headers=HTML)
    for path in ("/privacy.html", "/terms-of-use/", "/contact-us", "/about/"):
        routes[path] = Route(b"<html><body><p>Legal.</p></body></html>", headers=HTML)
    return routes


def _world(base: str, count: int) -> list[Story]:
    stories = [s for s in build_news_site(base, count=8 * count).stories if s.section == "world"]
    return [s for s in stories if len(s.pages) == 1][:count]


def _sitemap(base: str, stories: list[Story]) -> Route:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    urls = "".join(f"<url><loc>{base}{s.path}</loc></url>" for s in stories)
    body = f'<?xml version="1.0"?><urlset {ns}>{urls}</urlset>'.encode()
    return Route(body, headers={"Content-Type": "application/xml"})


def _crawl(base: str, tmp_path: Path, name: str, **settings: str) -> tuple[Any, set[str]]:
    proc, items = run_crawl(
        ["-a", f"site={base}/"], tmp_path / f"{name}.jsonl", settings={**FAST, **settings}
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc, {item["url"].removeprefix(base) for item in items}


def test_a_first_run_pages_through_a_listing_whose_first_page_the_sitemap_gave(tmp_path):
    routes: dict[str, Any] = {}
    with serve(routes) as (base, hits):
        stories = _world(base, 17)
        routes.update(_section(base, stories, per_page=5, footer=False))
        routes["/sitemap.xml"] = _sitemap(base, stories[:5])  # a news sitemap: the newest
        _, exported = _crawl(base, tmp_path, "first", JOBDIR=str(tmp_path / "job"))
        assert exported == {s.path for s in stories}
        assert "/world/page/4/" in hits
        # A rerun stops at the first page with nothing new on it.
        hits.clear()
        proc, again = _crawl(base, tmp_path, "second", JOBDIR=str(tmp_path / "job"))
    assert again == set()
    assert "/world/" in hits and "/world/page/2/" not in hits
    assert "'cx/news/listing_caught_up'" in proc.stderr


def test_a_last_listing_page_of_one_teaser_is_a_listing(tmp_path):
    routes: dict[str, Any] = {}
    with serve(routes) as (base, hits):
        stories = _world(base, 11)
        routes.update(_section(base, stories, per_page=5, footer=False))  # 5, 5, 1
        _, exported = _crawl(base, tmp_path, "one")
    assert "/world/page/3/" in hits
    assert stories[-1].path in exported
    assert exported == {s.path for s in stories}


def test_footer_and_legal_links_of_a_small_listing_are_not_fetched(tmp_path):
    routes: dict[str, Any] = {}
    with serve(routes) as (base, hits):
        stories = _world(base, 3)
        routes.update(_section(base, stories, per_page=2, footer=True))  # 2, 1
        _, exported = _crawl(base, tmp_path, "small")
    assert exported == {s.path for s in stories}
    legal = {"/privacy.html", "/terms-of-use/", "/contact-us", "/about/"}
    assert not legal & set(hits), sorted(hits)
