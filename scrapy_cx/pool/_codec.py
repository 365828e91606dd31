"""A task's result as one compact record: ``marshal`` bytes instead of a pickled object graph.

A pickled :class:`~scrapy_cx.Article` is an object graph: unpickling it calls
``dataclasses.fields`` and a ``__setstate__`` per dataclass (the article, each of
its images and posts), which cost the crawl's process more than the rest of the
article's way back. Here a dataclass travels as a plain tuple of its field
values, marked by a leading ``...`` and its class's import path, so ``marshal``
(C, no lookups, about a copy of the strings) reads it back, and the classes are
rebuilt field by field, as pickle rebuilds them (``__init__`` is not called).

Generic over the dataclass's fields: a field added to ``Article`` (or to a
dataclass one of its fields holds) travels with no change here. A value
``marshal`` cannot hold (a ``datetime``, an object of some other class) makes
the whole record a pickle, so every result crosses, the fast way when it can.
"""

from __future__ import annotations

import dataclasses
import importlib
import marshal
import pickle
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

__all__ = ["call_packed", "call_prepared", "loads_once", "pack", "prepare_call", "unpack"]

#: The first byte of a record: how the rest is encoded (``m``: marshal, with no marked
#: tuple in it, so nothing to rebuild: an article's fields, a verdict, JSON).
_MARSHAL = b"M"
_PLAIN_MARSHAL = b"m"
_PICKLE = b"P"
#: Leads a tuple that stands for a dataclass: ``(..., "module:Qualname", *values)``; a
#: real tuple that starts with ``...`` is escaped as ``(..., None, *items)``.
_MARK = ...
_PLAIN = (str, int, float, bool, bytes, type(None), type(...))

# class -> its import path and its fields' names; import path -> class, its fields'
# names, and whether its __init__ rebuilds it.
_paths: dict[type, tuple[str, tuple[str, ...]]] = {}
_classes: dict[str, tuple[type, tuple[str, ...], bool]] = {}


class _Unmarshallable(TypeError):
    """A value the marshal record cannot hold: the record is pickled instead."""


def _describe(cls: type) -> tuple[str, tuple[str, ...]]:
    known = _paths.get(cls)
    if known is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        known = _paths[cls] = (f"{cls.__module__}:{cls.__qualname__}", names)
    return known


def _by_init(cls: type) -> bool:
    """Whether ``cls(*values)`` rebuilds an instance exactly (every field is an argument
    of ``__init__``, in order, and nothing runs after): the generated ``__init__`` sets
    the fields faster than a loop here does."""
    plain_init = all(f.init and not f.kw_only for f in dataclasses.fields(cls))
    return plain_init and not hasattr(cls, "__post_init__")


def _plain(value: Any, marks: list[int]) -> Any:
    """``value`` as nested tuples, lists, dicts and scalars only; ``marks[0]`` counts the
    marked tuples made (none: :func:`unpack` has nothing to rebuild)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        items = tuple([_plain(item, marks) for item in value])
        if items and items[0] is _MARK:
            marks[0] += 1
            return (_MARK, None, *items)
        return items
    if kind is list:
        return [_plain(item, marks) for item in value]
    if kind is dict:
        return {_plain(k, marks): _plain(v, marks) for k, v in value.items()}
    if kind in (frozenset, set):
        return kind([_plain(item, marks) for item in value])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        path, names = _describe(kind)
        marks[0] += 1
        return (_MARK, path, *(_plain(getattr(value, name), marks) for name in names))
    raise _Unmarshallable(kind.__name__)


def _class(path: str) -> tuple[type, tuple[str, ...], bool]:
    known = _classes.get(path)
    if known is None:
        module, _, qualname = path.partition(":")
        target: Any = importlib.import_module(module)
        for part in qualname.split("."):
            target = getattr(target, part)
        known = _classes[path] = (target, _describe(target)[1], _by_init(target))
    return known


_CONTAINERS = frozenset({tuple, list, dict})
_new = object.__new__
_set = object.__setattr__  # a frozen dataclass's own __init__ sets its fields so too


def _build(value: Any) -> Any:
    """The inverse of :func:`_plain`. Only containers are walked, and only those that
    hold containers are rebuilt: a tuple of strings is marshal's own, as it is."""
    kind = type(value)
    if kind is tuple:
        if value and value[0] is _MARK:
            return _build_marked(value)
        return tuple(map(_build, value)) if _nested(value) else value
    if kind is list:
        return list(map(_build, value)) if _nested(value) else value
    if kind is dict:
        return {_build(k): _build(v) for k, v in value.items()}
    return value


def _build_marked(value: tuple[Any, ...]) -> Any:
    path = value[1]
    if path is None:  # an escaped tuple
        return tuple(map(_build, value[2:]))
    cls, names, by_init = _class(path)
    values: Sequence[Any] = value[2:]
    if len(values) != len(names):
        raise ValueError(f"{path}: {len(values)} values for {len(names)} fields")
    if _nested(values):
        values = [_build(item) if type(item) in _CONTAINERS else item for item in values]
    if by_init:
        return cls(*values)
    obj: Any = _new(cls)  # as pickle rebuilds it: no __init__, no __post_init__
    for name, item in zip(names, values, strict=True):
        _set(obj, name, item)
    return obj


def _nested(items: Sequence[Any]) -> bool:
    """Whether any item is a container (else the sequence is its own rebuilt self)."""
    return any(map(_CONTAINERS.__contains__, map(type, items)))


def pack(value: Any) -> bytes:
    """``value`` as one record :func:`unpack` reads back (a copy equal to it)."""
    marks = [0]
    try:
        plain = _plain(value, marks)
        return (_MARSHAL if marks[0] else _PLAIN_MARSHAL) + marshal.dumps(plain)
    except (_Unmarshallable, ValueError):
        return _PICKLE + pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def unpack(record: bytes) -> Any:
    """The value :func:`pack` made ``record`` of."""
    kind = record[:1]
    if kind == _PLAIN_MARSHAL:  # nothing marked: marshal's own value is the value
        return marshal.loads(memoryview(record)[1:])
    if kind == _MARSHAL:
        return _build(marshal.loads(memoryview(record)[1:]))
    return pickle.loads(memoryview(record)[1:])


def call_packed(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    judge: Callable[[Any], Any] | None = None,
    prepare: Callable[[Any], Any] | None = None,
    shape: Callable[[Any], Any] | None = None,
) -> bytes:
    """Run ``function(*args, **kwargs)`` in a worker and return ``(result, judge(result),
    prepare(result))`` packed (None for either not given): the crawl's process only
    unpacks it. ``judge`` and ``prepare`` (importable, or ``functools.partial`` of one) do
    in the worker what the parent would do next with the result: the article rule, and
    the JSON of its long texts for the feed export. ``shape``: what of the result crosses
    (an article's fields, which the parent's item takes as they are), else the result."""
    result = function(*args, **kwargs)
    verdict = None if judge is None else judge(result)
    prepared = None if prepare is None else prepare(result)
    return pack((result if shape is None else shape(result), verdict, prepared))


def prepare_call(
    function: Callable[..., Any],
    kwargs: dict[str, Any],
    judge: Callable[[Any], Any] | None = None,
    prepare: Callable[[Any], Any] | None = None,
    shape: Callable[[Any], Any] | None = None,
) -> bytes:
    """What every task of a run shares (the function, its fixed keyword arguments, the
    judge, the preparer and the shape), pickled once: a task then carries these bytes and
    its own arguments (:func:`call_prepared`), not a pickle of the same objects per page,
    which cost a 16-worker crawl's process more than the page's own arguments."""
    return pickle.dumps((function, kwargs, judge, prepare, shape), pickle.HIGHEST_PROTOCOL)


@lru_cache(maxsize=8)
def loads_once(blob: bytes) -> Any:
    """What a run pickled once for all its tasks (a prepared call, the bulk command's
    options), unpickled once per worker: the same bytes come with every task."""
    return pickle.loads(blob)


def call_prepared(call: bytes, *args: Any, **kwargs: Any) -> bytes:
    """:func:`call_packed` of the call :func:`prepare_call` made, with this task's own
    positional arguments and keyword arguments (over the fixed ones)."""
    function, fixed, judge, prepare, shape = loads_once(call)
    return call_packed(function, args, {**fixed, **kwargs}, judge, prepare, shape)
