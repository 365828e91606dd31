"""SelectorLoop: the reactor calls the pool makes, turned by a caller with no reactor."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapy_cx.pool import SelectorLoop


@pytest.fixture
def loop() -> Iterator[SelectorLoop]:
    loop = SelectorLoop()
    yield loop
    loop.close()


class Watched:
    """One end of a socket pair, logging what the loop calls it for."""

    def __init__(self, sock: socket.socket, log: list[str], name: str) -> None:
        self.sock, self.log, self.name = sock, log, name
        self.on_read = lambda: None

    def fileno(self) -> int:
        return self.sock.fileno()

    def doRead(self) -> None:  # noqa: N802 - Twisted's name
        self.log.append(f"{self.name} read {self.sock.recv(100)!r}")
        self.on_read()

    def doWrite(self) -> None:  # noqa: N802 - Twisted's name
        self.log.append(f"{self.name} write")


def test_timers_fire_when_due_in_time_order_and_a_cancelled_one_never(
    loop: SelectorLoop,
) -> None:
    fired: list[str] = []
    loop.callLater(0.05, fired.append, "late")
    early = loop.callLater(0.0, fired.append, "early")
    loop.callLater(0.0, fired.append, "early too")
    cancelled = loop.callLater(0.01, fired.append, "cancelled")
    cancelled.cancel()
    assert early.active() and not cancelled.active()
    loop.run_once(0)
    assert fired == ["early", "early too"] and not early.active()
    started = time.monotonic()
    while "late" not in fired:
        loop.run_once(None)  # waits for the next timer, not forever
        assert time.monotonic() - started < 5
    assert fired == ["early", "early too", "late"]


def test_readers_and_writers_are_called_only_while_watched(loop: SelectorLoop) -> None:
    left, right = socket.socketpair()
    log: list[str] = []
    watched = Watched(left, log, "left")
    loop.addWriter(watched)  # a socket with room is writable at once
    loop.run_once(1)
    assert log == ["left write"]
    loop.removeWriter(watched)
    loop.addReader(watched)
    right.send(b"hello")
    loop.run_once(1)
    assert log == ["left write", "left read b'hello'"]
    loop.removeReader(watched)
    right.send(b"unread")
    loop.run_once(0.05)
    assert log == ["left write", "left read b'hello'"]
    left.close()
    right.close()


def test_a_descriptor_a_handler_stopped_watching_is_not_called_in_the_same_turn(
    loop: SelectorLoop,
) -> None:
    log: list[str] = []
    pairs = [socket.socketpair() for _ in range(2)]
    first, second = (Watched(a, log, name) for (a, _), name in zip(pairs, ["a", "b"], strict=True))
    # Whichever is called first stops watching the other, as the pool does when a
    # worker's reply makes it drop another worker.
    first.on_read = lambda: loop.removeReader(second)
    second.on_read = lambda: loop.removeReader(first)
    loop.addReader(first)
    loop.addReader(second)
    for _, far in pairs:
        far.send(b"x")
    loop.run_once(1)
    assert len(log) == 1
    for pair in pairs:
        for sock in pair:
            sock.close()


def test_the_bulk_command_never_imports_twisted(tmp_path: Path) -> None:
    """The pool the bulk command waits on is the crawl's, minus the reactor: Twisted's
    import (~70 ms) stays the crawl's."""
    page = tmp_path / "a.html"
    page.write_text("<html><title>T</title><body><p>Hello there.</p></body></html>")
    code = (
        "import sys\n"
        "from scrapy_cx.__main__ import main\n"
        f"main(['extract', {str(page)!r}, '-o', {str(tmp_path / 'out.jsonl')!r}, '-j', '2'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('twisted', 'scrapy')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
