from tests.ops.samples import FLOATS, INTS, OpSample, T

ALL = FLOATS + INTS
I64 = "int64"


def idx(value, dtype=I64):
    """A fixed integer index tensor."""
    return T((len(value),) if not isinstance(value[0], list) else (len(value), len(value[0])),
             dtype=dtype, value=value)


def mask(value):
    return T((len(value),) if not isinstance(value[0], list) else (len(value), len(value[0])),
             dtype="bool", value=value)


SAMPLES = [
    # reading
    OpSample("gather", [T((4, 3)), idx([3, 0, 3])], dtypes=ALL),
    OpSample("gather", [T((4, 3)), idx([2, 0], "int32"), 1], id="gather_axis"),
    OpSample("gather", [T((4, 3)), T((), dtype=I64, value=2)], id="gather_0d_index"),
    OpSample("gather_nd", [T((3, 4)), idx([[1, 2], [0, 0], [1, 2]])], dtypes=ALL),
    OpSample("gather_nd", [T((3, 4, 2)), idx([[2], [0]])], id="gather_nd_partial"),
    OpSample("index_select", [T((3, 4)), idx([3, 0, 0]), 1], dtypes=ALL),
    # Paddle's backward sends the gradient of a negative index to the wrong row (a
    # Paddle bug); pagaie's is the true gradient, so this one is forward-only.
    OpSample("index_select", [T((3, 4)), idx([-1, 0])], id="index_select_neg", grad=False),
    OpSample("index_sample", [T((3, 4)), idx([[0, 1], [3, 3], [2, 0]])], dtypes=ALL),
    OpSample("masked_select", [T((3, 4)), T((3, 4), kind="bool")], dtypes=ALL),
    OpSample("masked_select", [T((3, 4)), mask([True, False, True, True])], id="masked_select_bcast"),
    OpSample("where", [T((3, 4), kind="bool"), T((3, 4)), T((3, 4))], dtypes=ALL),
    OpSample("where", [T((3, 4), kind="bool"), T((3, 4)), 0.5], id="where_scalar"),
    OpSample("where", [T((3, 1), kind="bool"), T((1, 4)), T((3, 4))], id="where_bcast"),
    OpSample("where", [T((3, 4), kind="bool")], id="where_1arg", dtypes=("float32",)),
    OpSample("where", [T((3, 4), kind="bool"), 1.0, 0.0], id="where_two_scalars", dtypes=("float32",)),
    OpSample("slice", [T((3, 4, 5)), [0, 2], [1, -3], [10, 4]], dtypes=ALL),
    OpSample("strided_slice", [T((3, 6)), [1], [5], [0], [-2]], dtypes=ALL),
    OpSample("strided_slice", [T((3, 6)), [0, 1], [0, 1], [3, 6], [2, 2]], id="strided_slice_pos"),
    OpSample("take", [T((3, 4)), idx([[0, 11], [-1, 5]])], dtypes=ALL),
    OpSample("take", [T((3, 4)), idx([13, -14])], {"mode": "wrap"}, id="take_wrap"),
    OpSample("take", [T((3, 4)), idx([13, -14])], {"mode": "clip"}, id="take_clip"),
    OpSample("take_along_axis", [T((3, 4)), idx([[0, 3], [1, 1], [2, 0]]), 1], dtypes=ALL),
    OpSample("take_along_axis", [T((3, 4)), idx([[0, 3]]), 1], id="take_along_axis_bcast"),
    OpSample("take_along_dim", [T((3, 4)), idx([[0], [1]]), 0], id="take_along_dim"),
    OpSample("multiplex", [[T((3, 2)), T((3, 2))], idx([[1], [0], [1]], "int32")], dtypes=ALL),
    OpSample("shard_index", [T((4, 1), dtype=I64, value=[[16], [1], [10], [19]]), 20, 2, 1],
             dtypes=("int64",)),
    # writing
    OpSample("scatter", [T((4, 3)), idx([2, 0]), T((2, 3))], dtypes=ALL),
    OpSample("scatter", [T((4, 3)), idx([2, 2, 0]), T((3, 3))], {"overwrite": False},
             id="scatter_accumulate"),
    OpSample("scatter_nd", [idx([[1], [1], [3]]), T((3, 2)), [4, 2]], dtypes=ALL),
    OpSample("scatter_nd_add", [T((3, 4)), idx([[1, 2], [1, 2], [0, 0]]), T((3,))], dtypes=ALL),
    OpSample("scatter_nd_add", [T((3, 4)), idx([[2], [0]]), T((2, 4))], id="scatter_nd_add_rows"),
    OpSample("scatter_add", [T((3, 4)), 1, idx([[0, 0], [1, 3]]), T((2, 2))], dtypes=ALL),
    OpSample("scatter_reduce", [T((3, 4)), 1, idx([[0, 0], [1, 3]]), T((2, 2)), "amax"], dtypes=ALL),
    OpSample("scatter_reduce", [T((3, 4)), 0, idx([[0, 0], [0, 2]]), T((2, 2)), "mean"],
             {"include_self": False}, id="scatter_reduce_mean"),
    OpSample("scatter_reduce", [T((3, 4)), 0, idx([[0, 1], [2, 2]]), T((2, 2)), "prod"],
             id="scatter_reduce_prod"),
    OpSample("index_add", [T((3, 4)), idx([0, 2, 0]), 0, T((3, 4))], dtypes=ALL),
    OpSample("index_add", [T((3, 4)), idx([1, 3]), 1, T((3, 2))], {"alpha": 2}, id="index_add_alpha"),
    OpSample("index_fill", [T((3, 4)), idx([0, 2]), 1, -1.0], dtypes=FLOATS),
    OpSample("index_fill", [T((3, 4)), idx([0, 2]), 1, -1], dtypes=INTS, id="index_fill_int"),
    OpSample("index_put", [T((3, 4)), [idx([0, 2]), idx([1, 3])], T((2,))], dtypes=ALL),
    OpSample("index_put", [T((3, 4)), [idx([0, 0]), idx([1, 1])], T((2,))], {"accumulate": True},
             id="index_put_accumulate"),
    OpSample("index_put", [T((3, 4)), [mask([True, False, True])], T((4,))], id="index_put_bool"),
    OpSample("masked_fill", [T((3, 4)), T((3, 4), kind="bool"), 2.0], dtypes=FLOATS),
    # Paddle returns a zero gradient for a tensor ``value`` (a Paddle bug); pagaie's
    # is the true one (the sum over filled entries), so only x's gradient is compared.
    OpSample("masked_fill", [T((3, 4)), T((4,), kind="bool"), T((), grad=False)], id="masked_fill_tensor"),
    OpSample("masked_scatter", [T((3, 4)), T((3, 4), kind="bool"), T((12,))], dtypes=ALL),
    OpSample("put_along_axis", [T((3, 4)), idx([[0], [1], [3]]), T((3, 1)), 1], dtypes=ALL),
    OpSample("put_along_axis", [T((3, 4)), idx([[0, 0]]), T((1, 2)), 1, "add"], id="put_along_axis_add"),
    OpSample("put_along_axis", [T((3, 4)), idx([[0, 0]]), T((1, 2)), 1, "mul"], id="put_along_axis_mul"),
    OpSample("put_along_axis", [T((3, 4)), idx([[0, 1]]), T((1, 2)), 1, "mean"],
             id="put_along_axis_mean"),
    OpSample("put_along_axis", [T((3, 4)), idx([[0, 0]]), T((1, 2)), 1, "amin"],
             {"include_self": False}, id="put_along_axis_amin"),
    OpSample("put_along_axis", [T((3, 4)), idx([[2, 0]]), T((1, 2)), 1, "assign"],
             {"broadcast": False}, id="put_along_axis_nobcast"),
    OpSample("put_along_axis", [T((3, 4)), idx([[2], [0], [1]]), 7.0, 1], id="put_along_axis_scalar",
             dtypes=("float32",)),
    OpSample("slice_scatter", [T((3, 6)), T((3, 3)), [1], [0], [6], [2]], dtypes=ALL),
    OpSample("select_scatter", [T((3, 4)), T((4,)), 0, 1], dtypes=ALL),
    OpSample("diagonal_scatter", [T((3, 4)), T((3,)), 1], dtypes=ALL),
]
