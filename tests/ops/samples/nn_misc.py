"""Samples for the misc nn.functional ops (nn_misc) and scaled_dot_product_attention."""
from tests.ops.samples import FLOATS, INTS, OpSample, T

F = "nn.functional."


def _s(name, *args, **kw):
    ident = kw.pop("id", "")
    opts = {k: kw.pop(k) for k in ("dtypes", "grad", "rtol", "atol") if k in kw}
    return OpSample(F + name, list(args), kw, id=ident, **opts)


_THETA = [[[0.9, 0.2, 0.1], [-0.3, 1.1, 0.05]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]
_THETA3 = [[[0.9, 0.1, 0.0, 0.1], [0.0, 1.1, 0.1, 0.0], [0.2, 0.0, 0.8, -0.1]]]

SAMPLES = [
    _s("sequence_mask", T((2, 3), kind="index", high=6), dtypes=INTS, grad=False),
    _s("sequence_mask", T((4,), kind="index", high=5), 6, dtype="float32", dtypes=INTS, grad=False,
       id="sequence_mask_maxlen"),
    _s("sequence_mask", T((4,), kind="index", high=5), 3, dtype="bool", dtypes=("int64",), grad=False,
       id="sequence_mask_short"),
    _s("gather_tree", T((4, 2, 3), kind="index", high=9), T((4, 2, 3), kind="index", high=3),
       dtypes=INTS, grad=False),
    _s("temporal_shift", T((6, 8, 2, 2)), 3),
    _s("temporal_shift", T((4, 5, 2, 3)), 2, 0.4, id="temporal_shift_ratio"),
    _s("temporal_shift", T((4, 2, 3, 8)), 2, data_format="NHWC", id="temporal_shift_nhwc"),
    _s("affine_grid", T((2, 2, 3), value=_THETA), [2, 3, 4, 5]),
    _s("affine_grid", T((2, 2, 3), value=_THETA), [2, 1, 3, 3], align_corners=False,
       id="affine_grid_no_align"),
    _s("affine_grid", T((1, 3, 4), value=_THETA3), [1, 1, 2, 3, 4], id="affine_grid_3d"),
    _s("grid_sample", T((2, 3, 4, 5)), T((2, 3, 2, 2), kind="unit")),
    _s("grid_sample", T((2, 3, 4, 5)), T((2, 3, 2, 2), low=-1.3, high=1.3, kind="unit"),
       padding_mode="border", align_corners=False, id="grid_sample_border"),
    _s("grid_sample", T((1, 2, 4, 4)), T((1, 3, 3, 2), kind="unit"), padding_mode="reflection",
       id="grid_sample_reflection"),
    _s("grid_sample", T((1, 2, 4, 4)), T((1, 3, 3, 2), kind="unit", grad=False), mode="nearest",
       id="grid_sample_nearest"),
    _s("grid_sample", T((1, 2, 3, 4, 4)), T((1, 2, 2, 3, 3), kind="unit"), id="grid_sample_3d"),
    _s("scaled_dot_product_attention", T((2, 5, 4, 8)), T((2, 6, 4, 8)), T((2, 6, 4, 8)), rtol=1e-4,
       atol=1e-5),
    _s("scaled_dot_product_attention", T((2, 5, 4, 8)), T((2, 6, 2, 8)), T((2, 6, 2, 8)),
       T((1, 4, 5, 6)), rtol=1e-4, atol=1e-5, id="sdpa_gqa_mask"),
]
