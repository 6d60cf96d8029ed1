"""Differential sweep of paddle.vision.ops argument errors and the statistics family
against real Paddle 3.3.1 (exception types; values where pagaie had diverged)."""
import numpy as np
import pytest

from tests.reference import assert_same, both, resolve, same_exception

R = np.random.RandomState(0)
X14 = R.rand(1, 14, 4, 4)
FX = R.rand(1, 2, 6, 6)
BB = [[0., 0., 4., 4.]]
DX = R.rand(1, 2, 5, 5)
W = R.rand(3, 2, 3, 3)


def _t(m, a, dt="float32"):
    return m.to_tensor(np.asarray(a, dtype=dt))


def _ops(m):
    return m.vision.ops


def _num(m):
    return _t(m, [1], "int32")


VISION_ERRORS = {
    "prior_box_3d_input": lambda m: _ops(m).prior_box(m.ones([2, 2, 2]), m.ones([1, 3, 8, 8]), [4.]),
    "prior_box_3d_image": lambda m: _ops(m).prior_box(m.ones([1, 2, 2, 2]), m.ones([3, 8, 8]), [4.]),
    "prior_box_size_lengths": lambda m: _ops(m).prior_box(m.ones([1, 2, 2, 2]), m.ones([1, 3, 8, 8]),
                                                          [4., 5.], [6.]),
    "prior_box_max_below_min": lambda m: _ops(m).prior_box(m.ones([1, 2, 2, 2]), m.ones([1, 3, 8, 8]),
                                                           [4.], [2.]),
    "prior_box_int_input": lambda m: _ops(m).prior_box(m.ones([1, 2, 2, 2], "int32"), m.ones([1, 3, 8, 8]), [4.]),
    "matrix_nms_2d_boxes": lambda m: _ops(m).matrix_nms(_t(m, R.rand(3, 4)), _t(m, R.rand(1, 2, 3)),
                                                        0.1, 0.1, -1, -1),
    "matrix_nms_count_mismatch": lambda m: _ops(m).matrix_nms(_t(m, R.rand(1, 3, 4)), _t(m, R.rand(1, 2, 4)),
                                                              0.1, 0.1, -1, -1),
    "matrix_nms_box_width": lambda m: _ops(m).matrix_nms(_t(m, R.rand(1, 3, 5)), _t(m, R.rand(1, 2, 3)),
                                                         0.1, 0.1, -1, -1),
    "matrix_nms_2d_scores": lambda m: _ops(m).matrix_nms(_t(m, R.rand(1, 3, 4)), _t(m, R.rand(2, 3)),
                                                         0.1, 0.1, -1, -1),
    "matrix_nms_dtype_mix": lambda m: _ops(m).matrix_nms(_t(m, R.rand(1, 3, 4), "float64"),
                                                         _t(m, R.rand(1, 2, 3)), 0.1, 0.1, -1, -1),
    "matrix_nms_int_scores": lambda m: _ops(m).matrix_nms(_t(m, R.rand(1, 3, 4)), _t(m, R.rand(1, 2, 3) * 9, "int32"),
                                                          0.1, 0.1, -1, -1),
    "yolo_box_float_img_size": lambda m: _ops(m).yolo_box(_t(m, X14), _t(m, [[64, 64]]), [10, 13, 16, 30],
                                                          2, 0.01, 16),
    "yolo_box_int64_img_size": lambda m: _ops(m).yolo_box(_t(m, X14), _t(m, [[64, 64]], "int64"),
                                                          [10, 13, 16, 30], 2, 0.01, 16),
    "yolo_box_3d_x": lambda m: _ops(m).yolo_box(_t(m, X14[0]), _t(m, [[64, 64]], "int32"), [10, 13, 16, 30],
                                                2, 0.01, 16),
    "yolo_box_channels": lambda m: _ops(m).yolo_box(_t(m, X14[:, :13]), _t(m, [[64, 64]], "int32"),
                                                    [10, 13, 16, 30], 2, 0.01, 16),
    "yolo_box_1d_img_size": lambda m: _ops(m).yolo_box(_t(m, X14), _t(m, [64, 64], "int32"), [10, 13, 16, 30],
                                                       2, 0.01, 16),
    "yolo_box_img_size_batch": lambda m: _ops(m).yolo_box(_t(m, X14), _t(m, [[64, 64], [3, 3]], "int32"),
                                                          [10, 13, 16, 30], 2, 0.01, 16),
    "yolo_box_img_size_width": lambda m: _ops(m).yolo_box(_t(m, X14), _t(m, [[64, 64, 3]], "int32"),
                                                          [10, 13, 16, 30], 2, 0.01, 16),
    "yolo_box_class_0": lambda m: _ops(m).yolo_box(_t(m, X14[:, :10]), _t(m, [[64, 64]], "int32"),
                                                   [10, 13, 16, 30], 0, 0.01, 16),
    "yolo_box_no_anchors": lambda m: _ops(m).yolo_box(_t(m, X14[:, :0]), _t(m, [[64, 64]], "int32"), [],
                                                      2, 0.01, 16),
    "yolo_box_int_x": lambda m: _ops(m).yolo_box(_t(m, X14, "int32"), _t(m, [[64, 64]], "int32"),
                                                 [10, 13, 16, 30], 2, 0.01, 16),
    "roi_align_boxes_dtype": lambda m: _ops(m).roi_align(_t(m, FX), _t(m, BB, "float64"), _num(m), 2),
    "roi_align_x_dtype": lambda m: _ops(m).roi_align(_t(m, FX, "float64"), _t(m, BB), _num(m), 2),
    "roi_align_int_x": lambda m: _ops(m).roi_align(_t(m, FX * 9, "int32"), _t(m, BB), _num(m), 2),
    "roi_align_3d_x": lambda m: _ops(m).roi_align(_t(m, FX[0]), _t(m, BB), _num(m), 2),
    "roi_align_output_0": lambda m: _ops(m).roi_align(_t(m, FX), _t(m, BB), _num(m), (2, 0)),
    "roi_pool_boxes_dtype": lambda m: _ops(m).roi_pool(_t(m, FX), _t(m, BB, "float64"), _num(m), 2),
    "roi_pool_3d_x": lambda m: _ops(m).roi_pool(_t(m, FX[0]), _t(m, BB), _num(m), 2),
    "roi_pool_output_0": lambda m: _ops(m).roi_pool(_t(m, FX), _t(m, BB), _num(m), 0),
    "psroi_pool_boxes_dtype": lambda m: _ops(m).psroi_pool(_t(m, R.rand(1, 8, 6, 6)), _t(m, BB, "float64"),
                                                           _num(m), 2),
    "psroi_pool_int_x": lambda m: _ops(m).psroi_pool(_t(m, R.rand(1, 8, 6, 6) * 9, "int32"), _t(m, BB, "int32"),
                                                     _num(m), 2),
    "nms_int_boxes": lambda m: _ops(m).nms(_t(m, [[0, 0, 9, 9], [1, 1, 9, 9]], "int32"), 0.5),
    "box_coder_target_width": lambda m: _ops(m).box_coder(_t(m, [[0., 0., 2., 2.]]), [1., 1., 1., 1.],
                                                          _t(m, [[1., 1., 3.]])),
    "box_coder_decode_2d": lambda m: _ops(m).box_coder(_t(m, [[0., 0., 2., 2.]]), [1., 1., 1., 1.],
                                                       _t(m, [[1., 1., 3., 3.]]), code_type="decode_center_size"),
    "box_coder_decode_count": lambda m: _ops(m).box_coder(_t(m, [[0., 0., 2., 2.]]), [1., 1., 1., 1.],
                                                          _t(m, [[[1., 1., 3., 3.], [1., 1., 3., 3.]]]),
                                                          code_type="decode_center_size"),
    "box_coder_var_shape": lambda m: _ops(m).box_coder(_t(m, [[0., 0., 2., 2.]]), _t(m, np.ones((2, 4))),
                                                       _t(m, [[1., 1., 3., 3.]])),
    "box_coder_int": lambda m: _ops(m).box_coder(_t(m, [[0, 0, 2, 2]], "int32"), [1., 1., 1., 1.],
                                                 _t(m, [[1, 1, 3, 3]], "int32")),
    "deform_offset_channels": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 17, 3, 3]), _t(m, W)),
    "deform_offset_size": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 4, 4]), _t(m, W)),
    "deform_3d_x": lambda m: _ops(m).deform_conv2d(_t(m, DX[0]), m.zeros([1, 18, 3, 3]), _t(m, W)),
    "deform_weight_channels": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 3, 3]),
                                                              _t(m, R.rand(3, 3, 3, 3))),
    "deform_mask_channels": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 3, 3]), _t(m, W),
                                                            mask=m.zeros([1, 8, 3, 3])),
    "deform_groups": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 3, 3]), _t(m, W), groups=2),
    "deform_deformable_groups": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 3, 3]), _t(m, W),
                                                                deformable_groups=3),
    "deform_dtype_mix": lambda m: _ops(m).deform_conv2d(_t(m, DX, "float64"), m.zeros([1, 18, 3, 3]), _t(m, W)),
    "deform_int": lambda m: _ops(m).deform_conv2d(_t(m, DX, "int32"), m.zeros([1, 18, 3, 3], "int32"),
                                                  _t(m, W, "int32")),
    "deform_stride_0": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 3, 3]), _t(m, W), stride=0),
    "deform_bias_size": lambda m: _ops(m).deform_conv2d(_t(m, DX), m.zeros([1, 18, 3, 3]), _t(m, W),
                                                        bias=m.zeros([4])),
}


@pytest.mark.parametrize("case", sorted(VISION_ERRORS))
def test_vision_ops_argument_errors(case):
    exc = same_exception(VISION_ERRORS[case])
    api = case.split("_")[0]
    if api in ("deform", "psroi", "box", "roi", "matrix", "yolo", "prior"):
        assert str(exc).startswith("paddle.vision.ops."), str(exc)


def test_prior_box_zero_aspect_ratio_gives_inf_like_paddle():
    ours, theirs = both(lambda m: _ops(m).prior_box(m.ones([1, 2, 2, 2]), m.ones([1, 3, 8, 8]), [4.],
                                                    aspect_ratios=[0.]))
    assert_same(ours, theirs)


def test_prior_box_max_sizes_values():
    ours, theirs = both(lambda m: _ops(m).prior_box(m.ones([1, 2, 3, 3]), m.ones([1, 3, 12, 12]), [2., 4.],
                                                    [3., 6.], aspect_ratios=[2.], flip=True, clip=True))
    assert_same(ours, theirs)


A = R.randn(2, 3, 4)
NAN_ROWS = [[np.nan, np.nan, np.nan], [1., np.nan, 2.], [3., 1., 2.]]

STAT_ERRORS = {
    "var_complex": lambda m: m.var(_t(m, A + 1j * A, "complex64")),
    "var_bool": lambda m: m.var(_t(m, A > 0, "bool")),
    "std_complex": lambda m: m.std(_t(m, A + 1j * A, "complex64"), axis=1),
    "std_bool": lambda m: m.std(_t(m, A > 0, "bool")),
    "nanmedian_bool": lambda m: m.nanmedian(_t(m, A > 0, "bool")),
    "nanmedian_empty_axis_list": lambda m: m.nanmedian(_t(m, A), axis=[]),
    "histogram_weight_dtype": lambda m: m.histogram(_t(m, A, "float64"), bins=4,
                                                    weight=_t(m, np.ones_like(A), "int64")),
    "histogram_infinite_range": lambda m: m.histogram(_t(m, [1., np.inf, 2.]), bins=4),
    "bincount_2d": lambda m: m.bincount(_t(m, [[0, 1]], "int64")),
    "bincount_float": lambda m: m.bincount(_t(m, [0., 1.])),
    "cov_complex": lambda m: m.linalg.cov(_t(m, A[0] + 1j * A[0], "complex64")),
    "corrcoef_complex128": lambda m: m.linalg.corrcoef(_t(m, A[0] + 1j * A[0], "complex128")),
    "cov_0d": lambda m: m.linalg.cov(m.to_tensor(1.5)),
    "corrcoef_0d": lambda m: m.linalg.corrcoef(m.to_tensor(1.5)),
    "cov_fractional_fweights": lambda m: m.linalg.cov(_t(m, A[0], "float64"),
                                                      fweights=_t(m, [1.5, 2., 1., 3.], "float64")),
    "histogramdd_1d": lambda m: m.histogramdd(_t(m, R.rand(10)), bins=3),
    "histogramdd_bins_length": lambda m: m.histogramdd(_t(m, R.rand(10, 2)), bins=[2, 3, 4]),
    "histogramdd_ranges_length": lambda m: m.histogramdd(_t(m, R.rand(10, 2)), bins=2, ranges=[0., 1.]),
}


@pytest.mark.parametrize("case", sorted(STAT_ERRORS))
def test_statistics_errors(case):
    same_exception(STAT_ERRORS[case])


@pytest.mark.parametrize("keepdim", [False, True])
def test_nanmedian_min_all_nan_line_index(keepdim):
    ours, theirs = both(lambda m: m.nanmedian(_t(m, NAN_ROWS, "float64"), axis=-1, mode="min", keepdim=keepdim))
    assert_same(ours, theirs)


@pytest.mark.parametrize("rng", [(0.0, 0.0), (-1.0, 1.0)])
def test_histogram_skips_nan(rng):
    a = A.copy()
    a[0, 1] = np.nan
    ours, theirs = both(lambda m: m.histogram(_t(m, a, "float64"), bins=4, min=rng[0], max=rng[1]))
    assert_same(ours, theirs)


@pytest.mark.parametrize("fn,kw", [("var", {"axis": [0, 2], "keepdim": True}), ("std", {"axis": -1}),
                                   ("var", {"axis": 1, "unbiased": False}), ("median", {"axis": 1}),
                                   ("nanmedian", {"axis": [-1, 0]}), ("quantile", {"q": [0.2, 0.7], "axis": 1}),
                                   ("nanquantile", {"q": 0.3, "axis": [0, 2], "keepdim": True}),
                                   ("linalg.cov", {}), ("linalg.corrcoef", {"rowvar": False})])
def test_statistics_values_and_float64_grads(fn, kw):
    src = A.reshape(4, 6) if fn.startswith("linalg") else A

    def run(m):
        x = _t(m, src, "float64")
        x.stop_gradient = False
        out = resolve(m, fn)(x, **kw)
        (g,) = m.grad([out.sum()], [x])
        return [out, g]

    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-6, atol=1e-8)


def test_cov_integral_float_fweights():
    ours, theirs = both(lambda m: m.linalg.cov(_t(m, A[0], "float64"), fweights=_t(m, [1., 2., 1., 3.], "float64")))
    assert_same(ours, theirs)
