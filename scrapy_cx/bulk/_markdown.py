"""``scrapy-cx extract --markdown-dir``: one Markdown file per article, named after its URL.

A file holds YAML front matter (the fields a reader or a static-site tool files
an article by) and then ``content_markdown``. Every value is written as JSON,
which YAML reads as it is, so no title can break the front matter. The name
comes from the URL but is safe on every system the folder may be copied to:
ASCII letters, digits, ``.``, ``_`` and ``-`` only, lower case (two names that
differ only in case are one file on Windows and macOS), bounded, never a
device name Windows reserves. A name another article already holds is never
written over: the URL's short hash is added (then a counter); the same URL
extracted again replaces its own file, so a rerun updates the folder instead
of doubling it. Files are replaced whole (:class:`Replacement`), never an input
(:func:`clash`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from itertools import count
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..article import Article
from ._output import Replacement, clash

__all__ = ["FRONT_MATTER", "MAX_STEM", "MarkdownDir", "file_stem", "markdown_document"]

#: The article fields of the front matter, in this order.
FRONT_MATTER = ("title", "url", "published", "authors", "site_name", "language")
#: Characters of a name before ``.md`` (and the hash or counter a clash adds).
MAX_STEM = 120
_HOST_PART = 60  # of a long name, the host keeps at most this; the path's end the rest
_HASH = 8  # hex digits of the URL's hash that part two names

# Device names Windows reserves whatever the extension ("con.md" is the console).
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"}
    | {f"{device}{n}" for device in ("com", "lpt") for n in range(10)}
)
_UNSAFE = re.compile(r"[^a-z0-9._-]+")
# Pages saved under their URL's file name: the extension says nothing of the article.
_PAGE_SUFFIX = re.compile(r"\.(s?html?|xhtml|php|aspx?|jsp)(\.gz)?$", re.IGNORECASE)
# What YAML does not take unescaped in a double-quoted scalar, beside the C0
# controls JSON escapes already: DEL, C1 (NEL and U+2028/9 are line breaks to
# YAML 1.1), the byte order mark, non-characters, and lone surrogates (no UTF-8).
_NOT_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
_SCAN_BYTES = 256 * 1024  # of an existing file, read to find its front matter's url


def markdown_document(article: Article) -> str:
    """The file for ``article``: front matter, a blank line, then ``content_markdown``."""
    lines = ["---"]
    for name in FRONT_MATTER:
        value = getattr(article, name)
        lines.append(f"{name}: {_yaml_value(list(value) if isinstance(value, tuple) else value)}")
    lines.append("---")
    body = (article.content_markdown or "").strip("\n")
    return "\n".join(lines) + "\n" + (f"\n{body}\n" if body else "")


def _yaml_value(value: object) -> str:
    """``value`` as JSON on one line: a YAML flow value (double-quoted strings, lists, null)."""
    text = json.dumps(value, ensure_ascii=False)
    return _NOT_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def file_stem(url: str | None, fallback: str) -> str:
    """A file name (without ``.md``) for the article at ``url``: host and path, slugged.

    A ``file:`` URL gives its file's name only (its folders are where the page was
    saved, not what it is). A name too long keeps the host's start and the path's
    end (where the article's slug or number is). ``fallback`` (the page's number)
    names a page whose URL leaves nothing.
    """
    parts = urlsplit(url or "")
    path = unquote(parts.path)
    host = "" if parts.scheme == "file" else parts.netloc.rpartition("@")[2]
    if parts.scheme == "file":
        path = path.rstrip("/").rpartition("/")[2]
    path = _PAGE_SUFFIX.sub("", path)
    if parts.query:
        path += "_" + unquote(parts.query)
    host, path = _slug(host), _slug(path)
    if len(host) + 1 + len(path) > MAX_STEM:
        host = host[:_HOST_PART]
        path = path[len(path) - (MAX_STEM - len(host) - 1) :]
    stem = _slug(f"{host}_{path}") or _slug(fallback) or "page"
    if stem.partition(".")[0] in _RESERVED:
        stem = "_" + stem
    return stem[:MAX_STEM]


def _slug(text: str) -> str:
    """``text`` in the safe characters, runs of others one ``_``, no dot or dash at the ends."""
    return _UNSAFE.sub("_", text.lower()).strip("._-")


class MarkdownDir:
    """Writes each article's document into ``folder``, never over another article or an input."""

    def __init__(
        self, folder: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = ()
    ) -> None:
        self.folder = Path(folder)
        self.inputs = list(inputs)
        self.written = 0

    def write(self, url: str | None, document: str, number: int) -> Path:
        """Write ``document`` (the article at ``url``, the ``number``-th page) and say where.

        Raises ``OSError`` when the file cannot be written (the folder is gone, the disk full).
        """
        for path in self._candidates(file_stem(url, f"page-{number}"), url):
            if self._free_for(path, url):
                with Replacement(path) as out:
                    out.file.write(document.encode("utf-8", "replace"))
                    out.commit()
                self.written += 1
                return path
        raise AssertionError("unreachable: the candidates never end")  # pragma: no cover

    def _candidates(self, stem: str, url: str | None) -> Iterator[Path]:
        yield self.folder / f"{stem}.md"
        digest = hashlib.sha1((url or "").encode("utf-8", "replace")).hexdigest()[:_HASH]
        yield self.folder / f"{stem}-{digest}.md"
        for n in count(2):
            yield self.folder / f"{stem}-{digest}-{n}.md"

    def _free_for(self, path: Path, url: str | None) -> bool:
        """Whether ``path`` may hold the article at ``url``: nothing there, or its own file."""
        if clash(path, self.inputs) is not None:
            return False
        try:
            st = path.lstat()
        except FileNotFoundError:
            return True
        # A folder, a link (it could lead out of the folder) or a device is not ours.
        if not stat.S_ISREG(st.st_mode):
            return False
        return url is not None and front_matter_url(path) == url


def front_matter_url(path: Path) -> str | None:
    """The ``url`` a file's front matter names, or None (not a file this module wrote)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(_SCAN_BYTES).decode("utf-8", "replace").split("\n")
    except OSError:
        return None
    if not head or head[0] != "---":
        return None
    for line in head[1:]:
        if line == "---":
            break
        if line.startswith("url: "):
            try:
                value = json.loads(line[len("url: ") :])
            except ValueError:
                return None
            return value if isinstance(value, str) else None
    return None
