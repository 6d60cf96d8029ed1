"""``paddle.sparse.nn`` argument checks against real Paddle 3.3.1 (exception types)."""
from __future__ import annotations

import warnings

import numpy as np

from tests.reference import same_exception

warnings.filterwarnings("ignore", module="paddle")
DENSE = np.zeros((1, 4, 4, 4, 2), "float32")
DENSE[0, 1, 2, 3] = [1.0, -2.0]
DENSE[0, 3, 0, 1] = [0.5, 4.0]


def test_max_pool3d_data_format_asserts():
    same_exception(lambda fw: fw.sparse.nn.functional.max_pool3d(
        fw.to_tensor(DENSE).to_sparse_coo(4), 2, data_format="NCDHW"))


def test_conv3d_data_format_and_groups():
    w = np.ones((3, 3, 3, 2, 4), "float32")
    same_exception(lambda fw: fw.sparse.nn.functional.conv3d(
        fw.to_tensor(DENSE).to_sparse_coo(4), fw.to_tensor(w), data_format="NCDHW"))
    same_exception(lambda fw: fw.sparse.nn.functional.conv3d(
        fw.to_tensor(DENSE).to_sparse_coo(4), fw.to_tensor(w[..., :1, :]), groups=2))
