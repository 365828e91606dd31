"""The extractors compared, each behind the same two calls.

``prepare(page)`` builds the input outside the timed region; ``run(input)`` is
the timed extraction and returns an :class:`Output`.

Inputs, chosen so that every system reads the same characters:

* ``cx`` gets the raw bytes and the page url (what the Scrapy plugin sees), so
  its time includes decoding;
* ``trafilatura`` and ``readability`` get the page decoded once, untimed, by
  scrapy-cx's own decoder (HTTP-less crawler order: BOM, ``<meta charset>``,
  detection; GB2312/GBK read as GB18030). trafilatura would accept bytes, but its
  own guess differs on some legacy Chinese pages and we score extraction, not
  charset sniffing. Their times therefore exclude decoding: the speed ratio is
  conservative for cx.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from .datasets import BenchPage

_BLOCK_TAGS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 h4"
    " h5 h6 header hr li main nav ol p pre section table td th tr ul".split()
)


@dataclass(frozen=True, slots=True)
class Output:
    """What one system returned for one page (empty on error)."""

    text: str = ""
    title: str | None = None
    date: str | None = None
    date_raw: str | None = None
    error: str | None = None
    authors: tuple[str, ...] = ()
    image: str | None = None
    description: str | None = None
    page_type: str | None = None


FIELDS = frozenset({"authors", "image", "description", "page_type"})
"""Optional fields beside text/title/date that a system may return (see ``System.fields``)."""


@dataclass(frozen=True, slots=True)
class System:
    """A named extractor: ``prepare`` is untimed, ``run`` is timed."""

    name: str
    version: str
    prepare: Callable[[BenchPage], Any]
    run: Callable[[Any], Output]
    dates: bool = True  # False: the system has no date extraction (date columns show "-")
    fields: frozenset[str] = FIELDS  # the optional fields it has; the others show "-"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def decoded(page: BenchPage) -> tuple[str, str | None]:
    """The page as text, decoded the way cx decodes it, with its url."""
    from scrapy_cx.extract.parse.decode import decode_html

    text, _encoding = decode_html(page.html)
    return text, page.url


def html_fragment_text(fragment: str) -> str:
    """Text of an HTML fragment with a line break at block boundaries.

    ``text_content()`` alone glues ``<p>a</p><p>b</p>`` into ``ab``, which would
    merge words across paragraphs and cost readability tokens it did find.
    """
    import lxml.html

    if not fragment.strip():
        return ""
    root = lxml.html.fromstring(fragment)
    parts: list[str] = []

    def walk(el: Any) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        block = tag.lower() in _BLOCK_TAGS
        if block:
            parts.append("\n")
        if tag and el.text and tag.lower() not in ("script", "style"):
            parts.append(el.text)
        for child in el:
            walk(child)
        if block:
            parts.append("\n")
        if el.tail:
            parts.append(el.tail)

    walk(root)
    lines = (" ".join(line.split()) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


# --- cx -------------------------------------------------------------------------------------


def _cx_prepare(page: BenchPage) -> tuple[bytes, str | None]:
    return page.html, page.url


def _cx_run(arg: tuple[bytes, str | None]) -> Output:
    """Fields read with ``getattr``: one the Article lacks (yet) counts as none."""
    from scrapy_cx import extract_article

    return _cx_output(extract_article(*arg))


def _cx_rules_run(arg: tuple[bytes, str | None]) -> Output:
    """cx with the learned labeller off: the rules' text everywhere. On the dev sets
    it is the honest main-text figure beside ``cx``, whose model trained on them."""
    from scrapy_cx import extract_article

    return _cx_output(extract_article(*arg, learned=False))


def _cx_output(article: Any) -> Output:
    return Output(
        text=article.content or "",
        title=article.title,
        date=article.published,
        date_raw=article.published_raw,
        authors=_names(getattr(article, "authors", None)),
        image=getattr(article, "image", None) or None,
        description=getattr(article, "description", None) or None,
        page_type=getattr(article, "page_type", None) or None,
    )


def _cx_fields() -> frozenset[str]:
    """All optional fields, but ``page_type`` only once ``Article`` has it.

    A missing author list or image is a real miss (scored 0); a page type the
    Article cannot express yet is "not measured" (``-``), not a wrong class.
    """
    import dataclasses

    from scrapy_cx import Article

    names = {f.name for f in dataclasses.fields(Article)}
    return FIELDS if "page_type" in names else FIELDS - {"page_type"}


def _names(value: object) -> tuple[str, ...]:
    """A name list from a tuple/list, or from one string with ``;`` between names."""
    if not value:
        return ()
    if isinstance(value, str):
        value = value.split(";")
    if not isinstance(value, list | tuple):
        return ()
    return tuple(str(v).strip() for v in value if v and str(v).strip())


# --- trafilatura ----------------------------------------------------------------------------


def _trafilatura_run(arg: tuple[str, str | None]) -> Output:
    """``bare_extraction`` with metadata and without comments, defaults otherwise.

    Its metadata gives ``author`` (names joined by ``"; "``), ``image`` and
    ``description``; it has no page type of its own (``pagetype`` is og:type).

    ``include_comments=False`` is how AEB ran it (reader comments are not the
    article) and reproduces the bench README's figure for it (aeb 0.960); with
    the default (comments kept) its precision drops (0.953).
    """
    from trafilatura import bare_extraction

    html, url = arg
    doc = bare_extraction(html, url=url, with_metadata=True, include_comments=False)
    if doc is None:
        return Output()
    get = doc.get if isinstance(doc, dict) else lambda key: getattr(doc, key, None)
    return Output(
        text=get("text") or "",
        title=get("title"),
        date=get("date"),
        authors=_names(get("author")),
        image=get("image") or None,
        description=get("description") or None,
    )


# --- htmldate -------------------------------------------------------------------------------


def _htmldate_run(arg: tuple[str, str | None]) -> Output:
    """``find_date`` with ``original_date=True`` (the publication, not the last update),
    extensive search on (its default): how the bench README's figure for it was made.
    A date only: no text, title or other field."""
    from htmldate import find_date

    html, url = arg
    return Output(date=find_date(html, url=url, original_date=True))


# --- readability-lxml ----------------------------------------------------------------------


def _readability_run(arg: tuple[str, str | None]) -> Output:
    """``Document.summary()`` as text, ``short_title()`` (``title()`` if empty); no dates."""
    from readability import Document

    html, url = arg
    doc = Document(html, url=url)
    text = html_fragment_text(doc.summary(html_partial=True))
    title = doc.short_title() or doc.title()
    return Output(text=text, title=title)


def _quiet(*loggers: str) -> None:
    for name in loggers:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _have(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def make_system(name: str) -> System | None:
    """The system called ``name``, or None when its package is not installed."""
    if name == "cx":
        return System("cx", _version("scrapy-cx"), _cx_prepare, _cx_run, fields=_cx_fields())
    if name == "cx-rules":
        version = _version("scrapy-cx")
        return System(name, version, _cx_prepare, _cx_rules_run, fields=_cx_fields())
    if name == "trafilatura":
        if not _have("trafilatura"):
            return None
        _quiet("trafilatura", "htmldate", "courlan", "justext")
        return System(
            name, _version("trafilatura"), decoded, _trafilatura_run, fields=FIELDS - {"page_type"}
        )
    if name == "htmldate":
        if not _have("htmldate"):
            return None
        _quiet("htmldate")
        return System(name, _version("htmldate"), decoded, _htmldate_run, fields=frozenset())
    if name == "readability":
        if not _have("readability"):
            return None
        _quiet("readability", "readability.readability")
        return System(
            name,
            _version("readability-lxml"),
            decoded,
            _readability_run,
            dates=False,
            fields=frozenset(),
        )
    raise ValueError(f"unknown system {name!r} (known: {', '.join(SYSTEMS)})")


SYSTEMS = ("cx", "cx-rules", "trafilatura", "htmldate", "readability")
