"""Item pipeline: extract from raw HTML items carry, then keep only real articles.

Two ways in: items the spider middleware already completed, and items that
carry the page's raw HTML in a field (``CX_HTML_FIELD``, default ``html``):
spiders that store pages, re-process a dump, or receive HTML from elsewhere.
Items whose class has no ``content`` field are not articles of ours and pass
through untouched, so a project can yield other item types alongside.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import Item, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.logformatter import LogFormatter
from scrapy.utils.defer import maybe_deferred_to_future

from .article import Article, as_fields
from .extract import extract_article
from .items import ArticleItem, can_hold, fill_item
from .middleware import crawl_pool, pool_failure
from .pool import PoolError, call_prepared, prepare_call
from .settings import CxSettings
from .stats import CxStats
from .verdict import JUDGED_FIELDS, SkipNotes, drop_log_level, invalid_reason, is_empty
from .zyte import info_drop, is_zyte_item

if TYPE_CHECKING:  # (Scrapy 2.13+ names it; 2.11 returns the same plain dict)
    from scrapy.logformatter import LogFormatterResult

__all__ = ["ArticlePipeline", "DropLogFormatter"]

logger = logging.getLogger(__name__)

#: Scrapy's own priority for this pipeline (the add-on uses it): before the
#: project's pipelines (300 in the project template), so they get complete
#: items and never see what is dropped.
ORDER = 100


#: Characters of a dropped article's title its log line shows.
TITLE_SHOWN = 120
#: An article item's URL, title and text fields (a Zyte item's: url, headline, articleBody).
_NAMES = ("url", "title", "content")


class DropLogFormatter(LogFormatter):
    """Scrapy's log formatter, but a dropped article is one short line, not the item.

    Scrapy logs every dropped item whole: an article with 177 KB of text is a
    177 KB log line. An item with a ``content`` field set (an article, ours or a
    project's, or a Zyte ``Article``: ``headline``, ``articleBody``) is logged as the
    drop's reason, its URL, title and content length instead, at INFO for
    zyte-common-items' ``InfoDropItem``; any other item as Scrapy logs it. The add-on sets it as
    ``LOG_FORMATTER`` unless the project set its own.
    """

    def dropped(
        self, item: Any, exception: BaseException, response: Any, spider: Spider
    ) -> LogFormatterResult:
        result = super().dropped(item, exception, response, spider)
        if info_drop(exception):  # DropLowProbabilityItemPipeline's, as Zyte's formatter does
            result["level"] = logging.INFO
        adapter = ItemAdapter(item) if ItemAdapter.is_item(item) else None
        names = ("url", "headline", "articleBody") if is_zyte_item(item) else _NAMES
        if adapter is None or names[2] not in adapter:
            return result
        url, title, content = (adapter.get(name) for name in names)
        reason = str(exception)
        if isinstance(url, str) and url and url not in reason:
            reason = f"{reason}: {url}"
        title = title if isinstance(title, str) else ""
        if len(title) > TITLE_SHOWN:
            title = title[: TITLE_SHOWN - 3] + "..."
        length = len(content) if isinstance(content, str) else 0
        result["msg"] = "Dropped: %(reason)s (title %(title)r, content %(length)d characters)"
        result["args"] = {"reason": reason, "title": title, "length": length}
        return result


def _unjudged_data(adapter: ItemAdapter) -> bool:
    """An item of the spider's own: no content, no page type (the extractor never
    judged a page for it), and data besides its URL (a link item: URL and title).

    A bare ``{"url": ...}`` asks for its page's article: without one it is dropped.
    """
    if not can_hold(adapter, "page_type") or not is_empty(adapter.get("page_type")):
        return False
    if not is_empty(adapter.get("content")):
        return False
    return any(not is_empty(value) for name, value in adapter.items() if name != "url")


class ArticlePipeline:
    """Complete items from raw HTML, validate, drop non-articles, count."""

    #: The extractor, ``extract_article``'s signature; a subclass may plug in another.
    extract: Callable[..., Article] = staticmethod(extract_article)

    def __init__(self, crawler: Crawler, settings: CxSettings) -> None:
        self.crawler = crawler
        self.settings = settings
        self.stats = CxStats(crawler)
        self.notes = SkipNotes.of(crawler)
        self.drop_log_level = drop_log_level(crawler)
        self._call: bytes | None = None  # the extraction every raw HTML item shares, pickled

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArticlePipeline:
        return cls(crawler, CxSettings.for_crawler(crawler))

    def process_item(
        self, item: Any, spider: Spider | None = None
    ) -> Any | Coroutine[Any, Any, Any]:
        if isinstance(item, Article):  # frozen: make it an item later stages can edit
            item = ArticleItem.from_article(item)
        if not ItemAdapter.is_item(item):
            return item
        adapter = ItemAdapter(item)
        if not can_hold(adapter, "content"):
            return item
        # Why its page was not extracted, if it was not; or the article it was filled
        # from, with the verdict the worker made on it.
        note = self.notes.take_note(item)
        extracted, html = self._take_html(adapter)
        if html is not None and self.settings.worker_count:
            # A coroutine, not a Deferred (Scrapy 2.14+ deprecates those): the item goes
            # on when its article is back from the crawl's workers, within their deadline.
            return self._judge_later(item, adapter, note, html)
        if html is not None:
            self._extract_here(adapter, html)
        return self._judge(item, adapter, note, extracted)

    async def _judge_later(
        self, item: Any, adapter: ItemAdapter, note: Any, html: str | bytes
    ) -> Any:
        reason = await self._extract_in_pool(adapter, html)
        if reason is not None and note is None:
            note = (reason, None)  # dropped for why it was not extracted, not "no content"
        return self._judge(item, adapter, note, True)

    def _judge(self, item: Any, adapter: ItemAdapter, note: Any, extracted: bool) -> Any:
        """``item`` as it goes on, or DropItem if it is no article."""
        skipped = note[0] if note is not None and note[1] is None else None
        if not extracted and skipped is None and _unjudged_data(adapter):
            return item  # a spider's own item (a link from an index page), not a page of ours
        if note is not None and note[1] is not None and not extracted:
            reason = self._verdict(adapter, note[1], note[0])
        else:
            reason = self._invalid_reason(adapter)
        what = "not an article"
        if reason == "no_content" and skipped is not None:
            # Never judged by the extractor: say why (too_large, not_html...), not "no content".
            reason, what = skipped, "page not extracted"
        if reason is None:
            self.stats.article()
        elif self.settings.drop_non_articles:
            self.stats.dropped(reason)
            drop = DropItem(f"scrapy-cx: {what} ({reason}): {adapter.get('url')}")
            drop.log_level = self.drop_log_level  # newer Scrapy reads it; older logs WARNING
            raise drop
        return item

    def _invalid_reason(self, adapter: ItemAdapter) -> str | None:
        return invalid_reason(adapter, *self.settings.rule())

    def _verdict(self, adapter: ItemAdapter, article: Article, verdict: str | None) -> str | None:
        """The worker's verdict on ``article`` if the fields it judged are still the
        article's own objects in the item (no spider or pipeline changed them), else the
        rule applied to the item."""
        for name in JUDGED_FIELDS:
            if adapter.get(name) is not getattr(article, name):
                return self._invalid_reason(adapter)
        return verdict

    def _take_html(self, adapter: ItemAdapter) -> tuple[bool, str | bytes | None]:
        """Whether the item has a raw HTML field, and the HTML to extract from it (None if
        empty); the field is emptied unless ``keep_html``."""
        name = self.settings.html_field
        if not name or name not in adapter:
            return False, None
        html = adapter.get(name)
        if not self.settings.keep_html:
            if isinstance(adapter.item, (dict, Item)):
                del adapter[name]
            else:  # a dataclass or attrs field must stay (exporters read every field)
                adapter[name] = None
        return True, html if isinstance(html, (str, bytes)) and html else None

    def _extract_here(self, adapter: ItemAdapter, html: str | bytes) -> None:
        """Fill the item from ``html`` in this thread (``CX_WORKERS = 0``)."""
        url = _url(adapter)
        try:
            article = self.extract(html, url, **self.settings.extract_kwargs())
        except Exception:
            logger.exception("scrapy-cx: extraction failed for %s", url)
            self.stats.error()
        else:
            self._fill(adapter, article, url)

    async def _extract_in_pool(self, adapter: ItemAdapter, html: str | bytes) -> str | None:
        """Fill the item from ``html`` in the crawl's workers (the middleware's pool and
        deadline); why not, if not (``timeout``, ``worker_died``, ``error``)."""
        url = _url(adapter)
        if self._call is None:
            fixed = self.settings.extract_kwargs()
            self._call = prepare_call(self.extract, fixed, shape=as_fields)
        pool = crawl_pool(self.crawler, self.settings)
        try:
            value, _ = await maybe_deferred_to_future(
                pool.submit(call_prepared, self._call, html, url)
            )
        except PoolError as error:
            reason = pool_failure(error, url)
            if reason == "error":
                self.stats.error()
                return None
            self.stats.skipped(reason)
            return reason
        article = Article.from_dict(value) if type(value) is dict else value
        self._fill(adapter, article, url)
        return None

    def _fill(self, adapter: ItemAdapter, article: Article, url: str | None) -> None:
        self.stats.page(article, url)
        fill_item(adapter.item, article)


def _url(adapter: ItemAdapter) -> str | None:
    url = adapter.get("url") or None
    return url if isinstance(url, str) else None
