"""Differential tests against real Paddle for ``paddle.incubate`` and ``paddle.sparse`` cases
taken from Paddle's own unit tests (round 27)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

_X = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
_FUNCS = {
    "tensor": lambda x: x * x,
    "list": lambda x: [x * x],
    "list2": lambda x: [x * x, x],
    "tuple": lambda x: (x * x,),
}


def _kinds(res):
    return [type(r).__name__ for r in res] + [
        [type(e).__name__ for e in r] if isinstance(r, (list, tuple)) else None for r in res]


@pytest.mark.parametrize("api", ["vjp", "jvp"])
@pytest.mark.parametrize("fname", sorted(_FUNCS))
@pytest.mark.parametrize("as_list", [False, True])
def test_autograd_vjp_jvp_keep_func_output_container(api, fname, as_list):
    out = []
    for m in (paddle, pagaie):
        x = m.to_tensor(_X)
        res = getattr(m.incubate.autograd, api)(_FUNCS[fname], [x] if as_list else x)
        out.append(_kinds(res))
    assert out[0] == out[1]


@pytest.mark.parametrize("api", ["vjp", "jvp"])
def test_autograd_vjp_jvp_func_not_callable(api):
    for m in (paddle, pagaie):
        with pytest.raises(TypeError) as e:
            getattr(m.incubate.autograd, api)(None, m.to_tensor(_X))
        if m is pagaie:
            assert "func" in str(e.value) and "NoneType" in str(e.value)


def _lookahead(m, **kwargs):
    layer = m.nn.Linear(3, 2)
    return m.incubate.optimizer.LookAhead(m.optimizer.SGD(0.1, parameters=layer.parameters()),
                                          **kwargs)


@pytest.mark.parametrize("kwargs", [dict(alpha=1, k=1), dict(alpha=0), dict(k=True),
                                    dict(alpha=1.5), dict(k=1.5), dict(alpha=0.3, k=2)])
def test_lookahead_argument_checks(kwargs):
    out = []
    for m in (paddle, pagaie):
        try:
            opt = _lookahead(m, **kwargs)
            out.append(("ok", opt.k))
        except (TypeError, AssertionError) as e:
            out.append(type(e).__name__)
    assert out[0] == out[1]


@pytest.mark.parametrize("api,kwargs", [
    ("fused_dropout_add", dict(p="a")),
    ("fused_dropout_add", dict(p=None)),
    ("fused_bias_dropout_residual_layer_norm", dict(dropout_rate="a")),
])
def test_fused_dropout_rate_type(api, kwargs):
    for m in (paddle, pagaie):
        x = m.ones([2, 4])
        with pytest.raises(TypeError) as e:
            getattr(m.incubate.nn.functional, api)(x, x, **kwargs)
        if m is pagaie:
            assert api in str(e.value) and next(iter(kwargs)) in str(e.value)


_D = np.array([[0, 1, 0, 2], [0, 0, 3, 0], [4, 5, 0, 0]], "float32")


@pytest.mark.parametrize("shape", [(3, 4), (1, 3, 4)])
@pytest.mark.parametrize("axis", [3, -3, 2, 0, [5]])
def test_sparse_sum_csr_axis_range_checked_first(shape, axis):
    out = []
    for m in (paddle, pagaie):
        x = m.to_tensor(_D.reshape(shape)).to_sparse_csr()
        try:
            m.sparse.sum(x, axis=axis)
            out.append("ok")
        except (ValueError, NotImplementedError) as e:
            out.append(type(e).__name__)
    assert out[0] == out[1]


@pytest.mark.parametrize("case", ["none", "int32"])
def test_fused_rope_bad_q(case):
    out = []
    for m in (paddle, pagaie):
        q = None if case == "none" else m.ones([1, 2, 1, 4], dtype=case)
        with pytest.raises((ValueError, RuntimeError)) as e:
            m.incubate.nn.functional.fused_rotary_position_embedding(q)
        out.append(type(e.value))
    assert out[0] is out[1]
