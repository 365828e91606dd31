"""End to end: leaving ``scrapy shell`` with the add-on on, as a user does.

The shell runs the crawl's reactor in a thread and never stops the crawler:
the interpreter's exit is the only end the worker pool sees. Multiprocessing's
exit handler killed the workers, the pool (still driven by the reactor thread)
started new ones, and the handler then waited on those for good: about one exit
in four hung (the user's report: 60 s, then Ctrl-C), and some printed EOFError
tracebacks. The pool now stops itself first at exit.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.crawl import EXAMPLE_PROJECT

#: Exits tried: on the old code one in four hung, so six show it almost always.
EXITS = 6


def test_leaving_the_shell_is_quiet_and_at_once() -> None:
    page = sorted((EXAMPLE_PROJECT / "news" / "pages").glob("*.html"))[0]
    env = dict(os.environ, SCRAPY_PYTHON_SHELL="python", PYTHONFAULTHANDLER="1")
    command = [sys.executable, "-m", "scrapy", "shell", page.as_uri(), "--nolog"]
    for attempt in range(EXITS):
        try:
            proc = subprocess.run(
                command,
                input='print("TITLE", response.meta["cx_article"].title)\n',
                cwd=EXAMPLE_PROJECT,
                env=env,
                capture_output=True,
                text=True,
                timeout=60,  # a hang, not a slow start: an exit takes a few seconds
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"exit {attempt + 1} hung: {exc.stderr!r}"[-3000:]) from None
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "TITLE " in proc.stdout  # the article was extracted in a worker
        assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr[-3000:]
