"""Differential tests against real Paddle for the ``abs``..``frac`` APIs: cases taken from
Paddle's own unit tests (API classes, ``test_errors``, 0-size and static-mode checks)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _outcome(mod, fn):
    """What ``fn(mod)`` gives: ("ok", numpy values / plain value) or ("err", exception type)."""
    try:
        r = fn(mod)
    except Exception as e:  # noqa: BLE001 - the exception type is what is compared
        return "err", type(e).__name__
    if isinstance(r, (list, tuple)):
        return "ok", [x.numpy().tolist() if isinstance(x, mod.Tensor) else x for x in r]
    return "ok", r.numpy().tolist() if isinstance(r, mod.Tensor) else r


def _same(fn):
    a, b = _outcome(paddle, fn), _outcome(pagaie, fn)
    assert a == b, (a, b)


def _static(build):
    """``build(mod)`` run while a static program is built; "built" when it raises nothing."""
    def run(mod):
        mod.enable_static()
        try:
            with mod.static.program_guard(mod.static.Program(), mod.static.Program()):
                build(mod)
                return "built"
        finally:
            mod.disable_static()
    return run


def _data(mod, shape, dtype, name="x"):
    return mod.static.data(name=name, shape=shape, dtype=dtype)


def _t(mod, data, dtype=None):
    return mod.to_tensor(data, dtype=dtype)


# ---- in-place APIs -------------------------------------------------------------------------
@pytest.mark.parametrize("api", ["divide_", "floor_divide_", "remainder_", "floor_mod_"])
def test_inplace_takes_no_out(api):
    _same(lambda m: getattr(m, api)(_t(m, [4, 6]), _t(m, [2, 4]), out=m.zeros([2], "int64")))


@pytest.mark.parametrize("name", ["erf_", "expm1_"])
def test_function_only_inplace(name):
    assert hasattr(pagaie, name) and hasattr(paddle, name)
    assert hasattr(pagaie.Tensor, name) == hasattr(paddle.Tensor, name)


@pytest.mark.parametrize("api,extra", [
    ("abs_", ()), ("cumsum_", ()), ("cast_", ("float64",)), ("flatten_", ()),
    ("bernoulli_", ()), ("cauchy_", ()), ("divide_", ("y",)), ("bitwise_and_", ("y",)),
    ("addmm_", ("m", "m")), ("cumprod_", (0,)), ("cumprod_", ()),
])
@pytest.mark.parametrize("bad", [np.ones([2], "float32"), [1.0, 2.0], None])
def test_inplace_non_tensor_x(api, extra, bad):
    def call(m):
        args = [_t(m, np.ones([2, 2], "float32")) if e == "m" else _t(m, [1.0, 2.0]) if e == "y"
                else e for e in extra]
        return getattr(m, api)(bad, *args)
    _same(call)


# ---- static-mode checks --------------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(rtol=1), dict(atol=1), dict(rtol="1"),
                                dict(rtol=np.float32(1)), dict(rtol=1.0)])
def test_static_allclose_tolerances(kw):
    _same(_static(lambda m: m.allclose(_data(m, [2], "float32"), _data(m, [2], "float32", "y"), **kw)))


@pytest.mark.parametrize("dtype,shape,wshape", [
    ("float32", [2], None), ("int16", [2], None), ("int64", [2, 2], None), ("int64", [2], [3]),
    ("int32", [2], [2]),
])
def test_static_bincount_checks(dtype, shape, wshape):
    def build(m):
        w = None if wshape is None else _data(m, wshape, "float32", "w")
        m.bincount(_data(m, shape, dtype), weights=w)
    _same(_static(build))


@pytest.mark.parametrize("xs,ys,axis", [([3, 3], [1, 3], 9), ([2, 2], [2, 2], 0), ([3, 3], [3, 3], 1)])
def test_static_cross_shapes(xs, ys, axis):
    _same(_static(lambda m: m.cross(_data(m, xs, "float32"), _data(m, ys, "float32", "y"), axis=axis)))


@pytest.mark.parametrize("api", ["cummax", "cummin"])
@pytest.mark.parametrize("dtype", ["int16", "float32", "int32"])
def test_static_cummax_index_dtype(api, dtype):
    _same(_static(lambda m: getattr(m, api)(_data(m, [3], "float32"), dtype=dtype)))


@pytest.mark.parametrize("x", [np.ones([2], "float32"), [1.0, 2.0]])
def test_static_flatten_non_tensor(x):
    _same(_static(lambda m: m.flatten(x)))


@pytest.mark.parametrize("build", [
    lambda m: m.block_diag([_data(m, [1, 1], "float32"), _data(m, [1, 1], "int32", "y")]),
    lambda m: m.cartesian_prod([_data(m, [2], "float32"), _data(m, [1], "int32", "y")]),
    lambda m: m.meshgrid(_data(m, [2], "float32"), _data(m, [1], "int32", "y")),
    lambda m: m.broadcast_tensors([_data(m, [1], "float32"), _data(m, [2, 1], "float64", "y")]),
    lambda m: m.broadcast_tensors([_data(m, [1], "bfloat16"), _data(m, [2, 1], "bfloat16", "y")]),
    lambda m: m.combinations(_data(m, [1, 3], "float32")),
], ids=["block_diag", "cartesian_prod", "meshgrid", "broadcast_tensors", "broadcast_bf16",
        "combinations"])
def test_static_build_time_type_errors(build):
    _same(_static(build))


# ---- eager ---------------------------------------------------------------------------------
_SHAPE_PAIRS = [(2, [3, 1]), ([2.0, 1], [1, 3]), ("ab", [1]), ("T", [1, 3]), ("T0", [1, 3]),
                ([2, -1], [-1, 3])]


def _shapes(m, shapes):
    conv = {"T": lambda: _t(m, [2, 1]), "T0": lambda: _t(m, 2)}
    return [conv[s]() if isinstance(s, str) and s in conv else s for s in shapes]


@pytest.mark.parametrize("shapes", _SHAPE_PAIRS)
def test_broadcast_shape_arguments(shapes):
    _same(lambda m: m.broadcast_shape(*_shapes(m, shapes)))


@pytest.mark.parametrize("shapes", _SHAPE_PAIRS + [(3,), ([2, 1],), ([2], [3], [1]), ()])
def test_broadcast_shapes_arguments(shapes):
    _same(lambda m: m.broadcast_shapes(*_shapes(m, shapes)))


def test_broadcast_tensors_bfloat16():
    _same(lambda m: m.broadcast_tensors([_t(m, [1.0], "bfloat16"), _t(m, [[1.0], [2.0]], "bfloat16")]))


@pytest.mark.parametrize("call", [
    lambda m: m.expand(_t(m, np.ones([1] * 7, "float32")), [1] * 9),
    lambda m: m.expand(_t(m, np.ones([1] * 7, "float32")), [2] + [1] * 7),
    lambda m: m.broadcast_to(_t(m, np.ones([1] * 7, "float32")), [1] * 9),
    lambda m: m.expand_as(_t(m, [1.0]), m.zeros([1] * 9)),
    lambda m: m.broadcast_tensors([_t(m, np.ones([1] * 7, "float32")), m.zeros([2] + [1] * 6)]),
    lambda m: m.broadcast_tensors([_t(m, np.ones([1] * 6, "float32")), m.zeros([2] + [1] * 5)]),
])
def test_expand_rank_limits(call):
    _same(call)


@pytest.mark.parametrize("p", ["2", 2, 3.5, float("inf")])
def test_dist_p_types(p):
    _same(lambda m: m.dist(_t(m, [1.0, 2.0]), _t(m, [3.0, 4.0]), p=p))


@pytest.mark.parametrize("shape", [3, 3.0, "ab", None, {2: 3}, "Tf", [2, 3]])
def test_empty_shape_types(shape):
    def call(m):
        s = _t(m, [2.0, 3.0]) if shape == "Tf" else shape
        return list(m.empty(s).shape)
    _same(call)


@pytest.mark.parametrize("shape", [3, 3.0, np.int64(3), "ab", [np.int64(2)], np.array([2, 3]), "Tf", "Ti"])
def test_static_empty_shape_types(shape):
    def build(m):
        s = {"Tf": lambda: _data(m, [2], "float32", "s"), "Ti": lambda: _data(m, [2], "int32", "s")}
        m.empty(s[shape]() if isinstance(shape, str) and shape in s else shape)
    _same(_static(build))


@pytest.mark.parametrize("arg", ["shape", "offsets"])
@pytest.mark.parametrize("value", [2, 2.0, "ab", [1, 1]])
def test_static_crop_argument_types(arg, value):
    _same(_static(lambda m: m.crop(_data(m, [2, 3], "float32"), **{"shape": [1, 1], arg: value})))


def test_static_dstack_uint8():
    _same(_static(lambda m: m.dstack([_data(m, [2], "uint8"), _data(m, [2], "uint8", "y")])))


@pytest.mark.parametrize("uplo", ["X", "l", 1, "U"])
def test_static_eigvalsh_uplo(uplo):
    _same(_static(lambda m: m.eigvalsh(_data(m, [2, 2], "float32"), uplo)))


@pytest.mark.parametrize("loc", ["a", [1.0], [1.0, 2.0], 0.5])
def test_cauchy_loc_types(loc):
    _same(lambda m: list(m.cauchy_(m.zeros([2]), loc=loc).shape))


@pytest.mark.parametrize("mode", ["floor", "trunc", None])
@pytest.mark.parametrize("which", ["x", "y", "int"])
def test_divide_rounding_stop_gradient(mode, which):
    def call(m):
        x = m.to_tensor([1, 2] if which == "int" else [1.0, 2.0], stop_gradient=which == "y")
        y = m.to_tensor([1, 3] if which == "int" else [0.5, 3.0], stop_gradient=which != "y")
        return m.divide(x, y, rounding_mode=mode).stop_gradient
    _same(call)


@pytest.mark.parametrize("api", ["divide_", "bitwise_and_", "equal_", "copysign_", "floor_mod_"])
def test_inplace_binary_missing_y(api):
    _same(lambda m: getattr(_t(m, [1, 2]), api)())


@pytest.mark.parametrize("axis", [1.0, True, 1.7, -1.5, 1])
def test_flip_zero_d_tensor_axis(axis):
    _same(lambda m: m.flip(_t(m, np.arange(6.0).reshape(2, 3)), axis=_t(m, axis)))


@pytest.mark.parametrize("sx,sy,kw", [
    ((0, 3), (3,), {}), ((0,), (), {}), ((2, 3), (0,), {}), ((0,), (0,), dict(rtol=1)),
    ((0,), (0,), dict(rtol=None)), ((0,), (0,), dict(equal_nan=1)), ((2,), (3,), {}),
])
def test_allclose_empty_inputs(sx, sy, kw):
    _same(lambda m: m.allclose(m.ones(sx), m.ones(sy), **kw))


@pytest.mark.parametrize("offset", [1, -1.5, 1.7, True])
def test_diagonal_zero_d_tensor_offset(offset):
    _same(lambda m: m.diagonal(_t(m, np.arange(6.0).reshape(2, 3)), offset=_t(m, offset)))


def test_static_diagonal_value_offset():
    _same(_static(lambda m: m.diagonal(_data(m, [2, 3], "float32"), offset=_data(m, [], "int64", "o"))))
