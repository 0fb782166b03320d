"""Who may change a table, what a request may reach, and what the page tells browsers."""

from __future__ import annotations

import base64
import hmac
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.local import serving
from server.headers import CONTENT_SECURITY_POLICY
from tests.server.conftest import WINNING_PHOTO, player

CHANGES = ("POST", "PUT", "PATCH", "DELETE")
PLAYER_ONLY_READS = ("/api/tables/{table_id}/links", "/api/tables/{table_id}/join.svg")  # they show the token
BODIES = {"/settings": {"json": {"players": 4}}, "/corrections": {"json": {"row": 1, "col": 1, "symbol": "B"}},
          "/photos": {"content": WINNING_PHOTO.read_bytes()}, "/calibration": {"content": WINNING_PHOTO.read_bytes()}}


def guarded_routes() -> list[tuple[str, str]]:
    """Every route that changes a table, from the app's own schema (a new one cannot slip by)."""
    paths = create_app(":memory:").openapi()["paths"]
    routes = [(method.upper(), path) for path, operations in paths.items() if path.startswith("/api/tables/{table_id}")
              for method in operations if method.upper() in CHANGES or path in PLAYER_ONLY_READS]
    assert len(routes) >= 9
    return routes


def table_state(client: TestClient, table: dict) -> tuple:
    url = f"/api/tables/{table['id']}"
    return client.get(url).json(), client.get(f"{url}/events").json(), client.get(f"{url}/calibration").json()


@pytest.mark.parametrize("method, path", guarded_routes(), ids=lambda value: str(value))
def test_a_viewer_or_another_tables_token_cannot_change_a_table(client: TestClient, judged_table: dict,
                                                                  method: str, path: str) -> None:
    other = client.post("/api/tables", json={"players": 2}).json()
    url = path.replace("{table_id}", judged_table["id"])
    body = next((b for suffix, b in BODIES.items() if path.endswith(suffix)), {})
    before = table_state(client, judged_table)
    for headers, status, code in (({}, 401, "token_missing"), (player(other), 403, "token_wrong"),
                                  ({"X-Table-Token": judged_table["token"][:-1]}, 403, "token_wrong")):
        response = client.request(method, url, headers={**headers, "Content-Type": "image/jpeg"}
                                  if "content" in body else headers, **body)
        assert (response.status_code, response.json()["code"]) == (status, code)
    assert table_state(client, judged_table) == before


def test_tokens_are_long_random_and_all_different(client: TestClient) -> None:
    tokens = [client.post("/api/tables", json={"players": 2}).json()["token"] for _ in range(40)]
    assert len(set(tokens)) == len(tokens)
    assert all(len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) * 8 >= 128 for t in tokens)


def test_tokens_are_compared_in_constant_time(client: TestClient, table: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    real = hmac.compare_digest
    monkeypatch.setattr("server.deps.hmac.compare_digest", spy)
    response = client.put(f"/api/tables/{table['id']}/settings", json={"players": 4}, headers={"X-Table-Token": "guess"})
    assert response.status_code == 403
    assert compared == [(b"guess", table["token"].encode())]


def raw_get(base_url: str, target: str) -> tuple[int, bytes]:
    """GET exactly ``target`` (no client tidies the dots away); the status and the body."""
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port), timeout=20) as connection:
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(create_app(tmp_path_factory.mktemp("raw") / "t.sqlite3")) as url:
        yield url


TRAVERSALS = ["/static/../server/app.py", "/static/../app.py", "/static/..%2fapp.py", "/static/..%2f..%2fpyproject.toml",
              "/static/%2e%2e/app.py", "/static//etc/passwd", "/static/..\\app.py", "/t/..%2f..%2fserver%2fapp.py",
              "/t/../../etc/passwd", "/api/i18n/..%2F..%2Fapp.py", "/api/i18n/..%2Fen.json", "/api/i18n/../../store.py",
              "/api/tables/..%2f..%2fetc%2fpasswd", "/api/tables/x/cards/..%2f..%2fapp.py",
              "/docs/assets/../core.py", "/docs/assets/..%2fcore.py", "/docs/assets/%2e%2e/__init__.py"]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_no_route_reaches_a_file_outside_the_pages_own(base_url: str, target: str) -> None:
    status, body = raw_get(base_url, target)
    assert b"create_app" not in body and b"root:" not in body and b"[project]" not in body
    assert b"def " not in body and b"import " not in body  # no source file
    assert status in (200, 400, 404, 422), status  # 200: the page itself (/t/<anything> is the page)


def test_uploads_are_never_written_under_a_name_the_client_chose(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with TestClient(create_app(tmp_path / "db" / "t.sqlite3")) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        response = client.post(f"/api/tables/{table['id']}/photos?name=evil.jpg&filename=evil.jpg",
                               content=WINNING_PHOTO.read_bytes(),
                               headers={**player(table), "Content-Type": "image/jpeg",
                                        "Content-Disposition": 'attachment; filename="../evil.jpg"'})
        assert response.status_code == 201
    written = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")}
    assert written <= {"db", "db/t.sqlite3", "db/t.sqlite3-wal", "db/t.sqlite3-shm"}


def test_no_cross_origin_access_by_default(client: TestClient, table: dict) -> None:
    elsewhere = {"Origin": "https://evil.example"}
    read = client.get(f"/api/tables/{table['id']}", headers=elsewhere)
    preflight = client.options(f"/api/tables/{table['id']}/settings",
                               headers={**elsewhere, "Access-Control-Request-Method": "PUT",
                                        "Access-Control-Request-Headers": "x-table-token"})
    for response in (read, preflight):
        assert not any(name.lower().startswith("access-control-") for name in response.headers)
    assert preflight.status_code == 405


@pytest.mark.parametrize("path", ["/", "/t/abc", "/static/app.js", "/api/layout", "/docs", "/docs/assets/swagger-ui.css"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"  # the join link's token must not leave in a Referer
    assert headers["x-frame-options"] == "DENY"


def test_the_policy_allows_only_the_pages_own_files() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["default-src"] == directives["script-src"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "*" not in CONTENT_SECURITY_POLICY
    assert directives["frame-ancestors"] == "'none'"


def test_the_raw_requests_above_do_reach_the_pages_own_files(base_url: str) -> None:
    status, body = raw_get(base_url, "/static/app.js")
    assert status == 200 and b"function" in body  # so the refusals above are refusals, not a broken probe
