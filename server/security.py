"""Security headers on every answer: the page runs only its own files, cannot be framed, and
never leaks its address (the players' join link carries the token) to another site."""

from __future__ import annotations

from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.errors import ApiError, api_error_handler
from server.headers import SECURITY_HEADERS

class SecurityHeaders:
    """Pure ASGI middleware (not BaseHTTPMiddleware, which would buffer the live stream)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [header for header in SECURITY_HEADERS if header[0] not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyTooLarge(StarletteHTTPException):
    """Raised inside the app's receive when a streamed body passes its limit; FastAPI passes an
    HTTPException from reading the body on, and the app answers it like any other (413)."""

    def __init__(self) -> None:
        super().__init__(413)


class BodyLimit:
    """Bounds every request body but the photos' (which read_limited bounds with its own,
    larger limit): a JSON body is a few hundred bytes, so a huge one is refused with 413
    before it fills the memory, by its Content-Length or, when it has none, as it streams."""

    def __init__(self, app: ASGIApp, max_bytes: int, exempt_suffixes: tuple[str, ...]) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.exempt_suffixes = exempt_suffixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].endswith(self.exempt_suffixes):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            response = await api_error_handler(Request(scope), ApiError(413, "request_too_large"))
            await response(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise BodyTooLarge()
            return message

        await self.app(scope, counting_receive, send)
