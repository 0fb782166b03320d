"""Settling disputes on the latest reading: may this chip be removed? where is this card,
and is it dead?"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from referee.board import CHIP_COLOURS, EMPTY, Board
from referee.cells import CORNER, JACKS, LAYOUT, ONE_EYED_JACKS, card_symbol, cell, cells_of, parse_card
from referee.game import DEAL_SIZES
from server.deps import StoreDep, TableDep
from server.errors import ApiError
from server.reading import pair, removal_json, team_splits
from server.schemas import CardOut, LayoutCell, RemovalOut
from server.store import Store, TableRow

router = APIRouter(prefix="/api", tags=["disputes"])


def latest_board(store: Store, table: TableRow) -> Board:
    latest = store.latest_reading(table)
    if latest is None:
        raise ApiError(409, "no_photo_yet")
    return Board.from_rows(latest.result["grid"])


@router.get("/tables/{table_id}/removal", response_model=RemovalOut,
            summary="May an opponent remove the chip on a cell with a one-eyed jack?")
def removal_query(table: TableDep, store: StoreDep, row: Annotated[int, Query(ge=0, le=9)],
                  col: Annotated[int, Query(ge=0, le=9)]) -> RemovalOut:
    return RemovalOut(**removal_json(latest_board(store, table), cell(row, col)))


@router.get("/tables/{table_id}/cards/{card}", response_model=CardOut,
            summary="A card's two cells on the board, and whether it is dead (both taken)")
def card_query(table: TableDep, store: StoreDep, card: str) -> CardOut:
    try:
        short = parse_card(card)
    except ValueError:
        raise ApiError(422, "bad_card", card=card[:8]) from None
    if short in JACKS:
        kind = "one_eyed" if short in ONE_EYED_JACKS else "two_eyed"
        return CardOut(card=short, symbol=card_symbol(short), cells=[], occupied=[], dead=False, jack=kind)
    board = latest_board(store, table)
    cells = cells_of(short)
    symbols = [board[c] for c in cells]
    occupied = [s in CHIP_COLOURS for s in symbols]
    dead = False if EMPTY in symbols else True if all(occupied) else None  # None: a cell is hidden
    return CardOut(card=short, symbol=card_symbol(short), cells=[pair(c) for c in cells],
                   occupied=occupied, dead=dead, jack=None)


@router.get("/layout", response_model=list[LayoutCell], tags=["board"],
            summary="The printed board, row 0 first: each cell's card and its short symbol")
def layout() -> list[LayoutCell]:
    return [LayoutCell(card=name, symbol="" if name == CORNER else card_symbol(name), corner=name == CORNER) for name in LAYOUT]



@router.get("/setup", tags=["board"], summary="Player counts Sequence allows, and the team splits each allows")
def setup_options() -> list[dict[str, Any]]:
    return [{"players": players, "teams": team_splits(players)} for players in sorted(DEAL_SIZES)]
