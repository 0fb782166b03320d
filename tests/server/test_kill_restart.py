"""`seqcam serve` killed with SIGKILL in the middle of a game (one photo still being read)
and started again on the same database: every accepted reading and event is there, the
token still works, and the table takes the next photo."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import httpx

from seqcam.samples import SAMPLE_DIR
from server.local import free_port
from tests.server.conftest import start_server

PHOTOS_BEFORE = ("sample_01.jpg", "sample_03.jpg")
PHOTO_IN_FLIGHT, PHOTO_AFTER = "sample_04.jpg", "sample_05.jpg"


def send(client: httpx.Client, table: dict, name: str) -> httpx.Response:
    return client.post(f"/api/tables/{table['id']}/photos", content=(SAMPLE_DIR / name).read_bytes(),
                       headers={"X-Table-Token": table["token"], "Content-Type": "image/jpeg"})


def history(client: httpx.Client, table: dict) -> tuple[list[int], list[dict]]:
    url = f"/api/tables/{table['id']}"
    return [p["id"] for p in client.get(f"{url}/photos").json()], client.get(f"{url}/events").json()


def test_a_sigkill_mid_game_loses_no_accepted_reading_and_the_table_resumes(tmp_path: Path) -> None:
    db, port = tmp_path / "game.sqlite3", free_port()
    server = start_server(db, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120.0) as client:
            table = client.post("/api/tables", json={"players": 2}).json()
            accepted = [send(client, table, name) for name in PHOTOS_BEFORE]
            assert [r.status_code for r in accepted] == [201, 201]
            photos, events = history(client, table)
            assert photos == [r.json()["id"] for r in reversed(accepted)] and events
            in_flight = threading.Thread(target=lambda: _ignore_errors(send, client, table, PHOTO_IN_FLIGHT))
            in_flight.start()
            time.sleep(0.3)  # let the upload reach the server (whether it is stored or not, both are fine)
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=10)
            in_flight.join(timeout=60)
        with closing(sqlite3.connect(db)) as check:  # the file as the killed server left it
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        server = start_server(db, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120.0) as client:
            photos_after, events_after = history(client, table)
            assert photos_after[-len(photos):] == photos and len(photos_after) <= len(photos) + 1
            assert events_after[-len(events):] == events
            resumed = send(client, table, PHOTO_AFTER)
            assert resumed.status_code == 201, resumed.text
            assert client.get(f"/api/tables/{table['id']}").json()["revision"] == resumed.json()["id"]
    finally:
        server.kill()
        server.wait(timeout=10)


def _ignore_errors(send_photo, *args) -> None:
    """The photo being read when the server dies gets no answer: that is expected here."""
    try:
        send_photo(*args)
    except httpx.HTTPError:
        pass
