"""Faults the server must survive: a database that cannot be written (disk full, read-only)
is reported with a code, changes nothing, and is recovered from once writable again."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import NO_BOARD_PHOTO, WINNING_PHOTO, player, send_photo


def raw_db(client: TestClient) -> sqlite3.Connection:
    return client.app.state.store._db  # the fault is injected into SQLite itself, not around the store


@contextmanager
def disk_full(client: TestClient) -> Iterator[None]:
    """SQLite's own 'database or disk is full': the file may not grow by a single page."""
    db = raw_db(client)
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute(f"PRAGMA max_page_count={pages}")
    try:
        yield
    finally:
        db.execute("PRAGMA max_page_count=1073741823")


@contextmanager
def read_only(client: TestClient) -> Iterator[None]:
    """SQLite's own 'attempt to write a readonly database'."""
    raw_db(client).execute("PRAGMA query_only=ON")
    try:
        yield
    finally:
        raw_db(client).execute("PRAGMA query_only=OFF")


def other_photo() -> bytes:
    return (WINNING_PHOTO.parent / "sample_03.jpg").read_bytes()


def changes(client: TestClient, table: dict, grow_only: bool) -> list:
    """Requests that write; with a full disk only a photo surely needs new pages (a new table or
    an undo may fit in pages the file already has)."""
    url = f"/api/tables/{table['id']}"
    writes = [lambda: send_photo(client, table, other_photo())]
    if not grow_only:
        writes += [lambda: client.post("/api/tables", json={"players": 2}),
                   lambda: client.post(f"{url}/undo", headers=player(table)),
                   lambda: client.post(f"{url}/reset", headers=player(table)),
                   lambda: client.put(f"{url}/settings", json={"players": 4}, headers=player(table))]
    return [write() for write in writes]


@pytest.mark.parametrize("fault, grow_only", [(disk_full, True), (read_only, False)], ids=["disk full", "read-only"])
def test_a_database_that_cannot_be_written_is_a_503_and_the_table_recovers(client: TestClient, judged_table: dict,
                                                                          fault, grow_only: bool) -> None:
    url = f"/api/tables/{judged_table['id']}"
    before = client.get(url).json(), client.get(f"{url}/events").json()
    with fault(client):
        for response in changes(client, judged_table, grow_only):
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "storage_unavailable" and "disk" in response.json()["detail"]
        assert (client.get(url).json(), client.get(f"{url}/events").json()) == before  # still readable, unchanged
    accepted = send_photo(client, judged_table, other_photo())
    assert accepted.status_code == 201, accepted.text
    assert client.get(url).json()["revision"] == accepted.json()["id"]


def test_a_live_camera_that_loses_the_board_and_finds_it_again_stores_it_once(client: TestClient, table: dict) -> None:
    """The phone's camera goes dark or is knocked aside between two frames of the same board:
    the dark frame is refused with a code, changes nothing, and the board is stored when the
    camera sees it again."""
    url = f"/api/tables/{table['id']}/photos?live=true"
    headers = {**player(table), "Content-Type": "image/jpeg"}
    frames = [client.post(url, content=photo.read_bytes(), headers=headers)
              for photo in (WINNING_PHOTO, NO_BOARD_PHOTO, WINNING_PHOTO)]
    assert [f.status_code for f in frames] == [202, 422, 201]
    assert frames[1].json()["code"] == "board_not_found"
    assert len(client.get(f"/api/tables/{table['id']}/photos").json()) == 1
