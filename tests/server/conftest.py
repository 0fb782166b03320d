"""Fixtures for the server's tests: an app over a fresh SQLite file, a client, a table."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from seqcam.samples import SAMPLE_DIR
from server.app import create_app

WINNING_PHOTO = SAMPLE_DIR / "sample_01.jpg"  # two teams, blue has won (2 sequences to green's 1)
NO_BOARD_PHOTO = SAMPLE_DIR / "sample_08.jpg"
START_S = 30.0  # a bound for a server to come up, not a speed check


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as c:
        yield c


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/tables", json={"players": 2})
    assert response.status_code == 201, response.text
    return response.json()


def player(table: dict[str, Any]) -> dict[str, str]:
    return {"X-Table-Token": table["token"]}


def send_photo(client: TestClient, table: dict[str, Any], data: bytes, content_type: str = "image/jpeg"):
    return client.post(f"/api/tables/{table['id']}/photos", content=data,
                       headers={**player(table), "Content-Type": content_type})


@pytest.fixture(scope="session")
def winning_photo() -> bytes:
    return WINNING_PHOTO.read_bytes()


@pytest.fixture
def judged_table(client: TestClient, table: dict[str, Any], winning_photo: bytes) -> dict[str, Any]:
    """A table whose latest reading is the winning sample photo."""
    response = send_photo(client, table, winning_photo)
    assert response.status_code == 201, response.text
    return table


def start_server(db: Path, port: int, stderr: int = subprocess.DEVNULL) -> subprocess.Popen:
    """`seqcam serve` over ``db`` on ``port``, in a process of its own, once it answers."""
    server = subprocess.Popen([sys.executable, "-m", "seqcam.cli", "serve", "--port", str(port), "--db", str(db)],
                              stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        assert server.poll() is None, "seqcam serve stopped on its own"
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/setup", timeout=1.0)
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError("seqcam serve did not come up")
