"""The page in a real browser: Debian's Chromium at a phone's viewport, two phones at a table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

from server.browser import PHONE, launch
from server.i18n import message
from server.local import running_server
from server.settings import ServerSettings
from tests.server.conftest import NO_BOARD_PHOTO, WINNING_PHOTO
from tests.server.test_calibration_api import EMPTY_BOARD

READ_TIMEOUT_MS = 60_000  # reading a photo takes about a second, much more on a busy machine
PAGE_TIMEOUT_MS = 15_000  # a busy 2-core machine can take seconds to load and lay out a page
expect.set_options(timeout=PAGE_TIMEOUT_MS)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("browser") / "tables.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


# Records what the page's Content-Security-Policy blocks (an init script is not subject to it).
RECORD_CSP_VIOLATIONS = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));"""


def phone(browser: Browser) -> Page:
    page = browser.new_context(**PHONE, locale="en-GB").new_page()
    page.add_init_script(RECORD_CSP_VIOLATIONS)
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    return page


def csp_violations(page: Page) -> list[str]:
    return page.evaluate("window.cspViolations")


def open_page(page: Page, url: str) -> None:
    """Goes to ``url`` and waits until the page's script has wired every control."""
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def start_table(page: Page, base_url: str) -> str:
    """Starts a two-player table from the home page; the table's watch link."""
    open_page(page, base_url + "/")
    page.select_option("#start-players", "2")
    page.get_by_role("button", name=message("page.start")).click()
    page.wait_for_url("**/t/*")
    expect(page.locator("#live")).to_have_attribute("data-on", "true")
    return page.url


def test_a_table_from_start_to_winner_with_a_watcher(browser: Browser, base_url: str) -> None:
    player = phone(browser)
    link = start_table(player, base_url)
    assert "#" not in link  # the token left the address bar for the phone's storage
    expect(player.locator("#photo-box")).to_be_visible()
    expect(player.locator("#qr svg")).to_be_visible()
    assert csp_violations(player) == []  # the security headers' policy lets the page and its QR code work

    watcher = phone(browser)
    open_page(watcher, link)
    expect(watcher.locator("#live")).to_have_attribute("data-on", "true")
    expect(watcher.locator("#watching")).to_be_visible()
    expect(watcher.locator("#photo-box")).to_be_hidden()
    expect(watcher.locator("#winner")).to_be_hidden()
    watcher.evaluate("window.sameDocument = true")  # gone if the page reloads

    player.set_input_files("#photo", str(WINNING_PHOTO))
    banner = player.locator("#winner")
    expect(banner).to_be_visible(timeout=READ_TIMEOUT_MS)
    expect(banner).to_contain_text(message("page.winner", team=message("team.B")))
    # pushed to the other phone without a reload (the delay is measured by python -m server.loadcheck)
    expect(watcher.locator("#winner")).to_contain_text(message("page.winner", team=message("team.B")))
    assert watcher.evaluate("window.sameDocument === true")

    expect(player.locator("#board .cell")).to_have_count(100)
    expect(player.locator("#board .cell.run")).to_have_count(15)  # three sequences of five
    expect(player.locator("#board .chip.protected")).to_have_count(15)
    expect(player.locator("#scores .score.B .count")).to_have_text(message("page.sequences", count=2, target=2))
    expect(player.locator("#scores .score.G .count")).to_have_text(message("page.sequences", count=1, target=2))
    chip = player.locator("[data-cell='4,7'] .chip")
    expect(chip).to_have_text("B")  # a letter as well as a colour

    chip.click()
    answer = player.locator("#answer")
    expect(answer).to_have_attribute("data-legal", "false")
    expect(answer.locator(".verdict")).to_have_text(message("page.answer_no"))
    player.locator("[data-cell='2,3']").click()
    expect(answer).to_have_attribute("data-legal", "true")
    expect(answer.locator(".verdict")).to_have_text(message("page.answer_yes"))

    player.locator("#fix [data-symbol='.']").click()  # a player says 2,3 is in fact empty
    expect(watcher.locator("[data-cell='2,3']")).to_have_class("cell corrected")
    expect(answer).to_have_attribute("data-legal", "false")  # no chip there any more
    watcher.locator("[data-cell='4,7']").click()
    expect(watcher.locator("#answer")).to_have_attribute("data-legal", "false")  # watchers may ask...
    expect(watcher.locator("#fix")).to_be_hidden()  # ...but not correct

    player.locator("#ranks [data-value='8']").click()
    player.locator("#suits [data-value='D']").click()
    expect(player.locator("#card-answer")).to_have_attribute("data-dead", "true")
    expect(player.locator("#card-answer")).to_contain_text(message("card.name", rank=message("rank.8"), suit=message("suit.D")))
    expect(player.locator("#board .cell.picked")).to_have_count(2)

    expect(watcher.locator("#events li")).to_have_count(5)  # three sequences, the winner, the correction
    expect(watcher.locator("#events li").nth(1)).to_contain_text(message("event.winner", team=message("team.B")))

    assert csp_violations(player) == [] and csp_violations(watcher) == []
    open_page(player, base_url + "/")  # the home page lists the tables this phone plays at
    table_id = link.rsplit("/", 1)[1]
    expect(player.locator("#my-tables a")).to_have_text([message("page.table", table=table_id)])
    open_page(watcher, base_url + "/")
    expect(watcher.locator("#start-form")).to_be_visible()
    expect(watcher.locator("#my-tables a")).to_have_count(0)  # watchers hold no token


def test_a_photo_without_a_board_says_what_to_do(browser: Browser, base_url: str) -> None:
    player = phone(browser)
    start_table(player, base_url)
    player.set_input_files("#photo", str(NO_BOARD_PHOTO))
    error = player.locator("#photo-error")
    expect(error).to_have_text(message("error.board_not_found"), timeout=READ_TIMEOUT_MS)
    expect(player.locator("#photo-label")).not_to_have_class("busy")
    expect(player.locator("#winner")).to_be_hidden()


def test_a_photo_too_large_for_the_server_is_shrunk_on_the_phone(browser: Browser, base_url: str,
                                                                 tmp_path: Path) -> None:
    # a 36 MP photo of about 30 MB (a phone's high-resolution mode): over the server's upload limit as it is
    image = cv2.imread(str(WINNING_PHOTO))
    large = cv2.resize(image, (8000, 4500), interpolation=cv2.INTER_LINEAR)
    grain = np.random.default_rng(0).integers(0, 25, large.shape, dtype=np.uint8)
    large = cv2.subtract(cv2.add(large, grain), np.full_like(large, 12))
    path = tmp_path / "large.jpg"
    cv2.imwrite(str(path), large, [cv2.IMWRITE_JPEG_QUALITY, 98])
    assert path.stat().st_size > ServerSettings(db_path=Path("unused")).max_upload_bytes
    player = phone(browser)
    start_table(player, base_url)
    player.set_input_files("#photo", str(path))
    expect(player.locator("#winner")).to_contain_text(message("page.winner", team=message("team.B")),
                                                      timeout=READ_TIMEOUT_MS)


def a_player_and_a_watcher_after_the_winning_photo(browser: Browser, base_url: str) -> tuple[Page, Page]:
    player = phone(browser)
    link = start_table(player, base_url)
    watcher = phone(browser)
    open_page(watcher, link)
    player.set_input_files("#photo", str(WINNING_PHOTO))
    expect(watcher.locator("#winner")).to_be_visible(timeout=READ_TIMEOUT_MS)
    return player, watcher


def test_undo_takes_the_verdict_back_on_every_phone(browser: Browser, base_url: str) -> None:
    player, watcher = a_player_and_a_watcher_after_the_winning_photo(browser, base_url)
    player.get_by_role("button", name=message("page.undo")).click()
    expect(watcher.locator("#winner")).to_be_hidden()
    expect(watcher.locator("#board .chip")).to_have_count(0)


def test_a_player_turns_the_board_and_every_phone_sees_it_turned(browser: Browser, base_url: str) -> None:
    player, watcher = a_player_and_a_watcher_after_the_winning_photo(browser, base_url)
    symbols = [watcher.locator(f'#board [data-cell="{r},{c}"]').get_attribute("data-symbol")
               for r, c in ((9, 1), (0, 3), (2, 9))]
    player.get_by_role("button", name=message("page.turn")).click()
    # a quarter turn clockwise: row r, column c goes to row c, column 9 - r (each of these was empty)
    assert symbols == ["B", "G", "B"]
    for (r, c), symbol in zip(((1, 0), (3, 9), (9, 7)), symbols):
        expect(watcher.locator(f'#board [data-cell="{r},{c}"]')).to_have_attribute("data-symbol", symbol)
    expect(watcher.locator("#winner")).to_be_visible()


def test_the_api_docs_work_offline_under_the_pages_policy(browser: Browser, base_url: str) -> None:
    page = phone(browser)
    elsewhere: list[str] = []  # the phones at the table have no internet: any other address is refused

    def refuse(route: Route) -> None:
        elsewhere.append(route.request.url)
        route.abort()

    page.route(lambda url: not url.startswith(base_url + "/"), refuse)
    errors: list[str] = []
    page.on("console", lambda entry: errors.append(entry.text) if entry.type == "error" else None)
    page.goto(base_url + "/docs")
    start = page.locator(".opblock-post", has=page.locator(".opblock-summary-path", has_text=re.compile("^/api/tables$")))
    expect(start).to_be_visible()  # Swagger UI ran and read the schema
    start.locator(".opblock-summary").click()
    start.get_by_role("button", name="Try it out").click()
    start.get_by_role("button", name="Execute").click()  # the page calls the API too
    expect(start.locator(".live-responses-table tr.response .response-col_status")).to_have_text("201")
    assert csp_violations(page) == [] and errors == []
    assert elsewhere == []


def test_the_page_speaks_the_phones_language_and_remembers_a_switch(browser: Browser, base_url: str) -> None:
    page = browser.new_context(**PHONE, locale="fr-FR").new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    open_page(page, base_url + "/")
    start = page.locator("#start-form button[type=submit]")
    expect(start).to_have_text(message("page.start", "fr"))
    page.select_option("#lang", "ja")
    expect(start).to_have_text(message("page.start", "ja"))
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(start).to_have_text(message("page.start", "ja"))
    expect(page.locator("html")).to_have_attribute("lang", "ja")


def test_players_calibrate_on_the_empty_board_from_the_page(browser: Browser, base_url: str) -> None:
    player = phone(browser)
    start_table(player, base_url)
    status = player.locator("#calibration-status")
    expect(status).to_have_text(message("page.calibration_none"))
    player.set_input_files("#calibration-photo", str(EMPTY_BOARD))
    expect(status).to_have_attribute("data-calibrated", "true", timeout=READ_TIMEOUT_MS)
    expect(player.locator("#calibration-notes li")).to_have_count(0)  # the bundled empty board is a clean photo
    player.click("#calibration-forget")
    expect(status).to_have_text(message("page.calibration_none"))
    player.set_input_files("#calibration-photo", str(NO_BOARD_PHOTO))
    expect(player.locator("#calibration-error")).to_have_text(message("error.calibration_board_not_found"),
                                                             timeout=READ_TIMEOUT_MS)
