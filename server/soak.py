"""A bounded soak on loopback: ``python -m server.soak [--tables 3] [--photos-per-table 120] [--max-seconds 300]``.

Replays a one-hour game night as fast as the server goes: ``tables`` tables, each sent
``photos-per-table`` photos (one every 30 s for an hour is 120) by ``senders-per-table``
players, watched by ``viewers-per-table`` phones whose live streams keep dropping off and
coming back (each stays 1 to 4 s, then joins again, as phones sleep and wake). It stops by
itself when every photo is sent or ``--max-seconds`` pass, and prints photos per second,
latency percentiles, errors (target: none) and the server's memory (RSS, its photo readers
included) at the start, after each quarter of the photos and at the end: growth after
warm-up would be a leak.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from seqcam.samples import SAMPLE_DIR
from server.loadcheck import PHOTOS_1080P, percentile, photo_at_1080p, serve_in_subprocess

VIEW_SECONDS = (1.0, 4.0)  # how long a phone keeps its stream before dropping off
STORED_OR_SEEN = (200, 201)  # 200: the same board as the latest reading, already stored
MEMORY_CHECKPOINTS = (0.25, 0.5, 0.75)  # shares of the photos answered when the server's RSS is noted


@dataclass
class Soak:
    lock: threading.Lock = field(default_factory=threading.Lock)
    photo_ms: list[float] = field(default_factory=list)
    view_ms: list[float] = field(default_factory=list)  # a joining phone's fetch of the view
    errors: list[str] = field(default_factory=list)
    stream_joins: int = 0
    wakeups: int = 0
    rss_mb: dict[str, float] = field(default_factory=dict)
    elapsed_s: float = float("nan")

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def _status(pid: int | str) -> dict[str, str]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def rss_mb(pid: int) -> float:
    """Resident memory of the server and of its photo readers (its child processes), from
    /proc (Linux)."""
    total_kb = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = _status(entry.name)
        except OSError:  # the process ended while we looked
            continue
        if int(entry.name) == pid or status.get("PPid") == str(pid):
            total_kb += int(status.get("VmRSS", "0 kB").split()[0])
    return total_kb / 1024 if total_kb else float("nan")


def phone_coming_and_going(base: str, table_id: str, soak: Soak, stop: threading.Event, seed: int) -> None:
    """A phone at the table: joins the live stream and fetches the table's view (as the page
    does on 'hello'), reads each change's view from the stream, drops off after a while, joins
    again, until stopped."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=httpx.Timeout(10.0, read=1.0)) as client:
        while not stop.is_set():
            leave_at = time.monotonic() + rng.uniform(*VIEW_SECONDS)
            try:
                with client.stream("GET", f"/api/tables/{table_id}/stream") as stream:
                    if stream.status_code != 200:
                        soak.error(f"stream {stream.status_code}")
                        return
                    with soak.lock:
                        soak.stream_joins += 1
                    for line in stream.iter_lines():
                        if line.startswith("event: hello"):
                            start = time.perf_counter()
                            client.get(f"/api/tables/{table_id}/view").raise_for_status()
                            with soak.lock:
                                soak.view_ms.append((time.perf_counter() - start) * 1000)
                        elif line.startswith("data:") and '"view"' in line:
                            view = json.loads(line[5:])["view"]
                            with soak.lock:
                                soak.wakeups += "table" in view  # a whole view came
                        if stop.is_set() or time.monotonic() > leave_at:
                            break
            except httpx.ReadTimeout:
                continue  # a quiet second: the phone drops off and joins again
            except httpx.HTTPError as error:
                if not stop.is_set():
                    soak.error(f"viewer: {error.__class__.__name__}")


def player_sending(base: str, table: dict, photos: list[bytes], queue: list[int], soak: Soak, deadline: float) -> None:
    headers = {"X-Table-Token": table["token"], "Content-Type": "image/jpeg"}
    with httpx.Client(base_url=base, timeout=120.0) as client:
        while time.monotonic() < deadline:
            with soak.lock:
                if not queue:
                    return
                index = queue.pop()
            start = time.perf_counter()
            try:
                response = client.post(f"/api/tables/{table['id']}/photos", content=photos[index % len(photos)],
                                       headers=headers)
            except httpx.HTTPError as error:
                soak.error(f"photo: {error.__class__.__name__}")
                continue
            elapsed = (time.perf_counter() - start) * 1000
            if response.status_code in STORED_OR_SEEN:
                with soak.lock:
                    soak.photo_ms.append(elapsed)
            else:
                soak.error(f"photo {response.status_code} {response.json().get('code')}")


def run(tables: int, photos_per_table: int, senders: int, viewers: int, max_seconds: float) -> Soak:
    photos = [photo_at_1080p(SAMPLE_DIR / name) for name in PHOTOS_1080P]
    soak = Soak()
    stop = threading.Event()
    with tempfile.TemporaryDirectory() as folder, \
            serve_in_subprocess(Path(folder) / "soak.sqlite3") as (base, server):
        try:
            soak.rss_mb["start"] = rss_mb(server.pid)
            boards = [httpx.post(base + "/api/tables", json={"players": 4}).json() for _ in range(tables)]
            phones = [threading.Thread(target=phone_coming_and_going, args=(base, t["id"], soak, stop, i * 100 + n),
                                       daemon=True) for i, t in enumerate(boards) for n in range(viewers)]
            for thread in phones:
                thread.start()
            deadline = time.monotonic() + max_seconds
            queues = [list(range(photos_per_table)) for _ in boards]
            players = [threading.Thread(target=player_sending, args=(base, t, photos, q, soak, deadline))
                       for t, q in zip(boards, queues) for _ in range(senders)]
            start = time.perf_counter()
            for thread in players:
                thread.start()
            total = tables * photos_per_table
            while any(thread.is_alive() for thread in players):
                for share in MEMORY_CHECKPOINTS:  # after the first, warmed up: models loaded, caches full
                    if f"{share:.0%}" not in soak.rss_mb and len(soak.photo_ms) >= total * share:
                        soak.rss_mb[f"{share:.0%}"] = rss_mb(server.pid)
                soak.rss_mb["peak"] = max(soak.rss_mb.get("peak", 0.0), rss_mb(server.pid))
                time.sleep(0.5)
            soak.elapsed_s = time.perf_counter() - start
            stop.set()
            for thread in phones:
                thread.join(timeout=5)
            soak.rss_mb["end"] = rss_mb(server.pid)
            soak.rss_mb["database"] = sum(p.stat().st_size for p in Path(folder).iterdir()) / 1e6
        finally:
            stop.set()
    return soak


def report(soak: Soak, tables: int, photos_per_table: int, senders: int, viewers: int) -> str:
    done = len(soak.photo_ms)
    ms = soak.photo_ms
    rss = soak.rss_mb
    rows = [
        ("tables x (senders, phones watching)", f"{tables} x ({senders}, {viewers})"),
        ("photos answered / planned", f"{done} / {tables * photos_per_table}"),
        ("elapsed (s)", f"{soak.elapsed_s:.0f}"),
        ("photos per second", f"{done / soak.elapsed_s:.2f}" if done else "0"),
        ("photo latency p50 / p95 / p99 (ms)",
         f"{percentile(ms, 0.5):.0f} / {percentile(ms, 0.95):.0f} / {percentile(ms, 0.99):.0f}"),
        ("live stream joins (phones coming and going)", f"{soak.stream_joins}"),
        ("live updates with the view; a joining phone's fetch of it p50 / p95 / p99 (ms)",
         f"{soak.wakeups}; {percentile(soak.view_ms, 0.5):.0f} / {percentile(soak.view_ms, 0.95):.0f}"
         f" / {percentile(soak.view_ms, 0.99):.0f}"),
        ("errors", f"{len(soak.errors)} {sorted(set(soak.errors))[:5] or ''}".strip()),
        ("server RSS start / 25% / 50% / 75% / end / peak (MB)",
         " / ".join(f"{rss.get(k, float('nan')):.0f}" for k in ("start", "25%", "50%", "75%", "end", "peak"))),
        ("database on disk (MB)", f"{rss.get('database', float('nan')):.1f}"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--photos-per-table", type=int, default=120, help="120: one photo every 30 s for an hour")
    parser.add_argument("--senders-per-table", type=int, default=2)
    parser.add_argument("--viewers-per-table", type=int, default=6)
    parser.add_argument("--max-seconds", type=float, default=300.0, help="stop sending after this long (default 300)")
    args = parser.parse_args(argv)
    soak = run(args.tables, args.photos_per_table, args.senders_per_table, args.viewers_per_table, args.max_seconds)
    print(report(soak, args.tables, args.photos_per_table, args.senders_per_table, args.viewers_per_table))
    return 0 if soak.photo_ms and not soak.errors else 1


if __name__ == "__main__":
    sys.exit(main())
