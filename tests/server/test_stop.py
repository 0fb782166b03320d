"""Ctrl+C on `seqcam serve` while phones hold their live streams: the streams end and the
server exits cleanly (it used to wait for every phone to hang up)."""

from __future__ import annotations

import signal
import subprocess
import threading
from pathlib import Path

import httpx

from server.local import free_port
from tests.server.conftest import start_server

STOP_S = 20.0  # a bound for the server to exit, not a speed check: without the fix it never does


def test_ctrl_c_ends_the_phones_streams_and_stops_the_server(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path / "t.sqlite3", port, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    table = httpx.post(base + "/api/tables", json={"players": 2}).json()
    lines: list[str] = []
    listening = threading.Event()

    def phone() -> None:
        with httpx.stream("GET", f"{base}/api/tables/{table['id']}/stream", timeout=httpx.Timeout(5.0, read=60.0)) as stream:
            for line in stream.iter_lines():
                lines.append(line)
                listening.set()

    watcher = threading.Thread(target=phone, daemon=True)
    watcher.start()
    assert listening.wait(10.0), "the live stream never opened"
    server.send_signal(signal.SIGINT)
    try:
        _, stderr = server.communicate(timeout=STOP_S)
    except subprocess.TimeoutExpired:
        server.kill()
        raise AssertionError("seqcam serve did not stop while a phone was listening") from None
    watcher.join(5.0)
    assert not watcher.is_alive(), "the phone's stream was left open"
    assert server.returncode == 0 and lines[0] == "retry: 1000"
    assert stderr.decode().strip() == "", stderr.decode()  # no traceback, no cancelled tasks
