"""Differential tests against real Paddle for autograd and AMP cases taken from
Paddle's own unit tests (round 27, area hP)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _raises(lib, fn):
    try:
        fn(lib)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)
    return None


def _hessian_0d_batched(lib):
    x = lib.ones([2, 3])
    x.stop_gradient = False
    lib.autograd.hessian((x * x).sum(), x, batch_axis=0)


def _hessian_not_single_batched(lib):
    x = lib.ones([3, 3])
    x.stop_gradient = False
    lib.autograd.hessian(x * x, x, batch_axis=0)


@pytest.mark.parametrize("fn", [_hessian_0d_batched, _hessian_not_single_batched])
def test_hessian_batched_bad_ys_exception_type(fn):
    expected = _raises(paddle, fn)
    assert expected is not None
    assert _raises(pagaie, fn) is expected


def _checker_steps(lib):
    dbg = lib.amp.debugging
    cfg = dbg.TensorCheckerConfig(enable=True, debug_step=[0, 3])
    dbg.TensorCheckerConfig.current_step_id = 0
    seen = []
    try:
        for _ in range(5):
            dbg.enable_tensor_checker(cfg)
            seen.append((lib.get_flags(["FLAGS_check_nan_inf"])["FLAGS_check_nan_inf"],
                         dbg.TensorCheckerConfig.current_step_id))
            dbg.disable_tensor_checker()
    finally:
        dbg.TensorCheckerConfig.current_step_id = 0
    return seen


def test_tensor_checker_step_count_stops_at_end_step():
    expected = _checker_steps(paddle)
    assert expected[-1] == (False, 3)
    assert _checker_steps(pagaie) == expected


def _pylayer_grad_dtypes(lib, consistent, mixed_outputs):
    """dtype of the gradient reaching a PyLayer whose follower returns a float16 gradient."""
    seen = []

    class Inner(lib.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            if not consistent:
                ctx.set_grad_in_dtype_consistent(False)
            y = lib.tanh(x)
            return (1, y, None) if mixed_outputs else y

        @staticmethod
        def backward(ctx, dy):
            seen.append(str(dy.dtype))
            return dy * 2

    class Outer(lib.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return lib.tanh(x)

        @staticmethod
        def backward(ctx, dy):
            return lib.cast(dy, "float16")

    x = lib.to_tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype("float32"), stop_gradient=False)
    y = Inner.apply(x)
    Outer.apply(y[1] if mixed_outputs else y).sum().backward()
    return seen, str(x.grad.dtype), x.grad.numpy()


@pytest.mark.parametrize("consistent", [True, False])
@pytest.mark.parametrize("mixed_outputs", [False, True])
def test_pylayer_set_grad_in_dtype_consistent(consistent, mixed_outputs):
    exp = _pylayer_grad_dtypes(paddle, consistent, mixed_outputs)
    got = _pylayer_grad_dtypes(pagaie, consistent, mixed_outputs)
    assert got[0] == exp[0]
    # Paddle then leaves a float16 gradient on the float32 leaf; pagaie keeps the leaf's dtype
    assert got[1] == "paddle.float32"
    np.testing.assert_allclose(got[2], exp[2].astype("float32"), rtol=1e-3)
