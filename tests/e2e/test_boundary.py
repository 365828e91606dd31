"""``scrapy crawl news -a site=URL`` never leaves the site (issue 43, items 1, 2, 5, 6).

The site is served on 127.0.0.1; "another host" is ``localhost`` on the same
server (another registrable name, the same socket: a fetch would be seen), and
"another port" is a second server on 127.0.0.1. Every off-site path is unique,
so a hit on it means the crawler fetched it.
"""

from __future__ import annotations

from typing import Any

from tests.support.crawl import run_crawl
from tests.support.server import Route, serve

FAST = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "CX_WORKERS": "0",
}
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def article(title: str, text: str, next_href: str | None = None, head: str = "") -> Route:
    paras = "".join(f"<p>{text} Sentence {i} of the story goes on a while.</p>" for i in range(6))
    pager = f'<p><a href="{next_href}">Next page</a></p>' if next_href else ""
    return Route(
        (
            f"<html><head><title>{title}</title>{head}</head><body><nav><a href='/'>Home</a>"
            f"</nav><article><h1>{title}</h1><p>By Jane Example, 12 May 2024</p>{paras}{pager}"
            "</article></body></html>"
        ).encode()
    )


def redirect(to: str) -> Route:
    return Route(b"", status=302, headers={"Location": to, "Content-Type": "text/html"})


def xml(text: str) -> Route:
    return Route(text.encode(), headers={"Content-Type": "application/xml"})


def urlset(*urls: str) -> Route:
    body = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    return xml(f'<?xml version="1.0"?><urlset {NS}>{body}</urlset>')


def _crawl(base: str, tmp_path: Any, *args: str) -> tuple[Any, dict[str, Any]]:
    proc, items = run_crawl(["-a", f"site={base}/", *args], tmp_path / "out.jsonl", settings=FAST)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return proc, {item["url"].removeprefix(base): item for item in items}


def test_redirects_refreshes_other_hosts_ports_and_credentials_are_not_fetched(tmp_path):
    site: dict[str, Route] = {}
    other_port: dict[str, Route] = {}
    with serve(site) as (base, hits), serve(other_port) as (elsewhere, port_hits):
        port = base.rsplit(":", 1)[1]
        evil = f"http://localhost:{port}"  # the same server by another name: another site
        cred = f"http://admin:secret@127.0.0.1:{port}"
        other_port.update(
            {
                "/sm.xml": urlset(f"{elsewhere}/portart.html"),
                "/portart.html": article("Port story", "Kappa."),
                "/split2_2.html": article("Ported story", "Lambda."),
            }
        )
        site.update(
            {
                "/robots.txt": Route(
                    f"Sitemap: {base}/sitemap.xml\nSitemap: {elsewhere}/sm.xml\n".encode(),
                    headers={"Content-Type": "text/plain"},
                ),
                "/": Route(b"<html><body><h1>Home</h1></body></html>"),
                "/sitemap.xml": urlset(
                    f"{base}/good.html",
                    f"{base}/redir-off.html",
                    f"{base}/redir-cred.html",
                    f"{base}/refresh.html",
                    f"{elsewhere}/portart.html",
                    f"http://user:pass@127.0.0.1:{port}/credart.html",
                    f"{base}/split.html",
                    f"{base}/split2.html",
                ),
                "/good.html": article("Good story", "Alpha."),
                "/redir-off.html": redirect(f"{evil}/stolen.html"),
                "/stolen.html": article("Stolen story", "Beta."),
                "/redir-cred.html": redirect(f"{cred}/credredir.html"),
                "/credredir.html": article("Credential story", "Gamma."),
                "/refresh.html": Route(
                    f'<html><head><meta http-equiv="refresh" content="0; url={evil}/'
                    'refreshed.html"></head><body></body></html>'.encode()
                ),
                "/refreshed.html": article("Refreshed story", "Delta."),
                "/credart.html": article("Credentials story", "Epsilon."),
                # page 2 redirects to another host
                "/split.html": article("Split story", "Zeta.", "/split_2.html"),
                "/split_2.html": redirect(f"{evil}/split_elsewhere_2.html"),
                "/split_elsewhere_2.html": article("Split story", "Eta."),
                # page 2 is on another port of the site's host
                "/split2.html": article("Ported story", "Theta.", f"{elsewhere}/split2_2.html"),
            }
        )
        proc, exported = _crawl(base, tmp_path)
    for path in (
        "/stolen.html",
        "/credredir.html",
        "/refreshed.html",
        "/credart.html",
        "/split_elsewhere_2.html",
    ):
        assert path not in hits, path
    assert port_hits == {}  # nothing from the other port, not even its robots.txt
    assert set(exported) == {"/good.html", "/split.html", "/split2.html"}
    split = exported["/split.html"]
    assert split["pages"] == [] and "Eta." not in split["content"]
    assert "Lambda." not in exported["/split2.html"]["content"]
    assert all("secret" not in url and "pass@" not in url for url in exported)
    for why in ("domain", "port", "userinfo"):
        assert f"'cx/news/offsite/{why}'" in proc.stderr, why
    # Logged once per source and reason: the sitemap's two off-port and userinfo URLs, and
    # each redirect or refresh on its own.
    logged = [line for line in proc.stderr.splitlines() if "Not fetched, off the site" in line]
    assert len(logged) == len({line.split("] ", 1)[-1] for line in logged})
    assert any(f"from {base}/redir-off.html" in line for line in logged)
    assert any(f"from {base}/refresh.html" in line for line in logged)


def test_a_second_site_named_is_inside_the_boundary(tmp_path):
    site: dict[str, Route] = {}
    with serve(site) as (base, hits):
        other = "http://localhost:" + base.rsplit(":", 1)[1]
        site.update(
            {
                "/": Route(b"<html><body><h1>Home</h1></body></html>"),
                "/sitemap.xml": urlset(f"{base}/a.html", f"{other}/b.html"),
                "/a.html": article("Story A", "Alpha."),
                "/b.html": article("Story B", "Beta."),
            }
        )
        proc, exported = _crawl(base, tmp_path, "-a", f"site={base}/,{other}/")
    assert "/a.html" in exported and f"{other}/b.html" in exported
    assert "cx/news/offsite" not in proc.stderr


class _IndexChain(dict):  # type: ignore[type-arg]
    """Routes with an index naming the next one without end: /idx/0.xml -> /idx/1.xml..."""

    base = ""

    def get(self, path: str, default: Any = None) -> Any:
        if path.startswith("/idx/") and path.endswith(".xml"):
            loc = f"<sitemap><loc>{self.base}/idx/{int(path[5:-4]) + 1}.xml</loc></sitemap>"
            return xml(f'<?xml version="1.0"?><sitemapindex {NS}>{loc}</sitemapindex>')
        return super().get(path, default)


def test_nested_sitemap_indexes_stop_at_a_small_depth(tmp_path):
    routes = _IndexChain()
    with serve(routes) as (base, hits):
        routes.base = base
        routes.update(
            {
                "/robots.txt": Route(f"Sitemap: {base}/idx/0.xml\n".encode()),
                "/": Route(b"<html><body><h1>Home</h1></body></html>"),
            }
        )
        # (without a bound the chain never ends: the timeout ends such a crawl)
        proc, _ = _crawl(base, tmp_path, "-s", "CLOSESPIDER_TIMEOUT=30")
    read = [path for path in hits if path.startswith("/idx/")]
    assert 1 < len(read) <= 4, read
    assert "'cx/news/sitemap_too_deep'" in proc.stderr
    assert "nested deeper than" in proc.stderr


def test_a_redirect_back_inside_a_split_article_ends_it_without_repeating_text(tmp_path):
    routes: dict[str, Route] = {}
    with serve(routes) as (base, hits):
        routes.update(
            {
                "/": Route(b"<html><body><h1>Home</h1></body></html>"),
                "/sitemap.xml": urlset(f"{base}/story.html"),
                "/story.html": article("Loop story", "One.", "/story_2.html"),
                "/story_2.html": article("Loop story", "Two.", "/story_3.html"),
                "/story_3.html": redirect(f"{base}/story_2.html"),  # back to page 2
            }
        )
        proc, exported = _crawl(base, tmp_path)
    item = exported["/story.html"]
    assert item["pages"] == [f"{base}/story.html", f"{base}/story_2.html"]
    assert item["content"].count("Two. Sentence 0") == 1
    assert "'cx/news/split_ended/loop'" in proc.stderr
