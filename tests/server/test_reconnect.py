"""A phone that drops off the live stream and comes back is caught up, and the server forgets
the phones that left (a night of phones coming and going must not pile up streams)."""

from __future__ import annotations

import logging
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from server.app import create_app
from server.local import serving
from tests.server.conftest import WINNING_PHOTO

WAIT_S = 20.0  # a bound for waiting on the server, not a speed check


def first_event(client: httpx.Client, table_id: str) -> str:
    """Opens the table's stream, returns its first event's name, then drops off."""
    with client.stream("GET", f"/api/tables/{table_id}/stream") as stream:
        for line in stream.iter_lines():
            if line.startswith("event:"):
                return line.split(":", 1)[1].strip()
    raise AssertionError("the stream closed without an event")


def wait_for_no_listeners(app, table_id: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while app.state.hub.listeners(table_id) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert app.state.hub.listeners(table_id) == 0, "a phone that left still holds a stream"


def test_a_phone_that_drops_off_is_forgotten_and_caught_up_when_it_comes_back(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.sqlite3", heartbeat_s=0.2)  # frequent heartbeats notice a phone that left
    with serving(app) as base, httpx.Client(base_url=base, timeout=WAIT_S) as phone:
        table = phone.post("/api/tables", json={"players": 2}).json()
        assert first_event(phone, table["id"]) == "hello"
        wait_for_no_listeners(app, table["id"])
        sent = phone.post(f"/api/tables/{table['id']}/photos", content=WINNING_PHOTO.read_bytes(),
                          headers={"X-Table-Token": table["token"], "Content-Type": "image/jpeg"})
        assert sent.status_code == 201  # accepted while the phone was away
        assert first_event(phone, table["id"]) == "hello"  # on 'hello' the page refetches the table
        assert phone.get(f"/api/tables/{table['id']}").json()["revision"] == sent.json()["id"]
        wait_for_no_listeners(app, table["id"])


def test_a_phone_that_drops_off_while_sending_a_photo_is_no_error(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.INFO)
    app = create_app(tmp_path / "t.sqlite3")
    with serving(app) as base, httpx.Client(base_url=base, timeout=WAIT_S) as phone:
        table = phone.post("/api/tables", json={"players": 2}).json()
        head = (f"POST /api/tables/{table['id']}/photos HTTP/1.1\r\nHost: x\r\nX-Table-Token: {table['token']}\r\n"
                "Content-Type: image/jpeg\r\nContent-Length: 500000\r\n\r\n").encode()
        with socket.create_connection((urlsplit(base).hostname, urlsplit(base).port), timeout=WAIT_S) as connection:
            connection.sendall(head + WINNING_PHOTO.read_bytes()[:20_000])  # then the Wi-Fi drops
        deadline = time.monotonic() + WAIT_S
        while not any("left while sending" in r.getMessage() for r in caplog.records) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any("left while sending" in r.getMessage() for r in caplog.records)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no traceback in the server's log
        assert phone.get(f"/api/tables/{table['id']}").json()["revision"] == 0  # nothing stored
        sent = phone.post(f"/api/tables/{table['id']}/photos", content=WINNING_PHOTO.read_bytes(),
                          headers={"X-Table-Token": table["token"], "Content-Type": "image/jpeg"})
        assert sent.status_code == 201  # the phone sends it again when it is back


def test_streams_beyond_the_bound_are_refused_and_a_freed_place_is_taken_again(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.sqlite3", max_streams_per_table=2, heartbeat_s=0.2)
    with serving(app) as base, httpx.Client(base_url=base, timeout=WAIT_S) as phone:
        table = phone.post("/api/tables", json={"players": 2}).json()
        url = f"/api/tables/{table['id']}/stream"
        with phone.stream("GET", url) as first, phone.stream("GET", url) as second:
            assert first.status_code == second.status_code == 200
            refused = phone.get(url)
            assert refused.status_code == 429 and refused.json()["code"] == "too_many_streams"
        wait_for_no_listeners(app, table["id"])
        assert first_event(phone, table["id"]) == "hello"
