"""The docs name tests as the proof of their promises: each one named must exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"``(tests/[\w/]+\.py)::(\w+)``")


def named_tests() -> list[tuple[str, str]]:
    return NAMED.findall((ROOT / "docs" / "reliability.rst").read_text(encoding="utf-8"))


def test_the_reliability_table_names_tests() -> None:
    assert len(named_tests()) >= 25


@pytest.mark.parametrize(("path", "name"), named_tests())
def test_every_test_the_reliability_table_names_exists(path: str, name: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^(async )?def {name}\(", source, re.M), f"{path}::{name} not found"
