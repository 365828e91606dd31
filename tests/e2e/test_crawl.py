"""End to end: a real ``scrapy crawl news`` against a real HTTP server and local files.

Each test runs the example project's spider in a subprocess, exactly as a user
would, and reads back the exported JSON lines and the stats Scrapy dumps at the
end of the log. The generated site (tests/e2e/site.py) knows which URLs hold
articles and what their titles, dates and paragraphs are.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.site import REDIRECT, WELCOME, Site, Story, build_site
from tests.support.crawl import EXAMPLE_PROJECT, run_crawl
from tests.support.server import Route, serve

# One process runs this file's tests (pytest -n --dist loadgroup): they share its
# module-scoped fixtures, which would otherwise be built again in each process.
pytestmark = pytest.mark.xdist_group(__name__)

# A local server needs no politeness: no delay, no throttling, many requests at once.
FAST = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
}
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def squash(text: str) -> str:
    """Compare text as a reader sees it: whitespace and quote styles do not matter."""
    return re.sub(r"\s+", "", text.translate(_QUOTES))


def cx_stats(log: str) -> dict[str, int]:
    """The ``cx/*`` counters from the stats dump at the end of a Scrapy log."""
    dump = log.rsplit("Dumping Scrapy stats:", 1)
    assert len(dump) == 2, "no stats dump in the log:\n" + log[-3000:]
    body = dump[1][dump[1].index("{") :]
    body = body[: body.index("}\n") + 1]
    pairs = re.findall(r"'(cx/[^']+)': (\d+)", body)
    return {key: int(value) for key, value in pairs}


def grouped(stats: dict[str, int], group: str) -> dict[str, int]:
    prefix = f"cx/{group}/"
    return {k[len(prefix) :]: v for k, v in stats.items() if k.startswith(prefix)}


def article_problems(item: dict[str, Any], story: Story, boilerplate: list[str]) -> list[str]:
    """Everything wrong with one exported article, worded for a failure report."""
    problems = []
    if item.get("title") != story.title:
        problems.append(f"title {item.get('title')!r} != {story.title!r}")
    published = item.get("published") or ""
    if published[:10] != story.day:
        problems.append(f"published {published!r} is not on {story.day}")
    content = squash(item.get("content") or "")
    for paragraph in story.paragraphs:
        if squash(paragraph) not in content:
            problems.append(f"missing paragraph {paragraph[:40]!r}...")
    for text in boilerplate:
        if squash(text) in content:
            problems.append(f"boilerplate in content: {text[:40]!r}")
    return problems


def check_articles(
    items: list[dict[str, Any]], expected: dict[str, tuple[Story, list[str]]]
) -> None:
    """Exactly the expected URLs, each with the right title, date and text.

    Every problem is reported at once, so one run shows everything the
    extractor gets wrong on the site.
    """
    report = []
    urls = [item["url"] for item in items]
    report += [f"{url}: exported twice" for url, n in Counter(urls).items() if n > 1]
    report += [f"{url}: article missing" for url in sorted(set(expected) - set(urls))]
    for item in items:
        if item["url"] not in expected:
            content = (item.get("content") or "")[:80]
            report.append(f"{item['url']}: not an article, exported with content {content!r}")
            continue
        story, boilerplate = expected[item["url"]]
        report += [f"{item['url']}: {p}" for p in article_problems(item, story, boilerplate)]
    assert not report, "\n".join(report)


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[Site, str, dict[str, int]]]:
    routes: dict[str, Route] = {}
    with serve(routes) as (base, hits):
        built = build_site(base)
        routes.update(built.routes)
        yield built, base, hits


@pytest.fixture(scope="module")
def follow_crawl(
    site: tuple[Site, str, dict[str, int]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]], dict[str, int]]:
    """One crawl from the home page with the default depth; its hits per path."""
    built, base, hits = site
    hits.clear()
    out = tmp_path_factory.mktemp("follow") / "articles.jsonl"
    proc, items = run_crawl(
        ["-a", f"start_url={base}/", "-a", "follow=1"], out, settings=FAST, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc, items, dict(hits)


def test_site_is_big_enough(site: tuple[Site, str, dict[str, int]]) -> None:
    built, _, _ = site
    assert len(built.routes) >= 50
    assert len(built.articles) >= 30


def test_follow_crawl_exports_exactly_the_articles(
    site: tuple[Site, str, dict[str, int]], follow_crawl: Any
) -> None:
    built, base, _ = site
    _, items, _ = follow_crawl
    expected = {base + p: (s, built.boilerplate[p]) for p, s in built.articles.items()}
    check_articles(items, expected)


def test_follow_crawl_respects_robots_depth_host_and_extensions(
    site: tuple[Site, str, dict[str, int]], follow_crawl: Any
) -> None:
    built, _, _ = site
    _, _, hits = follow_crawl
    for path in built.never_fetched:
        assert hits.get(path, 0) == 0, f"{path} should not have been requested"
    for path in [*built.articles, *built.index_pages, *built.faults]:
        assert hits.get(path, 0) >= 1, f"{path} was never requested"
    assert hits[REDIRECT] == 1
    assert hits["/"] == 1  # the start page, linked from every page, fetched once
    assert hits["/robots.txt"] == 1  # fetched (and obeyed), though no skip counts it


def test_follow_crawl_stats_count_pages_and_skips_with_reasons(
    site: tuple[Site, str, dict[str, int]], follow_crawl: Any
) -> None:
    built, _, _ = site
    proc, items, _ = follow_crawl
    stats = cx_stats(proc.stderr)
    # What was fetched and why some responses were not pages...
    assert stats.get("cx/pages") == len(built.articles) + len(built.index_pages)
    assert grouped(stats, "skipped") == dict(Counter(built.faults.values()))
    assert stats.get("cx/errors", 0) == 0
    # JSON and PDF responses reach the callback too and must not break it.
    assert "spider_exceptions" not in proc.stderr and "Traceback" not in proc.stderr
    # A real crawl on the installed Scrapy warns about nothing of ours.
    assert "DeprecationWarning" not in proc.stderr
    assert f"Wrote {len(items)} articles to" in proc.stderr
    # ...then what the pipeline made of the pages.
    assert stats.get("cx/articles") == len(items) == len(built.articles)
    assert sum(grouped(stats, "dropped").values()) == len(built.index_pages)


def test_depth_argument_limits_the_follow_crawl(
    site: tuple[Site, str, dict[str, int]], follow_crawl: Any, tmp_path: Path
) -> None:
    built, base, hits = site
    hits.clear()
    # Started from another name of the site (localhost) that redirects to it
    # (127.0.0.1): links to either name are the site's own, so the home page's
    # "sister site" link on localhost is followed this time.
    localhost = base.replace("127.0.0.1", "localhost")
    proc, items = run_crawl(
        ["-a", f"start_url={localhost}{WELCOME}", "-a", "follow=yes", "-a", "depth=1"],
        tmp_path / "out.jsonl",
        settings=FAST,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # Depth 1 reaches the section pages and that one article, not the articles
    # two clicks away.
    assert [item["url"] for item in items] == [f"{localhost}/en/news/elsewhere"]
    assert all(hits.get(path, 0) >= 1 for path in built.index_pages)
    assert not any(hits.get(path, 0) for path in built.articles)
    assert sum(grouped(cx_stats(proc.stderr), "dropped").values()) == len(built.index_pages)


def test_url_list_crawl(site: tuple[Site, str, dict[str, int]], tmp_path: Path) -> None:
    built, base, _ = site
    chosen = [p for p, s in built.articles.items() if p != built_redirect_target(built)][::5]
    faults = list(built.faults)
    listed = [base + p for p in [*chosen, REDIRECT, *faults, "/zh/local/"]]
    # A saved page may be listed by its path, relative to the list.
    saved_path, saved_story = next(
        (p, s) for p, s in built.articles.items() if p not in chosen and s.lang == "zh"
    )
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "page.html").write_bytes(built.routes[saved_path].body)
    listed.append("saved/page.html")
    url_file = tmp_path / "urls.txt"
    url_file.write_text("# pages to extract\n" + "\n".join(listed) + "\n\n", encoding="utf-8")

    proc, items = run_crawl(
        ["-a", f"urls={url_file}"], tmp_path / "out.jsonl", settings=FAST, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    stats = cx_stats(proc.stderr)
    # robots.txt is fetched first but is no request of the spider's: not counted.
    skipped = Counter(built.faults[p] for p in faults)
    assert grouped(stats, "skipped") == dict(skipped)
    assert stats.get("cx/pages") == len(chosen) + 3  # + redirect target, section, saved page
    expected = {
        base + p: (built.articles[p], built.boilerplate[p])
        for p in [*chosen, built_redirect_target(built)]
    }
    saved_uri = (tmp_path / "saved" / "page.html").resolve().as_uri()
    expected[saved_uri] = (saved_story, built.boilerplate[saved_path])
    check_articles(items, expected)
    assert sum(grouped(stats, "dropped").values()) == 1  # the section page


def built_redirect_target(built: Site) -> str:
    """The article only the redirect leads to (no index page links it)."""
    target = built.routes[REDIRECT].headers["Location"]
    assert target in built.articles
    return target


def _saved_name(path: str) -> str:
    """Where a browser's 'Save page' would have put ``path``: .html or .htm."""
    name = path.strip("/")
    if path.endswith("/"):
        return f"{name}/index.html"
    if name.endswith(".asp"):
        return name[: -len(".asp")] + ".htm"
    return name if name.endswith(".html") else name + ".html"


def test_dir_crawl_reads_saved_pages_recursively(
    site: tuple[Site, str, dict[str, int]], tmp_path: Path
) -> None:
    built, _, _ = site
    folder = tmp_path / "saved pages"
    expected: dict[str, tuple[Story, list[str]]] = {}
    for path, story in built.articles.items():
        file = folder / _saved_name(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        # Saved bytes lose the HTTP header: a GBK page whose charset was only in
        # the header is now undeclared, as saved pages from such sites are.
        file.write_bytes(built.routes[path].body)
        expected[file.resolve().as_uri()] = (story, built.boilerplate[path])
    (folder / "zh" / "local" / "index.html").write_bytes(built.routes["/zh/local/"].body)
    (folder / "reports").mkdir()
    (folder / "reports" / "summary.html").write_bytes(built.routes["/reports/summary"].body)
    (folder / "api").mkdir()
    (folder / "api" / "latest.json").write_bytes(built.routes["/api/latest"].body)
    (folder / "README.txt").write_text("Pages saved from the Valley Chronicle.\n")

    proc, items = run_crawl(
        ["-a", f"dir={folder}"], tmp_path / "out.jsonl", settings=FAST, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    stats = cx_stats(proc.stderr)
    assert stats.get("cx/pages") == len(expected) + 1  # the articles and the index
    assert grouped(stats, "skipped") == {"binary": 1}  # the PDF saved as .html
    check_articles(items, expected)
    assert sum(grouped(stats, "dropped").values()) == 1


# The bundled sample pages: what a new user gets from `scrapy crawl news` with no
# arguments. file -> (title, day, text that must be in the content, text that must not).
BUNDLED: dict[str, tuple[str, str, list[str], list[str]]] = {
    "ledger-ferry-terminal.html": (
        "Harbour board approves £48m rebuild of Quayside ferry terminal",
        "2024-03-14",
        [
            "Port Alder Harbour Board has approved a £48 million plan",
            "Two berths mean one late boat no longer becomes five late boats.",
            "A public exhibition of the final design will be held at the Harbour Office",
        ],
        [
            "Winter ferry timetable cut to four sailings",
            "I sat in that queue for three hours at Easter",
            "School closed after storm lifts sports hall roof",
            "Registered in England and Wales",
            "We use cookies to personalise content",
        ],
    ),
    "qinghe-2009-bridge.html": (
        "青河三桥今日正式通车 市区南北往来缩短20分钟",
        "2009-11-09",
        [
            "经过两年零四个月的紧张施工",
            "市公交总公司同步开通了18路、32路两条跨江公交线路",
            "预计明年春节前完成",
        ],
        [
            "青河三桥主桥合龙",
            "终于通了，希望以后别再堵车了",
            "我市出租车起步价调整听证会召开",
            "未经授权禁止转载",
        ],
    ),
    "nanling-rice-purchase.html": (
        "早稻收购工作全面展开 粮站延长开秤时间方便农民售粮",
        "2009-06-18",
        ["随着早稻陆续开镰", "严禁压级压价、打白条", "水分和杂质超标的稻谷要按规定扣量"],
        ["县领导调研防汛工作", "建议使用IE6.0以上浏览器", "南岭脐橙获评省级名牌产品"],
    ),
    "blog-orchard-planting.html": (
        "Forty trees in one Saturday: the Lower Field orchard is planted",
        "2023-10-06",
        [
            "the orchard we have been talking about for three years finally exists",
            "Mrs Ellery remembered a cooking apple her father called the Church Lane Pippin",
            "All welcome, no experience needed, and bring boots.",
        ],
        [
            "My back is never going to forgive me",
            "Hedge survey results",
            "Work days are the first Saturday of every month",
            "Proudly powered by",
        ],
    ),
    "gov-flood-notice.html": (
        "青河市人民政府办公室关于做好2024年防汛防台风工作的通知",
        "2024-05-22",
        ["根据气象部门预测，今年我市汛期降水总体偏多", "一、压实防汛责任", "不得迟报、漏报、瞒报"],
        [
            "青河市防汛抗旱指挥部关于开展汛前检查的通知",
            "网站标识码",
            "承办单位",
            "11360100MB1234567X/2024-00318",  # the metadata table's index number
        ],
    ),
    "riverside-lock-keeper.html": (
        "The last lock-keeper on the Caldbeck Canal hangs up his windlass",
        "2019-06-02",
        [
            "Derek Marsh has opened the gates at Hollins Lock roughly a quarter of a million times",
            "When the mill closed in 1984 the canal almost closed with it.",
            "Somebody has to tell them they have left the paddles up.",
        ],
        [
            "Homeowners are ditching their boilers",
            "Derek told me off for leaving a paddle up",
            "Pennock bypass opens six months late",
            "Continue reading below",
        ],
    ),
    "chenxing-city-libraries.html": (
        "江州“城市书房”突破100家 市民步行15分钟就能借到书",
        "2023-04-23",
        ["4月23日是第28个世界读书日", "通借通还", "并重点向新建小区和乡镇延伸"],
        [
            "家门口的书房周末座位太难抢了",
            "五一假期江州至沿海高铁加开列车28列",
            "全民阅读活动月启动",
            "扫码下载晨星新闻客户端",
        ],
    ),
    "gazette-2008-flood-defences.html": (
        "Flood wall finished a year ahead of schedule",
        "2008-03-11",
        [
            "WORK on Millbrook's new flood wall has been completed a full year earlier",
            "Nobody who lived through 2005 wants to see water in their kitchen again",
            "A formal opening is planned for April.",
        ],
        [
            "Town hall clock to chime again after restoration",
            "Driver banned after crash on bypass",
            "Hargreaves Motors",
            "Print this story | Email to a friend",
        ],
    ),
}
BUNDLED_NOT_ARTICLES = {"index.html", "qinghe-local-list.html"}


def test_an_unwritable_feed_is_reported_not_counted_as_written(tmp_path: Path) -> None:
    # Scrapy logs the feed's error per item and goes on; the spider's last word must
    # not be "Wrote 8 articles" when the file was never written.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    proc, items = run_crawl([], blocker / "articles.jsonl", timeout=120)
    assert items == []
    assert "Could not write the articles to" in proc.stderr, proc.stderr[-2000:]
    assert "Wrote " not in proc.stderr


def test_default_crawl_extracts_the_bundled_pages(tmp_path: Path) -> None:
    pages = EXAMPLE_PROJECT / "news" / "pages"
    assert {p.name for p in pages.glob("*.html")} == set(BUNDLED) | BUNDLED_NOT_ARTICLES
    # From another directory's point of view too: the spider finds its pages itself.
    proc, items = run_crawl([], tmp_path / "articles.jsonl", timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    by_name = {item["url"].rsplit("/", 1)[1]: item for item in items}
    assert set(by_name) == set(BUNDLED)
    report = []
    for name, (title, day, present, absent) in BUNDLED.items():
        item = by_name[name]
        assert item["url"] == (pages / name).resolve().as_uri()
        if item.get("title") != title:
            report.append(f"{name}: title {item.get('title')!r} != {title!r}")
        if (item.get("published") or "")[:10] != day:
            report.append(f"{name}: published {item.get('published')!r} is not on {day}")
        content = squash(item.get("content") or "")
        report += [f"{name}: missing {t[:40]!r}" for t in present if squash(t) not in content]
        report += [f"{name}: boilerplate {t[:40]!r}" for t in absent if squash(t) in content]
    assert not report, "\n".join(report)
    stats = cx_stats(proc.stderr)
    assert stats.get("cx/pages") == len(BUNDLED) + len(BUNDLED_NOT_ARTICLES)
    assert sum(grouped(stats, "dropped").values()) == len(BUNDLED_NOT_ARTICLES)
    out = tmp_path / "articles.jsonl"
    assert f"Wrote {len(BUNDLED)} articles to {out}" in proc.stderr


def test_spider_arguments_are_checked(tmp_path: Path) -> None:
    proc, items = run_crawl(
        ["-a", f"dir={tmp_path / 'missing'}"], tmp_path / "out.jsonl", timeout=60
    )
    assert proc.returncode != 0
    assert "-a dir must be a folder of saved *.html / *.htm pages" in proc.stderr
    assert items == []
    proc, _ = run_crawl(
        ["-a", f"dir={tmp_path}", "-a", "start_url=http://127.0.0.1:9/"],
        tmp_path / "out.jsonl",
        timeout=60,
    )
    assert proc.returncode != 0
    alone = "-a start_url must be given alone (one of site, urls, dir, start_url: dir is given too)"
    assert alone in proc.stderr
