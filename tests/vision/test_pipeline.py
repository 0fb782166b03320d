"""The pipeline warns that the board may be turned when the card art's lead for one side is
small: in votes, or as a share of the cards that voted."""

import pytest

from seqcam.samples import default_sample
from vision.errors import VisionWarningKind
from vision.orient import Orientation
from vision.pipeline import analyze_file


@pytest.mark.parametrize("margin, votes, warned", [(4.0, 10, True), (12.0, 80, True), (40.0, 80, False)])
def test_a_small_lead_for_one_side_is_a_warning(monkeypatch, margin, votes, warned):
    monkeypatch.setattr("vision.pipeline.orientation_of", lambda *args: Orientation(0, margin, votes))
    kinds = {w.kind for w in analyze_file(default_sample(), 2).warnings}
    assert (VisionWarningKind.ORIENTATION_UNCERTAIN in kinds) == warned
