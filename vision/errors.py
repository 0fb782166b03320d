"""The vision pipeline's errors: each carries a sentence the player can act on."""


class VisionError(Exception):
    """Base of the pipeline's errors; ``str(error)`` is the message for the player."""


class ImageUnreadable(VisionError):
    """The file is not an image that can be decoded (empty, truncated, another format)."""


class ImageTooLarge(VisionError):
    """The image's dimensions exceed what the pipeline accepts."""


class BoardNotFound(VisionError):
    """No Sequence board could be located in the photo."""


class BoardCutOff(VisionError):
    """The board was found but part of it lies outside the photo."""
