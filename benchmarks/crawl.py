"""What scrapy-cx costs a crawl: Scrapy with and without the add-on, same site, same run.

Usage (from the repo root)::

    python -m benchmarks.crawl                          # 5000 pages, one round
    python -m benchmarks.crawl --pages 2000 --rounds 3  # median of three rounds
    python -m benchmarks.crawl --latency 100            # a site 100 ms away
    python -m benchmarks.crawl --mode saved --workers auto --rounds 2 --baseline ../main
    python -m benchmarks.crawl --mode saved --canned --parts   # the plugin's own cost

A generated news site (article pages of realistic size and shape: menus, an
inline script and style, the article, related links, teasers, comments, a
footer; section pages listing the articles), or with ``--mode saved`` real
saved pages, is served from memory by a small asyncio server in its own
process. Each crawl runs in a fresh process: a spider shaped like the example
project's ``news`` spider (one ``{"url": response.url}`` item per page, a JSON
lines feed), once plain and once with ``ADDONS = {"scrapy_cx.Addon": 500}`` for
each ``--workers`` value (and each again with a ``--baseline`` checkout's
``scrapy_cx``). Rounds alternate the order.

Reported, per variant against the plain crawl of the same round: pages/s
(responses / the spider's elapsed time, start-up excluded) and their ratio, the
crawl process's CPU ms per page (whole and steady) and its extra over plain
Scrapy's, the workers' CPU ms per page, and a projection for ``--project-cores``
(docs/scale.rst says how it is made). ``--latency`` delays every response, as a
remote site does: with a network-bound crawl the cost of extraction hides
behind the wait.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import resource
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
                path = head.split(b" ", 2)[1].decode("latin-1").split("#", 1)[0].split("?", 1)[0]
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


def saved_site(folder: Path) -> dict[str, bytes]:
    """``/saved/NAME.html`` -> body for every ``*.html.gz`` page in ``folder``."""
    return {
        f"/saved/{path.name.removesuffix('.gz')}": gzip.decompress(path.read_bytes())
        for path in sorted(folder.glob("*.html.gz"))
    }


HOSTILE_PATHS = ("/hostile/attributes.html", "/hostile/lines.html", "/hostile/text.html")


def hostile_pages() -> dict[str, bytes]:
    """The three pages of issue 12: 100 000 attributes on one element (0.9 MB), 600 000
    ``<br>`` lines (4.8 MB), one 5 MB text node; each once stalled a crawl."""
    head = b"<html><head><title>Hostile</title></head><body>"
    attributes = b" ".join(b'a%d="x"' % i for i in range(100_000))
    return dict(
        zip(
            HOSTILE_PATHS,
            (
                head + b"<div " + attributes + b">text</div></body></html>",
                head + b"<div>" + b"line<br>" * 600_000 + b"</div></body></html>",
                head + b"<div>" + b"word " * 1_000_000 + b"</div></body></html>",
            ),
            strict=True,
        )
    )


def serve_main(pages: int, latency_ms: float, saved: str = "") -> None:
    site = build_site(pages)
    if saved:
        site.update(saved_site(Path(saved)))
    site.update(hostile_pages())
    asyncio.run(_serve(site, latency_ms / 1000))


# --------------------------------------------------------------------------- the crawl


def canned_article(body: bytes, url: str, **options: Any) -> Any:
    """An article at almost no cost (``--canned``): what the crawl's process pays per
    page for the plugin, apart from the extraction itself. The saved pages' real
    articles, every format made, when the benchmark wrote them for replay
    (:data:`REPLAY_ENV`); else one of a real page's size."""
    replayed = _replayed().get(urlsplit(url).path)
    if replayed is not None:
        return replayed
    from scrapy_cx import Article

    text = body[:CANNED_CONTENT_BYTES].decode("utf-8", "replace")
    return Article(url=url, title=text[:80], content=text, page_type="article")


#: The environment variable naming the file of articles to replay (path -> Article).
REPLAY_ENV = "CX_BENCH_REPLAY"
_replay: dict[str, Any] | None = None


def _replayed() -> dict[str, Any]:
    """The articles to replay, read once per worker."""
    global _replay
    if _replay is None:
        import pickle

        path = os.environ.get(REPLAY_ENV)
        _replay = pickle.loads(Path(path).read_bytes()) if path else {}
    return _replay


def write_replay(folder: Path, formats: str, target: Path) -> None:
    """Extract every saved page of ``folder`` once, here, for ``--canned`` to replay."""
    import pickle

    from scrapy_cx import extract_article
    from scrapy_cx.article import check_formats

    chosen = check_formats(formats)
    articles = {
        path: extract_article(body, f"http://127.0.0.1{path}", formats=chosen)
        for path, body in saved_site(folder).items()
    }
    target.write_bytes(pickle.dumps(articles, pickle.HIGHEST_PROTOCOL))


#: Bytes of the page a canned article's content holds: the size of a news story's text.
CANNED_CONTENT_BYTES = 6000


def _canned_middleware() -> type:
    from scrapy_cx import ArticleMiddleware

    class CannedMiddleware(ArticleMiddleware):
        extract = staticmethod(canned_article)

    return CannedMiddleware


def __getattr__(name: str) -> Any:
    # Imported by name in the crawl's process only (Scrapy stays out of the server's).
    if name == "CannedMiddleware":
        return _canned_middleware()
    raise AttributeError(name)


def _crawl_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The crawl's settings: plain Scrapy, or with the add-on (``config["workers"]`` set)."""
    settings: dict[str, Any] = {
        "LOG_LEVEL": "ERROR",
        "CONCURRENT_REQUESTS": config["concurrency"],
        "CONCURRENT_REQUESTS_PER_DOMAIN": config["concurrency"],
        "DOWNLOAD_DELAY": 0,
        "DOWNLOAD_TIMEOUT": config.get("download_timeout", 180),
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "FEEDS": {config["out"]: {"format": "jsonlines", "overwrite": True}},
        "FEED_EXPORT_ENCODING": "utf-8",
    }
    settings.update(config.get("settings", {}))  # any other, e.g. CX_PAGE_TIMEOUT
    if config["workers"] is not None:
        settings["ADDONS"] = {"scrapy_cx.Addon": 500}
        settings["CX_WORKERS"] = config["workers"]
        if config.get("formats"):
            settings["CX_FORMATS"] = config["formats"]
        if config.get("canned"):
            settings["DOWNLOADER_MIDDLEWARES"] = {
                "scrapy_cx.ArticleMiddleware": None,
                "benchmarks.crawl.CannedMiddleware": 540,
            }
    return settings


def crawl_main(config: dict[str, Any]) -> None:
    """Run in a fresh process: one crawl, its stats as JSON on stdout.

    ``config``: ``url`` (the site), ``urls`` (a list to fetch, following no links;
    empty: start at ``url`` and follow every link), ``workers`` (None: plain
    Scrapy; else scrapy-cx with that ``CX_WORKERS``), ``out``, ``concurrency``.
    """
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.linkextractors import LinkExtractor

    urls: list[str] = config["urls"]
    pool: dict[str, float] = {}

    class BenchSpider(scrapy.Spider):
        name = "bench"
        start_urls = urls or [config["url"]]
        links = LinkExtractor()

        def parse(self, response: Any) -> Any:
            yield {"url": response.url}
            if urls:
                return
            for link in self.links.extract_links(response):
                if urlsplit(link.url).hostname == "127.0.0.1":  # like the news spider
                    yield scrapy.Request(link.url, callback=self.parse)

    settings = _crawl_settings(config)

    def closing(spider: Any) -> None:
        # The workers' CPU, read before the pool goes (it closes on spider_closed too).
        # This runs in the reactor thread: its own CPU apart from the process's other
        # threads (Scrapy's DNS thread pool; the pool has no thread of its own in a crawl).
        pool["reactor_thread_seconds"] = time.thread_time() - thread_cpu
        pool["process_seconds"] = time.process_time() - cpu
        workers = _article_pool(spider)
        if workers is not None:
            pool["cpu_seconds"] = workers.cpu_seconds
            pool["timeouts"] = workers.timeouts
        pool.update(steady.figures(spider))

    gc_seconds = _count_gc()
    parts = _time_parts() if config.get("parts") and config["workers"] is not None else None
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    steady = _SteadyState(len(urls) // 10 if urls else 0, gc_seconds)
    crawler.signals.connect(steady.received, signal=signals.response_received)
    crawler.signals.connect(closing, signal=signals.spider_closed)  # before the pool closes
    process.crawl(crawler)
    profiler = None
    if config.get("profile"):
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU, not the shared wall clock
        profiler.enable()
    cpu, thread_cpu = time.process_time(), time.thread_time()
    sys_cpu, gc_before = resource.getrusage(resource.RUSAGE_SELF).ru_stime, gc_seconds[0]
    process.start()
    cpu_seconds = time.process_time() - cpu  # before this reads the feed back
    gc_seconds[0] -= gc_before
    sys_cpu = resource.getrusage(resource.RUSAGE_SELF).ru_stime - sys_cpu
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(config["profile"])
    stats = crawler.stats.get_stats() if crawler.stats else {}
    with open(config["out"], encoding="utf-8") as fh:
        exported = [json.loads(line)["url"] for line in fh if line.strip()]
    print(
        json.dumps(
            {
                "responses": stats.get("response_received_count", 0),
                "seconds": stats.get("elapsed_time_seconds", 0.0),
                "cpu_seconds": cpu_seconds,
                # Of which in the kernel (socket I/O, page faults) and in Python's
                # cyclic garbage collector.
                "sys_cpu_seconds": sys_cpu,
                "gc_cpu_seconds": gc_seconds[0],
                "worker_cpu_seconds": pool.get("cpu_seconds", 0.0),
                "reactor_thread_cpu_seconds": pool.get("reactor_thread_seconds", 0.0),
                "other_threads_cpu_seconds": pool.get("process_seconds", 0.0)
                - pool.get("reactor_thread_seconds", 0.0),
                **{k: v for k, v in pool.items() if k.startswith("steady_")},
                "parts_cpu_seconds": dict(parts or {}),
                "items": len(exported),
                "exported": exported,
                "dropped": stats.get("item_dropped_count", 0),
                "download_errors": {
                    k: v for k, v in stats.items() if k.startswith("downloader/exception_type")
                },
                "cx": {k: v for k, v in stats.items() if k.startswith("cx/")},
            }
        )
    )


#: ``--parts``: scrapy-cx's entry points in the crawl's process, timed where they run.
PARTS = (
    ("scrapy_cx.middleware", "ArticleMiddleware", "process_response", "downloader middleware"),
    ("scrapy_cx.pool._reactor", "ReactorPool", "submit", "page handed to the pool"),
    ("scrapy_cx.pool._pool", "_Link", "doRead", "reply read (and next page sent)"),
    ("scrapy_cx.pool._pool", "_Link", "doWrite", "page written later"),
    ("scrapy_cx.spidermw", "ArticleSpiderMiddleware", "complete", "spider middleware"),
    ("scrapy_cx.pipeline", "ArticlePipeline", "process_item", "pipeline"),
    # Scrapy's exporter; before the add-on left feeds to Scrapy (a --baseline), its own.
    ("scrapy.exporters", "JsonLinesItemExporter", "export_item", "feed export"),
    ("scrapy_cx.feeds._exporters", "JsonLinesItemExporter", "export_item", "feed export"),
)


def _time_parts() -> dict[str, float]:
    """Wrap each of :data:`PARTS` in a timer of this thread's CPU (about 1 us a call):
    seconds per part, outermost calls only (a part called inside another counts there)."""
    import functools
    import importlib

    seconds: dict[str, float] = {}
    depth = [0]
    for module_name, owner_name, name, label in PARTS:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # a part this checkout does not have
            continue
        owner = getattr(module, owner_name) if owner_name else module
        function = getattr(owner, name)
        seconds[label] = 0.0

        def timed(*args: Any, _f: Any = function, _label: str = label, **kwargs: Any) -> Any:
            if depth[0]:
                return _f(*args, **kwargs)
            depth[0] += 1
            start = time.thread_time()
            try:
                return _f(*args, **kwargs)
            finally:
                seconds[_label] += time.thread_time() - start
                depth[0] -= 1

        setattr(owner, name, functools.wraps(function)(timed))
    return seconds


def _article_pool(spider: Any) -> Any:
    """The crawl's extraction pool, None if it has none (plain Scrapy, no workers)."""
    from scrapy_cx import ArticleMiddleware

    for mw in spider.crawler.engine.downloader.middleware.middlewares:
        if isinstance(mw, ArticleMiddleware) and mw._pool is not None:
            return mw._pool
    return None


class _SteadyState:
    """CPU from the response that ends the warm-up (the first tenth of the crawl: imports,
    the workers' start, the first pages) to the spider's close: what one more page costs,
    not the start-up spread over the pages."""

    def __init__(self, warm_up: int, gc_seconds: list[float]) -> None:
        self.warm_up = max(1, warm_up) if warm_up else 0
        self.seen = 0
        self.gc_seconds = gc_seconds
        self.start: dict[str, float] = {}

    def _now(self, spider: Any) -> dict[str, float]:
        workers = _article_pool(spider)
        return {
            "cpu": time.process_time(),
            "sys_cpu": resource.getrusage(resource.RUSAGE_SELF).ru_stime,
            "gc_cpu": self.gc_seconds[0],
            "worker_cpu": float(workers.cpu_seconds) if workers is not None else 0.0,
        }

    def received(self, response: Any, request: Any, spider: Any) -> None:
        self.seen += 1
        if self.seen == self.warm_up:
            self.start = self._now(spider)

    def figures(self, spider: Any) -> dict[str, float]:
        """``steady_pages`` and ``steady_<name>_seconds`` (empty before the warm-up ended)."""
        if not self.start:
            return {}
        now = self._now(spider)
        figures = {f"steady_{name}_seconds": now[name] - self.start[name] for name in now}
        return {"steady_pages": self.seen - self.warm_up, **figures}


def _count_gc() -> list[float]:
    """A one-item list that adds up the CPU seconds the garbage collector takes from now on
    (every page's objects are its work: what a plugin allocates per page shows here)."""
    import gc

    total = [0.0]
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            total[0] += time.process_time() - started[0]

    gc.callbacks.append(timed)
    return total


def run_crawl(
    url: str,
    workers: int | str | None,
    concurrency: int,
    urls: Sequence[str] = (),
    canned: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """One crawl in a fresh process: plain Scrapy (``workers`` None) or with scrapy-cx.

    ``extra``: ``formats`` (``CX_FORMATS``), ``profile`` (a file for the crawl
    process's cProfile stats), ``code`` (a checkout whose ``scrapy_cx`` the crawl
    imports instead of this one's: the baseline of a side-by-side run).
    """
    code = extra.pop("code", None)
    with tempfile.TemporaryDirectory() as tmp:
        config = {
            "url": url,
            "urls": list(urls),
            "workers": workers,
            "out": str(Path(tmp) / "items.jsonl"),
            "concurrency": concurrency,
            "canned": canned,
            **extra,
        }
        config_file = Path(tmp) / "config.json"
        config_file.write_text(json.dumps(config), encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-m", "benchmarks.crawl", "_crawl", str(config_file)],
            capture_output=True,
            text=True,
            check=False,
            cwd=_code_dir(code, Path(tmp)),
        )
    if proc.returncode != 0:
        raise RuntimeError(f"crawl failed:\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["pages_per_s"] = result["responses"] / result["seconds"]
    result["cpu_ms_per_page"] = 1000 * result["cpu_seconds"] / result["responses"]
    for name in ("worker", "reactor_thread", "other_threads", "sys", "gc"):
        result[f"{name}_cpu_ms_per_page"] = (
            1000 * result[f"{name}_cpu_seconds"] / result["responses"]
        )
    result["parts_us_per_page"] = {
        part: round(1e6 * cpu / result["responses"], 1)
        for part, cpu in result.get("parts_cpu_seconds", {}).items()
    }
    pages = result.get("steady_pages") or 0
    for name in ("", "sys_", "gc_", "worker_"):
        key = f"steady_{name}cpu_seconds"
        if pages and key in result:
            result[f"steady_{name}cpu_ms_per_page"] = 1000 * result[key] / pages
    return result


REPO = Path(__file__).resolve().parents[1]


def _code_dir(code: str | None, tmp: Path) -> Path:
    """Where a crawl importing ``code``'s ``scrapy_cx`` (None: this checkout's) starts,
    with this checkout's ``benchmarks`` either way: ``python -m`` puts it first on
    ``sys.path``."""
    if code is None:
        return REPO
    shadow = tmp / "code"
    shadow.mkdir()
    (shadow / "scrapy_cx").symlink_to(Path(code).resolve() / "scrapy_cx")
    (shadow / "benchmarks").symlink_to(REPO / "benchmarks")
    return shadow


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


DEFAULT_SAVED = Path(__file__).resolve().parents[1].parent / "shared/bench/wceb_dev/html"


def _label(workers: int | str | None, baseline: bool = False) -> str:
    name = "plain" if workers is None else f"cx workers={workers}"
    return f"{name} (baseline)" if baseline else name


def _start_server(pages: int, latency: float, saved: str) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.crawl", "_serve", str(pages), str(latency), saved],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONHASHSEED="0"),
    )
    assert server.stdout is not None
    return server, f"http://127.0.0.1:{server.stdout.readline().strip()}"


def _report(name: str, result: dict[str, Any]) -> None:
    print(
        f"{name:>16}: {result['responses']} pages in {result['seconds']:.1f} s = "
        f"{result['pages_per_s']:.0f} pages/s, CPU ms/page main {result['cpu_ms_per_page']:.2f} "
        f"(reactor thread {result['reactor_thread_cpu_ms_per_page']:.2f}, other threads "
        f"{result['other_threads_cpu_ms_per_page']:.2f}; in the kernel "
        f"{result['sys_cpu_ms_per_page']:.2f}, garbage collection "
        f"{result['gc_cpu_ms_per_page']:.2f}) "
        f"workers {result['worker_cpu_ms_per_page']:.2f}, {result['items']} items"
        + (
            f"; steady state {result['steady_cpu_ms_per_page']:.2f} (kernel "
            f"{result['steady_sys_cpu_ms_per_page']:.2f}, "
            f"gc {result['steady_gc_cpu_ms_per_page']:.2f})"
            if "steady_cpu_ms_per_page" in result
            else ""
        ),
        file=sys.stderr,
    )


def projection(plain: dict[str, Any], cx: dict[str, Any], cores: int) -> dict[str, Any]:
    """pages/s on ``cores`` cores from CPU ms per page (the steady state's where measured),
    for plain Scrapy and with scrapy-cx.

    Assumes a CPU-bound crawl (the site on other machines, enough concurrency):
    the crawl's process is one reactor thread, bound by one core (plain Scrapy
    uses no other); the workers take the rest of the cores and scale linearly
    (no memory-bandwidth limit), so scrapy-cx makes at most ``cores * 1000 /
    (crawl process + workers ms per page)`` and at most ``1000 / crawl process
    ms per page`` pages/s.
    """
    steady = "steady_cpu_ms_per_page" in plain and "steady_cpu_ms_per_page" in cx
    prefix = "steady_" if steady else ""
    plain_rate = 1000 / plain[f"{prefix}cpu_ms_per_page"]
    main_rate = 1000 / cx[f"{prefix}cpu_ms_per_page"]
    cores_rate = (
        cores
        * 1000
        / (cx[f"{prefix}cpu_ms_per_page"] + cx.get(f"{prefix}worker_cpu_ms_per_page", 0.0))
    )
    rate = min(main_rate, cores_rate)
    return {
        "cores": cores,
        "plain_pages_per_s": round(plain_rate),
        "cx_pages_per_s": round(rate),
        "ratio": round(rate / plain_rate, 2),
        "bound_by": "crawl process" if main_rate <= cores_rate else "all cores",
        "assumptions": " ".join(projection.__doc__.split("\n\n")[1].split()),
    }


def _variants(args: argparse.Namespace) -> list[tuple[str, int | str | None, str | None]]:
    """``(label, CX_WORKERS or None for plain Scrapy, code checkout or None)`` to run."""
    variants: list[tuple[str, int | str | None, str | None]] = [("plain", None, None)]
    for workers in args.workers.split(","):
        variants.append((_label(workers), workers, None))
        if args.baseline:
            variants.append((_label(workers, True), workers, str(args.baseline)))
    return variants


def _crawl_urls(args: argparse.Namespace, url: str) -> list[str]:
    if args.mode == "saved":
        names = sorted(saved_site(Path(args.saved)))
        return [f"{url}{path}?copy={k}" for k in range(args.repeat) for path in names]
    if args.mode == "list":
        return [url + article_path(n) for n in range(args.pages)]
    return []


def _run_rounds(
    args: argparse.Namespace, url: str, urls: list[str]
) -> dict[str, list[dict[str, Any]]]:
    variants = _variants(args)
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _, _ in variants}
    for round_no in range(args.rounds):
        order = variants if round_no % 2 == 0 else variants[::-1]
        for label, workers, code in order:
            extra: dict[str, Any] = {"formats": args.formats, "code": code}
            if args.profile:
                args.profile.mkdir(parents=True, exist_ok=True)
                slug = label.replace(" ", "_").replace("=", "").strip("()")
                slug = slug.replace("(", "").replace(")", "")
                extra["profile"] = str(args.profile.resolve() / f"{slug}-{round_no}.prof")
            if args.parts:
                extra["parts"] = True
            result = run_crawl(url + "/", workers, args.concurrency, urls, args.canned, **extra)
            runs[label].append(result)
            _report(label, result)
            if result["parts_us_per_page"]:
                shown = sorted(result["parts_us_per_page"].items(), key=lambda kv: -kv[1])
                print(
                    "   CPU us/page by part: "
                    + ", ".join(f"{part} {us:.0f}" for part, us in shown)
                    + f" (together {sum(result['parts_us_per_page'].values()):.0f})",
                    file=sys.stderr,
                )
    return runs


KEYS = (
    "pages_per_s",
    "cpu_ms_per_page",
    "sys_cpu_ms_per_page",
    "gc_cpu_ms_per_page",
    "reactor_thread_cpu_ms_per_page",
    "other_threads_cpu_ms_per_page",
    "worker_cpu_ms_per_page",
    "steady_cpu_ms_per_page",
    "steady_sys_cpu_ms_per_page",
    "steady_gc_cpu_ms_per_page",
    "steady_worker_cpu_ms_per_page",
)


def _figure(name: str, runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """One variant's medians, and each round against that round's plain crawl: the load
    of this shared machine changes between rounds more than between two crawls in a row."""
    keys = [key for key in KEYS if all(key in r for r in runs[name])]
    values = {key: statistics.median(r[key] for r in runs[name]) for key in keys}
    pairs = list(zip(runs[name], runs["plain"], strict=True))
    ratios = [r["pages_per_s"] / p["pages_per_s"] for r, p in pairs]
    figure = {
        **{k: round(v, 2) for k, v in values.items()},
        "vs_plain": round(statistics.median(ratios), 2),
        "vs_plain_range": [round(min(ratios), 2), round(max(ratios), 2)],
        "items": runs[name][-1]["items"],
    }
    # The crawl process's CPU per page over plain Scrapy's, same round: over the whole
    # crawl (start-up included) and in the steady state (after the first tenth).
    for prefix in ("", "steady_"):
        key = f"{prefix}cpu_ms_per_page"
        if all(key in r for pair in pairs for r in pair):
            extras = [r[key] - p[key] for r, p in pairs]
            figure[f"{prefix}extra_cpu_ms_per_page"] = round(statistics.median(extras), 2)
            figure[f"{prefix}extra_cpu_ms_range"] = [round(min(extras), 2), round(max(extras), 2)]
    return figure


def throughput(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """Plain Scrapy and scrapy-cx with each ``--workers`` value (and the ``--baseline``
    code's), side by side, same URLs."""
    urls = _crawl_urls(args, url)
    runs = _run_rounds(args, url, urls)
    figures: dict[str, Any] = {
        "mode": args.mode,
        "urls": len(urls),
        "rounds": args.rounds,
        "formats": args.formats,
    }
    for name in runs:
        figures[name] = _figure(name, runs)
    plain = figures["plain"]
    cores = (len(os.sched_getaffinity(0)), args.project_cores)
    figures["projection"] = {
        name: {n: projection(plain, figures[name], n) for n in cores}
        for name in runs
        if name != "plain"
    }
    figures["runs"] = runs
    _print_figures(figures, cores[-1])
    return figures


def _print_figures(figures: dict[str, Any], cores: int) -> None:
    plain = figures["plain"]
    for name, projected in figures["projection"].items():
        figure = figures[name]
        low, high = figure["vs_plain_range"]
        xlow, xhigh = figure["extra_cpu_ms_range"]
        ceiling = projected[cores]
        print(
            f"{name}: {figure['vs_plain']:.2f}x the plain crawl's pages/s (rounds "
            f"{low:.2f}-{high:.2f}); crawl process CPU ms/page {figure['cpu_ms_per_page']:.2f} "
            f"(plain {plain['cpu_ms_per_page']:.2f}), extra {figure['extra_cpu_ms_per_page']:.2f} "
            f"(rounds {xlow:.2f} to {xhigh:.2f}), workers {figure['worker_cpu_ms_per_page']:.2f}; "
            f"{_steady_text(figure, plain)}"
            f"on {cores} cores {ceiling['cx_pages_per_s']} vs {ceiling['plain_pages_per_s']} "
            f"pages/s = {ceiling['ratio']:.2f}x, bound by {ceiling['bound_by']}"
        )
    first = next(iter(figures["projection"].values()))
    print(f"assumptions: {first[cores]['assumptions']}")


def _steady_text(figure: dict[str, Any], plain: dict[str, Any]) -> str:
    if "steady_extra_cpu_ms_per_page" not in figure:
        return ""
    low, high = figure["steady_extra_cpu_ms_range"]
    return (
        f"steady state (after the first tenth) {figure['steady_cpu_ms_per_page']:.2f} "
        f"(plain {plain['steady_cpu_ms_per_page']:.2f}), extra "
        f"{figure['steady_extra_cpu_ms_per_page']:.2f} (rounds {low:.2f} to {high:.2f}), "
        f"workers {figure.get('steady_worker_cpu_ms_per_page', 0.0):.2f}; "
    )


def hostile_cpu_ms(repeat: int = 5) -> dict[str, float]:
    """CPU ms of ``extract_article`` on each hostile page, in this process (best of
    ``repeat``): what each costs the worker that gets it."""
    from scrapy_cx import extract_article

    figures = {}
    for path, body in hostile_pages().items():
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            extract_article(body, f"http://bench{path}")
            best = min(best, time.process_time() - start)
        figures[path] = round(1000 * best, 1)
    return figures


def hostile(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """200 good pages with and without the 3 hostile ones among them, with scrapy-cx."""
    good = [url + article_path(n) for n in range(args.pages)]
    spaced = list(good)
    for i, path in enumerate(HOSTILE_PATHS):
        spaced.insert((i + 1) * len(good) // (len(HOSTILE_PATHS) + 1), url + path)
    workers = args.workers.split(",")[-1]
    runs: dict[str, list[dict[str, Any]]] = {"good only": [], "with hostile": []}
    for round_no in range(args.rounds):
        order = [("good only", good), ("with hostile", spaced)]
        for name, urls in order if round_no % 2 == 0 else order[::-1]:
            result = run_crawl(url + "/", workers, args.concurrency, urls)
            runs[name].append(result)
            _report(name, result)
    seconds = {name: statistics.median(r["seconds"] for r in rs) for name, rs in runs.items()}
    last = runs["with hostile"][-1]
    figures = {
        "mode": "hostile",
        "workers": workers,
        "good_pages": len(good),
        "items_with_hostile": last["items"],
        "items_good_only": runs["good only"][-1]["items"],
        "good_pages_exported": len(set(good) & set(last["exported"])),
        "download_errors": last["download_errors"],
        "cx_stats": last["cx"],
        "seconds": {k: round(v, 2) for k, v in seconds.items()},
        "wall_ratio": round(seconds["with hostile"] / seconds["good only"], 2),
        "round_ratios": [
            round(h["seconds"] / g["seconds"], 2)
            for g, h in zip(runs["good only"], runs["with hostile"], strict=True)
        ],
        "extract_cpu_ms": hostile_cpu_ms(),
        "runs": runs,
    }
    print(
        f"hostile crawl: {figures['good_pages_exported']} of {len(good)} good pages exported "
        f"({last['items']} items), download errors "
        f"{last['download_errors'] or 'none'}, cx stats {last['cx']}, wall time "
        f"{figures['wall_ratio']:.2f}x the crawl without the hostile pages (rounds "
        f"{', '.join(f'{r:.2f}' for r in figures['round_ratios'])}); extract_article CPU ms "
        f"per hostile page {figures['extract_cpu_ms']}"
    )
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=5000, help="article pages (default 5000)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of every variant (median)")
    parser.add_argument("--latency", type=float, default=0.0, help="ms before each response")
    parser.add_argument("--concurrency", type=int, default=16, help="CONCURRENT_REQUESTS")
    parser.add_argument(
        "--mode",
        choices=("follow", "list", "saved", "hostile"),
        default="follow",
        help="follow every link from the home page (default); fetch the article URLs from "
        "a list and follow nothing (Scrapy's own cost per page is then much lower); "
        "fetch the saved pages of --saved from a list; or crawl --pages good pages with and "
        "without the three hostile pages of issue 12 among them",
    )
    parser.add_argument(
        "--saved", default=str(DEFAULT_SAVED), help="folder of *.html.gz pages (--mode saved)"
    )
    parser.add_argument("--repeat", type=int, default=4, help="fetches of each saved page")
    parser.add_argument(
        "--workers",
        default="0,auto",
        help="CX_WORKERS values to run beside plain Scrapy, comma-separated (default 0,auto)",
    )
    parser.add_argument(
        "--canned",
        action="store_true",
        help="scrapy-cx with a canned article instead of extract_article: the plugin's own "
        "cost in the crawl's process, the extraction left out (--mode saved: each page's "
        "real article, every --formats made, extracted once before the crawls and replayed)",
    )
    parser.add_argument("--project-cores", type=int, default=16, help="cores to project for")
    parser.add_argument(
        "--formats",
        default="html,markdown,images",
        help="CX_FORMATS of the scrapy-cx crawls (default: every format)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of scrapy-cx (e.g. a worktree of main): each --workers value also "
        "runs with its scrapy_cx, in the same rounds",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="write a cProfile of each crawl process here (NAME-ROUND.prof): what the crawl "
        "process spends its CPU on (slows every variant alike)",
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help="time scrapy-cx's entry points in the crawl's process (thread CPU, outermost "
        "calls): the downloader and spider middlewares, the pool's hand-over and replies, "
        "the pipeline, the feed export (about 1 us per call more)",
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)

    saved = args.saved if args.mode == "saved" else ""
    replay = None
    if saved and args.canned:
        replay = Path(tempfile.mkdtemp()) / "replay.pickle"
        write_replay(Path(saved), args.formats, replay)
        os.environ[REPLAY_ENV] = str(replay)
    server, url = _start_server(args.pages, args.latency, saved)
    try:
        figures = hostile(args, url) if args.mode == "hostile" else throughput(args, url)
        if args.mode == "follow":
            figures["extract_article_median_ms"] = round(extraction_ms(args.pages), 2)
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(timeout=30)
        if replay is not None:
            replay.unlink()
            replay.parent.rmdir()
    figures.update(pages=args.pages, concurrency=args.concurrency, latency_ms=args.latency)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        serve_main(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) > 1 and sys.argv[1] == "_crawl":
        crawl_main(json.loads(Path(sys.argv[2]).read_text(encoding="utf-8")))
    else:
        sys.exit(main())
