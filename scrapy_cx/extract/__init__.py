"""Pure extraction: ``html + url -> Article``. Nothing here imports Scrapy."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..article import Article
from .authors import find_authors
from .dates import find_published
from .decode import decode_page
from .dom import parse_html
from .fingerprint import fingerprint as _fingerprint
from .language import guess_language
from .lines import LineOptions, main_text, page_lines, select_main
from .meta import read_meta
from .title import find_title

__all__ = ["extract_article", "LineOptions"]

_DEFAULT_OPTIONS = LineOptions()  # frozen: one instance serves every call


def extract_article(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    reference_time: datetime | None = None,
    date_languages: list[str] | None = None,
    **options: Any,
) -> Article:
    """Extract one article from a page.

    ``html`` may be bytes (decoded as a crawler would; ``encoding`` is the HTTP
    header's charset if known). ``options`` are :class:`LineOptions` fields
    (``block_size``, ``line_cost``, ...). Never raises on bad markup or bytes.
    """
    text, _encoding, utf8 = decode_page(html, encoding)
    root = parse_html(text, utf8)
    meta = read_meta(root, url)
    line_options = LineOptions(**options) if options else _DEFAULT_OPTIONS
    lines = page_lines(root, line_options)
    titles = [meta.title_tag or "", *(value for value, _source in meta.titles)]
    start, end = select_main(lines, line_options, titles)
    content = main_text(lines[start:end])
    title, title_index = find_title(meta, lines, start, end, url)
    language = guess_language(meta.language, content)
    published, published_raw = find_published(
        meta, lines, title_index, start, url, reference_time, date_languages, language, end
    )
    return Article(
        url=url,
        title=title,
        published=published,
        published_raw=published_raw,
        content=content,
        authors=find_authors(meta.authors, lines, title_index, start),
        keywords=tuple(meta.keywords),
        description=meta.description,
        language=language,
        canonical_url=meta.canonical_url,
        fingerprint=_fingerprint(content),
    )
