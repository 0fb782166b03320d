from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.i18n import message
from server.routers.tables import qr_svg
from tests.server.conftest import WINNING_PHOTO, player, send_photo


def test_a_new_table_has_a_long_token_and_no_reading(client: TestClient) -> None:
    created = client.post("/api/tables", json={"players": 4}).json()
    assert created["teams"] == 2 and created["team_letters"] == ["B", "G"] and created["win_target"] == 2
    assert len(created["token"]) >= 32
    assert created["join_path"] == f"/t/{created['id']}#k={created['token']}"
    state = client.get(f"/api/tables/{created['id']}").json()
    assert state["reading"] is None and state["revision"] == 0
    assert "token" not in state  # viewers never see it


@pytest.mark.parametrize("body, code", [
    ({"players": 5}, "bad_team_split"),
    ({"players": 4, "teams": 3}, "bad_team_split"),
    ({"players": 6}, "teams_needed"),
    ({"players": "two"}, "invalid_request"),
    ({"players": 40}, "invalid_request"),
])
def test_impossible_setups_are_refused_with_a_code(client: TestClient, body: dict, code: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == code and response.json()["detail"]


def test_three_teams_play_to_one_sequence(client: TestClient) -> None:
    created = client.post("/api/tables", json={"players": 6, "teams": 3}).json()
    assert created["teams"] == 3 and created["team_letters"] == ["B", "G", "R"] and created["win_target"] == 1


def test_an_unknown_table_is_a_404_with_a_sentence(client: TestClient) -> None:
    response = client.get("/api/tables/nope")
    assert response.status_code == 404
    assert response.json() == {"detail": message("error.table_not_found", table="nope"),
                               "code": "table_not_found", "params": {"table": "nope"}}


def test_changes_need_the_tables_own_token(client: TestClient, table: dict) -> None:
    other = client.post("/api/tables", json={"players": 2}).json()
    url = f"/api/tables/{table['id']}/settings"
    body = {"players": 3}
    assert client.put(url, json=body).json()["code"] == "token_missing"
    assert client.put(url, json=body, headers={"X-Table-Token": "guess"}).status_code == 403
    assert client.put(url, json=body, headers=player(other)).json()["code"] == "token_wrong"
    changed = client.put(url, json=body, headers=player(table))
    assert changed.status_code == 200 and changed.json()["players"] == 3 and changed.json()["teams"] == 3


@pytest.mark.parametrize("method, path", [
    ("post", "/photos"), ("post", "/undo"), ("post", "/reset"), ("get", "/join.svg"),
])
def test_every_change_and_the_join_code_need_the_token(client: TestClient, table: dict, method: str, path: str) -> None:
    response = getattr(client, method)(f"/api/tables/{table['id']}{path}")
    assert response.status_code == 401 and response.json()["code"] == "token_missing"


def test_the_join_qr_code_is_an_svg(client: TestClient, table: dict) -> None:
    response = client.get(f"/api/tables/{table['id']}/join.svg", headers=player(table))
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert response.text.startswith("<svg") and "<path" in response.text


def test_reset_starts_the_next_game_and_keeps_settings(client: TestClient, judged_table: dict) -> None:
    reset = client.post(f"/api/tables/{judged_table['id']}/reset", headers=player(judged_table)).json()
    assert reset["game"] == 2 and reset["reading"] is None and reset["players"] == 2
    assert client.get(f"/api/tables/{judged_table['id']}/events").json() == []


def test_a_restart_loses_nothing(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as first:
        table = first.post("/api/tables", json={"players": 2}).json()
        sent = send_photo(first, table, WINNING_PHOTO.read_bytes()).json()
        events = first.get(f"/api/tables/{table['id']}/events").json()
    with TestClient(create_app(db_path)) as second:
        state = second.get(f"/api/tables/{table['id']}").json()
        assert state["revision"] == sent["id"]
        assert state["reading"] == sent["result"]
        assert second.get(f"/api/tables/{table['id']}/events").json() == events
        assert len(events) == 4  # three sequences and the winner
        again = second.post(f"/api/tables/{table['id']}/undo", headers=player(table))
        assert again.status_code == 200  # the token still works after the restart


def test_the_page_and_its_files_are_served_without_the_internet(client: TestClient, table: dict) -> None:
    page = client.get(f"/t/{table['id']}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for asset in ("/static/app.js", "/static/app.css"):
        assert client.get(asset).status_code == 200
    assert "http" not in page.text.replace("http-equiv", "")  # no CDN, no external font


def test_the_openapi_schema_lists_every_resource(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/photos",
                 "/api/tables/{table_id}/removal", "/api/tables/{table_id}/cards/{card}",
                 "/api/tables/{table_id}/events", "/api/tables/{table_id}/stream", "/api/layout"):
        assert path in paths


@pytest.mark.parametrize("accept, language", [("fr-FR,fr;q=0.9", "fr"), ("ja", "ja"), ("de", "en"), (None, "en")])
def test_errors_speak_the_language_the_phone_asks_for(client: TestClient, accept: str | None, language: str) -> None:
    headers = {"Accept-Language": accept} if accept else {}
    answer = client.get("/api/tables/nope", headers=headers).json()
    assert answer["code"] == "table_not_found"
    assert answer["detail"] == message("error.table_not_found", language, table="nope")


def test_the_page_gets_each_languages_texts_and_their_own_names(client: TestClient) -> None:
    answer = client.get("/api/i18n/ja").json()
    assert answer["language"] == "ja" and answer["texts"]["page.answer_yes"] == "はい"
    assert answer["languages"] == {"en": "English", "fr": "Français", "ja": "日本語"}
    assert client.get("/api/i18n/xx").json()["language"] == "en"


def test_links_point_phones_at_the_wifi_address_not_the_laptops_loopback(tmp_path: Path) -> None:
    lan = "http://192.168.1.20:8000"
    with TestClient(create_app(tmp_path / "lan.sqlite3", lan_base_url=lan), base_url="http://127.0.0.1:8000") as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        links = client.get(f"/api/tables/{table['id']}/links", headers=player(table)).json()
        assert links == {"join_url": lan + table["join_path"], "view_url": lan + table["view_path"]}
        seen_from_a_phone = client.get(f"http://192.168.1.20:8000/api/tables/{table['id']}/links", headers=player(table))
        assert seen_from_a_phone.json()["view_url"] == lan + table["view_path"]
        assert client.get(f"/api/tables/{table['id']}/links").status_code == 401
        qr = client.get(f"/api/tables/{table['id']}/join.svg", headers=player(table)).content
        assert qr == qr_svg(lan + table["join_path"])


def test_the_view_holds_what_the_page_shows_and_the_stream_sends_it(client: TestClient, winning_photo: bytes) -> None:
    table = client.post("/api/tables", json={"players": 2}).json()
    assert send_photo(client, table, winning_photo).status_code == 201
    view = client.get(f"/api/tables/{table['id']}/view").json()
    assert view["table"] == client.get(f"/api/tables/{table['id']}").json()
    assert view["events"] == client.get(f"/api/tables/{table['id']}/events?limit=60").json() and view["events"]
    assert view["photos"] == client.get(f"/api/tables/{table['id']}/photos?limit=20").json()
    assert view["table"]["reading"]["winner"] == ["B"]
    hub = client.app.state.hub
    queue = hub.listen(table["id"])  # a phone's stream, as the stream route holds it
    try:
        hub.publish(table["id"], "photo")
        assert json.loads(queue.get_nowait())["view"] == view
    finally:
        hub.leave(table["id"], queue)
