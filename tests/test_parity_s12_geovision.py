"""Session-12 sweep of paddle.geometric and paddle.vision.ops against real Paddle 3.3.1:
integer 'div' messages, Paddle's numbering of repeated center nodes in reindex_graph, the
1-D / [n, 1] shape rule and dtype rules of the graph sampling ops, box_coder having no
gradient, psroi_pool's "more than one output channel" rule, and the RoI ops and
reindex_graph in static programs."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_static, same_exception

ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2]
NEIGHBORS = [8, 9, 0, 4, 7, 6, 7]
COUNT = [2, 3, 2]


def _t(P, a, dt="int64"):
    return P.to_tensor(np.array(a, dt))


# -- message passing -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("op", ["send_uv", "send_ue_recv"])
def test_integer_div_messages_are_value_errors(op, dtype):
    """Paddle's graph kernels compute 'div' messages as floats they cannot store in an integer
    output: ValueError (add/sub/mul on integers work)."""
    x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    src, dst = [0, 1, 2, 0], [1, 2, 1, 0]

    def call(P, message_op):
        s, d = _t(P, src), _t(P, dst)
        if op == "send_uv":
            return P.geometric.send_uv(_t(P, x, dtype), _t(P, x + 1, dtype), s, d, message_op)
        return P.geometric.send_ue_recv(_t(P, x, dtype), _t(P, x[src] + 1, dtype), s, d, message_op)
    same_exception(lambda P: call(P, "div"))
    assert_same(*both(lambda P: [call(P, m) for m in ("add", "sub", "mul")]))


# -- reindex_graph ---------------------------------------------------------------------------

@pytest.mark.parametrize("x", [[0, 0, 2], [5, 0, 5], [3, 3, 3]])
@pytest.mark.parametrize("api", ["geometric.reindex_graph", "incubate.graph_reindex"])
def test_reindex_repeated_centers(api, x):
    """Paddle keeps the center nodes as given at the head of out_nodes and numbers a repeated
    id by its last position (in reindex_src and reindex_dst)."""
    def fn(P):
        f = P.geometric.reindex_graph if api.startswith("geometric") else P.incubate.graph_reindex
        nb = [3, 1, 1, 3, 5, 5, 3] if x == [3, 3, 3] else NEIGHBORS
        return list(f(_t(P, x), _t(P, nb), _t(P, COUNT, "int32")))
    assert_same(*both(fn))


def test_reindex_heter_repeated_centers():
    """reindex_heter_graph numbers repeated centers the same way, across edge types."""
    def fn(P):
        nb = [_t(P, NEIGHBORS), _t(P, [0, 2, 3, 5, 1])]
        cnt = [_t(P, COUNT, "int32"), _t(P, [1, 3, 1], "int32")]
        return list(P.geometric.reindex_heter_graph(_t(P, [0, 0, 2]), nb, cnt))
    assert_same(*both(fn))


@pytest.mark.parametrize("args", [
    ([[0, 1, 2]], NEIGHBORS, COUNT),                 # 2-D with more than one column
    ([[[0]], [[1]], [[2]]], NEIGHBORS, COUNT),       # 3-D
    (0, [1, 2], [2]),                                # 0-D
    ([0, 1, 2], [NEIGHBORS], COUNT),
    ([0, 1, 2], NEIGHBORS, [COUNT]),
])
def test_reindex_shapes_must_be_vectors(args):
    """x, neighbors and count must be 1-D or [n, 1] columns: ValueError otherwise."""
    x, nb, cnt = args
    same_exception(lambda P: P.geometric.reindex_graph(_t(P, x), _t(P, nb), _t(P, cnt, "int32")))


def test_reindex_columns_and_buffers():
    """[n, 1] columns are accepted; hash-table buffers of another shape are ValueErrors."""
    assert_same(*both(lambda P: list(P.geometric.reindex_graph(
        _t(P, [[0], [1], [2]]), _t(P, [[v] for v in NEIGHBORS]), _t(P, [[c] for c in COUNT], "int32")))))
    same_exception(lambda P: P.geometric.reindex_graph(
        _t(P, [0, 1, 2]), _t(P, NEIGHBORS), _t(P, COUNT, "int32"), _t(P, [[0] * 10]), _t(P, [[0] * 10])))


# -- sample_neighbors / weighted_sample_neighbors -------------------------------------------

def _sample(P, weighted, dtype="int64", **kw):
    row, cp = kw.pop("row", _t(P, ROW, dtype)), kw.pop("colptr", _t(P, COLPTR, dtype))
    nodes = kw.pop("nodes", _t(P, NODES, dtype))
    kw.setdefault("sample_size", 5)
    if weighted:
        w = kw.pop("weight", P.ones([13]))
        return P.geometric.weighted_sample_neighbors(row, cp, w, nodes, **kw)
    return P.geometric.sample_neighbors(row, cp, nodes, **kw)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("size", [2.0, True])
def test_sample_size_must_be_an_int(weighted, size):
    """A float or bool sample_size is a TypeError (numpy ints work)."""
    same_exception(lambda P: _sample(P, weighted, sample_size=size))
    assert_same(*both(lambda P: _sample(P, weighted, sample_size=np.int64(2))[1]))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_sample_eids_dtype_must_match_row(weighted, dtype):
    """With return_eids, eids of another integer dtype than row is a ValueError."""
    other = "int64" if dtype == "int32" else "int32"
    same_exception(lambda P: _sample(P, weighted, dtype, eids=_t(P, range(13), other), return_eids=True))
    assert_same(*both(lambda P: _sample(P, weighted, dtype, eids=_t(P, range(100, 113), dtype),
                                        return_eids=True)))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("arg,value", [("row", [ROW]), ("colptr", [COLPTR]), ("nodes", [NODES]),
                                       ("nodes", 1), ("eids", [list(range(13))])])
def test_sample_shapes_must_be_vectors(weighted, arg, value):
    """row, colptr, input_nodes (and eids when returned) must be 1-D or [n, 1]: ValueError."""
    def fn(P):
        kw = {arg: _t(P, value)}
        if arg == "eids":
            kw["return_eids"] = True
        return _sample(P, weighted, **kw)
    same_exception(fn)


def test_sample_columns_and_unreturned_eids():
    """[n, 1] columns are accepted, and eids of any shape when they are not returned."""
    assert_same(*both(lambda P: _sample(P, False, row=_t(P, [[r] for r in ROW]),
                                        nodes=_t(P, [[n] for n in NODES]))))
    assert_same(*both(lambda P: _sample(P, False, eids=_t(P, [list(range(13))]))[1]))


@pytest.mark.parametrize("weight", [("float64", (13,)), ("float16", (13,)), ("float32", (1, 13))])
def test_weighted_sample_edge_weight_rules(weight):
    """edge_weight must be float32, 1-D or [E, 1]: ValueError otherwise."""
    dtype, shape = weight
    same_exception(lambda P: _sample(P, True, weight=P.ones(list(shape), dtype)))
    assert_same(*both(lambda P: _sample(P, True, weight=P.ones([13, 1]))))


# -- vision.ops ------------------------------------------------------------------------------

_PRIOR = np.array([[1.0, 2.0, 5.0, 7.0], [0.5, 0.5, 3.0, 4.0]])
_TARGET = np.array([[2.0, 2.0, 6.0, 8.0], [1.0, 0.0, 4.0, 3.0], [0.0, 1.0, 2.0, 5.0]])


@pytest.mark.parametrize("code_type", ["encode_center_size", "decode_center_size"])
def test_box_coder_has_no_gradient(code_type):
    """Paddle's box_coder has no backward: the result stops gradients even when the boxes
    need them."""
    target = _TARGET if code_type.startswith("encode") else np.stack([_PRIOR * 0.1] * 3)

    def fn(P):
        p = P.to_tensor(_PRIOR.astype("float32"), stop_gradient=False)
        t = P.to_tensor(target.astype("float32"), stop_gradient=False)
        out = P.vision.ops.box_coder(p, [0.1, 0.1, 0.2, 0.2], t, code_type)
        return [out, out.stop_gradient]
    assert_same(*both(fn))


@pytest.mark.parametrize("channels,size", [(8, (2, 4)), (4, 2), (9, 3)])
def test_psroi_pool_needs_two_output_channels(channels, size):
    """psroi_pool refuses C / (ph * pw) == 1 output channel with a ValueError; 2 work."""
    def call(P, c):
        x = P.to_tensor(np.arange(c * 36, dtype="float32").reshape(1, c, 6, 6))
        return P.vision.ops.psroi_pool(x, P.to_tensor([[0.0, 0.0, 4.0, 5.0]]), _t(P, [1], "int32"), size)
    same_exception(lambda P: call(P, channels))
    assert_same(*both(lambda P: call(P, 2 * channels)))


_FEAT = np.random.default_rng(0).standard_normal((2, 8, 8, 8)).astype("float32")
_BOXES = np.array([[0.5, 1.0, 4.0, 5.5], [2.0, 2.0, 7.0, 6.0], [1.0, 0.0, 3.0, 7.5],
                   [0.0, 0.0, 7.0, 7.0], [3.2, 1.1, 5.9, 4.4], [1.0, 1.0, 2.0, 2.0]], "float32")


@pytest.mark.parametrize("known", [True, False])
def test_roi_ops_in_static_programs(known):
    """roi_align / roi_pool / psroi_pool (and their layers) record and run in a static
    program with several boxes per image, with known or unknown box counts."""
    def fn(P):
        x = P.static.data("x", [2, 8, 8, 8] if known else [-1, 8, 8, 8], "float32")
        b = P.static.data("b", [6, 4] if known else [-1, 4], "float32")
        n = P.static.data("n", [2] if known else [-1], "int32")
        ops = P.vision.ops
        outs = [ops.roi_align(x, b, n, 2, 0.5, 2, False), ops.roi_pool(x, b, n, (2, 3)),
                ops.psroi_pool(x, b, n, 2), ops.RoIAlign(3)(x, b, n)]
        exe = P.static.Executor(P.CPUPlace())
        got = exe.run(P.static.default_main_program(), fetch_list=outs,
                      feed={"x": _FEAT, "b": _BOXES, "n": np.array([2, 4], "int32")})
        return [list(o.shape) for o in outs] + [np.asarray(g) for g in got]
    ours, theirs = both_static(fn, fresh_programs=True)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_reindex_graph_in_static_programs():
    """reindex_graph records with unknown (-1) output sizes and runs in a static program."""
    def fn(P):
        x = P.static.data("x", [3], "int64")
        nb = P.static.data("nb", [7], "int64")
        cnt = P.static.data("cnt", [3], "int32")
        outs = list(P.geometric.reindex_graph(x, nb, cnt))
        exe = P.static.Executor(P.CPUPlace())
        got = exe.run(P.static.default_main_program(), fetch_list=outs,
                      feed={"x": np.array([0, 1, 2]), "nb": np.array(NEIGHBORS),
                            "cnt": np.array(COUNT, "int32")})
        return [list(o.shape) for o in outs] + [np.asarray(g) for g in got]
    ours, theirs = both_static(fn, fresh_programs=True)
    assert_same(ours, theirs)
