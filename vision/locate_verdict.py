"""Is a fitted lattice the printed grid of a Sequence board? A learned verdict.

The inputs are the fit's evidence (``locate_lattice.Evidence``: the cells repeat one cell on
and not half a cell on, the repetition stops at the outline, the cells hold ink or chips)
and how well the grid's lines showed and were followed. A logistic model turns them into a
probability; it also ranks the fits of one photo, so a grid placed a cell off or round a
part of the board loses to the true one.

The weights live in ``vision/models/board_verdict.json`` and are rebuilt by
``seqcam train-locator`` on rendered photos (never the bench's seed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.cell_model import rounded
from vision.locate_lattice import Evidence

FEATURES = ("repeat", "off_repeat", "spill", "busy", "content", "extent", "lines_seen", "residual",
            "light_rims", "repeat_x_lines", "busy_x_content", "corners_alike")
VERDICT_PATH = Path(__file__).parent / "models" / "board_verdict.json"
GRID_LINES = 22  # 11 row lines and 11 column lines


def verdict_features(seen: Evidence, lines_seen: int, residual: float) -> np.ndarray:
    """The model's inputs (FEATURES) for one fit."""
    lines = lines_seen / GRID_LINES
    busy = min(seen.busy, 1.5)
    return np.array([seen.repeat, seen.off_repeat, seen.spill, busy, seen.content, seen.extent, lines,
                     residual * 10, seen.light_rims, seen.repeat * lines, busy * seen.content, seen.corners_alike],
                    np.float64)


@dataclass(frozen=True)
class BoardVerdict:
    mean: np.ndarray  # (F,) input standardisation
    scale: np.ndarray
    weights: np.ndarray  # (F,)
    bias: float

    def probability(self, features: np.ndarray) -> np.ndarray | float:
        """(F,) or (N, F) features -> the probability that each fit is the board's grid."""
        logit = ((features - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-logit))

    def to_json(self) -> dict:
        return {"features": list(FEATURES), "mean": rounded(self.mean), "scale": rounded(self.scale),
                "weights": rounded(self.weights), "bias": float(f"{self.bias:.6g}")}

    @classmethod
    def from_json(cls, data: dict) -> BoardVerdict:
        if data.get("features") != list(FEATURES):
            raise ValueError("the board verdict was trained on other features; run seqcam train-locator")
        return cls(np.array(data["mean"]), np.array(data["scale"]), np.array(data["weights"]), float(data["bias"]))


@lru_cache(maxsize=1)
def default_verdict() -> BoardVerdict:
    return BoardVerdict.from_json(json.loads(VERDICT_PATH.read_text()))


def fit_verdict(features: np.ndarray, labels: np.ndarray, l2: float = 1.0, steps: int = 50) -> BoardVerdict:
    """Logistic regression by Newton's method with an L2 penalty; ``labels`` are 1 for fits
    on the true grid. Both classes weigh the same in total.

    >>> x = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> model = fit_verdict(x, np.array([0, 0, 1, 1]))
    >>> bool(model.probability(np.array([3.0])) > 0.5 > model.probability(np.array([0.0])))
    True
    """
    mean, scale = features.mean(axis=0), features.std(axis=0) + 1e-9
    x = np.hstack([(features - mean) / scale, np.ones((len(features), 1))])
    positives = max(int(labels.sum()), 1)
    negatives = max(len(labels) - positives, 1)
    sample_weight = np.where(labels == 1, len(labels) / (2 * positives), len(labels) / (2 * negatives))
    penalty = l2 * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0  # the bias is free
    theta = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ theta))
        gradient = x.T @ (sample_weight * (p - labels)) + penalty @ theta
        hessian = (x * (sample_weight * p * (1 - p))[:, None]).T @ x + penalty
        theta -= np.linalg.solve(hessian, gradient)
    return BoardVerdict(mean, scale, theta[:-1], float(theta[-1]))
