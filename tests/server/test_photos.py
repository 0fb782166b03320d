from __future__ import annotations

import io
import json
import struct
import zlib
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import numpy as np
import pillow_heif
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from referee.board import Board
from seqcam.analyze_command import run_analyze
from seqcam.samples import SAMPLE_DIR
from server.app import create_app
from server.i18n import message
from tests.server.conftest import NO_BOARD_PHOTO, WINNING_PHOTO, player, send_photo
from vision.errors import BoardUnreadable

pillow_heif.register_heif_opener()


def black_and_white(photo: Path) -> bytes:
    """The photo as a camera's black-and-white mode writes it."""
    grey = io.BytesIO()
    Image.open(photo).convert("L").save(grey, "JPEG", quality=90)
    return grey.getvalue()


def thumbnail(photo: Path) -> bytes:
    """The photo shrunk to a 48-pixel thumbnail, as a chat app's preview might send it."""
    small = io.BytesIO()
    with Image.open(photo) as image:
        image.resize((48 * image.width // image.height, 48)).save(small, "JPEG", quality=90)
    return small.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_header_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header claims ``width`` x ``height`` pixels (a decompression bomb's shape)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + png_chunk(b"IEND", b""))


def test_a_photo_reading_mirrors_the_command_lines_json(client: TestClient, table: dict, winning_photo: bytes) -> None:
    response = send_photo(client, table, winning_photo)
    assert response.status_code == 201, response.text
    result = response.json()["result"]
    out = io.StringIO()
    run_analyze([str(WINNING_PHOTO)], 2, True, None, stdout=out)
    cli = json.loads(out.getvalue())
    assert set(cli) <= set(result)
    for key in ("ok", "grid", "orientation_deg", "corners_px", "sequences", "winner", "warnings", "error"):
        assert result[key] == cli[key], key
    label = json.loads(WINNING_PHOTO.with_suffix(".json").read_text())
    assert result["grid"] == label["grid"]
    assert result["winner"] == ["B"] and result["sequences"] == {"B": 2, "G": 1}
    assert sorted(run["team"] for run in result["runs"]) == ["B", "B", "G"]
    assert [4, 7] in result["protected"]["definite"]


def test_an_iphone_heic_photo_is_read_as_its_jpeg_is(client: TestClient, table: dict) -> None:
    with Image.open(WINNING_PHOTO) as photo:
        buffer = io.BytesIO()
        photo.save(buffer, "HEIF", quality=90, enc_params={"preset": "ultrafast"})
    response = send_photo(client, table, buffer.getvalue(), "image/heic")
    assert response.status_code == 201, response.text
    result = response.json()["result"]
    assert result["grid"] == json.loads(WINNING_PHOTO.with_suffix(".json").read_text())["grid"]
    assert result["winner"] == ["B"]


def test_the_table_shows_the_latest_reading(client: TestClient, judged_table: dict) -> None:
    state = client.get(f"/api/tables/{judged_table['id']}").json()
    assert state["reading"]["winner"] == ["B"] and state["revision"] > 0 and state["reading_created"] > 0
    photos = client.get(f"/api/tables/{judged_table['id']}/photos").json()
    assert [p["id"] for p in photos] == [state["revision"]]


BAD_UPLOADS = [
    # (what, body, content type, status, code)
    ("text file", b"hello, referee", "text/plain", 415, "photo_type"),
    ("no type", b"\xff\xd8\xff\xe0", "", 415, "photo_type"),
    ("GIF", b"GIF89a" + b"\0" * 64, "image/gif", 415, "photo_type"),
    ("HEIC cut short", b"\x00\x00\x00\x18ftypheic", "image/heic", 422, "photo_unreadable"),
    ("empty", b"", "image/jpeg", 400, "photo_empty"),
    ("not an image", b"GIF89a" + b"\0" * 64, "image/jpeg", 415, "photo_not_image"),
    ("cut short", WINNING_PHOTO.read_bytes()[:40_000], "image/jpeg", 422, "photo_unreadable"),
    ("decompression bomb", png_header_claiming(60_000, 60_000), "image/png", 413, "photo_too_many_pixels"),
    ("no board", NO_BOARD_PHOTO.read_bytes(), "image/jpeg", 422, "board_not_found"),
    ("black and white", black_and_white(WINNING_PHOTO), "image/jpeg", 422, "photo_colourless"),
    ("thumbnail", thumbnail(WINNING_PHOTO), "image/jpeg", 422, "photo_too_small"),
]


@pytest.mark.parametrize("what, body, content_type, status, code", BAD_UPLOADS, ids=[b[0] for b in BAD_UPLOADS])
def test_each_bad_upload_gets_a_4xx_a_sentence_and_a_code(client: TestClient, table: dict, what: str, body: bytes,
                                                          content_type: str, status: int, code: str) -> None:
    response = send_photo(client, table, body, content_type)
    assert response.status_code == status, response.text
    answer = response.json()
    assert answer["code"] == code
    assert answer["detail"] == message(f"error.{code}", **answer["params"])
    assert client.get(f"/api/tables/{table['id']}").json()["reading"] is None  # nothing stored


def test_an_upload_over_the_limit_is_refused_before_reading(tmp_path: Path, winning_photo: bytes) -> None:
    with TestClient(create_app(tmp_path / "small.sqlite3", max_upload_bytes=100_000)) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        response = send_photo(client, table, winning_photo)
    assert response.status_code == 413
    assert response.json()["code"] == "photo_too_large" and "0 MB" not in response.json()["detail"]


def test_uploads_are_never_written_to_disk(tmp_path: Path, winning_photo: bytes) -> None:
    with TestClient(create_app(tmp_path / "only.sqlite3")) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        send_photo(client, table, winning_photo)
        send_photo(client, table, b"GIF89a", "image/jpeg")
    assert {p.name for p in tmp_path.iterdir()} <= {"only.sqlite3", "only.sqlite3-wal", "only.sqlite3-shm"}


def test_undo_takes_back_the_latest_photo_and_its_events(client: TestClient, judged_table: dict) -> None:
    url = f"/api/tables/{judged_table['id']}"
    undone = client.post(f"{url}/undo", headers=player(judged_table))
    assert undone.status_code == 200 and undone.json()["reading"] is None
    assert client.get(f"{url}/events").json() == []
    again = client.post(f"{url}/undo", headers=player(judged_table))
    assert again.status_code == 409 and again.json()["code"] == "nothing_to_undo"


def test_a_player_corrects_a_misread_cell_and_the_verdict_follows(client: TestClient, judged_table: dict) -> None:
    url = f"/api/tables/{judged_table['id']}"
    response = client.post(f"{url}/corrections", json={"row": 4, "col": 7, "symbol": "."}, headers=player(judged_table))
    assert response.status_code == 201, response.text
    result = response.json()["result"]
    assert result["grid"][4][7] == "." and result["corrected"] == [{"cell": [4, 7], "seen": "B"}]
    assert result["sequences"] == {"B": 1, "G": 1} and result["winner"] == []
    assert client.get(url).json()["reading"] == result
    latest_event = client.get(f"{url}/events").json()[0]
    assert (latest_event["type"], latest_event["cell"], latest_event["detail"]) == ("correction", [4, 7], "B -> .")
    assert client.post(f"{url}/undo", headers=player(judged_table)).json()["reading"]["winner"] == ["B"]


def test_a_correction_holds_while_later_photos_still_misread_the_cell(client: TestClient, judged_table: dict,
                                                                       winning_photo: bytes) -> None:
    url = f"/api/tables/{judged_table['id']}"
    corrected = client.post(f"{url}/corrections", json={"row": 4, "col": 7, "symbol": "."},
                            headers=player(judged_table)).json()["result"]
    again = send_photo(client, judged_table, winning_photo)  # the same photo: the same misreading
    assert again.status_code == 200 and again.json()["unchanged"] is True
    assert client.get(url).json()["reading"] == corrected
    assert client.get(f"{url}/events").json()[0]["type"] == "correction"  # no phantom move after it


def test_a_player_turns_a_reading_whose_top_the_photo_could_not_tell(client: TestClient, judged_table: dict) -> None:
    url = f"/api/tables/{judged_table['id']}"
    client.post(f"{url}/corrections", json={"row": 4, "col": 7, "symbol": "."}, headers=player(judged_table))
    before = client.get(url).json()["reading"]
    response = client.post(f"{url}/turn", json={"quarter_turns": 1}, headers=player(judged_table))
    assert response.status_code == 201, response.text
    turned = response.json()["result"]
    assert turned["grid"] == Board.from_rows(before["grid"]).transformed(1).rows()
    assert turned["corrected"] == [{"cell": [7, 5], "seen": "B"}]  # row 4, column 7 turned a quarter clockwise
    assert turned["corners_px"] == [before["corners_px"][3], *before["corners_px"][:3]]  # the left edge is the top
    assert (turned["sequences"], turned["winner"]) == (before["sequences"], before["winner"])
    assert client.get(f"{url}/events").json()[0]["code"] == "turned"
    assert client.post(f"{url}/undo", headers=player(judged_table)).json()["reading"]["grid"] == before["grid"]


@pytest.mark.parametrize("quarter_turns", [0, 4])
def test_a_turn_is_one_to_three_quarters(client: TestClient, judged_table: dict, quarter_turns: int) -> None:
    response = client.post(f"/api/tables/{judged_table['id']}/turn", json={"quarter_turns": quarter_turns},
                           headers=player(judged_table))
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"


def test_a_turn_needs_a_photo_and_the_token(client: TestClient, table: dict) -> None:
    url = f"/api/tables/{table['id']}/turn"
    assert client.post(url, json={}).status_code == 401
    assert client.post(url, json={}, headers=player(table)).json()["code"] == "no_photo_yet"


@pytest.mark.parametrize("body, status, code", [
    ({"row": 0, "col": 0, "symbol": "B"}, 422, "corner_fixed"),
    ({"row": 1, "col": 1, "symbol": "#"}, 422, "invalid_request"),
    ({"row": 1, "col": 10, "symbol": "B"}, 422, "invalid_request"),
])
def test_impossible_corrections_are_refused(client: TestClient, judged_table: dict, body: dict, status: int, code: str) -> None:
    response = client.post(f"/api/tables/{judged_table['id']}/corrections", json=body, headers=player(judged_table))
    assert response.status_code == status and response.json()["code"] == code


def test_a_correction_needs_a_photo_and_the_token(client: TestClient, table: dict) -> None:
    url = f"/api/tables/{table['id']}/corrections"
    body = {"row": 1, "col": 1, "symbol": "B"}
    assert client.post(url, json=body).status_code == 401
    assert client.post(url, json=body, headers=player(table)).json()["code"] == "no_photo_yet"


def test_a_crash_while_reading_a_photo_is_a_sentence_not_a_500(db_path: Path, winning_photo: bytes,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise IndexError("a bug in a stage")

    monkeypatch.setattr("server.routers.photos.analyze_bytes", broken)
    with TestClient(create_app(db_path, reader_processes=0)) as client:  # read here, where the patch reaches
        table = client.post("/api/tables", json={"players": 2}).json()
        response = send_photo(client, table, winning_photo)
    assert response.status_code == 422
    assert response.json()["code"] == "photo_failed" and "report" in response.json()["detail"]


def test_a_board_that_cannot_be_read_has_its_own_code(db_path: Path, winning_photo: bytes,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable(*args, **kwargs):
        raise BoardUnreadable("most of its cells cannot be read")

    monkeypatch.setattr("server.routers.photos.analyze_bytes", unreadable)
    with TestClient(create_app(db_path, reader_processes=0)) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        response = send_photo(client, table, winning_photo)
    assert response.status_code == 422
    assert response.json()["code"] == "board_unreadable"
    assert response.json()["detail"] == message("error.board_unreadable")


def test_a_reader_process_that_dies_costs_one_photo_not_the_server(client: TestClient, table: dict,
                                                                    winning_photo: bytes,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    class DeadPool:  # the pool of a worker that died (a native crash on a hostile file)
        def submit(self, *args, **kwargs) -> Future:
            future: Future = Future()
            future.set_exception(BrokenProcessPool("a worker died"))
            return future

        def shutdown(self, **kwargs) -> None:
            pass

    with monkeypatch.context() as patch:
        patch.setattr("server.workers._executor", lambda size: DeadPool())
        response = send_photo(client, table, winning_photo)
    assert response.status_code == 422 and response.json()["code"] == "photo_failed"
    assert send_photo(client, table, winning_photo).status_code == 201  # the next photo is read


def test_any_other_bug_answers_with_a_sentence_and_a_code(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("server.routers.tables.table_out", lambda *args: 1 / 0)
    with TestClient(create_app(db_path), raise_server_exceptions=False) as client:
        response = client.post("/api/tables", json={"players": 2})
    assert response.status_code == 500
    assert response.json()["code"] == "unexpected" and response.json()["detail"] == message("error.unexpected")
    assert response.headers["x-frame-options"] == "DENY" and "content-security-policy" in response.headers


def test_the_same_board_again_is_not_stored_twice(client: TestClient, judged_table: dict, winning_photo: bytes) -> None:
    first = client.get(f"/api/tables/{judged_table['id']}").json()
    again = send_photo(client, judged_table, winning_photo)
    assert again.status_code == 200 and again.json()["unchanged"] is True and again.json()["id"] == first["revision"]
    assert len(client.get(f"/api/tables/{judged_table['id']}/photos").json()) == 1


def test_a_live_frame_is_stored_when_the_next_one_agrees(client: TestClient, table: dict, winning_photo: bytes) -> None:
    url = f"/api/tables/{table['id']}/photos?live=true"
    headers = {**player(table), "Content-Type": "image/jpeg"}
    first = client.post(url, content=winning_photo, headers=headers)
    assert first.status_code == 202 and first.json()["pending"] is True
    assert client.get(f"/api/tables/{table['id']}").json()["reading"] is None
    second = client.post(url, content=winning_photo, headers=headers)
    assert second.status_code == 201 and second.json()["result"]["winner"] == ["B"]
    third = client.post(url, content=winning_photo, headers=headers)
    assert third.status_code == 200 and third.json()["unchanged"] is True


def test_a_live_frame_is_looked_for_where_the_grid_lay_in_the_frame_before(db_path: Path, winning_photo: bytes,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone streaming its camera stays put: each live frame after the first is read from
    where the grid was found; a photo sent by hand is searched afresh, and a frame with no
    board (a hand over it) leaves the place as it was."""
    from vision.pipeline import analyze_bytes

    hints: list[object] = []

    def recording(*args, near_xy=None, **kwargs):
        hints.append(None if near_xy is None else np.round(np.float64(near_xy), 1).tolist())
        return analyze_bytes(*args, near_xy=near_xy, **kwargs)

    monkeypatch.setattr("server.routers.photos.analyze_bytes", recording)
    with TestClient(create_app(db_path, reader_processes=0)) as client:  # read here, where the patch reaches
        table = client.post("/api/tables", json={"players": 2}).json()
        url = f"/api/tables/{table['id']}/photos?live=true"
        headers = {**player(table), "Content-Type": "image/jpeg"}
        first = client.post(url, content=winning_photo, headers=headers).json()["result"]
        second = client.post(url, content=winning_photo, headers=headers).json()["result"]
        send_photo(client, table, winning_photo)
        client.post(url, content=NO_BOARD_PHOTO.read_bytes(), headers=headers)  # no board in this frame
        client.post(url, content=winning_photo, headers=headers)
    assert hints == [None, first["corners_px"], None, first["corners_px"], first["corners_px"]]  # the grid stayed
    assert second["grid"] == first["grid"]


def test_each_live_camera_of_a_table_is_looked_at_where_it_saw_the_grid(db_path: Path, winning_photo: bytes,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Two phones streaming one table see the board from two places: each camera's frame is
    read first where that camera last found the grid, not where the other one did."""
    from vision.pipeline import analyze_bytes

    hints: list[object] = []

    def recording(*args, near_xy=None, **kwargs):
        hints.append(None if near_xy is None else np.round(np.float64(near_xy), 1).tolist())
        return analyze_bytes(*args, near_xy=near_xy, **kwargs)

    other_view = (SAMPLE_DIR / "sample_07.jpg").read_bytes()
    monkeypatch.setattr("server.routers.photos.analyze_bytes", recording)
    with TestClient(create_app(db_path, reader_processes=0)) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        headers = {**player(table), "Content-Type": "image/jpeg"}

        def frame(camera: str, photo: bytes) -> dict:
            url = f"/api/tables/{table['id']}/photos?live=true&camera={camera}"
            response = client.post(url, content=photo, headers=headers)
            assert response.status_code in (200, 201, 202), response.text
            return response.json()["result"]

        seen_by_a = frame("a", winning_photo)["corners_px"]
        seen_by_b = frame("b", other_view)["corners_px"]
        frame("a", winning_photo)
        frame("b", other_view)
        refused = client.post(f"/api/tables/{table['id']}/photos?live=true&camera=no%20spaces", content=winning_photo,
                              headers=headers)
    assert hints == [None, None, np.round(seen_by_a, 1).tolist(), np.round(seen_by_b, 1).tolist()]
    assert seen_by_a != seen_by_b
    assert refused.status_code == 422 and refused.json()["detail"]


def test_a_photo_whose_top_the_cards_cannot_tell_takes_it_from_the_tables_last_reading(
        db_path: Path, winning_photo: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board covered in chips late in the game shows too few printed cards to tell its top:
    the chips of the table's last reading, where they still lie, tell it."""
    from dataclasses import replace as replaced

    from vision.errors import VisionWarning, VisionWarningKind
    from vision.pipeline import analyze_bytes, turned

    def read_sideways(*args, **kwargs):  # a green chip played since, the board read a quarter turn off
        analysis = analyze_bytes(*args, **kwargs)
        played = analysis.board.with_cell(empty_cell(analysis.board), "G")
        unsure = VisionWarning(VisionWarningKind.ORIENTATION_UNCERTAIN, "cannot tell the top")
        return replaced(analysis, board=turned(played, 1), warnings=(unsure,))

    def empty_cell(board) -> int:
        return next(c for c, symbol in enumerate(board.cells) if symbol == ".")

    with TestClient(create_app(db_path, reader_processes=0)) as client:  # read here, where the patch reaches
        table = client.post("/api/tables", json={"players": 2}).json()
        first = send_photo(client, table, winning_photo).json()["result"]
        monkeypatch.setattr("server.routers.photos.analyze_bytes", read_sideways)
        later = send_photo(client, table, winning_photo).json()["result"]
        other = client.post("/api/tables", json={"players": 2}).json()  # no reading before: nothing tells the top
        alone = send_photo(client, other, winning_photo).json()["result"]
    before = Board.from_rows(first["grid"])
    assert later["grid"] == list(before.with_cell(empty_cell(before), "G").rows())
    assert [w["code"] for w in later["warning_details"]][:1] == ["orientation_from_earlier"]
    assert alone["grid"] != later["grid"]
    assert [w["code"] for w in alone["warning_details"]][:1] == ["orientation_uncertain"]
