"""Session-7 differential parity sweep: manipulation, indexing, creation and reduction errors
vs real Paddle 3.3.1 (exception types for bad axes, counts and shapes; accepted odd forms)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _t(P, dtype="float32", shape=(2, 3), seed=0):
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        a = np.arange(n) % 3 == 1
    elif dtype.startswith(("int", "uint")):
        a = rng.randint(-5, 6, size=n).astype(dtype)
    else:
        a = rng.randn(n).astype(dtype)
    return P.to_tensor(a.reshape(shape))


def _s0(P):
    return _t(P, shape=())


# --- 0-D inputs ---------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.unbind(_s0(P)),
    lambda P: P.unstack(_s0(P)),
    lambda P: P.split(_s0(P), 1),
    lambda P: P.split(_s0(P), 1, axis=-1),
    lambda P: P.chunk(_s0(P), 1, axis=-1),
    lambda P: P.tensor_split(_s0(P), 1),
    lambda P: P.unflatten(_s0(P), 0, [1]),
    lambda P: P.moveaxis(_s0(P), 0, 0),
    lambda P: P.narrow(_s0(P), 0, 0, 1),
    lambda P: P.repeat_interleave(_s0(P), 2, axis=0),
    lambda P: P.flatten(_s0(P), 1),
], ids=["unbind", "unstack", "split", "split-1", "chunk-1", "tensor_split", "unflatten",
        "moveaxis", "narrow", "repeat_interleave", "flatten"])
def test_0d_inputs_raise_paddles_type(call):
    same_exception(call)


def test_0d_inputs_that_work():
    for call in (lambda P: P.flatten(_s0(P), 0, -1), lambda P: P.repeat_interleave(_s0(P), 2)):
        ours, theirs = both(call)
        assert_same(ours, theirs)


# --- out-of-range and wrongly typed axes ----------------------------------------------------

@pytest.mark.parametrize("ax", [2, -3])
@pytest.mark.parametrize("call", [
    lambda P, a: P.split(_t(P), 1, axis=a),
    lambda P, a: P.split(_t(P), 1, axis=P.to_tensor(a)),
    lambda P, a: P.chunk(_t(P), 1, axis=a),
    lambda P, a: P.chunk(_t(P), 1, axis=P.to_tensor(a)),
    lambda P, a: P.tensor_split(_t(P), 1, axis=a),
    lambda P, a: P.moveaxis(_t(P), a, 0),
    lambda P, a: P.moveaxis(_t(P), 0, a),
    lambda P, a: P.unflatten(_t(P), a, [3, 1]),
    lambda P, a: P.repeat_interleave(_t(P), 2, axis=a),
    lambda P, a: P.diagonal(_t(P), axis1=a),
    lambda P, a: P.diagonal(_t(P), axis2=a),
    lambda P, a: P.narrow(_t(P), a, 0, 1),
    lambda P, a: P.swapaxes(_t(P), a, 0),
    lambda P, a: P.transpose(_t(P), 0, a),
    lambda P, a: _t(P).swapaxes(a, 0),
    lambda P, a: P.unbind(_t(P), a),
    lambda P, a: P.unstack(_t(P), a),
    lambda P, a: P.index_fill(_t(P), P.to_tensor([1]), a, 1.0),
    lambda P, a: P.flatten(_t(P), a),
])
def test_out_of_range_axis(call, ax):
    same_exception(lambda P: call(P, ax))


def test_select_scatter_axis_past_end():
    # (axis below -rank crashes real Paddle: double free; pagaie raises IndexError there too)
    same_exception(lambda P: P.select_scatter(_t(P), _t(P, shape=(2,)), 2, 0))


@pytest.mark.parametrize("ax", [1.5, "a", None, [0]])
@pytest.mark.parametrize("call", [
    lambda P, a: P.squeeze(_t(P, shape=(1, 3)), axis=a),
    lambda P, a: P.flatten(_t(P), start_axis=a),
    lambda P, a: P.flatten(_t(P), stop_axis=a),
    lambda P, a: P.split(_t(P), 1, axis=a),
    lambda P, a: P.chunk(_t(P), 1, axis=a),
    lambda P, a: P.index_fill(_t(P), P.to_tensor([1]), a, 1.0),
    lambda P, a: P.moveaxis(_t(P), a, 0),
    lambda P, a: P.unflatten(_t(P), a, [3, 1]),
    lambda P, a: P.flip(_t(P), axis=a),
    lambda P, a: P.transpose(_t(P), a if a != [0] else 1.5),  # Paddle takes a short perm
])
def test_bad_axis_types(call, ax):
    """Where Paddle accepts the form (a list axis), the values must agree instead."""
    try:
        ours, theirs = both(lambda P: call(P, ax))
    except Exception:  # noqa: BLE001 (one side raised: the types must agree)
        same_exception(lambda P: call(P, ax))
        return
    assert_same(ours, theirs)


@pytest.mark.parametrize("ax", [[1.5], ["a"], (0.0,), True])
def test_squeeze_unsqueeze_bad_axis_entries(ax):
    same_exception(lambda P: P.squeeze(_t(P, shape=(1, 3)), axis=ax))
    same_exception(lambda P: P.unsqueeze(_t(P), axis=ax))
    same_exception(lambda P: P.unsqueeze(_t(P), axis=1.5))


def test_axis_none_forms():
    for call in (lambda P: P.unsqueeze(_t(P), axis=None),
                 lambda P: _t(P).unsqueeze_(axis=None),
                 lambda P: P.stack([_t(P), _t(P)], axis=None)):
        ours, theirs = both(call)
        assert_same(ours, theirs)
    same_exception(lambda P: P.flip(_t(P), axis=None))
    same_exception(lambda P: P.flip(_s0(P), axis=None))


def test_transpose_perm_types_and_swapaxes_values():
    same_exception(lambda P: P.transpose(_t(P), [1.0, 0]))
    same_exception(lambda P: P.transpose(_t(P), P.to_tensor([1, 0])))
    for call in (lambda P: P.swapaxes(_t(P), -2, -1), lambda P: P.transpose(_t(P), -1, 0),
                 lambda P: P.transpose(_t(P), (1, 0))):
        ours, theirs = both(call)
        assert_same(ours, theirs)


def test_narrow_asserts():
    same_exception(lambda P: P.narrow(_t(P), 1, 2, 2))
    same_exception(lambda P: P.narrow(_t(P), 1, 0, -1))
    same_exception(lambda P: P.narrow(_t(P), 1, 4, 0))
    same_exception(lambda P: P.narrow(_t(P), 1, -4, 1))
    same_exception(lambda P: P.narrow(_t(P), 1, P.to_tensor(1.0), 1))
    ours, theirs = both(lambda P: P.narrow(_t(P), 1, P.to_tensor(-2), 2))
    assert_same(ours, theirs)


# --- counts, sections, shapes ------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.chunk(_t(P), P.to_tensor(3), axis=1),
    lambda P: P.chunk(_t(P), 3.0, axis=1),
    lambda P: P.split(_t(P), P.to_tensor(3), axis=1),
    lambda P: P.split(_t(P), P.to_tensor([1, 2]), axis=1),
    lambda P: P.split(_t(P), [1.5, 1.5], axis=1),
    lambda P: P.split(_t(P), [1.0, 2.0], axis=1),
    lambda P: P.tensor_split(_t(P), P.to_tensor([1, 2]), axis=1),
    lambda P: P.tensor_split(_t(P), P.to_tensor(2), axis=1),
    lambda P: P.tensor_split(_t(P), 2.0, axis=1),
    lambda P: P.tensor_split(_t(P), np.int64(2), axis=1),
    lambda P: P.tensor_split(_t(P), [1.0], axis=1),
    lambda P: P.hsplit(_t(P), 3.0),
    lambda P: P.reshape(_t(P), [6.0]),
    lambda P: P.reshape(_t(P), (6.0,)),
    lambda P: P.tile(_t(P), [2.0]),
    lambda P: P.tile(_t(P), (2.0, 1)),
    lambda P: P.tile(_t(P), [True]),
    lambda P: P.expand(_t(P), [2.0, 3]),
    lambda P: P.broadcast_to(_t(P), [2.0, 3]),
    lambda P: P.unflatten(_t(P), 1, [3.0, 1]),
    lambda P: P.repeat_interleave(_t(P), 0, axis=1),
    lambda P: P.repeat_interleave(_t(P), 0),
    lambda P: P.repeat_interleave(_t(P), 1.0, axis=1),
    lambda P: P.repeat_interleave(_t(P), True, axis=1),
    lambda P: P.repeat_interleave(_t(P), [1, 2, 0], axis=1),
    lambda P: P.repeat_interleave(_t(P), P.to_tensor([1.0, 2.0, 0.0]), axis=1),
    lambda P: P.repeat_interleave(_t(P), P.to_tensor(2)),
    lambda P: P.repeat_interleave(_t(P), P.to_tensor([2]), axis=1),
])
def test_bad_counts(call):
    same_exception(call)


def test_counts_that_work():
    for call in (lambda P: P.repeat_interleave(_t(P, shape=(2, 1)), P.to_tensor(2), axis=1),
                 lambda P: P.repeat_interleave(_t(P), P.to_tensor([1, 2, 0], "int32"), axis=1),
                 lambda P: P.repeat_interleave(_t(P), P.to_tensor([0, 0, 0]), axis=1),
                 lambda P: P.split(_t(P), [1, P.to_tensor(2)], axis=1),
                 lambda P: P.tensor_split(_t(P), [P.to_tensor(1)], axis=1),
                 lambda P: P.reshape(_t(P, shape=(1,)), [True]),
                 lambda P: P.reshape(_t(P), [np.int64(6)]),
                 lambda P: P.tile(_t(P), [np.int64(2)])):
        ours, theirs = both(call)
        assert_same(ours, theirs)


# --- indexing ----------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.take(_t(P), _t(P, shape=(2,))),
    lambda P: P.take(_t(P), _t(P, "bool")),
    lambda P: P.gather_nd(_t(P), P.to_tensor([[5]])),
    lambda P: P.gather_nd(_t(P), P.to_tensor([[1, 7]])),
    lambda P: P.gather_nd(_t(P), P.to_tensor([[-3]])),
    lambda P: P.masked_select(_t(P), P.to_tensor([True, False])),
    lambda P: P.masked_select(_t(P), _t(P, "int32")),
    lambda P: P.masked_scatter(_t(P), P.ones([2, 3], "bool"), _t(P, shape=(2,))),
    lambda P: P.masked_scatter(_t(P), _t(P, "int32"), _t(P, shape=(6,))),
    lambda P: P.masked_scatter(_t(P), P.ones([2], "bool"), _t(P, shape=(6,))),
    lambda P: P.diagonal_scatter(_t(P), _t(P, shape=(3,))),
    lambda P: P.diagonal_scatter(_t(P), _t(P, shape=(2, 2))),
    lambda P: P.select_scatter(_t(P), _t(P, shape=(3,)), 1, 0),
    lambda P: P.select_scatter(_t(P), _t(P, shape=(1, 2)), 1, 0),
    lambda P: P.multiplex([_t(P), _t(P) * 2], P.to_tensor([[2], [0]], "int32")),
    lambda P: P.multiplex([_t(P), _t(P) * 2], P.to_tensor([[-1], [0]], "int32")),
])
def test_indexing_errors(call):
    same_exception(call)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "uint8"])
def test_masked_fill_numeric_mask(dtype):
    for call in (lambda P: P.masked_fill(_t(P), _t(P, dtype), 1.0),
                 lambda P: P.masked_fill(_t(P), _t(P, dtype, (3,)), 1.0),
                 lambda P: _t(P).masked_fill_(_t(P, dtype), 1.0)):
        ours, theirs = both(call)
        assert_same(ours, theirs)


# --- creation and reductions --------------------------------------------------------------

@pytest.mark.parametrize("value,dtype", [(1.5, "bool"), (2, "bool"), (-1, "bool"), (300, "int8"),
                                         (-129, "int8"), (-1, "uint8"), (256, "uint8"),
                                         (2 ** 40, "int32"), (1e6, "float16"), (1e40, "float32")])
def test_full_like_out_of_range_value(value, dtype):
    same_exception(lambda P: P.full_like(_t(P, "int32"), value, dtype=dtype))


@pytest.mark.parametrize("value,dtype", [(0.5, "bool"), (1.0, "bool"), (float("inf"), "bool"),
                                         (1.5, "int32"), (float("nan"), "int32")])
def test_full_like_values_in_range(value, dtype):
    ours, theirs = both(lambda P: P.full_like(_t(P), value, dtype=dtype))
    assert_same(ours, theirs)


@pytest.mark.parametrize("value,dtype", [(300, "int8"), (-129, "int8"), (-1, "uint8"), (256, "uint8"),
                                         (2 ** 40, "int32"), (1e6, "float16"), (1e40, "float32"),
                                         (1.5, "bool")])
def test_full_wraps_or_overflows_like_paddle(value, dtype):
    ours, theirs = both(lambda P: P.full([2], value, dtype=dtype))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["amax", "amin", "all", "any", "logsumexp"])
def test_reduction_multi_element_tensor_axis(api):
    same_exception(lambda P: getattr(P, api)(_t(P), axis=P.to_tensor([0, 1])))
    ours, theirs = both(lambda P: getattr(P, api)(_t(P), axis=P.to_tensor(1)))
    assert_same(ours, theirs)


def test_sum_tensor_axis_still_works():
    ours, theirs = both(lambda P: P.sum(_t(P), axis=P.to_tensor([0, 1])))
    assert_same(ours, theirs)
