"""Page objects for every URL, at the lowest priority: Zyte's items from our extraction.

``@handle_urls("", priority=PRIORITY)`` registers them in web-poet's default registry,
which scrapy-poet reads (the add-on lists this module in ``SCRAPY_POET_DISCOVER``). A
project's page object for a site, at web-poet's default priority (500), wins on its
URLs; ours answer everywhere else.
"""

from __future__ import annotations

import attrs
from web_poet import ItemPage, handle_urls
from zyte_common_items import Article, ArticleList, ArticleMetadata, ArticleNavigation

from ._convert import ArticleT, zyte_article, zyte_article_list, zyte_navigation
from ._items import CxArticle
from ._provider import Extraction
from ._teasers import Teasers

__all__ = [
    "PRIORITY",
    "CxArticleListPage",
    "CxArticleNavigationPage",
    "CxArticlePage",
    "CxFullArticlePage",
]

#: Below every other rule's (web-poet's default is 500): a site's own page object wins.
PRIORITY = 0


def _not_extracted(extraction: Extraction, cls: type[ArticleT]) -> ArticleT:
    """A page we have no article of (not HTML, an error status, a timeout) as ``cls``:
    its URL and probability 0, so ``DropLowProbabilityItemPipeline`` drops it."""
    return cls(url=extraction.url, metadata=ArticleMetadata(probability=0.0))


@handle_urls("", priority=PRIORITY)
@attrs.define
class CxArticlePage(ItemPage[Article]):
    """Zyte's ``Article`` of any page (a listing's has a low probability)."""

    extraction: Extraction

    async def to_item(self) -> Article:
        found = self.extraction
        if found.article is None:
            return _not_extracted(found, Article)
        return zyte_article(found.article, found.downloaded)


@handle_urls("", priority=PRIORITY)
@attrs.define
class CxFullArticlePage(ItemPage[CxArticle]):
    """:class:`CxArticle`: Zyte's ``Article`` and our other fields."""

    extraction: Extraction

    async def to_item(self) -> CxArticle:
        found = self.extraction
        if found.article is None:
            return _not_extracted(found, CxArticle)
        return zyte_article(found.article, found.downloaded, CxArticle)


@handle_urls("", priority=PRIORITY)
@attrs.define
class CxArticleListPage(ItemPage[ArticleList]):
    """Zyte's ``ArticleList``: a listing's teasers and their headlines."""

    extraction: Extraction
    teasers: Teasers

    async def to_item(self) -> ArticleList:
        found = self.extraction
        if found.article is None:
            return ArticleList(url=found.url)
        return zyte_article_list(found.article, found.downloaded, self.teasers.headlines)


@handle_urls("", priority=PRIORITY)
@attrs.define
class CxArticleNavigationPage(ItemPage[ArticleNavigation]):
    """Zyte's ``ArticleNavigation``: the teasers and the next page, as requests."""

    extraction: Extraction

    async def to_item(self) -> ArticleNavigation:
        found = self.extraction
        if found.article is None:
            return ArticleNavigation(url=found.url)
        return zyte_navigation(found.article, found.downloaded)
