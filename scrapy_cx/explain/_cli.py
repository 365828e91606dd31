"""``scrapy-cx explain PAGE... [-o report.html | -o folder/] [--text]``.

Kept out of ``__main__`` so the command line module stays a list of commands.
A page that cannot be read or fetched is reported with its reason and the
others still get their reports; the exit status is 1 if any page failed, 2 if
a report would be written over a page named (refused before any is read).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

from ..bulk import RawPage, Replacement, Sources, clash, printable, say
from ..settings import CxSettings, SettingError, setting_name, unknown_settings
from ._explanation import explain_page
from ._fetch import DEFAULT_TIMEOUT, FetchError, fetch, is_url
from ._html import render_html
from ._text import render_text

MAX_NAME = 80  # characters of a report file name taken from the page's name
#: What ``--set`` takes: every ``CX_*`` setting.
SETTING_NAMES = frozenset(setting_name(item) for item in dataclasses.fields(CxSettings))


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _override(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    if name not in SETTING_NAMES:
        nearest = next((near for _, near in unknown_settings([name]) if near), None)
        hint = f"; did you mean {nearest}?" if nearest else ""
        raise argparse.ArgumentTypeError(f"{name} is not a scrapy-cx setting (CX_...){hint}")
    return name, value


def _settings(pairs: list[tuple[str, str]]) -> CxSettings:
    """The settings a crawl with ``-s NAME=VALUE`` for each pair would run with
    (read and checked by the crawl's own readers: the same errors, the same values)."""
    if not pairs:
        return CxSettings()
    from scrapy.settings import BaseSettings

    return CxSettings.from_settings(BaseSettings(dict(pairs), priority="cmdline"))


def add_parser(commands: Any) -> None:
    """Add the ``explain`` command to the ``scrapy-cx`` sub-command parsers."""
    explain = commands.add_parser(
        "explain",
        help="show why a page gave the article it gave (HTML report or terminal summary)",
        description="Explain the extraction of saved pages or http(s) URLs: a self-contained "
        "HTML report per page (the line-block distribution with the selected region, every "
        "line's kind, where the title, date and authors were found), or a terminal summary.",
    )
    explain.add_argument("pages", nargs="+", metavar="PAGE", help="HTML file or http(s) URL")
    explain.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="report file (one page) or folder (several pages); without it, --text is implied",
    )
    explain.add_argument("--text", action="store_true", help="print a summary to stdout")
    explain.add_argument(
        "-s",
        "--set",
        type=_override,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a CX_* setting as `scrapy crawl -s` gives it (repeatable): the page is "
        "extracted and judged as a crawl with it would (e.g. --set CX_PAGE_TYPES=article,thread)",
    )
    explain.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help="seconds to wait for a URL (default %(default)s)",
    )


def run(args: argparse.Namespace) -> int:
    """Explain every page; 0 if all were explained, 1 if any failed, 2 if -o names a page."""
    several = len(args.pages) > 1
    to_folder = args.output and (several or args.output.endswith("/") or Path(args.output).is_dir())
    folder = Path(args.output) if to_folder else None
    targets = _targets(args.pages, args.output, folder)
    for target in targets:
        why = clash(target, args.pages)
        if why is not None:  # a report written over a page named would destroy it
            say(f"refusing to write {target}: {why}")
            return 2
    try:
        settings = _settings(args.set)
    except SettingError as exc:
        say(str(exc))
        return 2
    overrides = tuple(f"{name}={value}" for name, value in args.set)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    failed = 0
    for i, name in enumerate(args.pages):
        page = _read(name, args.timeout)
        if isinstance(page, str):
            say(page)
            failed += 1
            continue
        expl = explain_page(
            page.body,
            page.url,
            source=name,
            encoding=page.encoding,
            reference_time=page.fetched,
            settings=settings,
            overrides=overrides,
        )
        if args.text or not args.output:
            print(render_text(expl) + ("\n" if several else ""))
        if args.output:
            target = targets[i]
            try:  # written beside and renamed: a failure leaves no half report
                with Replacement(target) as report:
                    report.file.write(render_html(expl).encode("utf-8"))
                    report.commit()
            except OSError as exc:
                say(f"{name}: cannot write {target}: {exc.strerror}")
                failed += 1
                continue
            print(printable(f"{name}: report written to {target}"), file=sys.stderr)
    return 1 if failed else 0


def _targets(pages: list[str], output: str | None, folder: Path | None) -> list[Path]:
    """Each page's report file, known before any is read so that all can be checked first."""
    if not output:
        return []
    if folder is None:
        return [Path(output)] * len(pages)
    used: set[str] = set()
    return [folder / _report_name(name, used) for name in pages]


def _read(name: str, timeout: float) -> RawPage | str:
    """The page's bytes, or the reason they could not be had."""
    if is_url(name):
        try:
            return fetch(name, timeout, CxSettings.max_body_size)
        except FetchError as exc:
            return str(exc)
    if Path(name).is_dir():
        return f"{name}: is a folder; explain reads pages: name them ({name}/*.html)"
    if not Path(name).is_file():
        return f"{name}: no such file"
    for item in Sources([name]):
        return item if isinstance(item, RawPage) else f"{name}: {item.reason}"
    return f"{name}: nothing to read"


def _report_name(name: str, used: set[str]) -> str:
    """A file name for a page's report, unique within this run."""
    stem = name.rstrip("/").rsplit("/", 1)[-1] if not is_url(name) else name.split("://", 1)[1]
    stem = re.sub(r"\.(html?|xhtml|shtml)(\.gz)?$", "", stem, flags=re.I)
    stem = re.sub(r"[^\w.-]+", "_", stem).strip("._")[:MAX_NAME] or "page"
    candidate, n = stem, 1
    while candidate in used:
        n += 1
        candidate = f"{stem}-{n}"
    used.add(candidate)
    return candidate + ".html"
