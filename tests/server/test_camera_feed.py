"""The server's own camera: the bundled demo video, followed in a thread, feeds its table
with readings and events like photos would; a source that cannot be opened changes nothing;
the camera's table is the same after a restart; an undo there resets the tracker's board; the
camera's referee knows whose turn it is, unless the players changed the table meanwhile."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from fastapi.testclient import TestClient

from referee.board import Board
from referee.cells import cell
from seqcam.samples import default_video
from seqcam.watch_command import Source
from server.app import create_app
from server.camera import CameraFollower
from server.reading import turned_reading
from server.store import Store, TableRow
from tests.server.conftest import player
from vision.errors import VisionWarning, VisionWarningKind

DEMO_LABEL = json.loads(default_video().with_suffix(".json").read_text())


def wait_until_ended(client: TestClient, limit_s: float = 120.0) -> None:
    """Waits for the follower to reach the end of the video (a bound, not a speed check)."""
    deadline = time.monotonic() + limit_s
    while client.app.state.camera.state != "ended":
        assert time.monotonic() < deadline, "the camera thread did not finish the demo video"
        time.sleep(0.2)


def test_the_demo_video_feeds_the_camera_table(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "tables.sqlite3", camera=str(default_video()))) as client:
        table = client.app.state.camera_table
        wait_until_ended(client)
        state = client.get(f"/api/tables/{table.id}").json()
        events = client.get(f"/api/tables/{table.id}/events").json()
    assert state["reading"]["grid"] == DEMO_LABEL["final_grid"]
    kinds = {event["type"] for event in events}
    assert {"placed", "removed", "winner"} <= kinds
    assert "violation" not in kinds


def test_a_camera_that_cannot_be_opened_changes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no_such_video.mp4"
    with TestClient(create_app(tmp_path / "tables.sqlite3", camera=str(missing))) as client:
        wait_until_ended(client)
        table = client.app.state.camera_table
        assert client.get(f"/api/tables/{table.id}").json()["reading"] is None
        assert client.get("/api/layout").status_code == 200  # the phones' page still works


def test_the_camera_table_is_the_same_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    missing = str(tmp_path / "none.mp4")
    with TestClient(create_app(db, camera=missing)) as client:
        first = client.app.state.camera_table.id
    with TestClient(create_app(db, camera=missing)) as client:
        assert client.app.state.camera_table.id == first


def test_a_live_camera_that_is_missing_then_comes_back_is_followed(tmp_path: Path) -> None:
    import shutil

    store = Store(tmp_path / "tables.sqlite3")
    table = store.create_table("cam", "token", players=2, teams=2)
    later = tmp_path / "camera.mp4"  # a live source that is not there yet (unplugged)
    published: list[str] = []
    follower = CameraFollower(Source(str(later), True, "the test camera"), store, table,
                              lambda table_id, what: published.append(what), retry_wait_s=0.1)
    follower.start()
    try:
        deadline = time.monotonic() + 10
        while follower.state != "unavailable":
            assert time.monotonic() < deadline, "the missing camera was not reported"
            time.sleep(0.05)
        shutil.copy(default_video(), later)  # plugged in
        deadline = time.monotonic() + 120
        # a file read as a live camera runs faster than the game: the board being found is enough
        while store.latest_reading(table) is None:
            assert time.monotonic() < deadline, "the camera that came back was not followed"
            time.sleep(0.2)
    finally:
        follower.stop()
        store.close()
    assert "camera" in published


def test_an_undo_on_the_camera_table_resets_the_trackers_board(client: TestClient, judged_table: dict) -> None:
    class Camera:  # stands in for the follower: records what the route hands it
        def __init__(self) -> None:
            self.table_id = judged_table["id"]
            self.taken: list[Board] = []

        def take_board(self, board: Board) -> None:
            self.taken.append(board)

    client.app.state.camera = camera = Camera()
    url = f"/api/tables/{judged_table['id']}"
    photo_grid = client.get(url).json()["reading"]["grid"]
    client.post(f"{url}/corrections", json={"row": 4, "col": 7, "symbol": "."}, headers=player(judged_table))
    assert client.post(f"{url}/undo", headers=player(judged_table)).status_code == 200
    assert [board.rows() for board in camera.taken] == [photo_grid]


def test_a_correction_waits_while_the_cameras_thread_stores_a_reading(client: TestClient, judged_table: dict) -> None:
    url = f"/api/tables/{judged_table['id']}"
    camera_storing = client.app.state.store.changing(judged_table["id"])
    answered = threading.Event()

    def correct() -> None:
        client.post(f"{url}/corrections", json={"row": 4, "col": 7, "symbol": "."}, headers=player(judged_table))
        answered.set()

    camera_storing.acquire()  # as the camera's thread does while it makes a reading from the latest one
    try:
        threading.Thread(target=correct, daemon=True).start()
        assert not answered.wait(0.5)  # the correction is not made from a reading about to be superseded
    finally:
        camera_storing.release()
    assert answered.wait(10)
    assert client.get(url).json()["reading"]["grid"][4][7] == "."


def camera_on_new_table(tmp_path: Path) -> tuple[CameraFollower, Store, TableRow]:
    store = Store(tmp_path / "tables.sqlite3")
    table = store.create_table("cam", "token", players=2, teams=2)
    follower = CameraFollower(Source("unused.mp4", False, "the test camera"), store, table, lambda table_id, what: None)
    return follower, store, table


def codes(store: Store, table: TableRow) -> list[str]:
    return [event["code"] for event in reversed(store.events(table))]


def test_the_camera_calls_a_team_playing_out_of_turn(tmp_path: Path) -> None:
    camera, store, table = camera_on_new_table(tmp_path)
    board = Board.empty()
    camera.record(board, ())  # the game starts
    for row_col, team in [((4, 4), "B"), ((5, 5), "G"), ((6, 6), "B"), ((7, 7), "B")]:
        board = board.with_cell(cell(*row_col), team)
        camera.record(board, ())
    assert codes(store, table) == ["placed", "placed", "placed", "placed_illegal", "out_of_turn"]
    store.close()


def test_the_camera_takes_up_a_table_the_players_corrected_without_guessing_whose_turn_it_is(tmp_path: Path) -> None:
    camera, store, table = camera_on_new_table(tmp_path)
    board = Board.empty()
    camera.record(board, ())
    for row_col in [(4, 4), (5, 5)]:
        board = board.with_cell(cell(*row_col), "B")
        camera.record(board, ())
    assert codes(store, table)[-2:] == ["placed_illegal", "out_of_turn"]
    corrected = board.with_cell(cell(5, 5), "G")  # the players say the second chip was green
    store.add_reading(table, {**store.latest_reading(table).result, "grid": corrected.rows()}, [])
    camera.record(corrected.with_cell(cell(6, 6), "G"), ())  # green again: the camera no longer knows the turn
    assert codes(store, table)[-1] == "placed"
    store.close()


def test_a_camera_that_cannot_tell_the_top_keeps_the_turn_the_players_gave(tmp_path: Path) -> None:
    camera, store, table = camera_on_new_table(tmp_path)
    top_unsure = (VisionWarning(VisionWarningKind.ORIENTATION_UNCERTAIN, "Cannot tell the top."),)
    camera._top_unsure = True  # as the tracker's first reading of a board full of chips says
    board = Board.empty().with_cell(cell(0, 1), "B").with_cell(cell(0, 2), "B").with_cell(cell(5, 5), "G")
    camera.record(board, top_unsure)
    store.add_reading(table, turned_reading(store.latest_reading(table).result, 1), [])  # the players turn it
    camera.record(board.with_cell(cell(0, 3), "G"), ())
    latest = Board.from_rows(store.latest_reading(table).result["grid"])
    assert latest == board.with_cell(cell(0, 3), "G").transformed(1)
    assert codes(store, table)[-1] == "placed" and store.events(table)[0]["cell"] == [3, 9]
    assert camera._as_tracked(latest, board) == board.with_cell(cell(0, 3), "G")  # an undo's board, as tracked
    store.close()
