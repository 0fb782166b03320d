"""The live camera in a real browser: Chromium films a still photo of the board as its camera."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect, sync_playwright

from server.browser import PHONE, fake_camera_args, launch, still_video_y4m
from server.i18n import message
from server.local import running_server
from tests.server.conftest import WINNING_PHOTO

@pytest.fixture(scope="module")
def camera_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    folder = tmp_path_factory.mktemp("camera")
    video = still_video_y4m(WINNING_PHOTO, folder / "board.y4m")
    with running_server(folder / "tables.sqlite3") as base_url, sync_playwright() as playwright:
        browser = launch(playwright, fake_camera_args(video))
        page = browser.new_context(**PHONE, locale="en-GB").new_page()
        page.set_default_timeout(15_000)
        page.goto(base_url + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
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
