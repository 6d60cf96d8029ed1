"""Session-20 sweep of the resampling and vision ops (interpolate, affine_grid / grid_sample,
pad, the transposed convolutions, the shuffles, unfold / fold and ``paddle.vision.ops``)
against real Paddle 3.3.1: values, gradients, shapes, dtypes and error types."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, same_exception

_RNG = np.random.RandomState(20)
_X4 = _RNG.rand(1, 2, 3, 4).astype("float32")
_THETA = _RNG.rand(2, 2, 3).astype("float32")


@pytest.mark.parametrize("shape,mode,kw", [
    ((1, 0, 3, 4), "nearest", {"size": [5, 5]}),
    ((1, 0, 3, 4), "bilinear", {"scale_factor": 2}),
    ((0, 0, 3, 4), "bicubic", {"size": [5, 5]}),
    ((1, 0, 3), "linear", {"scale_factor": 2}),
    ((1, 0, 2, 3, 4), "trilinear", {"size": [3, 4, 5]}),
    ((1, 0, 2, 3, 4), "area", {"size": [3, 4, 5]}),
    ((1, 0, 3, 4), "area", {"size": [5, 5]}),
    ((0, 1, 0, 3), "area", {"size": [5, 5]}),
    ((1, 1, 0, 3), "area", {"size": [2, 2]}),
])
def test_interpolate_empty_inputs(shape, mode, kw):
    # no channels: Paddle returns the empty result (and zero gradients); area mode averages
    # empty spatial axes into NaN
    ours, theirs = both(lambda P: output_and_grads(
        P, [np.zeros(shape, "float32")], lambda P, x: P.nn.functional.interpolate(x, mode=mode, **kw)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("shape,fmt", [((1, 3, 4, 0), "NHWC"), ((1, 0, 0, 3), "NCHW")])
def test_interpolate_empty_errors(shape, fmt):
    # channel-last without channels, or empty spatial axes outside area mode: ValueError
    same_exception(lambda P: P.nn.functional.interpolate(
        P.to_tensor(np.zeros(shape, "float32")), size=[5, 5], mode="bilinear", data_format=fmt))


@pytest.mark.parametrize("make", [
    lambda P: np.array([2, 3, 4, 5], "int32"),
    lambda P: [np.int64(2), 3, P.to_tensor(4.5), 5],
    lambda P: P.to_tensor([2, 3, 4, 5], dtype="int32"),
])
def test_affine_grid_out_shape_forms(make):
    ours, theirs = both(lambda P: P.nn.functional.affine_grid(P.to_tensor(_THETA), make(P)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("make", [
    lambda P: np.array([2, 3, 4, 5.0]), lambda P: (2, 3, 4, 5.0), lambda P: [2, 3, True, 5],
    lambda P: [2, 3, np.float32(4), 5], lambda P: [2, 3, None, 5], lambda P: "2345",
    lambda P: P.to_tensor([2.0, 3, 4, 5]), lambda P: P.to_tensor([[2, 3], [4, 5]]),
    lambda P: [2, 3, -1, 5], lambda P: None, lambda P: 4,
])
def test_affine_grid_out_shape_errors(make):
    same_exception(lambda P: P.nn.functional.affine_grid(P.to_tensor(_THETA), make(P)))


@pytest.mark.parametrize("nd,pad", [(1, [1, 0, 2, 1]), (1, [1, 2, 3]), (2, [1, 2, 3, 4, 5]),
                                    (3, list(range(1, 13))), (5, [1] * 12)])
def test_pad_longer_than_twice_the_rank(nd, pad):
    # Paddle pads with the first 2 * ndim values, from the last axis backwards
    x = _RNG.rand(*[2, 3, 2, 2, 2][:nd]).astype("float32")
    ours, theirs = both(lambda P: output_and_grads(
        P, [x], lambda P, t: P.nn.functional.pad(t, pad, value=2.0)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("pad", [[True, 1, 1, 1], [True, 1], ["1", 1, 1, 1], [None, 1, 1, 1],
                                 [np.float32(1), 1, 1, 1]])
@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_pad_list_items_errors(pad, mode):
    same_exception(lambda P: P.nn.functional.pad(P.to_tensor(_X4), pad, mode=mode))


@pytest.mark.parametrize("make", [lambda P: range(4), lambda P: [P.to_tensor(1.7), 0, 1, 0]])
def test_pad_list_forms(make):
    # a range is read as its list; a float 0-D Tensor item is truncated
    ours, theirs = both(lambda P: P.nn.functional.pad(P.to_tensor(_X4), make(P)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("shape,pad", [([1, 1, 2, 2], [[1, 1]]), ([1, 1, 2], [[1], [1]]),
                                       ([1, 1, 2, 2, 2], [[1, 1], [1, 1], [1, 1]])])
def test_pad_tensor_of_rows(shape, pad):
    same_exception(lambda P: P.nn.functional.pad(P.ones(shape), P.to_tensor(pad, dtype="int32")))


@pytest.mark.parametrize("padding", [1.5, True, None])
def test_pad_layer_repeats_any_scalar(padding):
    # the layer repeats what it is given and pad() checks the values when called
    ours, theirs = both(lambda P: repr(P.nn.Pad2D(padding)))
    assert ours == theirs
    same_exception(lambda P: P.nn.Pad2D(padding)(P.to_tensor(_X4)))


_ROI_X = _RNG.rand(2, 2, 6, 6).astype("float32")
_ROI_BOXES = np.array([[0, 0, 4, 4], [1, 1, 5, 3], [2, 0, 5, 5]], "float32")


@pytest.mark.parametrize("op", ["roi_align", "roi_pool"])
@pytest.mark.parametrize("dtype,boxes_dtype", [("float16", "float16"), ("bfloat16", "bfloat16"),
                                               ("int64", "int64"), ("float16", "float32")])
def test_roi_cpu_kernel_dtypes(op, dtype, boxes_dtype):
    # Paddle's CPU kernels take int32, float32 and float64; the kernel lookup comes before
    # the check that boxes match x
    same_exception(lambda P: getattr(P.vision.ops, op)(
        P.to_tensor(_ROI_X).astype(dtype), P.to_tensor(_ROI_BOXES).astype(boxes_dtype),
        P.to_tensor([2, 1], dtype="int32"), 2))


@pytest.mark.parametrize("op", ["roi_align", "roi_pool"])
def test_roi_program_dtypes(op):
    def outcome(P, dtype):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                x = P.static.data("x", [2, 3, 8, 8], dtype)
                b = P.static.data("b", [4, 4], dtype)
                n = P.static.data("n", [2], "int32")
                return list(getattr(P.vision.ops, op)(x, b, n, 2).shape)
        except TypeError:
            return "TypeError"
        finally:
            P.disable_static()
    ours, theirs = both(lambda P: [outcome(P, d) for d in ("float16", "int32", "int64")])
    assert ours == theirs


def test_roi_align_int32_keeps_its_dtype():
    # Paddle's int32 kernel rounds every output to 0 (integer weights); pagaie truncates the
    # float averages, but the result is int32 as Paddle's
    ours, theirs = both(lambda P: P.vision.ops.roi_align(
        P.to_tensor(_ROI_X * 10).astype("int32"), P.to_tensor(_ROI_BOXES).astype("int32"),
        P.to_tensor([2, 1], dtype="int32"), 2))
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1] == "int32"
    assert list(ours.shape) == list(theirs.shape)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32"])
def test_deform_conv2d_cpu_dtypes(dtype):
    # float32/float64 only: NotFound eagerly (before the offset dtype check), TypeError while
    # a program is built
    same_exception(lambda P: P.vision.ops.deform_conv2d(
        P.ones([2, 4, 5, 5], dtype), P.zeros([2, 18, 3, 3]), P.ones([6, 4, 3, 3])))

    def build(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                P.vision.ops.deform_conv2d(P.static.data("x", [2, 4, 5, 5], dtype),
                                           P.static.data("o", [2, 18, 3, 3], dtype),
                                           P.static.data("w", [6, 4, 3, 3], dtype))
        finally:
            P.disable_static()
    same_exception(build)


@pytest.mark.parametrize("dtype", ["float16", "int32", "complex64"])
@pytest.mark.parametrize("channels", [16, 5])
def test_yolo_loss_cpu_dtypes(dtype, channels):
    # float32/float64 only: NotFound (RuntimeError), looked up before the shape checks
    x = _RNG.rand(2, channels, 5, 5)
    same_exception(lambda P: P.vision.ops.yolo_loss(
        P.to_tensor(x).astype(dtype), P.to_tensor(_RNG.rand(2, 4, 4) * 0.5).astype(dtype),
        P.zeros([2, 4], "int32"), [10, 13, 16, 30], [0, 1], 3, 0.5, 32))


@pytest.mark.parametrize("var", [None, "abc", 0.1, [1.0, 2.0, 3.0]])
@pytest.mark.parametrize("prior_cols,dtype", [(3, "float32"), (4, "int32")])
def test_box_coder_checks_prior_box_var_first(var, prior_cols, dtype):
    # Paddle's Python code refuses a bad prior_box_var (TypeError, AssertionError for a list
    # of another length) before looking at the boxes
    prior = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0]], "float32")[:, :prior_cols]
    same_exception(lambda P: P.vision.ops.box_coder(
        P.to_tensor(prior).astype(dtype), var, P.to_tensor([[1.0, 1.0, 3.0, 3.0]])))


_ORD_X = _RNG.rand(2, 8, 6, 6).astype("float32")
_ORD_BOXES = np.array([[0, 0, 4, 4], [1, 1, 5, 3], [2, 0, 5, 5]], "float32")
_ORDER_CASES = {
    "roi_align rank3": lambda P: P.vision.ops.roi_align(
        P.to_tensor(_ORD_X[0]).astype("float16"), P.to_tensor(_ORD_BOXES).astype("float16"),
        P.to_tensor([2, 1], "int32"), 2),
    "roi_pool boxes3": lambda P: P.vision.ops.roi_pool(
        P.to_tensor(_ORD_X).astype("float16"), P.to_tensor(_ORD_BOXES[:, :3]).astype("float16"),
        P.to_tensor([2, 1], "int32"), 2),
    "roi_pool num list": lambda P: P.vision.ops.roi_pool(
        P.to_tensor(_ORD_X).astype("float16"), P.to_tensor(_ORD_BOXES).astype("float16"), [2, 1], 2),
    "psroi_pool num int64": lambda P: P.vision.ops.psroi_pool(
        P.to_tensor(_ORD_X).astype("float16"), P.to_tensor(_ORD_BOXES).astype("float16"),
        P.to_tensor([2, 1], "int64"), 2),
    "psroi_pool num None": lambda P: P.vision.ops.psroi_pool(
        P.to_tensor(_ORD_X).astype("float16"), P.to_tensor(_ORD_BOXES).astype("float16"), None, 2),
    "deform_conv2d offset": lambda P: P.vision.ops.deform_conv2d(
        P.ones([2, 4, 5, 5], "float16"), P.zeros([2, 10, 3, 3], "float16"), P.ones([6, 4, 3, 3], "float16")),
    "box_coder prior3": lambda P: P.vision.ops.box_coder(
        P.to_tensor(_ORD_BOXES[:, :3]).astype("float16"), [1.0, 1, 1, 1], P.to_tensor(_ORD_BOXES).astype("float16")),
    "prior_box rank3": lambda P: P.vision.ops.prior_box(
        P.ones([3, 4, 5], "float16"), P.ones([1, 3, 32, 40], "float16"), [4.0]),
    "yolo_box channels": lambda P: P.vision.ops.yolo_box(
        P.ones([1, 16, 4, 5], "float16"), P.to_tensor([[32, 40]], "int32"), [10, 13], 3, 0.3, 8),
    "yolo_loss float anchors": lambda P: P.vision.ops.yolo_loss(
        P.ones([2, 16, 5, 5], "float16"), P.ones([2, 4, 4], "float16"), P.zeros([2, 4], "int32"),
        [10.5, 13, 16, 30], [0, 1], 3, 0.5, 32),
    "yolo_loss float class_num": lambda P: P.vision.ops.yolo_loss(
        P.ones([2, 16, 5, 6]), P.ones([2, 4, 4]), P.zeros([2, 4], "int32"), [10, 13, 16, 30], [0, 1],
        3.0, 0.5, 32),
    "nms boxes3": lambda P: P.vision.ops.nms(P.ones([5, 3], "int32"), 0.3),
    "matrix_nms box count": lambda P: P.vision.ops.matrix_nms(
        P.ones([1, 5, 4], "float16"), P.ones([1, 3, 6], "float16"), 0.1, 0.1, 5, 5),
    "matrix_nms float top_k": lambda P: P.vision.ops.matrix_nms(
        P.ones([1, 5, 4]), P.ones([1, 3, 5], "float16"), 0.1, 0.1, 5.0, 5),
    "yolo_box float anchors": lambda P: P.vision.ops.yolo_box(
        P.ones([1, 8, 4, 5], "float16"), P.to_tensor([[32, 40]], "int32"), [10.5, 13], 3, 0.3, 8),
}


@pytest.mark.parametrize("case", sorted(_ORDER_CASES))
def test_vision_ops_kernel_lookup_before_shape_checks(case):
    # Paddle's order: Python checks and its argument parser, then the kernel lookup (NotFound
    # for a dtype its CPU kernel lacks), then the shape checks
    same_exception(_ORDER_CASES[case])


_ORDER_NN_CASES = {
    "grid_sample grid shape": lambda P: P.nn.functional.grid_sample(
        P.ones([1, 1, 4, 4], "int32"), P.ones([1, 2, 2, 3], "int32")),
    "grid_sample batch": lambda P: P.nn.functional.grid_sample(
        P.ones([1, 1, 4, 4], "float16"), P.ones([2, 2, 2, 2], "float16")),
    "grid_sample rank3": lambda P: P.nn.functional.grid_sample(
        P.ones([1, 4, 4], "float16"), P.ones([1, 2, 2], "float16")),
    "affine_grid theta shape": lambda P: P.nn.functional.affine_grid(P.ones([2, 3, 4], "int32"), [2, 3, 4, 5]),
    "affine_grid out_shape len": lambda P: P.nn.functional.affine_grid(P.ones([2, 2, 3], "float16"), [2, 3, 4]),
    "interpolate bool zero output": lambda P: P.nn.functional.interpolate(
        P.ones([1, 2, 3, 4], "bool"), scale_factor=0.1),
    "interpolate int32 bilinear zero output": lambda P: P.nn.functional.interpolate(
        P.ones([1, 2, 3, 4], "int32"), scale_factor=0.1, mode="bilinear"),
    "interpolate uint8 bilinear zero output": lambda P: P.nn.functional.interpolate(
        P.ones([1, 2, 3, 4], "uint8"), scale_factor=0.1, mode="bilinear"),
    "pad bool 2-D reflect": lambda P: P.nn.functional.pad(P.ones([2, 2], "bool"), [1, 1], mode="reflect"),
    "pad int8 5-D constant": lambda P: P.nn.functional.pad(P.ones([1, 1, 2, 2, 2], "int8"), [1, 1]),
}


@pytest.mark.parametrize("case", sorted(_ORDER_NN_CASES))
def test_nn_kernel_lookup_before_shape_checks(case):
    same_exception(_ORDER_NN_CASES[case])


def _static_outcome(P, fn):
    P.enable_static()
    try:
        with P.static.program_guard(P.static.Program(), P.static.Program()):
            out = fn(P)
            return list(out.shape), str(out.dtype).split(".")[-1]
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__
    finally:
        P.disable_static()


_STATIC_VISION = {
    "nms f16": lambda P: P.vision.ops.nms(P.static.data("b", [5, 4], "float16"), 0.3),
    "nms shape": lambda P: P.vision.ops.nms(P.static.data("b", [5, 4], "float32"), 0.3),
    "prior_box f16": lambda P: P.vision.ops.prior_box(
        P.static.data("x", [1, 3, 4, 5], "float16"), P.static.data("i", [1, 3, 32, 40], "float16"), [4.0])[0],
    "yolo_box f16": lambda P: P.vision.ops.yolo_box(
        P.static.data("x", [1, 8, 4, 5], "float16"), P.static.data("i", [1, 2], "int32"), [10, 13], 3, 0.3, 8)[0],
    "box_coder f16": lambda P: P.vision.ops.box_coder(
        P.static.data("p", [3, 4], "float16"), [1.0, 1, 1, 1], P.static.data("t", [2, 4], "float16")),
    "psroi_pool int32": lambda P: P.vision.ops.psroi_pool(
        P.static.data("x", [2, 8, 6, 6], "int32"), P.static.data("b", [3, 4], "int32"),
        P.static.data("n", [2], "int32"), 2),
}


@pytest.mark.parametrize("case", sorted(_STATIC_VISION))
def test_vision_ops_program_build(case):
    # float32/float64-only kernels are Paddle's build-time TypeError; nms keeps an unknown count
    ours, theirs = both(lambda P: _static_outcome(P, _STATIC_VISION[case]))
    assert ours == theirs
