"""Scrapy's JSON and JSON lines exporters, writing the worker's JSON of long strings as it is.

Byte for byte what Scrapy's exporter of the same class writes: the fields are
Scrapy's own (:meth:`get_serialized_fields`, with ``FEED_EXPORT_FIELDS``,
serializers and empty fields as the Scrapy version in use has them), each run of
ordinary fields is encoded by the exporter's own encoder, and between them a
string offered by the spider middleware (:mod:`._fragments`) is written from its
fragment, the ``json`` encoder's own output for it. Where the splice could differ
(an ``indent``, ``sort_keys``, an encoder of another kind, an output encoding
other than UTF-8 for ``ensure_ascii=False`` or than an ASCII superset for
``ensure_ascii=True``) the item goes to Scrapy's ``export_item`` unchanged.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterable
from typing import Any

from scrapy import exporters
from scrapy.settings import BaseSettings
from scrapy.utils.misc import load_object
from scrapy.utils.python import to_bytes

from ._fragments import LONG, writer_closed, writer_opened, written

__all__ = ["JsonItemExporter", "JsonLinesItemExporter", "json_forms"]

#: Every printable ASCII character and the newline: an encoding that writes these as
#: ASCII does writes an ``ensure_ascii`` JSON text as ASCII does.
_ASCII_PROBE = "".join(map(chr, range(32, 127))) + "\n"


def _splice_form(encoder: Any, encoding: str | None) -> bool | None:
    """The ``ensure_ascii`` of the fragments this exporter can splice, or None (none)."""
    kind = type(encoder)
    if not isinstance(encoder, json.JSONEncoder) or encoder.indent is not None:
        return None
    if encoder.sort_keys or kind.encode is not json.JSONEncoder.encode:
        return None
    if kind.iterencode is not json.JSONEncoder.iterencode:
        return None
    name = "utf-8" if encoding is None else encoding  # as Scrapy's to_bytes reads it
    try:
        codec = codecs.lookup(name).name
        ascii_superset = _ASCII_PROBE.encode(name) == _ASCII_PROBE.encode()
    except (LookupError, UnicodeError):  # Scrapy's own path: it fails as it does
        return None
    if encoder.ensure_ascii:
        return True if ascii_superset else None
    return False if codec == "utf-8" else None


def _scrapys_fields(kind: type) -> bool:
    """Whether ``kind`` selects and serializes fields as Scrapy's base exporter does: then
    a plain dict's fields are the dict itself (its keys in order, values unchanged)."""
    base = exporters.BaseItemExporter
    names = (
        "serialize_field",
        "get_serialized_fields",  # Scrapy 2.13+
        "_get_serialized_fields",  # before
        "_get_populated_field_names",
    )
    return all(getattr(kind, name, None) is getattr(base, name, None) for name in names)


class _Splicing:
    """What both exporters share: the line of an item, fragments spliced in."""

    encoder: Any
    encoding: str | None
    fields_to_export: Any

    def _start_splicing(self) -> None:
        self._form = _splice_form(self.encoder, self.encoding)
        self._keys: dict[str, bytes] = {}
        self._separator = b""
        if self._form is not None:
            self._separator = self._bytes(self.encoder.item_separator)
        fields: Callable[[Any], Iterable[tuple[Any, Any]]] | None
        fields = getattr(self, "get_serialized_fields", None)  # Scrapy 2.13+
        if fields is None:
            fields = self._get_serialized_fields  # type: ignore[attr-defined]
        self._fields = fields
        self._dict_as_is = self.fields_to_export is None and _scrapys_fields(type(self))
        self._open = self._form is not None
        if self._open:
            writer_opened()

    def _stop_splicing(self) -> None:
        if self._open:
            self._open = False
            writer_closed()

    def _encoded(self, item: Any, end: bytes = b"") -> bytes:
        """The item's JSON as Scrapy's exporter encodes it, to bytes, then ``end``."""
        form = self._form
        assert form is not None
        if self._dict_as_is and type(item) is dict and all(isinstance(k, str) for k in item):
            itemdict = item  # what Scrapy's fields of a plain dict are, on every version
        else:
            itemdict = dict(self._fields(item))
        parts: list[bytes] = []
        run: dict[Any, Any] = {}
        for name, value in itemdict.items():
            if type(value) is str and len(value) >= LONG and type(name) is str:
                fragment = written(value, form)
                if fragment is not None:
                    if run:
                        parts.append(self._run(run))
                        run = {}
                    parts.append(self._key(name) + fragment)
                    continue
            run[name] = value
        if not parts:
            return self._bytes(self.encoder.encode(itemdict)) + end
        if run:
            parts.append(self._run(run))
        pieces = [b"{"]  # joined once: a line is long, each concatenation would copy it
        for part in parts:
            pieces += (part, self._separator)
        pieces[-1] = b"}" + end
        return b"".join(pieces)

    def _bytes(self, text: str) -> bytes:
        return to_bytes(text, self.encoding)

    def _run(self, run: dict[Any, Any]) -> bytes:
        return self._bytes(self.encoder.encode(run)[1:-1])

    def _key(self, name: str) -> bytes:
        key = self._keys.get(name)
        if key is None:
            key = self._bytes(self.encoder.encode(name) + self.encoder.key_separator)
            self._keys[name] = key
        return key


class JsonLinesItemExporter(_Splicing, exporters.JsonLinesItemExporter):
    """Scrapy's JSON lines exporter; the add-on registers it for ``jsonlines``, ``jsonl``
    and ``jl`` unless the project chose its own (``FEED_EXPORTERS``)."""

    def __init__(self, file: Any, **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        self._start_splicing()

    def export_item(self, item: Any) -> None:
        if self._form is None:
            super().export_item(item)
        else:
            self.file.write(self._encoded(item, b"\n"))

    def finish_exporting(self) -> None:
        super().finish_exporting()
        self._stop_splicing()


class JsonItemExporter(_Splicing, exporters.JsonItemExporter):
    """Scrapy's JSON (array) exporter; the add-on registers it for ``json`` unless the
    project chose its own. With ``FEED_EXPORT_INDENT`` above 0 it is Scrapy's, unchanged."""

    def __init__(self, file: Any, **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        self._start_splicing()

    def export_item(self, item: Any) -> None:
        if self._form is None:
            super().export_item(item)
            return
        data = self._encoded(item)
        self._add_comma_after_first()
        self.file.write(data)

    def finish_exporting(self) -> None:
        super().finish_exporting()
        self._stop_splicing()


def json_forms(settings: BaseSettings) -> frozenset[bool]:
    """The ``ensure_ascii`` values of the crawl's feeds that these exporters write with
    fragments: the forms worth making in the worker (none: no such feed, and the workers
    make none). A feed they would write Scrapy's way (an indented JSON array, sorted keys,
    an encoding no fragment is in) asks for nothing."""
    forms: set[bool] = set()
    exporter_paths = settings.getwithbase("FEED_EXPORTERS")
    for options in (settings.getdict("FEEDS") or {}).values():
        options = options or {}
        path = exporter_paths.get(str(options.get("format")))
        try:
            cls = load_object(path) if path else None
        except (ImportError, NameError, AttributeError, ValueError):
            continue  # Scrapy reports it
        if not (isinstance(cls, type) and issubclass(cls, _Splicing)):
            continue
        kwargs = options.get("item_export_kwargs") or {}
        indent = options.get("indent", settings.get("FEED_EXPORT_INDENT"))
        if kwargs.get("sort_keys") or (issubclass(cls, JsonItemExporter) and _indented(indent)):
            continue
        encoding = options.get("encoding") or settings.get("FEED_EXPORT_ENCODING")
        ensure_ascii = bool(kwargs.get("ensure_ascii", not encoding))
        probe = json.JSONEncoder(ensure_ascii=ensure_ascii)
        if _splice_form(probe, encoding or None) is not None:
            forms.add(ensure_ascii)
    return frozenset(forms)


def _indented(indent: Any) -> bool:
    try:
        return indent is not None and int(indent) > 0
    except (TypeError, ValueError):
        return False
