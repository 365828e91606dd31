"""An article's long texts as JSON, made in the worker, written as they are by the feed export.

With every format an article is its text three times (``content``,
``content_html``, ``content_markdown``: 40 KB together on the average wceb_dev
page), and Scrapy's JSON exporters encode it in the crawl's process, about 8 ns a
character: the largest share of what the plugin cost that process per page. The
worker that extracted the article encodes these strings instead (:func:`fragments`:
``json``'s own ``encode_basestring`` or ``encode_basestring_ascii``, the functions
Scrapy's encoder calls for a string, then to bytes); the spider middleware offers
them here for the strings it puts into an item (:func:`offer`), and the feed
exporters write a fragment for a value that is still the very same string object
(:func:`written`), so the output is byte for byte what Scrapy's would be.

Scrapy-free: the worker imports it. What is offered is bounded (count and bytes):
an entry goes when an exporter wrote it (one JSON feed open), when the pipeline drops
its item, or when newer entries push it out (a string never exported costs only the
time it was held).
"""

from __future__ import annotations

from collections.abc import Collection
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

__all__ = [
    "LONG",
    "MAX_OFFERED",
    "MAX_OFFERED_BYTES",
    "Fragments",
    "forget",
    "fragments",
    "offer",
    "writer_closed",
    "writer_opened",
    "written",
]

#: Characters a string needs for its JSON to be made in the worker: a shorter one is
#: encoded as fast as it is looked up.
LONG = 512
#: Strings offered and not yet written, at most...
MAX_OFFERED = 1024
#: ... and their bytes (the strings' characters and their fragments' bytes), at most.
MAX_OFFERED_BYTES = 32 << 20

#: field name -> (its JSON as UTF-8 with ``ensure_ascii=False``, its JSON with
#: ``ensure_ascii=True``), either None where not asked for or not encodable.
Fragments = dict[str, tuple[bytes | None, bytes | None]]

# id(string) -> (the string, its two fragments, its size): the string is held, so
# its id names no other object while the entry lives.
_offered: dict[int, tuple[str, bytes | None, bytes | None, int]] = {}
_offered_bytes = 0
_writers = 0


def _plain(text: str) -> bytes | None:
    try:
        return encode_basestring(text).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: Scrapy's exporter fails on it too
        return None


def same_as_ascii(plain: bytes) -> bool:
    """Whether ``ensure_ascii=True`` writes the same bytes: no character past ASCII, and
    no DEL (which only the ASCII encoder escapes)."""
    return plain.isascii() and b"\x7f" not in plain


def fragments(article: Any, ensure_ascii: Collection[bool] = (False,)) -> Fragments:
    """The JSON of each top-level string field of ``article`` of :data:`LONG` characters
    or more, in the forms ``ensure_ascii`` asks for (``False``: UTF-8 bytes of the
    ``ensure_ascii=False`` JSON; ``True``: the ASCII JSON)."""
    made: Fragments = {}
    for name in getattr(article, "__dataclass_fields__", ()):
        value = getattr(article, name)
        if type(value) is not str or len(value) < LONG:
            continue
        plain = _plain(value) if False in ensure_ascii else None
        ascii_json = None
        if True in ensure_ascii:
            if plain is not None and same_as_ascii(plain):
                ascii_json = plain
            else:
                ascii_json = encode_basestring_ascii(value).encode("ascii")
        if plain is not None or ascii_json is not None:
            made[name] = (plain, ascii_json)
    return made


def offer(value: str, plain: bytes | None, ascii_json: bytes | None) -> None:
    """``value`` (a string now in an item) has these fragments; the oldest offers go
    past :data:`MAX_OFFERED` or :data:`MAX_OFFERED_BYTES`."""
    global _offered_bytes
    key = id(value)
    if key in _offered:
        _drop(key)
    size = len(value) + len(plain or b"") + (0 if ascii_json is plain else len(ascii_json or b""))
    _offered[key] = (value, plain, ascii_json, size)
    _offered_bytes += size
    while len(_offered) > MAX_OFFERED or _offered_bytes > MAX_OFFERED_BYTES:
        _drop(next(iter(_offered)))


def _drop(key: int) -> None:
    global _offered_bytes
    entry = _offered.pop(key, None)
    if entry is not None:
        _offered_bytes -= entry[3]


def written(value: str, ensure_ascii: bool) -> bytes | None:
    """The JSON of ``value`` as the exporter writes it, if it was offered; taken out when
    one exporter is open (no other will ask for it)."""
    key = id(value)
    entry = _offered.get(key)
    if entry is None or entry[0] is not value:
        return None
    if _writers == 1:
        _drop(key)
    return entry[2] if ensure_ascii else entry[1]


def forget(values: Collection[Any]) -> None:
    """Drop the offers of these values (an item dropped: no feed will write it)."""
    for value in values:
        if type(value) is str:
            entry = _offered.get(id(value))
            if entry is not None and entry[0] is value:
                _drop(id(value))


def writer_opened() -> None:
    """An exporter that reads offers started (see :func:`written`)."""
    global _writers
    _writers += 1


def writer_closed() -> None:
    global _writers
    _writers = max(0, _writers - 1)


def offered() -> int:
    """How many strings are offered now (for tests and checks)."""
    return len(_offered)
