"""CX_* settings: defaults, command-line strings, loud failures, and the README table."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.settings import Settings

from scrapy_cx.article import DEFAULT_FORMATS, FORMATS
from scrapy_cx.settings import DEFAULTS, CxSettings, SettingError, setting_name

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
    with pytest.raises(ValueError, match=r"CX_LINE_OPTIONS: block_size=.* takes a whole number"):
        CxSettings.from_settings(Settings({"CX_LINE_OPTIONS": {"block_size": value}}))


@pytest.mark.parametrize(
    "options",
    [
        {"headline_cut": False},  # a bool field of LineOptions
        '{"headline_cut": false, "block_size": 4}',  # the same from the command line (JSON)
        # A whole number where a float is wanted is a number all the same.
        {"headline_cut": True, "max_link_density": 1, "card_share": 0.0, "line_cost": 0},
    ],
)
def test_line_options_of_their_field_types_are_accepted(options: object) -> None:
    cx = CxSettings.from_settings(Settings({"CX_LINE_OPTIONS": options}))
    assert cx.line_options and cx.line_options == Settings({"X": options}).getdict("X")


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("block_size", 2.5, "a whole number"),  # an int field: every page would fail
        ("line_cost", True, "a whole number"),  # a bool is not a count
        ("max_link_density", False, "a number"),
        ("max_link_density", "0.3", "a number"),
        ("max_link_density", float("nan"), "a number .a finite"),  # every comparison False
        ("card_share", float("inf"), "a number .a finite"),
        ("headline_cut", 0, "True or False"),
        ("headline_cut", "false", "True or False"),
    ],
)
def test_line_options_of_another_type_fail_at_start_naming_what_is_allowed(
    option: str, value: object, allowed: str
) -> None:
    expected = rf"CX_LINE_OPTIONS: {option}={re.escape(repr(value))} .*{option} takes {allowed}"
    with pytest.raises(ValueError, match=expected):
        CxSettings.from_settings(Settings({"CX_LINE_OPTIONS": {option: value}}))
    with pytest.raises(ValueError, match=expected):  # however the settings are made
        CxSettings(line_options={option: value})


@pytest.mark.parametrize(
    "name",
    [
        "CX_PAGE_TIMEOUT",
        "CX_DEDUP_THRESHOLD",
        "CX_MIN_ARTICLE_PROBABILITY",
        "CX_REDIS_IDLE_CLOSE",
        "CX_REDIS_LEASE_TIMEOUT",
    ],
)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", float("nan")])
def test_a_number_that_is_not_finite_fails_at_start(name: str, value: object) -> None:
    """nan passes every range check (each comparison is False): as CX_PAGE_TIMEOUT it
    meant no deadline and a worker-waiting loop at full CPU."""
    with pytest.raises(ValueError, match=rf"{name} must be"):
        CxSettings.from_settings(Settings({name: value}))


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


def test_readme_table_documents_every_field_of_the_table() -> None:
    table = _readme_table()
    names = [setting_name(item) for item in dataclasses.fields(CxSettings)]
    assert names == list(DEFAULTS) == list(table)  # one table, in one order
    for item in dataclasses.fields(CxSettings):
        doc = item.metadata["doc"]
        assert doc and "\n" not in doc, item.name


def test_defaults_are_derived_from_the_table() -> None:
    cx = CxSettings()
    for item in dataclasses.fields(CxSettings):
        value = getattr(cx, item.name)
        scrapy_value = list(value) if isinstance(value, tuple) else value
        assert DEFAULTS[setting_name(item)] == scrapy_value, item.name
    assert (cx.redis_idle_close, cx.redis_lease_timeout, cx.redis_max_deliveries) == (30.0, 600, 3)
    assert CxSettings().line_options is not cx.line_options  # no default shared between two


def test_redis_settings_are_read_and_checked_once() -> None:
    settings = Settings(
        {
            "CX_REDIS_IDLE_CLOSE": "5",
            "CX_REDIS_LEASE_TIMEOUT": "0.5",
            "CX_REDIS_MAX_DELIVERIES": "0",
            "CX_REDIS_URL": "redis://127.0.0.1:6379/1",
        },
        priority="cmdline",
    )
    cx = CxSettings.from_settings(settings)
    assert cx.redis_idle_close == 5.0
    assert cx.redis_lease_timeout == 0.5
    assert cx.redis_max_deliveries == 0
    assert cx.redis_url == "redis://127.0.0.1:6379/1"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CX_REDIS_IDLE_CLOSE", -1, ">= 0"),
        ("CX_REDIS_MAX_DELIVERIES", -1, ">= 0"),
        ("CX_REDIS_LEASE_TIMEOUT", 0, "> 0"),
        ("CX_REDIS_LEASE_TIMEOUT", -5, "> 0"),
    ],
)
def test_bad_redis_settings_fail_at_start(name: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=f"{name}.*{message}"):
        CxSettings.from_settings(Settings({name: value}))


def test_extract_kwargs_are_the_settings_and_what_the_page_said() -> None:
    cx = CxSettings(date_languages=["en"], line_options={"block_size": 4, "headline_cut": False})
    assert cx.extract_kwargs("utf-8") == {
        "encoding": "utf-8",
        "reference_time": None,
        "date_languages": ["en"],
        "formats": frozenset({"html", "images"}),
        "block_size": 4,
        "headline_cut": False,
    }
    assert CxSettings(formats=[]).extract_kwargs() == {
        "encoding": None, "reference_time": None, "date_languages": None, "formats": frozenset()
    }
    assert CxSettings().extract_kwargs()["formats"] == DEFAULT_FORMATS


@pytest.mark.parametrize(
    ("value", "formats"),
    [
        ("html,markdown,images", ("html", "markdown", "images")),  # `-s CX_FORMATS=...`
        ("markdown, html", ("html", "markdown")),
        (["images", "html", "html"], ("html", "images")),  # one order, each once
        ("", ()),  # `-s CX_FORMATS=`: the text only
        ([], ()),
        (None, ("html", "images")),  # Scrapy's None: the default
    ],
)
def test_formats_are_read_from_a_list_or_a_comma_string(value: object, formats: object) -> None:
    cx = CxSettings.from_settings(Settings({"CX_FORMATS": value}))
    assert cx.formats == formats
    assert cx.extract_kwargs()["formats"] == frozenset(formats)  # type: ignore[arg-type]


def test_the_formats_default_is_the_cores() -> None:
    assert frozenset(CxSettings().formats) == DEFAULT_FORMATS
    assert DEFAULTS["CX_FORMATS"] == [name for name in FORMATS if name in DEFAULT_FORMATS]
    assert CxSettings(formats="markdown html") == CxSettings(formats=("html", "markdown"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("html,pdf", r"^CX_FORMATS: unknown format\(s\) 'pdf': choose among html, markdown, imag"),
        (["Markdown"], r"^CX_FORMATS: unknown format\(s\) 'Markdown'"),
        (5, r"^CX_FORMATS must be a list of format names .*not 5; known: html, markdown"),
        (["html", 3], r"^CX_FORMATS must be a list"),
        ({"html": True}, r"^CX_FORMATS must be a list"),
    ],
)
def test_bad_formats_fail_at_start_in_one_line(value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        CxSettings.from_settings(Settings({"CX_FORMATS": value}))
    assert "\n" not in str(error.value)


def test_the_table_imports_without_scrapy() -> None:
    """Bulk extraction and its readers take their defaults from it: no Scrapy there."""
    code = (
        "import sys, scrapy_cx.settings, scrapy_cx.bulk, scrapy_cx.__main__; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scrapy'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


#: Settings any text is a value of: a field name, a Redis URL (checked by Redis).
ANY_TEXT = {"CX_HTML_FIELD", "CX_REDIS_URL"}
#: (setting, a bad ``-s NAME=VALUE`` value, text of the value the message shows).
BAD_VALUES = [
    ("CX_ENABLED", "no", "'no'"),
    ("CX_MAX_BODY_SIZE", "5MB", "'5MB'"),
    ("CX_MAX_BODY_SIZE", "-1", "-1"),
    ("CX_MIN_CONTENT_LENGTH", "abc", "'abc'"),
    ("CX_MIN_CONTENT_LENGTH", "-1", "-1"),
    ("CX_PAGE_TYPES", '["articel"]', "'articel'"),
    ("CX_PAGE_TYPES", "article,blog", "'blog'"),
    ("CX_PAGE_TYPES", '["article"', "'[\"article\"'"),  # not JSON
    ("CX_PAGE_TYPES", "[1, 2]", "[1, 2]"),
    ("CX_DROP_NON_ARTICLES", "maybe", "'maybe'"),
    ("CX_REQUIRE_PUBLISHED", "yes", "'yes'"),
    ("CX_DATE_LANGUAGES", '["english"]', "'english'"),
    ("CX_DATE_LANGUAGES", "en,klingon", "'klingon'"),
    ("CX_LINE_OPTIONS", "{bad", "'{bad'"),
    ("CX_LINE_OPTIONS", '{"blocksize": 4}', "'blocksize'"),
    ("CX_LINE_OPTIONS", '{"block_size": "4"}', "block_size='4'"),
    ("CX_FORMATS", "html,pdf", "'pdf'"),
    ("CX_FORMATS", '["pdf"]', "'pdf'"),
    ("CX_FILL_ITEMS", "nope", "'nope'"),
    ("CX_KEEP_HTML", "nope", "'nope'"),
    ("CX_WORKERS", "-1", "'-1'"),
    ("CX_WORKERS", "many", "'many'"),
    ("CX_PAGE_TIMEOUT", "5s", "'5s'"),
    ("CX_PAGE_TIMEOUT", "-1", "-1"),
    ("CX_PAGE_TIMEOUT", "nan", "nan"),
    ("CX_WORKER_MAX_PAGES", "1.5", "'1.5'"),
    ("CX_WORKER_MAX_PAGES", "-1", "-1"),
    ("CX_WORKER_WARM_UP", "perhaps", "'perhaps'"),
    ("CX_REDIS_IDLE_CLOSE", "soon", "'soon'"),
    ("CX_REDIS_IDLE_CLOSE", "-1", "-1"),
    ("CX_REDIS_LEASE_TIMEOUT", "0", "0"),
    ("CX_REDIS_LEASE_TIMEOUT", "inf", "inf"),
    ("CX_REDIS_GIVE_UP", "0", "0"),
    ("CX_REDIS_GIVE_UP", "soon", "'soon'"),
    ("CX_REDIS_MAX_DELIVERIES", "three", "'three'"),
    ("CX_REDIS_MAX_DELIVERIES", "-1", "-1"),
    ("CX_DEDUP", "perhaps", "'perhaps'"),
    ("CX_DEDUP_MODE", "delete", "'delete'"),
    ("CX_DEDUP_THRESHOLD", "1.5", "1.5"),
    ("CX_DEDUP_THRESHOLD", "0", "0"),
    ("CX_DEDUP_THRESHOLD", "half", "'half'"),
    ("CX_MAX_ARTICLE_PAGES", "0", "0"),
    ("CX_MAX_ARTICLE_PAGES", "all", "'all'"),
    ("CX_ITEM_SCHEMA", "schema.org", "'schema.org'"),
    ("CX_MIN_ARTICLE_PROBABILITY", "1.5", "1.5"),
    ("CX_MIN_ARTICLE_PROBABILITY", "-0.1", "-0.1"),
    ("CX_MIN_ARTICLE_PROBABILITY", "likely", "'likely'"),
]
#: Words that say what is allowed, one of them in every message.
ALLOWED = re.compile(r"must be|known:|takes|choose among")


def test_every_setting_has_bad_values_checked() -> None:
    checked = {name for name, _, _ in BAD_VALUES}
    assert checked | ANY_TEXT == set(DEFAULTS)
    assert not checked & ANY_TEXT


@pytest.mark.parametrize(("name", "value", "shown"), BAD_VALUES)
def test_a_bad_command_line_value_fails_in_one_line_naming_setting_value_and_allowed(
    name: str, value: str, shown: str
) -> None:
    settings = Settings({name: value}, priority="cmdline")  # what `-s NAME=VALUE` stores
    with pytest.raises(SettingError) as error:
        CxSettings.from_settings(settings)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(name), message
    assert shown in message, message
    assert ALLOWED.search(message), message


@pytest.mark.parametrize(
    ("name", "value", "attribute", "expected"),
    [
        # JSON, as the README shows for CX_LINE_OPTIONS, or Scrapy's comma list.
        ("CX_PAGE_TYPES", '["listing"]', "page_types", ("listing",)),
        ("CX_PAGE_TYPES", '["article", "thread"]', "page_types", ("article", "thread")),
        ("CX_PAGE_TYPES", "article, listing", "page_types", ("article", "listing")),
        ("CX_PAGE_TYPES", "[]", "page_types", ()),
        ("CX_FORMATS", '["markdown", "html"]', "formats", ("html", "markdown")),
        ("CX_FORMATS", "[]", "formats", ()),
        ("CX_DATE_LANGUAGES", '["en", "zh"]', "date_languages", ["en", "zh"]),
        ("CX_DATE_LANGUAGES", "en,zh", "date_languages", ["en", "zh"]),
    ],
)
def test_list_settings_read_json_or_comma_lists(
    name: str, value: str, attribute: str, expected: object
) -> None:
    cx = CxSettings.from_settings(Settings({name: value}, priority="cmdline"))
    assert getattr(cx, attribute) == expected


def test_item_schema_is_cx_or_zyte() -> None:
    assert CxSettings().item_schema == "cx"
    with pytest.raises(ValueError, match=r"CX_ITEM_SCHEMA must be one of \('cx', 'zyte'\)"):
        CxSettings.from_settings(Settings({"CX_ITEM_SCHEMA": "schema.org"}))
    pytest.importorskip("zyte_common_items")
    assert CxSettings.from_settings(Settings({"CX_ITEM_SCHEMA": "ZYTE"})).item_schema == "zyte"
