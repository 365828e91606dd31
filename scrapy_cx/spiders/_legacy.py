"""The URL sources that name pages rather than sites: a list, a folder, a start page."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

__all__ = ["flag", "html_files", "local_path", "read_url_list"]

HTML_SUFFIXES = (".html", ".htm")


def flag(value: Any) -> bool:
    """Spider arguments arrive as strings: ``-a follow=1`` / ``yes`` / ``true``."""
    return str(value).strip().lower() in {"1", "yes", "true", "on"}


def read_url_list(path: Path) -> list[str]:
    """URLs from a text file: one per line, blank lines and ``#`` comments ignored.

    A line that names a saved page instead (``pages/a.html``, relative to the
    list's folder) becomes its ``file://`` URL.
    """
    urls = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "://" not in line and (path.parent / line).expanduser().is_file():
            line = (path.parent / line).expanduser().resolve().as_uri()
        urls.append(line)
    return urls


def html_files(folder: Path) -> list[str]:
    """``file://`` URLs of every saved page under ``folder``, in a stable order."""
    files = sorted(
        p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in HTML_SUFFIXES
    )
    return [p.resolve().as_uri() for p in files]


def local_path(uri: str) -> Path | None:
    """The file a feed URI names on this machine (a path or a ``file://`` URI), else None."""
    if uri.startswith("file://"):
        return Path(url2pathname(urlsplit(uri).path))
    if "://" in uri:
        return None
    return Path(uri)
