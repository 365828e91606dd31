"""What the rest of scrapy-cx may ask of the zyte extra without importing it."""

from __future__ import annotations

import sys
from importlib.util import find_spec
from typing import Any

#: The module whose page objects scrapy-poet discovers (``SCRAPY_POET_DISCOVER``).
PAGES_MODULE = "scrapy_cx.zyte._pages"
#: The providers of our page objects' inputs (``SCRAPY_POET_PROVIDERS``), and their
#: orders, after scrapy-poet's own (100 to 1000).
PROVIDERS = {"scrapy_cx.zyte.ExtractionProvider": 1100, "scrapy_cx.zyte.TeasersProvider": 1110}
#: The order of :class:`~scrapy_cx.zyte.SchemaPipeline` in ``ITEM_PIPELINES``: after
#: DedupPipeline (150), which reads our fields; before a project's (300).
SCHEMA_ORDER = 190
#: What to install when the extra is missing.
INSTALL = (
    "pip install zyte-common-items scrapy-poet (in a checkout: pip install -e '.[zyte]')"
)


def installed() -> bool:
    """Whether zyte-common-items (the extra) can be imported."""
    return find_spec("zyte_common_items") is not None


def poet_installed() -> bool:
    """Whether scrapy-poet and zyte-common-items are both there: page objects can run."""
    return installed() and find_spec("scrapy_poet") is not None


def is_zyte_item(obj: Any) -> bool:
    """Whether ``obj`` is a zyte-common-items item (``Article``, ours or a project's
    subclass...): never imports the package, so a crawl without the extra pays nothing."""
    module = sys.modules.get("zyte_common_items")
    return module is not None and isinstance(obj, module.Item)


def info_drop(exception: BaseException) -> bool:
    """Whether ``exception`` is zyte-common-items' ``InfoDropItem`` (a drop it logs at
    INFO: ``DropLowProbabilityItemPipeline``'s), without importing the package."""
    module = sys.modules.get("zyte_common_items.log_formatters")
    return module is not None and isinstance(exception, module.InfoDropItem)


def not_downloaded(response: Any) -> bool:
    """Whether ``response`` is scrapy-poet's ``DummyResponse``: a page it did not
    download, as no input of the callback needed it (nothing to extract or count)."""
    module = sys.modules.get("scrapy_poet")
    return module is not None and isinstance(response, module.DummyResponse)
