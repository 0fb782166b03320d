"""`seqcam judge`: the referee's verdict on a grid in the text form."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from referee.board import Board
from referee.cells import CORNERS, TEAM_NAMES, Cell, cell_col, cell_row, cells_text
from referee.errors import GridError
from referee.judge import Judgement, Removal, judge, removal

EXIT_OK, EXIT_FAILED = 0, 1


def example_grid_text() -> str:
    """The bundled example position, judged when no grid is given."""
    return resources.files("seqcam").joinpath("data/example.grid").read_text(encoding="utf-8")


def read_grid_text(source: str | None, stdin: TextIO) -> tuple[str, str]:
    """The grid text and a name for messages; raises OSError or UnicodeDecodeError."""
    if source is None:
        return example_grid_text(), "the bundled example"
    if source == "-":
        return stdin.read(), "standard input"
    return Path(source).read_text(encoding="utf-8"), source


def cell_pairs(cells: frozenset[Cell]) -> list[list[int]]:
    return [[cell_row(c), cell_col(c)] for c in sorted(cells)]


def verdict_json(verdict: Judgement, remove: Removal | None) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ok": True,
        "sequences": verdict.sequences,
        "winner": list(verdict.winner),
        "protected": {
            "definite": cell_pairs(verdict.definitely_protected),
            "possible": cell_pairs(verdict.possibly_protected),
        },
        "warnings": [str(w) for w in verdict.warnings],
        "error": None,
    }
    if remove is not None:
        result["removal"] = {"legal": remove.legal, "reason": remove.reason}
    return result


def error_json(message: str) -> dict[str, Any]:
    return {"ok": False, "sequences": None, "winner": [], "protected": None, "warnings": [], "error": message}


def verdict_text(verdict: Judgement, remove: Removal | None) -> str:
    lines = [*verdict.board.rows(), ""]
    for team, count in verdict.sequences.items():
        lines.append(f"{TEAM_NAMES[team]:<6} {count} sequence(s)")
    if verdict.winner:
        lines.append("Winner: " + " and ".join(TEAM_NAMES[t] for t in verdict.winner))
    else:
        lines.append("No winner yet.")
    definite = verdict.definitely_protected - CORNERS
    possible = verdict.possibly_protected
    if definite:
        lines.append(f"Protected chips (row,column): {cells_text(definite)}")
    if possible:
        lines.append(f"Possibly protected (depends on which five were completed first): {cells_text(possible)}")
    for warning in verdict.warnings:
        lines.append(f"Warning: {warning}")
    if remove is not None:
        answer = {True: "Yes", False: "No", None: "Cannot tell"}[remove.legal]
        lines.append(f"Can it be removed? {answer}. {remove.reason}")
    return "\n".join(lines)


def run_judge(source: str | None, teams: int, as_json: bool, remove_cell: Cell | None,
              stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Judges one grid; prints the verdict or the error. Returns the exit code."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    try:
        text, name = read_grid_text(source, stdin)
    except UnicodeDecodeError:
        return _fail(f"{source} is not a grid in text form (ten lines of . B G R # ?); a photo is read with "
                     f"seqcam analyze {source}.", as_json, stdout)
    except OSError as error:
        return _fail(f"Cannot read the grid from {source}: {error.strerror or error}.", as_json, stdout)
    try:
        board = Board.parse(text)
    except GridError as error:
        return _fail(f"The grid in {name} is malformed: {error}.", as_json, stdout)
    verdict = judge(board, teams)
    remove = removal(board, remove_cell) if remove_cell is not None else None
    if as_json:
        print(json.dumps(verdict_json(verdict, remove)), file=stdout, flush=True)
    else:
        print(verdict_text(verdict, remove), file=stdout)
    return EXIT_OK


def _fail(message: str, as_json: bool, stdout: TextIO) -> int:
    if as_json:
        print(json.dumps(error_json(message)), file=stdout, flush=True)
    else:
        print(f"seqcam judge: {message}", file=sys.stderr)
    return EXIT_FAILED
