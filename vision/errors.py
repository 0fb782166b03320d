"""What the vision pipeline tells the player: errors (the photo cannot be read) and warnings
(it was read, with a doubt). Each carries a sentence the player can act on; warnings also a
stable code, so that a page can say it in the player's language."""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class VisionError(Exception):
    """Base of the pipeline's errors; ``str(error)`` is the message for the player."""


class ImageUnreadable(VisionError):
    """The file is not an image that can be decoded (empty, truncated, another format)."""


class ImageTooLarge(VisionError):
    """The image's dimensions exceed what the pipeline accepts."""


class ImageTooSmall(VisionError):
    """The image has too few pixels to show a board's cells (a thumbnail, an icon)."""


class ImageColourless(VisionError):
    """The photo is black and white: the chips' colours cannot be told apart."""


class BoardNotFound(VisionError):
    """No Sequence board could be located in the photo."""


class BoardUnreadable(BoardNotFound):
    """A grid was located but most of its cells cannot be read: hands, glare or blur over the
    board, or a grid of something else."""


class BoardCutOff(VisionError):
    """The board was found but part of it lies outside the photo."""


class VisionWarningKind(str, Enum):
    ORIENTATION_UNCERTAIN = "orientation_uncertain"
    ORIENTATION_FROM_EARLIER = "orientation_from_earlier"
    CALIBRATION_MISMATCH = "calibration_mismatch"
    PRINT_TAKEN_FOR_CHIPS = "print_taken_for_chips"
    COUNTS_IMPOSSIBLE = "counts_impossible"


@dataclass(frozen=True, slots=True)
class VisionWarning:
    kind: VisionWarningKind
    message: str

    def __str__(self) -> str:
        return self.message


def warned(warnings: Iterable[VisionWarning], kind: VisionWarningKind) -> bool:
    return any(warning.kind == kind for warning in warnings)
