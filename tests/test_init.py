"""The package root (scrapy_cx/__init__.py): its API, Scrapy-free import, and old module paths."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

import scrapy_cx


def test_import_scrapy_cx_imports_no_scrapy() -> None:
    code = "import sys, scrapy_cx, scrapy_cx.bulk, scrapy_cx.dedup; print('scrapy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_name_in_all_imports() -> None:
    for name in scrapy_cx.__all__:
        assert getattr(scrapy_cx, name) is not None


@pytest.mark.parametrize(
    ("old", "name", "new"),
    [
        ("scrapy_cx.leases", "LeasedQueue", "scrapy_cx.distributed"),
        ("scrapy_cx.leases", "LeaseAcks", "scrapy_cx.distributed"),
        ("scrapy_cx.dedup_pipeline", "DedupPipeline", "scrapy_cx.dedup"),
        ("scrapy_cx.sources", "Sources", "scrapy_cx.bulk"),
        ("scrapy_cx.records", "Skip", "scrapy_cx.bulk"),
        ("scrapy_cx.warc", "read_warc", "scrapy_cx.bulk"),
        ("scrapy_cx.progress", "Progress", "scrapy_cx.bulk"),
    ],
)
def test_a_moved_module_imports_from_its_old_path_with_a_warning(
    old: str, name: str, new: str
) -> None:
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert messages == [f"{old} moved: import from {new} instead"]


def test_scrapy_loads_a_component_by_its_old_path() -> None:
    from scrapy.utils.misc import load_object

    sys.modules.pop("scrapy_cx.leases", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        queue = load_object("scrapy_cx.leases.LeasedQueue")
    assert queue is load_object("scrapy_cx.distributed.LeasedQueue")


def test_an_unknown_module_is_still_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("scrapy_cx.no_such_module")
