"""The live camera in a real browser: Chromium films a still photo of the board as its camera."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from playwright.sync_api import expect, sync_playwright

from server.browser import PHONE, fake_camera_args, launch
from server.i18n import message
from server.local import running_server
from tests.server.conftest import WINNING_PHOTO

CAMERA_SIZE = (1280, 720)


def still_video_y4m(photo: Path, path: Path) -> Path:
    """A one-frame Y4M video (Chromium loops it) of ``photo`` at CAMERA_SIZE."""
    image = cv2.resize(cv2.imread(str(photo)), CAMERA_SIZE, interpolation=cv2.INTER_AREA)
    planes = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420)  # Y, then U and V at half size
    header = f"YUV4MPEG2 W{CAMERA_SIZE[0]} H{CAMERA_SIZE[1]} F1:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + b"FRAME\n" + planes.tobytes())
    return path


@pytest.fixture(scope="module")
def camera_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    folder = tmp_path_factory.mktemp("camera")
    video = still_video_y4m(WINNING_PHOTO, folder / "board.y4m")
    with running_server(folder / "tables.sqlite3") as base_url, sync_playwright() as playwright:
        browser = launch(playwright, fake_camera_args(video))
        page = browser.new_context(**PHONE, locale="en-GB").new_page()
        page.goto(base_url + "/")
        page.select_option("#start-players", "2")
        page.get_by_role("button", name=message("page.start")).click()
        page.wait_for_url("**/t/*")
        yield page
        browser.close()


def test_the_phone_camera_follows_the_board(camera_page) -> None:
    page = camera_page
    page.get_by_role("button", name=message("page.camera_start")).click()
    expect(page.locator("#camera-video")).to_be_visible()
    expect(page.locator("#winner")).to_contain_text(message("page.winner", team=message("team.B")), timeout=60_000)
    expect(page.locator("#camera-status")).to_have_attribute("data-state", "read")
    page.wait_for_timeout(3_000)  # two more looks at the same board
    assert len(page.evaluate("fetch(location.pathname.replace('/t/', '/api/tables/') + '/photos')"
                             ".then((r) => r.json())")) == 1  # the same board is stored once
    page.get_by_role("button", name=message("page.camera_stop")).click()
    expect(page.locator("#camera-video")).to_be_hidden()
