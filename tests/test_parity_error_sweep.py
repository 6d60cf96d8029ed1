"""Bad input across the tensor / nn API: pagaie raises the exception type real Paddle 3.3.1
raises, with a message naming the API and free of torch internals (found by a mutation
sweep over the fuzz tables: non-Tensor arguments, wrong dtypes, bad axes, mismatched shapes)."""
import numpy as np
import pytest

from tests.reference import same_exception

F32 = np.arange(12, dtype="float32").reshape(3, 4)


def _x(p, shape=(1, 2, 5, 5), dtype="float32"):
    return p.ones(list(shape), dtype)


CASES = {
    # a list / None / str where an nn.functional op wants a Tensor: Paddle's Python reads
    # an attribute first (AttributeError); a numpy array reaches its C++ parser (ValueError)
    "conv2d_list": lambda p: p.nn.functional.conv2d([[1.0]], _x(p, (1, 2, 1, 1))),
    "conv2d_none": lambda p: p.nn.functional.conv2d(None, _x(p, (1, 2, 1, 1))),
    "conv2d_numpy": lambda p: p.nn.functional.conv2d(np.ones((1, 2, 5, 5), "float32"),
                                                     _x(p, (1, 2, 1, 1))),
    "avg_pool1d_str": lambda p: p.nn.functional.avg_pool1d("abc", 2),
    "adaptive_avg_pool2d_numpy": lambda p: p.nn.functional.adaptive_avg_pool2d(
        np.ones((1, 2, 4, 4), "float32"), 2),
    "layer_norm_list": lambda p: p.nn.functional.layer_norm([[1.0, 2.0]], 2),
    "cross_entropy_label_none": lambda p: p.nn.functional.cross_entropy(_x(p, (2, 3)), None),
    "kl_div_list": lambda p: p.nn.functional.kl_div([1.0], _x(p, (1,))),
    "interpolate_numpy": lambda p: p.nn.functional.interpolate(np.ones((1, 1, 2, 2), "float32"),
                                                               scale_factor=2),
    # a numpy array to ops Paddle writes in Python
    "bincount_numpy": lambda p: p.bincount(np.array([1, 2], "int64")),
    "outer_numpy": lambda p: p.outer(np.ones(3, "float32"), p.ones([3])),
    "chunk_numpy": lambda p: p.chunk(np.ones(4, "float32"), 2),
    # integer / bool input where Paddle has no kernel: its NotFound (RuntimeError)
    "conv2d_int": lambda p: p.nn.functional.conv2d(_x(p, dtype="int64"), _x(p, (1, 2, 1, 1), "int64")),
    "conv1d_transpose_bool": lambda p: p.nn.functional.conv1d_transpose(
        _x(p, (1, 2, 4), "bool"), _x(p, (2, 1, 1), "bool")),
    "adaptive_avg_pool1d_int": lambda p: p.nn.functional.adaptive_avg_pool1d(
        p.ones([2, 3, 4], "int64"), 2),
    "as_complex_int": lambda p: p.as_complex(p.ones([2, 2], "int64")),
    # an axis out of range that Paddle reports as OutOfRange (IndexError)
    "gather_axis": lambda p: p.gather(p.to_tensor(F32), p.to_tensor([0]), axis=5),
    "index_select_neg_axis": lambda p: p.index_select(p.to_tensor(F32), p.to_tensor([0]), axis=-5),
    "cross_axis": lambda p: p.cross(p.ones([2, 3]), p.ones([2, 3]), axis=5),
    "index_add_axis": lambda p: p.index_add(p.to_tensor(F32), p.to_tensor([0]), 5, p.ones([1, 4])),
    "chunk_axis": lambda p: p.chunk(p.to_tensor(F32), 1, axis=5),
    "chunk_neg_axis": lambda p: p.chunk(p.to_tensor(F32), 1, axis=-5),
    "diff_axis": lambda p: p.diff(p.to_tensor(F32), axis=5),
    "cumulative_trapezoid_axis": lambda p: p.cumulative_trapezoid(p.to_tensor(F32), axis=-5),
    # shape mismatches whose torch message mentioned torch.Size
    "bce_shape": lambda p: p.nn.functional.binary_cross_entropy(p.full([4, 3], 0.5), p.ones([4, 9])),
    "bce_logits_shape": lambda p: p.nn.functional.binary_cross_entropy_with_logits(
        p.ones([4, 3]), p.ones([4, 9])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_raises_like_paddle(name):
    exc = same_exception(CASES[name])
    msg = str(exc)
    for word in ("aten::", "at::", "torch.", "Size(["):
        assert word not in msg, f"message leaks {word!r}: {msg}"


@pytest.mark.parametrize("name,api", [("conv2d_int", "conv2d"), ("gather_axis", "gather"),
                                      ("chunk_axis", "chunk"), ("bce_shape", "binary_cross_entropy"),
                                      ("conv2d_list", "conv2d")])
def test_message_names_the_api(name, api):
    exc = same_exception(CASES[name])
    assert f"paddle.{api}" in str(exc) or f"functional.{api}" in str(exc), str(exc)
