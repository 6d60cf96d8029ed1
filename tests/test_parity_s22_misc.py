"""Session-22: paddle.signal, paddle.audio, paddle.geometric, paddle.vision.ops, paddle.text and
paddle.incubate against real Paddle 3.3.1 on cases the earlier sweeps missed (non-default
arguments, dtypes that have no kernel, batch shapes, gradients)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception, same_static_exception

pytest.importorskip("paddle")

ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2]


def _t(P, v, dtype="int64"):
    return P.to_tensor(np.asarray(v, dtype=dtype))


# -- graph ops: the dtype Paddle picks the kernel by ----------------------------------------

def _graph_call(P, api, bad, dtype):
    """``api`` with input ``bad`` of ``dtype`` (the rest int64, valid)."""
    def arg(name, v):
        return _t(P, v, dtype if name == bad else "int64")
    if api == "sample_neighbors":
        return P.geometric.sample_neighbors(arg("row", ROW), arg("colptr", COLPTR),
                                            arg("nodes", NODES), sample_size=2)
    if api == "weighted_sample_neighbors":
        return P.geometric.weighted_sample_neighbors(arg("row", ROW), arg("colptr", COLPTR),
                                                     P.ones([13]), arg("nodes", NODES), 2)
    if api == "graph_khop_sampler":
        return P.incubate.graph_khop_sampler(arg("row", ROW), arg("colptr", COLPTR),
                                             arg("nodes", NODES), [2])
    return P.geometric.reindex_graph(arg("x", [0, 1, 2]), arg("nb", [8, 9, 0, 4, 7, 6, 7]),
                                     _t(P, [2, 3, 2], "int32"))


@pytest.mark.parametrize("api,bad", [("sample_neighbors", "row"), ("weighted_sample_neighbors", "nodes"),
                                     ("graph_khop_sampler", "row"), ("reindex_graph", "x")])
@pytest.mark.parametrize("dtype", ["float32", "bool", "int16"])
def test_graph_kernel_key_dtype_is_runtime_error(api, bad, dtype):
    """The input Paddle selects the kernel by (row / input_nodes / x) of a dtype other than
    int32/int64 is a RuntimeError (no kernel), found before the checks of the other inputs."""
    same_exception(lambda P: _graph_call(P, api, bad, dtype))


@pytest.mark.parametrize("api,bad", [("sample_neighbors", "colptr"), ("weighted_sample_neighbors", "row"),
                                     ("reindex_graph", "nb")])
def test_graph_other_index_dtype_is_value_error(api, bad):
    """A float index that is not the kernel's key stays a ValueError."""
    same_exception(lambda P: _graph_call(P, api, bad, "float32"))


def test_graph_kernel_key_dtype_in_static_program():
    """While a program is built the same inputs are TypeErrors."""
    same_static_exception(lambda P: P.geometric.sample_neighbors(
        P.static.data("r", [13], "float32"), P.static.data("c", [11], "int64"),
        P.static.data("n", [4], "int64"), sample_size=2))


# -- send_u_recv without edges ----------------------------------------------------------------

@pytest.mark.parametrize("api", ["geometric.send_u_recv", "incubate.graph_send_recv"])
@pytest.mark.parametrize("case", [("mean", 3, (5, 3), 0), ("max", 7, (5, 2, 2), 0), ("sum", None, (5, 3), 0),
                                  ("min", 3, (5, 0), 2), ("sum", 0, (5, 3), 0)])
def test_send_u_recv_without_edges_or_values(api, case):
    """No edges (or an empty x) with out_size > 0: Paddle's output is zeros of shape [out_size]
    (the feature dimensions dropped); x still gets a zero gradient."""
    reduce_op, out_size, shape, n_edges = case

    def fn(P):
        x = P.to_tensor(np.arange(np.prod(shape), dtype="float32").reshape(shape))
        x.stop_gradient = False
        f = P.geometric.send_u_recv if api.startswith("geometric") else P.incubate.graph_send_recv
        idx = _t(P, list(range(n_edges)))
        out = f(x, idx, idx, reduce_op, out_size=out_size)
        (out * out).sum().backward()
        return out, x.grad
    assert_same(*both(fn))


# -- deform_conv2d ------------------------------------------------------------------------------

@pytest.mark.parametrize("shapes", [(6, 4, 4, 1), (6, 2, 4, 2), (4, 4, 4, 1), (8, 1, 4, 4)])
def test_deform_conv2d_out_channels_divisible_by_deformable_groups(shapes):
    """weight.shape[0] must be divisible by deformable_groups (ValueError), as well as the
    channels of x."""
    co, ci, dg, groups = shapes
    rs = np.random.RandomState(0)
    x, w = rs.randn(2, 4, 8, 8).astype("float32"), rs.randn(co, ci, 3, 3).astype("float32")
    off, m = rs.randn(2, 2 * dg * 9, 6, 6).astype("float32"), rs.rand(2, dg * 9, 6, 6).astype("float32")

    def fn(P):
        return P.vision.ops.deform_conv2d(P.to_tensor(x), P.to_tensor(off), P.to_tensor(w),
                                          deformable_groups=dg, groups=groups, mask=P.to_tensor(m))
    if co % dg:
        same_exception(fn)
    else:
        assert_same(*both(fn), rtol=1e-4, atol=1e-4)


# -- viterbi_decode -----------------------------------------------------------------------------

@pytest.mark.parametrize("tag", [True, False])
@pytest.mark.parametrize("lengths", [[-1, 3, 2], [-3, 4, 1], [-1, -2, 1], [-5, 0, 2]])
def test_viterbi_negative_lengths_beside_a_positive_one(tag, lengths):
    """Negative lengths mask every step, as Paddle's kernel does, as long as the longest is
    positive (scores and paths compared)."""
    rs = np.random.RandomState(0)
    pot, tr = rs.randn(3, 4, 5).astype("float32"), rs.randn(5, 5).astype("float32")
    assert_same(*both(lambda P: P.text.viterbi_decode(P.to_tensor(pot), P.to_tensor(tr),
                                                      _t(P, lengths), tag)))


@pytest.mark.parametrize("tag", [True, False])
@pytest.mark.parametrize("lengths", [[1, 1], [2, 1], [-1, -1]])
def test_viterbi_needs_two_tags_and_a_nonnegative_longest_length(tag, lengths):
    """A single tag is a ValueError; all lengths negative is a RuntimeError."""
    rs = np.random.RandomState(1)
    n = 1 if lengths[0] > 0 else 3
    pot, tr = rs.randn(2, 2, n).astype("float32"), rs.randn(n, n).astype("float32")
    same_exception(lambda P: P.text.viterbi_decode(P.to_tensor(pot), P.to_tensor(tr), _t(P, lengths), tag))
    same_exception(lambda P: P.text.ViterbiDecoder(P.to_tensor(tr), tag)(P.to_tensor(pot), _t(P, lengths)))


# -- incubate.autograd --------------------------------------------------------------------------

@pytest.mark.parametrize("cls", ["Jacobian", "Hessian"])
@pytest.mark.parametrize("index", [slice(None), (0, 0), 5, Ellipsis])
def test_incubate_jacobian_of_a_lone_0d_input(cls, index):
    """Paddle cannot evaluate the Jacobian (or Hessian) of a single 0-D input given bare: any
    row read is a ValueError (an out-of-range row an IndexError); in a list it works."""
    def make(P, xs):
        return getattr(P.incubate.autograd, cls)(lambda a: a * a * a, xs)

    same_exception(lambda P: make(P, P.to_tensor(np.float32(2.0)))[index])
    ours, theirs = both(lambda P: make(P, P.to_tensor(np.float32(2.0))).shape)
    assert ours == theirs
    if index is not Ellipsis and index != 5:
        assert_same(*both(lambda P: make(P, [P.to_tensor(np.float32(2.0))])[index]))
