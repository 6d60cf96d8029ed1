"""Session-21: ``paddle.vision.transforms`` against real Paddle 3.3.1 (Tensor resize through
interpolate, normalize's order of checks, ...)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception, same_static_exception

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


# -- pad and flips of Tensor images go through Paddle's pad and flip kernels ---------------------

@pytest.mark.parametrize("dtype", ["uint8", "bool", "int8"])
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect"])
def test_pad_tensor_dtype_without_kernel(dtype, mode):
    same_exception(lambda P: _F(P).pad(P.to_tensor(CHW_U8).astype(dtype), 1, 0, mode))
    same_exception(lambda P: P.vision.transforms.Pad(1, padding_mode=mode)(P.to_tensor(CHW_U8).astype(dtype)))


@pytest.mark.parametrize("padding", [-1, (-1, 2)])
def test_pad_batched_tensor_negative_padding(padding):
    same_exception(lambda P: _F(P).pad(P.to_tensor(CHW[None]), padding))


@pytest.mark.parametrize("padding", [-1, (-1, 2), [1, 2, 3, 4]])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_pad_tensor_values(padding, dtype):
    ours, theirs = both(lambda P: _F(P).pad(P.to_tensor(CHW * 10).astype(dtype), padding, 3))
    assert_same(ours, theirs)


@pytest.mark.parametrize("padding", [1.5, (1, 2.0)])
def test_pad_tensor_float_padding_is_type_error(padding):
    exc = same_exception(lambda P: _F(P).pad(P.to_tensor(CHW), padding))
    assert str(padding[-1] if isinstance(padding, tuple) else padding) in str(exc)


def test_pad_numpy_float_padding_is_type_error():
    # Paddle's numpy and PIL paths fail further on with an UnboundLocalError (its bug)
    with pytest.raises(TypeError, match="padding.*1.5"):
        pagaie.vision.transforms.pad(U8, 1.5)


@pytest.mark.parametrize("name", ["hflip", "vflip"])
@pytest.mark.parametrize("dtype", ["uint8", "int16", "float16"])
def test_flip_tensor_dtype_without_kernel(name, dtype):
    same_exception(lambda P: getattr(_F(P), name)(P.to_tensor(CHW_U8).astype(dtype)))


@pytest.mark.parametrize("name", ["hflip", "vflip"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64"])
def test_flip_tensor_dtypes(name, dtype):
    ours, theirs = both(lambda P: getattr(_F(P), name)(P.to_tensor(CHW_U8).astype(dtype)))
    assert_same(ours, theirs)


# -- colour adjustments of Tensor images: the dtypes of Paddle's multiply, lerp and max kernels ---

_COLOR = {
    "brightness": lambda P, x: _F(P).adjust_brightness(x, 0.5),
    "contrast": lambda P, x: _F(P).adjust_contrast(x, 0.5),
    "saturation": lambda P, x: _F(P).adjust_saturation(x, 0.5),
    "hue": lambda P, x: _F(P).adjust_hue(x, 0.2),
    "grayscale": lambda P, x: _F(P).to_grayscale(x, 3),
}


def _color_case(P, name, dtype, channels):
    return _COLOR[name](P, P.to_tensor(CHW_U8[:channels]).astype(dtype))


_COLOR_ERRORS = [
    ("uint8", "brightness"), ("uint8", "contrast"), ("uint8", "saturation"), ("uint8", "grayscale"),
    ("int32", "brightness"), ("int32", "contrast"), ("int32", "hue"),
    ("float16", "brightness"), ("float16", "contrast"), ("float16", "hue"), ("float16", "grayscale"),
    ("int64", "contrast"), ("bool", "hue"), ("bfloat16", "hue"), ("int16", "grayscale"),
]


# (hue and saturation return a single-channel image as it is)
@pytest.mark.parametrize("dtype, name, channels", [
    (d, n, c) for d, n in _COLOR_ERRORS for c in (1, 3) if c == 3 or n not in ("hue", "saturation")])
def test_color_tensor_dtype_errors(name, dtype, channels):
    same_exception(lambda P: _color_case(P, name, dtype, channels))


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_saturation_integer_tensor_is_runtime_error(dtype):
    # its grayscale target widens to int64, which lerp has no kernel for
    same_exception(lambda P: _color_case(P, "saturation", dtype, 3))


@pytest.mark.parametrize("name, dtype", [("grayscale", "int32"), ("grayscale", "bool"), ("grayscale", "bfloat16"),
                                         ("hue", "uint8"), ("hue", "float64"), ("saturation", "float64")])
def test_color_tensor_dtypes_that_work(name, dtype):
    ours, theirs = both(lambda P: _color_case(P, name, dtype, 3))
    assert_same(ours, theirs, atol=1.0 if dtype in ("uint8", "bfloat16") else 1e-6)


# -- rotate / affine / perspective of Tensor images: grid_sample's CPU dtypes ----------------------

_WARPS = {
    "rotate": lambda P, x: _F(P).rotate(x, 30, expand=True),
    "affine": lambda P, x: _F(P).affine(x, 15, (1, 2), 1.2, (5, 3), fill=2),
    "perspective": lambda P, x: _F(P).perspective(x, [[0, 0], [7, 0], [7, 5], [0, 5]],
                                                  [[1, 1], [6, 0], [7, 4], [0, 5]], "bilinear"),
}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["rotate", "affine"])
def test_warp_half_tensor_has_no_kernel(name, dtype):
    # (Paddle's perspective fails earlier, mixing its float32 grid with the image: a ValueError)
    same_exception(lambda P: _WARPS[name](P, P.to_tensor(CHW).astype(dtype)))


@pytest.mark.parametrize("name", sorted(_WARPS))
def test_warp_float64_tensor_samples_as_float32(name):
    # Paddle builds a float32 grid, which its grid_sample then refuses beside a float64 image
    # (its bug); pagaie warps the float64 image as Paddle warps the float32 one
    ref = paddle_ref()
    ours = _WARPS[name](pagaie, pagaie.to_tensor(CHW.astype("float64")))
    theirs = _WARPS[name](ref, ref.to_tensor(CHW))
    assert str(ours.dtype) == "paddle.float64"
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-5)


def test_random_erasing_non_image_is_type_error():
    # Paddle fails with an UnboundLocalError there (its bug)
    with pytest.raises(TypeError, match="RandomErasing.*list"):
        pagaie.vision.transforms.RandomErasing(1.0)([[1, 2]])


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("shape", [(0, 4, 3), (3, 0, 3)])
def test_pad_empty_numpy_image_reflect_is_value_error(mode, shape):
    # OpenCV never returns there, so Paddle hangs (not compared)
    with pytest.raises(ValueError, match=f"{mode}.*empty.*{shape[0]}, {shape[1]}"):
        pagaie.vision.transforms.pad(np.zeros(shape, "uint8"), 1, 0, mode)


@pytest.mark.parametrize("name, dtype", [("affine", "int32"), ("rotate", "float16"), ("grayscale", "float16"),
                                         ("grayscale", "int16"), ("brightness", "uint8"), ("hue", "float16")])
def test_tensor_transform_dtype_refused_while_a_program_is_built(name, dtype):
    calls = {**_WARPS, **_COLOR}
    same_static_exception(lambda P: calls[name](P, P.static.data("x", [3, 6, 8], dtype)))


@pytest.mark.parametrize("mode", [None, 1])
@pytest.mark.parametrize("name", ["rotate", "perspective", "affine"])
def test_warp_tensor_non_str_interpolation_is_type_error(name, mode):
    calls = {
        "rotate": lambda P, x: _F(P).rotate(x, 10, mode),
        "affine": lambda P, x: _F(P).affine(x, 10, (0, 0), 1.0, 0, mode),
        "perspective": lambda P, x: _F(P).perspective(x, [[0, 0], [7, 0], [7, 5], [0, 5]],
                                                      [[1, 1], [6, 0], [7, 4], [0, 5]], mode),
    }
    same_exception(lambda P: calls[name](P, P.to_tensor(CHW)))


# -- erase in place on Tensors: Paddle's in-place rules and programs -----------------------------

def test_erase_inplace_leaf_needing_gradient_is_value_error():
    def call(P):
        x = P.to_tensor(CHW)
        x.stop_gradient = False
        return _F(P).erase(x, 1, 1, 2, 2, 0.5, True)
    same_exception(call)


def test_erase_inplace_gradient_and_identity():
    def call(P):
        x = P.to_tensor(CHW)
        x.stop_gradient = False
        y = x * 2
        out = _F(P).erase(y, 1, 1, 2, 2, 0.5, True)
        return out is y, out, P.grad(out.sum(), [x])[0]
    ours, theirs = both(call)
    assert ours[0] is theirs[0] is True
    assert_same(list(ours[1:]), list(theirs[1:]))


def test_erase_inplace_in_a_program():
    def call(P):
        P.enable_static()
        try:
            main, start = P.static.Program(), P.static.Program()
            with P.static.program_guard(main, start):
                y = _F(P).erase(P.static.data("x", [3, 6, 8], "float32") * 1, 1, 1, 2, 2, 0.5, True)
            return P.static.Executor(P.CPUPlace()).run(main, feed={"x": CHW}, fetch_list=[y])[0]
        finally:
            P.disable_static()
    ours, theirs = both(call)
    np.testing.assert_allclose(ours, theirs)
