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


# -- static programs: the sizes Paddle leaves unknown -------------------------------------------

def _static_shapes(fn, feeds):
    """[(shape, dtype) of each output] of ``fn(P, vars)`` built in a new program, for both."""
    def run(P):
        with P.static.program_guard(P.static.Program(), P.static.Program()):
            v = {k: P.static.data(k, s, d) for k, (s, d) in feeds.items()}
            r = fn(P, v)
            return [(list(t.shape), str(t.dtype).replace("paddle.", ""))
                    for t in (r if isinstance(r, (list, tuple)) else [r])]
    from tests.reference import both_static
    return both_static(run)


_GRAPH = {"x": ([5, 3], "float32"), "x3": ([5, 2, 3], "float32"), "x1": ([5], "float32"),
          "y": ([7, 3], "float32"), "s": ([7], "int64"), "d": ([7], "int64")}


@pytest.mark.parametrize("call", [
    lambda P, v: P.geometric.send_u_recv(v["x"], v["s"], v["d"]),
    lambda P, v: P.geometric.send_u_recv(v["x3"], v["s"], v["d"], "mean", out_size=9),
    lambda P, v: P.geometric.send_u_recv(v["x1"], v["s"], v["d"], "max"),
    lambda P, v: P.incubate.graph_send_recv(v["x"], v["s"], v["d"], out_size=9),
    lambda P, v: P.geometric.send_ue_recv(v["x"], v["y"], v["s"], v["d"]),
    lambda P, v: P.geometric.send_ue_recv(v["x"], v["y"], v["s"], v["d"], "mul", "min", out_size=9),
])
def test_send_recv_rows_unknown_in_a_program(call):
    """In a program the rows of a send-and-receive output are unknown (-1), out_size or not."""
    ours, theirs = _static_shapes(call, _GRAPH)
    assert ours == theirs


_CSC = {"r": ([13], "int64"), "c": ([11], "int64"), "n": ([4], "int64"), "e": ([13], "int64"),
        "w": ([13], "float32"), "r32": ([13], "int32"), "c32": ([11], "int32"), "n32": ([4], "int32")}


@pytest.mark.parametrize("call", [
    lambda P, v: P.geometric.sample_neighbors(v["r"], v["c"], v["n"], sample_size=2),
    lambda P, v: P.geometric.sample_neighbors(v["r32"], v["c32"], v["n32"], sample_size=2),
    lambda P, v: P.incubate.graph_sample_neighbors(v["r"], v["c"], v["n"], v["e"], sample_size=2,
                                                   return_eids=True),
    lambda P, v: P.geometric.weighted_sample_neighbors(v["r"], v["c"], v["w"], v["n"], 2, v["e"], True),
])
def test_sample_neighbors_counts_unknown_in_a_program(call):
    """The int32 counts of the sampling ops are of unknown size in a program, as the rest."""
    ours, theirs = _static_shapes(call, _CSC)
    assert ours == theirs


def test_khop_sampler_in_a_program():
    """graph_khop_sampler can be recorded in a program (its sizes but the new numbers of the
    input nodes unknown) and runs there to Paddle's dynamic result."""
    def build(P, v):
        return P.incubate.graph_khop_sampler(v["r"], v["c"], v["n"], [2], v["e"], True)
    ours, theirs = _static_shapes(build, _CSC)
    assert [s for s, _ in ours] == [s for s, _ in theirs]
    import pagaie
    feed = {"r": np.array(ROW), "c": np.array(COLPTR), "n": np.array(NODES), "e": np.arange(13)}
    from tests.reference import static_mode
    with static_mode(pagaie):
        with pagaie.static.program_guard(pagaie.static.Program(), pagaie.static.Program()):
            v = {k: pagaie.static.data(k, s, d) for k, (s, d) in _CSC.items() if k in feed}
            outs = build(pagaie, v)
            got = pagaie.static.Executor().run(feed=feed, fetch_list=list(outs))
    want = both(lambda P: P.incubate.graph_khop_sampler(_t(P, ROW), _t(P, COLPTR), _t(P, NODES), [100],
                                                        _t(P, range(13)), True))[1]
    assert [list(g.shape) for g in got][3] == list(want[3].shape)
    assert got[0].shape[1] == 1 and got[0].shape[0] == got[4].shape[0]


# -- a program's values as Layer attributes -----------------------------------------------------

def test_program_value_is_a_plain_layer_attribute():
    """A program's value set on a Layer is no buffer; a buffer's name keeps being a buffer."""
    from tests.reference import both_static

    def run(P):
        layer = P.nn.Layer()
        layer.a = P.ones([3])
        layer.register_buffer("b", None)
        layer.b = P.ones([2])
        return sorted(layer._buffers), "a" in vars(layer), [k for k, _ in layer.named_buffers()]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs


def test_generate_proposals_sizes_in_a_program():
    """generate_proposals leaves the number of proposals unknown in a program (Paddle: -1);
    run there it gives its dynamic result."""
    rs = np.random.RandomState(0)
    n, a, h, w = 2, 3, 4, 5
    feed = {"s": rs.rand(n, a, h, w).astype("float32"),
            "d": (rs.randn(n, 4 * a, h, w) * 0.1).astype("float32"),
            "im": np.array([[60, 80], [50, 70]], "float32")}
    grid = np.stack(np.meshgrid(np.arange(w) * 16 + 8, np.arange(h) * 16 + 8), -1).astype("float32")
    sizes = 8.0 * np.arange(1, a + 1, dtype="float32")
    centre = np.broadcast_to(grid[:, :, None, :], (h, w, a, 2))
    half = np.broadcast_to(sizes[None, None, :, None], (h, w, a, 2))
    feed["an"] = np.concatenate([centre - half, centre + half], -1).astype("float32")
    feed["va"] = np.broadcast_to(np.array([0.1, 0.1, 0.2, 0.2], "float32"), (h, w, a, 4)).copy()

    def call(P, v):
        return P.vision.ops.generate_proposals(v["s"], v["d"], v["im"], v["an"], v["va"], return_rois_num=True)
    ours, theirs = _static_shapes(call, {k: (list(x.shape), "float32") for k, x in feed.items()})
    assert [s for s, _ in ours] == [s for s, _ in theirs]
    import pagaie
    from tests.reference import static_mode
    with static_mode(pagaie):
        with pagaie.static.program_guard(pagaie.static.Program(), pagaie.static.Program()):
            v = {k: pagaie.static.data(k, list(x.shape), "float32") for k, x in feed.items()}
            got = pagaie.static.Executor().run(feed=feed, fetch_list=list(call(pagaie, v)))
    want = both(lambda P: call(P, {k: P.to_tensor(x) for k, x in feed.items()}))[1]
    for g, t in zip(got, want):
        np.testing.assert_allclose(g, t.numpy(), rtol=1e-5, atol=1e-5)


def test_distribute_fpn_proposals_sizes_in_a_program():
    """distribute_fpn_proposals leaves the RoIs per level unknown in a program (Paddle: -1);
    run there it gives its dynamic result."""
    rs = np.random.RandomState(0)
    rois = rs.rand(12, 4).astype("float32") * 100
    rois[:, 2:] += rois[:, :2] + rs.rand(12, 2).astype("float32") * 300
    feed = {"b": rois, "n": np.array([5, 7], "int32")}

    def call(P, v):
        multi, restore, nums = P.vision.ops.distribute_fpn_proposals(v["b"], 2, 5, 4, 224, rois_num=v["n"])
        return list(multi) + [restore] + list(nums)
    ours, theirs = _static_shapes(call, {"b": ([12, 4], "float32"), "n": ([2], "int32")})
    assert ours == theirs
    import pagaie
    from tests.reference import static_mode
    with static_mode(pagaie):
        with pagaie.static.program_guard(pagaie.static.Program(), pagaie.static.Program()):
            v = {"b": pagaie.static.data("b", [12, 4], "float32"), "n": pagaie.static.data("n", [2], "int32")}
            got = pagaie.static.Executor().run(feed=feed, fetch_list=call(pagaie, v))
    want = both(lambda P: call(P, {k: P.to_tensor(x) for k, x in feed.items()}))[1]
    for g, t in zip(got, want):
        np.testing.assert_allclose(g, t.numpy())


# -- stft ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("x_dtype,w_dtype", [("float32", "complex64"), ("float64", "complex64"),
                                             ("float32", "complex128"), ("int64", "complex64")])
@pytest.mark.parametrize("onesided", [None, False])
def test_stft_complex_window_on_a_real_signal(x_dtype, w_dtype, onesided):
    """A complex window on a real (or integer) signal is a RuntimeError: Paddle's transform of
    a real x gets complex frames it has no kernel for. A complex signal takes it."""
    x = np.random.RandomState(0).randn(2, 100) * 10
    w = (np.hanning(32) + 1j * np.hanning(32)).astype(w_dtype)
    kw = {} if onesided is None else {"onesided": onesided}
    same_exception(lambda P: P.signal.stft(P.to_tensor(x.astype(x_dtype)), 32, window=P.to_tensor(w), **kw))
    assert_same(*both(lambda P: P.signal.stft(P.to_tensor(x.astype("complex64")), 32, window=P.to_tensor(w),
                                              onesided=False)), rtol=1e-4, atol=1e-3)
