"""Screenshots of the main screens at a phone's viewport:
``python -m server.screenshots [--out docs/screenshots] [--languages en fr ja]``.

Starts a server on a temporary database, plays a table through the page in Chromium (start,
photo, dispute, card, invite, history, a watcher, a bad photo, a hidden cell, the live camera
filming the sample photo) and writes one PNG per screen. Japanese needs a CJK font on this
machine (Debian: fonts-noto-cjk); phones have their own.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

from seqcam.samples import SAMPLE_DIR
from server.browser import PHONE, fake_camera_args, launch, still_video_y4m
from server.i18n import LANGUAGES
from server.local import running_server

DEFAULT_OUT = Path("docs/screenshots")
WINNING_PHOTO = SAMPLE_DIR / "sample_01.jpg"  # blue has won: two sequences
NO_BOARD_PHOTO = SAMPLE_DIR / "sample_08.jpg"
EMPTY_BOARD = SAMPLE_DIR / "empty_board_01.jpg"  # the empty board of sample_01's game
PROTECTED_CHIP = "4,7"  # blue, in a completed sequence
HIDDEN_CELL = (1, 7)  # just above blue's run down column 7: hiding it leaves the run's far end in doubt
DOUBTFUL_CHIP = "6,7"


def start_table(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#start-players", "2")
    page.click("#start-form button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#live[data-on=true]")


def send_photo(page: Page, photo: Path) -> None:
    page.set_input_files("#photo", str(photo))


def shoot(page: Page, out: Path, name: str) -> Path:
    """One screen as a 256-colour PNG: a third of the size, no visible loss on flat colours."""
    path = out / f"{name}.png"
    shot = Image.open(io.BytesIO(page.screenshot(animations="disabled")))
    shot.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)
    return path


def take_screenshots(out: Path, language: str = "en") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if language == "en" else f"-{language}"
    shots: list[Path] = []
    with tempfile.TemporaryDirectory() as folder, running_server(Path(folder) / "shots.sqlite3") as base_url, \
            sync_playwright() as playwright:
        camera = still_video_y4m(WINNING_PHOTO, Path(folder) / "board.y4m")
        browser = launch(playwright, fake_camera_args(camera))
        context = browser.new_context(**{**PHONE, "device_scale_factor": 1}, locale=language)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('seqcam/lang', '{language}')")
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-ready=true]")
        shots.append(shoot(page, out, f"1-start{suffix}"))
        start_table(page, base_url)
        send_photo(page, WINNING_PHOTO)
        page.wait_for_selector("#winner:not([hidden])", timeout=60_000)
        shots.append(shoot(page, out, f"2-verdict{suffix}"))
        page.click(f"[data-cell='{PROTECTED_CHIP}']")
        page.wait_for_selector("#answer:not([hidden])")
        shots.append(shoot(page, out, f"3-removal{suffix}"))
        page.click("#answer-close")
        page.click("#ranks [data-value='8']")
        page.click("#suits [data-value='D']")
        page.wait_for_selector("#card-answer[data-dead]")
        page.evaluate("window.scrollBy(0, document.querySelector('#card-answer').getBoundingClientRect().bottom"
                      " - window.innerHeight + 16)")  # the answer at the bottom, the board's lower rows above
        shots.append(shoot(page, out, f"4-card{suffix}"))
        page.locator("#join-box").scroll_into_view_if_needed()
        shots.append(shoot(page, out, f"5-invite{suffix}"))
        page.locator("#events").scroll_into_view_if_needed()
        shots.append(shoot(page, out, f"6-history{suffix}"))
        watcher = context.browser.new_context(**{**PHONE, "device_scale_factor": 1}, locale=language).new_page()
        watcher.add_init_script(f"localStorage.setItem('seqcam/lang', '{language}')")
        watcher.goto(page.url.split("#")[0])
        watcher.wait_for_selector("#winner:not([hidden])")
        shots.append(shoot(watcher, out, f"7-watcher{suffix}"))
        send_photo(page, NO_BOARD_PHOTO)
        page.wait_for_selector("#photo-error:not([hidden])", timeout=60_000)
        page.locator("#photo-box").scroll_into_view_if_needed()
        shots.append(shoot(page, out, f"8-bad-photo{suffix}"))
        row, col = HIDDEN_CELL
        page.click(f"[data-cell='{row},{col}']")
        page.click("#fix [data-symbol='?']")
        page.click(f"[data-cell='{DOUBTFUL_CHIP}']")
        page.wait_for_selector("#answer[data-legal=null]")
        shots.append(shoot(page, out, f"9-cannot-tell{suffix}"))
        page.click("#answer-close")
        page.click("#undo")
        page.click("#camera-start")
        page.wait_for_selector("#camera-status[data-state=read]", timeout=60_000)
        page.locator("#camera-box").scroll_into_view_if_needed()
        shots.append(shoot(page, out, f"10-camera{suffix}"))
        page.click("#camera-stop")
        page.set_input_files("#calibration-photo", str(EMPTY_BOARD))
        page.wait_for_selector("#calibration-forget:not([hidden])", timeout=60_000)
        page.locator("#calibration-box").scroll_into_view_if_needed()
        shots.append(shoot(page, out, f"11-calibration{suffix}"))
        page.locator("#admin-box").scroll_into_view_if_needed()  # settings, undo, turn the board, new game
        shots.append(shoot(page, out, f"12-settings{suffix}"))
        browser.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.screenshots", description="Screenshots of the phone page.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"folder for the PNGs (default {DEFAULT_OUT})")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES), choices=LANGUAGES, help="languages to shoot")
    args = parser.parse_args(argv)
    for language in args.languages:
        for path in take_screenshots(args.out, language):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
