"""`seqcam train-cell-net`: fit the cell network (vision/cell_net.py) on rendered photos.

As for the trees (``seqcam.train_cells``): photos are warped on their true corners jittered
as locating would leave them, and a cell is taught hidden from each of ``HIDDEN_LABEL_SHARES``
covered, here as one soft target (half hidden between the two shares). Each batch is turned a
random quarter and mirrored half the time (a board is read before its top is known, and no
call depends on the art's handedness), each crop's lightness and colour jittered a little
(``photometric_jitter``). PyTorch fits the network (``pip install -e
'.[train-net]'``); it is written out as ONNX, which OpenCV reads.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from seqcam.train_cells import HIDDEN_LABEL_SHARES, PLAYING, board_on_true_grid, training_photos
from vision.cell_model import CLASSES
from vision.cell_net import CROP_SIDE, NET_PATH, cell_crops
from vision.config import VisionConfig

# never the bench's seed nor the trees' (seqcam.train_cells.TRAIN_SEEDS), 2,000 photos each
NET_TRAIN_SEEDS = (7787, 7788, 7789, 7790)
BATCH = 256
QUANT_STEP = 1 / 40  # crops are kept as bytes while the set is gathered: 8,000 photos' fit in 2.4 GB
# each crop's lightness scaled and shifted, its colour shifted, by up to these (network units, about
# 5 Lab units a tenth): another camera's white balance and contrast than the renderer's
LIGHTNESS_GAIN, LIGHTNESS_SHIFT, COLOUR_SHIFT = 0.15, 0.15, 0.1


@dataclass(frozen=True)
class CropSamples:
    """A photo's playing cells: their crops (bytes, ``to_bytes``), what each holds, how much is covered."""

    crops: np.ndarray  # (n, 3, CROP_SIDE, CROP_SIDE) uint8
    chip: np.ndarray  # (n,) bool
    covered: np.ndarray  # (n,) share, 0 to 1


def to_bytes(crops: np.ndarray) -> np.ndarray:
    return np.clip(np.round(crops / QUANT_STEP + 128), 0, 255).astype(np.uint8)


def from_bytes(crops: np.ndarray) -> np.ndarray:
    return (crops.astype(np.float32) - 128) * QUANT_STEP


def soft_targets(chip: np.ndarray, covered: np.ndarray) -> np.ndarray:
    """(n, 3) per class of CLASSES: hidden by the share of ``HIDDEN_LABEL_SHARES`` the cover
    reaches, the rest chip or empty as the cell truly holds.

    >>> soft_targets(np.array([True, False, True]), np.array([0.0, 0.55, 0.9])).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 1.0]]
    """
    hidden = np.mean([covered >= share for share in HIDDEN_LABEL_SHARES], axis=0)
    targets = np.zeros((len(chip), len(CLASSES)), np.float32)
    targets[:, CLASSES.index("chip")] = (1 - hidden) * chip
    targets[:, CLASSES.index("empty")] = (1 - hidden) * ~chip
    targets[:, CLASSES.index("hidden")] = hidden
    return targets


def photo_crops(job: tuple[str, int]) -> CropSamples | None:
    """The samples of one labelled photo (path, jitter seed); None for a photo with no whole board."""
    path, seed = job
    board = board_on_true_grid(Path(path), VisionConfig(), np.random.default_rng(seed))
    if board is None:
        return None
    prepared, chip, covered = board
    return CropSamples(to_bytes(cell_crops(prepared.lab, prepared.cell_px))[PLAYING], chip[PLAYING], covered[PLAYING])


def photometric_jitter(pictures: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``pictures`` (n, 3, side, side, network units) with each one's lightness scaled and
    shifted and its colour shifted by a random amount (``LIGHTNESS_GAIN`` and the rest)."""
    n = len(pictures)
    jittered = pictures.astype(np.float32, copy=True)
    gain = rng.uniform(1 - LIGHTNESS_GAIN, 1 + LIGHTNESS_GAIN, (n, 1, 1)).astype(np.float32)
    jittered[:, 0] = jittered[:, 0] * gain + rng.uniform(-LIGHTNESS_SHIFT, LIGHTNESS_SHIFT, (n, 1, 1))
    jittered[:, 1:] += rng.uniform(-COLOUR_SHIFT, COLOUR_SHIFT, (n, 2, 1, 1)).astype(np.float32)
    return jittered


def network():  # -> torch.nn.Module
    """Four 3 x 3 convolutions (12 to 48 channels), each but the last halving the picture,
    pooled over the picture, then two dense layers: about 30,000 weights, a board's 100
    cells in a few milliseconds on one core."""
    from torch import nn

    return nn.Sequential(
        nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(12, 24, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(24, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 48, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(48, 32), nn.ReLU(), nn.Linear(32, len(CLASSES)))


def fit_network(crops: np.ndarray, targets: np.ndarray, epochs: int, seed: int):  # -> torch.nn.Module
    """A network fitted on byte ``crops`` to soft ``targets``, the classes weighted by the
    square root of their rarity (hidden cells are few, but a '?' costs less than a wrong call)."""
    try:
        import torch
    except ImportError as error:
        raise SystemExit("seqcam train-cell-net needs PyTorch: pip install -e '.[train-net]'") from error
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = network()
    weights = torch.tensor((1.0 / (len(CLASSES) * targets.mean(axis=0))) ** 0.5, dtype=torch.float32)
    steps = epochs * (len(crops) // BATCH)
    optimiser = torch.optim.AdamW(model.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps)
    start = time.perf_counter()
    for epoch in range(epochs):
        order, total = rng.permutation(len(crops)), 0.0
        model.train()
        for step in range(len(crops) // BATCH):
            batch = order[step * BATCH:(step + 1) * BATCH]
            pictures = np.rot90(photometric_jitter(from_bytes(crops[batch]), rng), rng.integers(0, 4), axes=(2, 3))
            if rng.random() < 0.5:
                pictures = pictures[:, :, :, ::-1]
            log_p = torch.log_softmax(model(torch.from_numpy(np.ascontiguousarray(pictures))), dim=1)
            loss = -(torch.from_numpy(targets[batch]) * log_p * weights).sum(dim=1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        print(f"epoch {epoch + 1}/{epochs}: loss {total / (len(crops) // BATCH):.4f}, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
    return model.eval()


def export_network(model, out: Path) -> None:
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, CROP_SIDE, CROP_SIDE), str(out), dynamo=False,
                      input_names=["cells"], output_names=["logits"], dynamic_axes={"cells": {0: "n"}})


def run_train_net(photos_dir: str | None, n: int, seeds: tuple[int, ...], out: str, workers: int,
                  epochs: int) -> int:
    """Fits the network on ``n`` photos from ``seeds`` (the first seeds the jitter and the fit)."""
    directory = Path(photos_dir) if photos_dir else Path("/tmp/seqcam-train-cells")
    paths = training_photos(directory, n, seeds, workers)
    jobs = [(str(path), seeds[0] * 100_000 + index) for index, path in enumerate(paths)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        samples = [s for s in tqdm(pool.map(photo_crops, jobs, chunksize=4), total=len(jobs), unit="photo",
                                   desc="measuring") if s is not None]
    crops = np.concatenate([s.crops for s in samples])
    targets = soft_targets(np.concatenate([s.chip for s in samples]), np.concatenate([s.covered for s in samples]))
    print(f"{len(crops)} cells of {len(samples)} photos; class shares "
          + ", ".join(f"{name} {share:.3f}" for name, share in zip(CLASSES, targets.mean(axis=0))))
    export_network(fit_network(crops, targets, epochs, seeds[0]), Path(out))
    print(f"wrote {out}")
    return 0


def default_out() -> str:
    return str(NET_PATH)
