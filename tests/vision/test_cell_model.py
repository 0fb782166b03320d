import numpy as np
import pytest

from seqcam.train_cells import PhotoSamples, fit_trees, training_photos, turned_patches
from vision.cell_model import CLASSES, FEATURE_COUNT, PATCH_SIDE, SCALAR_FEATURES, BoostedTrees, CellModel, default_model

CHIP, EMPTY, HIDDEN = (CLASSES.index(name) for name in ("chip", "empty", "hidden"))
LEAF = -1


def _stumps(hidden_vote: float = 3.0) -> BoostedTrees:
    """Two one-split trees: chip log-odds +4 where feature 0 > 0.5 (else -4), hidden +3 where feature 1 > 0."""
    trees = [
        (CHIP, [0, 0, 0], [0.5, 0.0, 0.0], [1, LEAF, LEAF], [2, LEAF, LEAF], [0.0, -4.0, 4.0]),
        (HIDDEN, [1, 0, 0], [0.0, 0.0, 0.0], [1, LEAF, LEAF], [2, LEAF, LEAF], [0.0, 0.0, hidden_vote]),
    ]
    return BoostedTrees.from_trees(np.zeros(3), trees)


def test_the_trees_votes_add_up_per_class():
    features = np.zeros((3, FEATURE_COUNT), np.float32)
    features[0, 0] = 1.0  # a chip
    features[2, 1] = 1.0  # maybe a hand; not a chip
    probabilities = _stumps().probabilities(features)
    logits = np.array([[4.0, 0.0, 0.0], [-4.0, 0.0, 0.0], [-4.0, 0.0, 3.0]])
    expected = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    assert probabilities == pytest.approx(expected, abs=1e-6)


def test_the_models_probabilities_are_averaged():
    features = np.zeros((1, FEATURE_COUNT), np.float32)
    features[0, 1] = 1.0
    sure, unsure = _stumps(3.0), _stumps(-3.0)
    averaged = CellModel((sure, unsure)).probabilities(features)
    assert averaged == pytest.approx((sure.probabilities(features) + unsure.probabilities(features)) / 2)
    assert averaged[0, HIDDEN] == pytest.approx(0.5, abs=0.01)  # as sure of a hand as not


def test_a_model_round_trips_through_json():
    model = CellModel((_stumps(), _stumps(-1.0)))
    features = np.random.default_rng(0).normal(size=(5, FEATURE_COUNT)).astype(np.float32)
    again = CellModel.from_json(model.to_json())
    assert again.probabilities(features) == pytest.approx(model.probabilities(features), abs=1e-6)


def test_a_model_file_of_other_features_is_refused_with_what_to_do():
    data = default_model().to_json() | {"features": ["disc_cover"]}
    with pytest.raises(ValueError, match="seqcam train-cells"):
        CellModel.from_json(data)


def test_a_model_file_of_one_set_of_trees_the_form_before_is_refused_with_what_to_do():
    data = default_model().to_json()
    single = {"features": data["features"], "classes": data["classes"], **data["members"][0]}
    with pytest.raises(ValueError, match="another form.*seqcam train-cells"):
        CellModel.from_json(single)


def test_training_learns_a_separable_rule_and_reads_back_as_scikit_learn_fitted_it():
    rng = np.random.default_rng(1)
    features = rng.normal(size=(2000, 12)).astype(np.float32)
    labels = np.where(features[:, 0] > 0.5, CHIP, np.where(features[:, 0] < -0.5, EMPTY, HIDDEN))
    model = fit_trees(features, labels, seed=1)  # also checks its probabilities against scikit-learn's
    assert np.mean(model.probabilities(features).argmax(axis=1) == labels) > 0.95


def test_training_turns_the_cells_pictures_not_their_measures():
    rng = np.random.default_rng(2)
    features = rng.normal(size=(64, FEATURE_COUNT)).astype(np.float32)
    turned = turned_patches(features, rng)
    scalars = len(SCALAR_FEATURES)
    assert np.array_equal(turned[:, :scalars], features[:, :scalars])
    for before, after in zip(features[:, scalars:], turned[:, scalars:]):
        picture = before.reshape(PATCH_SIDE, PATCH_SIDE, 3)
        assert any(np.array_equal(np.rot90(picture, k), after.reshape(picture.shape)) for k in range(4))
    assert not np.array_equal(turned, features)


def test_training_photos_take_an_equal_share_of_each_seed_in_turn_without_rendering_those_kept(tmp_path):
    for seed in (5, 3):
        (tmp_path / f"seed_{seed}").mkdir()
        for k in range(4):
            (tmp_path / f"seed_{seed}" / f"photo_{k:04d}.jpg").touch()
    paths = training_photos(tmp_path, 5, (5, 3), workers=1)
    assert [(p.parent.name, p.name) for p in paths] == [
        ("seed_5", "photo_0000.jpg"), ("seed_5", "photo_0001.jpg"), ("seed_5", "photo_0002.jpg"),
        ("seed_3", "photo_0000.jpg"), ("seed_3", "photo_0001.jpg")]


def test_cells_are_taught_as_hidden_from_the_covered_share_asked_for():
    samples = PhotoSamples(np.zeros((4, FEATURE_COUNT), np.float32), chip=np.array([True, False, True, False]),
                           covered=np.float32([0.0, 0.3, 0.55, 0.9]))
    assert samples.labels(0.5).tolist() == [CHIP, EMPTY, HIDDEN, HIDDEN]
    assert samples.labels(0.6).tolist() == [CHIP, EMPTY, CHIP, HIDDEN]
