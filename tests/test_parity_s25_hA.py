"""Differential tests against real Paddle: complex promotion of the matmul family and of the
``@`` operator."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _outcome(lib, fn):
    try:
        r = fn(lib)
    except Exception as e:  # noqa: BLE001 - the exception type is what is compared
        return type(e)
    return str(r.dtype).replace("paddle.", ""), tuple(r.shape), r.numpy()


def _same(fn):
    want, got = _outcome(paddle, fn), _outcome(pagaie, fn)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want), (want, got)
        return
    assert not isinstance(got, type), (want, got)
    assert got[:2] == want[:2]
    np.testing.assert_allclose(got[2], want[2], rtol=1e-5)


@pytest.mark.parametrize("a,b", [("int32", "complex64"), ("complex64", "int64"),
                                 ("float16", "complex64"), ("bool", "complex128"),
                                 ("float32", "complex64"), ("complex64", "float64"),
                                 ("int32", "float32")])
def test_matmul_operator_complex_promotion(a, b):
    # `@` promotes a complex Tensor only with float32/float64 (else RuntimeError)
    _same(lambda lib: lib.ones([2, 2], dtype=a) @ lib.ones([2, 2], dtype=b))


@pytest.mark.parametrize("api", ["matmul", "mm", "kron", "inner"])
@pytest.mark.parametrize("a,b", [("int32", "complex64"), ("complex64", "int64"),
                                 ("bool", "complex128"), ("float16", "complex64"),
                                 ("float32", "complex64")])
def test_matmul_family_complex_promotion(api, a, b):
    # the functions: an integer/bool operand with a complex one is ValueError; float16 promotes
    _same(lambda lib: getattr(lib, api)(lib.ones([2, 2], dtype=a), lib.ones([2, 2], dtype=b)))
