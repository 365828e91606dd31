"""The ``news`` spider: scrapy-cx's NewsSpider, crawling the bundled pages by default.

Where the pages come from (pick one; with none, the bundled sample pages)::

    scrapy crawl news -O articles.jsonl                        # bundled pages, no network
    scrapy crawl news -a site=https://example.com/ -a since=2d -s JOBDIR=state/ -O new.jsonl
    scrapy crawl news -a urls=urls.txt -O articles.jsonl       # one URL per line (online mode)
    scrapy crawl news -a dir=saved/ -O articles.jsonl          # saved *.html / *.htm (offline)
    scrapy crawl news -a start_url=https://example.com/ -a follow=1 -a depth=2 -O articles.jsonl

``site=`` finds the articles itself (robots.txt, sitemaps, feeds, listing pages),
fetches each once (with ``JOBDIR``, once across runs too) and merges articles
split over several pages. With the other sources the spider yields
``{"url": response.url}`` for every HTML page and the scrapy-cx add-on fills in
the article (or drops the item, with a reason in the ``cx/dropped/*`` stats,
when the page is not one: an index page, an error page, a PDF served as HTML).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scrapy_cx.spiders import NewsSpider as BaseNewsSpider

SAMPLE_PAGES = Path(__file__).resolve().parent.parent / "pages"


class NewsSpider(BaseNewsSpider):
    """scrapy-cx's NewsSpider; the project's settings.py holds its polite defaults."""

    name = "news"
    default_pages = SAMPLE_PAGES
    # settings.py already sets robots.txt, AutoThrottle and per-site concurrency.
    custom_settings: dict[str, Any] | None = {}
