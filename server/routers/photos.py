"""Photos: a player sends one, the server reads it and judges it; the table's readings;
undo the last one; correct a misread cell."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from typing import Annotated, Any

import anyio
import numpy as np
from cachetools import LRUCache
from fastapi import APIRouter, Depends, Header, Query, Request, Response

from referee.board import Board
from referee.cells import CORNERS, cell
from referee.judge import judge
from server.deps import HubDep, PlayerTableDep, SettingsDep, StoreDep, TableDep
from server.errors import ApiError
from server.reading import (corrected_reading, correction_event, events_between, reading_json, turn_event,
                            turned_reading, verdict_events, with_corrections)
from server.routers.tables import readings_out, table_out
from server.schemas import CorrectionIn, ReadingOut, TableOut, TurnIn
from server.settings import ServerSettings
from server.store import CalibrationRow
from server.workers import read_photo
from vision.config import VisionConfig
from vision.errors import (BoardCutOff, BoardNotFound, BoardUnreadable, ImageColourless, ImageTooLarge, ImageTooSmall,
                           ImageUnreadable, VisionError)
from vision.image_io import looks_like_photo
from vision.pipeline import analyze_bytes, next_frame_corners, turned_to_match
from vision.profile import Profile, ProfileError

router = APIRouter(prefix="/api/tables", tags=["photos"])
log = logging.getLogger(__name__)

# image/jpg: not standard, but some phones send it; HEIC: what iPhones and many Android phones save
ACCEPTED_TYPES = ("image/jpeg", "image/png", "image/jpg", "image/heic", "image/heif")
VISION_CODES: dict[type[VisionError], tuple[int, str]] = {
    ImageTooLarge: (413, "photo_too_many_pixels"),
    ImageTooSmall: (422, "photo_too_small"),
    ImageUnreadable: (422, "photo_unreadable"),
    ImageColourless: (422, "photo_colourless"),
    BoardNotFound: (422, "board_not_found"),
    BoardUnreadable: (422, "board_unreadable"),
    BoardCutOff: (422, "board_cut_off"),
}


PROFILES_KEPT = 32  # decoded calibration profiles kept in memory (one per busy table)
LIVE_CAMERAS_KEPT = 256  # live cameras whose grid's place is kept (a page opened again is a new camera)


class Readers:
    """Bounds the photos analysed at once, orders the writes of one table, and remembers each
    table's last live frame that differed from its reading and, for each live camera, where the
    grid lay in its last frame read (kept in memory: hints, not state)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.limiter = anyio.CapacityLimiter(settings.analyses_at_once)
        self.table_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.live_candidate: dict[str, list[str]] = {}
        # (table, camera) -> where that camera's next frame's grid is looked for first: two phones
        # streaming one table see it from two places
        self.live_corners: LRUCache[tuple[str, str], list[list[float]]] = LRUCache(LIVE_CAMERAS_KEPT)
        self._profiles: dict[int, Profile] = {}  # calibration row id -> its profile, decoded once

    def profile(self, row: CalibrationRow | None) -> Profile | None:
        """The calibration's profile, decoded once (a profile that no longer loads reads as none)."""
        if row is None:
            return None
        if row.id not in self._profiles:
            if len(self._profiles) >= PROFILES_KEPT:
                self._profiles.clear()
            try:
                self._profiles[row.id] = Profile.from_json(row.profile)
            except ProfileError:
                log.warning("calibration %s of a table cannot be used", row.id)
                return None
        return self._profiles[row.id]


async def get_readers(request: Request) -> Readers:
    return request.app.state.readers


def check_content_type(content_type: str | None) -> None:
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind not in ACCEPTED_TYPES:
        raise ApiError(415, "photo_type", type=kind or "none")


async def read_limited(request: Request, limit: int) -> bytes:
    """The request body, refused as soon as it passes ``limit`` bytes (before it is all sent)."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "photo_too_large", megabytes=round(limit / 1e6, 1))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "photo_too_large", megabytes=round(limit / 1e6, 1))
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data:
        raise ApiError(400, "photo_empty")
    if not looks_like_photo(data):
        raise ApiError(415, "photo_not_image")
    return data


def analyse(data: bytes, team_count: int, profile: Profile | None = None,
            near_corners: list[list[float]] | None = None, earlier_grid: list[str] | None = None) -> dict[str, Any]:
    """Reads and judges a photo, with the table's calibration if it has one (runs in a worker
    thread); ``near_corners``: where the grid lay in the live camera's frame before (its
    ``corners_px``), looked at first; ``earlier_grid``: the table's last reading, whose
    chips tell the top when the cards cannot (``turned_to_match``). Raises ApiError for a bad
    photo."""
    start = time.perf_counter()
    near_xy = None if near_corners is None else np.float32(near_corners)
    config = VisionConfig()
    try:
        analysis = analyze_bytes(data, team_count, config, profile=profile, near_xy=near_xy)
        if earlier_grid is not None:
            analysis = turned_to_match(analysis, Board.from_rows(earlier_grid), config)
    except VisionError as error:
        status, code = VISION_CODES.get(type(error), (422, "photo_unreadable"))
        raise ApiError(status, code) from None
    except Exception:  # a bug in reading this one photo: say so, log it, keep serving
        log.exception("reading an uploaded photo failed")
        raise ApiError(422, "photo_failed") from None
    verdict = judge(analysis.board, team_count)
    return reading_json(analysis, verdict, (time.perf_counter() - start) * 1000.0)


@router.post(
    "/{table_id}/photos", status_code=201, response_model=ReadingOut, summary="Send a photo of the board (players only)",
    description="The body is the photo itself (JPEG, PNG or HEIC), with its Content-Type. The reading mirrors "
    "`seqcam analyze --json`; a bad photo gets a 4xx with `detail` and a stable `code`. A photo that reads "
    "exactly as the latest reading is not stored: 200 with that reading and `unchanged` true.",
    openapi_extra={"requestBody": {"required": True, "content": {t: {"schema": {"type": "string", "format": "binary"}}
                                                                 for t in ACCEPTED_TYPES}}},
)
async def send_photo(request: Request, response: Response, table: PlayerTableDep, store: StoreDep, hub: HubDep,
                     settings: SettingsDep, readers: Annotated[Readers, Depends(get_readers)],
                     content_type: Annotated[str | None, Header()] = None,
                     live: Annotated[bool, Query(description="a frame of a live camera: stored once two frames in a "
                                                 "row read the same, so a passing hand or a misread frame is ignored; "
                                                 "read first where this camera (``camera``) last found the grid, "
                                                 "with no search of the photo")] = False,
                     camera: Annotated[str, Query(pattern=r"^[A-Za-z0-9_-]{0,32}$",
                                                  description="which live camera sent the frame (a short name the page "
                                                  "picks): each camera's frames are read first where that camera "
                                                  "last found the grid")] = "",
                     ) -> ReadingOut:
    check_content_type(content_type)
    data = await read_limited(request, settings.max_upload_bytes)
    profile = readers.profile(store.calibration(table))
    # a live camera stays put: its frames are read where the grid was, with no search (a frame
    # with no board keeps that place: a hand passed; a camera that moved is found by the search)
    live_camera = (table.id, camera)
    near = readers.live_corners.get(live_camera) if live else None
    earlier = store.latest_reading(table)
    earlier_grid = earlier.result["grid"] if earlier is not None else None
    if settings.reader_processes:
        async with readers.limiter:
            result = await read_photo(data, table.teams, profile, settings.reader_processes, near, earlier_grid)
    else:
        result = await anyio.to_thread.run_sync(analyse, data, table.teams, profile, near, earlier_grid,
                                                limiter=readers.limiter)
    if live:
        readers.live_corners[live_camera] = next_frame_corners(near, result["corners_px"], VisionConfig()).tolist()
    async with readers.table_locks[table.id]:
        with store.changing(table.id):  # the camera's thread may be storing a reading of this table
            current = store.table(table.id) or table
            latest = store.latest_reading(current)
            result = with_corrections(latest.result if latest is not None else None, result)
            if latest is not None and latest.result["grid"] == result["grid"]:
                # The same board again (a live camera sends one every second or two): nothing to store.
                readers.live_candidate.pop(table.id, None)
                response.status_code = 200
                return ReadingOut(id=latest.id, created=latest.created, result=latest.result, unchanged=True)
            if live and readers.live_candidate.get(table.id) != result["grid"]:
                readers.live_candidate[table.id] = result["grid"]
                response.status_code = 202
                return ReadingOut(id=0, created=time.time(), result=result, pending=True)
            readers.live_candidate.pop(table.id, None)
            before = Board.from_rows(latest.result["grid"]) if latest else None
            events = events_between(before, Board.from_rows(result["grid"]), current.teams, time.time())
            stored = store.add_reading(current, result, events)
    hub.publish(table.id, "photo")
    return ReadingOut(id=stored.id, created=stored.created, result=stored.result)


@router.get("/{table_id}/photos", response_model=list[ReadingOut], summary="The game's readings, newest first")
def list_photos(table: TableDep, store: StoreDep, limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[ReadingOut]:
    return readings_out(store, table, limit)


@router.post("/{table_id}/undo", response_model=TableOut, summary="Undo the latest photo (players only)")
def undo_photo(request: Request, table: PlayerTableDep, store: StoreDep, hub: HubDep) -> TableOut:
    with store.changing(table.id):
        if store.undo_latest(table) is None:
            raise ApiError(409, "nothing_to_undo")
        latest = store.latest_reading(table)
    camera = request.app.state.camera
    if camera is not None and camera.table_id == table.id and latest is not None:
        camera.take_board(Board.from_rows(latest.result["grid"]))
    hub.publish(table.id, "undo")
    return table_out(store, table)



@router.post("/{table_id}/corrections", status_code=201, response_model=ReadingOut,
             summary="Correct one misread cell of the latest reading (players only)",
             description="Makes a new reading: the latest one with the cell set, judged again. Undo takes it back.")
async def correct_cell(body: CorrectionIn, table: PlayerTableDep, store: StoreDep, hub: HubDep,
                       readers: Annotated[Readers, Depends(get_readers)]) -> ReadingOut:
    where = cell(body.row, body.col)
    if where in CORNERS:
        raise ApiError(422, "corner_fixed")
    async with readers.table_locks[table.id]:
        with store.changing(table.id):  # the camera's thread may be storing a reading of this table
            latest = store.latest_reading(table)
            if latest is None:
                raise ApiError(409, "no_photo_yet")
            result, before, after = corrected_reading(latest.result, where, body.symbol)
            now = time.time()
            events = [correction_event(before, after, where, now), *verdict_events(before, after, table.teams, now)]
            stored = store.add_reading(table, result, events)
    hub.publish(table.id, "correction")
    return ReadingOut(id=stored.id, created=stored.created, result=stored.result)


@router.post("/{table_id}/turn", status_code=201, response_model=ReadingOut,
             summary="Turn the latest reading where the photo could not tell the board's top (players only)",
             description="Makes a new reading: the latest one turned clockwise, judged again. Later photos that "
             "cannot tell the top either are read the same way round. Undo takes it back.")
async def turn_reading(body: TurnIn, table: PlayerTableDep, store: StoreDep, hub: HubDep,
                       readers: Annotated[Readers, Depends(get_readers)]) -> ReadingOut:
    async with readers.table_locks[table.id]:
        with store.changing(table.id):  # the camera's thread may be storing a reading of this table
            latest = store.latest_reading(table)
            if latest is None:
                raise ApiError(409, "no_photo_yet")
            stored = store.add_reading(table, turned_reading(latest.result, body.quarter_turns),
                                       [turn_event(body.quarter_turns, time.time())])
    hub.publish(table.id, "correction")
    return ReadingOut(id=stored.id, created=stored.created, result=stored.result)
