"""What a crawler needs from a page to go on: a listing's teaser links, and the next page.

``article_links`` are a listing's linked headlines (the walk's lines that
regions.is_headline_link calls a teaser's headline, outside menus and asides),
each line's first link, on the page's own site, in page order, once each.
Only a listing has them: an article's related links are ``related``.

``next_page`` is the page after this one: a listing's next page, or the next page
of an article (or thread) split over several, never the next story:
``<link rel="next">``, else a link marked ``rel="next"``, else the run of page
numbers (the page after the current one), else a link named "Next" ("Next
page", "下一页", "次へ", "Weiter"...); on an article, only an address that
:func:`continues` its own (``a.html`` -> ``a_2.html``, ``?page=2``, ``/2/``).

Both are read in one pass over the lines and one over the ``<a>`` elements, and
each address goes through the core's one rule for URLs (_urls.http_url).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import islice
from urllib.parse import parse_qsl, urlencode, urlsplit

import tldextract
from lxml import etree

from .._urls import http_url
from ..content.regions import is_headline_link
from ..page import Page

__all__ = [
    "continues",
    "find_navigation",
    "page_address",
    "page_stem",
    "same_site",
    "shows_pager",
    "site_of",
]

MAX_ARTICLE_LINKS = 500  # teaser links kept per listing
MAX_ANCHORS = 5000  # <a> elements read for the next page (a pager is never past them)
_MAX_LINK_TEXT = 40  # characters: a "Next" or page-number link is short
_MAX_CHILDREN = 4  # elements inside a "Next" link (an icon, a span): a card has more
# Elements at any depth inside one: bounds the text read per link, which nested
# <em><a> pairs (each link holding the rest of the page) made anchors x depth.
_MAX_DESCENDANTS = 16
_MAX_NUMBER = 4  # digits of a page number
# What a link to the next page says, in lower case, arrows and spaces removed.
NEXT_WORDS = frozenset(
    """next nextpage next→ 下一页 下页 下一頁 下頁 后一页 後一頁 次へ 次のページ 次ページ
    weiter nächste nächsteseite vorwärts suivant pagesuivante suivante siguiente
    siguientepágina próxima próximapágina seguinte successivo successiva
    paginasuccessiva volgende следующая далее dalej następna 다음 다음페이지""".split()
)
# Arrows, spaces and punctuation around the word, deleted (str.translate: no regex per link).
_DECORATION = str.maketrans("", "", " \t\n\r\xa0\u3000»›>→▶►⟩⇒.…:|-")
_CURRENT_WORDS = frozenset("current active selected on cur curr now thispage".split())
_CLASS_WORD = re.compile(r"[a-z]+")
# What marks the second and later pages of one article or listing in its address:
# a page parameter, a number after the name (``_2.shtml``, ``-p2.html``), a number
# as the last folder (``/2/``, ``/page/2``).
_PAGE_PARAMS = frozenset("page p pg pn paged pageno pagenum pagenumber currentpage".split())
_NAME_NUMBER = re.compile(r"[_-](?:p|page)?\d{1,2}(?=\.[a-z]{2,6}$)", re.I)
_FOLDER_NUMBER = re.compile(r"(?:/page)?/\d{1,3}/?$", re.I)
# The last part of a site's own pages' addresses (privacy.html, /about-us/, terms_of_use):
# footer and legal links, never a teaser, whatever region the page put them in.
_LEGAL_WORDS = frozenset(
    """privacy terms tos contact about imprint impressum legal cookies cookie disclaimer
    accessibility copyright datenschutz kontakt agb""".split()
)
_LEGAL_FILLERS = frozenset("us of use policy policies service conditions and notice the".split())
_LEGAL_PART = re.compile(r"[a-z]+")
_FOOTER_NAME = re.compile(r"footer", re.I)
_MAX_PAGE_DIGITS = 3  # a listing's page number (a year, 2024, is no page)
_TABLE_TAGS = frozenset("td th tr tbody thead table".split())


def find_navigation(page: Page) -> None:
    """Fill ``page.article_links`` (a listing's teasers) and ``page.next_page``."""
    following = _declared_next(page) or _linked_next(page.root, page.url)
    if following and page.url and page.page_type in ("article", "thread"):
        if not continues(page.url, following):
            following = None  # the next story (a blog's "Next post"), not this one's page 2
    page.next_page = following
    if page.page_type == "listing":
        page.article_links = _article_links(page)


def page_address(url: str) -> str:
    """``url`` as host, path (no trailing slash) and query without its page parameter:
    the pages of one article compare equal on it, the rest of the address kept."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    kept = urlencode([(k, v) for k, v in query if not _page_param(k, v)])
    return f"{(parts.hostname or '').lower()}{parts.path.rstrip('/') or '/'}?{kept}"


def _page_param(name: str, value: str) -> bool:
    """``page=2``, ``p=3``: a page number (three digits at most: ``?p=3289`` is a
    WordPress post's id, another story)."""
    return name.lower() in _PAGE_PARAMS and value.isdigit() and len(value) <= 3


def page_stem(url: str) -> str:
    """:func:`page_address` with the page marker of its path taken out too."""
    parts = urlsplit(url)
    path = _FOLDER_NUMBER.sub("", parts.path) or "/"
    path = _NAME_NUMBER.sub("", path.rstrip("/")) or "/"
    return page_address(parts._replace(path=path).geturl())


def continues(url: str, following: str) -> bool:
    """Whether ``following`` reads as a later page of the same article as ``url``: its
    address is ``url``'s (or ``url``'s own page's) with a page marker added or changed
    (``a.html`` -> ``a_2.html``, ``?page=2`` -> ``?page=3``, ``/a/`` -> ``/a/2/``)."""
    try:
        stem = page_stem(following)
        return stem == page_address(url) or stem == page_stem(url)
    except ValueError:
        return False


@lru_cache(maxsize=1)
def _public_suffixes() -> tldextract.TLDExtract:
    """The Public Suffix List as tldextract bundles it, private domains on (each
    ``*.blogspot.com`` blog is a site), read once per process: no download, no cache file."""
    return tldextract.TLDExtract(
        suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True
    )


@lru_cache(maxsize=4096)
def site_of(host: str | None) -> str:
    """The site a host belongs to: its registrable domain by the Public Suffix List
    (``news.example.co.uk`` -> ``example.co.uk``, ``foo.blogspot.com`` stays itself);
    an IP address, a one-label host or one under no known suffix is itself."""
    host = (host or "").lower().rstrip(".")
    if not host or ":" in host or host.replace(".", "").isdigit():
        return host
    parts = _public_suffixes()(host)
    return f"{parts.domain}.{parts.suffix}" if parts.domain and parts.suffix else host


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
    footers: dict[etree._Element, bool] = {}
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
        if _legal(path) or _in_footer(page, line.block, footers):
            continue  # a small listing's footer is no boilerplate: most of its text
        if path == own_path or path == "/":
            continue  # this page (another of its pages: ?page=2) or the home page: no teaser
        found[address.split("#", 1)[0]] = None
        if len(found) >= MAX_ARTICLE_LINKS:
            break
    return list(found)


def _legal(path: str) -> bool:
    """A footer's or legal page's address: its last part only legal words (``/about-us/``,
    ``privacy-policy.html``, ``terms_of_use``), never a story's (``privacy-law-passes``)."""
    last = path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    words = set(_LEGAL_PART.findall(last))
    return bool(words & _LEGAL_WORDS) and words <= _LEGAL_WORDS | _LEGAL_FILLERS


def _in_footer(page: Page, block: int, footers: dict[etree._Element, bool]) -> bool:
    """The line's block stands in a ``<footer>`` or an element named a footer (the walk
    does not mark one boilerplate where it holds much of a small page's text); a
    wrapper so named around the page's ``<main>`` or ``<h1>`` is no footer.
    ``footers``: each element's answer, kept over one page's lines."""
    elements = page.lines.elements
    if not 0 <= block < len(elements):
        return False
    el: etree._Element | None = elements[block]
    while el is not None and el.tag not in ("body", "html"):
        found = footers.get(el)
        if found is None:
            named = el.tag == "footer" or bool(
                _FOOTER_NAME.search(f"{el.get('class', '')} {el.get('id', '')}")
            )
            found = named and next(el.iter("main", "h1"), None) is None
            footers[el] = found
        if found:
            return True
        el = el.getparent()
    return False


def shows_pager(page: Page) -> bool:
    """The page shows a run of page numbers: two or more (1 to 999) under one container,
    linked, or one linked beside the current one shown unlinked. Numbers in a table are
    a calendar's days, not pages."""
    containers: dict[etree._Element, int] = {}
    for count, a in enumerate(page.root.iter("a")):
        if count >= MAX_ANCHORS:
            break
        text = (a.text or "").strip() if not len(a) else ""
        if not (text.isdigit() and len(text) <= _MAX_PAGE_DIGITS and _usable(a.get("href"))):
            continue
        parent = a.getparent()
        if parent is not None and parent.tag in ("li", "span", "em", "strong", "b"):
            parent = parent.getparent()
        if parent is None or parent.tag in _TABLE_TAGS:
            continue
        containers[parent] = containers.get(parent, 0) + 1
        if containers[parent] >= 2:
            return True
        shown = {n for n in _numbers(parent) if len(n) <= _MAX_PAGE_DIGITS}
        if len(shown) >= 2:
            return True
    return False


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


def _linked_next(root: etree._Element, base: str | None) -> str | None:
    """A link marked rel=next, else the page after the current one in a run of page
    numbers, else a link named "Next"; absolute, on the page's site.

    One pass over the ``<a>`` elements, as cheap per link as it can be: every page
    pays for it. A link holding more than a few elements (a teaser card) is no
    pager's, and its text is never joined."""
    rel_next: str | None = None
    word_next: str | None = None
    numbered: list[tuple[etree._Element, int]] = []
    for count, a in enumerate(root.iter("a")):
        if count >= MAX_ANCHORS:
            break
        rel = a.get("rel")
        if rel is not None and "next" in rel.lower().split():
            href = a.get("href")
            if _usable(href):
                rel_next = href
                break  # the page says which it is: nothing else is read
        text = _link_text(a)
        if text is None or len(text) > _MAX_LINK_TEXT:
            continue
        if text.isdigit():
            if len(text) <= _MAX_NUMBER and _usable(a.get("href")):
                numbered.append((a, int(text)))
        elif word_next is None:
            label = (text or a.get("aria-label") or a.get("title") or "").lower()
            if label.translate(_DECORATION) in NEXT_WORDS and _usable(a.get("href")):
                word_next = a.get("href")
    for href in (rel_next, _numbered_next(numbered, base), word_next):
        if href:
            address = http_url(base, href)
            if address is not None and address != base and same_site(address, base):
                return address
    return None


def _link_text(a: etree._Element) -> str | None:
    """The stripped text of link ``a``, or None for a link holding more than a few
    elements (a teaser card, or a link nesting the rest of the page): no pager's.
    Reads at most :data:`_MAX_DESCENDANTS` + 1 elements."""
    children = len(a)
    if not children:
        return (a.text or "").strip()
    if children > _MAX_CHILDREN:
        return None
    if next(islice(a.iterdescendants(), _MAX_DESCENDANTS, None), None) is not None:
        return None
    return "".join(a.itertext()).strip()


def _usable(href: str | None) -> bool:
    """An address to go to: not none, not a place in this page, not a script."""
    return bool(href) and not href.lstrip().startswith(("#", "javascript:"))  # type: ignore[union-attr]


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
    the run shows without a link, else (two links or more) the first page, which
    pagers do not link; one linked number alone is a score or a count, no pager."""
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
        else:
            shown = [int(t) for t in _numbers(container)]
            unlinked = [n for n in shown if n not in linked]
            if unlinked:
                current = unlinked[0]
            elif len(run) >= 2:
                current = 1  # the first page, which pagers do not show
            else:
                continue  # one number alone (a score, a count) is no pager
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
