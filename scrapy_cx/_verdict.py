"""What counts as an article: one rule for the crawl's pipeline and for bulk extraction.

Scrapy-free, so ``python -m scrapy_cx`` (bulk) and the pipeline decide alike on
the same fields; the answer is a short reason (a stats key) or None.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from datetime import date, datetime
from typing import Any

from .settings import CxSettings

__all__ = ["content_length", "invalid_reason", "is_empty", "is_iso_date"]

_ISO_DATE_LENGTH = 10  # "2009-11-09": the shortest ISO 8601 value we accept
# Wide (CJK) characters: one says about as much as two Latin letters, so a
# 120-character Chinese news item is as long as a 240-letter English one.
_WIDE = re.compile(
    r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3"  # Hangul Jamo; CJK, kana, Yi; Hangul
    r"\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60]"  # CJK compatibility; full-width forms
)


def content_length(text: str) -> int:
    """The length the minimum is checked against: characters, wide ones counted twice."""
    text = text.strip()
    if text.isascii():  # (a flag of the string: no scan of a long text)
        return len(text)
    return len(text) + len(_WIDE.findall(text))


def is_empty(value: Any) -> bool:
    """Whether a field counts as not filled in (None, blank text, empty collection)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return not value
    return False


def is_iso_date(value: Any) -> bool:
    """ISO 8601 date or date-time (``2009-11-09``, ``2009-11-09T13:57:00+08:00``)."""
    if isinstance(value, (date, datetime)):
        return True
    if not isinstance(value, str) or len(value) < _ISO_DATE_LENGTH:
        return False
    text = value.strip()
    if text.endswith(("Z", "z")):  # Python < 3.11 does not read the Z suffix
        text = text[:-1] + "+00:00"
    try:
        if len(text) == _ISO_DATE_LENGTH:
            date.fromisoformat(text)
        else:
            datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def invalid_reason(
    fields: Mapping[str, Any],
    min_content_length: int,
    require_published: bool,
    page_types: Collection[str] = CxSettings.page_types,
) -> str | None:
    """Why these fields are not a usable article (a stats key), or None.

    ``fields`` is any mapping of the article's fields: an ``ItemAdapter`` in the
    pipeline, ``Article.to_dict()`` in bulk extraction. A page the extractor
    judged to be of a type not in ``page_types`` is ``page_type_<type>``; the
    length minimum is a sanity check after that.
    """
    content = fields.get("content")
    if content is None or is_empty(content):
        return "no_content"
    page_type = fields.get("page_type")
    if isinstance(page_type, str) and page_type and page_type not in page_types:
        return f"page_type_{page_type}"
    if isinstance(content, str):
        text = content
    elif isinstance(content, (list, tuple)):  # paragraphs
        text = "\n".join(map(str, content))
    else:
        text = str(content)
    if content_length(text) < min_content_length:
        return "short_content"
    if is_empty(fields.get("title")):
        return "no_title"
    published = fields.get("published")
    if is_empty(published):
        return "no_published" if require_published else None
    if not is_iso_date(published):
        return "bad_published"
    return None
