"""What scrapy-cx costs a crawl: Scrapy with and without the add-on, same site, same run.

Usage (from the repo root)::

    python -m benchmarks.crawl                          # 5000 pages, one round
    python -m benchmarks.crawl --pages 2000 --rounds 3  # median of three rounds
    python -m benchmarks.crawl --latency 100            # a site 100 ms away
    python -m benchmarks.crawl --json crawl.json

A generated news site (article pages of realistic size and shape: menus, an
inline script and style, the article, related links, teasers, comments, a
footer; section pages listing the articles) is served from memory by a small
asyncio server in its own process, so on a 2-core machine the server does not
share a core with the crawler. Each crawl runs in a fresh process: a spider
shaped like the example project's ``news`` spider (LinkExtractor, one
``{"url": response.url}`` item per page, a JSON lines feed), once plain and
once with ``ADDONS = {"scrapy_cx.Addon": 500}``. Rounds alternate the order.

Reported: pages/s (responses / the spider's elapsed time, start-up excluded),
the plugin's cost ``1 - plugin/plain`` (the goal is at most 15 %), the CPU ms
the plugin adds per page, and for reference ``extract_article``'s own time per
page on the same pages, measured in this process. ``--latency`` delays every
response, as a remote site does: with a network-bound crawl the cost of
extraction hides behind the wait.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

SECTIONS = ("world", "politics", "business", "tech", "science", "health", "sport", "culture")
WORDS = (
    "council budget harbour minister report election market river bridge police school "
    "hospital company shares energy climate water farmers court judge museum festival "
    "league season coach players research scientists study university students housing "
    "prices workers union strike railway airport flights tourism village mayor parliament "
    "vote reform taxes economy growth inflation bank loans startup software data privacy "
    "storm flood drought wildfire rescue volunteers community library theatre concert film"
).split()


# --------------------------------------------------------------------------- the site


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng, rng.randint(12, 28)) for _ in range(rng.randint(2, 5)))


def article_path(n: int) -> str:
    return f"/{SECTIONS[n % len(SECTIONS)]}/2024/story-{n}.html"


def _chrome(rng: random.Random, pages: int) -> tuple[str, str, str]:
    """Head extras, header menu and footer shared by every page (like a site template)."""
    script = "var cfg = {" + ",".join(f'"k{i}": "{rng.random():.12f}"' for i in range(2000)) + "};"
    style = "".join(
        f".c{i} {{ margin: {i % 17}px; color: #{i * 7919 % 0xFFFFFF:06x} }}\n" for i in range(300)
    )
    head = f"<script>{script}</script><style>{style}</style>"
    menu = "".join(
        f"<li class='menu-item'><a href='/{s}/'><span class='label'>{s.title()}</span></a>"
        "<div class='dropdown'><ul>"
        + "".join(
            f"<li><a href='/{s}/topic-{i}/'><span>Topic {i}</span></a></li>" for i in range(6)
        )
        + "</ul></div></li>"
        for s in SECTIONS
    )
    footer = "".join(
        f"<div class='col'><h4>Group {g}</h4><ul>"
        + "".join(f"<li><a href='/about/{g}-{i}'>About {i}</a></li>" for i in range(8))
        + "</ul></div>"
        for g in range(5)
    )
    footer += (
        "<div class='social'>"
        + "".join(
            f"<a class='icon' href='/follow/{i}'><span class='sr'>Follow</span><i></i></a>"
            for i in range(8)
        )
        + "</div><p class='legal'>Copyright The Daily. All rights reserved.</p>"
    )
    cookie = (
        "<div id='cookie'><div class='inner'><p>We use cookies to improve your experience."
        "</p><button>Accept</button><button>Settings</button></div></div>"
    )
    header = (
        f"{cookie}<div class='wrap'><header><div class='top'><div class='logo'><a href='/'>"
        f"<img src='/logo.png' alt='The Daily'></a></div><form><input name='q'></form></div>"
        f"<nav><ul>{menu}</ul></nav></header>"
    )
    return head, header, f"<footer>{footer}</footer></div>"


def article_page(n: int, pages: int, chrome: tuple[str, str, str]) -> bytes:
    rng = random.Random(n)
    head, header, footer = chrome
    title = _sentence(rng, rng.randint(6, 12)).rstrip(".")
    day = f"2024-{1 + n % 12:02d}-{1 + n % 28:02d}"
    body = "".join(f"<p>{_paragraph(rng)}</p>" for _ in range(rng.randint(6, 14)))
    related = "".join(
        f"<li><a href='{article_path(rng.randrange(pages))}'>{_sentence(rng, 8)}</a></li>"
        for _ in range(6)
    )
    teasers = "".join(
        f"<div class='teaser'><div class='media'><a href='{article_path(k)}'>"
        f"<img src='/img/{k}.jpg' alt=''></a></div><div class='text'><h3>"
        f"<a href='{article_path(k)}'>{_sentence(rng, 9)}</a></h3><p>{_sentence(rng, 16)}</p>"
        f"<span class='meta'><time>{rng.randint(1, 59)} min ago</time></span></div></div>"
        for k in (rng.randrange(pages) for _ in range(16))
    )
    share = (
        "<div class='share'>"
        + "".join(
            f"<a href='https://social{i}.example/share?u=story-{n}'><span class='icon'></span>"
            "<span>Share</span></a>"
            for i in range(6)
        )
        + "</div>"
    )
    ads = "".join(
        f"<div class='ad-slot' id='ad{i}'><div><iframe src='/ads/{i}'></iframe></div></div>"
        for i in range(4)
    )
    comments = "".join(
        f"<li><b>reader{rng.randint(1, 999)}</b> {_sentence(rng, 14)}</li>"
        for _ in range(rng.randint(0, 6))
    )
    html = (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title} | The Daily"
        f"</title><meta property='og:title' content='{title}'><meta name='author' content='Staff'>"
        f"<meta property='article:published_time' content='{day}T08:00:00Z'>{head}</head>"
        f"<body>{header}<main><article><h1>{title}</h1><div class='byline'>By Staff "
        f"<time datetime='{day}'>{day}</time></div>{share}{body}{share}</article>{ads}"
        f"<section class='related'><h2>Related</h2><ul>{related}</ul></section>"
        f"<section class='comments'><ol>{comments}</ol></section></main>"
        f"<aside>{teasers}</aside>{footer}</body></html>"
    )
    return html.encode()


def section_page(section: int, pages: int, chrome: tuple[str, str, str]) -> bytes:
    head, header, footer = chrome
    links = "".join(
        f"<li><a href='{article_path(n)}'>Story {n}</a></li>"
        for n in range(section, pages, len(SECTIONS))
    )
    name = SECTIONS[section]
    return (
        f"<!DOCTYPE html><html><head><title>{name}</title>{head}</head><body>{header}"
        f"<h1>{name.title()}</h1><ul>{links}</ul>{footer}</body></html>"
    ).encode()


def build_site(pages: int) -> dict[str, bytes]:
    """Path -> body: a home page, one page per section, ``pages`` articles."""
    chrome = _chrome(random.Random(0), pages)
    site = {f"/{s}/": section_page(i, pages, chrome) for i, s in enumerate(SECTIONS)}
    links = "".join(f"<a href='/{s}/'>{s}</a> " for s in SECTIONS)
    site["/"] = f"<html><head><title>The Daily</title></head><body>{links}</body></html>".encode()
    for n in range(pages):
        site[article_path(n)] = article_page(n, pages, chrome)
    return site


# --------------------------------------------------------------------------- the server


async def _serve(site: dict[str, bytes], latency: float) -> None:
    not_found = b"<html><body>Not found</body></html>"

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1].decode("latin-1").split("#", 1)[0]
                body = site.get(path)
                status = b"200 OK" if body is not None else b"404 Not Found"
                body = body if body is not None else not_found
                if latency:
                    await asyncio.sleep(latency)
                writer.write(
                    b"HTTP/1.1 " + status + b"\r\nContent-Type: text/html; charset=utf-8\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=512)
    print(server.sockets[0].getsockname()[1], flush=True)
    # Stop when the parent goes away (its end of our stdin closes).
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    server.close()


def serve_main(pages: int, latency_ms: float) -> None:
    asyncio.run(_serve(build_site(pages), latency_ms / 1000))


# --------------------------------------------------------------------------- the crawl


def crawl_main(url: str, plugin: bool, out: str, concurrency: int, list_pages: int) -> None:
    """Run in a fresh process: one crawl, its stats as JSON on stdout.

    ``list_pages`` > 0: fetch that many article URLs from a list, following no
    links (the ``-a urls=`` way); else start at ``url`` and follow every link.
    """
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.linkextractors import LinkExtractor

    class BenchSpider(scrapy.Spider):
        name = "bench"
        start_urls = (
            [url.rstrip("/") + article_path(n) for n in range(list_pages)] if list_pages else [url]
        )
        links = LinkExtractor()

        def parse(self, response: Any) -> Any:
            yield {"url": response.url}
            if list_pages:
                return
            for link in self.links.extract_links(response):
                if urlsplit(link.url).hostname == "127.0.0.1":  # like the news spider
                    yield scrapy.Request(link.url, callback=self.parse)

    settings: dict[str, Any] = {
        "LOG_LEVEL": "ERROR",
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "DOWNLOAD_DELAY": 0,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "FEEDS": {out: {"format": "jsonlines", "overwrite": True}},
        "FEED_EXPORT_ENCODING": "utf-8",
    }
    if plugin:
        settings["ADDONS"] = {"scrapy_cx.Addon": 500}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    process.crawl(crawler)
    cpu = time.process_time()
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    with open(out, encoding="utf-8") as fh:
        items = sum(1 for _ in fh)
    print(
        json.dumps(
            {
                "responses": stats.get("response_received_count", 0),
                "seconds": stats.get("elapsed_time_seconds", 0.0),
                "cpu_seconds": time.process_time() - cpu,
                "items": items,
                "dropped": stats.get("item_dropped_count", 0),
            }
        )
    )


def run_crawl(url: str, plugin: bool, concurrency: int, list_pages: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "items.jsonl")
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "benchmarks.crawl",
                "_crawl",
                url,
                "1" if plugin else "0",
                out,
                str(concurrency),
                str(list_pages),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"crawl failed:\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["pages_per_s"] = result["responses"] / result["seconds"]
    result["cpu_ms_per_page"] = 1000 * result["cpu_seconds"] / result["responses"]
    return result


def extraction_ms(pages: int, sample: int = 200) -> float:
    """Median ms of ``extract_article`` alone on a sample of the site's article pages."""
    from scrapy_cx import extract_article

    chrome = _chrome(random.Random(0), pages)
    times = []
    for n in range(0, pages, max(1, pages // sample)):
        body = article_page(n, pages, chrome)
        start = time.perf_counter()
        extract_article(body, f"http://bench{article_path(n)}")
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=5000, help="article pages (default 5000)")
    parser.add_argument("--rounds", type=int, default=1, help="plain+plugin pairs (median)")
    parser.add_argument("--latency", type=float, default=0.0, help="ms before each response")
    parser.add_argument("--concurrency", type=int, default=16, help="CONCURRENT_REQUESTS")
    parser.add_argument(
        "--mode",
        choices=("follow", "list"),
        default="follow",
        help="follow every link from the home page (default), or fetch the article URLs "
        "from a list and follow nothing: Scrapy's own cost per page is then much lower",
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)

    env = dict(os.environ, PYTHONHASHSEED="0")
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.crawl", "_serve", str(args.pages), str(args.latency)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        url = f"http://127.0.0.1:{server.stdout.readline().strip()}/"
        runs: dict[str, list[dict[str, Any]]] = {"plain": [], "plugin": []}
        for round_no in range(args.rounds):
            order = ("plain", "plugin") if round_no % 2 == 0 else ("plugin", "plain")
            for name in order:
                list_pages = args.pages if args.mode == "list" else 0
                result = run_crawl(url, name == "plugin", args.concurrency, list_pages)
                runs[name].append(result)
                print(
                    f"round {round_no + 1} {name:>6}: {result['responses']} pages in "
                    f"{result['seconds']:.1f} s = {result['pages_per_s']:.0f} pages/s, "
                    f"{result['cpu_ms_per_page']:.2f} CPU ms/page, {result['items']} items",
                    file=sys.stderr,
                )
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(timeout=30)

    plain = statistics.median(r["pages_per_s"] for r in runs["plain"])
    plugin = statistics.median(r["pages_per_s"] for r in runs["plugin"])
    cpu_plain = statistics.median(r["cpu_ms_per_page"] for r in runs["plain"])
    cpu_plugin = statistics.median(r["cpu_ms_per_page"] for r in runs["plugin"])
    figures = {
        "pages": args.pages,
        "mode": args.mode,
        "latency_ms": args.latency,
        "concurrency": args.concurrency,
        "rounds": args.rounds,
        "plain_pages_per_s": round(plain, 1),
        "plugin_pages_per_s": round(plugin, 1),
        "cost": round(1 - plugin / plain, 3),
        # What the cost is when the crawl is CPU-bound, from CPU time alone: steadier than
        # pages/s on a machine shared with other work.
        "cpu_cost": round(1 - cpu_plain / cpu_plugin, 3),
        "cpu_ms_per_page_plain": round(cpu_plain, 2),
        "cpu_ms_per_page_plugin": round(cpu_plugin, 2),
        "extract_article_median_ms": round(extraction_ms(args.pages), 2),
        "articles_exported": runs["plugin"][-1]["items"],
        "runs": runs,
    }
    verdict = "within" if figures["cost"] <= 0.15 else "OVER"
    print(
        f"plain {plain:.0f} pages/s, with scrapy-cx {plugin:.0f} pages/s: the plugin costs "
        f"{figures['cost']:.0%} of throughput ({verdict} the 15% goal); "
        f"CPU per page {cpu_plain:.2f} -> {cpu_plugin:.2f} ms "
        f"(a {figures['cpu_cost']:.0%} cost when CPU-bound; "
        f"extract_article alone: {figures['extract_article_median_ms']:.2f} ms median)"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        serve_main(int(sys.argv[2]), float(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "_crawl":
        crawl_main(sys.argv[2], sys.argv[3] == "1", sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    else:
        sys.exit(main())
