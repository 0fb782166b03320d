"""The app factory: ``create_app(db_path)`` builds the FastAPI app that `seqcam serve` runs."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from seqcam.watch_command import parse_source
from server.camera import CameraFollower
from server.errors import (
    ApiError,
    api_error_handler,
    client_gone_handler,
    http_error_handler,
    storage_error_handler,
    unexpected_error_handler,
    validation_error_handler,
)
from server.i18n import FALLBACK, LANGUAGES, catalogue
from server.live import Hub
from server.routers import calibration, history, photos, queries, tables
from server.security import BodyLimit, SecurityHeaders
from server.settings import ServerSettings
from server.store import Store, TableRow
from server.workers import start_workers

STATIC_DIR = Path(str(resources.files("server").joinpath("static")))


CAMERA_TABLE_KEY = "camera_table"


def camera_table_of(store: Store, settings: ServerSettings) -> TableRow:
    """The table the server's own camera feeds: the same one after a restart."""
    known = store.state(CAMERA_TABLE_KEY)
    table = store.table(known) if known else None
    if table is None:
        table = store.create_table(secrets.token_urlsafe(settings.table_id_bytes),
                                   secrets.token_urlsafe(settings.token_bytes), players=2, teams=2)
        store.set_state(CAMERA_TABLE_KEY, table.id)
    return table


def create_app(db_path: Path | str, **overrides: Any) -> FastAPI:
    """The app over the SQLite file ``db_path``; ``overrides`` replace ServerSettings fields."""
    settings = replace(ServerSettings(db_path=Path(db_path)), **overrides)
    store = Store(settings.db_path)

    camera_table = camera_table_of(store, settings) if settings.camera else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.reader_processes:
            start_workers(settings.reader_processes)
        follower = None
        if camera_table is not None and settings.camera is not None:
            follower = CameraFollower(parse_source(settings.camera), store, camera_table, app.state.hub.publish)
            follower.start()
        app.state.camera = follower
        yield
        if follower is not None:
            follower.stop()
        store.close()

    # FastAPI's own /docs loads Swagger UI from a CDN and starts it with an inline script: ours is
    # below. No /redoc: ReDoc styles itself with injected <style> elements, which the policy refuses.
    app = FastAPI(title="seqcam", summary="The table's referee: photos of a Sequence board, read and judged.",
                  version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.store = store
    app.state.camera_table = camera_table
    app.state.camera = None  # the follower, once the app has started
    app.state.hub = Hub(view=lambda table_id: tables.table_view_json(store, table_id))
    app.state.readers = photos.Readers(settings)
    app.add_middleware(BodyLimit, max_bytes=settings.max_json_bytes, exempt_suffixes=("/photos", "/calibration"))
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(ApiError, api_error_handler)
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    app.add_exception_handler(StarletteHTTPException, http_error_handler)
    app.add_exception_handler(sqlite3.OperationalError, storage_error_handler)
    app.add_exception_handler(ClientDisconnect, client_gone_handler)
    app.add_exception_handler(Exception, unexpected_error_handler)
    for router in (tables.router, photos.router, calibration.router, history.router, queries.router):
        app.include_router(router)

    @app.get("/api/i18n/{language}", tags=["board"], summary="The page's texts in a language (English if not offered)")
    def texts(language: str) -> dict[str, Any]:
        return {"language": language if language in LANGUAGES else FALLBACK,
                "languages": {code: catalogue(code)["lang.name"] for code in LANGUAGES},
                "texts": catalogue(language)}

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        return FileResponse(STATIC_DIR / "docs.html", headers={"Cache-Control": "no-cache"})

    # Swagger UI's files as the fastapi-offline package bundles them: /docs works without the internet.
    app.mount("/docs/assets", StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-assets")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
