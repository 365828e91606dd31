"""Two `scrapy crawl news` processes share one scrapy-redis queue: each article exactly once.

A real redis-server on a free port, a real site of 550 article pages on
127.0.0.1, two real crawls started at once with CX_REDIS_URL set (the
example project's distributed settings block). The server answers each page
after a short delay, as a remote site would, so the crawl lasts long enough
for both processes to take part.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.sample_pages import PARAGRAPHS
from tests.support.crawl import run_crawl
from tests.support.redis_server import redis_server
from tests.support.server import Handler, Route, serve

SECTIONS = ["city", "business", "sport", "culture", "science"]
PER_SECTION = 110  # 550 articles
LATENCY = 0.05  # seconds per page, like a remote site


def article_path(section: str, n: int) -> str:
    return f"/{section}/{n:03d}.html"


def article_page(section: str, n: int) -> bytes:
    title = f"{section.title()} report number {n}: council answers questions"
    related = "".join(
        f"<li><a href='{article_path(SECTIONS[(i + n) % 5], (n * 7 + i) % PER_SECTION)}'>"
        f"Related story {i}</a></li>"
        for i in range(3)
    )
    body = "".join(f"<p>{PARAGRAPHS[(n + i) % len(PARAGRAPHS)]}</p>" for i in range(3))
    nav = "".join(f"<a href='/{s}/'>{s}</a> " for s in SECTIONS)
    html = (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"<meta property='article:published_time' content='2024-04-{1 + n % 28:02d}T08:00:00Z'>"
        f"</head><body><nav>{nav}</nav><article><h1>{title}</h1>"
        f"<p>Reported from the {section} desk, story {n}.</p>{body}</article>"
        f"<aside><ul>{related}</ul></aside><footer>Harbour Gazette</footer></body></html>"
    )
    return html.encode()


def listing_page(links: list[str]) -> bytes:
    items = "".join(f"<li><a href='{href}'>Story</a></li>" for href in links)
    return f"<html><head><title>Index</title></head><body><ul>{items}</ul></body></html>".encode()


def slow(route: Route) -> Handler:
    """A page answered after LATENCY seconds, in a single write.

    One write, not headers then body: two small writes on a keep-alive
    connection meet Nagle's algorithm and the client's delayed ACK, which
    stall every response by ~40 ms and would make the site, not the crawl,
    the bottleneck.
    """
    head = (
        f"HTTP/1.1 {route.status} OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(route.body)}\r\n\r\n"
    ).encode()

    def handle(request: BaseHTTPRequestHandler) -> None:
        time.sleep(LATENCY)
        request.wfile.write(head + route.body)

    return handle


def site() -> dict[str, Route | Handler]:
    routes: dict[str, Route | Handler] = {
        "/": slow(Route(listing_page([f"/{s}/" for s in SECTIONS])))
    }
    for section in SECTIONS:
        links = [article_path(section, n) for n in range(PER_SECTION)]
        routes[f"/{section}/"] = slow(Route(listing_page(links)))
        for n in range(PER_SECTION):
            routes[article_path(section, n)] = slow(Route(article_page(section, n)))
    return routes


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with redis_server(tmp_path) as url:
        yield url


def crawl_twice(
    base: str, tmp_path: Path, depth: int, **extra: str
) -> list[tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]]:
    """Two ``scrapy crawl news`` processes started at once on the site at ``base``."""
    settings = {
        "DOWNLOAD_DELAY": "0",
        "AUTOTHROTTLE_ENABLED": "False",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "2",
        "ROBOTSTXT_OBEY": "False",
        "CX_REDIS_IDLE_CLOSE": "3",
        **extra,
    }
    args = ["-a", f"start_url={base}/", "-a", "follow=1", "-a", f"depth={depth}"]
    with ThreadPoolExecutor(2) as pool:
        runs = [
            pool.submit(
                run_crawl, args, tmp_path / f"part-{i}.jsonl", settings=settings, timeout=120
            )
            for i in (1, 2)
        ]
        return [run.result() for run in runs]


def test_two_processes_share_one_queue_and_export_each_article_once(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CX_REDIS_URL", redis_url)
    routes = site()
    with serve(routes) as (base, hits):
        results = crawl_twice(base, tmp_path, depth=3)

    for proc, _items in results:
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "'SCHEDULER': 'scrapy_redis.scheduler.Scheduler'" in proc.stderr
    exported = [item["url"] for _proc, items in results for item in items]
    expected = {f"{base}{article_path(s, n)}" for s in SECTIONS for n in range(PER_SECTION)}
    counts = Counter(exported)
    assert set(counts) == expected  # every article, and nothing that is not one
    assert max(counts.values()) == 1  # none twice across the two outputs
    # Each page was downloaded once in all: the queue and dupefilter were shared.
    assert {path: n for path, n in hits.items() if n != 1} == {}
    # Both processes did part of the work (the shared queue, not one process alone).
    shares = [len(items) for _proc, items in results]
    assert min(shares) >= len(expected) // 10, shares
    for _proc, items in results:
        assert all(item["title"] and item["content"] for item in items)
        json.dumps(items)  # exported items are plain JSON


# ----------------------------------------------------------------- reposts, CX_DEDUP

STORIES = 80  # 240 pages: long enough that both processes take part
WORDS = (
    "council harbour bridge ferry budget school river market mayor station tram night "
    "workers plan vote residents district engineers library hospital park museum road "
    "water power island festival police court report museum garden tower square coast"
).split()
PORTALS = ("Harbour Gazette", "Daily Courier", "Metro Wire")


def story_paragraphs(n: int) -> list[str]:
    """Story ``n``: its own sentences over one small shared vocabulary (one topic)."""
    rng = random.Random(n)
    return [
        " ".join(
            " ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + "." for _ in range(3)
        )
        for _ in range(5)
    ]


def repost_page(n: int, copy: int) -> bytes:
    """Copy 0: the story; 1: another portal, an update paragraph added; 2: a paragraph cut."""
    paragraphs = story_paragraphs(n)
    if copy == 1:
        paragraphs.append(f"Update: the {WORDS[n % len(WORDS)]} office answered questions.")
    elif copy == 2:
        del paragraphs[2]
        paragraphs = [p.replace(". ", ".  ").replace(" ", "  ", 3) for p in paragraphs]
    portal = PORTALS[copy]
    title = f"Story {n} from the {WORDS[n % len(WORDS)]} desk"
    nav = "".join(f"<a href='/{w}/'>{w.title()}</a> " for w in WORDS[copy * 5 : copy * 5 + 8])
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    html = (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title} | {portal}</title>"
        f"<meta property='article:published_time' content='2024-05-{1 + n % 28:02d}'>"
        f"</head><body><nav>{nav}</nav><article><h1>{title}</h1>{body}</article>"
        f"<div class='ad'>Advertisement: subscribe to {portal}</div>"
        f"<footer>{portal}, all rights reserved</footer></body></html>"
    )
    return html.encode()


def repost_site() -> dict[str, Route | Handler]:
    paths = {
        (n, copy): f"/{PORTALS[copy].split()[0].lower()}/{n}.html"
        for n in range(STORIES)
        for copy in range(len(PORTALS))
    }
    routes: dict[str, Route | Handler] = {"/": slow(Route(listing_page(sorted(paths.values()))))}
    for (n, copy), path in paths.items():
        routes[path] = slow(Route(repost_page(n, copy)))
    return routes


def test_two_processes_export_each_story_once_when_reposts_have_other_urls(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CX_REDIS_URL", redis_url)
    with serve(repost_site()) as (base, _hits):
        results = crawl_twice(base, tmp_path, depth=2, CX_DEDUP="True")

    for proc, _items in results:
        assert proc.returncode == 0, proc.stderr[-3000:]
    items = [item for _proc, part in results for item in part]
    stories = Counter(int(item["url"].rsplit("/", 1)[1].split(".")[0]) for item in items)
    assert stories == Counter(range(STORIES))  # every story, each exactly once
    dropped = sum(
        int(m.group(1))
        for proc, _ in results
        for m in re.finditer(r"'cx/dropped/duplicate': (\d+)", proc.stderr)
    )
    assert dropped == STORIES * (len(PORTALS) - 1)
    # The index is shared: a process dropped reposts of stories the other one exported.
    exported = [{item["url"] for item in part} for _proc, part in results]
    across = [
        first
        for i, (proc, _part) in enumerate(results)
        for first in re.findall(r"duplicate of (\S+): ", proc.stderr)
        if first in exported[1 - i]
    ]
    assert across, [len(part) for _proc, part in results]
