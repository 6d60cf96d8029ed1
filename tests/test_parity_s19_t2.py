"""Session-19 (T2): build-time shapes and dtype checks of static programs against real Paddle
3.3.1 (PIR): combinations' unknown count, ..."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_static, same_exception, same_static_exception

pytest.importorskip("paddle")


def _shapes(build):
    """The build-time shapes and dtypes of ``build(fw)``'s results in both frameworks (equal)."""
    ours, theirs = both_static(lambda fw: [(list(v.shape), str(v.dtype).split(".")[-1])
                                           for v in build(fw)], fresh_programs=True)
    assert ours == theirs


# ---- combinations: Paddle declares the count of combinations unknown ------------------------
@pytest.mark.parametrize("r, wr", [(2, False), (1, False), (0, False), (3, True), (5, False)])
def test_combinations_declared_shape(r, wr):
    _shapes(lambda fw: [fw.combinations(fw.static.data("x", [4], "float32"), r, wr)])


def test_combinations_runs_with_unknown_count():
    from tests.reference import static_mode
    import pagaie
    with static_mode(pagaie):
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            x = pagaie.static.data("x", [-1], "float32")
            o = pagaie.combinations(x, 2)
            assert list(o.shape) == [-1, 2]   # (Paddle fails to build this one: its bug)
        res = pagaie.static.Executor().run(main, feed={"x": np.arange(4, dtype="float32")},
                                           fetch_list=[o])
    assert res[0].shape == (6, 2)


# ---- paddle.shape: no CPU kernel (nor program check) for int16 and float8 --------------------
@pytest.mark.parametrize("dt", ["int16", "float8_e4m3fn", "int8", "bool"])
def test_shape_dtypes_in_program(dt):
    build = lambda fw: [fw.shape(fw.static.data("x", [3], dt))]   # noqa: E731
    if dt in ("int16", "float8_e4m3fn"):
        assert isinstance(same_static_exception(build), TypeError)
    else:
        _shapes(build)


@pytest.mark.parametrize("dt", ["int16", "float8_e5m2"])
def test_shape_dtypes_eager(dt):
    assert isinstance(same_exception(lambda fw: fw.shape(fw.zeros([3]).astype(dt))), RuntimeError)


# ---- numpy data in programs: Paddle's static assign takes no uint8/int8/float16 data --------
@pytest.mark.parametrize("make", [
    lambda fw: fw.to_tensor(np.zeros(3, np.uint8)),
    lambda fw: fw.to_tensor(np.zeros(3, np.int8), dtype="float32"),
    lambda fw: fw.to_tensor(np.float16(1)),
    lambda fw: fw.to_tensor([np.uint8(1), np.uint8(2)]),
    lambda fw: fw.assign(np.zeros(3, np.float16)),
    lambda fw: fw.assign(np.zeros(3, np.int8)),
    lambda fw: fw.assign(np.float32(1)),
])
def test_program_numpy_data_refused(make):
    assert isinstance(same_static_exception(make), TypeError)


@pytest.mark.parametrize("make", [
    lambda fw: fw.to_tensor(np.zeros(3, np.int16)),
    lambda fw: fw.to_tensor([np.float16(1), np.float16(2)]),
    lambda fw: fw.to_tensor([1, 2], dtype="uint8"),
    lambda fw: fw.to_tensor(np.zeros(2, np.complex64)),
    lambda fw: fw.to_tensor(np.zeros(2, bool)),
    lambda fw: fw.assign(np.zeros(3, np.int32)),
])
def test_program_numpy_data_taken(make):
    _shapes(lambda fw: [make(fw)])


# ---- kernels run on made-up data follow the program's dtype rules ---------------------------
@pytest.mark.parametrize("dt", ["bfloat16", "float16", "int8", "bool"])
def test_pad_with_value_in_list_program_dtypes(dt):
    def build(fw):
        x = fw.static.data("x", [2, 3, 4], dt)
        return fw.nn.functional.pad(x, [fw.full([1], 1, "int32"), 1], data_format="NCL")
    if dt in ("int8", "bool"):
        assert isinstance(same_static_exception(build), TypeError)
    else:   # Paddle builds it (its CPU kernel lacks these dtypes; a program may run elsewhere)
        ours, theirs = both_static(lambda fw: build(fw).dtype, fresh_programs=True)
        assert str(ours).split(".")[-1] == str(theirs).split(".")[-1] == dt


# ---- a full() value bounding a slice: Paddle declares that dim unknown ------------------------
def _f(fw, v, shape=(), dt="int64"):
    return fw.full(list(shape), v, dt)


@pytest.mark.parametrize("index", [
    lambda fw, x: x[:, :_f(fw, 2)],
    lambda fw, x: x[:, _f(fw, 1):],
    lambda fw, x: x[:, :_f(fw, 2, [1])],
    lambda fw, x: x[_f(fw, 1)],
    lambda fw, x: x[_f(fw, 1), _f(fw, 2)],
    lambda fw, x: fw.slice(x, [1], [0], [_f(fw, 2)]),
    lambda fw, x: fw.strided_slice(x, [1], [0], [_f(fw, 2)], [1]),
])
def test_slice_bound_from_full_declared_shape(index):
    _shapes(lambda fw: [index(fw, fw.static.data("x", [4, 6, 5], "float32"))])


def test_slice_bound_from_full_runs():
    from tests.reference import static_mode
    import pagaie
    with static_mode(pagaie):
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            x = pagaie.static.data("x", [4, 6, 5], "float32")
            o = x[:, 1:_f(pagaie, 3)]
        res = pagaie.static.Executor().run(main, feed={"x": np.ones((4, 6, 5), "float32")},
                                           fetch_list=[o])
    assert res[0].shape == (4, 2, 5)


# ---- pad reads full() entries of its list (0-D or 1-D, int32 or int64) -----------------------
@pytest.mark.parametrize("pad", [
    lambda fw: [_f(fw, 1, [1], "int32"), 1],
    lambda fw: [_f(fw, 1, [], "int32"), 1],
    lambda fw: [_f(fw, 1, [1]), 2],
    lambda fw: [_f(fw, 1), 1],
    lambda fw: _f(fw, 1, [2], "int32"),
])
@pytest.mark.parametrize("shape", [[2, 3, 4], [-1, 3, 4]])
def test_pad_list_constants_declared_shape(pad, shape):
    _shapes(lambda fw: [fw.nn.functional.pad(fw.static.data("x", shape, "float32"), pad(fw),
                                             data_format="NCL")])


def test_pad_list_constants_4d_runs():
    _shapes(lambda fw: [fw.nn.functional.pad(fw.static.data("x", [1, 2, 3, 4], "float32"),
                                             [_f(fw, 1, [1], "int32"), 1, 2, _f(fw, 3, [1], "int32")])])
    from tests.reference import static_mode
    import pagaie
    with static_mode(pagaie):
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            x = pagaie.static.data("x", [1, 2, 3, 4], "float32")
            o = pagaie.nn.functional.pad(x, [_f(pagaie, 1, [1], "int32"), 1, 2, _f(pagaie, 3, [1], "int32")])
        res = pagaie.static.Executor().run(main, feed={"x": np.ones((1, 2, 3, 4), "float32")},
                                           fetch_list=[o])
    assert res[0].shape == (1, 2, 8, 6) and list(o.shape) == [1, 2, 8, 6]


# ---- arange reads full() bounds only of its output dtype (Paddle casts the others first) ----
@pytest.mark.parametrize("make", [
    lambda fw: fw.arange(_f(fw, 0, [], "int32"), _f(fw, 5, [], "int32")),
    lambda fw: fw.arange(_f(fw, 0, [1], "int32"), _f(fw, 5, [1], "int32")),
    lambda fw: fw.arange(_f(fw, 0, [1]), _f(fw, 5, [1])),
    lambda fw: fw.arange(_f(fw, 5, [], "int32")),
    lambda fw: fw.arange(_f(fw, 0.0, [], "float64"), _f(fw, 5.0, [], "float64")),
    lambda fw: fw.arange(_f(fw, 5.0, [], "float32")),
    lambda fw: fw.arange(0, 10, _f(fw, 2, [], "int32")),
    lambda fw: fw.arange(_f(fw, 0, [], "int32"), _f(fw, 5, [], "int32"), dtype="int32"),
])
def test_arange_constant_bounds_declared_shape(make):
    _shapes(lambda fw: [make(fw)])


def test_arange_cast_bounds_run():
    from tests.reference import static_mode
    import pagaie
    with static_mode(pagaie):
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            o = pagaie.arange(_f(pagaie, 1, [], "int32"), _f(pagaie, 5, [], "int32"))
        res = pagaie.static.Executor().run(main, fetch_list=[o])
    assert res[0].tolist() == [1, 2, 3, 4] and list(o.shape) == [-1]


# ---- index_sample: the output has index's shape ---------------------------------------------
@pytest.mark.parametrize("xs, js", [([-1, 5], [4, 2]), ([4, 5], [-1, 2]), ([-1, 5], [-1, 2]), ([4, 5], [4, 2])])
def test_index_sample_declared_shape(xs, js):
    _shapes(lambda fw: [fw.index_sample(fw.static.data("x", xs, "float32"),
                                        fw.static.data("i", js, "int64"))])


# ---- linspace/logspace: the static API takes a Python int or a Tensor as num -----------------
@pytest.mark.parametrize("api", ["linspace", "logspace"])
@pytest.mark.parametrize("num", [np.int64(5), np.int32(5), np.array(5), [5]])
def test_spacing_numpy_num_refused_in_program(api, num):
    assert isinstance(same_static_exception(lambda fw: getattr(fw, api)(0, 1, num)), TypeError)


@pytest.mark.parametrize("api", ["linspace", "logspace"])
def test_spacing_bool_num_taken_in_program(api):
    _shapes(lambda fw: [getattr(fw, api)(0, 1, True)])
