"""API errors: an HTTP status, a stable ``code`` the page translates, and the English
``detail`` from the catalogue for anyone reading the JSON."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from server.headers import SECURITY_HEADERS
from server.i18n import message, pick_language

log = logging.getLogger(__name__)


class ApiError(Exception):
    """Raised by handlers; ``code`` names ``error.<code>`` in the catalogue."""

    def __init__(self, status: int, code: str, **params: Any) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.params = params


def error_body(code: str, language: str, **params: Any) -> dict[str, Any]:
    return {"detail": message(f"error.{code}", language, **params), "code": code, "params": params}


async def api_error_handler(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    language = pick_language(request.headers.get("accept-language"))
    return JSONResponse(error_body(error.code, language, **error.params), status_code=error.status)


async def validation_error_handler(request: Request, error: Exception) -> JSONResponse:
    """FastAPI's own 422, with a sentence and a code like every other error."""
    assert isinstance(error, RequestValidationError)
    language = pick_language(request.headers.get("accept-language"))
    fields = ", ".join(".".join(str(p) for p in e.get("loc", ())[1:]) or "body" for e in error.errors())
    body = error_body("invalid_request", language, fields=fields)
    body["errors"] = [{"field": ".".join(str(p) for p in e.get("loc", ())), "type": e.get("type")}
                      for e in error.errors()]
    return JSONResponse(body, status_code=422)


# Starlette's own refusals (no such route, a file not in static/, a wrong method, a body too big) -> our codes.
HTTP_ERROR_CODES = {404: "not_found", 405: "method_not_allowed", 413: "request_too_large"}
OTHER_HTTP_ERROR = "request_refused"


async def http_error_handler(request: Request, error: Exception) -> JSONResponse:
    """Starlette's HTTP errors, with a sentence and a code like every other error."""
    assert isinstance(error, StarletteHTTPException)
    language = pick_language(request.headers.get("accept-language"))
    code = HTTP_ERROR_CODES.get(error.status_code, OTHER_HTTP_ERROR)
    return JSONResponse(error_body(code, language), status_code=error.status_code, headers=error.headers)


async def storage_error_handler(request: Request, error: Exception) -> JSONResponse:
    """SQLite cannot write (disk full, file read-only, I/O error, locked too long): the change
    was not made; say so and keep serving, so the next try works once the disk does."""
    assert isinstance(error, sqlite3.OperationalError)
    log.error("the database failed on %s %s: %s", request.method, request.url.path, error)
    return await api_error_handler(request, ApiError(503, "storage_unavailable"))


async def client_gone_handler(request: Request, error: Exception) -> JSONResponse:
    """A phone left (Wi-Fi dropped, screen locked) while still sending its photo: nothing was
    stored, no one is there to read an answer, and it is no fault of the server's."""
    log.info("a phone left while sending %s %s", request.method, request.url.path)
    return await api_error_handler(request, ApiError(400, "upload_interrupted"))


async def unexpected_error_handler(request: Request, error: Exception) -> JSONResponse:
    """A bug: the player still gets a sentence and a code, never a bare traceback."""
    log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    language = pick_language(request.headers.get("accept-language"))
    headers = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
    return JSONResponse(error_body("unexpected", language), status_code=500, headers=headers)
