"""Fuzz cases: shape manipulation, joining/splitting, gather/scatter and indexing helpers."""
from __future__ import annotations

import numpy as np

from tests.audit.fuzz import Case, X, arr


def _x(shape, dt="float32", kind="float", **kw):
    return X(arr(shape, dt, kind), **kw)


def _i(v, dt="int64"):
    return X(np.asarray(v, dtype=dt))


F = _x([2, 3, 4])
F2 = _x([3, 4])
I2 = _x([3, 4], "int32")
B2 = _x([3, 4], "bool")
Z = _x(())
E = _x([2, 0])
NC = _x([3, 4], nc=True)
G = _x([3, 4], sg=False)


def shape_cases() -> list[Case]:
    t0 = _i(4)  # 0-D int64 tensor used inside shape lists
    t0i32 = _i(3, "int32")
    return [
        # reshape
        Case("reshape", (F, [6, 4])), Case("reshape", (F, [-1, 4]), label="neg1"),
        Case("reshape", (F, [0, -1]), label="zero_copy"), Case("reshape", (F, (2, 12)), label="tuple"),
        Case("reshape", (F, [2, t0, -1]), label="tensor_in_list"),
        Case("reshape", (F, [t0i32, 6]), label="int32_tensor_in_list"),
        Case("reshape", (F, _i([4, 6])), label="shape_tensor"),
        Case("reshape", (F, _i([4, 6], "int32")), label="shape_tensor_int32"),
        Case("reshape", (F, [5, 5]), label="bad"), Case("reshape", (Z, [1]), label="0d"),
        Case("reshape", (Z, []), label="0d_to_0d"), Case("reshape", (_x([1]), []), label="to_0d"),
        Case("reshape", (E, [0, 5]), label="empty"), Case("reshape", (E, [-1]), label="empty_neg"),
        Case("reshape", (NC, [12]), label="nc"), Case("reshape", (G, [12]), label="grad"),
        Case("reshape", (I2, [2, 6]), label="int32"), Case("Tensor.reshape", (F, 4, 6), label="varargs"),
        Case("Tensor.reshape", (F, [4, 6]), label="method"),
        Case("Tensor.view", (F, [4, 6]), label="method"), Case("Tensor.view", (F, "int32"), label="dtype"),
        Case("view", (F, [4, 6])), Case("view_as", (F, _x([6, 4]))),
        # flatten / squeeze / unsqueeze
        Case("flatten", (F,)), Case("flatten", (F, 1)), Case("flatten", (F, 0, 1), label="0_1"),
        Case("flatten", (F, -2, -1), label="neg"), Case("flatten", (Z,), label="0d"),
        Case("flatten", (E,), label="empty"), Case("flatten", (F, 2, 1), label="bad"),
        Case("Tensor.flatten", (NC,), label="nc"),
        Case("squeeze", (_x([1, 3, 1]),)), Case("squeeze", (_x([1, 3, 1]), 0), label="axis0"),
        Case("squeeze", (_x([1, 3, 1]), [0, 2]), label="list"), Case("squeeze", (_x([1, 3, 1]), 1), label="non1"),
        Case("squeeze", (_x([1, 3, 1]), -1), label="neg"), Case("squeeze", (Z,), label="0d"),
        Case("squeeze", (Z, 0), label="0d_axis"), Case("squeeze", (_x([1, 3, 1]), (0,)), label="tuple"),
        Case("squeeze", (_x([1, 3, 1]), _i(0)), label="tensor_axis"),
        Case("unsqueeze", (F2, 0)), Case("unsqueeze", (F2, -1), label="neg"),
        Case("unsqueeze", (F2, [0, 2]), label="list"), Case("unsqueeze", (F2, (0, -1)), label="tuple"),
        Case("unsqueeze", (Z, 0), label="0d"), Case("unsqueeze", (F2, _i(1)), label="tensor_axis"),
        Case("unsqueeze", (F2, [_i(0), 1]), label="tensor_in_list"),
        Case("unsqueeze", (F2, 3), label="oob"), Case("unsqueeze", (E, 1), label="empty"),
        Case("unsqueeze", (G, 0), label="grad"),
        # transpose / permute / moveaxis / swapaxes / t
        Case("transpose", (F, [2, 0, 1])), Case("transpose", (F, (1, 0, 2)), label="tuple"),
        Case("transpose", (F, [-1, 0, 1]), label="neg"), Case("transpose", (F, [0, 1]), label="bad"),
        Case("transpose", (Z, []), label="0d"), Case("transpose", (E, [1, 0]), label="empty"),
        Case("Tensor.transpose", (F, [2, 0, 1]), label="method"),
        Case("permute", (F, [2, 0, 1])), Case("permute", (F, 2, 0, 1), label="varargs"),
        Case("Tensor.permute", (F, 2, 0, 1), label="varargs"),
        Case("moveaxis", (F, 0, 2)), Case("moveaxis", (F, [0, 1], [2, 0]), label="list"),
        Case("moveaxis", (F, -1, 0), label="neg"),
        Case("swapaxes", (F, 0, 2)), Case("swapdims", (F, 0, -1)), Case("Tensor.swapaxes", (F, 1, 2)),
        Case("t", (F2,)), Case("t", (_x([3]),), label="1d"), Case("t", (Z,), label="0d"),
        Case("t", (F,), label="3d"), Case("matrix_transpose", (F,)), Case("Tensor.T", (F2,)),
        Case("Tensor.mT", (F,)),
        # expand / broadcast / tile / repeat
        Case("expand", (_x([3, 1]), [3, 4])), Case("expand", (_x([3, 1]), [2, 3, 4]), label="new_dim"),
        Case("expand", (_x([3, 1]), [-1, 4]), label="neg1"), Case("expand", (_x([3, 1]), [t0, _i(3), 4]), label="tensors"),
        Case("expand", (_x([3, 1]), _i([3, 5])), label="shape_tensor"), Case("expand", (Z, [2]), label="0d"),
        Case("expand", (_x([3, 2]), [3, 4]), label="bad"), Case("Tensor.expand", (_x([3, 1]), 3, 4), label="varargs"),
        Case("expand", (_x([3, 1], sg=False), [3, 4]), label="grad"),
        Case("expand_as", (_x([3, 1]), F2)), Case("broadcast_to", (_x([3, 1]), [2, 3, 4])),
        Case("broadcast_to", (_x([3, 1]), (3, t0)), label="tensor_in_tuple"),
        Case("broadcast_tensors", ([_x([3, 1]), _x([4]), Z],)),
        Case("broadcast_shape", ([3, 1], [4])), Case("broadcast_shape", ([3, 2], [4]), label="bad"),
        Case("broadcast_shapes", ([3, 1], [4], [2, 1, 1])),
        Case("tile", (F2, [2, 1])), Case("tile", (F2, [2]), label="short"), Case("tile", (F2, (2, 1, 2)), label="long"),
        Case("tile", (F2, [t0, 1]), label="tensor_in_list"), Case("tile", (F2, _i([1, 2])), label="tensor"),
        Case("tile", (Z, [3]), label="0d"), Case("tile", (I2, [2, 2]), label="int32"),
        Case("Tensor.repeat", (F2, 2, 1)), Case("Tensor.repeat", (F2, [2, 1]), label="list"),
        Case("repeat_interleave", (F2, 2)), Case("repeat_interleave", (F2, 2, 0), label="axis0"),
        Case("repeat_interleave", (F2, _i([1, 2, 3]), 0), label="tensor_repeats"),
        Case("repeat_interleave", (Z, 3), label="0d"), Case("repeat_interleave", (F2, [1, 2, 3], 0), label="list_repeats"),
        # flip / roll / rot90
        Case("flip", (F, 0)), Case("flip", (F, [0, 2]), label="list"), Case("flip", (F, -1), label="neg"),
        Case("flip", (F, (1,)), label="tuple"), Case("flip", (Z, 0), label="0d"), Case("flip", (E, 1), label="empty"),
        Case("flip", (F, []), label="empty_axis"),
        Case("reverse", (F, 0)), Case("roll", (F2, 1)), Case("roll", (F2, 1, 0), label="axis"),
        Case("roll", (F2, [1, -1], [0, 1]), label="list"), Case("roll", (F2, _i(2), 1), label="tensor_shift"),
        Case("roll", (F2, -5), label="neg"), Case("roll", (Z, 1), label="0d"),
        Case("rot90", (F2,)), Case("rot90", (F2, 2), label="k2"), Case("rot90", (F2, -1, [1, 0]), label="axes"),
        Case("rot90", (F, 1, [0, 2]), label="3d"),
        # as_strided / unfold / narrow / unflatten
        Case("as_strided", (F2, [2, 2], [1, 2])), Case("unfold", (_x([8]), 0, 3, 2)),
        Case("Tensor.unfold", (F2, 1, 2, 1)),
        Case("narrow", (F2, 1, 1, 2)), Case("narrow", (F2, -1, 0, 2), label="neg"),
        Case("narrow", (F2, 0, _i(1), 2), label="tensor_start"),
        Case("unflatten", (F2, 1, [2, 2])), Case("unflatten", (F2, -1, [2, -1]), label="neg"),
        Case("unflatten", (F2, 1, (t0, 1)), label="tensor"),
        Case("atleast_1d", (Z,)), Case("atleast_1d", (Z, F2), label="multi"),
        Case("atleast_2d", (_x([3]),)), Case("atleast_3d", (F2,)), Case("atleast_3d", (Z,), label="0d"),
        Case("ravel", (NC,)), Case("ravel", (Z,), label="0d"),
        Case("crop", (F2, [2, 2])), Case("crop", (F2, [2, 2], [1, 1]), label="offsets"),
        Case("crop", (F2, [-1, 2], [1, 1]), label="neg"),
    ]


def join_cases() -> list[Case]:
    a, b = _x([2, 3]), X(arr([2, 3], "float32", seed=7))
    c64 = X(arr([2, 3], "float64", seed=8))
    i32 = X(arr([2, 3], "int32", seed=9))
    cs = [
        Case("concat", ([a, b],)), Case("concat", ([a, b], 1), label="axis1"),
        Case("concat", ([a, b], -1), label="neg"), Case("concat", ((a, b),), label="tuple"),
        Case("concat", ([a, b], _i(1)), label="tensor_axis"), Case("concat", ([a],), label="single"),
        Case("concat", ([a, c64],), label="mixed_float"), Case("concat", ([a, i32],), label="mixed_int"),
        Case("concat", ([a, _x([2, 4])], 1), label="diff_size"), Case("concat", ([a, _x([2, 4])], 0), label="bad"),
        Case("concat", ([Z, Z],), label="0d"), Case("concat", ([a, _x([0, 3])],), label="empty"),
        Case("concat", ([],), label="none"), Case("concat", ([_x([2, 3], sg=False), b],), label="grad"),
        Case("concat", ([X(arr([2, 3], "bool")), X(arr([2, 3], "bool", seed=3))],), label="bool"),
        Case("concatenate", ([a, b], 1)), Case("cat", ([a, b], 1)),
        Case("stack", ([a, b],)), Case("stack", ([a, b], 1), label="axis1"), Case("stack", ([a, b], -1), label="neg"),
        Case("stack", ([Z, Z],), label="0d"), Case("stack", ([a, _x([2, 4])],), label="bad"),
        Case("stack", ([a, c64],), label="mixed"), Case("stack", ([],), label="none"),
        Case("hstack", ([a, b],)), Case("vstack", ([a, b],)), Case("dstack", ([a, b],)),
        Case("column_stack", ([_x([3]), _x([3, 2])],)), Case("row_stack", ([a, b],)),
        Case("hstack", ([_x([3]), _x([2])],), label="1d"), Case("vstack", ([_x([3]), _x([3])],), label="1d"),
        Case("split", (_x([6, 4]), 3)), Case("split", (_x([6, 4]), [2, 4]), label="sections"),
        Case("split", (_x([6, 4]), [2, -1]), label="neg"), Case("split", (_x([6, 4]), 2, 1), label="axis1"),
        Case("split", (_x([6, 4]), 4), label="bad"), Case("split", (_x([6, 4]), [2, _i(4)]), label="tensor_in_list"),
        Case("split", (_x([6, 4]), 2, -1), label="neg_axis"), Case("split", (_x([6, 4]), 3, _i(0)), label="tensor_axis"),
        Case("Tensor.split", (_x([6, 4]), 2), label="method"),
        Case("Tensor.split_with_sizes", (_x([6, 4]), [2, 4])),
        Case("chunk", (_x([6, 4]), 3)), Case("chunk", (_x([6, 4]), 2, 1), label="axis1"),
        Case("chunk", (_x([5, 4]), 2), label="uneven"),
        Case("tensor_split", (_x([7, 4]), 3)), Case("tensor_split", (_x([7, 4]), [2, 5]), label="indices"),
        Case("tensor_split", (_x([7, 4]), 2, 1), label="axis1"),
        Case("hsplit", (_x([4, 6]), 2)), Case("vsplit", (_x([4, 6]), [1, 3])), Case("dsplit", (F, 2)),
        Case("unbind", (F,)), Case("unbind", (F, 1), label="axis1"), Case("unbind", (F, -1), label="neg"),
        Case("unstack", (F,)), Case("unstack", (F, 1, 3), label="num"),
        Case("meshgrid", (_x([3]), _x([4]))), Case("meshgrid", ([_x([3]), _x([4])],), label="list"),
        Case("meshgrid", (_x([3]), _x([4]), _x([2])), label="3"),
        Case("block_diag", ([a, _x([1, 2])],)), Case("cartesian_prod", ([_x([2]), _x([3])],)),
        Case("combinations", (_x([4]),)), Case("combinations", (_x([4]), 3, True), label="with_replacement"),
    ]
    return cs


def gather_cases() -> list[Case]:
    idx = _i([2, 0])
    return [
        Case("gather", (F2, idx)), Case("gather", (F2, idx, 1), label="axis1"),
        Case("gather", (F2, _i([2, 0], "int32")), label="int32_index"), Case("gather", (F2, _i(1)), label="0d_index"),
        Case("gather", (F2, idx, _i(1)), label="tensor_axis"), Case("gather", (F2, _i([5])), label="oob"),
        Case("gather", (F2, _i([[0, 1]])), label="2d_index"), Case("gather", (_x([3, 4], sg=False), idx), label="grad"),
        Case("gather", (F2, _i([-1])), label="neg_index"),
        Case("gather_nd", (F, _i([[0, 1], [1, 2]]))), Case("gather_nd", (F, _i([[0], [1]])), label="partial"),
        Case("gather_nd", (F2, _i(np.zeros((0, 2)))), label="empty_index"),
        Case("index_select", (F2, idx)), Case("index_select", (F2, idx, 1), label="axis1"),
        Case("index_select", (F2, idx, -1), label="neg"), Case("index_select", (F2, _i([2, 0], "int32")), label="int32"),
        Case("index_select", (F2, _i([[0]])), label="2d_index"),
        Case("index_sample", (F2, _i([[0, 1], [2, 3], [1, 1]]))),
        Case("take_along_axis", (F2, _i([[0, 1, 2, 0]]), 0)),
        Case("take_along_axis", (F2, _i([[0], [1], [2]]), 1), label="axis1"),
        Case("take_along_axis", (F2, _i([[0], [1], [2]]), 1, False), label="no_broadcast"),
        Case("take_along_dim", (F2, _i([[0], [1], [2]]), 1)),
        Case("put_along_axis", (F2, _i([[0], [1], [2]]), 9.0, 1)),
        Case("put_along_axis", (F2, _i([[0], [1], [2]]), _x([3, 1]), 1, "add"), label="add"),
        Case("put_along_axis", (F2, _i([[0], [1], [2]]), _x([3, 1]), 1, "mul"), label="mul"),
        Case("put_along_axis", (F2, _i([[0, 0], [1, 1], [2, 2]]), _x([3, 2]), 1, "mean"), label="mean"),
        Case("put_along_axis", (F2, _i([[0, 0], [1, 1], [2, 2]]), _x([3, 2]), 1, "amax", False), label="amax_noself"),
        Case("take", (F2, _i([0, 5, 11]))), Case("take", (F2, _i([-1, 12]), "wrap"), label="wrap"),
        Case("take", (F2, _i([-1, 12]), "clip"), label="clip"), Case("take", (F2, _i([12])), label="oob"),
        Case("scatter", (F2, _i([1, 0]), _x([2, 4]))),
        Case("scatter", (F2, _i([1, 1]), _x([2, 4]), False), label="accumulate"),
        Case("scatter", (F2, _i([1, 0], "int32"), _x([2, 4])), label="int32"),
        Case("scatter_nd", (_i([[1], [2]]), _x([2, 4]), [4, 4])),
        Case("scatter_nd_add", (F2, _i([[1], [1]]), _x([2, 4]))),
        Case("scatter_reduce", (F2, 1, _i([[0], [1], [0]]), _x([3, 1]), "sum")),
        Case("scatter_reduce", (F2, 1, _i([[0], [1], [0]]), _x([3, 1]), "amax"), {"include_self": False}, label="amax"),
        Case("index_add", (F2, _i([0, 2]), 0, _x([2, 4]))),
        Case("index_add", (F2, _i([0, 2]), 1, _x([3, 2])), {"alpha": 2.0}, label="alpha"),
        Case("index_fill", (F2, _i([0, 2]), 1, -1.0)), Case("index_fill", (F2, _i([0]), 0, _x(())), label="tensor_value"),
        Case("index_put", (F2, (_i([0, 2]), _i([1, 3])), _x([2]))),
        Case("index_put", (F2, (_i([0, 2]),), _x([4])), label="rows"),
        Case("index_put", (F2, (_i([0, 0]), _i([1, 1])), _x([2]), True), label="accumulate"),
        Case("index_put", (F2, (X(arr([3, 4], "bool")),), _x(())), label="bool_mask"),
        Case("masked_fill", (F2, B2, 2.0)), Case("masked_fill", (F2, X(arr([4], "bool")), 2.0), label="bcast"),
        Case("masked_fill", (F2, B2, _x(())), label="tensor_value"), Case("masked_fill", (I2, B2, 2.5), label="int_float"),
        Case("masked_select", (F2, B2)), Case("masked_select", (F2, X(arr([4], "bool"))), label="bcast"),
        Case("masked_scatter", (F2, B2, _x([12]))),
        Case("where", (B2, F2, _x([3, 4]))), Case("where", (B2, F2, 0.0), label="scalar_y"),
        Case("where", (B2, 1.0, 0.0), label="scalars"), Case("where", (B2,), label="cond_only"),
        Case("where", (B2, F2, X(arr([3, 4], "float64"))), label="mixed"),
        Case("where", (B2, I2, F2), label="int_float"), Case("where", (_x([3, 4]), F2, F2), label="float_cond"),
        Case("where", (X(arr([4], "bool")), F2, _x([3, 1])), label="bcast"),
        Case("diagonal_scatter", (F2, _x([3]))), Case("diagonal_scatter", (F2, _x([3]), 1), label="offset"),
        Case("select_scatter", (F2, _x([4]), 0, 1)), Case("slice_scatter", (F2, _x([3, 2]), [1], [0], [2])),
        Case("slice_scatter", (F2, _x([3, 2]), [1], [0], [4], [2]), label="strides"),
        Case("slice", (F, [0, 2], [0, 1], [1, 3])), Case("slice", (F, [1], [-2], [10000]), label="big_end"),
        Case("slice", (F, [0], [_i(0)], [_i(1)]), label="tensor_bounds"),
        Case("slice", (F, [2], [-1], [-3]), label="reverse_empty"),
        Case("strided_slice", (F, [0, 2], [0, 0], [2, 4], [1, 2])),
        Case("strided_slice", (F, [2], [3], [0], [-1]), label="neg_stride"),
        Case("multiplex", ([F2, _x([3, 4])], _i([[0], [1], [0]], "int32"))),
        Case("shard_index", (_i([[1], [6], [11]]), 12, 2, 0)),
        Case("shard_index", (_i([[1], [6], [11]]), 12, 2, 1, -2), label="ignore"),
    ]


def indexing_cases() -> list[Case]:
    """``x[...]`` and ``x[...] = v`` through the operators."""

    def getitem(P, x, *key):
        return x[key[0]] if len(key) == 1 else x[key]

    def setitem(P, x, key, v):
        x = x.clone()
        x[key] = v
        return x

    F3 = _x([3, 4, 5])
    keys = {
        "int": 1, "neg": -1, "slice": slice(1, None), "step": slice(None, None, 2),
        "neg_step": slice(None, None, -1), "tuple": (1, slice(0, 2)), "ellipsis": (Ellipsis, 1),
        "none": (None, 1), "list": [0, 2], "list_bool": [True, False, True],
        "tensor": _i([0, 2]), "tensor0d": _i(1), "bool_tensor": X(arr([3], "bool")),
        "bool_tensor_full": X(arr([3, 4, 5], "bool")), "two_tensors": (_i([0, 1]), _i([1, 2])),
        "tensor_slice": (_i([0, 1]), slice(None), _i([1, 2])), "oob": 3, "empty_slice": slice(2, 1),
        "big_slice": slice(0, 100), "nested_list": [[0, 1], [1, 2]], "int_tuple": (0, 1, 2),
        "tensor_2d": _i([[0, 1], [2, 0]]), "slice_tensor_bounds": slice(_i(0), _i(2)),
        "float_index": 1.0,
    }
    cs = []
    for lab, k in keys.items():
        cs.append(Case(getitem, (F3, k), label=lab, group="getitem"))
    cs += [
        Case(getitem, (Z, ()), label="0d_empty_tuple", group="getitem"),
        Case(getitem, (Z, None), label="0d_none", group="getitem"),
        Case(getitem, (Z, Ellipsis), label="0d_ellipsis", group="getitem"),
        Case(getitem, (_x([3, 4], sg=False), 1), label="grad", group="getitem"),
        Case(getitem, (NC, (slice(None), 1)), label="nc", group="getitem"),
    ]
    sets = {
        "int_scalar": (1, 5.0), "slice_tensor": (slice(0, 2), _x([2, 4, 5])), "bcast": (1, _x([5])),
        "bool_mask": (X(arr([3, 4, 5], "bool")), 0.0), "tensor_idx": (_i([0, 2]), 1.0),
        "neg": (-1, 2.0), "ellipsis": ((Ellipsis, 0), 3.0), "int_into_float": (0, 7),
        "f64_value": (0, X(arr([4, 5], "float64"))), "list": ([0, 1], 4.0), "step": (slice(None, None, 2), 1.0),
        "oob": (5, 1.0), "bad_shape": (0, _x([3])),
    }
    for lab, (k, v) in sets.items():
        cs.append(Case(setitem, (F3, k, v), label=lab, group="setitem"))
    cs.append(Case(setitem, (_x([3, 4], "int32"), 0, 2.7), label="float_into_int", group="setitem"))
    cs.append(Case(setitem, (Z, (), 1.0), label="0d", group="setitem"))
    return cs


def all_cases() -> list[Case]:
    return shape_cases() + join_cases() + gather_cases() + indexing_cases()
