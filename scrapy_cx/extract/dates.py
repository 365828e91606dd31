"""The publication date: visible text near the headline, then metadata, then the URL."""

from __future__ import annotations

from datetime import datetime

import dateparser

from .lines import Line
from .meta import PageMeta


def find_published(
    meta: PageMeta,
    lines: list[Line],
    title_index: int | None,
    main_start: int,
    url: str | None,
    reference_time: datetime | None = None,
    languages: list[str] | None = None,
) -> tuple[str | None, str | None]:
    """Return ``(iso8601, raw)`` or ``(None, None)``."""
    for raw, _source in meta.published:
        parsed = dateparser.parse(raw, settings={"RETURN_AS_TIMEZONE_AWARE": False})
        if parsed is not None:
            return parsed.isoformat(), raw
    return None, None
