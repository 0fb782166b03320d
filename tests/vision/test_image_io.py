import io
import zlib
from dataclasses import replace

import cv2
import numpy as np
import pytest
import pillow_heif
from PIL import Image

from vision.config import VisionConfig
from vision.errors import ImageTooLarge, ImageTooSmall, ImageUnreadable
from vision.image_io import decode_image, read_image_file

pillow_heif.register_heif_opener()

CONFIG = VisionConfig()


def jpeg_bytes(width: int, height: int) -> bytes:
    image = np.full((height, width, 3), 200, np.uint8)
    ok, encoded = cv2.imencode(".jpg", image)
    assert ok
    return encoded.tobytes()


def test_decodes_a_jpeg_at_full_size_when_small():
    decoded = decode_image(jpeg_bytes(640, 480), CONFIG)
    assert decoded.image_bgr.shape == (480, 640, 3) and decoded.scale == 1.0
    assert decoded.finer is None  # nothing finer to look at


@pytest.mark.parametrize("width, height", [(8, 8), (4000, 1), (1, 1), (200, 63)])
def test_a_thumbnail_is_refused_as_too_small_with_its_size(width, height):
    # an 8 x 8 picture once reached the locator and failed deep inside it (k-means on 6 pixels)
    with pytest.raises(ImageTooSmall, match=f"only {width} x {height} pixels"):
        decode_image(jpeg_bytes(width, height), CONFIG)


def test_a_small_photo_is_still_decoded():
    assert decode_image(jpeg_bytes(64, 64), CONFIG).image_bgr.shape == (64, 64, 3)


def test_large_jpeg_is_decoded_at_a_reduced_scale_with_the_scale_reported():
    decoded = decode_image(jpeg_bytes(3200, 2400), CONFIG)
    assert decoded.image_bgr.shape == (1200, 1600, 3)
    assert decoded.scale == pytest.approx(2.0)
    finer = decoded.finer()  # for a second look: twice the size, here the full size
    assert finer.image_bgr.shape == (2400, 3200, 3) and finer.scale == 1.0 and finer.finer is None


def test_a_12_mp_jpeg_is_decoded_at_a_quarter():
    decoded = decode_image(jpeg_bytes(4000, 3000), CONFIG)
    assert decoded.image_bgr.shape == (750, 1000, 3) and decoded.scale == pytest.approx(4.0)
    assert decoded.finer().scale == pytest.approx(2.0)


def test_a_huge_jpeg_looks_again_only_one_step_finer():
    decoded = decode_image(jpeg_bytes(8000, 1000), replace(CONFIG, decode_long_side=1000))
    assert decoded.scale == pytest.approx(8.0)
    assert decoded.finer().scale == pytest.approx(4.0)


def test_a_baseline_jpeg_may_hold_more_pixels_than_a_progressive_one_or_a_png():
    # a phone's 50 to 108 MP photo is a baseline JPEG, decoded at a reduced scale as it streams in;
    # a progressive JPEG or a PNG is held whole: the smaller limit (shrunk here to keep the test small)
    small = replace(CONFIG, max_pixels=1_000_000, decode_long_side=400)
    image = Image.new("RGB", (2000, 1000), (200, 200, 200))
    encoded = {}
    for name, options in (("baseline", {}), ("progressive", {"progressive": True}), ("png", {})):
        buffer = io.BytesIO()
        image.save(buffer, "PNG" if name == "png" else "JPEG", **options)
        encoded[name] = buffer.getvalue()
    decoded = decode_image(encoded["baseline"], small)
    assert decoded.image_bgr.shape == (250, 500, 3) and decoded.scale == pytest.approx(4.0)
    for name in ("progressive", "png"):
        with pytest.raises(ImageTooLarge, match="more than the 1 megapixels"):
            decode_image(encoded[name], small)
    with pytest.raises(ImageTooLarge, match="smaller photo"):
        decode_image(encoded["baseline"], replace(small, max_baseline_jpeg_pixels=1_500_000))


@pytest.mark.parametrize("size, upright", [((640, 480), (640, 480)), ((4000, 3000), (1000, 750))])
def test_a_portrait_phone_photo_is_turned_upright_with_the_scale_of_its_pixels(size, upright):
    # phones store the sensor's landscape pixels and an EXIF tag saying "turn a quarter" (6);
    # the header's size is the stored one, the decoded photo is upright
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 200, 200)).save(buffer, "JPEG", exif=exif.tobytes())
    decoded = decode_image(buffer.getvalue(), CONFIG)
    assert decoded.image_bgr.shape[:2] == upright  # (height, width): taller than wide
    assert decoded.scale == pytest.approx(size[0] / upright[0])


def heic_bytes(image: Image.Image, orientation: int = 1) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.save(buffer, "HEIF", quality=90, exif=exif.tobytes(), enc_params={"preset": "ultrafast"})
    return buffer.getvalue()


def test_an_iphone_heic_photo_is_decoded_upright_and_large_ones_at_a_reduced_scale():
    # blue left half, red right half, stored landscape with "turn a quarter" (6): upright, blue is on top
    image = Image.new("RGB", (4000, 3000), (255, 0, 0))
    image.paste((0, 0, 255), (0, 0, 2000, 3000))
    decoded = decode_image(heic_bytes(image, orientation=6), CONFIG)
    assert decoded.image_bgr.shape == (1000, 750, 3) and decoded.scale == pytest.approx(4.0)
    top, bottom = decoded.image_bgr[50, 375], decoded.image_bgr[950, 375]
    assert top[0] > 200 > top[2] and bottom[2] > 200 > bottom[0]  # BGR: blue above, red below


def test_a_heic_photo_cut_short_gets_a_clear_message():
    data = heic_bytes(Image.new("RGB", (320, 240), (200, 200, 200)))
    for cut in (40, len(data) // 2):
        with pytest.raises(ImageUnreadable, match="damaged or cut short"):
            decode_image(data[:cut], CONFIG)


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "empty"),
        (b"hello, this is not a photo", "not a photo"),
        (jpeg_bytes(64, 64)[:300], "cut short"),
        (jpeg_bytes(64, 64)[:-10], "cut short"),
    ],
)
def test_bad_bytes_get_a_clear_message(data, words):
    with pytest.raises(ImageUnreadable, match=words):
        decode_image(data, CONFIG)


def test_truncated_png():
    ok, encoded = cv2.imencode(".png", np.zeros((64, 64, 3), np.uint8))
    with pytest.raises(ImageUnreadable, match="cut short"):
        decode_image(encoded.tobytes()[:-20], CONFIG)


def test_decompression_bomb_is_refused_before_decoding():
    # a real PNG header claiming 50,000 x 50,000 pixels, with almost no data behind it
    buffer = io.BytesIO()
    Image.new("L", (1, 1)).save(buffer, format="PNG")
    data = bytearray(buffer.getvalue())
    data[16:24] = (50_000).to_bytes(4, "big") * 2  # width and height in the IHDR chunk
    data[29:33] = zlib.crc32(bytes(data[12:29])).to_bytes(4, "big")
    with pytest.raises(ImageTooLarge, match="smaller photo"):
        decode_image(bytes(data), CONFIG)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ImageUnreadable, match="no file"):
        read_image_file(tmp_path / "absent.jpg", CONFIG)
    with pytest.raises(ImageUnreadable, match="folder"):
        read_image_file(tmp_path, CONFIG)
