"""Samples for search and sort ops (pagaie/_ops/search.py)."""
import numpy as np

from tests.ops.samples import FLOATS, INTS, OpSample, T

ALL = FLOATS + INTS
# Distinct values so that orderings (and hence gradients) are unambiguous.
_DISTINCT = np.random.default_rng(7).permutation(24).reshape(2, 3, 4) - 12
_TIES = [[1, 2, 2, 1, 3], [3, 3, 1, 1, 0], [5, 4, 5, 4, 4]]
_SEQ = [[1, 3, 5, 7, 9], [0, 2, 4, 6, 8]]

SAMPLES = [
    OpSample("argmax", [T((3, 4))], dtypes=ALL),
    OpSample("argmax", [T((3, 4))], {"axis": 1, "keepdim": True}, dtypes=ALL, id="argmax_axis_keep"),
    OpSample("argmax", [T((3, 4))], {"keepdim": True, "dtype": "int32"}, id="argmax_flat_keep_int32"),
    OpSample("argmin", [T((2, 3, 4))], {"axis": -2}, dtypes=ALL),
    OpSample("argmin", [T((2, 3))], {"dtype": "int32"}, id="argmin_int32"),
    OpSample("Tensor.argmax", [T((4,))], {"axis": 0}, id="method_argmax"),
    OpSample("topk", [T((2, 3, 4), value=_DISTINCT)], {"k": 2}, dtypes=ALL),
    OpSample("topk", [T((2, 3, 4), value=_DISTINCT)], {"k": 2, "axis": 1, "largest": False},
             dtypes=ALL, id="topk_smallest_axis1"),
    OpSample("Tensor.topk", [T((5,), value=[3, 1, 4, 0, 2])], {"k": 3}, id="method_topk"),
    OpSample("sort", [T((2, 3, 4))], dtypes=ALL),
    OpSample("sort", [T((2, 3, 4))], {"axis": 0, "descending": True}, dtypes=ALL, id="sort_desc_axis0"),
    OpSample("sort", [T((3, 5), value=_TIES)], {"stable": True}, id="sort_stable"),
    OpSample("argsort", [T((2, 3, 4), value=_DISTINCT)], {"axis": 1}, dtypes=ALL),
    OpSample("argsort", [T((3, 5), value=_TIES)], {"stable": True, "descending": True}, dtypes=ALL,
             id="argsort_stable_desc"),
    OpSample("msort", [T((4, 3))], dtypes=ALL, grad=False),
    OpSample("nonzero", [T((3, 4), kind="bool")], dtypes=("bool",)),
    OpSample("nonzero", [T((3, 4), low=-1, high=2)], {"as_tuple": True}, dtypes=INTS, id="nonzero_tuple"),
    OpSample("argwhere", [T((2, 3, 2), low=-1, high=2)], dtypes=INTS + FLOATS, grad=False),
    OpSample("unique", [T((8,), low=0, high=4)], dtypes=INTS),
    OpSample("unique", [T((3, 4), low=0, high=4)],
             {"return_index": True, "return_inverse": True, "return_counts": True}, dtypes=INTS + FLOATS,
             grad=False, id="unique_all"),
    OpSample("unique", [T((4, 2), value=[[1, 2], [0, 5], [1, 2], [0, 4]])],
             {"return_index": True, "return_inverse": True, "return_counts": True, "axis": 0,
              "dtype": "int32"}, dtypes=INTS, id="unique_axis0_int32"),
    OpSample("unique_consecutive", [T((10,), low=0, high=3)], {"return_inverse": True, "return_counts": True},
             dtypes=INTS + FLOATS, grad=False),
    OpSample("unique_consecutive", [T((4, 2), value=[[1, 2], [1, 2], [0, 5], [1, 2]])],
             {"axis": 0, "return_counts": True, "dtype": "int32"}, dtypes=INTS, id="unique_consecutive_axis"),
    OpSample("searchsorted", [T((2, 5), value=_SEQ), T((2, 3), low=0, high=10)], dtypes=INTS + FLOATS,
             grad=False),
    OpSample("searchsorted", [T((5,), value=_SEQ[0]), T((2, 3), low=0, high=10)],
             {"right": True, "out_int32": True}, dtypes=INTS, id="searchsorted_right_int32"),
    OpSample("bucketize", [T((2, 3), low=0, high=10), T((5,), value=_SEQ[0])], dtypes=INTS + FLOATS,
             grad=False),
    OpSample("bucketize", [T((4,), low=0, high=10), T((5,), value=_SEQ[1])], {"right": True, "out_int32": True},
             dtypes=INTS, id="bucketize_right"),
    OpSample("kthvalue", [T((2, 3, 4), value=_DISTINCT)], {"k": 2}, dtypes=ALL),
    OpSample("kthvalue", [T((2, 3, 4), value=_DISTINCT)], {"k": 1, "axis": 1, "keepdim": True},
             dtypes=ALL, id="kthvalue_axis_keep"),
    OpSample("mode", [T((3, 5), value=_TIES)], dtypes=ALL, grad=False),
    OpSample("mode", [T((3, 5), value=_TIES)], {"axis": 0, "keepdim": True}, dtypes=ALL, grad=False,
             id="mode_axis0"),
]
