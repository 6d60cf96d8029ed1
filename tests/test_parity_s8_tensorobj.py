"""Session-8 parity sweep of the tensor object: printing, to_tensor, dtypes and places,
compared with real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

_DEFAULT_PRINT = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


@pytest.fixture(autouse=True)
def _restore_global_state():
    yield
    pagaie.set_printoptions(**_DEFAULT_PRINT)
    pagaie.set_default_dtype("float32")
    ref = paddle_ref()
    ref.set_printoptions(**_DEFAULT_PRINT)
    ref.set_default_dtype("float32")


# ---- printing -----------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    # a negative zero real part is not negative: no sign column; a negative zero imaginary part
    # prints as '+-0.', a NaN one with no sign
    [0j, complex(-0.0, 0.0)], [complex(-0.0, 0.0), 0j],
    [complex(1, -0.0), complex(-0.0, -0.0), 2 - 1j], [complex(1, float("nan")), 1 - 1j],
    [-1j, 1 + 1j],                      # numpy orders complex values lexicographically:
    [-1j, -1 + 1j, 2.5 + 0j],           # a zero real part with a negative imaginary one is negative
    [complex("nan-1j"), 1 + 0j],
])
def test_complex_sign_padding(data):
    for dt in ("complex64", "complex128"):
        ours, theirs = both(lambda P: str(P.to_tensor(np.array(data), dtype=dt)))
        assert ours == theirs


@pytest.mark.parametrize("dt", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_prints_as_float32(dt):
    ours, theirs = both(lambda P: str(P.cast(P.to_tensor([1.5, -2.0, 300.0]), dt)))
    assert ours == theirs


@pytest.mark.parametrize("opts", [dict(precision=2.0), dict(threshold="a"), dict(linewidth=2.5),
                                  dict(edgeitems=[3]), dict(sci_mode="yes")])
def test_set_printoptions_bad_type(opts):
    err = same_exception(lambda P: P.set_printoptions(**opts))
    assert "set_printoptions" in str(err) and next(iter(opts)) in str(err)
    assert isinstance(err, TypeError)  # also a TypeError, which it is


def test_set_printoptions_good_types():
    x = [1.123456789, -2.5, 3e-7, 12345.0]
    for opts in (dict(precision=np.int64(3)), dict(sci_mode=np.bool_(True)), dict(threshold=2, edgeitems=1)):
        ours, theirs = both(lambda P: (P.set_printoptions(**opts), str(P.to_tensor(x)))[1])
        assert ours == theirs


# ---- to_tensor and friends: dtype checking ----------------------------------------------------

@pytest.mark.parametrize("dt", ["float", "int", "double", "half", "long", float, int, complex, "xx", 5])
@pytest.mark.parametrize("api", ["to_tensor", "tensor"])
def test_to_tensor_rejects_numpy_aliases(api, dt):
    err = same_exception(lambda P: getattr(P, api)([1.5, 2.0], dtype=dt))
    assert "dtype" in str(err)


@pytest.mark.parametrize("dt", ["float", "int"])
def test_strict_dtype_in_empty_as_tensor_asarray(dt):
    same_exception(lambda P: P.empty([2], dtype=dt))
    same_exception(lambda P: P.empty_like(P.to_tensor([1.0]), dtype=dt))
    same_exception(lambda P: P.as_tensor([1.0], dtype=dt))
    same_exception(lambda P: P.asarray([1.0], dtype=dt))


@pytest.mark.parametrize("dt", ["float", "int", "double"])
def test_numpy_aliases_still_work_elsewhere(dt):
    for fn in (lambda P: P.zeros([2], dtype=dt), lambda P: P.to_tensor([1.5]).astype(dt),
               lambda P: P.full_like(P.to_tensor([1.5]), 2, dtype=dt)):
        assert_same(*both(fn))


@pytest.mark.parametrize("dt", ["float32", np.float64, np.dtype("int32"), "bfloat16", bool, "uint8",
                                np.dtype("bool")])
def test_to_tensor_accepted_dtypes(dt):
    ours, theirs = both(lambda P: P.to_tensor([1.5, 0.0], dtype=dt))
    assert str(ours.dtype) == str(theirs.dtype)


def test_uint16_name_means_bfloat16():
    # the name 'uint16' (and numpy's uint16) is bfloat16 in Paddle; paddle.uint16 itself is not
    for fn in (lambda P: P.to_tensor([1.5, 2.0], dtype="uint16"),
               lambda P: P.to_tensor([1.5, 2.0]).astype("uint16"),
               lambda P: P.to_tensor([1.5, 2.0]).astype(np.uint16),
               lambda P: P.zeros([2], dtype="uint16"),
               lambda P: P.cast(P.to_tensor([1.5, 2.0]), P.uint16)):
        ours, theirs = both(fn)
        assert repr(ours.dtype) == repr(theirs.dtype)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_numpy_uint16_bits_kept_with_bfloat16_dtype():
    bits = np.array([16320, 49216], dtype=np.uint16)  # 1.5, -3.0
    for dt in ("bfloat16", "uint16"):
        ours, theirs = both(lambda P: P.to_tensor(bits, dtype=dt))
        assert repr(ours.dtype) == repr(theirs.dtype)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


# ---- set_default_dtype ------------------------------------------------------------------------

@pytest.mark.parametrize("d", ["float", "uint16", None, "int32", np.int32, "xx", 5])
def test_set_default_dtype_rejects(d):
    same_exception(lambda P: P.set_default_dtype(d))
    assert pagaie.get_default_dtype() == "float32"


@pytest.mark.parametrize("d", ["float64", np.float64, np.dtype("float16"), "bfloat16"])
def test_set_default_dtype_accepts(d):
    ours, theirs = both(lambda P: (P.set_default_dtype(d), P.get_default_dtype())[1])
    assert ours == theirs


def test_default_float64_leaves_kernel_promotion_float32():
    def fn(P):
        P.set_default_dtype("float64")
        a = P.to_tensor([1, 2, 3])
        return [a * 1.5, a / 2, a / a, P.hypot(a, a), P.logaddexp(a, a), P.to_tensor([True]) - 1.5,
                P.to_tensor(1.5), P.zeros([2]), P.arange(0, 1, 0.5), P.linspace(0, 1, 3)]
    assert_same(*both(fn))


# ---- iinfo / finfo ----------------------------------------------------------------------------

@pytest.mark.parametrize("d", ["float16", "bfloat16", "float32", "float64", "complex64", "complex128",
                               "uint16", "float8_e4m3fn"])
def test_finfo(d):
    ours, theirs = both(lambda P: P.finfo(d))
    assert repr(ours) == repr(theirs)
    for k in ("min", "max", "eps", "tiny", "smallest_normal", "resolution", "bits", "dtype"):
        assert getattr(ours, k) == getattr(theirs, k), k


@pytest.mark.parametrize("d", ["int32", "bool", "uint16-object"])
def test_finfo_rejects(d):
    same_exception(lambda P: P.finfo(P.uint16 if d == "uint16-object" else d))


@pytest.mark.parametrize("d", ["bool", "float32", "uint16", "complex64"])
def test_iinfo_rejects(d):
    err = same_exception(lambda P: P.iinfo(d))
    assert "paddle.iinfo" in str(err)


@pytest.mark.parametrize("d", ["int8", "uint8", "int64"])
def test_iinfo(d):
    ours, theirs = both(lambda P: P.iinfo(d))
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("dt", ["fp16", "bf16", "fp32"])
def test_short_dtype_names_rejected(dt):
    for fn in (lambda P: P.zeros([2], dtype=dt), lambda P: P.to_tensor([1.5]).astype(dt),
               lambda P: P.cast(P.to_tensor([1.5]), dt)):
        same_exception(fn)


# ---- paddle.Tensor(...) and the bit-pattern conversions (pagaie/_core/tensor.py) ------------

@pytest.mark.parametrize("make", [
    lambda P: P.Tensor(-1), lambda P: P.Tensor(2, -3), lambda P: P.Tensor(True),
    lambda P: P.Tensor(np.float32(2.0)), lambda P: P.Tensor(np.int32(3)), lambda P: P.Tensor(None),
    lambda P: P.Tensor([None]), lambda P: P.Tensor(["a"]), lambda P: P.Tensor("abc"),
], ids=["neg", "neg2", "bool", "np_float", "np_int", "none", "list_none", "list_str", "str"])
def test_tensor_constructor_bad_data_errors(make):
    same_exception(make)


@pytest.mark.parametrize("make", [
    lambda P: P.Tensor(), lambda P: P.Tensor(0, 3), lambda P: P.Tensor([True, False]),
    lambda P: P.Tensor([[1, 2], [3, 4]]), lambda P: P.Tensor(np.arange(3, dtype="int32")),
], ids=["empty", "zero_dim", "bools", "nested", "ndarray"])
def test_tensor_constructor_good_data(make):
    ours, theirs = both(make)
    assert_same(ours, theirs)


def test_tensor_constructor_complex_list_raises():
    # Paddle drops the imaginary parts silently; pagaie refuses them, naming the API
    with pytest.raises(TypeError, match="paddle.Tensor"):
        pagaie.Tensor([1, 2 + 1j])


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_numpy_and_tolist_give_bit_patterns(dtype):
    ours, theirs = both(lambda P: P.cast(P.to_tensor([1.5, -2.0, 300.0]), dtype))
    a, b = ours.numpy(), theirs.numpy()
    assert a.dtype == b.dtype == np.int8 and a.tolist() == b.tolist()
    assert ours.tolist() == theirs.tolist()


def test_bfloat16_tolist_gives_bit_patterns():
    ours, theirs = both(lambda P: P.to_tensor([[1.5, -2.0]], dtype="bfloat16"))
    assert ours.tolist() == theirs.tolist() == [[16320, 49152]]
    o0, t0 = both(lambda P: P.to_tensor(1.5, dtype="bfloat16"))
    assert o0.tolist() == t0.tolist() and o0.item() == t0.item() == 1.5


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_ldexp_of_ints_follows_the_default_float(default):
    def run(P):
        P.set_default_dtype(default)
        return P.ldexp(P.to_tensor([1, 2]), P.to_tensor([1, 2]))
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_type_of_tensor_and_parameter_print_as_paddle():
    ours, theirs = both(lambda P: (P.to_tensor([1.0]), P.nn.Linear(2, 2).weight))
    assert [repr(type(v)) for v in ours] == [repr(type(v)) for v in theirs]


_NAMES_SCRIPT = r'''
import sys, importlib, numpy as np
paddle = importlib.import_module(sys.argv[1])
def nxt(tag): print(tag, paddle.to_tensor(0.).name)
nxt('start')
a = paddle.Tensor(); print('empty', a.name); nxt('after')
a = paddle.Tensor(2, 3); print('dims', a.name); nxt('after')
a = paddle.Tensor(np.ones(2, 'float32')); print('np', a.name); nxt('after')
a = paddle.Tensor([1.0, 2.0]); print('list', a.name); nxt('after')
t = paddle.ones([2]); a = paddle.Tensor(t); print('tensor', a.name); nxt('after')
a = paddle.as_tensor(t); print('as_tensor', a.name); nxt('after')
a = paddle.asarray([1.0]); print('asarray', a.name); nxt('after')
a = t.detach(); print('detach', a.name); nxt('after')
a = paddle.to_tensor([1.0], stop_gradient=False); print('sg', a.name); nxt('after')
b = a * 2; c = a + 1; print(c.name, b.name, paddle.to_tensor(b).name)
paddle.enable_static(); paddle.disable_static()
print(paddle.ones([1]).name, paddle.to_tensor(1.0).name)
'''


def test_tensor_names_follow_paddles_counters():
    # made from data: generated_tensor_N at creation (detach: eager_in_tmp_N, same counter);
    # op results: eager_tmp_N when first asked, from their own counter (fresh processes)
    import subprocess
    import sys
    paddle_ref()
    out = {}
    for fw in ("paddle", "pagaie"):
        r = subprocess.run([sys.executable, "-c", _NAMES_SCRIPT, fw], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr[-2000:]
        out[fw] = r.stdout
    assert out["pagaie"] == out["paddle"]
