"""Tables: start one, read its state, change its settings, reset it, its join QR code, and
the live stream every phone at the table listens to, which carries the page's whole view."""

from __future__ import annotations

import asyncio
import io
import secrets
from collections.abc import AsyncIterator
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from referee.cells import teams_for, win_target
from server.deps import HubDep, PlayerTableDep, SettingsDep, StoreDep, TableDep
from server.errors import ApiError
from server.live import CLOSED
from server.reading import team_splits
from server.schemas import CreatedTableOut, LinksOut, ReadingOut, TableOut, TableSettingsIn, TableViewOut
from server.settings import ServerSettings
from server.store import Store, TableRow

router = APIRouter(prefix="/api/tables", tags=["tables"])

VIEW_EVENTS, VIEW_PHOTOS = 60, 20  # what the page lists of the history and of the photos


def view_path(table: TableRow) -> str:
    return f"/t/{table.id}"


def join_path(table: TableRow) -> str:
    # After '#': browsers keep it out of requests, server logs and Referer headers.
    return f"{view_path(table)}#k={table.token}"


def table_out(store: Store, table: TableRow) -> TableOut:
    latest = store.latest_reading(table)
    return TableOut(id=table.id, players=table.players, teams=table.teams, game=table.game,
                    team_letters=list(teams_for(table.teams)), win_target=win_target(table.teams),
                    revision=latest.id if latest else 0, view_path=view_path(table),
                    reading_created=latest.created if latest else None, reading=latest.result if latest else None)


def readings_out(store: Store, table: TableRow, limit: int) -> list[ReadingOut]:
    """The table's latest ``limit`` readings, newest first."""
    return [ReadingOut(id=r.id, created=r.created, result=r.result) for r in store.readings(table, limit)]


def table_view(store: Store, table: TableRow) -> TableViewOut:
    """Everything the page shows of a table: its state, the latest events and readings."""
    return TableViewOut(table=table_out(store, table), events=store.events(table, VIEW_EVENTS),
                        photos=readings_out(store, table, VIEW_PHOTOS))


def table_view_json(store: Store, table_id: str) -> dict[str, Any] | None:
    """``table_view`` as JSON values, for the live stream; None for a table that is gone."""
    table = store.table(table_id)
    return None if table is None else table_view(store, table).model_dump(mode="json")


def checked_teams(settings: TableSettingsIn) -> int:
    splits = team_splits(settings.players)
    if settings.teams is None and len(splits) > 1:
        raise ApiError(422, "teams_needed", players=settings.players)
    if not splits or (settings.teams is not None and settings.teams not in splits):
        raise ApiError(422, "bad_team_split", players=settings.players)
    return settings.teams or splits[0]


@router.post("", status_code=201, response_model=CreatedTableOut, summary="Start a table")
def create_table(body: TableSettingsIn, store: StoreDep, settings: SettingsDep) -> CreatedTableOut:
    teams = checked_teams(body)
    table = store.create_table(secrets.token_urlsafe(settings.table_id_bytes),
                               secrets.token_urlsafe(settings.token_bytes), body.players, teams)
    state = table_out(store, table)
    return CreatedTableOut(**state.model_dump(), token=table.token, join_path=join_path(table))


@router.get("/{table_id}", response_model=TableOut, summary="A table's state and latest verdict")
async def read_table(table: TableDep, store: StoreDep) -> TableOut:
    return table_out(store, table)


@router.get("/{table_id}/view", response_model=TableViewOut,
            summary="What the page shows: the table's state, its latest events and readings")
async def read_table_view(table: TableDep, store: StoreDep) -> TableViewOut:
    return table_view(store, table)


@router.put("/{table_id}/settings", response_model=TableOut, summary="Change players and teams (players only)")
def change_settings(body: TableSettingsIn, table: PlayerTableDep, store: StoreDep, hub: HubDep) -> TableOut:
    store.update_settings(table.id, body.players, checked_teams(body))
    hub.publish(table.id, "settings")
    return table_out(store, store.table(table.id) or table)


@router.post("/{table_id}/reset", response_model=TableOut, summary="Start the next game (players only; history is kept)")
def reset_table(table: PlayerTableDep, store: StoreDep, hub: HubDep) -> TableOut:
    store.new_game(table.id)
    hub.publish(table.id, "reset")
    return table_out(store, store.table(table.id) or table)


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def base_url_for_phones(request: Request, settings: ServerSettings) -> str:
    """The address other phones can open: the one this request used, unless that is this
    computer's own loopback and `seqcam serve` knows its address on the Wi-Fi."""
    if request.url.hostname in LOOPBACK_HOSTS and settings.lan_base_url:
        return settings.lan_base_url
    return str(request.base_url).rstrip("/")


@router.get("/{table_id}/links", response_model=LinksOut, summary="The join and watch links (players only)")
def links(table: PlayerTableDep, request: Request, settings: SettingsDep) -> LinksOut:
    base = base_url_for_phones(request, settings)
    return LinksOut(join_url=base + join_path(table), view_url=base + view_path(table))


@router.get("/{table_id}/join.svg", summary="QR code of the join link (players only: it holds the token)",
            response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}})
def join_qr(table: PlayerTableDep, request: Request, settings: SettingsDep) -> Response:
    svg = qr_svg(base_url_for_phones(request, settings) + join_path(table))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def qr_svg(link: str) -> bytes:
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=6, border=2, xmldecl=False,
                                      title="join link", dark="#111", light="#fff")
    return svg.getvalue()


@router.get("/{table_id}/stream", summary="Live updates (server-sent events): 'change' with the table's new view "
            "(as /view gives it) whenever the table changes",
            response_class=StreamingResponse, responses={200: {"content": {"text/event-stream": {}}}})
async def stream(table: TableDep, request: Request, hub: HubDep, settings: SettingsDep) -> StreamingResponse:
    if hub.listeners(table.id) >= settings.max_streams_per_table:  # a runaway client must not exhaust the memory
        raise ApiError(429, "too_many_streams", limit=settings.max_streams_per_table)
    queue = hub.listen(table.id)

    async def events() -> AsyncIterator[str]:
        try:
            yield "retry: 1000\nevent: hello\ndata: {}\n\n"
            while not await request.is_disconnected():
                try:
                    what = await asyncio.wait_for(queue.get(), timeout=settings.heartbeat_s)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
                    continue
                if what == CLOSED:
                    return
                yield f"event: change\ndata: {what}\n\n"
        finally:
            hub.leave(table.id, queue)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
