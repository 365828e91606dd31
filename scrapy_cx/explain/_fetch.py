"""Fetch one page over http(s) for ``scrapy-cx explain``, with the standard library.

Bounded like a crawl: one timeout for the whole fetch (a server trickling a
byte before each read's timeout cannot stretch it) and a size limit (the body
is read up to one byte past it, never more). The body stays bytes and the header's
charset travels with it, so the page is decoded by the same path as in a crawl.
"""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from http.client import HTTPResponse

from .. import __version__
from ..bulk import RawPage
from ..settings import CxSettings

DEFAULT_TIMEOUT = 30.0  # seconds for the whole fetch: connecting, headers and body
CHUNK = 64 * 1024
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "")
USER_AGENT = f"scrapy-cx/{__version__} (explain)"


class FetchError(Exception):
    """The page could not be fetched; the message says why, with the URL."""


def is_url(text: str) -> bool:
    return text.lower().startswith(("http://", "https://"))


def fetch(
    url: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = CxSettings.max_body_size
) -> RawPage:
    """GET ``url``; raise :class:`FetchError` on any failure, a non-HTML type or a huge body."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    deadline = time.monotonic() + timeout
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - http(s) only
            kind = (
                response.headers.get_content_type() if response.headers.get("Content-Type") else ""
            )
            if kind not in HTML_TYPES:
                raise FetchError(f"{url}: not an HTML page (Content-Type {kind})")
            body = _read(response, max_bytes + 1, deadline, url)
            if len(body) > max_bytes:
                raise FetchError(f"{url}: page larger than {max_bytes} bytes")
            return RawPage(url, response.geturl(), body, response.headers.get_content_charset())
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise FetchError(f"{url}: {exc.reason}") from None
    except (OSError, ValueError) as exc:  # timeouts, resets, malformed URLs
        raise FetchError(f"{url}: {type(exc).__name__}: {exc}") from None


def _read(response: HTTPResponse, limit: int, deadline: float, url: str) -> bytes:
    """Up to ``limit`` bytes of the body, each wait no longer than the time left."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        left = deadline - time.monotonic()
        if left <= 0:
            raise FetchError(f"{url}: timed out (the whole fetch took over its time)")
        _wait_at_most(response, left)
        chunk = response.read1(min(CHUNK, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _wait_at_most(response: HTTPResponse, seconds: float) -> None:
    """Make the next read of ``response`` wait at most ``seconds`` (its socket's timeout)."""
    raw = getattr(response.fp, "raw", None)
    sock = getattr(raw, "_sock", None)
    if isinstance(sock, socket.socket):
        sock.settimeout(seconds)
