"""The Scrapy add-on: ``ADDONS = {"scrapy_cx.Addon": 500}`` enables everything.

It adds the three components at their orders (and ``DedupPipeline`` when
``CX_DEDUP`` is True) unless the project already lists
them (at any order, or as ``None`` to switch one off), and writes every
``CX_*`` default with the ``addon`` priority, below project, spider and
command-line settings, so any of them can be overridden as usual.

It also bounds what one response may cost: Scrapy's own ``DOWNLOAD_MAXSIZE``
is 1 GiB, so a 2 MB gzip bomb could take 1 GiB of memory. Unless the project
sets them, ``DOWNLOAD_MAXSIZE`` becomes :data:`MAXSIZE_FACTOR` times
``CX_MAX_BODY_SIZE`` (20 MiB by default: room for compressed sitemaps and other
non-HTML bodies a spider may want) and ``DOWNLOAD_WARNSIZE`` becomes
``CX_MAX_BODY_SIZE`` (a larger page is not extracted anyway).

And a CSV feed export writes nested fields (``related``, ``posts``,
``authors``...) as JSON (:class:`~scrapy_cx.items.JsonCellCsvItemExporter`)
unless the project chose its own ``csv`` exporter (every other format keeps
Scrapy's exporter), and a dropped article is
logged as one short line (:class:`~scrapy_cx.pipeline.DropLogFormatter`)
unless the project set its own ``LOG_FORMATTER``.
"""

from __future__ import annotations

import copy
import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.settings import BaseSettings
from scrapy.utils.misc import load_object

from . import middleware, pipeline, sizeguard, spidermw
from .dedup import pipeline as dedup_pipeline
from .settings import DEFAULTS, CxSettings, SettingError, unknown_settings
from .zyte import SCHEMA_ORDER, arrange_settings

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = [
    "COMPONENTS",
    "CSV_EXPORTER",
    "LOG_FORMATTER",
    "MAXSIZE_FACTOR",
    "Addon",
    "StartupSettingError",
]

logger = logging.getLogger(__name__)

#: DOWNLOAD_MAXSIZE = this times CX_MAX_BODY_SIZE, where the project sets neither.
MAXSIZE_FACTOR = 4

#: The exporter of the ``csv`` feed format, where the project names none.
CSV_EXPORTER = "scrapy_cx.items.JsonCellCsvItemExporter"

#: Logs a dropped article as its URL, reason, title and length, not whole.
LOG_FORMATTER = "scrapy_cx.pipeline.DropLogFormatter"

#: (setting, import path, order) of every component the add-on enables.
COMPONENTS: tuple[tuple[str, str, int], ...] = (
    ("DOWNLOADER_MIDDLEWARES", "scrapy_cx.ArticleMiddleware", middleware.ORDER),
    ("DOWNLOADER_MIDDLEWARES", "scrapy_cx.sizeguard.SizeGuardMiddleware", sizeguard.ORDER),
    ("SPIDER_MIDDLEWARES", "scrapy_cx.ArticleSpiderMiddleware", spidermw.ORDER),
    ("ITEM_PIPELINES", "scrapy_cx.ArticlePipeline", pipeline.ORDER),
)
#: Added only when ``CX_DEDUP`` is True (as a project, spider or ``-s`` setting).
DEDUP_COMPONENT = ("ITEM_PIPELINES", "scrapy_cx.DedupPipeline", dedup_pipeline.ORDER)
#: Added only when ``CX_ITEM_SCHEMA`` is "zyte": after DedupPipeline, which reads our fields.
SCHEMA_COMPONENT = ("ITEM_PIPELINES", "scrapy_cx.zyte.SchemaPipeline", SCHEMA_ORDER)


def _listed(components: Any, cls: type) -> bool:
    """Whether ``cls`` is a key of a component dict, as a class or any import path."""
    for key in components:
        try:
            if load_object(key) is cls:
                return True
        except (ImportError, NameError, AttributeError, ValueError):
            continue  # a broken entry is Scrapy's to report, not ours
    return False


class StartupSettingError(SettingError, SystemExit):
    """A bad ``CX_*`` setting found before any crawler exists: a :class:`SettingError`
    (``except SettingError`` or ``except Exception`` catches it), and a ``SystemExit``
    whose ``code`` is its one line, so a process that does not catch it ends with that
    line and exit status 1, no traceback.

    Scrapy's command line builds its crawler process, where add-ons check early
    settings, outside any handler: a plain exception there would end ``scrapy crawl``
    in a traceback. A script gets the same exception and may catch it.
    """

    def __init__(self, error: SettingError) -> None:
        super().__init__(str(error))
        self.code = f"scrapy-cx: {error}"


class Addon:
    """Enable scrapy-cx in a project with one line."""

    def __init__(self, crawler: Crawler | None = None) -> None:
        self._crawler = crawler
        self._unknown = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Addon:
        return cls(crawler)

    @classmethod
    def update_pre_crawler_settings(cls, settings: BaseSettings) -> None:
        """Check the ``CX_*`` settings before any crawler or reactor exists.

        A wrong value found later (a component's ``from_crawler``) surfaces at the
        end of a long traceback, after the reactor started. Found here it raises
        :class:`StartupSettingError`, whoever the caller: ``scrapy crawl`` ends with
        one line naming the setting, its value and what is allowed (exit status 1),
        and a script creating a ``CrawlerProcess`` can catch it as a
        :class:`SettingError`. Spider ``custom_settings`` are not known yet:
        components still check them.
        """
        try:
            CxSettings.from_settings(settings)
        except SettingError as exc:
            raise StartupSettingError(exc) from None

    def update_settings(self, settings: BaseSettings) -> None:
        self._warn_unknown(settings)
        for name, value in DEFAULTS.items():
            settings.set(name, copy.deepcopy(value), "addon")
        components_wanted = COMPONENTS
        if settings.getbool("CX_DEDUP"):
            components_wanted += (DEDUP_COMPONENT,)
        if str(settings.get("CX_ITEM_SCHEMA")).lower() == "zyte":
            components_wanted += (SCHEMA_COMPONENT,)
        for setting, path, order in components_wanted:
            components = settings[setting]
            if _listed(components, load_object(path)):
                continue
            if isinstance(components, BaseSettings):
                components.set(path, order, "addon")
            else:
                components[path] = order
        self._bound_downloads(settings)
        self._exporters(settings)
        # scrapy-poet's discovery of our page objects, where scrapy-poet is installed.
        arrange_settings(settings, str(settings.get("CX_ITEM_SCHEMA")).lower())
        # "addon" priority: a project's (or spider's, or command line's) own formatter stands.
        settings.set("LOG_FORMATTER", LOG_FORMATTER, "addon")

    def _warn_unknown(self, settings: BaseSettings) -> None:
        """Name each ``CX_*`` setting that scrapy-cx does not read, once per crawler,
        with the nearest known one (a typo), and count them (``cx/unknown_settings``).

        Here, not in :meth:`update_pre_crawler_settings`: a spider's
        ``custom_settings`` are known by now, and Scrapy's logging is set up.
        """
        unknown = unknown_settings(name for name in settings if isinstance(name, str))
        for name, nearest in unknown:
            hint = f"did you mean {nearest}?" if nearest else "not a scrapy-cx setting"
            logger.warning("scrapy-cx: unknown setting %s (ignored): %s", name, hint)
        self._unknown = len(unknown)
        if unknown and self._crawler is not None:  # stats exist only once the spider opens
            self._crawler.signals.connect(self._count_unknown, signal=signals.spider_opened)

    def _count_unknown(self) -> None:
        if self._crawler is not None and self._crawler.stats is not None:
            self._crawler.stats.set_value("cx/unknown_settings", self._unknown)

    @staticmethod
    def _bound_downloads(settings: BaseSettings) -> None:
        """Tie Scrapy's download limits to ``CX_MAX_BODY_SIZE`` where nobody chose them."""
        body = settings.getint("CX_MAX_BODY_SIZE")
        if body <= 0:
            return  # no body limit asked for: Scrapy's defaults stand
        # "addon" priority: replaces Scrapy's defaults, never a value a project,
        # spider or command line set.
        settings.set("DOWNLOAD_MAXSIZE", MAXSIZE_FACTOR * body, "addon")
        settings.set("DOWNLOAD_WARNSIZE", body, "addon")

    @staticmethod
    def _exporters(settings: BaseSettings) -> None:
        """Nested fields as JSON in CSV exports; other formats keep Scrapy's exporters."""
        exporters = settings["FEED_EXPORTERS"]
        if isinstance(exporters, BaseSettings):
            # "addon" priority: a project's own entry (any priority above) stands.
            exporters.set("csv", CSV_EXPORTER, "addon")
        elif "csv" not in exporters:
            exporters["csv"] = CSV_EXPORTER
