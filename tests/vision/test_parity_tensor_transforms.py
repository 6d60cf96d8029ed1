"""paddle.vision.transforms on integer and mis-shaped Tensor images: pagaie vs real Paddle 3.3.1."""
import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception

RS = np.random.RandomState(11)
U8 = RS.randint(0, 256, (3, 10, 12)).astype("uint8")
CHW = RS.rand(3, 10, 12).astype("float32")
HWC = np.ascontiguousarray(CHW.transpose(1, 2, 0))


@pytest.mark.parametrize("size", [(7, 9), 5, (12, 20)])
def test_uint8_bilinear_resize_truncates_like_paddle(size):
    ref = paddle_ref()
    ours = pagaie.vision.transforms.resize(pagaie.to_tensor(U8), size)
    theirs = ref.vision.transforms.resize(ref.to_tensor(U8), size)
    assert str(ours.dtype) == str(theirs.dtype) == "paddle.uint8"
    assert ours.shape == theirs.shape
    diff = np.abs(ours.numpy().astype(int) - theirs.numpy().astype(int))
    # Paddle truncates the float result (rounding would differ by 1 in ~half the pixels);
    # only values within float32 rounding of an integer may land on the other side.
    assert diff.max() <= 1 and (diff > 0).mean() < 0.01


@pytest.mark.parametrize("n", [1, 3])
def test_uint8_to_grayscale_has_no_kernel(n):
    # Paddle weights the channels with its multiply kernel, which takes no uint8.
    same_exception(lambda fw: fw.vision.transforms.to_grayscale(fw.to_tensor(U8), n))


def test_unknown_tensor_interpolation_is_value_error():
    same_exception(lambda fw: fw.vision.transforms.resize(fw.to_tensor(CHW), (5, 6), "lanczos"))


@pytest.mark.parametrize("call", [
    lambda T, x: T.normalize(x, [0.5, 0.5, 0.5], [0.2, 0.2, 0.2]),
    lambda T, x: T.Normalize([0.5, 0.5, 0.5], [0.2, 0.2, 0.2])(x),
    lambda T, x: T.to_grayscale(x),
    lambda T, x: T.affine(x, 10, (1, 1), 1.0, 0.0),
    lambda T, x: T.pad(x, [1, 2, 3, 0], padding_mode="reflect"),
])
def test_hwc_tensor_with_chw_transform_raises_value_error(call):
    same_exception(lambda fw: call(fw.vision.transforms, fw.to_tensor(HWC)))


@pytest.mark.parametrize("call", [
    lambda T, x: T.rotate(x, 30),
    lambda T, x: T.affine(x, 10, (1, 1), 1.0, 0.0),
    lambda T, x: T.resize(x, (5, 6), "area"),
])
def test_uint8_tensor_without_kernel_raises_runtime_error(call):
    same_exception(lambda fw: call(fw.vision.transforms, fw.to_tensor(U8)))
