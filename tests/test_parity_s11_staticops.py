"""Session-11 sweep of ordinary tensor APIs inside static programs against real Paddle 3.3.1
(PIR): the recorded shapes of slices and decompositions along an axis of unknown size, an
unknown size broadcast against a known one, the exception type of a non-tensor argument while
a program is built, and Value bounds in slices and split
sections along an unknown axis.

Each test builds the same program with both frameworks in fresh programs, compares the
recorded ``shape``/``dtype`` and runs it with two batch sizes."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, paddle_ref, same_static_exception, static_mode

import pagaie

_X = np.random.RandomState(7).rand(4, 3).astype("float32")


def _build_and_run(build, feeds):
    """``build(fw)`` with each framework in fresh programs; per framework: the recorded
    (shape, dtype) of the outputs and the fetched results of each feed."""
    ref = paddle_ref()
    got = []
    for fw in (pagaie, ref):
        with static_mode(fw):
            main, start = fw.static.Program(), fw.static.Program()
            with fw.static.program_guard(main, start):
                outs = build(fw)
                outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
                meta = [(list(o.shape), str(o.dtype).replace("paddle.", "")) for o in outs]
            exe = fw.static.Executor(fw.CPUPlace())
            exe.run(start)
            runs = [exe.run(main, feed=dict(f), fetch_list=outs) for f in feeds]
        got.append((meta, runs))
    return got


def _check(build, feeds=({"x": _X}, {"x": _X[:2]}), rtol=1e-5, atol=1e-6):
    (meta, runs), (ref_meta, ref_runs) = _build_and_run(build, feeds)
    assert meta == ref_meta, f"recorded {meta}, Paddle records {ref_meta}"
    for ours, theirs in zip(runs, ref_runs):
        assert_same([np.asarray(a) for a in ours], [np.asarray(b) for b in theirs], rtol=rtol,
                    atol=atol)


def _x(fw, shape=(-1, 3), dtype="float32"):
    return fw.static.data("x", list(shape), dtype)


# ---- sizes computed from an unknown size stay unknown -------------------------------------
@pytest.mark.parametrize("build", [
    lambda fw: _x(fw)[0:1],
    lambda fw: _x(fw)[:1],
    lambda fw: _x(fw)[-1:],
    lambda fw: _x(fw)[:1, 1:],
    lambda fw: fw.slice(_x(fw), axes=[0], starts=[0], ends=[1]),
    lambda fw: fw.strided_slice(_x(fw), axes=[0], starts=[0], ends=[2], strides=[1]),
], ids=["0:1", ":1", "-1:", ":1,1:", "slice", "strided_slice"])
def test_slicing_an_unknown_axis_records_an_unknown_size(build):
    """Paddle records a slice of an axis of unknown size (-1) as -1, even a fixed-length one."""
    _check(build)


@pytest.mark.parametrize("build", [
    lambda fw: fw.linalg.svd(_x(fw, (-1, 5)))[1],
    lambda fw: list(fw.linalg.qr(_x(fw, (-1, 5)))),
], ids=["svd_values", "qr"])
def test_decompositions_of_an_unknown_size_record_min_as_unknown(build):
    """min(n, 5) with n unknown is unknown in Paddle's records (svd's values, qr's Q and R)."""
    x = np.random.RandomState(1).rand(6, 5).astype("float32")
    _check(build, ({"x": x}, {"x": x[:3]}), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("build", [
    lambda fw: fw.gather(_x(fw), fw.to_tensor([0, 1]), axis=0),
    lambda fw: list(fw.topk(_x(fw), k=1, axis=0)),
    lambda fw: fw.sum(_x(fw), axis=0, keepdim=True),
    lambda fw: fw.matmul(_x(fw), fw.ones([3, 2])),
], ids=["gather", "topk", "sum", "matmul"])
def test_sizes_that_do_not_depend_on_the_unknown_one_stay_known(build):
    """Paddle keeps the sizes gather, topk, reductions and matmul fix whatever the batch."""
    _check(build, ({"x": _X}, {"x": _X[:3]}))


# ---- an unknown size meeting a known one ----------------------------------------------------
@pytest.mark.parametrize("build", [
    lambda fw: fw.static.data("y", [4, 1], "float32") + _x(fw),
    lambda fw: _x(fw) * fw.ones([4, 3]),
    lambda fw: fw.maximum(_x(fw, (-1, -1)), fw.zeros([1, 3])),
], ids=["[4,1]+[-1,3]", "[-1,3]*[4,3]", "[-1,-1]vs[1,3]"])
def test_an_unknown_size_broadcasts_with_a_known_one(build):
    """Paddle takes the known size where an unknown one broadcasts with it (-1 vs 1 stays
    unknown) instead of refusing the program."""
    _check(build, ({"x": _X, "y": np.ones((4, 1), "float32")},))


@pytest.mark.parametrize("build", [
    lambda fw: fw.nn.functional.margin_ranking_loss(_x(fw), _x(fw) * 2, fw.ones([4, 3])),
    lambda fw: fw.nn.functional.binary_cross_entropy(fw.nn.functional.sigmoid(_x(fw)),
                                                     fw.full([4, 3], 0.3)),
    lambda fw: fw.nn.functional.mse_loss(_x(fw), fw.zeros([4, 3]), reduction="none"),
], ids=["margin_ranking", "bce", "mse"])
def test_losses_with_a_known_label_shape_build_for_an_unknown_batch(build):
    """A loss whose label has a known batch size builds for an input of unknown batch."""
    _check(build, ({"x": _X},))


# ---- a non-tensor argument while a program is built -----------------------------------------
@pytest.mark.parametrize("call", [
    lambda fw, x: fw.abs([1.0, 2.0]),
    lambda fw, x: fw.exp(1.5),
    lambda fw, x: fw.nn.functional.relu(np.ones(3, "float32")),
    lambda fw, x: fw.argsort([3.0, 1.0]),
    lambda fw, x: fw.gather(x, [0, 1]),
    lambda fw, x: fw.index_select(x, np.array([0])),
    lambda fw, x: fw.logical_and(x > 0, True),
    lambda fw, x: fw.bitwise_and(fw.cast(x, "int32"), 3),
    lambda fw, x: fw.cast(fw.cast(x, "int32"), "int32") & 3,
    lambda fw, x: fw.concat([x, [[1.0, 2.0, 3.0]]]),
    lambda fw, x: fw.allclose(x, [1.0, 2.0, 3.0]),
], ids=["abs_list", "exp_float", "relu_numpy", "argsort_list", "gather_list",
        "index_select_numpy", "logical_and_bool", "bitwise_and_int", "and_operator",
        "concat_list", "allclose_list"])
def test_a_non_tensor_argument_is_a_type_error_in_a_program(call):
    """Paddle's static-graph argument parser wants a Value: anything else but None raises
    TypeError (eagerly the same call raises ValueError)."""
    same_static_exception(lambda fw: call(fw, _x(fw)))


@pytest.mark.parametrize("call", [
    lambda fw, x: fw.abs(None),
    lambda fw, x: fw.nn.functional.softmax(None),
    lambda fw, x: fw.unsqueeze(None, 0),
], ids=["abs", "softmax", "unsqueeze"])
def test_none_for_a_tensor_argument_is_a_value_error_in_a_program(call):
    """None where a Value belongs stays Paddle's ValueError in a static program."""
    same_static_exception(lambda fw: call(fw, _x(fw)))


# ---- waiting for the op files -----------------------------------------------------------------
def test_a_value_as_a_slice_bound():
    """Paddle slices with a 0-D Value as a bound (``x[:, :n]``); the size is unknown."""
    _check(lambda fw: _x(fw)[:, :fw.shape(_x(fw))[0]], ({"x": _X[:2]}, {"x": _X[:1]}))


def test_split_sections_along_an_unknown_axis():
    """Paddle does not check sections along an axis of unknown size; each piece is -1 there."""
    _check(lambda fw: fw.split(_x(fw), [1, 3], axis=0), ({"x": _X},))
