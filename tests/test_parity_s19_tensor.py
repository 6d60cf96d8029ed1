"""Session-19 sweep of the structural tensor ops (reductions, search, indexing, manipulation)
against real Paddle 3.3.1: CPU dtype sets, static-program shapes and bad arguments."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_static, same_exception, same_static_exception

_A = [[0, 1, 2], [3, 0, 1]]


def _x(P, dt):
    return P.to_tensor(np.array(_A, dt))


# -- CPU dtype sets: float16/bfloat16 and others Paddle's CPU kernels lack ---------------------

_NO_CPU_KERNEL = [
    ("nonzero", "float16"), ("argwhere", "float16"),
    ("all", "float16"), ("all", "bfloat16"), ("any", "float16"), ("any", "bfloat16"),
    ("argmax", "float16"), ("argmax", "bfloat16"), ("argmin", "float16"), ("argmin", "bfloat16"),
    ("is_empty", "bool"), ("is_empty", "int8"), ("is_empty", "float16"), ("is_empty", "complex64"),
    ("crop", "float16"), ("crop", "bfloat16"),
]
_CALLS = {
    "nonzero": lambda P, x: P.nonzero(x), "argwhere": lambda P, x: P.argwhere(x),
    "all": lambda P, x: P.all(x, 1), "any": lambda P, x: P.any(x), "argmax": lambda P, x: P.argmax(x, 1),
    "argmin": lambda P, x: P.argmin(x), "is_empty": lambda P, x: P.is_empty(x),
    "crop": lambda P, x: P.crop(x, [1, 2]),
}


@pytest.mark.parametrize("api,dt", _NO_CPU_KERNEL)
def test_no_cpu_kernel_eager(api, dt):
    same_exception(lambda P: _CALLS[api](P, _x(P, dt)))


@pytest.mark.parametrize("api,dt", _NO_CPU_KERNEL + [("where", "float16"), ("where", "bfloat16")])
def test_no_cpu_kernel_static(api, dt):
    calls = dict(_CALLS, where=lambda P, x: P.where(P.static.data("c", [2, 3], "bool"), x, x))
    same_static_exception(lambda P: calls[api](P, P.static.data("x", [2, 3], dt)))


@pytest.mark.parametrize("api", sorted(_CALLS))
@pytest.mark.parametrize("dt", ["int32", "float32", "float64"])
def test_cpu_kernel_dtypes_still_run(api, dt):
    assert_same(*both(lambda P: _CALLS[api](P, _x(P, dt))))


# -- static-program shapes --------------------------------------------------------------------

def _static_shapes(fn):
    def run(P):
        out = fn(P, P.static.data)
        return [list(o.shape) for o in (out if isinstance(out, (list, tuple)) else [out])]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs


@pytest.mark.parametrize("case", [
    lambda P, D: P.split(D("x", [-1, 6], "float32"), [2, -1], axis=0),       # known section, unknown axis
    lambda P, D: P.split(D("x", [4, -1], "float32"), [2, -1], axis=1),
    lambda P, D: P.split(D("x", [4, 6], "float32"), [D("s", [1], "int64"), -1], axis=1),
    lambda P, D: P.split(D("x", [4, 6], "float32"), [P.full([1], 2, "int64"), -1], axis=1),
    lambda P, D: P.split(D("x", [-1, 6], "float32"), 3, axis=1),
    lambda P, D: P.split(D("x", [4, 6], "float32"), 2, axis=P.full([1], 1, "int64")),
    lambda P, D: P.split(D("x", [4, 6], "float32"), 2, axis=D("a", [], "int64")),
    lambda P, D: P.put_along_axis(D("x", [3, -1], "float32"), D("i", [-1, 1], "int64"), 1.0, 1),
    lambda P, D: P.put_along_axis(D("x", [-1, 4], "float32"), D("i", [1, 4], "int32"), D("v", [1, 4], "float32"), 0),
    lambda P, D: P.take(D("x", [-1, 4], "float32"), D("i", [-1, 5], "int64")),
    lambda P, D: P.scatter_nd_add(D("x", [-1, 4, 5], "float32"), D("i", [-1, 2], "int64"), D("u", [-1, 5], "float32")),
])
def test_static_shapes(case):
    _static_shapes(case)


def test_static_split_by_tensor_section_runs():
    def run(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            x = P.static.data("x", [4, 6], "float32")
            s = P.static.data("s", [1], "int64")
            outs = P.split(x, [s, -1], axis=1)
            return P.static.Executor(P.CPUPlace()).run(
                main, feed={"x": np.arange(24, dtype="float32").reshape(4, 6), "s": np.array([2])},
                fetch_list=outs)
    ours, theirs = both_static(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", [
    lambda P, D: P.put_along_axis(D("x", [3, -1], "float32"), D("i", [-1, 1], "int64"), 1.0, 2),
    lambda P, D: P.put_along_axis(D("x", [3, -1], "float32"), D("i", [-1, 1], "float32"), 1.0, 1),
])
def test_static_put_along_axis_bad_arguments(case):
    same_static_exception(lambda P: case(P, P.static.data))


# -- tensor arguments inside a program --------------------------------------------------------

def _run_program(fn, feed):
    def run(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            outs = fn(P, P.static.data)
            outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
            shapes = [list(o.shape) for o in outs]
            return [shapes] + list(P.static.Executor(P.CPUPlace()).run(main, feed=feed, fetch_list=outs))
    ours, theirs = both_static(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


_X = np.arange(12, dtype="float32").reshape(3, 4)


@pytest.mark.parametrize("fn,feed", [
    # a 0-D constant made by full is read when Paddle builds the program
    (lambda P, D: P.full([P.full([], 3, "int64"), 2], 1.5), {}),
    (lambda P, D: P.zeros([P.full([], 3, "int64"), 2]), {}),
    (lambda P, D: P.full(P.full([2], 3, "int64"), 1.5), {}),
    (lambda P, D: P.reshape(D("x", [3, 4], "float32"), [P.full([], 4, "int64"), -1]), {"x": _X}),
    (lambda P, D: P.expand(D("x", [1, 4], "float32"), [P.full([], 3, "int64"), 4]), {"x": _X[:1]}),
    (lambda P, D: P.tile(D("x", [3, 4], "float32"), [P.full([], 2, "int64"), 1]), {"x": _X}),
    (lambda P, D: P.arange(0, P.full([], 5, "int64"), 2), {}),
    (lambda P, D: P.eye(P.full([], 3, "int64")), {}),
    (lambda P, D: P.sum(D("x", [3, 4], "float32"), P.full([1], 1, "int64")), {"x": _X}),
    (lambda P, D: P.topk(D("x", [3, 4], "float32"), P.full([1], 2, "int64")), {"x": _X}),
    (lambda P, D: P.concat([D("x", [3, 4], "float32")] * 2, P.full([], 1, "int64")), {"x": _X}),
    # a value fed when the program runs stays unknown
    (lambda P, D: P.full([D("n", [], "int64"), 2], 1.5), {"n": np.array(3)}),
    (lambda P, D: P.repeat_interleave(D("x", [3, 4], "float32"), D("r", [4], "int64"), 1),
     {"x": _X, "r": np.array([1, 0, 2, 1])}),
])
def test_program_tensor_arguments(fn, feed):
    _run_program(fn, feed)


@pytest.mark.parametrize("repeats", [lambda P, D: D("r", [], "int64"), lambda P, D: P.full([], 2, "int64"),
                                     lambda P, D: D("r", [1], "int64")])
def test_program_repeat_interleave_0d_repeats(repeats):
    # Paddle builds the program (size unknown along the axis) and refuses the single count
    # when it runs, as its eager API does
    def build(P):
        x = P.static.data("x", [3, 4], "float32")
        return list(P.repeat_interleave(x, repeats(P, P.static.data), 1).shape)
    ours, theirs = both_static(build, fresh_programs=True)
    assert ours == theirs == [3, -1]

    def run(P):
        with P.static.program_guard(P.static.Program(), P.static.Program()):
            main = P.static.default_main_program()
            out = P.repeat_interleave(P.static.data("x", [3, 4], "float32"), repeats(P, P.static.data), 1)
            feed = {"x": _X, "r": np.array(2)} if "r" in [v.name for v in main.list_vars()] else {"x": _X}
            if feed.get("r") is not None and list(main.global_block().var("r").shape) == [1]:
                feed["r"] = np.array([2])
            P.static.Executor(P.CPUPlace()).run(main, feed=feed, fetch_list=[out])
    with_static = lambda P: _in_static(P, run)  # noqa: E731
    same_exception(with_static)


def _in_static(P, fn):
    P.enable_static()
    try:
        return fn(P)
    finally:
        P.disable_static()


@pytest.mark.parametrize("case", [
    lambda P, D: P.kthvalue(D("x", [3, 4], "float32"), D("k", [], "int64"), 1),
    lambda P, D: P.kthvalue(D("x", [3, 4], "float32"), P.full([], 2, "int64"), 1),
    lambda P, D: P.tril(D("x", [3, 4], "float32"), D("d", [], "int64")),
    lambda P, D: P.triu(D("x", [3, 4], "float32"), diagonal=P.full([], 1, "int64")),
])
def test_program_refuses_tensor_int_arguments(case):
    same_static_exception(lambda P: case(P, P.static.data))


def test_eager_takes_0d_tensor_int_arguments():
    x = lambda P: P.to_tensor(_X)  # noqa: E731
    assert_same(*both(lambda P: P.kthvalue(x(P), P.to_tensor(2), 1)))
    assert_same(*both(lambda P: P.tril(x(P), P.to_tensor(1))))


# -- bad arguments ----------------------------------------------------------------------------

_X3 = np.arange(24, dtype="float32").reshape(2, 3, 4)
_AXIS_OPS = {
    "argmax": lambda P, x, a: P.argmax(x, a), "argmin": lambda P, x, a: P.argmin(x, a),
    "concat": lambda P, x, a: P.concat([x, x], a), "split": lambda P, x, a: P.split(x, 1, a),
    "chunk": lambda P, x, a: P.chunk(x, 1, a),
    "gather": lambda P, x, a: P.gather(x, P.to_tensor([0, 1]), a),
}


@pytest.mark.parametrize("api", sorted(_AXIS_OPS))
@pytest.mark.parametrize("axis", [1.5, True])
def test_program_refuses_float_or_bool_axis(api, axis):
    # Paddle's eager parser truncates a float axis (or reads a bool); its static one refuses both
    same_static_exception(lambda P: _AXIS_OPS[api](P, P.static.data("x", [2, 3, 4], "float32"), axis))


@pytest.mark.parametrize("api", ["argmax", "concat", "split", "gather"])
def test_eager_bool_axis(api):
    assert_same(*both(lambda P: _AXIS_OPS[api](P, P.to_tensor(_X3), True)))


# -- creation / joining dtype sets ------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("api", ["meshgrid", "cartesian_prod", "combinations"])
def test_meshgrid_family_no_half_cpu_kernel(api, dt):
    # creation_range's second _MESHGRID_DTYPES table (with float16/bfloat16) replaced the first
    calls = {"meshgrid": lambda P, x: P.meshgrid(x, x), "cartesian_prod": lambda P, x: P.cartesian_prod([x, x]),
             "combinations": lambda P, x: P.combinations(x)}
    same_exception(lambda P: calls[api](P, P.to_tensor([1.0, 2.0, 3.0]).astype(dt)))
    same_static_exception(lambda P: calls[api](P, P.static.data("x", [3], dt)))


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "bool"])
def test_arange_cpu_dtypes(dt):
    same_exception(lambda P: P.arange(0, 3, 1, dt))
    same_static_exception(lambda P: P.arange(0, 3, 1, dt))


@pytest.mark.parametrize("dt", ["float32", "int16", "bool"])
def test_shard_index_refuses_non_int_input_in_programs(dt):
    same_static_exception(lambda P: P.shard_index(P.static.data("x", [2, 1], dt), 20, 2, 0))


@pytest.mark.parametrize("api", ["hstack", "vstack"])
def test_stacks_refuse_uint8_in_programs(api):
    same_static_exception(lambda P: getattr(P, api)([P.static.data("x", [2, 3], "uint8")] * 2))
    assert_same(*both(lambda P: getattr(P, api)([P.to_tensor(np.ones((2, 3), "uint8"))] * 2)))


@pytest.mark.parametrize("case", [
    lambda P, x: P.split(x, 3, 1), lambda P, x: P.split(x, 0, 1), lambda P, x: P.chunk(x, 3, 1),
    lambda P, x: P.reshape(x, [-1, -1]),
])
def test_bad_arguments_eager_and_static(case):
    # Paddle's static API asserts (AssertionError) where its eager kernels raise ValueError
    same_exception(lambda P: case(P, P.to_tensor(np.ones((3, 4), "float32"))))
    same_static_exception(lambda P: case(P, P.static.data("x", [3, 4], "float32")))


def test_topk_float_k():
    # eagerly Paddle truncates a float k; its static parser refuses it
    assert_same(*both(lambda P: P.topk(P.to_tensor(_X), 1.5)))
    same_static_exception(lambda P: P.topk(P.static.data("x", [3, 4], "float32"), 1.5))


@pytest.mark.parametrize("fn,feed", [
    # bounds held by Tensors: the sliced sizes are unknown when the program is built (they were 0)
    (lambda P, D: P.slice(D("x", [3, 4], "float32"), [1], [D("s", [], "int64")], [D("e", [], "int64")]),
     {"x": _X, "s": np.array(1), "e": np.array(3)}),
    (lambda P, D: P.slice(D("x", [3, 4], "float32"), [1], D("s", [1], "int64"), D("e", [1], "int64")),
     {"x": _X, "s": np.array([1]), "e": np.array([3])}),
    (lambda P, D: P.strided_slice(D("x", [3, 4], "float32"), [1], [D("s", [], "int64")], [4], [1]),
     {"x": _X, "s": np.array(1)}),
])
def test_program_slice_tensor_bounds(fn, feed):
    _run_program(fn, feed)


def test_program_split_by_tensor_axis():
    # the axis is read when the program runs: every size of the pieces is unknown before
    _run_program(lambda P, D: P.split(D("x", [4, 6], "float32"), 2, D("a", [], "int64")),
                 {"x": np.arange(24, dtype="float32").reshape(4, 6), "a": np.array(1)})


@pytest.mark.parametrize("case", [
    lambda P: P.full(None, 1.0), lambda P: P.full([2], "a"),
    lambda P: P.full_like(P.static.data("x", [2], "float32"), "a"),
])
def test_full_arguments_refused_in_programs(case):
    same_static_exception(case)
    assert_same(*both(lambda P: P.full(None, 1.0)))   # eagerly a 0-D tensor
