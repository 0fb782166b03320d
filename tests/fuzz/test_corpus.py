"""Replays tests/fuzz_corpus/: inputs that once failed stay refused with their own error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.board import Board
from referee.errors import GridError
from seqcam.cli import main
from vision.config import VisionConfig
from vision.errors import ImageTooLarge, ImageUnreadable
from vision.image_io import decode_image
from vision.profile import ProfileError, load_profile

CORPUS = Path(__file__).resolve().parents[1] / "fuzz_corpus"  # also replayed by tests/server/test_bad_requests.py
EXPECTED: dict[str, str] = json.loads((CORPUS / "expected.json").read_text())
ERRORS = {error.__name__: error for error in (GridError, ImageTooLarge, ImageUnreadable, ProfileError)}


def test_every_corpus_file_has_an_expected_error() -> None:
    files = {str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*")}
    assert files == set(EXPECTED)


def refuse(kind: str, path: Path) -> None:
    if kind == "grid":
        Board.parse(path.read_text())
    elif kind == "image":
        decode_image(path.read_bytes(), VisionConfig())
    else:
        load_profile(path)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_corpus_input_is_refused_with_its_own_error(name: str) -> None:
    with pytest.raises(ERRORS[EXPECTED[name]]) as refused:
        refuse(name.split("/")[0], CORPUS / name)
    assert str(refused.value)


CLI_REFUSALS = {"grid": (["judge"], 1), "image": (["analyze", "--json"], 1), "profile": (["analyze", "--calibration"], 2)}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_command_line_refuses_a_corpus_input_with_its_exit_code(name: str, capsys: pytest.CaptureFixture) -> None:
    words, exit_code = CLI_REFUSALS[name.split("/")[0]]
    assert main([*words, str(CORPUS / name)]) == exit_code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if name.startswith("image/"):
        assert json.loads(out)["error"]
    else:
        assert err.startswith(f"seqcam {words[0]}: ")
