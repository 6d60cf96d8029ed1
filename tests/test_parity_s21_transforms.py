"""Session-21: ``paddle.vision.transforms`` against real Paddle 3.3.1 (Tensor resize through
interpolate, normalize's order of checks, ...)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")

RS = np.random.RandomState(21)
U8 = RS.randint(0, 256, (6, 8, 3)).astype("uint8")          # HWC
CHW = RS.rand(3, 6, 8).astype("float32")
CHW_U8 = np.ascontiguousarray(U8.transpose(2, 0, 1))


def _F(P):
    return P.vision.transforms.functional


# -- resize of Tensor images: Paddle resizes a batch of one with interpolate ---------------------

@pytest.mark.parametrize("size", [(1, 1), 1, (3.0, 4.0), True, (1, 5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_resize_tensor_sizes(size, dtype):
    # a single output row/column reads the first input one; float sizes are truncated
    ours, theirs = both(lambda P: _F(P).resize(P.to_tensor(CHW.astype(dtype)), size))
    assert_same(ours, theirs)


@pytest.mark.parametrize("mode", ["nearest", "NEAREST"])
def test_resize_int32_tensor_nearest(mode):
    ours, theirs = both(lambda P: _F(P).resize(P.to_tensor(CHW_U8).astype("int32"), (4, 5), mode))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dtype, mode", [("int32", "bilinear"), ("int32", "bicubic"), ("uint8", "bicubic"),
                                         ("int64", "area")])
def test_resize_integer_tensor_without_kernel(dtype, mode):
    same_exception(lambda P: _F(P).resize(P.to_tensor(CHW_U8).astype(dtype), (4, 5), mode))


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "area"])
@pytest.mark.parametrize("size", [(3, 5), 4, 0, (0, 3)])
def test_resize_batched_tensor_is_value_error(mode, size):
    exc = same_exception(lambda P: _F(P).resize(P.to_tensor(CHW[None]), size, mode))
    assert "paddle.vision.transforms.resize" in str(exc)


@pytest.mark.parametrize("mode", [None, 0])
def test_resize_tensor_non_str_interpolation(mode):
    same_exception(lambda P: _F(P).resize(P.to_tensor(CHW), (4, 5), mode))


# -- normalize of Tensor images: the subtraction is checked before the division ------------------

@pytest.mark.parametrize("shape, fmt", [((3, 6, 8), "HWC"), ((6, 8, 3), "CHW"), ((1, 3, 6, 8), "HWC")])
def test_normalize_tensor_shape_error_before_integer_std(shape, fmt):
    img = RS.rand(*shape).astype("float32")
    same_exception(lambda P: _F(P).normalize(P.to_tensor(img), [0.5] * 3, [0, 1, 1], fmt))
    same_exception(lambda P: P.vision.transforms.Normalize([0.5] * 3, [0, 1, 1], fmt)(P.to_tensor(img)))
