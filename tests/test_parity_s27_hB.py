"""Differential tests against real Paddle for the top-level APIs from ``frac_`` to ``narrow``,
with cases taken from the situations Paddle's own unit tests exercise."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _both(fn):
    """Run ``fn`` on Paddle and pagaie: both results, or both exception types."""
    out = []
    for lib in (paddle, pagaie):
        try:
            out.append(fn(lib))
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            out.append(type(e))
    return out


def _same(fn):
    a, b = _both(fn)
    if isinstance(a, type) or isinstance(b, type):
        assert a is b, (a, b)
        return
    if isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b)
        pairs = zip(a, b)
    else:
        pairs = [(a, b)]
    for p, q in pairs:
        assert str(p.dtype).split(".")[-1] == str(q.dtype).split(".")[-1]
        assert list(p.shape) == list(q.shape)
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-6, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "bool", "int16"])
@pytest.mark.parametrize("api", ["full", "zeros", "ones"])
def test_full_family_tensor_shape_dtype(api, dtype):
    def fn(P):
        shape = P.to_tensor([2, 3]).astype(dtype)
        return P.full(shape, 1.0) if api == "full" else getattr(P, api)(shape)
    _same(fn)


@pytest.mark.parametrize("case", ["0d_x", "tensor_axis", "numpy_axis", "method_tensor_axis", "ok"])
def test_index_fill_axis_checks(case):
    def fn(P):
        x = P.to_tensor(3.0) if case == "0d_x" else P.ones([3, 4])
        idx = P.to_tensor([0])
        axis = {"tensor_axis": P.to_tensor(1), "method_tensor_axis": P.to_tensor(1),
                "numpy_axis": np.int64(1)}.get(case, 0)
        if case == "method_tensor_axis":
            return x.index_fill(idx, axis, 5.0)
        return P.index_fill(x, idx, axis, 5.0)
    _same(fn)


def _static_error(build):
    """The exception type each library raises while ``build`` adds ops to a program (None: none)."""
    out = []
    for lib in (paddle, pagaie):
        lib.enable_static()
        try:
            with lib.static.program_guard(lib.static.Program(), lib.static.Program()):
                build(lib)
            out.append(None)
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            out.append(type(e))
        finally:
            lib.disable_static()
    assert out[0] is out[1], out


@pytest.mark.parametrize("mask_dtype", ["int32", "bool"])
def test_masked_select_static_mask_dtype(mask_dtype):
    _static_error(lambda P: P.masked_select(P.static.data("x", [3, 4], "float32"),
                                            P.static.data("m", [3, 4], mask_dtype)))


@pytest.mark.parametrize("arg,dtype", [("start", "int8"), ("stop", "bool"), ("num", "float32"),
                                       ("num", "int64"), ("start", "float16")])
def test_linspace_static_input_dtypes(arg, dtype):
    def build(P):
        args = {"start": 0, "stop": 10, "num": 5}
        args[arg] = P.static.data("v", [1], dtype)
        P.linspace(**args)
    _static_error(build)


@pytest.mark.parametrize("length", ["0d_int", "0d_float", "0d_bool", "1d", "neg", "too_long"])
def test_narrow_tensor_length(length):
    def fn(P):
        v = {"0d_int": P.to_tensor(2), "0d_float": P.to_tensor(1.0), "0d_bool": P.to_tensor(True),
             "1d": P.to_tensor([1]), "neg": P.to_tensor(-1), "too_long": P.to_tensor(5)}[length]
        return P.narrow(P.arange(24, dtype="float32").reshape([2, 3, 4]), 1, 1, v)
    _same(fn)


@pytest.mark.parametrize("case", ["tensor_src", "tensor_dst", "tensor_1d", "numpy_src", "numpy_entry",
                                  "tensor_entry", "float_entry", "ints"])
def test_moveaxis_python_int_axes(case):
    def fn(P):
        src, dst = {"tensor_src": (P.to_tensor(0), 1), "tensor_dst": (0, P.to_tensor(1)),
                    "tensor_1d": (P.to_tensor([0]), [1]), "numpy_src": (np.int64(0), 1),
                    "numpy_entry": ([np.int64(0)], [1]), "tensor_entry": ([P.to_tensor(0)], [1]),
                    "float_entry": ([0.0], [1]), "ints": ([0, 1], [2, 0])}[case]
        return P.moveaxis(P.ones([2, 3, 4]), src, dst)
    _same(fn)


@pytest.mark.parametrize("which", ["x", "test_x"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "complex64", "int32"])
def test_isin_static_input_dtypes(which, dtype):
    def build(P):
        x = P.static.data("x", [3], dtype if which == "x" else "int32")
        y = P.static.data("y", [2], dtype if which == "test_x" else "int32")
        P.isin(x, y)
    _static_error(build)


@pytest.mark.parametrize("p", ["int", "float", "numpy", "tensor", "tensor_i32", "tensor_1d", "zero",
                               "half", "tensor_zero", "none", "str"])
def test_multigammaln_p_argument(p):
    def fn(P):
        v = {"int": 2, "float": 2.0, "numpy": np.int64(2), "tensor": P.to_tensor(2),
             "tensor_i32": P.to_tensor(3, dtype="int32"), "tensor_1d": P.to_tensor([2]), "zero": 0,
             "half": 0.5, "tensor_zero": P.to_tensor(0), "none": None, "str": "a"}[p]
        return P.multigammaln(P.to_tensor([2.5, 3.0]), v)
    _same(fn)


@pytest.mark.parametrize("case", ["number_x", "number_y", "keyword_number_x", "reflected"])
def test_mod_number_operand(case):
    def fn(P):
        t = P.to_tensor([1.0, 2.0])
        if case == "number_x":
            return P.mod(2.0, t)
        if case == "keyword_number_x":
            return P.remainder(x=2, y=P.to_tensor([1, 2]))
        if case == "reflected":
            return 3.0 % t
        return P.mod(t, 2.0)
    _same(fn)
