"""The referee's one family of errors: each message is a sentence a player understands."""


class RefereeError(ValueError):
    """Base of every error the referee raises."""


class GridError(RefereeError):
    """A grid in the text form is malformed; ``line`` and ``column`` are 1-based (0 when unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        where = f"line {line}, column {column}: " if line and column else f"line {line}: " if line else ""
        super().__init__(where + message)
        self.line = line
        self.column = column


class IllegalActionError(RefereeError):
    """An action that the rules of Sequence do not allow at this point of the game."""


class RecordError(RefereeError):
    """A game record that cannot be read or does not replay."""


class CorrectionError(RefereeError):
    """A correction the players asked for that cannot be made (nothing to undo, no choice open,
    a cell or a colour that cannot be), said so that they can ask again."""
