"""A small learned judge of each cell: chip, empty card, or hidden.

The inputs are the measures of ``read_cells`` (shares of a disc, colour, smoothness,
roundness, the card's free corners), each normalised to the photo's own paper, and the cell's
picture itself shrunk to 8 x 8 (paper-normalised Lab): what a chip looks like beside card art
of the same colour. Nothing depends on one artwork. Gradient-boosted decision trees turn them
into three probabilities, averaged over a few such models fitted apart, then pooled with
those of a small network that sees the cell's picture closer (``cell_net``); a cell whose
call is not clear enough is reported '?' (``read_cells.called_classes``).

The trees live in ``vision/models/cells.json`` and are rebuilt by ``seqcam train-cells``
(scikit-learn fits them; reading them needs numpy alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

CLASSES = ("chip", "empty", "hidden")
SCALAR_FEATURES = (
    "disc_cover", "wide_cover", "colour_cover", "corner_paper", "texture",
    "chroma", "lightness", "roundness", "corner_lightness", "paper_shade", "paper_tint",
)
PATCH_SIDE = 8  # the cell's picture, PATCH_SIDE x PATCH_SIDE pixels of L, a, b
FEATURES = SCALAR_FEATURES + (f"patch_{PATCH_SIDE}x{PATCH_SIDE}_lab",)
FEATURE_COUNT = len(SCALAR_FEATURES) + PATCH_SIDE * PATCH_SIDE * 3
MODEL_PATH = Path(__file__).parent / "models" / "cells.json"


@dataclass(frozen=True)
class BoostedTrees:
    """Gradient-boosted decision trees: their leaf values add up, per class, to the classes' log-odds.

    The trees are stored side by side, padded to the longest: node ``i`` of tree ``t`` sends
    a cell to ``left[t, i]`` when its feature ``feature[t, i]`` is at most ``threshold[t, i]``,
    else to ``right[t, i]``. Those are indices into the flattened (T * N) arrays, so that all
    trees are walked at once; a leaf points to itself."""

    baseline: np.ndarray  # (3,) log-odds before any tree
    tree_class: np.ndarray  # (T,) the class each tree votes for
    feature: np.ndarray  # (T, N) int
    threshold: np.ndarray  # (T, N) float32
    left: np.ndarray  # (T, N) int, flat index of the child
    right: np.ndarray  # (T, N) int
    value: np.ndarray  # (T, N) float32, a leaf's vote

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, F) features -> (N, 3) probabilities of CLASSES."""
        features = np.nan_to_num(np.asarray(features, np.float32))
        cells, (trees, width) = len(features), self.feature.shape
        feature, threshold = self.feature.reshape(-1), self.threshold.reshape(-1)
        left, right = self.left.reshape(-1), self.right.reshape(-1)
        leaf = left == np.arange(left.size)
        # every (cell, tree) pair walks down its tree, as flat indices into the node arrays; only
        # the pairs not yet at a leaf take each step (most trees are far shallower than the deepest)
        node = np.tile(np.arange(trees, dtype=np.intp) * width, cells)
        row_start = np.repeat(np.arange(cells, dtype=np.intp) * features.shape[1], trees)
        flat = features.reshape(-1)
        walking = np.flatnonzero(~leaf[node])
        while walking.size:
            at = node[walking]
            goes_left = flat[row_start[walking] + feature[at]] <= threshold[at]
            node[walking] = np.where(goes_left, left[at], right[at])
            walking = walking[~leaf[node[walking]]]
        node = node.reshape(cells, trees)
        votes = self.value.reshape(-1)[node]  # (cells, trees)
        return softmax(self.baseline + votes @ np.eye(len(CLASSES))[self.tree_class])  # each tree votes for its class

    def to_json(self) -> dict:
        trees = []
        width = self.feature.shape[1]
        for t in range(len(self.tree_class)):
            size = int((self.left[t] >= 0).sum())
            nodes = np.arange(size)
            left, right = self.left[t, :size] - t * width, self.right[t, :size] - t * width
            leaf = left == nodes
            trees.append({
                "class": int(self.tree_class[t]),
                "feature": self.feature[t, :size].tolist(),
                "threshold": rounded(self.threshold[t, :size]),
                "left": np.where(leaf, -1, left).tolist(),
                "right": np.where(leaf, -1, right).tolist(),
                "value": rounded(self.value[t, :size]),
            })
        return {"baseline": rounded(self.baseline), "trees": trees}

    @classmethod
    def from_json(cls, data: dict) -> BoostedTrees:
        return cls.from_trees(np.array(data["baseline"], np.float64),
                              [(tree["class"], tree["feature"], tree["threshold"], tree["left"], tree["right"],
                                tree["value"]) for tree in data["trees"]])

    @classmethod
    def from_trees(cls, baseline: np.ndarray, trees: list[tuple]) -> BoostedTrees:
        """From (class, feature, threshold, left, right, value) per tree, a leaf's children -1."""
        longest = max(len(tree[1]) for tree in trees)
        shape = (len(trees), longest)
        feature, left, right = (np.zeros(shape, np.int32) for _ in range(3))
        threshold, value = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
        left[:] = right[:] = -1  # padding: never reached
        for t, (_, features, thresholds, lefts, rights, values) in enumerate(trees):
            size = len(features)
            nodes = np.arange(size)
            leaf = np.asarray(lefts) < 0
            feature[t, :size], threshold[t, :size], value[t, :size] = features, thresholds, values
            left[t, :size] = np.where(leaf, nodes, lefts) + t * longest
            right[t, :size] = np.where(leaf, nodes, rights) + t * longest
        return cls(baseline, np.array([tree[0] for tree in trees]), feature, threshold, left, right, value)


@dataclass(frozen=True)
class CellModel:
    """Boosted trees fitted apart (``seqcam train-cells``: each its own random state and share of
    a cell covered from which it is taught hidden), their probabilities averaged. One fit alone
    varies: on the same validation cells, four refits (two shares, two random states each)
    called 183 to 324 uncovered cells wrong, the two of each share 45% and 54% apart;
    any two of them averaged, 153 to 173."""

    members: tuple[BoostedTrees, ...]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, F) features -> (N, 3) probabilities of CLASSES."""
        return np.mean([member.probabilities(features) for member in self.members], axis=0)

    def to_json(self) -> dict:
        return {"features": list(FEATURES), "classes": list(CLASSES),
                "members": [member.to_json() for member in self.members]}

    @classmethod
    def from_json(cls, data: dict) -> CellModel:
        if data.get("features") != list(FEATURES) or data.get("classes") != list(CLASSES) or not data.get("members"):
            raise ValueError("the cell model file is of another form or was trained on other features; run seqcam train-cells")
        return cls(tuple(BoostedTrees.from_json(member) for member in data["members"]))


def softmax(logits: np.ndarray) -> np.ndarray:
    """(N, K) log-odds -> (N, K) probabilities, each row summing to 1."""
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def rounded(values: np.ndarray) -> list:
    """Six significant digits: the file stays small and readable, the model the same."""
    return np.vectorize(lambda v: float(f"{v:.6g}"), otypes=[float])(values).tolist()


@lru_cache(maxsize=1)
def default_model() -> CellModel:
    return CellModel.from_json(json.loads(MODEL_PATH.read_text()))
