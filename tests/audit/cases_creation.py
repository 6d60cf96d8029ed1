"""Fuzz cases: tensor creation (to_tensor from Python data, full/zeros/ones, ranges, matrices, *_like)."""
from __future__ import annotations

import numpy as np

from tests.audit.fuzz import Case, Dt, X, arr


def _x(shape, dt="float32", kind="float", **kw):
    return X(arr(shape, dt, kind), **kw)


def _i(v, dt="int64"):
    return X(np.asarray(v, dtype=dt))


def to_tensor_cases() -> list[Case]:
    data = {
        "int": 3, "float": 2.5, "bool": True, "complex": 1 + 2j, "list_int": [1, 2, 3],
        "list_float": [1.0, 2.0], "list_mixed": [1, 2.5], "list_bool": [True, False],
        "nested": [[1, 2], [3, 4]], "empty_list": [], "tuple": (1, 2), "np_f64": np.array([1.5, 2.5]),
        "np_f32": np.array([1.5], "float32"), "np_i32": np.array([1, 2], "int32"),
        "np_u8": np.array([1, 2], "uint8"), "np_i16": np.array([1, 2], "int16"),
        "np_scalar": np.float64(2.0), "np_0d": np.array(3), "np_bool": np.array([True]),
        "list_of_0d_np": [np.float32(1), np.float32(2)], "np_f16": np.array([1.5], "float16"),
        "big_int": 2**40, "list_with_tensor": [_x(()), _x(())], "tensor": _x([2, 3]),
        "list_complex": [1j, 2], "ragged": [[1, 2], [3]], "string": "abc", "none": None,
    }
    cs = []
    for lab, d in data.items():
        cs.append(Case("to_tensor", (d,), label=lab))
    cs += [
        Case("to_tensor", ([1, 2],), {"dtype": "float32"}, label="dtype_str"),
        Case("to_tensor", ([1.7, -2.7],), {"dtype": "int32"}, label="float_to_int"),
        Case("to_tensor", ([1, 2],), {"dtype": Dt("float64")}, label="dtype_obj"),
        Case("to_tensor", ([1, 2],), {"dtype": "bfloat16"}, label="bf16"),
        Case("to_tensor", ([1, 2],), {"dtype": "float16"}, label="f16"),
        Case("to_tensor", ([1, 2],), {"dtype": "complex64"}, label="c64"),
        Case("to_tensor", ([1, 2],), {"stop_gradient": False}, label="int_grad"),
        Case("to_tensor", ([1.0, 2.0],), {"stop_gradient": False}, label="float_grad"),
        Case("to_tensor", (_x([2], sg=False),), label="tensor_grad_input"),
        Case("to_tensor", (_x([2]),), {"dtype": "float64"}, label="tensor_cast"),
        Case("to_tensor", ([1, 2],), {"dtype": "int8"}, label="int8"),
        Case("to_tensor", ([1, 2],), {"dtype": "uint8"}, label="uint8"),
        Case("to_tensor", ([1, 2],), {"dtype": "bogus"}, label="bad_dtype"),
        Case("as_tensor", ([1, 2],)), Case("asarray", ([1.5, 2],)), Case("from_numpy", (np.array([1, 2]),)),
        Case("assign", ([1.0, 2.0],)), Case("assign", (_x([2, 3]),), label="tensor"),
        Case("assign", (np.array([1, 2], "int32"),), label="np"), Case("assign", (3.0,), label="scalar"),
        Case("clone", (_x([2], sg=False),)), Case("Tensor.clone", (_x([2, 3]),)),
        Case("Tensor.detach", (_x([2], sg=False),)),
    ]
    return cs


def fill_cases() -> list[Case]:
    cs = []
    for fn in ("zeros", "ones", "empty"):
        vals = fn != "empty"
        cs += [
            Case(fn, ([2, 3],), values=vals), Case(fn, ((2, 3),), label="tuple", values=vals),
            Case(fn, ([2, 3], "int32"), label="int32", values=vals), Case(fn, ([2, 3], "bool"), label="bool", values=vals),
            Case(fn, ([2, 3], Dt("float64")), label="dtype_obj", values=vals),
            Case(fn, ([],), label="0d", values=vals), Case(fn, ([0, 3],), label="empty", values=vals),
            Case(fn, ([2, _i(3)],), label="tensor_in_list", values=vals),
            Case(fn, ([_i(2, "int32"), 3],), label="int32_tensor_in_list", values=vals),
            Case(fn, (_i([2, 3]),), label="shape_tensor", values=vals),
            Case(fn, (3,), label="int_shape", values=vals), Case(fn, ([2, -1],), label="neg", values=vals),
            Case(fn, ([2.0, 3],), label="float_dims", values=vals),
            Case(fn, ([2, 3], "float16"), label="f16", values=vals),
        ]
        cs.append(Case(fn + "_like", (_x([2, 3]),), values=vals))
        cs.append(Case(fn + "_like", (_x([2, 3]), "int64"), label="dtype", values=vals))
        cs.append(Case(fn + "_like", (_x([2, 3], sg=False),), label="grad", values=vals))
        cs.append(Case(fn + "_like", (_x((), "int32"),), label="0d_int", values=vals))
    cs += [
        Case("full", ([2, 3], 1.5)), Case("full", ([2, 3], 2)), Case("full", ([2, 3], True), label="bool"),
        Case("full", ([2, 3], 1.5, "int32"), label="float_to_int"), Case("full", ([2], _x(())), label="tensor_value"),
        Case("full", ([2], _i(3)), label="int_tensor_value"), Case("full", ([], 3.0), label="0d"),
        Case("full", ([2, _i(2)], 1.0), label="tensor_in_shape"), Case("full", ([2], float("inf")), label="inf"),
        Case("full", ([2], 1 + 2j), label="complex"), Case("full", ([2], 2**40), label="bigint"),
        Case("full", ([2], 3, "float64"), label="dtype"), Case("full", ([2], "a"), label="bad_value"),
        Case("full_like", (_x([2, 3]), 2.0)), Case("full_like", (_x([2, 3], "int32"), 2.7), label="int_float"),
        Case("full_like", (_x([2, 3]), 2, "int64"), label="dtype"),
        Case("full_like", (_x([2, 3]), _x(())), label="tensor_value"),
        Case("full_like", (_x([2, 3]), float("nan")), label="nan"),
        Case("Tensor.new_full", (_x([2, 3]), [2], 3.0)), Case("Tensor.new_zeros", (_x([2, 3], "int32"), [2])),
        Case("Tensor.new_ones", (_x([2, 3]), (1, 2))), Case("Tensor.new_empty", (_x([2, 3]), [2]), values=False),
        Case("Tensor.new_ones", (_x([2, 3]), 2, 3), label="varargs"),
        Case("Tensor.new_full", (_x([2, 3]), [2], 3), {"dtype": "int64"}, label="dtype"),
    ]
    return cs


def range_cases() -> list[Case]:
    return [
        Case("arange", (5,)), Case("arange", (1, 5)), Case("arange", (1, 5, 2), label="step"),
        Case("arange", (5.0,), label="float_end"), Case("arange", (0, 1, 0.3), label="float_step"),
        Case("arange", (5, 1, -1), label="neg_step"), Case("arange", (1, 5), {"dtype": "float32"}, label="dtype"),
        Case("arange", (_i(5),), label="tensor_end"), Case("arange", (_i(1), _i(5)), label="tensors"),
        Case("arange", (X(np.float32(4)),), label="float_tensor_end"),
        Case("arange", (0, 5, 0), label="zero_step"), Case("arange", (5, 1), label="empty"),
        Case("arange", (0, 10, 3), {"dtype": "int32"}, label="int32"),
        Case("arange", (0.5,), label="half"), Case("arange", (True,), label="bool"),
        Case("arange", (3, None), label="end_none"),
        Case("range", (0, 5)), Case("range", (0, 5, 2), {"dtype": "float64"}, label="dtype"),
        Case("linspace", (0, 1, 5)), Case("linspace", (0, 10, 5, "int32"), label="int32"),
        Case("linspace", (0, 1, 1), label="one"), Case("linspace", (0, 1, 0), label="zero"),
        Case("linspace", (_x(()), 1.0, 3), label="tensor_start"), Case("linspace", (0, 1, _i(4)), label="tensor_num"),
        Case("linspace", (0, 10, 4, "int64"), label="int64_trunc"), Case("linspace", (1, 0, 3), label="reverse"),
        Case("logspace", (0, 2, 3)), Case("logspace", (0, 2, 3, 2.0), label="base2"),
        Case("logspace", (0, 3, 4, 10.0, "int32"), label="int32"),
        Case("eye", (3,)), Case("eye", (2, 3), label="rect"), Case("eye", (3, None, "int32"), label="int32"),
        Case("eye", (_i(2),), label="tensor"), Case("eye", (0,), label="zero"),
        Case("diag", (_x([3]),)), Case("diag", (_x([3]), 1), label="offset"), Case("diag", (_x([3, 4]),), label="2d"),
        Case("diag", (_x([3, 4]), -1), label="2d_neg"), Case("diag", (_x([3]), 0, 5.0), label="padding"),
        Case("diag", (_x([3], "int32"),), label="int"), Case("diag", (_x(()),), label="0d"),
        Case("diagflat", (_x([2, 2]),)), Case("diagflat", (_x([3]), -1), label="offset"),
        Case("diag_embed", (_x([2, 3]),)), Case("diag_embed", (_x([2, 3]), 1, 0, 2), label="dims"),
        Case("diagonal", (_x([3, 4]),)), Case("diagonal", (_x([2, 3, 4]), 1, 0, 2), label="dims"),
        Case("diagonal", (_x([3, 4]), -1), label="neg"),
        Case("tril", (_x([3, 4]),)), Case("tril", (_x([3, 4]), 1), label="k1"), Case("triu", (_x([3, 4]), -1)),
        Case("tril", (_x([2, 3, 4]),), label="batched"), Case("triu", (_x([3]),), label="1d"),
        Case("tril", (_x([3, 4], "bool"),), label="bool"),
        Case("tril_indices", (3, 3)), Case("tril_indices", (3, 4, 1), label="offset"),
        Case("triu_indices", (3, 3)), Case("triu_indices", (3, 4, -1, "int32"), label="int32"),
        Case("vander", (_x([3]),)), Case("vander", (_x([3]), 4, True), label="increasing"),
        Case("vander", (_x([3], "int64"),), label="int"),
        Case("meshgrid", (_x([3]), _x([2]))), Case("complex", (_x([3]), _x([3]))),
        Case("complex", (_x([3], "float64"), _x([3], "float64")), label="f64"),
        Case("polar", (_x([3], kind="pos"), _x([3]))),
        Case("numel", (_x([2, 3]),)), Case("numel", (_x(()),), label="0d"),
        Case("shape", (_x([2, 3]),)), Case("shape", (_x(()),), label="0d"),
        Case("rank", (_x([2, 3]),)), Case("is_empty", (_x([2, 0]),)), Case("is_empty", (_x([2]),), label="nonempty"),
        Case("is_tensor", (_x([2]),)), Case("is_tensor", ([1],), label="list"),
        Case("is_complex", (_x([2]),)), Case("is_floating_point", (_x([2], "int32"),)),
        Case("is_integer", (_x([2], "int32"),)), Case("is_integer", (_x([2], "bool"),), label="bool"),
        Case("tolist", (_x([2, 3]),)), Case("tolist", (_x(()),), label="0d"), Case("tolist", (_x([2], "bool"),), label="bool"),
        Case("cast", (_x([3]), "int32")), Case("cast", (_x([3]), Dt("float64")), label="dtype_obj"),
        Case("cast", (_x([3], "int32"), "bool"), label="to_bool"), Case("cast", (_x([3], sg=False), "float64"), label="grad"),
        Case("cast", (_x([3], sg=False), "int32"), label="grad_to_int"),
        Case("cast", (X(np.array([1.7, -1.7, 2.5])), "int32"), label="trunc"),
        Case("Tensor.astype", (_x([3]), "float16")), Case("Tensor.astype", (_x([3]), "uint8"), label="uint8"),
        Case("Tensor.astype", (_x([3]), "bogus"), label="bad"),
        Case("Tensor.astype", (X(np.array([300.0, -1.0])), "uint8"), label="wrap"),
        Case("Tensor.astype", (_x([3]), "complex64"), label="complex"),
        Case("Tensor.astype", (X(arr([3], "complex64")), "float32"), label="complex_to_real"),
    ]


def all_cases() -> list[Case]:
    return to_tensor_cases() + fill_cases() + range_cases()
