"""Each test starts with nothing offered and no exporter open (the offers are per process)."""

from __future__ import annotations

import pytest

from scrapy_cx.feeds import _fragments


@pytest.fixture(autouse=True)
def _fresh_offers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fragments, "_offered", {})
    monkeypatch.setattr(_fragments, "_offered_bytes", 0)
    monkeypatch.setattr(_fragments, "_writers", 0)
