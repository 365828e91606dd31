"""Every ``CX_*`` setting once: name, type, default, how it is read, what it means.

:class:`CxSettings` is the table. Each field is one setting, ``CX_`` + the
field's name in capitals, with its type (the annotation), its default, its
reader (how a Scrapy setting becomes the typed value) and a one-line doc; the
class attribute is the default (``CxSettings.page_timeout`` is the default of
``CX_PAGE_TIMEOUT``). :data:`DEFAULTS`, what the add-on writes, is derived
from it. Defaults live here (not in the project's settings) so a project that
only adds the add-on line gets a working configuration, and so the README
table has one source to be checked against (``tests/test_settings.py`` does).

Scrapy is imported only for type checking and inside functions, so bulk
extraction, the verdict and the bulk readers take their defaults from here
without importing Scrapy.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import json
import math
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .article import DEFAULT_FORMATS, FORMATS, check_formats
from .extract import PAGE_TYPES, LineOptions
from .pool import resolve_workers

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = [
    "DEDUP_MODES",
    "DEFAULTS",
    "ITEM_SCHEMAS",
    "CxSettings",
    "SettingError",
    "setting_name",
    "unknown_settings",
]

DEDUP_MODES = ("drop", "mark")
#: ``CX_ITEM_SCHEMA``: scrapy-cx's own items, or Zyte's (zyte-common-items, the zyte extra).
ITEM_SCHEMAS = ("cx", "zyte")

#: How a Scrapy setting becomes a typed value: ``read(settings, name, default)``.
Reader = Callable[["BaseSettings", str, Any], Any]


class SettingError(ValueError):
    """A ``CX_*`` setting with a value it cannot take: one line naming the setting,
    the value and what is allowed (the add-on ends ``scrapy crawl`` with it)."""


def _bad(name: str, value: Any, allowed: str) -> SettingError:
    return SettingError(f"{name} must be {allowed}, not {value!r}")


def _typed(read: Callable[[BaseSettings, str, Any], Any], allowed: str) -> Reader:
    """``read`` (Scrapy's getbool, getint...) with its errors worded as :func:`_bad`:
    Scrapy's own say neither the setting nor, for numbers, what is allowed."""

    def reader(settings: BaseSettings, name: str, default: Any) -> Any:
        try:
            return read(settings, name, default)
        except (TypeError, ValueError):
            raise _bad(name, settings.get(name, default), allowed) from None

    return reader


_bool = _typed(lambda s, n, d: s.getbool(n, d), "True or False (also 1/0, true/false)")
_int = _typed(lambda s, n, d: s.getint(n, d), "a whole number")
_float = _typed(lambda s, n, d: s.getfloat(n, d), "a number")
_options = _typed(
    lambda s, n, d: dict(s.getdict(n, d)), "a dict (on the command line: a JSON object)"
)


def _list_value(settings: BaseSettings, name: str, default: Any) -> Any:
    """A list setting as Python gave it, or the command line's JSON list or comma list.

    ``-s CX_PAGE_TYPES='["article"]'`` and ``-s CX_PAGE_TYPES=article,thread`` are
    both the list they look like (Scrapy's ``getlist`` would split the JSON at commas).
    """
    value = settings.get(name, default)
    if not isinstance(value, str):
        return value
    if value.strip().startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            raise _bad(name, value, "a JSON list or comma-separated names") from None
        return value
    return [part.strip() for part in value.split(",") if part.strip()]


def _names(settings: BaseSettings, name: str, default: Any) -> tuple[str, ...]:
    value = _list_value(settings, name, default)
    if value is None:
        return ()
    if not isinstance(value, (list, tuple, set, frozenset)) or not all(
        isinstance(item, str) for item in value
    ):
        raise _bad(name, value, "a list of names (or a comma-separated string)")
    return tuple(value)


def _formats(settings: BaseSettings, name: str, default: Any) -> Any:
    """A list, or the command line's ``html,markdown``: :func:`_check_formats` reads both."""
    value = settings.get(name, default)
    return _list_value(settings, name, default) if isinstance(value, str) else value


def _text(settings: BaseSettings, name: str, default: Any) -> str:
    return str(settings.get(name, default) or "")


def _optional_text(settings: BaseSettings, name: str, default: Any) -> str | None:
    return _text(settings, name, default) or None


def _lower_text(settings: BaseSettings, name: str, default: Any) -> str:
    return str(settings.get(name, default)).lower()


def _languages(settings: BaseSettings, name: str, default: Any) -> list[str] | None:
    if settings.get(name, default) is None:
        return None
    return list(_names(settings, name, default)) or None


def _workers(settings: BaseSettings, name: str, default: Any) -> int | str:
    value = settings.get(name, default)
    return "auto" if str(value).strip().lower() == "auto" else _worker_count(value)


def _worker_count(value: Any) -> int:
    try:
        return resolve_workers(value)
    except ValueError:
        raise _bad("CX_WORKERS", value, "'auto' or a number >= 0") from None


def _setting(default: Any, read: Reader, doc: str) -> Any:
    """One row of the table: a field of :class:`CxSettings` with its reader and doc."""
    metadata = {"read": read, "doc": doc}
    if isinstance(default, (dict, list)):  # a fresh copy per instance
        return field(default_factory=lambda: copy.deepcopy(default), metadata=metadata)
    return field(default=default, metadata=metadata)


def setting_name(item: dataclasses.Field[Any]) -> str:
    """The setting a :class:`CxSettings` field reads: ``page_timeout`` -> ``CX_PAGE_TIMEOUT``."""
    return "CX_" + item.name.upper()


@dataclass(frozen=True)
class CxSettings:
    """The ``CX_*`` settings of one crawler (or of a bulk run), read and checked once."""

    enabled: bool = _setting(
        True, _bool, "Turn every scrapy-cx component off without removing it (NotConfigured)."
    )
    max_body_size: int = _setting(
        5 * 1024 * 1024,  # the same limit as `scrapy-cx extract --max-page-bytes`
        _int,
        "Bodies larger than this many bytes are not extracted (0: no limit).",
    )
    min_content_length: int = _setting(
        200, _int, "Fewer main-text characters than this and an item is not an article."
    )
    # The posts of a thread are content as much as an article's text; listings
    # and other pages are not.
    page_types: tuple[str, ...] = _setting(
        ("article", "thread"),
        _names,
        "Page types (Article.page_type) kept as articles; others are dropped as page_type_<type>.",
    )
    # 0 keeps every page of a kept type, as before the probability existed.
    min_article_probability: float = _setting(
        0.0,
        _float,
        "Items whose article_probability is lower are dropped as low_probability (0 to 1; "
        "0: none).",
    )
    drop_non_articles: bool = _setting(
        True, _bool, "Drop items that fail validation (no title, short text, bad date)."
    )
    require_published: bool = _setting(
        False, _bool, "Also drop articles without a publication date."
    )
    date_languages: list[str] | None = _setting(
        None, _languages, 'Languages for dateparser (e.g. ["en", "zh"]); None lets it detect.'
    )
    line_options: dict[str, Any] = _setting(
        {}, _options, "LineOptions fields passed to extract_article (block_size, line_cost, ...)."
    )
    # The order of FORMATS, so equal choices compare (and print) equal.
    formats: tuple[str, ...] = _setting(
        tuple(name for name in FORMATS if name in DEFAULT_FORMATS),
        _formats,
        "What extract_article makes beside the text: html, markdown, images (formats=).",
    )
    fill_items: bool = _setting(
        True, _bool, "Fill empty fields of items yielded by callbacks from the response's article."
    )
    html_field: str = _setting(
        "html", _text, "Item field holding raw HTML that the pipeline extracts from."
    )
    keep_html: bool = _setting(
        False, _bool, "Keep that raw HTML field on the item after extraction."
    )
    workers: int | str = _setting(
        "auto",
        _workers,
        'Extraction worker processes: "auto" (one per core but one, at least 2), a number, '
        "or 0 (in the reactor thread).",
    )
    page_timeout: float = _setting(
        5.0,
        _float,
        "Seconds a worker may spend on one page before it is replaced and the page passes "
        "on without an article (0: no deadline).",
    )
    worker_max_pages: int = _setting(
        500,
        _int,
        "Pages after which a worker process is replaced, bounding what it can leak (0: never).",
    )
    worker_warm_up: bool = _setting(
        True,
        _bool,
        "Build what every worker needs (dateparser's locales, about 3 s) once, before the "
        "first worker starts, rather than in each worker on its first undated story.",
    )
    redis_idle_close: float = _setting(
        30.0,
        _float,
        "Distributed crawls (distributed.IdleClose): seconds an idle process waits for the "
        "others to refill the shared queue before it closes (0: at once).",
    )
    redis_lease_timeout: float = _setting(
        600.0,
        _float,
        "Distributed crawls (leases.LeasedQueue): seconds a process may hold a request before "
        "another takes it; longer than a request may wait + download.",
    )
    redis_max_deliveries: int = _setting(
        3,
        _int,
        "Deliveries of one request before it is given up (a page that kills every crawler; "
        "0: no limit).",
    )
    redis_give_up: float = _setting(
        120.0,
        _float,
        "Distributed crawls: seconds Redis may stay unreachable or full (maxmemory) before "
        "each process stops its crawl (cx_redis_unavailable, exit status 1).",
    )
    redis_url: str | None = _setting(
        None, _optional_text, "Redis that holds state shared by every process of a crawl."
    )
    dedup: bool = _setting(
        False,
        _bool,
        "Find reposts: articles whose main text is a near duplicate of one seen before.",
    )
    dedup_mode: str = _setting(
        "drop", _lower_text, '"drop" reposts (DropItem) or "mark" them (duplicate_of).'
    )
    dedup_threshold: float = _setting(
        0.5,
        _float,
        "Share of equal fingerprint slots (estimated Jaccard) from which two texts are one story.",
    )
    max_article_pages: int = _setting(
        20,
        _int,
        "NewsSpider: pages of one article split over several that are read and merged "
        "(1: never follow an article's next page).",
    )
    item_schema: str = _setting(
        "cx",
        _lower_text,
        '"cx": items are ArticleItem; "zyte": scrapy_cx.zyte.CxArticle, a '
        "zyte_common_items.Article (needs the zyte extra).",
    )

    def __post_init__(self) -> None:
        """A wrong value fails the crawl (or bulk run) at its start, loudly, naming the setting."""
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            # nan passes every range check below (all comparisons are False) and as a
            # deadline meant none, with a busy loop; inf is no number of seconds either.
            if isinstance(value, float) and not math.isfinite(value):
                raise _bad(setting_name(item), value, "a finite number")
        if self.date_languages is not None:
            _check_languages(self.date_languages)
        _check_line_options(self.line_options)
        object.__setattr__(self, "formats", _check_formats(self.formats))
        for name in _AT_LEAST_ZERO:
            if getattr(self, name) < 0:
                raise _bad("CX_" + name.upper(), getattr(self, name), ">= 0")
        unknown_types = sorted(set(self.page_types) - set(PAGE_TYPES))
        if unknown_types:
            raise SettingError(
                f"CX_PAGE_TYPES: unknown {unknown_types} in {list(self.page_types)}; "
                f"known: {list(PAGE_TYPES)}"
            )
        if self.dedup_mode not in DEDUP_MODES:
            raise _bad("CX_DEDUP_MODE", self.dedup_mode, f"one of {DEDUP_MODES}")
        if not 0 <= self.min_article_probability <= 1:
            raise _bad("CX_MIN_ARTICLE_PROBABILITY", self.min_article_probability, "in [0, 1]")
        if not 0 < self.dedup_threshold <= 1:
            raise _bad("CX_DEDUP_THRESHOLD", self.dedup_threshold, "in (0, 1]")
        if self.workers != "auto":
            _worker_count(self.workers)
        if not self.redis_give_up > 0:
            raise _bad("CX_REDIS_GIVE_UP", self.redis_give_up, "> 0 seconds")
        if not self.redis_lease_timeout > 0:
            raise _bad("CX_REDIS_LEASE_TIMEOUT", self.redis_lease_timeout, "> 0 seconds")
        if self.max_article_pages < 1:
            raise _bad("CX_MAX_ARTICLE_PAGES", self.max_article_pages, ">= 1")
        _check_item_schema(self.item_schema)

    def rule(self) -> tuple[int, bool, tuple[str, ...], float]:
        """What the article rule (``verdict.invalid_reason``) reads, in its argument order:
        the one place the crawl, its workers, bulk extraction and explain take it from."""
        return (
            self.min_content_length,
            self.require_published,
            self.page_types,
            self.min_article_probability,
        )

    @property
    def worker_count(self) -> int:
        """``workers`` as a number of processes (``auto`` resolved on this machine)."""
        return resolve_workers(self.workers)

    def extract_kwargs(
        self, encoding: str | None = None, reference_time: datetime | None = None
    ) -> dict[str, Any]:
        """``extract_article``'s keyword arguments for one page.

        The one place they are assembled, so the crawl (middleware), the item
        pipeline and bulk extraction extract alike; ``encoding`` and
        ``reference_time`` are what the page's transport said, if anything.
        """
        return {
            "encoding": encoding,
            "reference_time": reference_time,
            "date_languages": self.date_languages,
            "formats": frozenset(self.formats),
            **self.line_options,
        }

    @classmethod
    def for_crawler(cls, crawler: Crawler) -> CxSettings:
        """The crawler's settings for a component's ``from_crawler``: NotConfigured if off."""
        from scrapy.exceptions import NotConfigured

        settings = cls.from_settings(crawler.settings)
        if not settings.enabled:
            raise NotConfigured("CX_ENABLED is False")
        return settings

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> CxSettings:
        """Read the ``CX_*`` settings, each by its field's reader; then they are checked."""
        values = {}
        for item in dataclasses.fields(cls):
            name = setting_name(item)
            values[item.name] = item.metadata["read"](settings, name, DEFAULTS[name])
        return cls(**values)


#: The number settings no value below 0 makes sense for.
_AT_LEAST_ZERO = (
    "max_body_size",
    "min_content_length",
    "page_timeout",
    "worker_max_pages",
    "redis_idle_close",
    "redis_max_deliveries",
)


def _scrapy_default(item: dataclasses.Field[Any]) -> Any:
    """A field's default as a Scrapy setting: Scrapy's lists (``getlist``, ``-s A,B``)
    for the tuples a frozen ``CxSettings`` keeps."""
    if item.default_factory is not dataclasses.MISSING:
        return item.default_factory()
    return list(item.default) if isinstance(item.default, tuple) else item.default


#: Every ``CX_*`` setting and its default, as the add-on writes them.
DEFAULTS: dict[str, Any] = {
    setting_name(item): _scrapy_default(item) for item in dataclasses.fields(CxSettings)
}


def _check_item_schema(schema: str) -> None:
    """A schema we know, and for ``zyte`` the package that defines it, installed."""
    if schema not in ITEM_SCHEMAS:
        raise _bad("CX_ITEM_SCHEMA", schema, f"one of {ITEM_SCHEMAS}")
    if schema == "zyte":
        from .zyte import INSTALL, installed

        if not installed():
            raise SettingError(f"CX_ITEM_SCHEMA = 'zyte' needs zyte-common-items: {INSTALL}")


def unknown_settings(names: Iterable[str]) -> list[tuple[str, str | None]]:
    """Each ``CX_*`` name in ``names`` that is no setting of :class:`CxSettings`, with
    the known setting nearest to it (or None): Scrapy takes any name, so a misspelled
    one (``CX_MIN_CONTENT_LENTGH``) would be ignored without a word. The known names
    are the table's own (:data:`DEFAULTS`), so a new setting is known the day it is added.
    """
    return [
        (name, next(iter(difflib.get_close_matches(name, DEFAULTS, n=1)), None))
        for name in sorted(names)
        if name.startswith("CX_") and name not in DEFAULTS
    ]


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
        raise SettingError(
            f"CX_DATE_LANGUAGES: unknown to dateparser: {unknown} in {languages}; "
            "known: dateparser's language codes (en, zh, fr, ...)"
        )


def _check_formats(value: Any) -> tuple[str, ...]:
    """``CX_FORMATS`` (names, or one string of them split at commas and spaces) as known
    names in ``FORMATS`` order, or one clear error."""
    if not isinstance(value, (str, list, tuple, set, frozenset)) or not all(
        isinstance(name, str) for name in value
    ):
        raise SettingError(
            f"CX_FORMATS must be a list of format names (or a comma-separated string), "
            f"not {value!r}; known: {', '.join(FORMATS)}"
        )
    try:
        chosen = check_formats(value)
    except ValueError as exc:
        raise SettingError(f"CX_FORMATS: {exc}") from None
    return tuple(name for name in FORMATS if name in chosen)


#: LineOptions' fields and their types: bool, int or float.
_LINE_OPTION_TYPES: dict[str, type] = {
    item.name: typing.get_type_hints(LineOptions)[item.name]
    for item in dataclasses.fields(LineOptions)
}
#: What each type of LineOptions field takes, for the error message. A bool is an
#: int to Python, but True as a block size is a mistake, so no number field takes one.
_ALLOWED: dict[type, tuple[tuple[type, ...], str]] = {
    bool: ((bool,), "True or False"),
    int: ((int,), "a whole number (an int, not a bool)"),
    float: ((int, float), "a number (a finite int or float, not a bool)"),
}


def _check_line_options(options: Mapping[str, Any]) -> None:
    """Fail at start-up on an option ``LineOptions`` lacks or a value of the wrong type:
    otherwise every page of the crawl would fail (or be cut wrong) in the extractor."""
    unknown = set(options) - set(_LINE_OPTION_TYPES)
    if unknown:
        raise SettingError(
            f"CX_LINE_OPTIONS: unknown option(s) {sorted(unknown)}; "
            f"known: {sorted(_LINE_OPTION_TYPES)}"
        )
    for name, value in sorted(options.items()):
        kind = _LINE_OPTION_TYPES[name]
        types, allowed = _ALLOWED.get(kind, ((kind,), f"a {kind.__name__}"))
        if (
            not isinstance(value, types)
            or (kind is not bool and isinstance(value, bool))
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise SettingError(
                f"CX_LINE_OPTIONS: {name}={value!r} is not allowed: {name} takes {allowed}"
            )
