"""Input and output shapes of the API (the reading itself mirrors `seqcam analyze --json`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class TableSettingsIn(BaseModel):
    players: int = Field(2, ge=2, le=12, description="players at the table: 2, 3, 4, 6, 8, 9, 10 or 12")
    teams: Literal[2, 3] | None = Field(None, description="2 or 3 teams; needed only when both splits exist (6 or 12 players)")


class TableOut(BaseModel):
    id: str
    players: int
    teams: int
    game: int = Field(description="the game number: a reset starts the next one")
    team_letters: list[str] = Field(description="the chip colours in play, B G [R]")
    win_target: int = Field(description="sequences a team needs to win")
    revision: int = Field(description="id of the latest reading in force, 0 before the first photo")
    view_path: str = Field(description="the link anyone may open to watch the table")
    reading_created: float | None = Field(description="when the latest reading was made, seconds since 1970")
    reading: dict[str, Any] | None = Field(description="the latest reading, as `seqcam analyze --json` plus drawing details")


class CreatedTableOut(TableOut):
    token: str = Field(description="the players' token: send it as X-Table-Token to change the table")
    join_path: str = Field(description="the link for players, token included (after #, never sent to the server in a request line)")


class CorrectionIn(BaseModel):
    row: int = Field(ge=0, le=9)
    col: int = Field(ge=0, le=9)
    symbol: Literal[".", "B", "G", "R", "?"] = Field(description="what the cell really holds, in the grid text form")


class TurnIn(BaseModel):
    quarter_turns: int = Field(1, ge=1, le=3, description="clockwise quarter turns of the board as read")


class LinksOut(BaseModel):
    join_url: str = Field(description="for players: opens the table with its token")
    view_url: str = Field(description="for anyone: watches the table")


class ReadingOut(BaseModel):
    id: int
    created: float
    result: dict[str, Any]
    unchanged: bool = Field(False, description="the photo read as the latest reading, which is returned and kept")
    pending: bool = Field(False, description="a live frame that read differently: `result` is what it saw (id 0, "
                          "not stored); stored when the next frame agrees")


class TableViewOut(BaseModel):
    table: TableOut
    events: list[dict[str, Any]] = Field(description="the latest events, newest first, as /events gives them")
    photos: list[ReadingOut] = Field(description="the latest readings, newest first, as /photos gives them")


class CalibrationNoteOut(BaseModel):
    code: str
    params: dict[str, Any] = {}
    text: str


class CalibrationOut(BaseModel):
    calibrated: bool
    created: float | None = None
    clear_cells: int = Field(0, description="printed cells seen clearly on the empty board")
    notes: list[CalibrationNoteOut] = Field([], description="what looked doubtful, each with a stable code")


class RemovalOut(BaseModel):
    cell: list[int]
    legal: bool | None = Field(description="null when the photo alone cannot tell")
    code: str = Field(description="which answer: the page's catalogue key is removal.<code>")
    team: str | None
    reason: str = Field(description="the referee's sentence, in English")


class CardOut(BaseModel):
    card: str
    symbol: str
    cells: list[list[int]]
    occupied: list[bool]
    dead: bool | None = Field(description="both cells hold a chip; null when a cell is hidden in the photo")
    jack: Literal["one_eyed", "two_eyed"] | None


class LayoutCell(BaseModel):
    card: str = Field(description="the printed card, or FREE for a corner")
    symbol: str = Field(description="short form like 10♠; empty for a corner")
    corner: bool
