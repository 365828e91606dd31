"""A generated news site for ``-a site=`` crawls: what a news crawler has to find its way in.

robots.txt names a sitemap index, which names a Google News sitemap (the newest
stories), a gzipped plain sitemap (every story, the section fronts and a few tag
pages, with ``lastmod``) and itself. The home page declares an RSS feed, the
section fronts an Atom feed; section fronts page through their stories with a
numbered pager ("1 2 3 Next"), tag pages list a tag's stories. Stories are in
English and Chinese, some split over 2-4 pages (``?page=2`` in English,
``_2.shtml`` and "下一页" in Chinese). The site knows its answers
(:attr:`NewsSite.articles`) and can publish a new story (:meth:`NewsSite.publish`).
Everything is invented here; nothing is copied from real pages. Served by
``benchmarks/newscrawl.py`` and by the end-to-end tests (tests/e2e/test_newscrawl.py).
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from html import escape

#: A response: its body and its Content-Type.
Route = tuple[bytes, str]
HTML = "text/html; charset=utf-8"

SECTIONS = {"world": "World", "business": "Business", "science": "Science", "zh": "国内"}
TAGS = tuple(
    f"{a}-{b}" for a in ("harbour", "energy", "schools", "transport", "weather", "housing")
    for b in ("plans", "costs", "people", "reviews", "votes")
)
AUTHORS = ("jane-example", "li-ming", "sam-jones", "wang-lixin", "ana-silva", "chen-xiaomei")
PER_PAGE = 10
NEWEST = datetime(2024, 5, 20, 9, 0, tzinfo=timezone.utc)

EN_WORDS = (
    "council harbour ferry budget river bridge school library energy grid farmers market "
    "volunteers museum station tram weather storm festival workers hospital tunnel"
).split()
ZH_WORDS = "港口 渡轮 预算 河道 大桥 学校 图书馆 电网 农民 市场 志愿者 博物馆 车站 医院".split()


@dataclass
class Story:
    """One article of the site: where it is, and what a correct crawl exports."""

    path: str
    lang: str
    section: str
    title: str
    published: datetime
    pages: list[list[str]]  # the paragraphs of each of its pages
    tags: tuple[str, ...]
    author: str

    @property
    def paragraphs(self) -> list[str]:
        return [p for page in self.pages for p in page]

    def page_paths(self) -> list[str]:
        """The paths of its pages, in order (the first is :attr:`path`)."""
        if self.lang == "zh":
            stem = self.path.rsplit(".", 1)[0]
            return [self.path] + [f"{stem}_{n}.shtml" for n in range(2, len(self.pages) + 1)]
        return [self.path] + [f"{self.path}?page={n}" for n in range(2, len(self.pages) + 1)]


def _sentence(i: int, j: int, lang: str) -> str:
    if lang == "zh":
        w = ZH_WORDS
        a, b, c = w[(i + j) % len(w)], w[(i * 3 + j) % len(w)], w[(i + j * 5) % len(w)]
        return (
            f"第{i}号报道第{j}段：记者从有关部门获悉，{a}和{b}的改造工作已经进入新的阶段，"
            f"预计{c}相关项目将在年内完成，居民普遍表示欢迎，并希望各方继续加强协调配合。"
        )
    w = EN_WORDS
    a, b, c = w[(i + j) % len(w)], w[(i * 3 + j) % len(w)], w[(i + j * 5) % len(w)]
    return (
        f"Story {i}, paragraph {j}: officials said the {a} plan would change how the {b} "
        f"works for residents, and that the {c} review promised last year is now under way "
        f"with a public meeting planned for the coming weeks."
    )


def _story(i: int, published: datetime, split: int) -> Story:
    lang = "zh" if i % 3 == 2 else "en"
    section = "zh" if lang == "zh" else ("world", "business", "science")[(i // 3) % 3]
    day = published.strftime("%Y/%m%d")
    if lang == "zh":
        path = f"/zh/{day}/c{1000 + i}.shtml"
        title = f"第{i}号报道：{ZH_WORDS[i % len(ZH_WORDS)]}改造工程进展顺利"
    else:
        path = f"/{section}/{day}/story-{i}.html"
        title = f"Story {i}: the {EN_WORDS[i % len(EN_WORDS)]} plan moves ahead after review"
    pages = [[_sentence(i, n * 10 + j, lang) for j in range(5)] for n in range(split)]
    tags = (TAGS[i % len(TAGS)], TAGS[(i * 7 + 3) % len(TAGS)])
    return Story(path, lang, section, title, published, pages, tags, AUTHORS[i % len(AUTHORS)])


def _nav() -> str:
    items = "".join(f'<li><a href="/{key}/">{name}</a></li>' for key, name in SECTIONS.items())
    return f'<header><a href="/">The Example Courier</a><nav><ul>{items}</ul></nav></header>'


def _teasers(stories: list[Story]) -> str:
    return "".join(
        f'<article class="teaser"><h2><a href="{s.path}">{escape(s.title)}</a></h2>'
        f'<time datetime="{s.published.isoformat()}">{s.published:%d %b %Y}</time></article>'
        for s in stories
    )


def _pager(base: str, page: int, pages: int, lang: str) -> str:
    if pages < 2:
        return ""

    def href(n: int) -> str:
        return base if n == 1 else f"{base}page/{n}/"

    numbers = " ".join(
        f"<span>{n}</span>" if n == page else f'<a href="{href(n)}">{n}</a>'
        for n in range(1, pages + 1)
    )
    following = "下一页" if lang == "zh" else "Next"
    nxt = f' <a href="{href(page + 1)}">{following}</a>' if page < pages else ""
    return f'<div class="pagination">{numbers}{nxt}</div>'


def _listing(title: str, stories: list[Story], pager: str, head: str = "") -> bytes:
    html = (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)} | The Example "
        f"Courier</title>{head}</head><body>{_nav()}<main><h1>{escape(title)}</h1>"
        f"{_teasers(stories)}{pager}</main><footer><p>© The Example Courier</p></footer>"
        "</body></html>"
    )
    return html.encode("utf-8")


def _article_page(story: Story, n: int) -> bytes:
    paths = story.page_paths()
    zh = story.lang == "zh"
    paras = "".join(f"<p>{escape(p)}</p>" for p in story.pages[n])
    pager = ""
    if len(paths) > 1:
        links = " ".join(
            f"<span>{k + 1}</span>" if k == n else f'<a href="{path}">{k + 1}</a>'
            for k, path in enumerate(paths)
        )
        word = "下一页" if zh else "Next page"
        nxt = f' <a href="{paths[n + 1]}">{word}</a>' if n + 1 < len(paths) else ""
        pager = f'<div class="pages">{links}{nxt}</div>'
    tags = " ".join(f'<a href="/tag/{t}/">{t}</a>' for t in story.tags)
    author = story.author
    stamp = story.published.strftime("%Y年%m月%d日 %H:%M" if zh else "%d %B %Y, %H:%M")
    html = (
        f"<!DOCTYPE html><html lang='{story.lang}'><head><meta charset='utf-8'>"
        f"<title>{escape(story.title)}</title>"
        f"<meta property='article:published_time' content='{story.published.isoformat()}'>"
        f"</head><body>{_nav()}<main><article><h1>{escape(story.title)}</h1>"
        f"<p class='byline'><a href='/author/{author}/'>{'记者' if zh else 'By'} {author}</a>"
        f" · {stamp}</p>"
        f"{paras}{pager}<p class='tags'>Tags: {tags}</p></article></main>"
        f"<aside class='related'><h3>Related</h3><ul><li><a href='/tag/{story.tags[0]}/'>"
        f"More about {story.tags[0]}</a></li></ul></aside>"
        "<footer><p>© The Example Courier</p></footer></body></html>"
    )
    return html.encode("utf-8")


def _xml(text: str) -> Route:
    return (text.encode("utf-8"), "application/xml")


@dataclass
class NewsSite:
    """The site's routes and the stories it shows (newest first)."""

    base: str
    stories: list[Story]
    routes: dict[str, Route] = field(default_factory=dict)

    @property
    def articles(self) -> dict[str, Story]:
        """Each story by its first page's path."""
        return {s.path: s for s in self.stories}

    def article_paths(self) -> set[str]:
        """Every path of every story's pages (what a fetch of an article page hits)."""
        return {p for s in self.stories for p in s.page_paths()}

    def listing_paths(self) -> set[str]:
        return {p for p in self.routes if p == "/" or p.startswith(("/tag/", *self._fronts()))}

    def _fronts(self) -> tuple[str, ...]:
        return tuple(f"/{key}/" for key in SECTIONS if f"/{key}/" in self.routes) or ("/-",)

    def publish(self, story: Story) -> None:
        """A new story, on top of the home page, its section, the feeds and sitemaps."""
        self.stories.insert(0, story)
        self.render()

    def render(self) -> None:
        routes: dict[str, Route] = {}
        for story in self.stories:
            for n, path in enumerate(story.page_paths()):
                routes[path] = (_article_page(story, n), HTML)
        rss = f'<link rel="alternate" type="application/rss+xml" href="{self.base}/feed.xml">'
        routes["/"] = (_listing("Latest news", self.stories[:15], "", rss), HTML)
        atom = '<link rel="alternate" type="application/atom+xml" href="/atom.xml">'
        for key, name in SECTIONS.items():
            mine = [s for s in self.stories if s.section == key]
            pages = max(1, -(-len(mine) // PER_PAGE))
            for page in range(1, pages + 1):
                path = f"/{key}/" if page == 1 else f"/{key}/page/{page}/"
                chunk = mine[(page - 1) * PER_PAGE : page * PER_PAGE]
                pager = _pager(f"/{key}/", page, pages, "zh" if key == "zh" else "en")
                routes[path] = (_listing(name, chunk, pager, atom), HTML)
        for tag in TAGS:
            tagged = [s for s in self.stories if tag in s.tags][:PER_PAGE]
            routes[f"/tag/{tag}/"] = (_listing(f"Tag: {tag}", tagged, ""), HTML)
        for name in AUTHORS:
            theirs = [s for s in self.stories if s.author == name][:PER_PAGE]
            routes[f"/author/{name}/"] = (_listing(f"Author: {name}", theirs, ""), HTML)
        routes.update(self._sources())
        self.routes.clear()
        self.routes.update(routes)

    def _sources(self) -> dict[str, Route]:
        base = self.base
        robots = f"User-agent: *\nDisallow: /private/\nSitemap: {base}/sitemap_index.xml\n"
        ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        news_ns = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
        index = "".join(
            f"<sitemap><loc>{base}{p}</loc><lastmod>{NEWEST:%Y-%m-%d}</lastmod></sitemap>"
            for p in ("/sitemap-news.xml", "/sitemap-posts.xml.gz", "/sitemap_index.xml")
        )
        news = "".join(
            f"<url><loc>{base}{s.path}</loc><news:news><news:publication>"
            f"<news:name>The Example Courier</news:name><news:language>{s.lang}</news:language>"
            f"</news:publication><news:publication_date>{s.published.isoformat()}"
            f"</news:publication_date><news:title>{escape(s.title)}</news:title></news:news>"
            "</url>"
            for s in self.stories[:30]
        )
        extra = [f"/{key}/" for key in SECTIONS] + [f"/tag/{t}/" for t in TAGS[:3]]
        plain = "".join(
            f"<url><loc>{base}{s.path}</loc><lastmod>{s.published:%Y-%m-%d}</lastmod></url>"
            for s in self.stories
        ) + "".join(f"<url><loc>{base}{p}</loc></url>" for p in extra)
        posts = f'<?xml version="1.0"?><urlset {ns}>{plain}</urlset>'.encode()
        rss_items = "".join(
            f"<item><title>{escape(s.title)}</title><link>{base}{s.path}</link>"
            f"<pubDate>{format_datetime(s.published)}</pubDate></item>"
            for s in self.stories[:20]
        )
        atom_entries = "".join(
            f'<entry><title>{escape(s.title)}</title><link href="{base}{s.path}"/>'
            f"<published>{s.published.isoformat()}</published></entry>"
            for s in self.stories[:20]
            if s.lang == "zh"
        )
        return {
            "/robots.txt": (robots.encode(), "text/plain"),
            "/sitemap_index.xml": _xml(f'<?xml version="1.0"?><sitemapindex {ns}>{index}'
                                       "</sitemapindex>"),
            "/sitemap-news.xml": _xml(f'<?xml version="1.0"?><urlset {ns} {news_ns}>{news}'
                                      "</urlset>"),
            "/sitemap-posts.xml.gz": (gzip.compress(posts, mtime=0), "application/x-gzip"),
            "/feed.xml": _xml(f'<?xml version="1.0"?><rss version="2.0"><channel><title>Courier'
                              f"</title>{rss_items}</channel></rss>"),
            "/atom.xml": _xml('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">'
                              f"<title>国内</title>{atom_entries}</feed>"),
        }


def story(i: int, published: datetime, split: int = 1) -> Story:
    """Story number ``i`` of the site (a new one: a number no other story has)."""
    return _story(i, published, split)


def build_news_site(base: str, count: int = 200, split_every: int = 16) -> NewsSite:
    """``count`` stories, six hours apart from :data:`NEWEST` back; every
    ``split_every``-th one split over 2, 3 or 4 pages."""
    stories = []
    for i in range(count):
        split = 2 + (i // split_every) % 3 if i % split_every == 3 else 1
        stories.append(_story(i, NEWEST - timedelta(hours=6 * i), split))
    site = NewsSite(base, stories)
    site.render()
    return site
