"""Differential tests against real Paddle for cases taken from Paddle's own unit tests
(``where``, ``reshape``, ``squeeze``/``unsqueeze`` in programs, ...)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _outcome(lib, fn):
    try:
        return fn(lib)
    except Exception as e:  # noqa: BLE001 - the exception type is the outcome compared
        return type(e)


def _static(lib, build):
    """Build ``build(lib)`` in a fresh program; the result's shapes (or the exception type)."""
    lib.enable_static()
    try:
        with lib.static.program_guard(lib.static.Program(), lib.static.Program()):
            out = build(lib)
            outs = out if isinstance(out, (list, tuple)) else [out]
            return [list(v.shape) for v in outs]
    except Exception as e:  # noqa: BLE001
        return type(e)
    finally:
        lib.disable_static()


def _same_error(fn):
    want = _outcome(paddle, fn)
    got = _outcome(pagaie, fn)
    assert isinstance(want, type) and issubclass(want, Exception), want
    assert isinstance(got, type) and issubclass(got, want), (got, want)


@pytest.mark.parametrize("case", ["numpy_cond", "int_cond_bad_operands", "numpy_shape"])
def test_program_argument_type_errors(case):
    def build(lib):
        if case == "numpy_cond":
            return lib.where(np.array([True, False]), lib.static.data("x", [2], "float32"),
                             lib.static.data("y", [2], "float32"))
        if case == "int_cond_bad_operands":
            return lib.where(lib.static.data("c", [-1, 4], "int32"),
                             lib.static.data("x", [-1, 4], "bool"),
                             lib.static.data("y", [-1, 4], "float16"))
        return lib.reshape(lib.static.data("x", [2, 3, 4], "float32"), np.array([6, 4]))
    want = _static(paddle, build)
    assert want is TypeError
    assert _static(pagaie, build) is TypeError


@pytest.mark.parametrize("shape,axis", [([-1, 3], 0), ([-1, 3], [0, 1]), ([2, -1, 1], -2),
                                        ([-1, 1, -1], [0, 1]), ([-1, 3], 1), ([-1, 1], None)])
def test_squeeze_program_unknown_sizes(shape, axis):
    def build(lib):
        return lib.squeeze(lib.static.data("x", shape, "float32"), axis)
    assert _static(pagaie, build) == _static(paddle, build)


@pytest.mark.parametrize("elem", [False, True])
def test_unsqueeze_program_symbolic_axis(elem):
    def build(lib):
        a = lib.static.data("a", [1], "int32")
        return lib.unsqueeze(lib.static.data("x", [1, 3], "float32"), [a, 0] if elem else a)
    assert _static(pagaie, build) == _static(paddle, build)


def test_where_eager_errors_unchanged():
    _same_error(lambda L: L.where(np.array([True]), np.ones(1), np.ones(1)))
    _same_error(lambda L: L.where(L.to_tensor([1, 0]), L.ones([2]), L.zeros([2])))


def _values(lib, fn):
    out = fn(lib)
    return out.numpy() if not isinstance(out, type) else out


@pytest.mark.parametrize("case", ["squeeze", "unsqueeze", "roll_axis", "roll_both", "transpose",
                                  "permute", "tensor_permute"])
def test_int_array_arguments(case):
    calls = {
        "squeeze": lambda L: L.squeeze(L.ones([1, 3, 1]), np.array([0, 2])),
        "unsqueeze": lambda L: L.unsqueeze(L.ones([2, 3]), np.array([0, 2])),
        "roll_axis": lambda L: L.roll(L.arange(6).reshape([2, 3]), 1, axis=np.array([1])),
        "roll_both": lambda L: L.roll(L.arange(6).reshape([2, 3]), np.array([1, 2]),
                                      axis=np.array([0, 1])),
        "transpose": lambda L: L.transpose(L.arange(6).reshape([1, 2, 3]), np.array([2, 0, 1])),
        "permute": lambda L: L.permute(L.arange(6).reshape([1, 2, 3]), np.array([2, 0, 1])),
        "tensor_permute": lambda L: L.arange(6).reshape([2, 3]).transpose(np.array([1, 0])),
    }
    want = _values(paddle, calls[case])
    got = _values(pagaie, calls[case])
    np.testing.assert_array_equal(got, want)
    assert got.shape == want.shape


@pytest.mark.parametrize("case", ["squeeze", "transpose", "roll", "tile", "rot90"])
def test_program_int_array_arguments(case):
    def build(lib):
        x = lib.static.data("x", [1, 3, 4], "float32")
        return {
            "squeeze": lambda: lib.squeeze(x, np.array([0])),
            "transpose": lambda: lib.transpose(x, np.array([2, 0, 1])),
            "roll": lambda: lib.roll(x, np.array([1]), axis=np.array([2])),
            "tile": lambda: lib.tile(x, np.array([2, 1, 1])),        # TypeError in a program
            "rot90": lambda: lib.rot90(x, 1, np.array([1, 2])),      # TypeError in a program
        }[case]()
    assert _static(pagaie, build) == _static(paddle, build)


@pytest.mark.parametrize("case", ["int_base", "float_base", "static_int_base"])
def test_pow_base_must_be_tensor(case):
    def call(lib):
        if case == "static_int_base":
            return _static(lib, lambda L: L.pow(2, L.static.data("x", [2], "float32")))
        return lib.pow(2 if case == "int_base" else 2.0, lib.to_tensor([1.0, 2.0]))
    want = _outcome(paddle, call)
    assert want in (ValueError, TypeError)
    assert _outcome(pagaie, call) is want


@pytest.mark.parametrize("base", [2, 2.5])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_rpow_number_base_still_works(base, dtype):
    def call(lib):
        return base ** lib.to_tensor([1, 0], dtype=dtype)
    want = _outcome(paddle, call)
    got = _outcome(pagaie, call)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want)
    else:
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
        np.testing.assert_allclose(got.numpy(), want.numpy())


@pytest.mark.parametrize("name", ["sin_", "tanh_", "square_", "tril_", "pow_", "polygamma_",
                                  "neg_", "subtract_", "not_equal_", "squeeze_", "unsqueeze_",
                                  "transpose_", "reshape_", "t_"])
@pytest.mark.parametrize("value", [[1.0], 2])
def test_inplace_non_tensor_x(name, value):
    second = {"pow_": 2, "polygamma_": 1, "squeeze_": 0, "unsqueeze_": 0, "transpose_": [0],
              "reshape_": [1], "tril_": 0}

    def call(lib):
        fn = getattr(lib, name)
        if name in ("sin_", "tanh_", "square_", "neg_", "t_"):
            return fn(value)
        if name in second:
            return fn(value, second[name])
        return fn(value, lib.to_tensor([1.0]))
    want = _outcome(paddle, call)
    assert isinstance(want, type) and want is not TypeError
    got = _outcome(pagaie, call)
    assert isinstance(got, type) and issubclass(got, want), (got, want)


def test_use_compat_guard_is_the_proxy_guard():
    assert paddle.use_compat_guard is paddle.compat.proxy.use_torch_proxy_guard
    assert pagaie.use_compat_guard is pagaie.compat.use_torch_proxy_guard
    with pagaie.use_compat_guard(enable=False):
        assert float(pagaie.ones([1]).sum()) == 1.0


@pytest.mark.parametrize("shapes,axis", [([[-1, 3, 4], [2, -1, 4]], 1),
                                         ([[-1, 3], [2, -1], [-1, -1]], -1),
                                         ([[-1, 3, 4], [2, -1, 5]], 0)])
def test_stack_program_unknown_sizes_at_different_axes(shapes, axis):
    def build(lib):
        return lib.stack([lib.static.data(f"x{i}", s, "float32") for i, s in enumerate(shapes)],
                         axis)
    assert _static(pagaie, build) == _static(paddle, build)


@pytest.mark.parametrize("value", [10, 10.5, True, "array"])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("inplace", [False, True])
def test_put_along_axis_data_values_without_broadcast(value, dtype, inplace):
    def call(lib):
        x = lib.zeros([3, 5], dtype)
        idx = lib.to_tensor([[0, 1, 2], [0, 1, 4]])
        v = np.full((2, 3), 7.0) if value == "array" else value
        if inplace:
            return x.put_along_axis_(idx, v, 1, "assign", True, False)
        return lib.put_along_axis(x, idx, v, 1, "add", True, False)
    want = _outcome(paddle, call)
    got = _outcome(pagaie, call)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_array_equal(got.numpy(), want.numpy())
