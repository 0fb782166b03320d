"""Fixtures for the server's tests: an app over a fresh SQLite file, a client, a table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from seqcam.samples import SAMPLE_DIR
from server.app import create_app

WINNING_PHOTO = SAMPLE_DIR / "sample_01.jpg"  # two teams, blue has won (2 sequences to green's 1)
NO_BOARD_PHOTO = SAMPLE_DIR / "sample_08.jpg"


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
