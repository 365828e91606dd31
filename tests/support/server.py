"""A real HTTP server on 127.0.0.1 for end-to-end tests (no mocks, no internet).

Routes map a path to a :class:`Route`; a route may also be a callable that
takes the request handler and writes the response itself (faults, slow bodies).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Route:
    """A canned response."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/html"})


Handler = Callable[[BaseHTTPRequestHandler], None]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    routes: Mapping[str, Route | Handler]
    hits: dict[str, int]


class _RequestHandler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two small writes; with Nagle on, each keep-alive
    # response would wait ~40 ms for an ACK.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet tests
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        path = self.path.split("#", 1)[0]
        self.server.hits[path] = self.server.hits.get(path, 0) + 1
        route = self.server.routes.get(path)
        if route is None:
            route = Route(b"<html><body><h1>Not found</h1></body></html>", status=404)
        if callable(route):
            route(self)
            return
        self.send_response(route.status)
        for name, value in route.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        self.wfile.write(route.body)


@contextmanager
def serve(routes: Mapping[str, Route | Handler]) -> Iterator[tuple[str, dict[str, int]]]:
    """Serve ``routes`` on a free port; yields ``(base_url, hits_by_path)``."""
    server = _Server(("127.0.0.1", 0), _RequestHandler)
    server.routes = routes
    server.hits = {}
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.hits
    finally:
        server.shutdown()
        server.server_close()
