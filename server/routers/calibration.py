"""Calibration: the players photograph their empty board once; later photos of this table
are read with what it taught (vision.profile). Forgetting it goes back to no set-up."""

from __future__ import annotations

import logging
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Header, Request

from calibration.learn import CalibrationError, calibrate
from server.deps import HubDep, PlayerTableDep, SettingsDep, StoreDep, TableDep
from server.errors import ApiError
from server.routers.photos import VISION_CODES, Readers, check_content_type, get_readers, read_limited
from server.schemas import CalibrationOut
from server.store import CalibrationRow
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.image_io import decode_image

router = APIRouter(prefix="/api/tables", tags=["calibration"])
# calibration.learn's error codes -> the API's (the page words them for an empty-board photo)
CALIBRATION_ERROR_CODES = {"board_not_found": "calibration_board_not_found", "board_cut_off": "calibration_board_cut_off"}
log = logging.getLogger(__name__)


def learn(data: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """The profile (as its JSON) and a summary, from an empty-board photo; runs in a worker
    thread and raises ApiError for a photo that cannot be used."""
    config = VisionConfig()
    try:
        result = calibrate(decode_image(data, config, "the empty-board photo").image_bgr, config=config)
    except CalibrationError as error:
        raise ApiError(422, CALIBRATION_ERROR_CODES.get(error.code, "calibration_board_not_found")) from None
    except VisionError as error:
        status, code = VISION_CODES.get(type(error), (422, "photo_unreadable"))
        raise ApiError(status, code) from None
    except Exception:  # a bug in this one photo: say so, log it, keep serving
        log.exception("calibrating on an uploaded photo failed")
        raise ApiError(422, "photo_failed") from None
    quality = result.profile.quality
    summary = {"clear_cells": quality.get("clear_cells", 0),
               "notes": [{"code": note.kind.value, "params": note.params, "text": note.message}
                         for note in result.warnings]}
    return result.profile.to_json(), summary


def calibration_out(row: CalibrationRow | None) -> CalibrationOut:
    if row is None:
        return CalibrationOut(calibrated=False)
    return CalibrationOut(calibrated=True, created=row.created, **row.summary)


@router.get("/{table_id}/calibration", response_model=CalibrationOut, summary="The table's calibration, if any")
def get_calibration(table: TableDep, store: StoreDep) -> CalibrationOut:
    return calibration_out(store.calibration(table))


@router.post(
    "/{table_id}/calibration", status_code=201, response_model=CalibrationOut,
    summary="Calibrate on a photo of the empty board (players only)",
    description="The body is the photo itself (JPEG, PNG or HEIC). Later photos of this table are read with it; "
    "`notes` say what looked doubtful, each with a stable `code`.",
    openapi_extra={"requestBody": {"required": True, "content": {"image/jpeg": {"schema": {"type": "string",
                                                                                             "format": "binary"}}}}},
)
async def send_calibration(request: Request, table: PlayerTableDep, store: StoreDep, hub: HubDep,
                           settings: SettingsDep, readers: Annotated[Readers, Depends(get_readers)],
                           content_type: Annotated[str | None, Header()] = None) -> CalibrationOut:
    check_content_type(content_type)
    data = await read_limited(request, settings.max_upload_bytes)
    profile, summary = await anyio.to_thread.run_sync(learn, data, limiter=readers.limiter)
    store.add_calibration(table, profile, summary)
    hub.publish(table.id, "calibration")
    return calibration_out(store.calibration(table))


@router.delete("/{table_id}/calibration", response_model=CalibrationOut,
               summary="Forget the calibration: read with no set-up (players only)")
def forget_calibration(table: PlayerTableDep, store: StoreDep, hub: HubDep) -> CalibrationOut:
    store.add_calibration(table, None, {})
    hub.publish(table.id, "calibration")
    return calibration_out(None)
