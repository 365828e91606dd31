"""What ``scrapy_cx.Addon`` arranges for Zyte's schema: scrapy-poet finds our page
objects and their provider, and Zyte's items export as Zyte exports them."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ._check import PAGES_MODULE, PROVIDERS, installed, poet_installed

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["arrange_settings"]

#: scrapy-poet's downloader middleware: listed means page objects are asked for.
INJECTION = "scrapy_poet.InjectionMiddleware"


def arrange_settings(settings: BaseSettings, schema: str) -> None:
    """With scrapy-poet and zyte-common-items installed, list our page objects
    (``SCRAPY_POET_DISCOVER``) and providers (``SCRAPY_POET_PROVIDERS``) beside any the
    project lists; with page objects or ``CX_ITEM_SCHEMA = "zyte"``, export Zyte's
    items without their empty fields, as ``zyte_common_items.Addon`` does."""
    poet = poet_installed()
    if poet:
        _add_to_list(settings, "SCRAPY_POET_DISCOVER", PAGES_MODULE)
        for provider, order in PROVIDERS.items():
            _add_to_dict(settings, "SCRAPY_POET_PROVIDERS", provider, order)
    if installed() and (schema == "zyte" or (poet and _poet_enabled(settings))):
        _zyte_adapter_first()


def _add_to_list(settings: BaseSettings, name: str, value: str) -> None:
    listed = settings.getlist(name)
    if value not in listed:
        priority = max(settings.getpriority(name) or 0, _addon_priority())
        settings.set(name, [*listed, value], priority)


def _add_to_dict(settings: BaseSettings, name: str, key: str, value: Any) -> None:
    from scrapy.settings import BaseSettings

    current = settings.get(name)
    if current is None:
        settings.set(name, {key: value}, "addon")
    elif isinstance(current, BaseSettings):
        current.set(key, value, "addon")  # a project's own entry (above "addon") stands
    elif isinstance(current, dict) and key not in current:
        current[key] = value


def _poet_enabled(settings: BaseSettings) -> bool:
    from scrapy.utils.misc import load_object

    injection = load_object(INJECTION)
    for key in settings.getdict("DOWNLOADER_MIDDLEWARES"):
        try:
            if key is injection or load_object(key) is injection:
                return True
        except (ImportError, NameError, AttributeError, ValueError):
            continue
    return False


def _zyte_adapter_first() -> None:
    """Zyte's item adapter ahead of itemadapter's (once per process: the same class for
    every crawl, as zyte-common-items' own add-on does it)."""
    from itemadapter import ItemAdapter
    from zyte_common_items import ZyteItemAdapter, ZyteItemKeepEmptyAdapter

    classes = ItemAdapter.ADAPTER_CLASSES
    if not any(issubclass(cls, (ZyteItemAdapter, ZyteItemKeepEmptyAdapter)) for cls in classes):
        ItemAdapter.ADAPTER_CLASSES = deque([ZyteItemAdapter, *classes])


def _addon_priority() -> int:
    from scrapy.settings import SETTINGS_PRIORITIES

    return SETTINGS_PRIORITIES["addon"]
