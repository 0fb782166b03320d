"""Runs the app on a free loopback port in a background thread: for the browser tests, the
screenshots and the load check, which need a real server rather than a TestClient."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from server.app import create_app

START_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_server(db_path: Path) -> Iterator[str]:
    """The base URL of a server over ``db_path``, stopped when the block ends."""
    with serving(create_app(db_path)) as url:
        yield url


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """The base URL of ``app`` served on a free loopback port, stopped when the block ends."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="seqcam-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
