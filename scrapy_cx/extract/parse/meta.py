"""What a page says about itself: meta tags, JSON-LD, microdata, <link rel=canonical>, <html lang>.

Everything is gathered in one XPath pass (C speed) before the main text is chosen;
values are kept raw with their source so the date and title steps can rank them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any

from lxml import etree

from .._marks import AUTHOR_MARKS, AUTHOR_WORDS, Marks
from .._urls import absolute_url, http_url
from .dom import META_TAGS, may_hold, may_name

_MAX_VALUE = 2000  # longer meta values are garbage, not metadata
_MAX_JSONLD = 200_000  # characters of one JSON-LD script worth parsing
_MAX_JSONLD_TOTAL = 1_000_000  # ... and of all of them together
_MAX_JSONLD_NODES = 200  # JSON-LD nodes kept in PageMeta.jsonld
_META_TAG_SET = frozenset(META_TAGS)
_MAX_ELEMENTS = 5000  # head elements read: a hostile page may have a million <meta>
_MAX_CANDIDATES = 20  # values kept per field
_MAX_PLAIN_TIMES = 3  # <time datetime> without a publication mark: the first few only


@dataclass(slots=True)
class PageMeta:
    """Metadata candidates, gathered before the main text is chosen."""

    title_tag: str | None = None  # text of <title>
    titles: list[tuple[str, str]] = field(default_factory=list)  # (value, source)
    published: list[tuple[str, str]] = field(default_factory=list)  # (raw, source), best first
    modified: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    description: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    publisher: str | None = None  # JSON-LD publisher of the article node
    images: list[str] = field(default_factory=list)  # og:image, twitter:image, JSON-LD, best first
    author_tags: list[str] = field(default_factory=list)  # <meta name=author>...: often not a name
    scripts: list[etree._Element] = field(default_factory=list)  # inline scripts, read lazily
    # The JSON-LD nodes read (top level and @graph), parsed once for the stages that
    # read other keys (breadcrumbs, isAccessibleForFree, liveBlogUpdate).
    jsonld: list[dict[str, Any]] = field(default_factory=list)
    # <meta itemprop="isAccessibleForFree" content=...> values, as written (access.py).
    free: list[str] = field(default_factory=list)


# Published-date meta names, best first (rank = position). "date" and "dc.date" are
# vaguer than an explicit published time, so they rank after it.
_PUBLISHED_META = {
    key: rank
    for rank, key in enumerate(
        (
            "article:published_time",
            "og:article:published_time",
            "article:published",
            "og:published_time",
            "published_time",
            "datepublished",
            "rnews:datepublished",
            "article.published",
            "parsely-pub-date",
            "sailthru.date",
            "cxenseparse:recs:publishtime",
            "publishdate",
            "publish-date",
            "publish_date",
            "publishdatetime",
            "pubdate",
            "pubtime",
            "publishtime",
            "firstpublishedtime",
            "originalpublicationdate",
            "dc.date.issued",
            "dcterms.issued",
            "dc.date.created",
            "dcterms.created",
            "dc.date",
            "dcterms.date",
            "date",
            "release_date",
            "og:release_date",
            "citation_publication_date",
            "citation_date",
        )
    )
}
_MODIFIED_META = frozenset(
    """article:modified_time og:updated_time datemodified lastmod last-modified
    dc.date.modified dcterms.modified modified_time""".split()
)
_TITLE_META = ("og:title", "twitter:title", "headline", "dc.title", "articletitle", "title")
_AUTHOR_META = frozenset(
    "author article:author dc.creator byl sailthru.author parsely-author citation_author".split()
)
_SITE_META = ("og:site_name", "sitename", "application-name", "apple-mobile-web-app-title")
# Lead image meta names, best first.
_IMAGE_META = {
    key: rank
    for rank, key in enumerate(
        "og:image og:image:url og:image:secure_url twitter:image twitter:image:src image".split()
    )
}
_MAX_MARK = 80  # characters of an author-marked element's text: longer is a bio or a teaser
_MAX_MARKS = 8
_MAX_MARKED = 50  # marked elements read: a page may mark every comment's author
_MAX_IMAGES = 5  # lead image candidates kept
_CREDIT_CLASS = re.compile(r"attribution|credit|caption|photo|image|licen[cs]e")
# A marked element holding such an element is a picture's credit too ("author-name" around
# "license-author"); not an avatar ("author-image" beside the name), so fewer words.
_CREDIT_INSIDE = etree.XPath(
    "descendant::*[contains(@class, 'licen') or contains(@class, 'attribution') "
    "or contains(@class, 'credit')]"
)
# Publication times in inline scripts: a Unix timestamp (10 or 13 digits) or a quoted
# ISO date under a publication-date name, also inside JSON held in a string (\"...\").
# Dates under any other name (a dataLayer's "date", an expiry, an update, a comment's
# time) are code, not the story's date; "ct" (WeChat) is too short a name to trust
# with anything but a timestamp.
_SCRIPT_KEY_START = r"[\"'\s,{;]"
_SCRIPT_SEPARATOR = r"\\?[\"']?\s?[:=]\s?(?:\\?[\"'])?"
_SCRIPT_STAMP = r"(?P<v>\d{13}|\d{10})(?!\d)"
_SCRIPT_VALUE = (
    _SCRIPT_SEPARATOR
    + r"(?:"
    + _SCRIPT_STAMP
    + r"|(?P<iso>(?:19|20)\d\d-[01]\d-[0-3]\d"
    r"(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d)?(?:\.\d{1,9})?(?:Z|[+-][01]\d:?[0-5]\d)?)?)(?![\d:]))"
)
_SCRIPT_DATE = re.compile(
    _SCRIPT_KEY_START
    + r"(?P<key>publish_?time|pub_?time|publish_?date|pub_?date|publishedAt|"
    r"publish(?:ed)?_at|date_?published|first_?publish(?:ed)?_?(?:time|at|date)|ct)"
    + _SCRIPT_VALUE,
    re.I,
)
# The same keys, one pattern per first word, to search the lower-cased script:
# each starts with a literal (found by a fast search; the lookbehind then checks
# the character before), where _SCRIPT_DATE tries every key after every quote,
# space and comma of the script. "ct" counts with a timestamp only.
_SCRIPT_VALUE_LOWER = _SCRIPT_VALUE.replace("[T ]", "[t ]").replace("(?:Z|", "(?:z|")
_SCRIPT_KEYS = tuple(
    re.compile(f"{word}(?<={_SCRIPT_KEY_START}{word}){rest}")
    for word, rest in (
        ("pub", r"(?:lish_?time|_?time|lish_?date|_?date|lishedat|lish(?:ed)?_at)"
         + _SCRIPT_VALUE_LOWER),
        ("date", r"_?published" + _SCRIPT_VALUE_LOWER),
        ("first", r"_?publish(?:ed)?_?(?:time|at|date)" + _SCRIPT_VALUE_LOWER),
        ("ct", _SCRIPT_SEPARATOR + _SCRIPT_STAMP),
    )
)  # fmt: skip
# The characters other than ASCII letters that re.IGNORECASE matches to one (the
# dotted and dotless i, the long s, the Kelvin sign): lower-casing does not.
# (Looked for one by one with ``in``: twenty times faster than a regex class.)
_CASE_FOLDS = ("\u0130", "\u0131", "\u017f", "\u212a")
_SCRIPT_SCAN = 200_000  # characters of one inline script searched for a publication time
_MAX_SCRIPTS = 100
_DATA_DATES = etree.XPath(
    "(/descendant::*/@*[starts-with(name(), 'data-pub') or name() = 'data-timestamp'])"
    "[position() <= 5]"
    "/parent::*"
)
_DATA_DATE_KEY = re.compile(r"data-pub|data-timestamp$")
_DATA_DATE_NAMES = ("data-pub", "data-timestamp")
_LANG_META = ("content-language", "language", "dc.language", "og:locale")
_KEYWORD_META = ("keywords", "news_keywords", "article:tag")
_DESCRIPTION_META = ("description", "og:description", "twitter:description")
# Parts are stripped later. Chinese writes no spaces inside words, so a space
# next to a Han character separates keywords ("经济 金融"); between Latin words it
# does not ("night buses").
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KEYWORD_SPLIT = re.compile(rf"[,，;；、|]|(?<=[{_HAN}])\s+|\s+(?=[{_HAN}])")
_BY = re.compile(r"^(?:by|par|por)\s+|^(?:作者|文)\s?[:：/]?\s?", re.I)
_WRAPPER_START = re.compile(r"^(?://)?\s*(?:<!\[CDATA\[|<!--)")
# Microdata needs a scan of every element, so it is read only when the head gave no
# date or no title. The scan goes through the itemprop attributes, not the elements:
# libxml2 then tests one attribute per marked element, ten times faster than
# four attribute look-ups on every element.
_MICRODATA = etree.XPath(
    "/descendant::*/@itemprop[. = 'datePublished' or . = 'dateCreated' or . = 'dateModified'"
    " or . = 'headline']/parent::*[not(self::meta or self::time)]"
)


# Every meta name read_meta reads a value for (a value under any other is skipped).
_READ_META = frozenset(
    (
        *_PUBLISHED_META,
        *_MODIFIED_META,
        *_TITLE_META,
        *_AUTHOR_META,
        *_IMAGE_META,
        *_KEYWORD_META,
        *_DESCRIPTION_META,
        *_SITE_META,
        *_LANG_META,
        "og:url",
        "isaccessibleforfree",
    )
)


def _clean(value: str | None) -> str:
    # str.split() cuts where \s+ matches (both use Py_UNICODE_ISSPACE), without a regex.
    return " ".join(value[:_MAX_VALUE].split()) if value else ""


def _jsonld_nodes(data: Any) -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = []
    stack = [data]
    while stack and len(nodes) < 200:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item[:200]))
        elif isinstance(item, dict):
            nodes.append(item)
            graph = item.get("@graph")
            if graph is not None:
                stack.append(graph)
    return nodes


def _names(value: Any, depth: int = 0, persons: bool = False) -> list[str]:
    """Names in a JSON-LD value; with ``persons``, an Organization's name is not one."""
    if depth > 3:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        if persons and "Organization" in str(value.get("@type") or ""):
            return []
        return _names(value.get("name"), depth + 1)
    if isinstance(value, list):
        return [n for v in value[:20] for n in _names(v, depth + 1, persons)]
    return []


def _image_urls(value: Any, depth: int = 0) -> list[str]:
    """URLs in a JSON-LD ``image``: a string, an ImageObject, or a list of either."""
    if depth > 2:
        return []
    if isinstance(value, str):
        return [value[:_MAX_VALUE]] if value.strip() else []  # as written: see _address
    if isinstance(value, dict):
        return _image_urls(value.get("url") or value.get("contentUrl"), depth + 1)
    if isinstance(value, list):
        return [u for v in value[:5] for u in _image_urls(v, depth + 1)]
    return []


def _absolute(base: str | None, target: str) -> str:
    resolved = absolute_url(base, target)
    return target if resolved is None else resolved


def script_dates(
    meta: PageMeta, root: etree._Element, markup: str | bytes | None = None
) -> list[str]:
    """Publication times that inline scripts (``var ct = "1570496400"``, ``"publish_time":
    ...``, ``"datePublished": "2019-10-08T09:00:00Z"``) or data attributes
    (``data-publish-time``) hold, in page order: the first of each script.

    Weak evidence (a video player's playlist has a ``pubdate`` too), so read only
    when the page shows and declares no date: the scan costs a pass over the scripts.
    ``markup``: what ``root`` was parsed from, if known (the attribute pass is skipped
    when it names no such attribute).
    """
    found: list[str] = []
    budget = _MAX_JSONLD_TOTAL
    for el in meta.scripts:
        text = el.text
        if not text or budget <= 0:
            continue
        budget -= min(len(text), _SCRIPT_SCAN)
        value = script_date(text)
        if value is not None:
            found.append(value)
    if markup is not None and not may_name(markup, _DATA_DATE_NAMES):
        return found[:_MAX_CANDIDATES]
    for el in _DATA_DATES(root):
        if not _in_comments(el):
            found.extend(_clean(v) for k, v in el.items() if _DATA_DATE_KEY.match(k) and v.strip())
    return found[:_MAX_CANDIDATES]


def script_date(text: str) -> str | None:
    """The first publication time in a script's first :data:`_SCRIPT_SCAN`
    characters (as :data:`_SCRIPT_DATE` reads them), or None.

    Searched in the lower-cased text, key by key (:data:`_SCRIPT_KEYS`): the same
    first match, where lower-casing keeps every character in place (one character
    each) and turns no character into what the case-blind regex would not match.
    """
    part = text[:_SCRIPT_SCAN]
    lowered = lower_for_search(part)
    if lowered is None:
        return script_date_slow(part)
    first: re.Match[str] | None = None
    for pattern in _SCRIPT_KEYS:
        m = pattern.search(lowered)
        if m is not None and (first is None or m.start() < first.start()):
            first = m
    if first is None:
        return None
    group = "v" if first.group("v") else "iso"
    return part[first.start(group) : first.end(group)]


def lower_for_search(text: str) -> str | None:
    """``text.lower()``, where a case-sensitive regex of lower-case words finds what
    its case-blind (``re.IGNORECASE``) form finds in ``text``, at the same offsets:
    every character lower-cased in place (one character each), none that the
    case-blind regex folds otherwise (:data:`_CASE_FOLDS`); None where that fails.

    A case-blind regex tries each of its words at every character; a case-sensitive
    one finds its words' first letters by a fast scan first (several times faster).
    """
    lowered = text.lower()
    if len(lowered) != len(text) or (
        not text.isascii() and any(char in text for char in _CASE_FOLDS)
    ):
        return None
    return lowered


def script_date_slow(text: str) -> str | None:
    """:func:`script_date` by :data:`_SCRIPT_DATE` alone (a key after each quote, space
    and comma): for the scripts lower-casing would change, and the reference."""
    for m in _SCRIPT_DATE.finditer(text, 0, _SCRIPT_SCAN):
        if m.group("v") or m.group("key").lower() != "ct":
            return m.group("v") or m.group("iso")
    return None


def author_marks(
    root: etree._Element, markup: str | bytes | None = None, walked: Marks | None = None
) -> list[str]:
    """Short texts of elements marked as the author (``rel=author``, ``itemprop=author``,
    ``class="byline"``), outside comment threads, in page order.

    ``walked``: what the line walk of ``root`` saw of its marks (PageLines.marks), if
    it read the whole tree: then no XPath pass over every attribute is made.
    ``markup``: what ``root`` was parsed from, if known; a page that never spells
    the words has no such element, and no pass over its attributes is made.
    """
    marks: list[str] = []
    if walked is not None:
        elements: list[etree._Element] = walked.elements()
    elif markup is not None and not may_hold(markup, AUTHOR_WORDS):
        return marks
    else:
        elements = AUTHOR_MARKS(root)
    for el in islice(elements, _MAX_MARKED):
        names = (el.get("class") or "").lower()
        if _in_comments(el) or "comment" in names or _CREDIT_CLASS.search(names):
            continue  # a commenter, or a photo's credit
        if len(el) and _CREDIT_INSIDE(el):
            continue
        if any(a.tag == "form" for a in el.iterancestors()):
            continue  # a login form's "Username" field
        text = _clean(el.get("content") or " ".join(el.itertext()))
        if text and len(text) <= _MAX_MARK and text not in marks:
            marks.append(text)
            if len(marks) >= _MAX_MARKS:
                break
    return marks


def jsonld_types(node: dict[str, Any]) -> list[str]:
    """A JSON-LD node's ``@type`` as a list of names (``schema:X`` and URLs as ``X``)."""
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return [k.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for k in kinds[:10] if isinstance(k, str)]


def _is_article_node(node: dict[str, Any]) -> bool:
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(
        isinstance(k, str) and ("Article" in k or k in ("BlogPosting", "Report", "WebPage"))
        for k in kinds
    )


def _read_jsonld(text: str, meta: PageMeta, dates: list[tuple[int, str, str]]) -> None:
    text = text[:_MAX_JSONLD].strip()
    if not text.startswith(("{", "[")):  # wrapped in <![CDATA[ ... ]]> or <!-- ... -->
        text = _WRAPPER_START.sub("", text, count=1)
        for end in ("]]>", "-->"):
            if text.endswith(end):
                text = text[: -len(end)].rstrip().removesuffix("//")
        text = text.strip()
    try:
        # strict=False: CMSs write raw newlines and tabs inside JSON-LD strings.
        data = json.loads(text.rstrip(";"), strict=False)
    except (ValueError, RecursionError):
        return
    nodes = _jsonld_nodes(data)
    meta.jsonld.extend(nodes[: _MAX_JSONLD_NODES - len(meta.jsonld)])
    for node in nodes:
        article = _is_article_node(node)
        for key, rank in (("datePublished", 5), ("dateCreated", 25), ("uploadDate", 26)):
            value = node.get(key)
            if isinstance(value, str) and value.strip():
                dates.append((rank if article else rank + 40, _clean(value), f"jsonld:{key}"))
        modified = node.get("dateModified")
        if isinstance(modified, str):
            meta.modified.append(_clean(modified))
        headline = node.get("headline")
        if isinstance(headline, str) and headline.strip():
            meta.titles.append((_clean(headline), "jsonld"))
        if article:
            meta.authors.extend(_names(node.get("author"), persons=True))
            meta.images.extend(_image_urls(node.get("image")))
            publisher = _names(node.get("publisher"))
            if publisher and not meta.publisher:
                meta.publisher = _clean(publisher[0])
            keywords = node.get("keywords")
            if isinstance(keywords, str):
                meta.keywords.extend(_KEYWORD_SPLIT.split(keywords))
            elif isinstance(keywords, list):
                meta.keywords.extend(k for k in keywords[:50] if isinstance(k, str))
        if node.get("@type") in ("WebSite", "Organization", "NewsMediaOrganization"):
            if not meta.site_name and isinstance(node.get("name"), str):
                meta.site_name = _clean(node["name"])


def _in_comments(el: etree._Element) -> bool:
    """Inside a comment thread (by class, id or schema.org ``itemtype``): its <time>s
    date the comments, not the story.

    <body> and <html> are left out: their classes describe the whole page
    ("comments-page", "has-comments"), and would put the story itself in a thread.
    """
    for ancestor in el.iterancestors():
        if ancestor.tag in ("body", "html"):
            break
        names = " ".join(ancestor.get(key) or "" for key in ("class", "id", "itemtype")).lower()
        if "comment" in names or "reply" in names or "disqus" in names:
            return True
    return False


def _microdata(root: etree._Element, dates: list[Any], meta: PageMeta) -> Iterator[Any]:
    """Microdata elements, if the head (read before this runs: it is chained after
    the head's elements) lacked a date or a title.

    No scan of the markup first for the itemprop values: the XPath pass costs
    less than scanning for four words most pages never spell (aeb: 25.6 against
    33.4 ms for scan and pass, wceb_dev: 201 against 269, first calls)."""
    if not dates or not meta.titles:
        yield from _MICRODATA(root)


@dataclass(slots=True)
class _HeadFinds:
    """What read_meta's pass finds that PageMeta keeps only once the pass is done:
    ranked (dates, images) or chosen from several sources (canonical, language)."""

    dates: list[tuple[int, str, str]] = field(default_factory=list)  # (rank, raw, source)
    images: list[tuple[int, str]] = field(default_factory=list)  # (rank, address)
    canonical: str | None = None
    og_url: str | None = None
    declared_lang: str | None = None


def read_meta(
    root: etree._Element,
    url: str | None = None,
    indexed: list[etree._Element] | None = None,
) -> PageMeta:
    """Collect metadata from the head, microdata and JSON-LD; tolerant of any garbage.

    ``indexed``: the parse's index of the tree (:func:`.dom.parse_document`), if known.
    """
    meta = PageMeta()
    lang = root.get("lang") or root.get("xml:lang")
    if lang and lang.strip():
        meta.language = lang.strip()
    finds = _HeadFinds()
    dates = finds.dates
    elements: Any = (
        root.iter(*META_TAGS)
        if indexed is None
        else [el for el in indexed if el.tag in _META_TAG_SET]
    )
    jsonld_budget = _MAX_JSONLD_TOTAL
    plain_times = 0
    for el in islice(chain(elements, _microdata(root, dates, meta)), _MAX_ELEMENTS):
        tag = el.tag
        if tag == "title":
            if meta.title_tag is None and next(el.iterancestors("svg"), None) is None:
                meta.title_tag = _clean("".join(el.itertext())) or None  # not an icon's
            continue
        if tag == "meta":
            _read_meta_tag(el, meta, finds)
            continue
        if tag == "link":
            _read_link(el, finds)
            continue
        if tag == "script":
            if (el.get("type") or "").strip().lower() == "application/ld+json" and el.text:
                if jsonld_budget > 0:
                    _read_jsonld(el.text, meta, dates)
                    jsonld_budget -= min(len(el.text), _MAX_JSONLD)
            elif len(meta.scripts) < _MAX_SCRIPTS and not el.get("src"):
                meta.scripts.append(el)
            continue
        prop = (el.get("itemprop") or "").strip()
        if tag == "time" and not prop:
            value = _clean(el.get("datetime"))
            if value and el.get("pubdate") is not None:
                dates.append((4, value, "time:pubdate"))
            elif value and plain_times < _MAX_PLAIN_TIMES and not _in_comments(el):
                plain_times += 1
                dates.append((60, value, "time"))
            continue
        _read_itemprop(el, prop, meta, dates)
    _finish_meta(meta, url, finds)
    return meta


def _read_meta_tag(el: etree._Element, meta: PageMeta, finds: _HeadFinds) -> None:
    """Read one ``<meta>``: most name nothing read, the rest fill one field each."""
    # Stripped, not _clean()ed: no name read holds a space, so a name with
    # spaces inside is skipped either way.
    key = (el.get("property") or el.get("name") or el.get("itemprop") or "")
    key = key[:_MAX_VALUE].strip().lower()
    equiv = (el.get("http-equiv") or "").strip().lower()
    if key not in _READ_META and equiv not in _LANG_META:
        return  # viewport, twitter:card, fb:app_id...: nothing read (most of them)
    value = _clean(el.get("content") or el.get("value"))
    if not value:
        return
    if equiv in _LANG_META and not finds.declared_lang:
        finds.declared_lang = value
    if not key:
        return
    if key in _PUBLISHED_META:
        finds.dates.append((_PUBLISHED_META[key], value, f"meta:{key}"))
    elif key in _MODIFIED_META:
        meta.modified.append(value)
    elif key in _TITLE_META:
        meta.titles.append((value, f"meta:{key}"))
    elif key in _AUTHOR_META:
        if not value.startswith(("http:", "https:", "/")) and not _in_nested_item(el):
            meta.author_tags.append(value)
    elif key in _IMAGE_META:
        finds.images.append((_IMAGE_META[key], _address(el)))
    elif key in _KEYWORD_META:
        meta.keywords.extend(_KEYWORD_SPLIT.split(value))
    elif key in _DESCRIPTION_META:
        meta.description = meta.description or value
    elif key in _SITE_META:
        meta.site_name = meta.site_name or value
    elif key in _LANG_META:
        finds.declared_lang = finds.declared_lang or value
    elif key == "og:url":
        finds.og_url = finds.og_url or _address(el)
    elif key == "isaccessibleforfree" and len(meta.free) < _MAX_CANDIDATES:
        meta.free.append(value)


def _in_nested_item(el: etree._Element) -> bool:
    """Whether a microdata ``<meta itemprop>`` belongs to an item that is itself a
    property of another (``itemprop="citation"``, a review, a comment): the author
    of a cited paper, not of the page."""
    if el.get("name") is not None or el.get("property") is not None:
        return False
    for ancestor in el.iterancestors():
        if ancestor.get("itemscope") is not None:
            return ancestor.get("itemprop") is not None
    return False


def _address(el: etree._Element) -> str:
    """A ``<meta>``'s address as written, not _clean()ed: ``http_url`` reads it as a
    browser does, and a browser drops a tab or newline inside (``java\\tscript:`` is
    ``javascript:``) where _clean() would make it a space and a relative link."""
    return (el.get("content") or el.get("value") or "")[:_MAX_VALUE]


def _read_link(el: etree._Element, finds: _HeadFinds) -> None:
    """Read one ``<link>``: the first canonical address, and ``image_src`` images."""
    rel = (el.get("rel") or "").lower().split()
    if "canonical" in rel and finds.canonical is None and el.get("href", "").strip():
        finds.canonical = el.get("href", "").strip()
    elif "image_src" in rel and el.get("href", "").strip():
        finds.images.append((len(_IMAGE_META) + 1, el.get("href", "").strip()))


def _read_itemprop(
    el: etree._Element, prop: str, meta: PageMeta, dates: list[tuple[int, str, str]]
) -> None:
    """Read one microdata element's published or modified date, or its headline."""
    if prop in ("datePublished", "dateCreated"):
        value = _clean(el.get("datetime") or el.get("content") or "".join(el.itertext()))
        if value and not _in_comments(el):  # a comment's own microdata dates the comment
            dates.append((5 if prop == "datePublished" else 25, value, f"itemprop:{prop}"))
    elif prop == "dateModified":
        value = _clean(el.get("datetime") or el.get("content"))
        if value:
            meta.modified.append(value)
    elif prop == "headline":
        value = _clean(el.get("content") or "".join(el.itertext()))
        if value:
            meta.titles.append((value, "itemprop:headline"))


def _finish_meta(meta: PageMeta, url: str | None, finds: _HeadFinds) -> None:
    """Rank, resolve and bound what the pass found: its sources disagree and repeat."""
    images = finds.images
    images += [(len(_IMAGE_META), value) for value in meta.images]  # JSON-LD's, after the tags'
    images.sort(key=lambda item: item[0])
    absolute: dict[str, None] = {}
    for _rank, value in images:  # the first five, once each
        absolute[_absolute(url, value)] = None
        if len(absolute) == _MAX_IMAGES:
            break
    meta.images = list(absolute)
    dates = finds.dates
    dates.sort(key=lambda d: d[0])  # stable: document order within one rank
    meta.published = [(raw, source) for _rank, raw, source in dates]
    meta.language = meta.language or finds.declared_lang
    for target in (finds.canonical, finds.og_url):
        if target:
            resolved = http_url(url, target)  # not javascript:, relative, unresolvable
            if resolved is not None:
                meta.canonical_url = resolved
                break
    meta.published = meta.published[:_MAX_CANDIDATES]
    meta.titles = meta.titles[:_MAX_CANDIDATES]
    meta.modified = meta.modified[:_MAX_CANDIDATES]
    meta.authors = _authors(meta.authors[:200])[:_MAX_CANDIDATES]
    meta.author_tags = _authors(meta.author_tags[:200])[:_MAX_CANDIDATES]
    keywords = (k.strip() for k in meta.keywords[:1000] if k and k.strip())
    meta.keywords = list(dict.fromkeys(keywords))[:100]

def _authors(raw: list[str]) -> list[str]:
    """Clean names: drop 'By', URLs and duplicates, keep order."""
    names: list[str] = []
    for value in raw:
        value = _BY.sub("", _clean(value))
        if value and len(value) <= 100 and not value.startswith(("http:", "https:")):
            names.append(value)
    return list(dict.fromkeys(names))
