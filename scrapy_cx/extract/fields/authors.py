"""Authors: the byline the page shows, else the structured data's and the meta tags' names.

Metadata names are often a site, a desk or a user id; the byline ("By Ann Lee
and Bo Chen", "本报记者 王燕平 方云凤", "作者：芊草凡凡") is what readers see, so it
is read first, from a few short lines next to the headline, then JSON-LD persons,
elements the page marks as its author, meta tags that hold a name, and last a
byline closing the text ("（记者 王燕）", "Text: Anna Berg"). Every candidate is
cleaned (labels, roles, e-mail, handles) and split into names; numbers, URLs, the
site's own name and news agencies are never returned as people: an agency goes to
``source``. Photo credits ("记者 何俊 摄", "Photo: Ann Lee") are not authors.

Precision first: a wrong name costs a user's trust, a missing one little. So no
placeholder ("No Author", "未知", "Publié par Unknown"), field label ("name", "总篇数",
"Datum"), weekday or month, place, domain or user id, desk ("Redaktion Hamburg"), the
site or its publisher under any of its names, a word cut from the title, nor a one-word
nickname only the metadata gives: then no author at all. Where the page says it twice,
though, declaring a name as its author and showing it as the byline, that name is the
author whatever it is: the site's own ("Supermove" over the date), a team, a handle.
"""

from __future__ import annotations

import re

from ..page import Evidence, Page
from ..parse.meta import author_marks
from ._bylines import (
    BYLINE_SCAN,
    byline_authors,
    byline_window,
    full_name,
    team_byline,
    unglued,
    unlabelled_byline,
)
from ._closing import TAIL_SCAN, box_authors, tail_authors
from ._declared import declares_someone, shown_declared
from ._names import (
    MAX_NAMES,
    NOT_LETTERS,
    NOT_NAME,
    NOT_WRITER,
    PARTICLES,
    clean_name,
    names_in,
)
from ._source import find_source
from .title import site_from_title

# The stage; the readers it is made of live in the private modules beside this one, each
# with one job, and are imported from there.
__all__ = ["find_authors"]

# Where a site name's parts meet: "HSS - Hanns-Seidel-Stiftung e.V.", "财经_网易新闻".
_SITE_PARTS = re.compile(r"\s[|\-–—:·•/]\s|[|｜_＿【】]")


def _site_keys(site_names: list[str | None], url: str | None) -> frozenset[str]:
    """The site's own names, folded, spaces removed: never returned as a person. Each
    part of a site name ("HSS - Hanns-Seidel-Stiftung e.V.", "LinkNaija | Nigeria's
    ...") and the host's name ("linknaija" of linknaija.com) count too."""
    host = (url or "").split("//", 1)[-1].split("/", 1)[0].lower().removeprefix("www.")
    names = [host, host.split(".", 1)[0]]
    for site_name in site_names:
        if site_name:
            names.append(site_name)
            names += _SITE_PARTS.split(site_name)
    return frozenset(
        "".join(name.casefold().split()) for name in names if len(name.strip()) > 1
    )


# A person's full name as a site owner writes it: two to four capitalized words
# ("Kristian Larsen", "Julian K. Arni"), no digits or markup, no word in capitals
# ("IT Finanzmagazin"); a word a business's name holds ("Automateed Team") is none.
_OWNER_NAME = re.compile(r"[A-Z](?:[a-z][\w'’-]*|\.)(?:\s[A-Z](?:[a-z][\w'’-]*|\.))*")
_NOT_OWNER = frozenset("team store shop editorial editors blog studio one".split())


# Languages that capitalize every noun: there a name's capitals do not tell a person
# ("Deutscher Tennis Bund", "Lebensmittel Praxis") from a business.
_NOUNS_CAPITALIZED = ("de", "lb")


def _owned_sites(sites: frozenset[str], declared: list[str]) -> frozenset[str]:
    """The site's names less those that are the declared author's own: a person's site
    is named after them ("Kristian Larsen" on kristian-larsen.com, "Derek Seaman's
    Tech Blog", "Miod Vallat" on miod.online.fr), and there the name is the author,
    not the site standing in for one. Only a declared (JSON-LD or meta tag) name
    shaped as a person's full name frees it: a one-word site ("Vortex") never."""
    for raw in declared[:3]:
        name = " ".join(raw.split())
        words = name.casefold().split()
        if not 2 <= len(words) <= 4 or not _OWNER_NAME.fullmatch(name):
            continue
        if words[0] in PARTICLES or _NOT_OWNER.intersection(words) or clean_name(name) != name:
            continue  # "El Colombiano", "Camphouse Team": a business
        key = NOT_LETTERS.sub("", name.casefold())
        first = NOT_LETTERS.sub("", name.split()[0].casefold())
        owned = {
            site for site in sites
            if key in NOT_LETTERS.sub("", site) or NOT_LETTERS.sub("", site) == first
        }  # fmt: skip
        if owned:
            return sites - owned
    return sites


def _read_authors(page: Page, sites: frozenset[str]) -> tuple[list[str], Evidence | None]:
    """Authors in order of trust, with where they were read."""
    meta, lines, headline, start = page.meta, page.lines, page.headline, page.start
    site_keys = sites
    top = start if headline is None else headline  # (a headline on line 0 is a headline)
    if not (page.language or "").lower().startswith(_NOUNS_CAPITALIZED):
        sites = _owned_sites(sites, meta.authors + meta.author_tags)
    shown = byline_authors(lines, headline, start, None, sites, bare=False)
    marked: list[str] = []
    if not shown and not any(declares_someone(raw, sites) for raw in meta.authors):
        # (JSON-LD persons come before a marked element; a JSON-LD "author" that names
        # no person, ", USA TODAY", does not)
        marked = author_marks(page.root, page.markup, page.lines.marks)
        # A field's label ("Username" in the site's header) is no mark of the story's author.
        marked = [mark for mark in marked if not NOT_NAME.match(mark.strip())]
        # ... nor the reviewer's ("Reviewed by: <span class=author>Ann Lee</span>")
        reviews = [line.text for line in lines[max(0, top - 1) : start + 3]]
        reviews = [text for text in reviews if NOT_WRITER.match(text)]
        marked = [mark for mark in marked if not any(mark in text for text in reviews)]
        shown = unlabelled_byline(lines, headline, start, marked, sites)
    tagged = [n for raw in meta.author_tags for n in names_in(raw, sites)]
    if shown:
        index = page.line_with(shown[0], max(0, top - 1))
        raw = lines[index].text if index is not None else shown[0]
        if len(tagged) > len(shown) and shown[0] == tagged[0]:
            # The byline shows the first of many (citation_author on papers).
            return tagged, Evidence("meta:author", None, ", ".join(meta.author_tags))
        window = byline_window(lines, headline, start)
        declared = meta.authors + meta.author_tags
        if not declared and any(len(name.split()) > 2 for name in shown):
            # (a long name may hold a glued field: the marks are read for it alone)
            declared = author_marks(page.root, page.markup, page.lines.marks)
        shown = unglued(shown, declared, sites)
        return full_name(shown, lines, window, sites), Evidence("byline", index, raw)
    if meta.publisher and meta.publisher in meta.authors + meta.author_tags:
        # The publisher named as the author is a person only where a byline shows it.
        sites = site_keys
    structured = (
        (meta.authors, "jsonld"),
        (marked[:1], "marked"),
        (meta.author_tags, "meta:author"),
    )
    for group, source in structured:
        # (a meta tag alone is too weak to make the site's name a person's)
        keys = site_keys if source == "meta:author" else sites
        names = [n for raw in group for n in names_in(raw, keys)]
        if source != "marked" and all(n.isascii() and " " not in n for n in names):
            names = []  # "Nils", "Lynn": an account's nickname the page never shows
        if names:
            return names, Evidence(source, None, ", ".join(group))
    found = shown_declared(page, site_keys) or team_byline(page)
    if found is not None:
        return found[0], Evidence("byline", found[1], lines[found[1]].text)
    if page.end > start:
        boxed = box_authors(page, sites)
        if boxed is not None:
            return boxed[0], Evidence("byline", boxed[1], lines[boxed[1]].text)
        names = tail_authors(lines, page.end - 1, sites)
        if names:
            index = page.line_with(names[0], max(0, page.end - 1 - TAIL_SCAN))
            return names, Evidence("byline", index, lines[index].text if index is not None else "")
    return [], None


def find_authors(page: Page) -> None:
    """Fill ``page.authors`` (people, in page order: the byline, JSON-LD persons, marked
    elements, meta tags that hold a name, the closing byline), ``page.source`` (the
    agency or outlet the page names) and their evidence."""
    meta = page.meta
    sites = [page.site_name, meta.site_name, meta.publisher]
    sites.append(site_from_title(meta.title_tag, page.title))
    names, evidence = _read_authors(page, _site_keys(sites, page.url))
    page.authors = tuple(dict.fromkeys(names[:MAX_NAMES]))
    if page.authors and evidence is not None:
        page.evidence["authors"] = evidence
    lo = page.headline if page.headline is not None else max(0, page.start - BYLINE_SCAN)
    hi = min(len(page.lines), page.start + 3)
    lo = max(0, lo - 2)
    page.source = find_source(page.meta.authors + page.meta.author_tags, page.lines, lo, hi)
    if page.source is not None:
        index = page.line_with(page.source, lo)
        if index is not None and index < hi:
            page.evidence["source"] = Evidence("line", index, page.lines[index].text)
        else:
            page.evidence["source"] = Evidence("meta:author", None, page.source)
