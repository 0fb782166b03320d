import numpy as np
import pytest

from vision.cell_model import CLASSES, FEATURES, CellModel, Perceptron, default_model, train


def _perceptron(bias: list[float]) -> Perceptron:
    """A perceptron that ignores its input and always gives softmax(bias)."""
    features = len(FEATURES)
    return Perceptron(np.zeros(features, np.float32), np.ones(features, np.float32),
                      ((np.zeros((features, 3), np.float32), np.array(bias, np.float32)),))


def test_the_model_averages_its_members():
    sure_chip, sure_empty = _perceptron([10.0, 0.0, 0.0]), _perceptron([0.0, 10.0, 0.0])
    probabilities = CellModel((sure_chip, sure_empty)).probabilities(np.zeros((2, len(FEATURES)), np.float32))
    assert probabilities[:, CLASSES.index("chip")] == pytest.approx([0.5, 0.5], abs=1e-3)
    assert probabilities[:, CLASSES.index("empty")] == pytest.approx([0.5, 0.5], abs=1e-3)


def test_a_model_round_trips_through_json():
    model = CellModel((_perceptron([1.0, 2.0, 3.0]), _perceptron([3.0, 2.0, 1.0])))
    features = np.random.default_rng(0).normal(size=(5, len(FEATURES))).astype(np.float32)
    again = CellModel.from_json(model.to_json())
    assert again.probabilities(features) == pytest.approx(model.probabilities(features), abs=1e-5)


def test_a_model_file_of_other_features_is_refused_with_what_to_do():
    data = default_model().to_json() | {"features": ["disc_cover"]}
    with pytest.raises(ValueError, match="seqcam train-cells"):
        CellModel.from_json(data)


def test_training_learns_a_separable_rule_in_every_member():
    rng = np.random.default_rng(1)
    features = rng.normal(size=(600, len(FEATURES))).astype(np.float32)
    labels = np.where(features[:, 0] > 0.5, 0, np.where(features[:, 0] < -0.5, 1, 2))
    model = train(features, labels, rng, members=2, steps=300)
    assert len(model.members) == 2
    for member in model.members:
        assert np.mean(member.probabilities(features).argmax(axis=1) == labels) > 0.9
