"""Every ``CX_*`` setting, its default, and one typed read of them per crawler.

Defaults live here (not in the project's settings) so a project that only adds
the add-on line gets a working configuration, and so the README table has one
source to be checked against (``tests/test_settings.py`` does).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings

from .bulk import DEFAULT_MAX_PAGE_BYTES
from .extract import PAGE_TYPES, LineOptions
from .pool import resolve_workers
from .verdict import DEFAULT_PAGE_TYPES

DEFAULTS: dict[str, Any] = {
    # Turn every scrapy-cx component off without removing it (NotConfigured).
    "CX_ENABLED": True,
    # Bodies larger than this many bytes are not extracted (0: no limit).
    "CX_MAX_BODY_SIZE": DEFAULT_MAX_PAGE_BYTES,  # the same limit as `scrapy-cx extract`
    # Fewer main-text characters than this and an item is not an article.
    "CX_MIN_CONTENT_LENGTH": 200,
    # Page types (Article.page_type) that are articles to keep; pages the extractor
    # judged to be of another type are dropped as page_type_<type>.
    "CX_PAGE_TYPES": list(DEFAULT_PAGE_TYPES),
    # Drop items that fail validation (no title, short text, bad date).
    "CX_DROP_NON_ARTICLES": True,
    # Also drop articles without a publication date.
    "CX_REQUIRE_PUBLISHED": False,
    # Languages for dateparser (e.g. ["en", "zh"]); None lets it detect.
    "CX_DATE_LANGUAGES": None,
    # LineOptions fields passed to extract_article (block_size, line_cost, ...).
    "CX_LINE_OPTIONS": {},
    # Fill empty fields of items yielded by callbacks from the response's article.
    "CX_FILL_ITEMS": True,
    # Item field holding raw HTML that the pipeline extracts from.
    "CX_HTML_FIELD": "html",
    # Keep that raw HTML field on the item after extraction.
    "CX_KEEP_HTML": False,
    # Worker processes that extract pages off the reactor thread: "auto" (one per
    # core but one, at least 2), a number, or 0 to extract in the reactor thread.
    "CX_WORKERS": "auto",
    # Seconds a worker may spend on one page before it is killed and replaced and
    # the page passes on without an article (cx/skipped/timeout); 0: no deadline.
    "CX_PAGE_TIMEOUT": 5.0,
    # Pages after which a worker process is replaced, bounding what it can leak (0: never).
    "CX_WORKER_MAX_PAGES": 500,
    # Distributed crawls (scrapy_cx.distributed.IdleClose): seconds an idle process
    # waits for the others to refill the shared queue before it closes.
    "CX_REDIS_IDLE_CLOSE": 30.0,
    # Distributed crawls (scrapy_cx.leases.LeasedQueue): seconds a process may hold a
    # request before another takes it (it died); longer than a request may wait + download.
    "CX_REDIS_LEASE_TIMEOUT": 600.0,
    # Deliveries of one request before it is given up (a page that kills every crawler).
    "CX_REDIS_MAX_DELIVERIES": 3,
    # Redis that holds state shared by every process of a crawl (the dedup index).
    "CX_REDIS_URL": None,
    # Find reposts: articles whose main text is a near duplicate of one seen before.
    "CX_DEDUP": False,
    # "drop" reposts (DropItem) or "mark" them (duplicate_of = the first one's URL).
    "CX_DEDUP_MODE": "drop",
    # Share of equal fingerprint slots (estimated Jaccard) from which two texts are one story.
    "CX_DEDUP_THRESHOLD": 0.5,
}

DEDUP_MODES = ("drop", "mark")

_LINE_OPTION_NAMES = frozenset(f.name for f in dataclasses.fields(LineOptions))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float))


def _check_languages(languages: list[str]) -> None:
    """Fail at start-up on a language dateparser does not know.

    The date step treats dateparser errors as "no date", so a typo here would
    otherwise silently cost every date of the crawl.
    """
    try:
        from dateparser.data.languages_info import language_order
    except ImportError:  # layout of another dateparser version: let it be
        return
    unknown = [lang for lang in languages if lang not in language_order]
    if unknown:
        raise ValueError(f"CX_DATE_LANGUAGES: unknown to dateparser: {unknown}")


@dataclass(frozen=True)
class CxSettings:
    """The ``CX_*`` settings of one crawler, read and checked once."""

    enabled: bool = DEFAULTS["CX_ENABLED"]
    max_body_size: int = DEFAULTS["CX_MAX_BODY_SIZE"]
    min_content_length: int = DEFAULTS["CX_MIN_CONTENT_LENGTH"]
    page_types: tuple[str, ...] = DEFAULT_PAGE_TYPES
    drop_non_articles: bool = DEFAULTS["CX_DROP_NON_ARTICLES"]
    require_published: bool = DEFAULTS["CX_REQUIRE_PUBLISHED"]
    date_languages: list[str] | None = None
    line_options: dict[str, Any] = field(default_factory=dict)
    fill_items: bool = DEFAULTS["CX_FILL_ITEMS"]
    html_field: str = DEFAULTS["CX_HTML_FIELD"]
    keep_html: bool = DEFAULTS["CX_KEEP_HTML"]
    redis_url: str | None = None
    dedup: bool = DEFAULTS["CX_DEDUP"]
    dedup_mode: str = DEFAULTS["CX_DEDUP_MODE"]
    dedup_threshold: float = DEFAULTS["CX_DEDUP_THRESHOLD"]
    workers: int | str = DEFAULTS["CX_WORKERS"]
    page_timeout: float = DEFAULTS["CX_PAGE_TIMEOUT"]
    worker_max_pages: int = DEFAULTS["CX_WORKER_MAX_PAGES"]

    @property
    def worker_count(self) -> int:
        """``workers`` as a number of processes (``auto`` resolved on this machine)."""
        return resolve_workers(self.workers)

    @classmethod
    def for_crawler(cls, crawler: Crawler) -> CxSettings:
        """The crawler's settings for a component's ``from_crawler``: NotConfigured if off."""
        settings = cls.from_settings(crawler.settings)
        if not settings.enabled:
            raise NotConfigured("CX_ENABLED is False")
        return settings

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> CxSettings:
        """Read the ``CX_*`` settings; a wrong value fails the crawl start, loudly."""

        def get(name: str) -> Any:
            return settings.get(name, DEFAULTS[name])

        languages = get("CX_DATE_LANGUAGES")
        if languages is not None:
            languages = settings.getlist("CX_DATE_LANGUAGES") or None
            _check_languages(languages or [])
        line_options = settings.getdict("CX_LINE_OPTIONS", DEFAULTS["CX_LINE_OPTIONS"])
        unknown = set(line_options) - _LINE_OPTION_NAMES
        if unknown:
            raise ValueError(
                f"CX_LINE_OPTIONS: unknown option(s) {sorted(unknown)}; "
                f"known: {sorted(_LINE_OPTION_NAMES)}"
            )
        wrong = [k for k, v in line_options.items() if isinstance(v, bool) or not _number(v)]
        if wrong:
            raise ValueError(f"CX_LINE_OPTIONS: {sorted(wrong)} must be numbers")
        max_body_size = settings.getint("CX_MAX_BODY_SIZE", DEFAULTS["CX_MAX_BODY_SIZE"])
        min_length = settings.getint("CX_MIN_CONTENT_LENGTH", DEFAULTS["CX_MIN_CONTENT_LENGTH"])
        if max_body_size < 0 or min_length < 0:
            raise ValueError("CX_MAX_BODY_SIZE and CX_MIN_CONTENT_LENGTH must be >= 0")
        html_field = str(get("CX_HTML_FIELD") or "")
        page_types = tuple(settings.getlist("CX_PAGE_TYPES", DEFAULTS["CX_PAGE_TYPES"]))
        unknown_types = sorted(set(page_types) - set(PAGE_TYPES))
        if unknown_types:
            raise ValueError(f"CX_PAGE_TYPES: unknown {unknown_types}; known: {list(PAGE_TYPES)}")
        dedup_mode = str(get("CX_DEDUP_MODE")).lower()
        if dedup_mode not in DEDUP_MODES:
            raise ValueError(f"CX_DEDUP_MODE must be one of {DEDUP_MODES}, not {dedup_mode!r}")
        threshold = settings.getfloat("CX_DEDUP_THRESHOLD", DEFAULTS["CX_DEDUP_THRESHOLD"])
        if not 0 < threshold <= 1:
            raise ValueError(f"CX_DEDUP_THRESHOLD must be in (0, 1], not {threshold}")
        workers = get("CX_WORKERS")
        workers = "auto" if str(workers).strip().lower() == "auto" else resolve_workers(workers)
        page_timeout = settings.getfloat("CX_PAGE_TIMEOUT", DEFAULTS["CX_PAGE_TIMEOUT"])
        max_pages = settings.getint("CX_WORKER_MAX_PAGES", DEFAULTS["CX_WORKER_MAX_PAGES"])
        if page_timeout < 0 or max_pages < 0:
            raise ValueError("CX_PAGE_TIMEOUT and CX_WORKER_MAX_PAGES must be >= 0")
        return cls(
            enabled=settings.getbool("CX_ENABLED", DEFAULTS["CX_ENABLED"]),
            max_body_size=max_body_size,
            min_content_length=min_length,
            page_types=page_types,
            drop_non_articles=settings.getbool(
                "CX_DROP_NON_ARTICLES", DEFAULTS["CX_DROP_NON_ARTICLES"]
            ),
            require_published=settings.getbool(
                "CX_REQUIRE_PUBLISHED", DEFAULTS["CX_REQUIRE_PUBLISHED"]
            ),
            date_languages=languages,
            line_options=dict(line_options),
            fill_items=settings.getbool("CX_FILL_ITEMS", DEFAULTS["CX_FILL_ITEMS"]),
            html_field=html_field,
            keep_html=settings.getbool("CX_KEEP_HTML", DEFAULTS["CX_KEEP_HTML"]),
            redis_url=str(get("CX_REDIS_URL") or "") or None,
            dedup=settings.getbool("CX_DEDUP", DEFAULTS["CX_DEDUP"]),
            dedup_mode=dedup_mode,
            dedup_threshold=threshold,
            workers=workers,
            page_timeout=page_timeout,
            worker_max_pages=max_pages,
        )
