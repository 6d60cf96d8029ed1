"""Session-11 sweep of the resampling and rearranging ops of ``paddle.nn.functional``
against real Paddle 3.3.1: pad (odd-length, cropping, float and numpy paddings),
interpolate (numpy sizes and factors, Tensor sizes, half precision), pixel_unshuffle of an
empty batch, unfold (cropping paddings, Tensor arguments), fold (four paddings) and
temporal_shift (Tensor seg_num)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.default_rng(11)
_X4 = _RNG.standard_normal((1, 2, 3, 4))
_X2 = _RNG.standard_normal((3, 4))
_RNG_HALF = np.random.default_rng(0).standard_normal((1, 2, 5, 7))


def _t(P, a, dt="float32"):
    return P.to_tensor(np.asarray(a, dt))


def _with_grad(P, a, fn):
    """``[fn(x), d(sum(fn(x) * w))/dx]`` for float64 ``x`` and distinct weights ``w``."""
    x = P.to_tensor(np.asarray(a, "float64"))
    x.stop_gradient = False
    out = fn(P, x)
    w = P.to_tensor(np.arange(out.size, dtype="float64").reshape(out.shape))
    return [out, P.grad((out * w).sum(), x)[0]]


# -- pad ------------------------------------------------------------------------------------

@pytest.mark.parametrize("pad", [[1, 2, 3], (1, 2, 3), [0, 1, 2]])
def test_pad_odd_length_pads_from_the_last_axis(pad):
    """An odd-length constant ``pad`` is filled up with zeros and read from the last axis."""
    assert_same(*both(lambda P: _with_grad(P, _X2, lambda P, x: P.nn.functional.pad(
        x, pad, value=-1.0))))


@pytest.mark.parametrize("pad", [[-5, 1, 1, 1], [-5, 3, 0, 0], [-2, -2, 1, 0], [3, -5, 0, 0],
                                 [2, -1, -1, 2], [0, 0, -3, 0]])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_pad_negative_paddings_crop_down_to_an_empty_dim(pad, data_format):
    """Negative spatial paddings crop, even past the input when the other side pads back."""
    x = _X4 if data_format == "NCHW" else _X4.transpose(0, 2, 3, 1)   # H, W = 3, 4
    assert_same(*both(lambda P: _with_grad(P, x, lambda P, t: P.nn.functional.pad(
        t, pad, value=-1.0, data_format=data_format))))


@pytest.mark.parametrize("pad, mode", [([-7, 1, 1, 1], "constant"), ([-3, -2, 0, 0], "replicate")])
def test_pad_cropping_past_empty_is_a_runtime_error(pad, mode):
    """Paddings that leave a negative size fail in Paddle's kernel (RuntimeError)."""
    same_exception(lambda P: P.nn.functional.pad(_t(P, _X4), pad, mode=mode))


@pytest.mark.parametrize("pad", [[-4, 0], [-2, -2], [1, -1]])
def test_pad_of_any_dims_refuses_negative_paddings(pad):
    """The constant pad of other than the spatial form takes no negative paddings: ValueError."""
    same_exception(lambda P: P.nn.functional.pad(_t(P, _X2), pad))


@pytest.mark.parametrize("shape, make", [
    ([3, 4], lambda P: [1.5, 1]),                                  # any-dims form
    ([1, 1, 2, 2], lambda P: [1.0, 1, 1, 1]),                      # spatial form
    ([1, 1, 2, 2, 2], lambda P: P.to_tensor([1.0, 1, 1, 1, 1, 1])),  # float Tensor, 5-D input
])
def test_pad_float_paddings_are_a_type_error(shape, make):
    """Paddle's pad kernels take a list of ints: float paddings are a TypeError."""
    same_exception(lambda P: P.nn.functional.pad(P.ones(shape), make(P)))


def test_pad_float_tensor_of_a_4d_input_is_a_value_error():
    """A float Tensor ``pad`` of a 3-D/4-D input fails when Paddle joins it with int32 zeros."""
    same_exception(lambda P: P.nn.functional.pad(_t(P, _X4), P.to_tensor([1.0, 1, 1, 1])))


@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_pad_numpy_paddings(mode):
    """A numpy array of the spatial paddings is read as a list."""
    assert_same(*both(lambda P: P.nn.functional.pad(_t(P, _X4), np.array([1, 2, 0, 1]),
                                                    mode=mode)))


# -- interpolate ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic", "area"])
def test_interpolate_numpy_size(mode):
    """A numpy ``size`` is read as a list of output sizes."""
    assert_same(*both(lambda P: P.nn.functional.interpolate(_t(P, _X4), size=np.array([5, 3]),
                                                            mode=mode)))
    assert_same(*both(lambda P: P.nn.functional.upsample(_t(P, _X4), size=np.array([5, 3]),
                                                         mode=mode)))


def test_interpolate_numpy_scale_factor():
    """A 0-D numpy factor scales every axis; other arrays are refused (TypeError for one
    value in 1-D, ValueError for several)."""
    assert_same(*both(lambda P: P.nn.functional.interpolate(
        _t(P, _X4), scale_factor=np.array(2.0), mode="bilinear")))
    same_exception(lambda P: P.nn.functional.interpolate(_t(P, _X4), scale_factor=np.array([2.0])))
    same_exception(lambda P: P.nn.functional.interpolate(_t(P, _X4),
                                                         scale_factor=np.array([2.0, 1.5])))


@pytest.mark.parametrize("size", [[-1, 3], [0, 3]])
def test_interpolate_tensor_size_must_be_positive(size):
    """A Tensor ``size`` is read as a list and asserted positive: AssertionError."""
    same_exception(lambda P: P.nn.functional.interpolate(_t(P, _X4), size=P.to_tensor(size)))
    same_exception(lambda P: P.nn.functional.interpolate(
        _t(P, _X4), size=[P.to_tensor(size[0]), size[1]]))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_interpolate_half_types_compute_in_float32(mode, align_corners, dtype):
    """Paddle's linear and cubic kernels compute half types in float32 and round once."""
    def f(P):
        x = _t(P, _RNG_HALF).astype(dtype)
        return P.nn.functional.interpolate(x, size=[3, 9], mode=mode,
                                           align_corners=align_corners).astype("float32")
    # within an ulp; rounding the float16 steps instead misses values near 0 by far more
    assert_same(*both(f), rtol=2e-3 if dtype == "float16" else 1e-2, atol=1e-5)



# -- pixel_unshuffle ------------------------------------------------------------------------

@pytest.mark.parametrize("data_format, shape", [("NCHW", [0, 8, 4, 4]), ("NHWC", [0, 4, 4, 8])])
def test_pixel_unshuffle_of_an_empty_batch(data_format, shape):
    """An empty batch still moves the blocks into channels: [0, C*r*r, H/r, W/r]."""
    assert_same(*both(lambda P: P.nn.functional.pixel_unshuffle(P.ones(shape), 2, data_format)))


# -- unfold / fold --------------------------------------------------------------------------

@pytest.mark.parametrize("paddings", [-1, [-1, 0], [-1, 0, 1, 0], [0, -1, 1, 2]])
def test_unfold_negative_paddings_crop(paddings):
    """Negative paddings crop the input before the blocks are taken."""
    x = np.arange(2 * 5 * 6, dtype="float64").reshape(1, 2, 5, 6)
    assert_same(*both(lambda P: _with_grad(P, x, lambda P, t: P.nn.functional.unfold(
        t, 2, paddings=paddings))))


@pytest.mark.parametrize("kw", [
    {"kernel_sizes": [2, 2, 2]}, {"kernel_sizes": "2"},
    {"kernel_sizes": 2, "strides": [1, 1, 1]}, {"kernel_sizes": 2, "dilations": (1,)},
    {"kernel_sizes": 2, "paddings": None},
])
def test_unfold_argument_types(kw):
    """Kernel sizes, strides and dilations are an int or two; Paddle raises its
    NotSupportedTensorArgumentError, a TypeError."""
    def f(P):
        return P.nn.functional.unfold(P.ones([1, 3, 5, 6]), **kw)
    _same_type_name(f, TypeError)


@pytest.mark.parametrize("arg", ["kernel_sizes", "strides", "paddings"])
def test_unfold_refuses_tensor_arguments(arg):
    """A Tensor kernel size, stride or padding is a NotSupportedTensorArgumentError."""
    def f(P):
        kw = {"kernel_sizes": 2, arg: P.to_tensor([2, 2])}
        return P.nn.functional.unfold(P.ones([1, 3, 5, 6]), **kw)
    _same_type_name(f, TypeError)


def _same_type_name(fn, base):
    """Both raise an exception of the same class name, a subclass of ``base`` (each
    framework has its own NotSupportedTensorArgumentError class)."""
    from tests.reference import paddle_ref
    import pagaie
    errors = []
    for fw in (pagaie, paddle_ref()):
        with pytest.raises(base) as info:
            fn(fw)
        errors.append(info.value)
    assert type(errors[0]).__name__ == type(errors[1]).__name__, errors
    assert "torch" not in str(errors[0]) and "tensor(" not in str(errors[0]), errors[0]


@pytest.mark.parametrize("paddings, strides", [
    ([1, 0, 2, 1], [1, 2]),       # block counts differ from padding top/left on both sides
    ([0, 0, 1, 0], 1),
])
def test_fold_uneven_paddings_are_checked(paddings, strides):
    """Paddle places the blocks with top/left on both sides and refuses four paddings that
    would give other block counts: ValueError."""
    x = np.ones((2, 12, 12))
    same_exception(lambda P: P.nn.functional.fold(_t(P, x), [5, 6], [2, 3], strides, paddings))


@pytest.mark.parametrize("paddings, out, length", [
    ([0, 0, 1, 0], [4, 4], 4),    # stride 2 rounds both counts alike
    ([1, 1, 2, 2], [4, 4], 9),
    ([1, 2, 1, 2], [5, 6], 54),
])
def test_fold_four_paddings(paddings, out, length):
    """Four paddings that give the same block counts fold as ``[top, left]`` on both sides."""
    x = np.arange(4 * length, dtype="float64").reshape(1, 4, length)
    assert_same(*both(lambda P: _with_grad(P, x, lambda P, t: P.nn.functional.fold(
        t, out, 2, strides=2 if length != 54 else 1, paddings=paddings))))


def test_fold_block_count_error():
    """An input whose L is not the number of blocks is a ValueError naming the sizes."""
    exc = same_exception(lambda P: P.nn.functional.fold(P.ones([1, 8, 20]), [4, 5], 2,
                                                        paddings=[1, 1, 1, 1]))
    assert "fold" in str(exc) and "20" in str(exc)


# -- temporal_shift -------------------------------------------------------------------------

@pytest.mark.parametrize("seg", [3, 3.0, 2], ids=["int", "float", "two"])
def test_temporal_shift_0d_tensor_seg_num(seg):
    """A 0-D Tensor ``seg_num`` is read as its int value."""
    x = np.arange(6 * 8 * 2 * 2, dtype="float64").reshape(6, 8, 2, 2)
    assert_same(*both(lambda P: _with_grad(P, x, lambda P, t: P.nn.functional.temporal_shift(
        t, P.to_tensor(seg)))))


def test_temporal_shift_1d_tensor_seg_num():
    """A 1-D Tensor ``seg_num`` is refused: ValueError."""
    same_exception(lambda P: P.nn.functional.temporal_shift(P.ones([6, 8, 2, 2]),
                                                            P.to_tensor([3])))
