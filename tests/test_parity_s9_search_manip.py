"""Session-9 parity sweep: search/sort ops on NaN and unusual dtypes, and manipulation ops
with unusual-but-legal arguments (memory sharing of results, 0-size reshapes, shape tensors),
compared with real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

NAN, INF = float("nan"), float("inf")


def _x(P):
    return P.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))


def _writes_through(P, fn) -> bool:
    """Whether an in-place write on (the first piece of) ``fn(x)`` shows up in ``x``."""
    x = _x(P)
    out = fn(P, x)
    first = out[0] if isinstance(out, (list, tuple)) else out
    first.add_(P.ones(first.shape, first.dtype) * 100)
    return bool((x.numpy() != np.arange(24).reshape(2, 3, 4)).any())


_SHARING = {
    "split": lambda P, x: P.split(x, 2, axis=2),
    "split_sections": lambda P, x: P.split(x, [1, 2], axis=1),
    "Tensor.split": lambda P, x: x.split(2, axis=0),
    "chunk": lambda P, x: P.chunk(x, 2, axis=2),
    "Tensor.chunk": lambda P, x: x.chunk(1),
    "tensor_split_n": lambda P, x: P.tensor_split(x, 3, axis=2),
    "tensor_split_indices": lambda P, x: P.tensor_split(x, [1], axis=0),
    "hsplit": lambda P, x: P.hsplit(x, 3),
    "vsplit": lambda P, x: P.vsplit(x, 2),
    "dsplit": lambda P, x: P.dsplit(x, 2),
    "dsplit_indices": lambda P, x: P.dsplit(x, [1]),
    "split_with_sizes": lambda P, x: x.split_with_sizes([1, 1]),
    "unbind": lambda P, x: P.unbind(x, axis=1),
    "unstack": lambda P, x: P.unstack(x, axis=1),
    "crop": lambda P, x: P.crop(x, [1, 2, 2], [1, 1, 1]),
    "cast_same_dtype": lambda P, x: P.cast(x, "float32"),
    "Tensor.cast_same_dtype": lambda P, x: x.cast("float32"),
    "cast_other_dtype": lambda P, x: P.cast(x, "float64"),
    "reshape": lambda P, x: P.reshape(x, [6, 4]),
    "flatten": lambda P, x: P.flatten(x),
    "transpose": lambda P, x: P.transpose(x, [1, 0, 2]),
    "slice": lambda P, x: P.slice(x, [0], [0], [1]),
    "flip": lambda P, x: P.flip(x, [0]),
    "expand": lambda P, x: P.expand(x, [2, 3, 4]),
}


def _zero_d(P):
    return P.to_tensor(5.0)


_SHARING_0D = {
    "reshape_1": lambda P, x: P.reshape(x, [1]),
    "reshape_1x1": lambda P, x: P.reshape(x, [1, 1]),
    "reshape_minus1": lambda P, x: P.reshape(x, [-1]),
    "reshape_0d": lambda P, x: P.reshape(x, []),
    "Tensor.reshape": lambda P, x: x.reshape([1]),
    "flatten": lambda P, x: P.flatten(x),
    "ravel": lambda P, x: P.ravel(x),
    "unsqueeze": lambda P, x: P.unsqueeze(x, 0),
    "atleast_1d": lambda P, x: P.atleast_1d(x),
    "atleast_2d_multi": lambda P, x: P.atleast_2d(x, x),
    "atleast_3d": lambda P, x: P.atleast_3d(x),
}


@pytest.mark.parametrize("name", sorted(_SHARING_0D))
def test_zero_d_result_shares_memory_as_paddle(name):
    # Paddle copies when a 0-D input gets dimensions by reshaping (unsqueeze stays a view)
    def run(P):
        x = _zero_d(P)
        out = _SHARING_0D[name](P, x)
        first = out[0] if isinstance(out, (list, tuple)) else out
        first.add_(P.ones(first.shape, first.dtype))
        return float(x.item())

    ours, theirs = both(run)
    assert ours == theirs, f"{name}: x became {ours} in pagaie, {theirs} in Paddle"


@pytest.mark.parametrize("name", sorted(_SHARING))
def test_result_shares_memory_as_paddle(name):
    # Paddle's split / chunk / tensor_split(n) / unstack / crop / cast copy; unbind,
    # split_with_sizes, index tensor_split and the reshape family give views
    ours, theirs = both(lambda P: _writes_through(P, _SHARING[name]))
    assert ours == theirs, f"{name}: pagaie shares memory={ours}, Paddle={theirs}"


def test_split_copies_keep_gradients():
    arr = np.arange(12, dtype="float32").reshape(3, 4)

    def run(P):
        x = P.to_tensor(arr, stop_gradient=False)
        a, b = P.split(x, [1, 3], axis=1)
        c = P.unstack(x)
        loss = (a * 2).sum() + (b * b).sum() + sum((t * 3).sum() for t in c)
        return [a.stop_gradient, *P.grad(loss, [x])]

    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("vals", [[NAN, 1.0, 3.0], [1.0, NAN, 3.0], [3.0, NAN, 1.0], [NAN, NAN],
                                  [-INF, NAN, INF], [3.0, 5.0, NAN, 5.0], [NAN, -INF]])
def test_arg_reduce_skips_nan(op, vals):
    ours, theirs = both(lambda P: [getattr(P, op)(P.to_tensor(vals)),
                                   getattr(P, op)(P.to_tensor([vals, vals]), axis=1, keepdim=True,
                                                  dtype="int32")])
    assert_same(ours, theirs)


@pytest.mark.parametrize("vals", [[NAN, NAN, 1.0], [NAN, NAN], [2.0, NAN, 1.0, NAN, 2.0],
                                  [NAN, 2.0, 2.0, NAN, 1.0], [[NAN, 1.0, 1.0], [2.0, NAN, 2.0]],
                                  [INF, NAN, INF, -INF]])
def test_mode_with_nan(vals):
    ours, theirs = both(lambda P: [*P.mode(P.to_tensor(vals)),
                                   *P.mode(P.to_tensor(vals), axis=0, keepdim=True)])
    assert_same(ours, theirs)


def test_mode_with_nan_3d_and_grad():
    arr = np.array([[[1, NAN], [NAN, NAN]], [[2, 2], [NAN, 3]]], "float32")
    ours, theirs = both(lambda P: P.mode(P.to_tensor(arr), axis=1))
    assert_same(list(ours), list(theirs))

    def run(P):
        x = P.to_tensor(np.array([[NAN, 1.0, 1.0, 2.0]], "float32"), stop_gradient=False)
        v, _ = P.mode(x, axis=-1)
        return P.grad((v * 3).sum(), [x])

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_topk_tensor_k_zero_is_value_error():
    same_exception(lambda P: P.topk(P.to_tensor([1.0, 3.0, 2.0]), P.to_tensor(0)))


@pytest.mark.parametrize("api", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", None])
def test_unique_index_dtype_not_int_is_not_implemented(api, dtype):
    same_exception(lambda P: getattr(P, api)(P.to_tensor([1, 2, 2]), return_counts=True, dtype=dtype))


@pytest.mark.parametrize("api", ["unique", "unique_consecutive"])
def test_unique_unknown_dtype_is_type_error(api):
    same_exception(lambda P: getattr(P, api)(P.to_tensor([1, 2, 2]), dtype="foo"))


@pytest.mark.parametrize("src,shape", [([0, 3], [0, -1]), ([3, 0], [0, -1]), ([3, 0], [-1, 0]),
                                       ([2, 0, 3], [0, -1]), ([2, 0, 3], [0, 2, -1]),
                                       ([2, 0, 3], [1, 0, -1]), ([2, 0, 3], [0, 0, 0]),
                                       ([0, 3], [0, 0]), ([0], [-1, 0]), ([0, 2, 3], [6, 0, -1]),
                                       ([0, 0, 3], [0, 0, -1])])
def test_reshape_zero_size_literal_zeros(src, shape):
    ours, theirs = both(lambda P: P.reshape(P.zeros(src), shape))
    assert_same(ours, theirs)


@pytest.mark.parametrize("src,shape", [([0, 3], [0, 0, -1]), ([2, 0, 3], [0, 4, -1]),
                                       ([0, 0, 3], [0, -1]), ([0, 2, 3], [-1, 0, 0])])
def test_reshape_zero_size_bad(src, shape):
    same_exception(lambda P: P.reshape(P.zeros(src), shape))


@pytest.mark.parametrize("dtype", ["float32", "int16", "bool"])
@pytest.mark.parametrize("call", [
    lambda P, s: P.reshape(P.zeros([2, 3]), s),
    lambda P, s: P.zeros([2, 3]).reshape(s),
    lambda P, s: P.expand(P.zeros([1, 3]), s),
    lambda P, s: P.broadcast_to(P.zeros([1, 3]), s),
    lambda P, s: P.crop(P.zeros([4, 4]), s),
    lambda P, s: P.zeros([2, 3]).view(s),
], ids=["reshape", "Tensor.reshape", "expand", "broadcast_to", "crop", "view"])
def test_shape_tensor_must_be_int32_or_int64(call, dtype):
    same_exception(lambda P: call(P, P.to_tensor([3, 2] if dtype != "bool" else [True, True],
                                                 dtype=dtype)))


def test_shape_tensor_int32_still_works():
    ours, theirs = both(lambda P: [P.reshape(P.zeros([2, 3]), P.to_tensor([3, 2], "int32")),
                                   P.expand(P.zeros([1, 3]), P.to_tensor([2, 3], "int32"))])
    assert_same(ours, theirs)


@pytest.mark.parametrize("axis", [0, -1, [0]])
def test_roll_0d_with_axis_is_value_error(axis):
    same_exception(lambda P: P.roll(P.to_tensor(1.0), 1, axis))


def test_roll_0d_without_axis():
    ours, theirs = both(lambda P: P.roll(P.to_tensor(1.0), 1))
    assert_same(ours, theirs)


@pytest.mark.parametrize("first,second", [("complex64", "float32"), ("complex64", "float64"),
                                          ("complex128", "float32"), ("complex64", "float16")])
def test_stack_complex_first_takes_real_floats(first, second):
    ours, theirs = both(lambda P: P.stack([P.to_tensor([1.5, 2.0], first),
                                           P.to_tensor([3.5, 4.0], second)], axis=1))
    assert_same(ours, theirs)


@pytest.mark.parametrize("first,second", [("float32", "complex64"), ("complex64", "int32"),
                                          ("complex64", "bool")])
def test_stack_other_mixed_dtypes_still_raise(first, second):
    same_exception(lambda P: P.stack([P.to_tensor([1, 2], first), P.to_tensor([3, 4], second)]))


def test_concat_rank_mismatch_with_empty_1d():
    same_exception(lambda P: P.concat([P.ones([0]), P.ones([2, 2])]))
    same_exception(lambda P: P.concat([P.ones([2, 2]), P.ones([0])]))


def test_concat_float_axis_truncates():
    ours, theirs = both(lambda P: P.concat([P.ones([2, 2]), P.zeros([2, 2])], axis=1.0))
    assert_same(ours, theirs)
    same_exception(lambda P: P.concat([P.ones([2]), P.ones([2])], axis=1.5))


def test_unbind_tensor_axis_is_type_error():
    same_exception(lambda P: P.unbind(P.ones([2, 3]), P.to_tensor(1)))


def test_squeeze_repeated_axis():
    ours, theirs = both(lambda P: [P.squeeze(P.zeros([2, 1, 3, 1]), [1, 1]),
                                   P.squeeze(P.zeros([2, 1, 3, 1]), [1, -3]),
                                   P.zeros([2, 1, 3, 1]).squeeze_([3, 3])])
    assert_same(ours, theirs)


def test_flatten_tensor_axis_is_value_error():
    same_exception(lambda P: P.flatten(_x(P), P.to_tensor(0), 1))
    same_exception(lambda P: P.flatten(_x(P), 0, P.to_tensor(1)))


@pytest.mark.parametrize("shape,axis,step", [([2, 3, 4], 2, 1), ([2, 3, 4], 2, 2), ([0, 2], 0, 1)])
def test_unfold_empty_window(shape, axis, step):
    ours, theirs = both(lambda P: P.unfold(P.zeros(shape), axis, 0, step))
    assert_same(ours, theirs)


def test_as_strided_out_of_bounds_has_clean_error():
    with pytest.raises(ValueError, match="paddle.as_strided") as info:
        pagaie.as_strided(pagaie.ones([2, 3]), [30, 2], [2, 1])
    assert "setStorage" not in str(info.value)


def test_split_with_sizes_checks_sizes():
    paddle_ref()
    same_exception(lambda P: P.ones([5]).split_with_sizes([2, 2]))
    same_exception(lambda P: P.ones([5]).split_with_sizes([-1, 6]))
    ours, theirs = both(lambda P: P.ones([2, 5]).split_with_sizes([2, 3], dim=-1))
    assert_same(ours, theirs)


_IDENTITY = {
    "reshape_same_list": lambda P, x: P.reshape(x, [2, 3]),
    "reshape_same_tuple_tensor_entry": lambda P, x: P.reshape(x, (2, P.to_tensor(3))),
    "Tensor.reshape_varargs": lambda P, x: x.reshape(2, 3),
    "reshape_keywords": lambda P, x: P.reshape(x=x, shape=[2, 3]),
    "reshape_minus1": lambda P, x: P.reshape(x, [-1, 3]),
    "reshape_shape_tensor": lambda P, x: P.reshape(x, P.to_tensor([2, 3])),
    "type_as_same": lambda P, x: x.type_as(P.ones([1])),
    "type_as_other": lambda P, x: x.type_as(P.ones([1], "int32")),
    "atleast_1d": lambda P, x: P.atleast_1d(x),
    "atleast_2d": lambda P, x: P.atleast_2d(x),
    "atleast_3d": lambda P, x: P.atleast_3d(x),
    "cast_same": lambda P, x: P.cast(x, "float32"),
}


@pytest.mark.parametrize("name", sorted(_IDENTITY))
def test_returns_input_object_as_paddle(name):
    def run(P):
        x = P.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
        return _IDENTITY[name](P, x) is x

    ours, theirs = both(run)
    assert ours == theirs, f"{name}: pagaie returns x itself: {ours}, Paddle: {theirs}"


@pytest.mark.parametrize("api", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("args", [(1.5,), ([1.5, 2.5],), (np.ones([2], "int32"),)],
                         ids=["float", "list_of_numbers", "ndarray"])
def test_atleast_takes_non_tensor_inputs(api, args):
    ours, theirs = both(lambda P: getattr(P, api)(*args))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_shapes(api):
    ours, theirs = both(lambda P: getattr(P, api)(P.zeros([]), P.zeros([3]), P.zeros([2, 3]),
                                                  P.zeros([1, 0])))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: getattr(P, api)([P.zeros([]), 2.0]))
    assert_same(ours, theirs)


@pytest.mark.parametrize("shifts,axis", [(1.0, None), (1.0, 0), (True, None), ([1.0], None),
                                         ([1.0], [0])])
def test_roll_non_int_shifts_is_type_error(shifts, axis):
    same_exception(lambda P: P.roll(P.to_tensor([1.0, 2.0, 3.0]), shifts, axis))


def test_roll_int_like_shifts_still_work():
    ours, theirs = both(lambda P: [P.roll(P.to_tensor([1.0, 2.0, 3.0]), np.int64(1)),
                                   P.roll(P.to_tensor([1.0, 2.0, 3.0]), P.to_tensor(1.0)),
                                   P.roll(P.to_tensor([[1.0, 2.0], [3.0, 4.0]]), (1,), 0)])
    assert_same(ours, theirs)


def test_unsqueeze_2d_axis_tensor_is_type_error():
    same_exception(lambda P: P.unsqueeze(P.ones([2, 3]), P.to_tensor([[0, 1]])))


@pytest.mark.parametrize("shape,axis,keepdim", [([0, 2], -1, False), ([0, 2], -1, True),
                                                ([2, 0], 0, False), ([2, 0], 0, True),
                                                ([0, 0], 1, False)])
def test_mode_empty_inputs(shape, axis, keepdim):
    ours, theirs = both(lambda P: P.mode(P.zeros(shape), axis, keepdim=keepdim))
    assert_same(list(ours), list(theirs))


@pytest.mark.parametrize("shape,axis", [([2, 0], -1), ([0], 0), ([0, 0], 1)])
def test_mode_empty_axis_with_keepdim_is_value_error(shape, axis):
    same_exception(lambda P: P.mode(P.zeros(shape), axis, keepdim=True))


def test_mode_empty_axis_without_keepdim_has_clean_error():
    # Paddle returns zeros here (a value it never computed); pagaie refuses, naming the API
    with pytest.raises(ValueError, match="paddle.mode"):
        pagaie.mode(pagaie.zeros([2, 0]), -1)
