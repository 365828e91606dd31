"""What the commands write: files replaced whole, never an input; text safe for a terminal.

``scrapy-cx extract`` and ``scrapy-cx explain`` both write files named by
``-o`` and print names and values taken from pages; the rules for both live
here once. An output that is an input (or lies in a folder being read) is
refused before anything is opened, since opening it would truncate the page or
archive still to be read. An output is written to a temporary file beside it
and renamed onto it only once complete, so a failure, Ctrl-C or a crash leaves
the old file as it was. Control characters from pages and file names are
escaped before they reach a terminal, where an ESC or CSI would move the
cursor, clear the screen or retitle the window.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import sys
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

__all__ = ["Replacement", "clash", "printable", "say"]

# C0 controls but tab, DEL, and C1 controls (the 8-bit CSI U+009B among them).
_CONTROLS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with its control characters written as ``\\x1b``-style escapes.

    Every character of Unicode category Cc but tab: C0 (newline too, so a value
    stays on its line), DEL and C1. The rest, non-ASCII text included, is kept.
    """
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def say(line: str) -> None:
    """``line`` on stderr as ``scrapy-cx: line``, escaped: it names files, pages and URLs."""
    print(f"scrapy-cx: {printable(line)}", file=sys.stderr)


def clash(output: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]]) -> str | None:
    """Why writing ``output`` would destroy an input, or None when it would not.

    Paths are compared resolved (symlinks followed), and with ``samefile``
    where both exist (hard links, another spelling of the same file). An input
    that does not exist (a missing path, a URL) holds nothing to lose.
    """
    out = Path(output)
    target = out.resolve()
    for name in inputs:
        source = Path(name)
        if not source.exists():
            continue
        real = source.resolve()
        shown = printable(os.fspath(name))
        if target == real or (not source.is_dir() and _same_file(out, source)):
            return f"it is the input {shown}"
        if source.is_dir() and real in target.parents:
            return f"it is inside the input folder {shown}"
    return None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:  # the output does not exist yet
        return False


class Replacement:
    """A file written beside ``path`` and renamed onto it by :meth:`commit`.

    Leaving the ``with`` block without ``commit()`` (an error, a return on
    failure, Ctrl-C) removes the temporary file and leaves ``path`` as it was.
    A symlink is kept: the file it names is replaced. A path that exists and
    is not a regular file (``/dev/null``, ``/dev/full``, a named pipe) is
    written in place, as it cannot be replaced. Opening raises ``OSError``
    (missing folder, no permission, a folder named) before anything is written.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = self.real = Path(path)
        self.temp: Path | None = None
        self.mode: int | None = None  # the replaced file's permissions, kept
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.file: BinaryIO = open(self.path, "wb")  # noqa: SIM115 (closed by commit/discard)
            return
        if st is not None:
            self.mode = stat.S_IMODE(st.st_mode)
        self.real = self.path.resolve()
        fd, self.temp = _create_beside(self.real)
        self.file = os.fdopen(fd, "wb")

    def commit(self) -> None:
        """Finish the file and put it in place (raises ``OSError`` if it cannot)."""
        self.file.flush()
        if self.temp is None:
            self.file.close()
            return
        os.fsync(self.file.fileno())
        self.file.close()
        if self.mode is not None:
            os.chmod(self.temp, self.mode)
        os.replace(self.temp, self.real)
        self.temp = None

    def discard(self) -> None:
        """Drop what was written; the old file, if any, stays as it was."""
        with suppress(OSError):  # closing flushes bytes that may not fit either
            self.file.close()
        if self.temp is not None:
            with suppress(OSError):
                self.temp.unlink()
            self.temp = None

    def __enter__(self) -> Replacement:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.discard()


def _create_beside(path: Path) -> tuple[int, Path]:
    """A new hidden file in ``path``'s folder (same file system, so the rename is atomic)."""
    while True:
        temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            # 0o666 less the umask: the permissions open() would have given the output.
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        return fd, temp
