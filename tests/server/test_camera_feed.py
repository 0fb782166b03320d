"""The server's own camera: the bundled demo video, followed in a thread, feeds its table
with readings and events like photos would; a source that cannot be opened changes nothing;
the camera's table is the same after a restart."""

from __future__ import annotations

import json
import time
from pathlib import Path

from fastapi.testclient import TestClient

from seqcam.samples import default_video
from server.app import create_app

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
