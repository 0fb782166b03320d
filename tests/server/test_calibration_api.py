"""A table's calibration over the API: players calibrate on the empty board, later photos
are read with it, a bad photo is a 4xx with a code, viewers cannot change it, and it
survives a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from seqcam.samples import SAMPLE_DIR
from server.app import create_app
from tests.server.conftest import NO_BOARD_PHOTO, player, send_photo

EMPTY_BOARD = SAMPLE_DIR / "empty_board_01.jpg"  # the empty board of sample_01's game


def calibrate(client: TestClient, table: dict[str, Any], data: bytes, headers: dict[str, str] | None = None):
    return client.post(f"/api/tables/{table['id']}/calibration", content=data,
                       headers={**(player(table) if headers is None else headers), "Content-Type": "image/jpeg"})


def test_a_table_starts_uncalibrated(client: TestClient, table: dict[str, Any]) -> None:
    answer = client.get(f"/api/tables/{table['id']}/calibration").json()
    assert answer == {"calibrated": False, "created": None, "clear_cells": 0, "notes": []}


def test_players_calibrate_and_later_photos_are_read_with_it(client: TestClient, table: dict[str, Any],
                                                             winning_photo: bytes) -> None:
    response = calibrate(client, table, EMPTY_BOARD.read_bytes())
    assert response.status_code == 201, response.text
    answer = response.json()
    assert answer["calibrated"] and answer["clear_cells"] > 80 and answer["notes"] == []
    assert client.get(f"/api/tables/{table['id']}/calibration").json()["calibrated"]
    reading = send_photo(client, table, winning_photo).json()["result"]
    assert reading["winner"] == ["B"]
    assert [w["code"] for w in reading["warning_details"]] == []  # the calibration fitted: no mismatch warning


def test_a_photo_without_a_board_does_not_calibrate(client: TestClient, table: dict[str, Any]) -> None:
    response = calibrate(client, table, NO_BOARD_PHOTO.read_bytes())
    assert response.status_code == 422
    assert response.json()["code"] == "calibration_board_not_found"
    assert "empty-board photo" in response.json()["detail"]
    assert not client.get(f"/api/tables/{table['id']}/calibration").json()["calibrated"]


def test_viewers_cannot_calibrate_and_players_can_forget(client: TestClient, table: dict[str, Any]) -> None:
    assert calibrate(client, table, EMPTY_BOARD.read_bytes(), headers={}).status_code == 401
    assert calibrate(client, table, b"not a photo").status_code == 415
    assert calibrate(client, table, EMPTY_BOARD.read_bytes()).status_code == 201
    assert client.delete(f"/api/tables/{table['id']}/calibration").status_code == 401
    forgotten = client.delete(f"/api/tables/{table['id']}/calibration", headers=player(table))
    assert forgotten.status_code == 200 and not forgotten.json()["calibrated"]


def test_the_calibration_survives_a_restart(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        assert calibrate(client, table, EMPTY_BOARD.read_bytes()).status_code == 201
    with TestClient(create_app(db_path)) as client:
        assert client.get(f"/api/tables/{table['id']}/calibration").json()["calibrated"]


def test_another_boards_calibration_is_noticed_on_the_photo(client: TestClient, table: dict[str, Any],
                                                             winning_photo: bytes) -> None:
    other_board = SAMPLE_DIR / "sample_07.jpg"  # an empty board of another printing
    assert calibrate(client, table, other_board.read_bytes()).status_code == 201
    reading = send_photo(client, table, winning_photo).json()["result"]
    assert "calibration_mismatch" in [w["code"] for w in reading["warning_details"]]
    assert reading["winner"] == ["B"]  # read with no set-up instead
