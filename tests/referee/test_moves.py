from referee.board import Board
from referee.cells import cell
from referee.moves import MoveKind, ViolationKind, infer_move

EMPTY = Board.empty()


def with_chips(board: Board, **chips: str) -> Board:
    """with_chips(board, c23="B") puts a blue chip on row 2, column 3."""
    for name, symbol in chips.items():
        board = board.with_cell(int(name[1:]), symbol)
    return board


def kinds(move) -> set[ViolationKind]:
    return {v.kind for v in move.violations}


def test_nothing_changed():
    move = infer_move(EMPTY, EMPTY)
    assert move.kind is MoveKind.NONE and move.legal is True and not move.changes


def test_a_placement():
    move = infer_move(EMPTY, with_chips(EMPTY, c44="G"), to_play="G")
    assert (move.kind, move.team, move.cell, move.legal) == (MoveKind.PLACED, "G", 44, True)
    assert move.new_sequences == 0


def test_a_placement_that_completes_a_sequence():
    before = with_chips(EMPTY, c20="B", c21="B", c22="B", c24="B")
    move = infer_move(before, with_chips(before, c23="B"), to_play="B")
    assert move.legal is True and move.new_sequences == 1


def test_out_of_turn():
    move = infer_move(EMPTY, with_chips(EMPTY, c44="G"), to_play="B")
    assert move.legal is False and kinds(move) == {ViolationKind.OUT_OF_TURN}
    assert "out of turn" in move.reason


def test_two_chips_at_once():
    move = infer_move(EMPTY, with_chips(EMPTY, c44="G", c45="G"))
    assert move.kind is MoveKind.SEVERAL and kinds(move) == {ViolationKind.SEVERAL_PLACED}


def test_legal_removal_of_an_unprotected_chip():
    before = with_chips(EMPTY, c44="G", c45="B")
    move = infer_move(before, with_chips(before, c44="."), to_play="B")
    assert (move.kind, move.team, move.cell, move.legal) == (MoveKind.REMOVED, "G", 44, True)


def test_removing_a_protected_chip_is_a_violation():
    before = with_chips(EMPTY, c20="G", c21="G", c22="G", c23="G", c24="G")
    move = infer_move(before, with_chips(before, c22="."), to_play="B")
    assert move.legal is False and kinds(move) == {ViolationKind.PROTECTED_REMOVED}


def test_removing_a_possibly_protected_chip_cannot_be_judged_from_photos():
    before = with_chips(EMPTY, c20="G", c21="G", c22="G", c23="G", c24="G", c25="G")
    after = with_chips(before, c20=".")
    assert infer_move(before, after).legal is None
    # with the game's history the answer is exact
    assert infer_move(before, after, protected=frozenset({21, 22, 23, 24, 25})).legal is True
    assert infer_move(before, after, protected=frozenset({20, 21, 22, 23, 24})).legal is False


def test_removing_own_chip():
    before = with_chips(EMPTY, c44="B")
    move = infer_move(before, EMPTY, to_play="B")
    assert kinds(move) == {ViolationKind.OWN_CHIP_REMOVED}


def test_chip_changed_colour():
    before = with_chips(EMPTY, c44="B")
    move = infer_move(before, with_chips(EMPTY, c44="G"))
    assert move.legal is False and kinds(move) == {ViolationKind.COLOUR_CHANGED}


def test_chip_placed_on_the_cell_cleared_this_turn():
    move = infer_move(EMPTY, with_chips(EMPTY, c44="B"), cleared=(44, "B"))
    assert kinds(move) == {ViolationKind.CLEARED_CELL_RETAKEN}
    # another team may take the cleared cell afterwards
    assert infer_move(EMPTY, with_chips(EMPTY, c44="G"), cleared=(44, "B")).legal is True


def test_place_and_remove_in_one_turn():
    before = with_chips(EMPTY, c44="G")
    move = infer_move(before, with_chips(EMPTY, c45="B"))
    assert ViolationKind.PLACED_AND_REMOVED in kinds(move)


def test_changes_under_hidden_cells_are_not_judged():
    before = with_chips(EMPTY, c44="?")
    move = infer_move(before, with_chips(EMPTY, c44="B"))
    assert move.kind is MoveKind.UNKNOWN and move.legal is None and move.unjudged == (44,)
    # a visible placement next to a hidden change: the placement is seen, the verdict stays open
    move = infer_move(before, with_chips(EMPTY, c44="G", c55="B"), to_play="B")
    assert move.kind is MoveKind.PLACED and move.legal is None


def test_red_placed_in_a_two_team_game():
    move = infer_move(EMPTY, with_chips(EMPTY, c44="R"), team_count=2)
    assert kinds(move) == {ViolationKind.COLOUR_NOT_IN_GAME}
    assert infer_move(EMPTY, with_chips(EMPTY, c44="R"), team_count=3).legal is True


def test_cell_helper():
    assert cell(4, 4) == 44
