"""Bad requests on every entry point of the API, fuzzed: each gets a 4xx with a ``code`` and a
``detail``, never a 500, and the table is left exactly as it was."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.app import create_app
from tests.server.conftest import WINNING_PHOTO, player, send_photo

CORPUS = Path(__file__).resolve().parents[1] / "fuzz_corpus"
EXPECTED: dict[str, str] = json.loads((CORPUS / "expected.json").read_text())
UPLOAD_CODES = {"ImageTooLarge": (413, "photo_too_many_pixels"), "ImageUnreadable": (422, "photo_unreadable")}
# One app for all of a test's examples: the table must come out of them all untouched.
FUZZ = settings(max_examples=120, deadline=3000,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

content_types = st.sampled_from(["image/jpeg", "image/png", "image/jpg", "text/plain", "", "image/jpeg; charset=x",
                                 "multipart/form-data; boundary=x", "application/json"]) | st.text(max_size=30)
bodies = st.one_of(
    st.binary(max_size=2000),
    st.binary(max_size=2000).map(lambda tail: b"\xff\xd8\xff" + tail),  # claims JPEG, then anything
    st.binary(max_size=2000).map(lambda tail: b"\x89PNG\r\n\x1a\n" + tail),
    st.integers(1, len(WINNING_PHOTO.read_bytes()) - 1).map(lambda cut: WINNING_PHOTO.read_bytes()[:cut]),
)
odd_text = st.text(max_size=40) | st.sampled_from(["-1", "0", "1e309", "NaN", str(10**30), "%00", "../..", "true "])


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with TestClient(create_app(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3")) as client:
        table = client.post("/api/tables", json={"players": 2}).json()
        assert send_photo(client, table, WINNING_PHOTO.read_bytes()).status_code == 201
        yield client, table


def state(client: TestClient, table: dict) -> tuple[Any, ...]:
    url = f"/api/tables/{table['id']}"
    return client.get(url).json(), client.get(f"{url}/events").json(), client.get(f"{url}/calibration").json()


def assert_refused(response: Any) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:200])
    answer = response.json()
    assert answer["code"] and answer["detail"]


@FUZZ
@given(path=st.sampled_from(["photos", "calibration"]), body=bodies, content_type=content_types,
       live=st.none() | odd_text)
def test_any_upload_is_refused_with_a_code_and_changes_nothing(shared: Any, path: str, body: bytes,
                                                                content_type: str, live: str | None) -> None:
    client, table = shared
    before = state(client, table)
    params = {"live": live} if live is not None and path == "photos" else {}
    try:
        headers = {**player(table), "Content-Type": content_type}
        response = client.post(f"/api/tables/{table['id']}/{path}", content=body, headers=headers, params=params)
    except UnicodeEncodeError:
        return  # a header no HTTP client can send
    assert_refused(response)
    assert state(client, table) == before


@FUZZ
@given(route=st.sampled_from(["photos?limit={}", "events?limit={}", "removal?row={}&col=1", "removal?row=1&col={}",
                              "cards/{}", "{}"]),
       value=odd_text)
def test_absurd_query_and_path_values_are_4xx_with_a_code(shared: Any, route: str, value: str) -> None:
    client, table = shared
    response = client.get(f"/api/tables/{table['id']}/" + route.format(quote(value, safe="")))
    if response.status_code == 200:
        return  # a value that happens to be valid (limit=1, cards/KS ...)
    assert_refused(response)


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n.startswith("image/")))
def test_a_corpus_image_uploaded_gets_its_code_and_leaves_the_table_as_it_was(client: TestClient, judged_table: dict,
                                                                              name: str) -> None:
    before = client.get(f"/api/tables/{judged_table['id']}").json()
    kind = "image/png" if name.endswith(".png") else "image/jpeg"
    response = send_photo(client, judged_table, (CORPUS / name).read_bytes(), kind)
    assert (response.status_code, response.json()["code"]) == UPLOAD_CODES[EXPECTED[name]]
    assert client.get(f"/api/tables/{judged_table['id']}").json() == before


def test_a_huge_declared_length_is_refused_before_the_body_is_read(client: TestClient, table: dict) -> None:
    headers = {**player(table), "Content-Type": "image/jpeg", "Content-Length": str(10**12)}
    response = client.post(f"/api/tables/{table['id']}/photos", content=b"\xff\xd8\xff", headers=headers)
    assert response.status_code == 413 and response.json()["code"] == "photo_too_large"


@pytest.mark.parametrize("body", [b"{", b"[]", b'{"players": 1e999}', b'{"players": null}', b"\xff\xfe", b"{}" * 5000])
def test_malformed_json_is_a_422_with_a_code(client: TestClient, table: dict, body: bytes) -> None:
    for method, path in (("post", "/api/tables"), ("put", f"/api/tables/{table['id']}/settings"),
                         ("post", f"/api/tables/{table['id']}/corrections")):
        response = client.request(method, path, content=body,
                                  headers={**player(table), "Content-Type": "application/json"})
        assert response.status_code == 422, (path, response.text)
        assert response.json()["code"] == "invalid_request"


def test_a_huge_json_body_is_refused_before_it_fills_the_memory(client: TestClient, table: dict) -> None:
    huge = b'{"players": 2, "pad": "' + b"x" * 2_000_000 + b'"}'

    def streamed() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for start in range(0, len(huge), 65_536):
            yield huge[start:start + 65_536]

    for body in (lambda: huge, streamed):
        for method, path in (("post", "/api/tables"), ("put", f"/api/tables/{table['id']}/settings")):
            response = client.request(method, path, content=body(),
                                      headers={**player(table), "Content-Type": "application/json"})
            assert response.status_code == 413 and response.json()["code"] == "request_too_large"
    assert client.get(f"/api/tables/{table['id']}").json()["players"] == 2
