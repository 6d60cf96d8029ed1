"""paddle.nn.attention: SDPBackend and sdpa_kernel (vs real Paddle)."""
import numpy as np
import pytest

import pagaie
from pagaie.nn import attention as A
from tests.reference import assert_same, both, paddle_ref, same_exception


def test_backend_enum_matches_paddle():
    paddle = paddle_ref()
    theirs = {m.name: int(m) for m in paddle.nn.attention.SDPBackend}
    assert {m.name: int(m) for m in A.SDPBackend} == theirs
    assert A.__all__ == paddle.nn.attention.__all__
    assert hasattr(A, "sdpa") and A.sdpa.sdpa_kernel is A.sdpa_kernel


def test_math_backend_output_matches_paddle():
    q = np.random.default_rng(0).standard_normal((2, 5, 2, 8)).astype("float32")

    def run(p):
        t = p.to_tensor(q)
        with p.nn.attention.sdpa_kernel([p.nn.attention.SDPBackend.MATH]) as ctx:
            assert ctx == {}
            return p.nn.functional.scaled_dot_product_attention(t, t, t, is_causal=True)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_state_is_restored():
    before = A._cur_sdpa_kernel_backends(with_priority=True)
    with A.sdpa_kernel([A.SDPBackend.EFFICIENT_ATTENTION, A.SDPBackend.MATH], set_priority=True):
        assert A._cur_sdpa_kernel_backends(with_priority=True) == [A.SDPBackend.MATH,
                                                                  A.SDPBackend.EFFICIENT_ATTENTION] or \
            A._cur_sdpa_kernel_backends(with_priority=True)[0] == A.SDPBackend.EFFICIENT_ATTENTION
        assert set(A._cur_sdpa_kernel_backends()) == {A.SDPBackend.EFFICIENT_ATTENTION, A.SDPBackend.MATH}
    assert A._cur_sdpa_kernel_backends(with_priority=True) == before


@pytest.mark.parametrize("arg", [lambda p: "math", lambda p: [p.nn.attention.SDPBackend.MATH, 0],
                                 lambda p: []])
def test_bad_backends(arg):
    def run(p):
        with p.nn.attention.sdpa_kernel(arg(p)):
            pass
    same_exception(run)


def test_unavailable_fused_backend_fails_on_cpu():
    if pagaie.device.cuda.device_count() > 0:
        pytest.skip("fused kernels exist on this machine")
    q = pagaie.rand([1, 4, 2, 8])
    with A.sdpa_kernel(A.SDPBackend.FLASH_ATTENTION):
        with pytest.raises(RuntimeError, match="backend"):  # Paddle: RuntimeError too
            pagaie.nn.functional.scaled_dot_product_attention(q, q, q)
