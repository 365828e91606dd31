"""What a crawler needs from a page to go on: a listing's teaser links, and the next page.

``article_links`` are a listing's linked headlines (the walk's lines that
regions.is_headline_link calls a teaser's headline, outside menus and asides),
each line's first link, on the page's own site, in page order, once each.
Only a listing has them: an article's related links are ``related``.

``next_page`` is the page after this one, on any page type (a listing's pager,
the second page of an article split over several): ``<link rel="next">``, else
a link marked ``rel="next"``, else the run of page numbers (the page after the
current one), else a link named "Next" ("Next page", "下一页", "次へ", "Weiter"...).

Both are read in one pass over the lines and one over the ``<a>`` elements, and
each address goes through the core's one rule for URLs (_urls.http_url).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from lxml import etree

from ._urls import http_url
from .page import Page
from .regions import is_headline_link

__all__ = ["find_navigation", "same_site", "site_of"]

MAX_ARTICLE_LINKS = 500  # teaser links kept per listing
MAX_ANCHORS = 5000  # <a> elements read for the next page (a pager is never past them)
_MAX_LINK_TEXT = 40  # characters: a "Next" or page-number link is short
_MAX_NUMBER = 4  # digits of a page number
# What a link to the next page says, in lower case, arrows and spaces removed.
NEXT_WORDS = frozenset(
    """next nextpage next→ 下一页 下页 下一頁 下頁 后一页 後一頁 次へ 次のページ 次ページ
    weiter nächste nächsteseite vorwärts suivant pagesuivante suivante siguiente
    siguientepágina próxima próximapágina seguinte successivo successiva
    paginasuccessiva volgende следующая далее dalej następna 다음 다음페이지""".split()
)
_DECORATION = re.compile(r"[\s»›>→▶►⟩⇒.…:|\-]+")
_CURRENT_WORDS = frozenset("current active selected on cur curr now thispage".split())
_CLASS_WORD = re.compile(r"[a-z]+")
# Generic second-level labels under a country code: the site is one label more.
_SECOND_LEVEL = frozenset("com co org net gov edu ac or ne go gob nic mil".split())


def find_navigation(page: Page) -> None:
    """Fill ``page.article_links`` (a listing's teasers) and ``page.next_page``."""
    page.next_page = _declared_next(page) or _linked_next(page.root, page.url)
    if page.page_type == "listing":
        page.article_links = _article_links(page)


def site_of(host: str | None) -> str:
    """The site a host belongs to: its last two labels, three under a country's
    ``co``/``com``/``org``... (``news.example.co.uk`` -> ``example.co.uk``); an IP
    address or a one-label host is itself. A rule, not the Public Suffix List: the
    core needs no download, and a crawler bounds its own domains (Scrapy's offsite)."""
    host = (host or "").lower().rstrip(".")
    labels = host.split(".")
    if len(labels) <= 2 or labels[-1].isdigit() or ":" in host:
        return host
    keep = 3 if len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL else 2
    return ".".join(labels[-keep:])


def same_site(url: str, other: str | None) -> bool:
    """Whether two absolute URLs are on the same site (:func:`site_of`); True when
    ``other`` is unknown or not http(s) (a saved page: nothing to compare with)."""
    if not other or not other.startswith(("http://", "https://")):
        return True
    try:
        return site_of(urlsplit(url).hostname) == site_of(urlsplit(other).hostname)
    except ValueError:
        return False


def _article_links(page: Page) -> list[str]:
    """The listing's teaser headlines' links, absolute, on its site, in order, once each."""
    base = page.url
    own_path = _path(base)
    found: dict[str, None] = {}
    for line in page.lines:
        href = line.href
        if href is None or line.boilerplate or not is_headline_link(line):
            continue
        if href.lstrip().startswith("#"):
            continue  # a place in this page
        address = http_url(base, href)
        if address is None or not same_site(address, base):
            continue
        path = _path(address)
        if path == own_path or path == "/":
            continue  # this page (another of its pages: ?page=2) or the home page: no teaser
        found[address.split("#", 1)[0]] = None
        if len(found) >= MAX_ARTICLE_LINKS:
            break
    return list(found)


def _path(url: str | None) -> str:
    """The path of an absolute URL ("/" for none), without its query or fragment."""
    if not url or "://" not in url:
        return ""
    rest = url.split("://", 1)[1].split("#", 1)[0].split("?", 1)[0]
    slash = rest.find("/")
    return rest[slash:] if slash >= 0 else "/"


def _declared_next(page: Page) -> str | None:
    """``<link rel="next" href>`` in the page's head (the parse's index holds every link)."""
    elements: Iterable[etree._Element] = (
        page.elements if page.elements is not None else page.root.iter("link")
    )
    for el in elements:
        if el.tag == "link" and "next" in (el.get("rel") or "").lower().split():
            address = http_url(page.url, el.get("href") or "")
            if address is not None and address != page.url and same_site(address, page.url):
                return address
    return None


def _text(a: etree._Element) -> str:
    if len(a) == 0:
        return a.text or ""
    return "".join(a.itertext())


def _linked_next(root: etree._Element, base: str | None) -> str | None:
    """A link marked rel=next, else the page after the current one in a run of page
    numbers, else a link named "Next"; absolute, on the page's site."""
    rel_next: str | None = None
    word_next: str | None = None
    numbered: list[tuple[etree._Element, int]] = []
    for count, a in enumerate(root.iter("a")):
        if count >= MAX_ANCHORS:
            break
        href = a.get("href")
        if not href or href.lstrip().startswith(("#", "javascript:")):
            continue
        if rel_next is None and "next" in (a.get("rel") or "").lower().split():
            rel_next = href
            break  # the page says which it is: nothing else is read
        text = _text(a).strip()
        if len(text) > _MAX_LINK_TEXT:
            continue
        if text.isdigit() and len(text) <= _MAX_NUMBER:
            numbered.append((a, int(text)))
        elif word_next is None:
            label = text or a.get("aria-label") or a.get("title") or ""
            if _DECORATION.sub("", label.lower()) in NEXT_WORDS:
                word_next = href
    for href in (rel_next, _numbered_next(numbered, base), word_next):
        if href:
            address = http_url(base, href)
            if address is not None and address != base and same_site(address, base):
                return address
    return None


def _current(a: etree._Element) -> bool:
    """A page-number link marked as the page shown (aria-current, class "current"...)."""
    if a.get("aria-current"):
        return True
    names = (a.get("class") or "") + " " + (a.getparent().get("class") or "")
    return any(word in _CURRENT_WORDS for word in _CLASS_WORD.findall(names.lower()))


def _numbered_next(numbered: list[tuple[etree._Element, int]], base: str | None) -> str | None:
    """The link to the page after the current one in the first run of page numbers.

    A run is the number links under one container (their parent, or the list
    around their ``<li>``s). The current page is the one marked so, else the number
    the run shows without a link, else the first page (which pagers do not link)."""
    if not numbered:
        return None
    runs: dict[etree._Element, list[tuple[etree._Element, int]]] = {}
    for a, number in numbered:
        parent = a.getparent()
        if parent is not None and parent.tag in ("li", "span", "em", "strong", "b"):
            parent = parent.getparent()
        runs.setdefault(parent, []).append((a, number))
    for container, run in runs.items():
        linked = {number: a for a, number in run}
        marked = [number for a, number in run if _current(a)]
        if marked:
            current = marked[0]
        elif len(run) >= 2 or 2 in linked:
            shown = [int(t) for t in _numbers(container)]
            unlinked = [n for n in shown if n not in linked]
            current = unlinked[0] if unlinked else 1
        else:
            continue
        target = linked.get(current + 1)
        if target is not None and target.get("href") != base:
            return target.get("href")
    return None


def _numbers(container: etree._Element | None) -> list[str]:
    """The page numbers a pager shows, linked or not, in order (bounded)."""
    if container is None:
        return []
    text = " ".join(container.itertext())[:2000]
    return re.findall(r"(?<![\w.])\d{1,4}(?![\w.])", text)
