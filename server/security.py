"""Security headers on every answer: the page runs only its own files, cannot be framed, and
never leaks its address (the players' join link carries the token) to another site."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Only the page's own files; the QR code is inline SVG markup (no script, no style attribute);
# the live camera's <video> plays a MediaStream, photos leave as blobs.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                           "media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                           "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


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
