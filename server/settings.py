"""The server's settings, in one typed object with defaults."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs


def default_db_path() -> Path:
    """``seqcam.sqlite3`` in the user's data folder (``~/.local/share/seqcam`` on Linux)."""
    return Path(platformdirs.user_data_dir("seqcam", appauthor=False)) / "seqcam.sqlite3"


@dataclass(frozen=True, slots=True)
class ServerSettings:
    db_path: Path
    lan_base_url: str | None = None  # e.g. http://192.168.1.20:8000: what the phones open when the laptop uses 127.0.0.1
    # A phone photo is 2-8 MB; vision accepts up to 60 MB from disk, the network much less.
    max_upload_bytes: int = 20_000_000
    max_json_bytes: int = 64_000  # any other request body: settings and corrections are a few hundred bytes
    analyses_at_once: int = 2  # one per core: more only queue inside OpenCV and use memory
    reader_processes: int = 2  # photos are read in this many worker processes (0: in the server's own threads)
    token_bytes: int = 24  # 32 URL-safe characters: unguessable, still fits a QR code well
    table_id_bytes: int = 6  # 8 characters: short enough to type from the screen
    max_streams_per_table: int = 200  # 12 players and their watchers, many times over: a bound, not a quota
    camera: str | None = None  # the server's own camera: a device index, a video file or a stream URL
    heartbeat_s: float = 15.0  # keeps the live stream open through proxies and phone sleep
