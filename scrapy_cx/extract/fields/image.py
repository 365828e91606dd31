"""The lead image: what the page declares for sharing, else the first large picture of the story.

og:image, twitter:image and JSON-LD ``image`` are chosen by the publisher for
this article; a site that has none for a page often puts its logo there, so
logos, icons and tracking pixels are refused wherever they come from. Without a
declared image, the first large ``<img>`` after the headline (outside menus,
sidebars, author boxes and comments) is the lead image. Always an absolute URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice

from lxml import etree

from .._urls import http_url
from ..page import Evidence, Page

_MIN_SIDE = 200  # pixels (width or height attribute): smaller pictures are icons or avatars
_MAX_IMAGES = 40  # <img> elements looked at
_MAX_URL = 2000
# A logo, an icon, a sprite, a spacer or a tracking pixel, by its file or folder name.
_NOT_LEAD = re.compile(
    r"logo|icon|favicon|sprite|pixel|spacer|blank\.|transparent|placeholder|avatar|badge|banner|"
    r"(?:^|[/_.-])(?:ads?|advt|adverts?)(?:[/_.-]|$)|doubleclick|/emoji|gravatar|1x1|feedburner|"
    r"/share[_-]?|button|qr_?code",
    re.I,
)
# The same, for an ASCII path already lower-cased: re's IGNORECASE costs four times
# the match (it folds every character; outside ASCII it also folds "ſ" to "s").
_NOT_LEAD_LOWER = re.compile(_NOT_LEAD.pattern)
# Ancestors whose class or id names say they are not the story.
_NOT_STORY = re.compile(
    r"nav|menu|header|footer|sidebar|aside|related|recommend|promo|advert|\bads?\b|logo|"
    r"author|avatar|comment|share|social|teaser|newsletter|widget|banner|masthead",
    re.I,
)
_PICTURE = re.compile(r"\.(?:jpe?g|png|webp|avif)$", re.I)
_LAZY = ("data-src", "data-original", "data-lazy-src", "data-url", "src")


def is_lead_candidate(url: str) -> bool:
    """Whether ``url`` may be a lead image: an http(s) picture, not a logo, icon or pixel."""
    if not url or url.startswith("data:") or len(url) > _MAX_URL:
        return False
    path = url.split("?", 1)[0].lower()
    not_lead = _NOT_LEAD_LOWER if path.isascii() else _NOT_LEAD
    return not not_lead.search(path) and not path.endswith((".svg", ".ico"))


def _side(value: str | None) -> int:
    digits = re.match(r"\s*(\d+)", value or "")
    return int(digits.group(1)) if digits else 0


def _in_story(el: etree._Element) -> bool:
    for ancestor in islice(el.iterancestors(), 12):
        if ancestor.tag in ("nav", "header", "footer", "aside"):
            return False
        names = f"{ancestor.get('class') or ''} {ancestor.get('id') or ''}"
        if names.strip() and _NOT_STORY.search(names):
            return False
    return True


def _src(el: etree._Element) -> str | None:
    for key in _LAZY:
        value = el.get(key)
        if value and not value.startswith("data:"):
            return value
    srcset = (el.get("srcset") or el.get("data-srcset") or "")[:_MAX_URL]  # its first candidate
    if srcset:
        return srcset.split(",")[0].split()[0] if srcset.split() else None
    return None


def body_image(root: etree._Element, base: str | None) -> str | None:
    """The first large picture after the headline (the first ``<h1>``), or anywhere
    on a page without one. One pass over the tree: the first pictures before any
    ``<h1>`` are kept aside, and are the ones read if no ``<h1>`` follows."""
    elements = root.iter("h1", "img")
    early: list[etree._Element] = []
    for el in elements:
        if el.tag == "h1":
            break  # the headline: the pictures after it count
        if len(early) < _MAX_IMAGES:
            early.append(el)
    else:
        return _first_lead(early, base)  # no headline
    return _first_lead(islice((el for el in elements if el.tag == "img"), _MAX_IMAGES), base)


def _first_lead(images: Iterable[etree._Element], base: str | None) -> str | None:
    """The absolute URL of the first of ``images`` that may be the lead picture."""
    for el in images:
        src = _src(el)
        if not src or not is_lead_candidate(src) or src.split("?", 1)[0].endswith(".gif"):
            continue  # a GIF in the text is an animation or a pixel, rarely the lead
        width, height = _side(el.get("width")), _side(el.get("height"))
        if (width or height) and max(width, height) < _MIN_SIDE:
            continue
        if not (width or height) and not _PICTURE.search(src.split("?", 1)[0]):
            continue  # no size and no picture file name: a counter, a status badge
        if not (width or height) and el.getparent() is not None:
            if el.getparent().tag not in ("figure", "picture", "a", "p", "div", "span"):
                continue
        if not _in_story(el):
            continue
        absolute = http_url(base, src)
        if absolute:
            return absolute
    return None


def find_image(page: Page) -> None:
    """Fill ``page.image``: the declared lead image if it is one, else the first large
    picture of the story; and where it was found."""
    base = page.meta.canonical_url or page.url
    for url in page.meta.images:
        absolute = http_url(base, url)
        if absolute and is_lead_candidate(absolute):
            page.image = absolute
            page.evidence["image"] = Evidence("meta:image", None, url)
            return
    page.image = body_image(page.root, base)
    if page.image is not None:
        page.evidence["image"] = Evidence("img", None, page.image)
