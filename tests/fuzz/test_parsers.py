"""Fuzzing the parsers every outside input goes through: any input gives a value or the
parser's own error with a sentence, never another exception."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board import GRID_SYMBOLS, Board
from referee.errors import GridError, RecordError
from referee.record import Record, replay
from seqcam.judge_command import EXIT_FAILED, EXIT_OK, run_judge
from server.i18n import LANGUAGES, pick_language
from vision.config import VisionConfig
from vision.errors import ImageTooLarge, ImageTooSmall, ImageUnreadable
from vision.image_io import decode_image
from vision.profile import Profile, ProfileError

FAST = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
CONFIG = VisionConfig()

# Text close to a grid (its own symbols, line breaks, spaces) finds more than random text.
grid_like = st.text(alphabet=GRID_SYMBOLS + "\n\r \tX0é", max_size=140)


@FAST
@given(st.one_of(grid_like, st.text(max_size=200)))
def test_any_text_is_a_board_or_a_grid_error(text: str) -> None:
    try:
        board = Board.parse(text)
    except GridError as error:
        assert str(error)
    else:
        assert Board.parse(str(board)) == board


@FAST
@given(grid_like)
def test_seqcam_judge_answers_any_text_with_exit_0_or_1_and_json(text: str) -> None:
    out = io.StringIO()
    code = run_judge("-", 2, True, None, stdin=io.StringIO(text), stdout=out)
    answer = json.loads(out.getvalue())
    assert (code, answer["ok"]) in {(EXIT_OK, True), (EXIT_FAILED, False)}
    assert answer["ok"] or answer["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def check_profile(data: Any) -> None:
    try:
        Profile.from_json(data)
    except ProfileError as error:
        assert str(error)


@FAST
@given(json_values)
def test_any_json_is_a_profile_or_a_profile_error(data: Any) -> None:
    check_profile(data)


PROFILE_FIELDS = [("board",), ("board", "cell_aspect"), ("board", "paper_bgr"), ("board", "reference_png_base64"),
                  ("chips",), ("lens",), ("quality",), ("sources",), ("version",)]


@FAST
@given(st.sampled_from(PROFILE_FIELDS), json_values)
def test_a_profile_with_any_one_field_replaced_loads_or_is_refused(valid_profile: dict[str, Any],
                                                                  where: tuple[str, ...], value: Any) -> None:
    data = json.loads(json.dumps(valid_profile))
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    check_profile(data)


@FAST
@given(st.binary(max_size=600))
def test_any_bytes_decode_or_give_an_image_error(data: bytes) -> None:
    try:
        decoded = decode_image(data, CONFIG)
    except (ImageUnreadable, ImageTooLarge, ImageTooSmall) as error:
        assert str(error)
    else:
        assert decoded.image_bgr.ndim == 3


@FAST
@given(st.data())
def test_a_cut_or_flipped_photo_decodes_or_gives_an_image_error(small_photos: list[bytes], data: st.DataObject) -> None:
    photo = data.draw(st.sampled_from(small_photos))
    cut = data.draw(st.integers(0, len(photo)))
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(photo) - 1), st.integers(0, 255)), max_size=4))
    damaged = bytearray(photo[:cut])
    for where, value in flips:
        if where < len(damaged):
            damaged[where] = value
    try:
        decode_image(bytes(damaged), CONFIG)
    except (ImageUnreadable, ImageTooLarge, ImageTooSmall) as error:
        assert str(error)


@FAST
@given(json_values)
def test_any_json_is_a_game_record_or_a_record_error(data: Any) -> None:
    try:
        Record.from_json(data)
    except RecordError as error:
        assert str(error)


RECORD_FIELDS = ["players", "teams", "cuts", "deck", "chip_supply", "actions"]


@FAST
@given(st.sampled_from(RECORD_FIELDS), json_values, st.integers(0, 40))
def test_a_game_record_with_one_part_replaced_loads_and_replays_or_is_refused(game_record: dict[str, Any], field: str,
                                                                            value: Any, action: int) -> None:
    data = json.loads(json.dumps(game_record))
    if field == "actions" and data["actions"]:  # one action replaced, the rest kept
        data["actions"][action % len(data["actions"])] = value
    else:
        data[field] = value
    try:
        replay(Record.from_json(data))
    except RecordError as error:
        assert str(error)


@FAST
@given(st.text(max_size=80))
def test_any_accept_language_header_picks_an_offered_language(header: str) -> None:
    assert pick_language(header) in LANGUAGES
