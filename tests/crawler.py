"""Real, unstarted Scrapy crawlers for in-process tests, on every supported Scrapy.

Scrapy 2.13 to 2.18's ``get_crawler`` refuses to run without an installed
reactor (2.11 and 2.19 do not care), so the first call installs the asyncio
reactor, the one Scrapy's project template uses; nothing here starts it.
"""

from __future__ import annotations

import sys
from typing import Any

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.utils.reactor import install_reactor
from scrapy.utils.test import get_crawler

ASYNCIO_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"


def make_crawler(
    spidercls: type[Spider] = Spider, settings: dict[str, Any] | None = None
) -> Crawler:
    """``get_crawler(spidercls, settings)``: settings at project priority, add-ons applied."""
    if "twisted.internet.reactor" not in sys.modules:
        install_reactor(ASYNCIO_REACTOR)
    return get_crawler(spidercls, settings)
