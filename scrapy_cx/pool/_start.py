"""How many workers, how they start, and what they build before their first page.

Nothing here imports Scrapy.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from multiprocessing.context import BaseContext

__all__ = [
    "auto_workers",
    "default_context",
    "prestart",
    "resolve_workers",
    "warm_up_extractor",
    "warm_up_for",
]

#: Modules the fork server imports once, so a new worker starts in milliseconds...
PRELOAD = ["scrapy_cx.extract"]
#: ... and with the extractor warmed there too (:mod:`._forkserver`): each worker
#: inherits what the server built.
WARM_PRELOAD = ["scrapy_cx.pool._forkserver"]


#: Workers ``auto`` starts at least: with one, a page that takes its full deadline
#: holds up every other page's article meanwhile.
MIN_AUTO_WORKERS = 2


def auto_workers() -> int:
    """One worker per core this process may run on, less one for the process itself,
    and at least :data:`MIN_AUTO_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(MIN_AUTO_WORKERS, cores - 1)


def resolve_workers(value: object) -> int:
    """``auto`` -> :func:`auto_workers`; a number (also as text) >= 0 -> itself."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return auto_workers()
    number = -1
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    if number < 0:
        raise ValueError(f"workers must be 'auto' or a number >= 0, not {value!r}")
    return number


def prestart(context: BaseContext | None = None) -> None:
    """Start ``context``'s fork server now (default: :func:`default_context`), so that
    its imports and warm-up overlap what the caller does before its first page:
    the first worker's start waits for them (seconds), and a crawl's reactor with it."""
    context = context or default_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def default_context(*, warm: bool = True) -> BaseContext:
    """A fork server where there is one: a crawl's process has threads, which plain
    ``fork`` must not copy, and ``spawn`` would import the extractor per worker.

    ``warm``: the server also warms the extractor for all its workers (seconds, once;
    :mod:`._forkserver`). A process has one fork server: the first pool to start it
    decides."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(WARM_PRELOAD if warm else PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


_WARM_UP_PAGE = (
    "<html lang='en'><head><title>Warm-up page | Gazette</title></head><body>"
    "<h1>Warm-up page</h1><p>Published on 3 March 2024 at 09:00, 2 hours ago.</p>"
    "<p>This paragraph is long enough to be taken for the main text of an article.</p>"
    "</body></html>"
)


def warm_up_extractor() -> None:
    """Extract one small page: a worker's first real page then costs what the others do
    (the first date parse loads dateparser's language data, seconds on a busy machine).
    Every format is made, so whichever ``CX_FORMATS`` asks for is warm too."""
    from ..article import FORMATS
    from ..extract import extract_article

    extract_article(_WARM_UP_PAGE, "http://warm.up/", formats=FORMATS)


#: A date string that no dateparser locale takes: trying it builds every locale's
#: word splitter, which any later string no locale takes would otherwise build.
_NO_LOCALE_DATE = "0 qqqq 0"


def warm_up_locales() -> None:
    """Build dateparser's splitter of every locale now, once, in the fork server.

    Asked for a date with no language given, dateparser compiles a word-splitting
    regex for each of its ~200 locales it tries, and a string none takes tries them
    all: htmldate sends such strings on most undated pages, so each new worker paid
    seconds of CPU and ~55 MB for it on its first one, and again after each recycling.
    """
    import dateparser

    dateparser.DateDataParser().get_date_data(_NO_LOCALE_DATE)


def warm_up_for(extract: Callable[..., object], warm_up: Callable[[], object]) -> None:
    """Run ``warm_up``; ``extract`` is an argument only so that it is unpickled, that is
    its module imported, when the worker starts. A subclass's extractor in a module of
    its own (which may import Scrapy: seconds on a busy machine) was imported by the
    first page's task, inside that page's deadline: the first page of each new worker
    timed out under load."""
    del extract
    warm_up()


class _main_hidden:  # noqa: N801 - used as a statement, like contextlib's
    """Start a worker without running the parent's ``__main__`` script in it.

    A fork server or spawned process imports the script the parent was started
    with; a crawl script without an ``if __name__ == "__main__"`` guard (as in
    Scrapy's "run from a script" docs) would start its whole crawl again in
    every worker. Workers need only importable modules, so the script is hidden
    from multiprocessing while a worker starts.
    """

    def __enter__(self) -> None:
        main = sys.modules.get("__main__")
        self._saved = (main, getattr(main, "__file__", None), getattr(main, "__spec__", None))
        if main is not None:
            main.__spec__ = None
            if self._saved[1] is not None:
                del main.__file__

    def __exit__(self, *exc: object) -> None:
        main, path, spec = self._saved
        if main is not None:
            main.__spec__ = spec
            if path is not None:
                main.__file__ = path
