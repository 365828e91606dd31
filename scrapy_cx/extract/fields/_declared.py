"""The author the page declares (JSON-LD ``author``, ``<meta name=author>``) and the
byline that shows it.

A declared name alone may be a site, a desk or a user id; shown again as the byline,
the page says twice who wrote it, and it is the author whatever it is.
"""

from __future__ import annotations

import re

from ..page import Page
from ..parse.meta import jsonld_types
from ._bylines import (
    BY_VERB,
    DESK_WORDS,
    HANDLE,
    LATIN_STOP,
    MONTHS,
    WEEKDAYS,
    byline_window,
    not_byline,
)
from ._names import (
    AGENCY_KEYS,
    DESK_WORD,
    DOTTED,
    FUNCTION_WORDS,
    INVISIBLE,
    LEAD_LABEL,
    MAX_NAME,
    MAX_NAMES,
    MAX_WORDS,
    NOT_NAME,
    NOT_NAME_CHARS,
    ROLE_TAIL,
    TITLE_WORDS,
    names_in,
)


def declares_someone(raw: str, sites: frozenset[str]) -> bool:
    """Whether a JSON-LD author names a person or an agency ("AP"), not only the site."""
    return raw.strip().casefold() in AGENCY_KEYS or bool(names_in(raw, sites))


# JSON-LD types whose ``author`` is the page's: an article, a post, a forum thread's
# opening post (its starter), a question.
_POSTING = re.compile(r"Article|BlogPosting|Report|WebPage|Posting|Question", re.I)


def declared_names(page: Page) -> list[str]:
    """Every name the page declares as its author, of any kind: JSON-LD ``author``
    of an article or a posting (an Organization's too), then ``<meta name=author>``."""
    raw: list[str] = []
    for node in page.meta.jsonld[:MAX_NAMES]:
        if any(_POSTING.search(kind) for kind in jsonld_types(node)):
            raw += _jsonld_names(node.get("author"))
    raw += page.meta.author_tags
    return list(dict.fromkeys(" ".join(INVISIBLE.sub("", name).split()) for name in raw))


def _jsonld_names(value: object, depth: int = 0) -> list[str]:
    """The names a JSON-LD ``author`` value holds (a string, a node, a list of them)."""
    if depth > 2:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return _jsonld_names(value.get("name"), depth + 1)
    if isinstance(value, list):
        return [n for v in value[:MAX_NAMES] for n in _jsonld_names(v, depth + 1)]
    return []


def _declared_name(raw: str) -> str | None:
    """``raw`` as the name of whoever the page says wrote it, a person or not ("Supermove",
    "Need2KnowLion", "EcoCult Staff"), or None: a placeholder, a role alone
    ("Community Editor"), a phrase ("Our Editors"), an address, an agency."""
    text = LEAD_LABEL.sub("", raw).strip(" ,;:-–—·•|")
    words = text.split()
    if not words or len(text) > MAX_NAME or len(words) > MAX_WORDS:
        return None
    if NOT_NAME.match(text) or NOT_NAME_CHARS.search(text) or DOTTED.search(text):
        return None
    if "@" in text or "/" in text or text.casefold() in AGENCY_KEYS or DESK_WORD.search(text):
        return None
    if any(c.isdigit() for c in text) and not (len(words) == 1 and HANDLE.fullmatch(text)):
        return None  # a date or a number; a handle ("lulug30") is a name
    if any(w.lower() in FUNCTION_WORDS for w in words) or not any(c.isalpha() for c in text):
        return None
    if ROLE_TAIL.fullmatch(text) or all(w.lower().strip(".") in TITLE_WORDS for w in words):
        return None  # a role alone
    if all(w.lower() in DESK_WORDS for w in words):
        return None  # "Staff Reports", "Editorial Team": a desk's credit, no one's name
    return text


# What may follow the site's own name in a byline that credits the site: nothing, or a
# date ("Posted by IndustrySelect on Tuesday, August 29"); another field after it ("IT
# Finanzmagazin /PP 20. Juni") credits someone of the site's (initials, a desk).
_SITE_BYLINE_END = re.compile(
    r"(?:(?:on|at|published|updated|posted)\s|[|·•—–-]\s?)?(?:\d|" + MONTHS + r"\b|"
    + WEEKDAYS
    + r")",
    re.I,
)


# "By" naming the site itself, at the line's start or after a date or a separator.
_SITE_LABEL = re.compile(
    r"(?:^|[\d|·•—–]\s?)(?:" + BY_VERB + r"|by)\s?:?\s", re.I
)


def shown_declared(page: Page, sites: frozenset[str]) -> tuple[list[str], int] | None:
    """The declared author (:func:`declared_names`) that the byline shows: a line next to the
    headline opening with it (after a label: "By GrinGEO"), then nothing, a separator, a
    date or another field ("Supermove" / "February 8, 2022", "Susan December 9, 2024").
    Two sources agreeing make it the author even where one alone is too weak: a one-word
    handle, the site's own name, a team. The site's name (og:site_name, the publisher)
    counts after a "By" alone ("By Erin Spain" on Erin Spain's site)."""
    names = [n for n in (_declared_name(raw) for raw in declared_names(page)) if n]
    own = [page.site_name, page.meta.site_name, page.meta.publisher]
    owned = [n for n in (_declared_name(raw) for raw in own if raw) if n]
    if not names and not owned:
        return None
    lines = page.lines
    window = byline_window(lines, page.headline, page.start)
    above = [page.headline - 1] if page.headline else []  # (a byline over the headline)
    for i in [*above, *window]:
        line = lines[i]
        if not_byline(line):
            continue
        text = line.text.strip()
        label = _SITE_LABEL.search(text)
        if label is not None:  # the site's own name after "By": "May 3, 2017 By Erin Spain"
            for name in owned:
                rest = text[label.end() :]
                if rest.casefold().startswith(name.casefold()):
                    shown, rest = rest[: len(name)], rest[len(name) :].lstrip(" ,")
                    if not rest or _SITE_BYLINE_END.match(rest):
                        return [shown], i  # (as the line writes it)
        for _ in range(2):
            text = LEAD_LABEL.sub("", text).strip(" ,;:-–—·•|")
        for name in names:
            if not text.casefold().startswith(name.casefold()):
                continue
            rest = text[len(name) :]
            if rest[:1].isalnum():
                continue  # "Arcade" is not "Arc"
            rest = rest.lstrip(" ,")
            if "".join(name.casefold().split()) in sites:
                if not rest or _SITE_BYLINE_END.match(rest):
                    return [name], i
            elif not rest or LATIN_STOP.match(rest):
                return [name], i
    return None
