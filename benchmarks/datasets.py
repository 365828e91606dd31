"""Load the benchmark sets in the bench dir (read-only; pages never enter the repo).

Two layouts (see the bench dir's README.md):

* ``aeb``: ``html/<id>.html.gz`` + ``ground-truth.json`` (``articleBody``, ``url``)
  + ``meta-truth.json`` (our ``title``/``date`` labels);
* every other set: ``manifest.jsonl`` (``id, html, url, lang, title, date, body,
  with, without``) + the raw page bytes exactly as saved (``.gz`` pages gunzipped).
  Optional fields some sets add: ``page_type`` and ``title_in_html`` (wceb_dev);
  ``date_time``, ``date_status``, ``authors``, ``author_raw``, ``description``,
  ``image`` and ``with_verbatim`` (mercury_dev); ``author`` as one string
  (trafilatura_dev, wcxb_dev: split into names by :func:`_author_label`).

Truth ``None`` means "no label for this field", not "the page has none"; the
scores skip such pages for that field.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

ENV_VAR = "CX_BENCH"
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BENCH = REPO_ROOT.parent / "shared" / "bench"


@dataclass(frozen=True, slots=True)
class BenchPage:
    """One page with its truth. ``html`` is the raw bytes, as a crawler would get them."""

    set_name: str
    id: str
    html: bytes
    url: str | None = None
    lang: str | None = None
    body: str | None = None
    title: str | None = None
    date: str | None = None
    with_snippets: tuple[str, ...] = field(default_factory=tuple)
    without_snippets: tuple[str, ...] = field(default_factory=tuple)
    page_type: str | None = None
    title_in_html: bool | None = None
    date_time: str | None = None  # a UTC instant; ``date`` is its UTC day
    date_status: str | None = None
    authors: tuple[str, ...] | None = None
    author_raw: str | None = None
    description: str | None = None
    image: str | None = None
    with_verbatim: bool | None = None  # False: the snippet is not in the page's visible text


def bench_dir(cli_value: str | None = None) -> Path:
    """``--bench`` wins, then ``$CX_BENCH``, then ``../shared/bench`` beside the repo."""
    if cli_value:
        return Path(cli_value)
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    return DEFAULT_BENCH


def set_format(path: Path) -> str | None:
    """``"aeb"``, ``"manifest"`` or None when ``path`` holds no set."""
    if (path / "ground-truth.json").is_file():
        return "aeb"
    if (path / "manifest.jsonl").is_file():
        return "manifest"
    return None


def available_sets(root: Path) -> list[str]:
    """Names of the set folders under ``root``, sorted (aeb first: the reference set)."""
    if not root.is_dir():
        return []
    names = [p.name for p in root.iterdir() if p.is_dir() and set_format(p)]
    return sorted(names, key=lambda n: (n != "aeb", n))


def _snippets(value: object) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value if v)
    return ()


def _text(value: object) -> str | None:
    """A label as a string, or None for a missing/blank label."""
    if value is None:
        return None
    text = str(value)
    return text if text.strip() else None


def _names(value: object) -> tuple[str, ...] | None:
    """An author list label; None (no truth) when missing or empty."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return None
    names = tuple(str(v) for v in value if v and str(v).strip())
    return names or None


# Sets whose ``author`` is a person's label of the page's authors as one string (names
# joined by "," / "und" / "and"): trafilatura's evaluation set and WCXB (reviewed labels,
# split the same way, so its credentials after a comma, "Jane Doe, MD", become names of
# their own that no precise extractor gives). Readability's ``author`` is the raw byline
# that Readability found ("By ... March 25, 2015"), no label.
AUTHOR_LABEL_SETS = ("trafilatura", "wcxb")
_AUTHOR_SPLIT = re.compile(r"[,;&/]|\s(?:and|und)\s")


def _author_label(value: object) -> tuple[str, ...] | None:
    """A one-string author label split into names, as the bench README says: on ``,``
    ``;`` ``&`` ``/`` `` and `` `` und ``; None when missing or empty."""
    if isinstance(value, list):
        return _names(value)
    if not isinstance(value, str):
        return None
    return _names([name.strip() for name in _AUTHOR_SPLIT.split(value) if name.strip()])


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def read_page(path: Path) -> bytes:
    """The page's bytes as a crawler would get them: ``*.gz`` files are gunzipped."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def _load_aeb(path: Path, ids: set[str] | None) -> list[BenchPage]:
    truth = json.loads((path / "ground-truth.json").read_text(encoding="utf-8"))
    meta_file = path / "meta-truth.json"
    meta = json.loads(meta_file.read_text(encoding="utf-8")) if meta_file.is_file() else {}
    pages = []
    for page_id in sorted(truth):
        if ids is not None and page_id not in ids:
            continue
        row = truth[page_id]
        labels = meta.get(page_id) or {}
        html = read_page(path / "html" / f"{page_id}.html.gz")
        pages.append(
            BenchPage(
                set_name=path.name,
                id=page_id,
                html=html,
                url=row.get("url"),
                body=_text(row.get("articleBody")),
                title=_text(labels.get("title")),
                date=_text(labels.get("date")),
            )
        )
    return pages


def _load_manifest(path: Path, ids: set[str] | None) -> list[BenchPage]:
    pages = []
    with (path / "manifest.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            row = json.loads(line)
            page_id = str(row["id"])
            if ids is not None and page_id not in ids:
                continue
            pages.append(
                BenchPage(
                    set_name=path.name,
                    id=page_id,
                    html=read_page(path / row["html"]),
                    url=row.get("url") or None,
                    lang=row.get("lang"),
                    body=_text(row.get("body")),
                    title=_text(row.get("title")),
                    date=_text(row.get("date")),
                    with_snippets=_snippets(row.get("with")),
                    without_snippets=_snippets(row.get("without")),
                    page_type=_text(row.get("page_type")),
                    title_in_html=_flag(row.get("title_in_html")),
                    date_time=_text(row.get("date_time")),
                    date_status=_text(row.get("date_status")),
                    authors=_names(row.get("authors"))
                    or (
                        _author_label(row.get("author"))
                        if path.name.startswith(AUTHOR_LABEL_SETS)
                        else None
                    ),
                    author_raw=_text(row.get("author_raw")),
                    description=_text(row.get("description")),
                    image=_text(row.get("image")),
                    with_verbatim=_flag(row.get("with_verbatim")),
                )
            )
    return pages


def load_set(path: Path, ids: set[str] | None = None, limit: int | None = None) -> list[BenchPage]:
    """Pages of the set in ``path`` (only ``ids`` if given, at most ``limit``)."""
    fmt = set_format(path)
    if fmt == "aeb":
        pages = _load_aeb(path, ids)
    elif fmt == "manifest":
        pages = _load_manifest(path, ids)
    else:
        raise FileNotFoundError(f"{path}: no ground-truth.json or manifest.jsonl")
    return pages[:limit] if limit is not None else pages
