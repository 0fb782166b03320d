"""A small learned judge of each cell: chip, empty card, or hidden.

The inputs are the measures of ``read_cells`` (shares of a disc, colour, smoothness,
roundness, the card's free corners), each normalised to the photo's own paper, so nothing
depends on one artwork. Two-layer perceptrons (several, averaged) turn them into three
probabilities; a cell whose call is not clear enough is reported '?' (``read_cells.called_classes``).

The weights live in ``vision/models/cells.json`` and are rebuilt by ``seqcam train-cells``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

CLASSES = ("chip", "empty", "hidden")
FEATURES = (
    "disc_cover", "wide_cover", "colour_cover", "corner_paper", "texture",
    "chroma", "lightness", "roundness", "corner_lightness", "paper_shade", "paper_tint",
)
MODEL_PATH = Path(__file__).parent / "models" / "cells.json"


@dataclass(frozen=True)
class Perceptron:
    mean: np.ndarray  # (F,) input standardisation
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]  # (weights (in, out), bias (out,)) per layer

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, F) features -> (N, 3) probabilities of CLASSES."""
        activation = (features - self.mean) / self.scale
        for index, (weights, bias) in enumerate(self.layers):
            activation = activation @ weights + bias
            if index < len(self.layers) - 1:
                activation = np.maximum(activation, 0.0)
        activation -= activation.max(axis=1, keepdims=True)
        exp = np.exp(activation)
        return exp / exp.sum(axis=1, keepdims=True)

    def to_json(self) -> dict:
        return {
            "mean": rounded(self.mean),
            "scale": rounded(self.scale),
            "layers": [{"weights": rounded(w), "bias": rounded(b)} for w, b in self.layers],
        }

    @classmethod
    def from_json(cls, data: dict) -> Perceptron:
        layers = tuple((np.array(layer["weights"], np.float32), np.array(layer["bias"], np.float32))
                       for layer in data["layers"])
        return cls(np.array(data["mean"], np.float32), np.array(data["scale"], np.float32), layers)


@dataclass(frozen=True)
class CellModel:
    """Perceptrons trained alike from different random starts, their probabilities averaged:
    one perceptron's share of '?' moved between 1.5% and 2.2% of the cells with its start."""

    members: tuple[Perceptron, ...]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, F) features -> (N, 3) probabilities of CLASSES."""
        return np.mean([member.probabilities(features) for member in self.members], axis=0)

    def to_json(self) -> dict:
        return {"features": list(FEATURES), "classes": list(CLASSES),
                "members": [member.to_json() for member in self.members]}

    @classmethod
    def from_json(cls, data: dict) -> CellModel:
        if data.get("features") != list(FEATURES) or data.get("classes") != list(CLASSES) or "members" not in data:
            raise ValueError("the cell model was trained on other features; run seqcam train-cells")
        return cls(tuple(Perceptron.from_json(member) for member in data["members"]))


def rounded(values: np.ndarray) -> list:
    """Six significant digits: the file stays small and readable, the model the same."""
    return np.vectorize(lambda v: float(f"{v:.6g}"), otypes=[float])(values).tolist()


@lru_cache(maxsize=1)
def default_model() -> CellModel:
    return CellModel.from_json(json.loads(MODEL_PATH.read_text()))


def train(features: np.ndarray, labels: np.ndarray, rng: np.random.Generator, members: int = 3,
          steps: int = 1000) -> CellModel:
    """``members`` perceptrons fitted to the same cells from different starts."""
    return CellModel(tuple(train_perceptron(features, labels, rng, steps=steps) for _ in range(members)))


def train_perceptron(features: np.ndarray, labels: np.ndarray, rng: np.random.Generator, hidden: int = 48,
                     steps: int = 1000, learning_rate: float = 0.01) -> Perceptron:
    """Fits one perceptron with Adam on full batches; ``labels`` index CLASSES, classes are
    weighted equally so that rare hidden cells count."""
    mean, scale = features.mean(axis=0), features.std(axis=0) + 1e-6
    x = (features - mean) / scale
    counts = np.bincount(labels, minlength=len(CLASSES)).astype(np.float64)
    sample_weight = (len(labels) / (len(CLASSES) * np.maximum(counts, 1)))[labels]
    target = np.eye(len(CLASSES))[labels]
    sizes = [x.shape[1], hidden, hidden, len(CLASSES)]
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        params += [rng.normal(0, np.sqrt(2 / fan_in), (fan_in, fan_out)), np.zeros(fan_out)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    for step in range(1, steps + 1):
        activations = [x]
        for index in range(0, len(params), 2):
            z = activations[-1] @ params[index] + params[index + 1]
            activations.append(np.maximum(z, 0) if index < len(params) - 2 else z)
        logits = activations[-1] - activations[-1].max(axis=1, keepdims=True)
        probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        delta = (probs - target) * sample_weight[:, None] / len(labels)
        grads = [None] * len(params)
        for index in range(len(params) - 2, -1, -2):
            grads[index] = activations[index // 2].T @ delta
            grads[index + 1] = delta.sum(axis=0)
            if index:
                delta = (delta @ params[index].T) * (activations[index // 2] > 0)
        for i, (param, grad) in enumerate(zip(params, grads)):
            m, v = moments[i]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad**2
            param -= learning_rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    layers = tuple((params[i].astype(np.float32), params[i + 1].astype(np.float32)) for i in range(0, len(params), 2))
    return Perceptron(mean.astype(np.float32), scale.astype(np.float32), layers)
