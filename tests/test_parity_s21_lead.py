"""Session-21 lead: behaviours found by running whole Paddle scripts through pagaie and
real Paddle 3.3.1 side by side."""
from __future__ import annotations

import warnings

import pytest

from tests.reference import both

pytest.importorskip("paddle")


def _batch_norm_warnings(P, layer: str, shape: list, train: bool) -> list:
    bn = getattr(P.nn, layer)(shape[1])
    bn.train() if train else bn.eval()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        bn(P.rand(shape))
    return sorted(str(w.message) for w in seen if issubclass(w.category, UserWarning))


@pytest.mark.parametrize("layer,shape", [("BatchNorm1D", [2, 3]), ("BatchNorm2D", [2, 3, 4, 4]),
                                         ("BatchNorm3D", [2, 3, 2, 2, 2])])
@pytest.mark.parametrize("train", [True, False])
def test_batch_norm_training_notice(layer, shape, train):
    ours, theirs = both(lambda P: _batch_norm_warnings(P, layer, shape, train))
    assert ours == theirs
