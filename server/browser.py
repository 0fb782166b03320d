"""Debian's Chromium under Playwright at a phone's viewport, for the browser tests and the
screenshots. Playwright never downloads a browser of its own here."""

from __future__ import annotations

from pathlib import Path

import cv2

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def launch(playwright, extra_args: tuple[str, ...] = ()):  # -> playwright.sync_api.Browser
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra_args], headless=True)


def fake_camera_args(video_y4m: Path) -> tuple[str, ...]:
    """Chromium flags that film ``video_y4m`` (looped) instead of a camera, with no permission prompt."""
    return ("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video_y4m}")


def still_video_y4m(photo: Path, path: Path, size: tuple[int, int] = (1280, 720)) -> Path:
    """A one-frame Y4M video of ``photo`` at ``size`` (Chromium loops it as a fake camera)."""
    image = cv2.resize(cv2.imread(str(photo)), size, interpolation=cv2.INTER_AREA)
    planes = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420)  # Y, then U and V at half size
    header = f"YUV4MPEG2 W{size[0]} H{size[1]} F1:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + b"FRAME\n" + planes.tobytes())
    return path
