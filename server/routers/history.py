"""The game's history: every event of the readings still in force, newest first."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from server.deps import StoreDep, TableDep

router = APIRouter(prefix="/api/tables", tags=["history"])


@router.get("/{table_id}/events", summary="The game's events (moves, violations, sequences, winner, corrections), newest first")
def list_events(table: TableDep, store: StoreDep, limit: Annotated[int, Query(ge=1, le=500)] = 200) -> list[dict[str, Any]]:
    return store.events(table, limit)
