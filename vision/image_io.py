"""Decoding photos safely: size checks before decoding, clear messages for bad files."""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
from PIL import Image, ImageOps, UnidentifiedImageError

from vision.config import VisionConfig
from vision.errors import ImageTooLarge, ImageTooSmall, ImageUnreadable

_JPEG_START, _JPEG_END = b"\xff\xd8\xff", b"\xff\xd9"
_PNG_START = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND\xaeB`\x82"
FORMATS = "JPEG, PNG or HEIC"  # what a player is asked to send
_HEIF = "HEIF"  # Pillow's name for HEIC photos (iPhones and many Android phones save them)
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")
_REDUCED_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                  8: cv2.IMREAD_REDUCED_COLOR_8}


pillow_heif.register_heif_opener()  # Pillow then reads HEIC headers and pixels


@dataclass(frozen=True, slots=True)
class DecodedImage:
    image_bgr: np.ndarray
    scale: float  # multiply this image's pixel positions by it to get the file's full size
    # decodes the file at twice this size, where it was decoded smaller (a second look: see
    # vision.pipeline.analyze_decoded)
    finer: Callable[[], DecodedImage] | None = None


def read_image_file(path: Path, config: VisionConfig) -> DecodedImage:
    """Reads and decodes a photo file; raises ImageUnreadable or ImageTooLarge."""
    try:
        size = path.stat().st_size
        if size > config.max_file_bytes:
            raise ImageTooLarge(
                f"{path.name} is {size / 1e6:.0f} MB; photos up to {config.max_file_bytes / 1e6:.0f} MB "
                "are accepted. Send a smaller photo."
            )
        data = path.read_bytes()
    except IsADirectoryError:
        raise ImageUnreadable(f"{path} is a folder, not a photo.") from None
    except FileNotFoundError:
        raise ImageUnreadable(f"There is no file {path}.") from None
    except OSError as error:
        raise ImageUnreadable(f"Cannot read {path}: {error.strerror or error}.") from None
    return decode_image(data, config, name=path.name)


def decode_image(data: bytes, config: VisionConfig, name: str = "the photo",
                 reduction: int | None = None) -> DecodedImage:
    """A BGR uint8 image from encoded bytes, large JPEGs and HEICs at a reduced scale
    (``reduction``: 1, 2, 4 or 8; by default the largest that keeps ``decode_long_side``)."""
    if not data:
        raise ImageUnreadable(f"{name} is empty (0 bytes). Take or send the photo again.")
    if len(data) > config.max_file_bytes:
        raise ImageTooLarge(f"{name} is larger than {config.max_file_bytes / 1e6:.0f} MB. Send a smaller photo.")
    width, height, kind, progressive = image_header(data, name)
    # a baseline JPEG is decoded at a reduced scale as it streams in; a PNG or a progressive
    # JPEG is held whole by its decoder
    limit = config.max_baseline_jpeg_pixels if kind == "JPEG" and not progressive else config.max_pixels
    if width * height > limit:
        raise ImageTooLarge(
            f"{name} claims {width} x {height} pixels, more than the {limit / 1e6:.0f} megapixels "
            "accepted. Send a smaller photo."
        )
    if min(width, height) < config.min_photo_side:
        raise ImageTooSmall(
            f"{name} is only {width} x {height} pixels: too small to show the board's cells. Send the photo "
            "at the size the camera took it, not a thumbnail."
        )
    if kind == "JPEG" and not data.rstrip(b"\0").endswith(_JPEG_END):
        raise ImageUnreadable(f"{name} is cut short (an incomplete JPEG). Take or send the photo again.")
    if kind == "PNG" and not data.endswith(_PNG_END):
        raise ImageUnreadable(f"{name} is cut short (an incomplete PNG). Take or send the photo again.")
    if reduction is None:  # a PNG is decoded whole
        long_side = max(width, height)
        reduction = decode_reduction(long_side, decoded_long_side(long_side, config)) if kind in ("JPEG", _HEIF) else 1
    if kind == _HEIF:
        image = decoded_heif(data, name, reduction)
    else:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), _REDUCED_FLAGS[reduction])
    if image is None or image.size == 0:
        raise ImageUnreadable(f"{name} could not be decoded as an image. Send a {FORMATS} photo.")
    # the decoder turns a photo upright by its EXIF tag (phones held upright), the header does not
    return DecodedImage(image, max(width, height) / max(image.shape[:2]),
                        partial(decode_image, data, config, name, reduction // 2) if reduction > 1 else None)


def decoded_heif(data: bytes, name: str, reduction: int) -> np.ndarray:
    """A HEIC photo as BGR, upright (the HEIF container's rotation, then any EXIF tag), shrunk
    by ``reduction`` as a JPEG would be decoded."""
    try:
        with Image.open(io.BytesIO(data)) as heif:
            rgb = np.asarray(ImageOps.exif_transpose(heif).convert("RGB"))
    except (OSError, ValueError, SyntaxError):
        raise ImageUnreadable(f"{name} is damaged or cut short. Take or send the photo again.") from None
    image = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    if reduction > 1:
        image = cv2.resize(image, (image.shape[1] // reduction, image.shape[0] // reduction),
                           interpolation=cv2.INTER_AREA)
    return image


def decoded_long_side(long_side: int, config: VisionConfig) -> int:
    """The long side a photo is decoded down to (about): a 12 MP photo's smaller than others'."""
    large = long_side >= config.large_photo_long_side
    return config.large_photo_decode_long_side if large else config.decode_long_side


def decode_reduction(long_side: int, wanted_long_side: int) -> int:
    """The largest JPEG scale-down (1, 2, 4, 8) that keeps at least ``wanted_long_side``.

    >>> decode_reduction(4000, 1600), decode_reduction(1920, 1600), decode_reduction(8000, 900)
    (2, 1, 8)
    """
    reduction = 1
    while reduction < 8 and long_side // (reduction * 2) >= wanted_long_side:
        reduction *= 2
    return reduction


def looks_like_photo(data: bytes) -> bool:
    """Whether ``data`` starts as a JPEG, PNG or HEIC file does (its first bytes alone).

    >>> looks_like_photo(b"\\xff\\xd8\\xff\\xe0"), looks_like_photo(b"\\x00\\x00\\x00\\x18ftypheic")
    (True, True)
    >>> looks_like_photo(b"GIF89a")
    False
    """
    return data.startswith((_JPEG_START, _PNG_START)) or (data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS)


def image_header(data: bytes, name: str) -> tuple[int, int, str, bool]:
    """Width, height, format and whether it is a progressive JPEG, read from the header without
    decoding the pixels."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as header:
                width, height = header.size
                kind = header.format or "unknown"
                progressive = bool(header.info.get("progressive"))
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"{name} claims far too many pixels. Send a smaller photo.") from None
    except (UnidentifiedImageError, OSError, ValueError):
        if looks_like_photo(data):
            raise ImageUnreadable(f"{name} is damaged or cut short. Take or send the photo again.") from None
        raise ImageUnreadable(f"{name} is not a photo seqcam can read. Send a {FORMATS} image.") from None
    if width <= 0 or height <= 0:
        raise ImageUnreadable(f"{name} has no pixels. Send a {FORMATS} photo.")
    return width, height, kind, progressive
