"""Session-10 sweep: printed forms of tensors (str/repr, ``set_printoptions``, ``__format__``)
and numpy interop (``np.array``, ``numpy``, ``tolist``, ``item``, scalar conversions),
compared character for character with real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception

_DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
_DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32", "int64",
           "bool", "complex64", "complex128"]


@pytest.fixture(autouse=True)
def _reset_options():
    yield
    pagaie.set_printoptions(**_DEFAULTS)
    try:
        import paddle
        paddle.set_printoptions(**_DEFAULTS)
    except ImportError:
        pass


def _text(P, fn, options=None):
    """``fn(P)`` as text (or the exception's type), printed under ``options``, reset after."""
    try:
        if options:
            P.set_printoptions(**options)
        out = fn(P)
        return out if isinstance(out, str) else repr(out)
    except Exception as exc:  # noqa: BLE001
        return f"raised {type(exc).__name__}"
    finally:
        P.set_printoptions(**_DEFAULTS)


def _same_text(fn, options=None):
    ref = paddle_ref()
    theirs = _text(ref, fn, options)
    ours = _text(pagaie, fn, options)
    assert ours == theirs, f"\npagaie:\n{ours}\nPaddle:\n{theirs}"


def _values(rng, shape, kind):
    n = int(np.prod(shape))
    if kind == "small":
        v = rng.standard_normal(n)
    elif kind == "tiny":
        v = rng.standard_normal(n) * 1e-9
    elif kind == "huge":
        v = rng.standard_normal(n) * 1e12
    elif kind == "mixed":
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12, n)
    elif kind == "ints":
        v = rng.integers(-100, 100, n).astype(float)
    else:  # special values mixed in
        v = rng.standard_normal(n)
        if n:
            k = max(1, n // 3)
            v[rng.integers(0, n, k)] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], k)
    return v.reshape(shape)


def _array(rng, dtype, shape, kind):
    v = _values(rng, shape, kind)
    if dtype.startswith("complex"):
        v = v + 1j * _values(rng, shape, kind)
    if dtype == "bool":
        return v > 0
    if dtype.startswith(("int", "uint")):
        v = np.nan_to_num(v, nan=0, posinf=100, neginf=-100)
        info = np.iinfo(dtype)
        return np.clip(np.round(v), info.min, info.max).astype(dtype)
    return v.astype("float32" if dtype in ("float16", "bfloat16") else dtype)


_OPTIONS = [{}, dict(precision=3), dict(precision=0), dict(threshold=5), dict(edgeitems=1, threshold=5),
            dict(edgeitems=0, threshold=3), dict(sci_mode=True), dict(linewidth=30),
            dict(linewidth=200, precision=2, sci_mode=True), dict(threshold=0),
            dict(threshold=2, edgeitems=2, linewidth=25)]


def _random_cases(seed, count):
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        nd = int(rng.integers(0, 5))
        shape = [int(s) for s in rng.integers(0, 6 if nd > 1 else 30, nd)]
        if nd and rng.random() < 0.1:
            shape[0] = int(rng.integers(300, 1100))   # summarised with '...'
        dtype = _DTYPES[int(rng.integers(len(_DTYPES)))]
        kind = ["small", "tiny", "huge", "mixed", "ints", "special"][int(rng.integers(6))]
        grad = bool(rng.random() < 0.3) and dtype.startswith(("float", "bfloat", "complex"))
        cases.append((_array(rng, dtype, shape, kind), dtype, grad, _OPTIONS[int(rng.integers(len(_OPTIONS)))]))
    return cases


@pytest.mark.parametrize("case", _random_cases(2024, 60), ids=lambda c: f"{c[1]}-{list(c[0].shape)}")
def test_random_tensor_str_matches_paddle(case):
    a, dtype, grad, options = case

    def f(P):
        t = P.to_tensor(a, dtype=dtype, stop_gradient=not grad)
        return str(t) + "\n" + repr(t)
    _same_text(f, options)


@pytest.mark.parametrize("label,fn", [
    ("neg_zero", lambda P: str(P.to_tensor([-0.0, 0.0, 1.5]))),
    ("subnormal", lambda P: str(P.to_tensor([1e-45, -1e-40, 3.0]))),
    ("f16_max", lambda P: str(P.to_tensor([65504.0, -6e-8, 0.1], dtype="float16"))),
    ("f64_1e300", lambda P: str(P.to_tensor([1e300, 1.0], dtype="float64"))),
    ("i64_extremes", lambda P: str(P.to_tensor([np.iinfo(np.int64).min, np.iinfo(np.int64).max]))),
    ("c128_nan_negzero", lambda P: str(P.to_tensor([complex(np.nan, np.nan), complex(-0.0, -0.0),
                                                    complex(1, -0.0)]))),
    ("bool_summarised", lambda P: str(P.to_tensor(np.arange(2000) % 3 == 0))),
    ("u8_summarised", lambda P: str(P.to_tensor(np.arange(2000) % 256, dtype="uint8"))),
    ("empty_3d", lambda P: str(P.to_tensor(np.zeros([3, 0, 2], "int32")))),
    ("float8_e4m3fn", lambda P: str(P.to_tensor([1.0, -0.5, 3.3]).astype("float8_e4m3fn"))),
    ("float8_e5m2", lambda P: str(P.to_tensor([1.0, -0.5, 3.3]).astype("float8_e5m2"))),
    ("cpu_place", lambda P: str(P.to_tensor([1.0], place=P.CPUPlace()))),
    ("cpu_place_str", lambda P: str(P.to_tensor([1.0], place="cpu"))),
    ("grad", lambda P: (lambda x: ((x * x).sum().backward(), str(x.grad))[1])(
        P.to_tensor([1.0, -2.0], stop_gradient=False))),
    ("not_initialised", lambda P: str(P.Tensor())),
    ("list_of_tensors", lambda P: repr([P.to_tensor([1.0]), P.to_tensor(2)])),
    ("nested_containers", lambda P: str([[P.to_tensor(1)], (P.to_tensor([2.0]),), {"a": P.to_tensor(True)}])),
])
def test_special_printed_forms(label, fn):
    _same_text(fn)


def _param(P, shape=(2,), dtype="float32", value=1.5):
    return P.create_parameter(list(shape), dtype, default_initializer=P.nn.initializer.Constant(value))


@pytest.mark.parametrize("label,fn", [
    ("str", lambda P: str(_param(P))),
    ("repr", lambda P: repr(_param(P))),
    ("0d", lambda P: str(_param(P, ()))),
    ("int", lambda P: str(_param(P, dtype="int64", value=1))),
    ("stop_gradient_true", lambda P: (lambda p: (setattr(p, "stop_gradient", True), str(p))[1])(_param(P))),
    ("in_list", lambda P: repr([_param(P, (1,))])),
    ("slice_is_tensor", lambda P: str(_param(P)[0])),
    ("detach_is_tensor", lambda P: str(_param(P).detach())),
    ("linear_weight", lambda P: str(P.nn.Linear(2, 2, weight_attr=P.ParamAttr(
        initializer=P.nn.initializer.Constant(0.25))).weight)),
    ("format_0d", lambda P: format(_param(P, ()), ".3f")),
])
def test_parameter_printed_forms(label, fn):
    _same_text(fn)


_DENSE = np.array([[0, 1.5, 0], [-2.25, 0, 3]], "float32")
_BATCH = np.arange(1.0, 25.0).reshape(2, 3, 4)
_BATCH[0, 0, 0] = 0
_BATCH[1, 2, 3] = 0


@pytest.mark.parametrize("label,fn,options", [
    *[(f"coo_{dt}", (lambda dt: lambda P: str(P.to_tensor(_DENSE, dtype=dt).to_sparse_coo(2)))(dt), None)
      for dt in ("float32", "float64", "int64", "int32", "float16", "complex64", "uint8", "int8")],
    *[(f"csr_{dt}", (lambda dt: lambda P: str(P.to_tensor(_DENSE, dtype=dt).to_sparse_csr()))(dt), None)
      for dt in ("float32", "float64", "int64", "float16", "complex64")],
    ("coo_stop_gradient_false", lambda P: (lambda s: (setattr(s, "stop_gradient", False), str(s))[1])(
        P.to_tensor(_DENSE).to_sparse_coo(2)), None),
    ("coo_sparse_dim_1", lambda P: str(P.to_tensor(_DENSE).to_sparse_coo(1)), None),
    ("coo_3d", lambda P: str(P.to_tensor(_BATCH - 5).to_sparse_coo(3)), None),
    ("csr_3d", lambda P: str(P.to_tensor(-_BATCH, dtype="float32").to_sparse_csr()), None),
    ("coo_empty", lambda P: str(P.to_tensor(np.zeros([2, 3], "float32")).to_sparse_coo(2)), None),
    ("coo_api", lambda P: str(P.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [1.0, -2.0], [3, 3])), None),
    ("csr_api", lambda P: str(P.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], [2, 2])), None),
    ("coo_sci", lambda P: str(P.to_tensor(_DENSE).to_sparse_coo(2)), dict(sci_mode=True, precision=2)),
    ("coo_linewidth", lambda P: str(P.to_tensor(np.eye(12, dtype="float32")).to_sparse_coo(2)), dict(linewidth=20)),
    ("coo_threshold", lambda P: str(P.to_tensor(np.eye(12, dtype="float32")).to_sparse_coo(2)), dict(threshold=4)),
    ("csr_long", lambda P: str(P.to_tensor(np.eye(40)).to_sparse_csr()), None),
])
def test_sparse_printed_forms(label, fn, options):
    _same_text(fn, options)


_VEC = [1.25, -3.0, 1e-3, 5.0, 6.0, 7.0, 8.0]


@pytest.mark.parametrize("options", [
    dict(precision=np.int64(3)), dict(threshold=np.int32(5)), dict(sci_mode=1), dict(sci_mode=0.0),
    dict(sci_mode=np.bool_(True)), dict(sci_mode=np.int64(0)), dict(linewidth=-1), dict(linewidth=0),
    dict(precision=20), dict(edgeitems=10, threshold=2), dict(threshold=-1), dict(sci_mode=None),
], ids=repr)
def test_set_printoptions_unusual_values(options):
    _same_text(lambda P: str(P.to_tensor(_VEC)) + str(P.to_tensor(1.5)), options)


def test_set_printoptions_positional_and_return_value():
    def f(P):
        r = P.set_printoptions(4, 2, 1, True, 50)
        return f"{r}\n{P.to_tensor(_VEC)}"
    _same_text(f)


def test_set_printoptions_persist_until_reset():
    def f(P):
        P.set_printoptions(precision=2)
        P.set_printoptions(sci_mode=True)      # earlier settings stay
        first = str(P.to_tensor(_VEC))
        P.set_printoptions(**_DEFAULTS)
        return first + "\n" + str(P.to_tensor(_VEC))
    _same_text(f)


@pytest.mark.parametrize("key,value", [
    ("precision", 1.5), ("precision", "3"), ("threshold", [1]), ("edgeitems", 1.5), ("linewidth", "3"),
    ("sci_mode", "3"), ("sci_mode", [1]),
])
def test_set_printoptions_bad_type(key, value):
    same_exception(lambda P: P.set_printoptions(**{key: value}))
    # a rejected call changes nothing in pagaie
    assert str(pagaie.to_tensor([1.25])).endswith("[1.25000000])")


@pytest.mark.parametrize("value,dtype", [(1.5, "float32"), (3, "int64"), (True, "bool"), (1 + 2j, "complex64"),
                                         (2.5, "float16"), (2.5, "bfloat16"), (float("nan"), "float32")])
@pytest.mark.parametrize("spec", ["", ".2f", "10.3f", "e", ">8", "d", ".3"])
def test_format_of_0d_tensor(value, dtype, spec):
    _same_text(lambda P: format(P.to_tensor(value, dtype=dtype), spec))


@pytest.mark.parametrize("label,fn", [
    ("1d_empty_spec", lambda P: format(P.to_tensor([1.0]), "")),
    ("1d_fstring", lambda P: f"{P.to_tensor([1.0, 2.0])}"),
    ("0d_conversion_r", lambda P: f"{P.to_tensor(1.5)!r}"),
    ("percent_s", lambda P: "%s" % (P.to_tensor([1.0]),)),
    ("percent_f_0d", lambda P: "%.2f" % P.to_tensor(1.0)),
    ("percent_d_0d", lambda P: "%d" % P.to_tensor(3)),
])
def test_format_other_forms(label, fn):
    _same_text(fn)


@pytest.mark.parametrize("spec", [".2f", "s"])
def test_format_of_nd_tensor_with_spec_raises(spec):
    same_exception(lambda P: format(P.to_tensor([[1.0]]), spec))


def _np_summary(a):
    return (type(a).__name__, str(a.dtype), a.shape, a.tolist())


@pytest.mark.parametrize("dtype", _DTYPES)
def test_numpy_interop_per_dtype(dtype):
    v = True if dtype == "bool" else 1

    def f(P):
        t, z = P.to_tensor([v, 0], dtype=dtype), P.to_tensor(v, dtype=dtype)
        out = [_np_summary(np.array(t)), _np_summary(t.numpy()), _np_summary(z.numpy()),
               _np_summary(t.__array__("float64")), _np_summary(np.asarray(t, dtype="int32"))]
        lst, s = t.tolist(), z.tolist()
        out += [lst, [type(e).__name__ for e in lst], s, type(s).__name__]
        it, it2 = z.item(), P.to_tensor([[v, 0]], dtype=dtype).item(0, 1)
        out += [it, type(it).__name__, it2, type(it2).__name__]
        return repr(out)
    _same_text(f)


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("conv", ["float", "int", "bool", "complex", "index"])
def test_scalar_conversions(dtype, conv):
    v = True if dtype == "bool" else 1
    fn = {"float": float, "int": int, "bool": bool, "complex": complex,
          "index": lambda t: [10, 20, 30][t]}[conv]
    _same_text(lambda P: repr(fn(P.to_tensor(v, dtype=dtype))))          # 0-D: converts
    one = lambda P: fn(P.to_tensor([v], dtype=dtype))                    # noqa: E731
    if conv == "bool":
        _same_text(lambda P: repr(one(P)))
    else:                                                                 # 1-element 1-D: TypeError
        same_exception(one)


@pytest.mark.parametrize("label,fn", [
    ("len_0d", lambda P: len(P.to_tensor(1.0))),
    ("iter_0d", lambda P: list(P.to_tensor(1.0))),
    ("bool_2_elements", lambda P: bool(P.to_tensor([1, 2]))),
    ("bool_0_size", lambda P: bool(P.to_tensor(np.zeros([0])))),
    ("float_2_elements", lambda P: float(P.to_tensor([1.0, 2.0]))),
    ("int_0_size", lambda P: int(P.to_tensor(np.zeros([0])))),
    ("item_2_elements", lambda P: P.to_tensor([1.0, 2.0]).item()),
    ("item_out_of_range", lambda P: P.to_tensor([1.0, 2.0]).item(5)),
    ("item_too_many_indices", lambda P: P.to_tensor([1.0, 2.0]).item(0, 1)),
    ("item_0_size", lambda P: P.to_tensor(np.zeros([0])).item()),
    ("int_nan", lambda P: int(P.to_tensor(float("nan")))),
    ("int_inf", lambda P: int(P.to_tensor(float("inf")))),
    ("float_complex", lambda P: float(P.to_tensor(2.5 + 1j))),
])
def test_conversion_errors(label, fn):
    same_exception(fn)


@pytest.mark.parametrize("label,fn", [
    ("len_0_size", lambda P: len(P.to_tensor(np.zeros([0, 3])))),
    ("len_parameter", lambda P: len(_param(P, (4, 2)))),
    ("np_array_list_of_0d", lambda P: _np_summary(np.array([P.to_tensor(1.0), P.to_tensor(2.0)]))),
    ("np_array_list_of_1d", lambda P: _np_summary(np.array([P.to_tensor([1.0]), P.to_tensor([2.0])]))),
    ("np_array_0d_bf16", lambda P: _np_summary(np.array(P.to_tensor(1.5, dtype="bfloat16")))),
    ("np_array_bf16_as_f32", lambda P: _np_summary(np.array(P.to_tensor([1.5], dtype="bfloat16"),
                                                            dtype="float32"))),
    ("np_array_object", lambda P: _np_summary(np.array(P.to_tensor([1.5]), dtype=object))),
    ("array_copy_kw", lambda P: _np_summary(P.to_tensor([1.5]).__array__(copy=True))),
    ("array_numpy_dtype", lambda P: _np_summary(P.to_tensor([1.5]).__array__(np.int8))),
    ("np_index_by_0d", lambda P: int(np.arange(5)[P.to_tensor(2)])),
    ("range_of_0d", lambda P: list(range(P.to_tensor(3)))),
    ("round_0d", lambda P: round(P.to_tensor(1.6))),
    ("hex_0d", lambda P: hex(P.to_tensor(17))),
    ("item_bf16", lambda P: P.to_tensor([1.0, -0.5, 3.3]).astype("bfloat16").item(2)),
    ("tolist_bf16", lambda P: P.to_tensor([[1.5, 2.5]], dtype="bfloat16").tolist()),
    ("float_bf16_0d", lambda P: float(P.to_tensor(3.3).astype("bfloat16"))),
    ("item_complex64", lambda P: P.to_tensor(1.1 + 2j, dtype="complex64").item()),
    ("tolist_0_size", lambda P: P.to_tensor(np.zeros([2, 0])).tolist()),
    ("bool_of_1j", lambda P: bool(P.to_tensor(1j))),
])
def test_numpy_interop_misc(label, fn):
    _same_text(lambda P: repr(fn(P)))
