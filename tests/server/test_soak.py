"""The soak script itself works: a tiny run sends every photo, phones come and go, no error,
memory is measured (the figures come from running it in full: README)."""

from __future__ import annotations

from server.soak import report, run


def test_a_tiny_soak_sends_every_photo_without_an_error() -> None:
    soak = run(tables=1, photos_per_table=4, senders=1, viewers=2, max_seconds=120)
    assert soak.errors == []
    assert len(soak.photo_ms) == 4 and soak.stream_joins >= 2
    assert soak.rss_mb["start"] > 0 and soak.rss_mb["end"] > 0
    lines = dict(line.split("  ", 1) for line in report(soak, 1, 4, 1, 2).splitlines())
    assert lines["photos answered / planned"].strip() == "4 / 4" and lines["errors"].strip() == "0"
