"""What a news crawl costs: pages fetched per exported article, ``site=`` against following links.

Serves the generated news site (benchmarks/newssite.py) on 127.0.0.1 and crawls it
with the example project's ``news`` spider twice, in the same run: ``-a site=URL``
(sitemaps, feeds, listings) and ``-a start_url=URL -a follow=1 -a depth=N`` (every
link of every page, to a depth). Reports, for each, the pages fetched, the articles
exported (and how many of the site's), pages fetched per exported article, whether
any section/tag/pager page was exported, and the wall time::

    python -m benchmarks.newscrawl [--stories 200] [--split-every 16] [--depth 3] [--json out.json]

Issue 25's target: at most 1.3 pages per exported article for ``site=``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .newssite import NewsSite, build_news_site

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_PROJECT = ROOT / "example_project"
# No politeness delay against our own server: the figures are pages, not seconds.
FAST = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "LOG_LEVEL": "INFO",
}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    site: NewsSite
    hits: dict[str, int]


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        path = self.path.split("#", 1)[0]
        self.server.hits[path] = self.server.hits.get(path, 0) + 1
        found = self.server.site.routes.get(path)
        status, (body, kind) = (200, found) if found else (404, (b"Not found", "text/html"))
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def crawl(server: _Server, base: str, args: list[str], out: Path) -> dict[str, Any]:
    """One ``scrapy crawl news`` of the served site: what it fetched and exported."""
    server.hits.clear()
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", *args, "-O", str(out)]
    for name, value in FAST.items():
        cmd += ["-s", f"{name}={value}"]
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=EXAMPLE_PROJECT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"crawl failed ({' '.join(args)}):\n{proc.stderr[-3000:]}")
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]
    site = server.site
    exported = {item["url"].removeprefix(base) for item in items}
    fetched = sum(server.hits.values())
    return {
        "args": " ".join(args),
        "fetched": fetched,
        "exported": len(items),
        "site_articles_exported": len(exported & set(site.articles)),
        "site_articles": len(site.articles),
        "non_articles_exported": len(exported - set(site.articles)),
        "pages_per_article": round(fetched / len(items), 3) if items else None,
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stories", type=int, default=200)
    parser.add_argument("--split-every", type=int, default=16)
    parser.add_argument("--depth", type=int, default=3, help="start_url= + follow's depth")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    server = _Server(("127.0.0.1", 0), _Handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    server.site = build_news_site(base, args.stories, args.split_every)
    server.hits = {}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    split = sum(1 for s in server.site.stories if len(s.pages) > 1)
    pages = sum(len(s.pages) for s in server.site.stories)
    print(f"site: {len(server.site.stories)} stories ({split} split, {pages} article pages), "
          f"{len(server.site.routes)} URLs")
    results = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for mode in (
                ["-a", f"site={base}/"],
                ["-a", f"start_url={base}/", "-a", "follow=1", "-a", f"depth={args.depth}"],
            ):
                results.append(crawl(server, base, mode, Path(tmp) / "out.jsonl"))
    finally:
        server.shutdown()
    print(f"{'crawl':60} {'fetched':>7} {'exported':>8} {'of site':>9} {'non-art':>7} "
          f"{'pg/art':>6} {'s':>5}")
    for r in results:
        print(f"{r['args'].replace(base, 'URL'):60} {r['fetched']:7} {r['exported']:8} "
              f"{r['site_articles_exported']:4}/{r['site_articles']:<4} "
              f"{r['non_articles_exported']:7} {r['pages_per_article'] or '-':>6} "
              f"{r['seconds']:5}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
