"""A bounded load check on loopback: ``python -m server.loadcheck [--photos 200] [--senders 4] [--viewers 10] [--live]``.

Starts `seqcam serve` in a subprocess on a temporary database and a free port, connects
``viewers`` phones to one table's live stream (each fetches the table's view when it joins
and reads each change's new view from the stream, as the page does), sends ``photos`` 1080p
photos from ``senders`` players at once, then stops everything and prints photos analysed
per second and latencies. The default 200 photos (about 15 s) measure the server's steady
pace: in runs of 40 the start (the first photos sent all at once) and the end (fewer photos
in flight than readers) cost about 7% of it (14.3 photos/s against 15.3 on one machine). With ``--live`` the photos are a phone camera's
frames (``live=true``) of one view, as the page streams them. It never runs longer than
``--max-seconds``. Needs the test extra (httpx).
"""

from __future__ import annotations

import argparse
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import httpx

from seqcam.samples import SAMPLE_DIR
from server.local import free_port

HD = (1920, 1080)
PHOTOS_1080P = ("sample_01.jpg", "sample_03.jpg", "sample_04.jpg")  # each has a board that reads
START_TIMEOUT_S = 30.0
STORED, UNCHANGED = 201, 200  # a new reading (the phones are woken), or the same board as the last one (they are not)
SENT_AT = re.compile(r'"t": ([0-9.e+-]+)')  # when the server published a change (its message's "t")
PENDING = 202  # a live frame that changed the board, stored once the next frame agrees


def photo_at_1080p(path: Path) -> bytes:
    """The photo scaled to fit 1920 x 1080 (or 1080 x 1920), as a phone would send it."""
    image = cv2.imread(str(path))
    height, width = image.shape[:2]
    long_side, short_side = max(HD), min(HD)
    scale = min(long_side / max(width, height), short_side / min(width, height))
    resized = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    return cv2.imencode(".jpg", resized, [cv2.IMWRITE_JPEG_QUALITY, 88])[1].tobytes()


@dataclass
class Results:
    lock: threading.Lock = field(default_factory=threading.Lock)
    photo_ms: list[float] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)  # status codes of refused photos
    streams_opened: int = 0
    stored: int = 0  # photos that changed the table: each wakes every viewer
    wakeups: int = 0
    view_kb: list[float] = field(default_factory=list)  # size of each change's message
    delivery_ms: list[float] = field(default_factory=list)  # from the server's publish to a viewer's wake-up
    elapsed_s: float = float("nan")  # from the first photo sent to the last answer


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def viewer(base: str, table_id: str, results: Results, stop: threading.Event) -> None:
    """A phone watching the table: holds the live stream, fetches the view when it joins (on
    'hello'), then reads each change's new view from the stream."""
    # as a phone's EventSource does: wait through quiet spells (the server's heartbeat comes
    # every 15 s); a viewer that gave up sooner missed the changes made while it reconnected
    with httpx.Client(base_url=base, timeout=httpx.Timeout(5.0, read=30.0)) as client:
        while not stop.is_set():
            try:
                with client.stream("GET", f"/api/tables/{table_id}/stream") as stream:
                    for line in stream.iter_lines():
                        if stop.is_set():
                            return
                        if line == "event: hello":
                            client.get(f"/api/tables/{table_id}/view").raise_for_status()
                            with results.lock:
                                results.streams_opened += 1
                        elif line.startswith("data:") and '"what"' in line:
                            # only the time is read: the phone parses the view, this machine need not
                            delivered_ms = (time.time() - float(SENT_AT.search(line)[1])) * 1000
                            with results.lock:
                                results.wakeups += 1
                                results.delivery_ms.append(delivered_ms)
                                results.view_kb.append(len(line) / 1024 if '"view": {' in line else 0.0)
            except httpx.ReadTimeout:
                continue  # no change for a while: listen again
            except httpx.HTTPError:
                if not stop.is_set():
                    time.sleep(0.2)


def sender(base: str, table: dict, photos: list[bytes], queue: list[int], results: Results, deadline: float,
           live: bool = False) -> None:
    headers = {"X-Table-Token": table["token"], "Content-Type": "image/jpeg"}
    url = f"/api/tables/{table['id']}/photos" + ("?live=true" if live else "")
    with httpx.Client(base_url=base, timeout=120.0) as client:
        while time.monotonic() < deadline:
            with results.lock:
                if not queue:
                    return
                index = queue.pop()
            start = time.perf_counter()
            response = client.post(url, content=photos[index % len(photos)], headers=headers)
            elapsed = (time.perf_counter() - start) * 1000
            with results.lock:
                if response.status_code in (STORED, UNCHANGED, PENDING):
                    results.photo_ms.append(elapsed)
                    results.stored += response.status_code == STORED
                else:
                    results.failed.append(response.status_code)


def wait_until_up(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("seqcam serve stopped before it was up")
        try:
            httpx.get(base + "/api/setup", timeout=1.0)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("seqcam serve did not come up")


@contextmanager
def serve_in_subprocess(db_path: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """`seqcam serve` over ``db_path`` on a free loopback port, up and answering: its base URL
    and its process (to watch its memory); stopped when the block ends."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "seqcam.cli", "serve", "--port", str(port), "--db", str(db_path)],
                              stdout=subprocess.DEVNULL)
    try:
        wait_until_up(base, server)
        yield base, server
    finally:
        server.send_signal(signal.SIGINT)  # as Ctrl+C: the server stops its readers before it exits
        server.wait(timeout=10)


def run(photos_count: int, senders: int, viewers: int, max_seconds: float, live: bool = False) -> Results:
    photos = [photo_at_1080p(SAMPLE_DIR / name) for name in PHOTOS_1080P[: 1 if live else None]]
    results = Results()
    stop = threading.Event()
    with tempfile.TemporaryDirectory() as folder, serve_in_subprocess(Path(folder) / "load.sqlite3") as (base, _):
        try:
            table = httpx.post(base + "/api/tables", json={"players": 2}).json()
            watchers = [threading.Thread(target=viewer, args=(base, table["id"], results, stop), daemon=True)
                        for _ in range(viewers)]
            for thread in watchers:
                thread.start()
            connect_by = time.monotonic() + START_TIMEOUT_S
            while results.streams_opened < viewers and time.monotonic() < connect_by:
                time.sleep(0.05)  # every viewer listening before the first photo
            queue = list(range(photos_count))
            deadline = time.monotonic() + max_seconds
            start = time.perf_counter()
            players = [threading.Thread(target=sender, args=(base, table, photos, queue, results, deadline, live))
                       for _ in range(senders)]
            for thread in players:
                thread.start()
            for thread in players:
                thread.join()
            results.elapsed_s = time.perf_counter() - start
            time.sleep(1.0)  # the last wake-ups
        finally:
            stop.set()
    return results


def report(results: Results, senders: int, viewers: int) -> str:
    elapsed = results.elapsed_s
    done = len(results.photo_ms)
    rows = [
        ("photos read (1080p)", f"{done}"),
        ("photos refused", f"{len(results.failed)} {sorted(set(results.failed)) or ''}".strip()),
        ("players sending at once", f"{senders}"),
        ("phones watching", f"{viewers}"),
        ("photos per second", f"{done / elapsed:.2f}" if done else "0"),
        ("photo latency p50 / p95 (ms)", f"{percentile(results.photo_ms, 0.5):.0f} / {percentile(results.photo_ms, 0.95):.0f}"),
        ("live wake-ups received", f"{results.wakeups} (of {results.stored * viewers} expected: "
                                   f"{results.stored} photos changed the table)"),
        ("live update delivery p50 / p95 (ms)",
         f"{percentile(results.delivery_ms, 0.5):.0f} / {percentile(results.delivery_ms, 0.95):.0f}"),
        ("live update size p50 / max (kB, the view included)",
         f"{percentile(results.view_kb, 0.5):.1f} / {max(results.view_kb, default=0.0):.1f}"),
        ("mean photo latency (ms)", f"{statistics.fmean(results.photo_ms):.0f}" if done else "-"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.loadcheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=200, help="photos to send (default 200)")
    parser.add_argument("--senders", type=int, default=4, help="players sending at once (default 4)")
    parser.add_argument("--viewers", type=int, default=10, help="phones watching the live stream (default 10)")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="stop sending after this long (default 120)")
    parser.add_argument("--live", action="store_true", help="send a phone camera's frames of one view (live=true)")
    args = parser.parse_args(argv)
    results = run(args.photos, args.senders, args.viewers, args.max_seconds, args.live)
    print(report(results, args.senders, args.viewers))
    return 0 if results.photo_ms and not results.failed else 1


if __name__ == "__main__":
    sys.exit(main())
