"""Fuzz cases: search/sort, linear algebra, fft, and the other math ops with their own signatures."""
from __future__ import annotations

import numpy as np

from tests.audit.fuzz import Case, X, arr


def _x(shape, dt="float32", kind="float", **kw):
    return X(arr(shape, dt, kind), **kw)


def _i(v, dt="int64"):
    return X(np.asarray(v, dtype=dt))


F2 = _x([3, 4])
TIES = X(np.array([[3, 1, 2, 1], [2, 2, 0, 5], [1, 1, 1, 1]], "float32"))


def search_cases() -> list[Case]:
    return [
        Case("sort", (F2,)), Case("sort", (F2, 0), label="axis0"), Case("sort", (F2, -1, True), label="desc"),
        Case("sort", (TIES, -1, False, True), label="stable"), Case("sort", (_x([3, 4], "int32"),), label="int32"),
        Case("sort", (_x(()),), label="0d"), Case("sort", (_x([2, 0]),), label="empty"),
        Case("sort", (_x([3, 4], kind="special"),), label="nan"), Case("sort", (_x([3, 4], "bool"),), label="bool"),
        Case("sort", (_x([3, 4], sg=False),), label="grad"),
        Case("argsort", (F2,)), Case("argsort", (TIES, 1, True, True), label="desc_stable"),
        Case("argsort", (_x(()),), label="0d"), Case("argsort", (_x([3, 4], kind="special"), 0), label="nan"),
        Case("msort", (F2,)),
        Case("topk", (F2, 2)), Case("topk", (F2, 2, 0), label="axis0"), Case("topk", (F2, 2, -1, False), label="smallest"),
        Case("topk", (F2, _i(2)), label="tensor_k"), Case("topk", (TIES, 2), label="ties"),
        Case("topk", (F2, 5), label="k_too_big"), Case("topk", (_x(()), 1), label="0d"),
        Case("topk", (_x([3, 4], "int64"), 1), label="int"), Case("topk", (F2, 2, None, True, False), label="unsorted",
                                                                    values=False),
        Case("kthvalue", (TIES, 2)), Case("mode", (TIES,)),
        Case("argmax", (TIES,), label="ties"), Case("argmin", (TIES, 1), label="ties"),
        Case("nonzero", (F2,)), Case("nonzero", (F2, True), label="tuple"), Case("nonzero", (_x(()),), label="0d"),
        Case("nonzero", (_x([3, 4], "bool"),), label="bool"), Case("nonzero", (_x([2, 0]),), label="empty"),
        Case("argwhere", (_x([3, 4], "bool"),)),
        Case("masked_select", (F2, _x([3, 4], "bool"))),
        Case("searchsorted", (X(np.sort(arr([5], "float32"))), _x([3]))),
        Case("searchsorted", (X(np.array([1.0, 2, 2, 3])), X(np.array([2.0, 0, 5]))), {"right": True}, label="right"),
        Case("searchsorted", (X(np.array([1.0, 2, 3])), X(np.array([2.0]))), {"out_int32": True}, label="int32"),
        Case("searchsorted", (X(np.array([[1.0, 2, 3], [0, 5, 6]])), X(np.array([[2.0], [5.5]]))), label="2d"),
        Case("bucketize", (X(np.array([0.5, 2.0, 9])), X(np.array([1.0, 2, 3])))),
        Case("bucketize", (X(np.array([0.5, 2.0, 9])), X(np.array([1.0, 2, 3])), True, True), label="right_int32"),
        Case("unique", (X(np.array([3, 1, 2, 1, 3])),)),
        Case("unique", (X(np.array([3, 1, 2, 1, 3])), True, True, True), label="all"),
        Case("unique", (X(np.array([[1, 2], [1, 2], [0, 1]])),), {"axis": 0}, label="axis0"),
        Case("unique", (X(np.array([3.0, 1, 2])),), {"dtype": "int32", "return_index": True}, label="dtype"),
        Case("unique", (_x(()),), label="0d"), Case("unique", (_x([0]),), label="empty"),
        Case("unique", (X(np.array([1.0, np.nan, np.nan])),), label="nan"),
        Case("unique_consecutive", (X(np.array([1, 1, 2, 2, 3, 1])),)),
        Case("unique_consecutive", (X(np.array([1, 1, 2, 2, 3, 1])), True, True), label="all"),
        Case("unique_consecutive", (X(np.array([[1, 1], [1, 1], [2, 3]])), False, False, 0), label="axis0"),
        Case("histogram", (X(np.array([1.0, 2, 1, 4])),), {"bins": 4}),
        Case("histogram", (X(np.array([1, 2, 1, 4])), 3, 0, 5), label="int_range"),
        Case("histogram", (X(np.array([1.0, 2, 1, 4])), 4, 0.0, 0.0, X(np.array([1.0, 2, 3, 4])), True), label="weight_density"),
        Case("histogram_bin_edges", (X(np.array([1.0, 2, 1, 4])), 4)),
        Case("histogramdd", (X(arr([6, 2], "float64")),), {"bins": 3}),
        Case("bincount", (X(np.array([1, 2, 1, 4])),)), Case("bincount", (X(np.array([1, 2, 1])), X(np.array([0.5, 1.0, 2.0]))), label="weights"),
        Case("bincount", (X(np.array([1, 2, 1])),), {"minlength": 6}, label="minlength"),
        Case("bincount", (X(np.array([], "int64")),), label="empty"),
        Case("isin", (X(np.array([1, 2, 3])), X(np.array([2, 5])))),
        Case("isin", (X(np.array([1, 2, 3])), X(np.array([2, 5])), False, True), label="invert"),
        Case("count_nonzero", (F2,)), Case("index_sample", (F2, _i([[0], [1], [3]]))),
    ]


def linalg_cases() -> list[Case]:
    A = _x([3, 3])
    B = _x([2, 3, 4])
    return [
        Case("matmul", (_x([2, 3]), _x([3, 4]))), Case("matmul", (_x([3]), _x([3])), label="1d_1d"),
        Case("matmul", (_x([3]), _x([3, 4])), label="1d_2d"), Case("matmul", (B, _x([4, 2])), label="batched"),
        Case("matmul", (_x([2, 3]), _x([2, 3]), False, True), label="transpose_y"),
        Case("matmul", (_x([3, 2]), _x([3, 4]), True), label="transpose_x"),
        Case("matmul", (_x([2, 3], "int32"), _x([3, 4], "int32")), label="int32"),
        Case("matmul", (_x([2, 3]), _x([3, 4], "float64")), label="mixed"),
        Case("matmul", (_x([2, 3]), _x([4, 4])), label="bad"), Case("matmul", (_x([0, 3]), _x([3, 4])), label="empty"),
        Case("matmul", (_x([2, 3], sg=False), _x([3, 4])), label="grad"),
        Case("matmul", (_x([2, 1, 3]), _x([5, 3, 2])), label="bcast"),
        Case("mm", (_x([2, 3]), _x([3, 4]))), Case("bmm", (B, _x([2, 4, 3]))), Case("bmm", (_x([2, 3]), _x([3, 4])), label="bad"),
        Case("mv", (_x([2, 3]), _x([3]))), Case("dot", (_x([3]), _x([3]))), Case("dot", (_x([2, 3]), _x([2, 3])), label="2d"),
        Case("dot", (_x([3], "int32"), _x([3], "int32")), label="int"), Case("vecdot", (_x([2, 3]), _x([2, 3]))),
        Case("inner", (_x([2, 3]), _x([4, 3]))), Case("outer", (_x([2]), _x([3]))), Case("outer", (_x([2, 2]), _x([3])), label="2d"),
        Case("kron", (_x([2, 2]), _x([2, 3]))), Case("cross", (_x([2, 3]), _x([2, 3]))),
        Case("cross", (_x([3, 3]), _x([3, 3])), {"axis": 0}, label="axis0"),
        Case("tensordot", (_x([2, 3, 4]), _x([3, 4, 5]))), Case("tensordot", (_x([2, 3]), _x([3, 2]), 1), label="int_axes"),
        Case("tensordot", (_x([2, 3]), _x([3, 2]), [[1], [0]]), label="list_axes"),
        Case("einsum", ("ij,jk->ik", _x([2, 3]), _x([3, 4]))), Case("einsum", ("ii", A), label="trace"),
        Case("einsum", ("bij->bji", B), label="transpose"), Case("einsum", ("i,i", _x([3]), _x([3])), label="dot"),
        Case("addmm", (_x([2, 4]), _x([2, 3]), _x([3, 4]))), Case("addmm", (_x([2, 4]), _x([2, 3]), _x([3, 4]), 0.5, 2.0), label="coef"),
        Case("baddbmm", (_x([2, 3, 3]), B, _x([2, 4, 3]))), Case("trace", (A,)), Case("trace", (B, 1, 1, 2), label="offset"),
        Case("t", (A,)), Case("dist", (_x([3]), _x([3]))), Case("dist", (_x([3]), _x([3]), 1), label="p1"),
        Case("dist", (_x([3]), _x([3]), float("inf")), label="inf"), Case("dist", (_x([3]), _x([3]), 0), label="p0"),
        Case("cdist", (_x([3, 2]), _x([4, 2]))), Case("cdist", (_x([3, 2]), _x([4, 2]), 1.0), label="p1"),
        Case("pdist", (_x([4, 3]),)), Case("renorm", (F2, 2.0, 0, 1.0)),
        Case("linalg.norm", (F2,)), Case("linalg.norm", (F2, "fro"), label="fro"), Case("linalg.norm", (F2, 1, 1), label="p1_axis"),
        Case("linalg.norm", (F2, float("inf"), [0, 1]), label="inf_mat"), Case("linalg.norm", (F2, "nuc"), label="nuc"),
        Case("linalg.norm", (F2, 2, None, True), label="keepdim"), Case("linalg.norm", (_x([3]), 0), label="p0"),
        Case("Tensor.norm", (F2,)), Case("linalg.vector_norm", (F2, 3)), Case("linalg.matrix_norm", (F2, "fro")),
        Case("linalg.det", (A,)), Case("linalg.slogdet", (A,)), Case("linalg.inv", (X(arr([3, 3], "float64") + 3 * np.eye(3)),)),
        Case("linalg.pinv", (F2,), rtol=1e-4, atol=1e-5), Case("linalg.matrix_rank", (F2,)),
        Case("linalg.matrix_power", (A, 3)), Case("linalg.matrix_power", (X(arr([3, 3], "float64") + 3 * np.eye(3)), -1), label="neg"),
        Case("linalg.solve", (X(arr([3, 3], "float64") + 3 * np.eye(3)), _x([3, 2], "float64"))),
        Case("linalg.cholesky", (X(np.eye(3) * 2 + 0.1),)), Case("linalg.qr", (F2,), post=lambda r: r[1].abs()),
        Case("linalg.eigvalsh", (X(np.eye(3) * 2 + 0.1),)), Case("linalg.eigvals", (X(np.diag([1.0, 2, 3])),)),
        Case("linalg.svd", (F2,), post=lambda r: r[1]), Case("linalg.cond", (X(np.diag([1.0, 2, 3])),)),
        Case("linalg.multi_dot", ([_x([2, 3]), _x([3, 4]), _x([4, 2])],)), Case("linalg.lstsq", (_x([4, 3], "float64"), _x([4, 2], "float64")), post=lambda r: r[0]),
        Case("linalg.cov", (F2,)), Case("linalg.corrcoef", (F2,)), Case("linalg.triangular_solve", (X(np.triu(arr([3, 3], "float64")) + 3 * np.eye(3)), _x([3, 2], "float64"))),
        Case("linalg.cholesky_solve", (_x([3, 2], "float64"), X(np.tril(np.eye(3) * 2 + 0.1)))),
        Case("linalg.lu", (X(arr([3, 3], "float64") + 3 * np.eye(3)),)),
        Case("linalg.matrix_exp", (_x([3, 3], "float64"),)), Case("linalg.vecdot", (_x([2, 3]), _x([2, 3]))),
    ]


def fft_cases() -> list[Case]:
    x = _x([4, 6])
    c = _x([4, 6], "complex64")
    cs = []
    for fn in ("fft", "ifft", "rfft", "ihfft"):
        cs += [Case("fft." + fn, (x,)), Case("fft." + fn, (x, 8), label="n"), Case("fft." + fn, (x, None, 0), label="axis0"),
               Case("fft." + fn, (x, None, -1, "ortho"), label="ortho"), Case("fft." + fn, (x, None, -1, "forward"), label="forward"),
               Case("fft." + fn, (_x([4, 6], "float64"),), label="f64"), Case("fft." + fn, (_x([4, 6], "int32"),), label="int")]
    for fn in ("fft", "ifft", "irfft", "hfft"):
        cs += [Case("fft." + fn, (c,), label="complex", rtol=1e-4, atol=1e-4), Case("fft." + fn, (c, 5), label="complex_n", rtol=1e-4, atol=1e-4)]
    for fn in ("fft2", "ifft2", "rfft2", "fftn", "ifftn", "rfftn"):
        cs += [Case("fft." + fn, (x,), rtol=1e-4, atol=1e-4), Case("fft." + fn, (x, [4, 4]), label="s", rtol=1e-4, atol=1e-4)]
    for fn in ("irfft2", "irfftn", "hfft2", "ihfft2"):
        cs += [Case("fft." + fn, (c if "ih" not in fn else x,), rtol=1e-4, atol=1e-4)]
    cs += [Case("fft.fftfreq", (5,)), Case("fft.fftfreq", (4, 0.5), label="d"), Case("fft.rfftfreq", (5,)),
           Case("fft.fftshift", (x,)), Case("fft.ifftshift", (x, 0), label="axis"), Case("fft.fftshift", (_x([5]),), label="odd")]
    return cs


def math_extra_cases() -> list[Case]:
    F = _x([3, 4])
    P = _x([3, 4], kind="pos")
    return [
        Case("clip", (F, -0.5, 0.5)), Case("clip", (F, None, 0.5), label="max_only"), Case("clip", (F,), label="none"),
        Case("clip", (_x([3, 4], "int32"), 0.5, 2.5), label="int_float"), Case("clip", (F, X(np.float32(-0.5)), X(np.float32(0.5))), label="tensor"),
        Case("clip", (_x([3, 4], "int64"), -1, 2), label="int"), Case("clip", (F, 1.0, -1.0), label="min_gt_max"),
        Case("clamp", (F, -0.5, 0.5)),
        Case("scale", (F, 2.0, 1.0)), Case("scale", (F, 2.0, 1.0, False), label="bias_before"),
        Case("scale", (_x([3, 4], "int32"), 2.5, 1.0), label="int"), Case("scale", (F, X(np.float32(3.0))), label="tensor"),
        Case("scale", (F, 2.0, 0.0, True, "relu"), label="act"),
        Case("lerp", (F, _x([4]), 0.3)), Case("lerp", (F, _x([3, 4]), _x([3, 4])), label="tensor_w"),
        Case("logit", (_x([3, 4], kind="pos"), 0.1)), Case("stanh", (F, 0.5, 2.0)), Case("nan_to_num", (_x([3, 4], kind="special"), 0.0, 9.0, -9.0), label="args"),
        Case("multigammaln", (X(arr([3], "float32", "pos") + 2), 2)),
        Case("polygamma", (P, 1)), Case("gammainc", (P, P)), Case("gammaincc", (P, P)),
        Case("frexp", (F,)), Case("trapezoid", (F,)), Case("trapezoid", (F, None, 0.5, 0), label="dx"),
        Case("trapezoid", (F, _x([4])), label="x"), Case("cumulative_trapezoid", (F,)),
        Case("diff", (F,)), Case("diff", (F, 2, 0), label="n2"), Case("diff", (F, 1, -1, _x([3, 1])), label="prepend"),
        Case("diff", (_x([4], "bool"),), label="bool"),
        Case("add_n", ([F, F],)), Case("increment", (_x([1]),)), Case("increment", (_x([1], "int64"), 2.5), label="int"),
        Case("addmm", (F, F, _x([4, 4]))), Case("logaddexp", (F, F)),
        Case("complex", (F, F)), Case("as_complex", (_x([3, 2]),)), Case("as_real", (_x([3], "complex64"),)),
        Case("view_as_real", (_x([3], "complex64"),)), Case("view_as_complex", (_x([3, 2]),)),
        Case("real", (_x([3], "complex64"),), label="c"), Case("imag", (_x([3], "complex128"),), label="c"),
        Case("conj", (_x([3], "complex64"),), label="c"), Case("angle", (_x([3], "complex64"),), label="c"),
        Case("abs", (_x([3], "complex64"),), label="c"), Case("pow", (F, 2)), Case("pow", (_x([3], "int32"), 2.5), label="int_float_exp"),
        Case("pow", (_x([3], "int64"), -1), label="int_neg_exp"), Case("pow", (F, X(np.float32(2.0))), label="0d_tensor"),
        Case("pow", (F, 0.5), label="sqrt"), Case("pow", (2.0, F), label="scalar_base"),
        Case("divide", (_x([3], "int64"), X(np.array([2, 3, 4]))), label="int_true_div"),
        Case("divide", (_x([3], "int64", "nz"), X(np.array([2, -3, 4]))), {"rounding_mode": "floor"}, label="floor"),
        Case("divide", (_x([3], "int64", "nz"), X(np.array([2, -3, 4]))), {"rounding_mode": "trunc"}, label="trunc"),
        Case("divide", (F, X(np.zeros([3, 4], "float32"))), label="by_zero"),
        Case("floor_divide", (X(np.array([7, -7])), X(np.array([2, 2]))), label="int_neg"),
        Case("floor_divide", (X(np.array([7.5, -7.5])), X(np.array([2.0, 2.0]))), label="float"),
        Case("remainder", (X(np.array([7.5, -7.5])), X(np.array([2.0, -2.0]))), label="float_signs"),
        Case("remainder", (X(np.array([7, -7])), X(np.array([-2, 2]))), label="int_signs"),
        Case("mod", (X(np.array([7, -7])), X(np.array([0, 2]))), label="int_zero"),
        Case("floor_divide", (X(np.array([7, -7])), X(np.array([0, 2]))), label="int_zero"),
        Case("sign", (_x([3], "int32"),), label="int"), Case("sgn", (_x([3], "complex64"),), label="c"),
        Case("round", (X(np.array([0.5, 1.5, 2.5, -0.5])),), label="half_even"),
        Case("round", (X(np.array([1.2345, 2.5678])), 2), label="decimals"),
        Case("floor", (_x([3], "int32"),), label="int"), Case("ceil", (_x([3], "int64"),), label="int"),
        Case("sqrt", (_x([3], "int32", "pos"),), label="int"), Case("exp", (_x([3], "int64"),), label="int"),
        Case("abs", (_x([3], "int32"),), label="int"), Case("square", (_x([3], "int64"),), label="int"),
        Case("reciprocal", (_x([3], "int32", "nz"),), label="int"), Case("rsqrt", (_x([3], "int64", "pos"),), label="int"),
        Case("logsumexp", (_x([3, 4], "int64"),), label="int"), Case("mean", (_x([3, 4], "bool"),), label="bool"),
        Case("prod", (_x([3, 4], "bool"),), label="bool"), Case("cumsum", (_x([3, 4], "int32"),), label="int32"),
        Case("isfinite", (_x([3], "int32"),), label="int"), Case("isnan", (_x([3], "bool"),), label="bool"),
    ]


def all_cases() -> list[Case]:
    return search_cases() + linalg_cases() + fft_cases() + math_extra_cases() + random_and_info_cases()


def random_and_info_cases() -> list[Case]:
    """Random ops compare dtype, shape and stop_gradient only; dtype info objects by fields."""
    F = _x([3, 4])
    cs = [
        Case("rand", ([2, 3],)), Case("rand", ([2, 3], "float64"), label="f64"), Case("rand", ([],), label="0d"),
        Case("rand", ([2, _i(3)],), label="tensor_in_list"), Case("rand", ([2, 3], "int32"), label="int"),
        Case("randn", ([2, 3],)), Case("randn", ((0, 3),), label="empty"), Case("standard_normal", ([2, 3],)),
        Case("randint", (0, 5, [2, 3])), Case("randint", (5,), {"shape": [4]}, label="high_none"),
        Case("randint", (0, 5, [2], "int32"), label="int32"), Case("randint", (5, 2, [2]), label="bad"),
        Case("randint_like", (F, 0, 5)), Case("rand_like", (F,)), Case("randn_like", (_x([2], "float64"),)),
        Case("randperm", (5,)), Case("randperm", (5, "int32"), label="int32"), Case("randperm", (0,), label="zero"),
        Case("uniform", ([2, 3],)), Case("uniform", ([2, 3], "float64", -2.0, 2.0), label="args"),
        Case("normal", (0.0, 1.0, [2, 3])), Case("normal", (F, 1.0), label="tensor_mean"),
        Case("normal", (0.0, _x([3], kind="pos")), label="tensor_std"),
        Case("multinomial", (X(np.array([0.2, 0.3, 0.5], "float32")), 2)),
        Case("multinomial", (X(np.array([[0.2, 0.8], [0.5, 0.5]], "float32")), 3, True), label="replacement"),
        Case("poisson", (_x([3], kind="pos"),)), Case("bernoulli", (X(np.array([0.2, 0.9], "float32")),)),
        Case("binomial", (X(np.array([5, 10])), X(np.array([0.3, 0.5], "float32")))),
        Case("standard_gamma", (_x([3], kind="pos"),)), Case("log_normal", (0.0, 1.0, [2])),
        Case("finfo", ("float32",), post=lambda f: [f.eps, f.max, f.min, f.tiny, f.bits, f.resolution, str(f.dtype)]),
        Case("finfo", ("bfloat16",), label="bf16", post=lambda f: [f.eps, f.max, f.bits, str(f.dtype)]),
        Case("iinfo", ("int32",), post=lambda f: [f.min, f.max, f.bits, str(f.dtype)]),
        Case("iinfo", ("uint8",), label="u8", post=lambda f: [f.min, f.max, f.bits]),
        Case("get_default_dtype", ()),
        Case("ger", (_x([2]), _x([3]))), Case("softmax", (F,)), Case("softmax", (F, 0, "float64"), label="dtype"),
        Case("Tensor.cholesky", (X(np.eye(3) * 2 + 0.1),)), Case("Tensor.inverse", (X(arr([3, 3], "float64") + 3 * np.eye(3)),)),
        Case("Tensor.matrix_power", (_x([3, 3]), 2)), Case("Tensor.pinv", (F,), rtol=1e-4, atol=1e-5),
        Case("Tensor.slogdet", (_x([3, 3]),)), Case("Tensor.solve", (X(arr([3, 3], "float64") + 3 * np.eye(3)), _x([3, 1], "float64"))),
        Case("Tensor.eigvalsh", (X(np.eye(3) * 2 + 0.1),)), Case("Tensor.cov", (F,)), Case("Tensor.corrcoef", (F,)),
        Case("Tensor.is_same_shape", (F, _x([3, 4]))),
        Case("Tensor.type_as", (F, _x([2], "int64"))), Case("Tensor.to", (F, "float64"), label="dtype"),
        Case("Tensor.to", (F, "cpu"), label="device"), Case("Tensor.to", (F, "cpu", "int32"), label="both"),
        Case("Tensor.stride", (F, 0)), Case("Tensor.stride", (F,), label="all"),
        Case("Tensor.cond", (X(np.diag([1.0, 2, 3])),)), Case("Tensor.qr", (F,), post=lambda r: r[1].abs()),
    ]
    for c in cs:
        if c.api not in ("finfo", "iinfo", "get_default_dtype", "ger", "softmax") and not c.api.startswith("Tensor."):
            c.values = False
    return cs
