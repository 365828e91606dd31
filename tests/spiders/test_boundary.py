"""The site as a boundary (spiders/_boundary.py): what a site= crawl may fetch."""

from __future__ import annotations

import pytest

from scrapy_cx.spiders._boundary import Boundary, shown


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://www.example.com/a", None),
        ("http://m.example.com/a", None),  # http <-> https, another host of the domain
        ("https://example.com:443/a", None),
        ("https://example.com:8443/a", "port"),
        ("http://example.com:6379/a", "port"),
        ("https://user:pass@www.example.com/a", "userinfo"),
        ("https://user@www.example.com/a", "userinfo"),
        ("https://evil.test/a", "domain"),
        ("https://example.com.evil.test/a", "domain"),
        ("ftp://example.com/a", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("https://example.com:99999/a", "bad_url"),
        ("https:///a", "bad_url"),
    ],
)
def test_a_site_given_on_a_default_port(url, why):
    assert Boundary.of(["https://www.example.com/"]).why(url) == why


def test_a_site_given_on_its_own_port_and_private_suffixes():
    local = Boundary.of(["http://127.0.0.1:8080/"])
    assert local.why("http://127.0.0.1:8080/x") is None
    assert local.why("https://127.0.0.1:8080/x") is None
    assert local.why("http://127.0.0.1/x") == "port"
    assert local.why("http://localhost:8080/x") == "domain"
    blog = Boundary.of(["https://foo.blogspot.com/"])
    assert blog.why("https://www.foo.blogspot.com/2024/a.html") is None
    assert blog.why("https://bar.blogspot.com/") == "domain"  # a private suffix: another site
    both = Boundary.of(["https://a.example/", "http://127.0.0.1:8080/"])
    assert both.why("http://127.0.0.1:8080/x") is None and both.why("https://a.example/") is None
    assert both.why("http://a.example:8080/") == "port"
    assert both.domains == ["127.0.0.1", "a.example"]


def test_a_logged_url_shows_no_password():
    assert shown("http://admin:secret@intranet.test/x") == "http://***@intranet.test/x"
    assert shown("http://intranet.test/x?a=b@c") == "http://intranet.test/x?a=b@c"
