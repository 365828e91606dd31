"""How sure the extractor is that a page is one article (or one thread): a probability.

Zyte's article extraction gives each article a ``probability`` that users filter
on; this is scrapy-cx's. It is a logistic combination of a few signals the
earlier stages already computed (the page type, the schema.org and Open Graph
types the page declares, a date and a byline found, a story's slug in the URL,
the share of its text that is prose, the page's price tags and code blocks), so
it costs one pass over the lines. Its weights were fit on the dev sets' pages (wceb_dev's
page types; every page of the other sets is an article) by
``python -m benchmarks.probability --fit`` (benchmarks/probability.py), which
also prints the calibration table: of the pages scored about 0.8, about 80% are
one article or one thread.
"""

from __future__ import annotations

import math
import re
from urllib.parse import urlsplit

from ..page import Page
from .pagetype import ARTICLE_TYPES, MIN_PROSE_LINE, PROSE_LINK_DENSITY, price_tags

__all__ = ["FEATURES", "WEIGHTS", "features", "find_probability", "probability"]

# Words of a URL's last path part that make it a story's slug ("city-council-votes-
# on-budget"), not a section's or a product's name.
SLUG_WORDS = 4
_SLUG_SPLIT = re.compile(r"[-_+.]+")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")  # ".html", ".php": no word of the slug

#: The signals, in the order of :data:`WEIGHTS` (each 0 or 1 but the last three).
FEATURES = (
    "typed_article",  # page_type: article
    "typed_thread",  # page_type: thread
    "typed_listing",  # page_type: listing (other is the base)
    "declared_article",  # a schema.org Article type (NewsArticle, BlogPosting, Article...)
    "declared_other",  # schema.org types, none an article's (a product, an organization)
    "og_article",  # og:type article (site builders stamp it on more than stories)
    "dated",  # a publication date found
    "bylined",  # an author found
    "slug",  # the URL's last part is a sentence-like slug
    "prose_share",  # share of the text in lines of prose
    "log_prices",  # log10 of 1 + the page's price tags (pagetype.price_tags)
    # log10 of 1 + the page's code blocks (<pre>): a manual's or an app's page. Typed
    # other, such a page reads as an article scored alike; the code tells them apart.
    "log_code_blocks",
)

#: Fit on the 1 892 pages of the dev sets (wceb_dev's silver page types) by
#: ``PYTHONHASHSEED=0 python -m benchmarks.probability --fit --cv 5``; the
#: calibration it printed, and the 5-fold cross-validated one, are in docs/benchmarks.rst.
INTERCEPT = -1.2380
WEIGHTS = (
    3.0554,  # typed_article
    2.8851,  # typed_thread
    -0.5649,  # typed_listing
    -0.0728,  # declared_article
    -0.5597,  # declared_other
    0.9538,  # og_article
    0.3533,  # dated
    1.0047,  # bylined
    0.8576,  # slug
    0.9921,  # prose_share
    -1.7909,  # log_prices
    -0.9672,  # log_code_blocks
)


def features(page: Page) -> tuple[float, ...]:
    """The page's signals, in :data:`FEATURES` order: one pass over its lines."""
    kind = page.page_type
    declared = page.declared
    schema = {name for name in declared if name and not name.startswith("og:")}
    length = prose = 0
    for line in page.selection.body:
        length += line.length
        if line.length >= MIN_PROSE_LINE and line.link_length <= PROSE_LINK_DENSITY * line.length:
            prose += line.length
    prices = price_tags(line for line in page.lines if not line.boilerplate)
    return (
        float(kind == "article"),
        float(kind == "thread"),
        float(kind == "listing"),
        float(bool(schema & ARTICLE_TYPES)),
        float(bool(schema) and not schema & ARTICLE_TYPES),
        float("og:article" in declared),
        float(page.published is not None),
        float(bool(page.authors)),
        float(_slug(page.url)),
        prose / length if length else 0.0,
        math.log10(1 + prices),
        math.log10(1 + page.lines.tags.count("pre")),
    )


def _slug(url: str | None) -> bool:
    """The URL's last path part reads as a sentence: :data:`SLUG_WORDS` words or more."""
    if not url:
        return False
    try:
        path = urlsplit(url).path
    except ValueError:
        return False
    last = _EXTENSION.sub("", path.rstrip("/").rsplit("/", 1)[-1])
    words = [word for word in _SLUG_SPLIT.split(last) if word.isalpha()]
    return len(words) >= SLUG_WORDS


def probability(
    values: tuple[float, ...], intercept: float = INTERCEPT, weights: tuple[float, ...] = WEIGHTS
) -> float:
    """The logistic of the weighted signals, rounded to 3 places."""
    score = intercept + sum(w * x for w, x in zip(weights, values, strict=True))
    return round(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score)))), 3)


def find_probability(page: Page) -> None:
    """Reads the page type, declared types, date, authors, URL and the lines; writes
    ``page.article_probability``: 0 for a page with no text (no article was found,
    whatever else the page shows)."""
    page.article_probability = probability(features(page)) if page.content else 0.0
