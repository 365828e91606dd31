"""CX_* settings: defaults, command-line strings, loud failures, and the README table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scrapy.settings import Settings

from scrapy_cx.settings import DEFAULTS, CxSettings

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")

README = Path(__file__).resolve().parents[1] / "README.rst"


def test_defaults_when_nothing_is_set() -> None:
    cx = CxSettings.from_settings(Settings())
    assert cx == CxSettings()
    assert cx.enabled is True
    assert cx.max_body_size == DEFAULTS["CX_MAX_BODY_SIZE"]
    assert cx.min_content_length == DEFAULTS["CX_MIN_CONTENT_LENGTH"]
    assert cx.drop_non_articles is True
    assert cx.date_languages is None
    assert cx.line_options == {}
    assert cx.html_field == "html"
    assert cx.keep_html is False


def test_command_line_strings_are_parsed() -> None:
    # What `scrapy crawl -s NAME=VALUE` stores: strings, at cmdline priority.
    settings = Settings(
        {
            "CX_ENABLED": "False",
            "CX_MAX_BODY_SIZE": "1000",
            "CX_MIN_CONTENT_LENGTH": "50",
            "CX_DROP_NON_ARTICLES": "0",
            "CX_REQUIRE_PUBLISHED": "true",
            "CX_DATE_LANGUAGES": "en,zh",
            "CX_LINE_OPTIONS": '{"block_size": 4, "line_cost": 25}',
            "CX_FILL_ITEMS": "false",
            "CX_HTML_FIELD": "body",
            "CX_KEEP_HTML": "1",
        },
        priority="cmdline",
    )
    cx = CxSettings.from_settings(settings)
    assert cx == CxSettings(
        enabled=False,
        max_body_size=1000,
        min_content_length=50,
        drop_non_articles=False,
        require_published=True,
        date_languages=["en", "zh"],
        line_options={"block_size": 4, "line_cost": 25},
        fill_items=False,
        html_field="body",
        keep_html=True,
    )


def test_python_values_are_taken_as_they_are() -> None:
    cx = CxSettings.from_settings(
        Settings({"CX_DATE_LANGUAGES": ["zh"], "CX_LINE_OPTIONS": {"max_link_density": 0.3}})
    )
    assert cx.date_languages == ["zh"]
    assert cx.line_options == {"max_link_density": 0.3}


def test_unknown_line_option_fails_at_start_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"blocksize.*block_size"):
        CxSettings.from_settings(Settings({"CX_LINE_OPTIONS": {"blocksize": 4}}))


@pytest.mark.parametrize("value", ["4", None, True, [3]])
def test_non_numeric_line_option_fails_at_start(value: object) -> None:
    with pytest.raises(ValueError, match=r"\['block_size'\] must be numbers"):
        CxSettings.from_settings(Settings({"CX_LINE_OPTIONS": {"block_size": value}}))


def test_unknown_date_language_fails_at_start() -> None:
    # The core reads dateparser errors as "no date": a typo would lose every date.
    with pytest.raises(ValueError, match="'english'"):
        CxSettings.from_settings(Settings({"CX_DATE_LANGUAGES": ["en", "english"]}))


@pytest.mark.parametrize(
    "name", ["CX_MAX_BODY_SIZE", "CX_MIN_CONTENT_LENGTH", "CX_PAGE_TIMEOUT", "CX_WORKER_MAX_PAGES"]
)
def test_negative_sizes_fail_at_start(name: str) -> None:
    with pytest.raises(ValueError, match=">= 0"):
        CxSettings.from_settings(Settings({name: -1}))


@pytest.mark.parametrize(("value", "workers"), [("auto", "auto"), ("AUTO", "auto"), ("0", 0),
                                               ("3", 3), (2, 2)])
def test_workers_are_auto_or_a_count(value: object, workers: object) -> None:
    cx = CxSettings.from_settings(Settings({"CX_WORKERS": value}))
    assert cx.workers == workers
    assert cx.worker_count >= (1 if workers == "auto" else workers)  # type: ignore[operator]


@pytest.mark.parametrize("value", ["-1", "many", -2, True, 1.5])
def test_bad_workers_fail_at_start(value: object) -> None:
    with pytest.raises(ValueError, match="'auto' or a number"):
        CxSettings.from_settings(Settings({"CX_WORKERS": value}))


def _readme_table() -> dict[str, str]:
    """``CX_NAME -> default`` from the settings table in README.rst."""
    row = re.compile(r"^\s*\* - ``(CX_[A-Z_]+)``\n\s*- ``([^`]*)``", re.M)
    return dict(row.findall(README.read_text("utf-8")))


def test_readme_table_documents_every_setting_with_its_default() -> None:
    table = _readme_table()
    assert sorted(table) == sorted(DEFAULTS)
    for name, default in DEFAULTS.items():
        assert table[name] == repr(default), name
