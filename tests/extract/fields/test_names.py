"""Name cleaning: labels, roles, handles and the site's own name cut off; what no name is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_cx.extract.fields._names import (
    ROLE_TAIL,
    clean_name,
    may_end_in_role,
    names_in,
    split_names,
)


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("By Ann Lee", "Ann Lee"),
        ("Ann Lee | ann.lee@example.com", "Ann Lee"),
        ("Ann Lee @annlee", "Ann Lee"),
        ("Ann Lee +Follow", "Ann Lee"),
        ("Ann LeeAnn Lee", "Ann Lee"),
        ("Ann Lee, Senior Political Correspondent", "Ann Lee"),
        ("[田中宏昌]", "田中宏昌"),
        ("本报记者 王燕平", "王燕平"),
        ("Reuters", None),
        ("新华社", None),
        ("12345", None),
        ("The President", None),
        ("Example Media Inc.", None),
        ("Staff", None),
        ("Insights from", None),
        ("With Rental Package", None),
        ("记者", None),
    ],
)
def test_clean_name(raw: str, name: str | None) -> None:
    assert clean_name(raw) == name


def test_split_names() -> None:
    assert split_names("Ann Lee, Bo Chen and Cy Dee") == ["Ann Lee", "Bo Chen", "Cy Dee"]
    assert split_names("王燕、李强") == ["王燕", "李强"]
    assert names_in("By Ann Lee & Bo Chen") == ["Ann Lee", "Bo Chen"]


def test_the_site_and_its_desks_are_not_people() -> None:
    sites = frozenset(("foxbusiness", "cnn", "newsnation", "vortexcannon"))
    assert clean_name("Jonathan GarberFOXBusiness", sites) == "Jonathan Garber"
    assert clean_name("CNN Business", sites) is None
    assert clean_name("News Nation Bureau", sites) is None
    assert clean_name("Vortex", sites) is None
    assert clean_name("Analysis by Chris Cillizza", sites) == "Chris Cillizza"
    assert clean_name("Jose Altoveros View More Articles") == "Jose Altoveros"
    assert clean_name("Syrian defense ministries") is None
    # Beside full names, a single word is an outlet, not a co-author.
    assert names_in("Victor Tangermann, FUTURISM") == ["Victor Tangermann"]


def test_a_role_closing_a_name_is_found_by_the_end_of_the_text() -> None:
    for text in (
        "Ann Lee, Staff Writer",
        "Ann Lee Editors.",
        "Anna Berg, Redakteurin",
        "Marie Roux, envoyée spéciale",
        "Ann Lee CEO",
        "Ann Lee, staff writer\n",
        "Ann Lee, Staff Writer\u017f",  # the long s: an "s" to the case-blind pattern
        "Anna Berg, \u212aorrespondentin",  # the Kelvin sign: a "k"
    ):
        assert ROLE_TAIL.search(text) and may_end_in_role(text), text
    for text in ("Ann Lee", "Writer Ann Lee", "Ann Lee, Staff Writer and more", ""):
        assert not ROLE_TAIL.search(text) and not may_end_in_role(text), text


def test_a_glued_site_name_is_cut_the_same_whatever_the_hash_seed() -> None:
    """The site's names are a frozenset, whose order follows the string hash seed: the
    longest glued name must win in every process, not whichever came first."""
    code = (
        "from scrapy_cx.extract.fields._names import _without_site;"
        "print(_without_site('Jonathan Garber FOX Business News',"
        " frozenset({'businessnews', 'foxbusinessnews', 'news'})))"
    )
    root = Path(__file__).resolve().parents[3]
    seen = set()
    for seed in range(6):
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(root)}
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        seen.add(out.stdout.strip())
    assert seen == {"Jonathan Garber"}


def test_invisible_characters_inside_a_name_are_dropped() -> None:
    assert clean_name("Mat\u00adthi\u00adas Lauerer") == "Matthias Lauerer"


def test_a_label_with_a_colon_a_heading_and_a_credit() -> None:
    assert clean_name("Interview: Julia Lauter") == "Julia Lauter"
    assert clean_name("Fotos: Ivan Valetny") is None  # a picture's credit
    assert clean_name("Mein Motto Konsumsparen: Fazit") is None  # a heading
    assert clean_name("Autor Mark Newton: EN Übersetzung Sarah-Indra Jungblut") == "Mark Newton"
    assert clean_name("Bradley M. Kuhn (http://ebb.org/bkuhn/)") == "Bradley M. Kuhn"
    # The end of a sentence cut before "Last updated"; an initial keeps its point.
    assert clean_name("John Plunkett.") == "John Plunkett"
    assert clean_name("Ann B.") == "Ann B."


def test_who_reviewed_or_edited_the_page_is_not_its_writer() -> None:
    assert clean_name("Reviewed by Robert Tschudi") is None
    assert clean_name("Medically reviewed by Kim Rose") is None


def test_the_first_field_of_a_marked_byline_holds_the_name() -> None:
    mark = "Eli Maki Contributing Writer | Strategy, colony sims, and RPG player"
    assert names_in(mark) == ["Eli Maki"]
    assert names_in("Ann Lee and Bo Chen") == ["Ann Lee", "Bo Chen"]

