"""scrapy_cx.zyte._addon: what the add-on arranges for scrapy-poet and Zyte's items."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from itemadapter import ItemAdapter
from scrapy.settings import Settings

zci = pytest.importorskip("zyte_common_items")
pytest.importorskip("scrapy_poet")

from scrapy_cx import Addon  # noqa: E402
from scrapy_cx.zyte import arrange_settings  # noqa: E402
from scrapy_cx.zyte._check import PAGES_MODULE, PROVIDERS  # noqa: E402

PROVIDER = "scrapy_cx.zyte.ExtractionProvider"


@pytest.fixture
def adapters() -> Iterator[None]:
    """ItemAdapter's classes as they were: the add-on changes them for the process."""
    before = ItemAdapter.ADAPTER_CLASSES
    yield
    ItemAdapter.ADAPTER_CLASSES = before


def with_addons(project: dict[str, object]) -> Settings:
    settings = Settings({**project, "ADDONS": {"scrapy_poet.Addon": 300, Addon: 500}})
    settings.setdict(project, priority="project")
    from scrapy.addons import AddonManager
    from scrapy.utils.test import get_crawler

    AddonManager(get_crawler()).load_settings(settings)
    return settings


def test_the_two_addons_are_all_a_project_writes(adapters: None) -> None:
    settings = with_addons({})
    assert settings.getlist("SCRAPY_POET_DISCOVER") == [PAGES_MODULE]
    assert settings.getdict("SCRAPY_POET_PROVIDERS") == PROVIDERS
    assert PROVIDER in PROVIDERS
    assert ItemAdapter.ADAPTER_CLASSES[0] is zci.ZyteItemAdapter  # empty fields left out


def test_the_projects_own_discovery_and_providers_stay(adapters: None) -> None:
    settings = with_addons(
        {
            "SCRAPY_POET_DISCOVER": ["myproject.pages"],
            "SCRAPY_POET_PROVIDERS": {"myproject.Provider": 500},
        }
    )
    assert settings.getlist("SCRAPY_POET_DISCOVER") == ["myproject.pages", PAGES_MODULE]
    assert settings.getdict("SCRAPY_POET_PROVIDERS") == {"myproject.Provider": 500, **PROVIDERS}


def test_a_project_may_switch_our_provider_off() -> None:
    settings = Settings({"SCRAPY_POET_PROVIDERS": {PROVIDER: None}})
    arrange_settings(settings, "cx")
    assert settings.getdict("SCRAPY_POET_PROVIDERS")[PROVIDER] is None


def test_without_scrapy_poet_zytes_adapter_only_for_the_zyte_schema(adapters: None) -> None:
    ItemAdapter.ADAPTER_CLASSES = type(ItemAdapter.ADAPTER_CLASSES)(
        c for c in ItemAdapter.ADAPTER_CLASSES if c is not zci.ZyteItemAdapter
    )
    arrange_settings(Settings(), "cx")
    assert zci.ZyteItemAdapter not in ItemAdapter.ADAPTER_CLASSES
    arrange_settings(Settings(), "zyte")
    assert ItemAdapter.ADAPTER_CLASSES[0] is zci.ZyteItemAdapter
