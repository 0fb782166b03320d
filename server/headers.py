"""The security headers every answer carries (see server/security.py), in one place: the
middleware adds them, and the last-resort error handler, which runs outside it, too."""

from __future__ import annotations

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
