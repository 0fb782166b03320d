"""The SQLite store: tables, their settings, every accepted photo's reading and its events.

One file, WAL mode so the page can read while a photo is written. Nothing is deleted: an
undo or a reset marks readings, so the history stays whole and a restart loses nothing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    players INTEGER NOT NULL,
    teams INTEGER NOT NULL,
    game INTEGER NOT NULL DEFAULT 1,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS readings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL REFERENCES tables(id),
    game INTEGER NOT NULL,
    created REAL NOT NULL,
    result TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL REFERENCES tables(id),
    reading_id INTEGER REFERENCES readings(id),
    game INTEGER NOT NULL,
    created REAL NOT NULL,
    event TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS calibrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL REFERENCES tables(id),
    created REAL NOT NULL,
    profile TEXT,
    summary TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS server_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS readings_of_table ON readings(table_id, game, id);
CREATE INDEX IF NOT EXISTS events_of_table ON events(table_id, game, id);
"""


class StoreError(Exception):
    """The database file cannot be opened or is not seqcam's (a sentence for the person serving)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    token: str
    players: int
    teams: int
    game: int
    created: float


@dataclass(frozen=True, slots=True)
class CalibrationRow:
    id: int
    created: float
    profile: dict[str, Any]  # the profile file's JSON (vision.profile)
    summary: dict[str, Any]  # what was learned and what looked doubtful, as the API gives it


@dataclass(frozen=True, slots=True)
class ReadingRow:
    id: int
    created: float
    result: dict[str, Any]  # the reading as the API returns it


class Store:
    """Thread-safe access to one SQLite file (handlers run in several threads)."""

    def __init__(self, path: Path) -> None:
        """Opens (or creates) the file; raises StoreError when it cannot be used."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.DatabaseError) as error:
            raise StoreError(f"Cannot keep the tables in {path}: {getattr(error, 'strerror', None) or error}. "
                             "Choose another file with --db.") from None
        self._lock = threading.Lock()
        self._changing: dict[str, threading.Lock] = {}

    def changing(self, table_id: str) -> threading.Lock:
        """Held while a table's next reading is made from its latest one (a photo, a correction,
        an undo, the camera's thread): one change of a table at a time, whichever thread makes it."""
        with self._lock:
            return self._changing.setdefault(table_id, threading.Lock())

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_table(self, table_id: str, token: str, players: int, teams: int) -> TableRow:
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (id, token, players, teams, created) VALUES (?, ?, ?, ?, ?)",
                (table_id, token, players, teams, time.time()),
            )
        table = self.table(table_id)
        assert table is not None
        return table

    def table(self, table_id: str) -> TableRow | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        return TableRow(**dict(row)) if row else None

    def update_settings(self, table_id: str, players: int, teams: int) -> None:
        with self._lock:
            self._db.execute("UPDATE tables SET players = ?, teams = ? WHERE id = ?", (players, teams, table_id))

    def new_game(self, table_id: str) -> None:
        """A reset: later readings and events belong to the next game; earlier ones are kept."""
        with self._lock:
            self._db.execute("UPDATE tables SET game = game + 1 WHERE id = ?", (table_id,))

    def add_reading(self, table: TableRow, result: dict[str, Any], events: list[dict[str, Any]]) -> ReadingRow:
        """Stores a reading and the events it caused, in one transaction."""
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN")
            try:
                cursor = self._db.execute(
                    "INSERT INTO readings (table_id, game, created, result) VALUES (?, ?, ?, ?)",
                    (table.id, table.game, now, json.dumps(result)),
                )
                reading_id = int(cursor.lastrowid)
                self._db.executemany(
                    "INSERT INTO events (table_id, reading_id, game, created, event) VALUES (?, ?, ?, ?, ?)",
                    [(table.id, reading_id, table.game, now, json.dumps(event)) for event in events],
                )
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite has already rolled back after some errors (disk full)
                    self._db.execute("ROLLBACK")
                raise
        return ReadingRow(reading_id, now, result)

    def latest_reading(self, table: TableRow) -> ReadingRow | None:
        readings = self.readings(table, limit=1)
        return readings[0] if readings else None

    def readings(self, table: TableRow, limit: int = 50) -> list[ReadingRow]:
        """The game's readings still in force, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, result FROM readings WHERE table_id = ? AND game = ? AND undone = 0 "
                "ORDER BY id DESC LIMIT ?",
                (table.id, table.game, limit),
            ).fetchall()
        return [ReadingRow(row["id"], row["created"], json.loads(row["result"])) for row in rows]

    def undo_latest(self, table: TableRow) -> int | None:
        """Marks the game's latest reading (and so its events) undone; its id, or None."""
        latest = self.latest_reading(table)
        if latest is None:
            return None
        with self._lock:
            self._db.execute("UPDATE readings SET undone = 1 WHERE id = ?", (latest.id,))
        return latest.id

    def events(self, table: TableRow, limit: int = 200) -> list[dict[str, Any]]:
        """The game's events whose reading is still in force, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT e.id, e.created, e.reading_id, e.event FROM events e "
                "JOIN readings r ON r.id = e.reading_id "
                "WHERE e.table_id = ? AND e.game = ? AND r.undone = 0 ORDER BY e.id DESC LIMIT ?",
                (table.id, table.game, limit),
            ).fetchall()
        return [{"id": row["id"], "created": row["created"], "reading_id": row["reading_id"], **json.loads(row["event"])}
                for row in rows]

    def add_calibration(self, table: TableRow, profile: dict[str, Any] | None, summary: dict[str, Any]) -> float:
        """Keeps a calibration (None: the players forgot it); the latest one is in force."""
        now = time.time()
        with self._lock:
            self._db.execute("INSERT INTO calibrations (table_id, created, profile, summary) VALUES (?, ?, ?, ?)",
                             (table.id, now, json.dumps(profile) if profile is not None else None, json.dumps(summary)))
        return now

    def calibration(self, table: TableRow) -> CalibrationRow | None:
        """The table's calibration in force, or None."""
        with self._lock:
            row = self._db.execute("SELECT id, created, profile, summary FROM calibrations WHERE table_id = ? "
                                   "ORDER BY id DESC LIMIT 1", (table.id,)).fetchone()
        if row is None or row["profile"] is None:
            return None
        return CalibrationRow(row["id"], row["created"], json.loads(row["profile"]), json.loads(row["summary"]))

    def state(self, key: str) -> str | None:
        """A value the server keeps across restarts (which table its own camera feeds)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM server_state WHERE key = ?", (key,)).fetchone()
        return row["value"] if row else None

    def set_state(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO server_state (key, value) VALUES (?, ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))
