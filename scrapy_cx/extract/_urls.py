"""``urllib.parse.urljoin``, with its common cases taken in a few string tests.

A page's related links and images are joined to its address one by one, and
``urljoin`` costs microseconds each in Python (parse both, resolve the path,
put the parts back). For a link that is already absolute (same scheme as the
page) or a path from the root, with nothing ``urljoin`` would rewrite (no dot
segment, no ``;`` parameters, no empty ``?`` or ``#``, no tab or newline, no
IPv6 brackets, ASCII only), its answer is known without parsing: the link
itself, or the page's scheme and host followed by the link. Everything else
goes to ``urljoin``, so the result is always ``urljoin``'s.

Every address the core outputs (related links, the lead image, the canonical
address) goes through one rule, :func:`http_url`: an absolute http(s) URL read
as a browser reads it, or None.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

__all__ = ["absolute_url", "http_url", "join_url", "with_root_path"]

_SCHEMES = ("http", "https")
_ABSOLUTE = ("http://", "https://")
# What urlsplit removes or reads as parameters, IPv6 brackets or an empty query
# or fragment (at the end, or "?#"); and a path's dot segment.
_REWRITTEN = re.compile(r"[\t\r\n;\[\]]|\?#|[?#]$|/\.")
# A browser strips a URL's leading and trailing C0 controls and spaces (WHATWG URL); the
# Unicode spaces that str.strip() removes too, as the callers always did.
_TRIMMED = "".join(c for c in map(chr, range(0x3001)) if c <= " " or c.isspace())
# ... and removes ASCII tab and newline anywhere: "java\tscript:" is "javascript:".
_REMOVED = str.maketrans("", "", "\t\n\r")
_NO_HOST = ("", "/", "?", "#")  # what may follow "scheme://" where no host is named
_AFTER_HOST = re.compile(r"[/?#]")  # what ends the host (and port) of an absolute URL


def join_url(base: str | None, url: str) -> str:
    """``urljoin(base, url)``, the same answer (and the same ValueError), faster."""
    if not base:
        return url
    if not url or not url.isascii() or _REWRITTEN.search(url) is not None:
        return urljoin(base, url)
    bscheme, bnetloc = urlsplit(base)[:2]  # (raises as urljoin would; cached by urllib)
    if bscheme not in _SCHEMES or not bnetloc:
        return urljoin(base, url)
    if url[0] == "/":
        if url[1:2] == "/":
            return urljoin(base, url)
        return f"{bscheme}://{bnetloc}{url}"
    if url.startswith(_ABSOLUTE) and url.split("://", 1)[1][:1].isalnum():
        return url  # with a host: urljoin keeps it (and another scheme than the page's)
    return urljoin(base, url)


def absolute_url(base: str | None, url: str) -> str | None:
    """``join_url(base, url)``, or None where ``url`` has no address to resolve
    (``http://[x``: urljoin's ValueError). A page's links, images and canonical
    address are read from markup anyone writes: one bad one is left out, it
    never fails the page."""
    try:
        return join_url(base, url)
    except ValueError:
        return None


def http_url(base: str | None, url: str) -> str | None:
    """``url`` joined to ``base`` as a browser reads it, kept only when it is an absolute
    http(s) address with a host; else None. The one rule for every address the core
    outputs: a page's markup may hold ``javascript:``, ``data:``, ``file:``, ``mailto:``
    in any case, behind spaces and controls or split by a tab, and none may come out.
    """
    url = url.strip(_TRIMMED)
    if "\t" in url or "\n" in url or "\r" in url:
        url = url.translate(_REMOVED)
    absolute = absolute_url(base, url)
    if absolute is None:
        return None
    if not absolute.startswith(_ABSOLUTE):  # "HTTP://": urljoin keeps another scheme's case
        scheme = absolute[:8].lower()
        if scheme.startswith("http://"):
            absolute = "http://" + absolute[7:]
        elif scheme == "https://":
            absolute = "https://" + absolute[8:]
        else:
            return None  # javascript:, data:, file:, ftp:, still relative ...
    host = absolute[7:8] if absolute[4] == ":" else absolute[8:9]
    return None if host in _NO_HOST else absolute


def with_root_path(url: str) -> str:
    """An absolute http(s) ``url`` (``http_url``'s) with an empty path written as
    ``/``, as a browser writes it (WHATWG URL: "https://a.test?x=1" is
    "https://a.test/?x=1"): the body's links and pictures are the addresses a
    reader's browser would follow, so they compare with what a browser saved."""
    found = _AFTER_HOST.search(url, url.find("//") + 2)
    if found is None:
        return url + "/"
    i = found.start()
    return url if url[i] == "/" else f"{url[:i]}/{url[i:]}"
