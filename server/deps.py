"""Dependencies shared by the routers: the store, the settings, the live hub, the table of
the path, and the player token check.

They are ``async``: FastAPI runs a plain ``def`` dependency in its thread pool, a thread hop
each per request, and none of these waits on anything (the table is one indexed SQLite
read). With 10 phones refetching the table after each photo (as the page did before the live
stream carried the table's view), the hops cost the server more than the rest of the request did."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Path, Request

from server.errors import ApiError
from server.live import Hub
from server.settings import ServerSettings
from server.store import Store, TableRow

TOKEN_HEADER = "X-Table-Token"


async def get_store(request: Request) -> Store:
    return request.app.state.store


async def get_settings(request: Request) -> ServerSettings:
    return request.app.state.settings


async def get_hub(request: Request) -> Hub:
    return request.app.state.hub


StoreDep = Annotated[Store, Depends(get_store)]
SettingsDep = Annotated[ServerSettings, Depends(get_settings)]
HubDep = Annotated[Hub, Depends(get_hub)]


async def get_table(store: StoreDep, table_id: Annotated[str, Path(max_length=64)]) -> TableRow:
    """The table of the path: anyone with its link may view it."""
    table = store.table(table_id)
    if table is None:
        raise ApiError(404, "table_not_found", table=table_id)
    return table


TableDep = Annotated[TableRow, Depends(get_table)]


async def player_table(table: TableDep,
                 x_table_token: Annotated[str | None, Header(description="the table's player token, from the join link")] = None) -> TableRow:
    """The table of the path, for a change: only its players, who hold its token, may."""
    if not x_table_token:
        raise ApiError(401, "token_missing")
    if not hmac.compare_digest(x_table_token.encode(), table.token.encode()):
        raise ApiError(403, "token_wrong")
    return table


PlayerTableDep = Annotated[TableRow, Depends(player_table)]
