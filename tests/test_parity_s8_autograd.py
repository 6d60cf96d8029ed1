"""Session-8 sweep of higher-order gradients and of the autograd API against real Paddle 3.3.1.

Second derivatives (``paddle.grad(..., create_graph=True)`` then a grad of ``sum(g * w)``)
of the ops whose double grad Paddle implements are compared value for value; where Paddle
has none, pagaie's second derivative is checked against a composite Paddle can
differentiate twice, or against finite differences of pagaie's own first derivative.
"""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

_RNG = np.random.RandomState(0)


def _a(*shape, lo=-1.0, hi=1.0):
    return _RNG.uniform(lo, hi, shape)


def _second(pd, fn, arrs):
    """(y, first grads, second grads) of ``fn`` at ``arrs`` (float64), with fixed cotangents."""
    xs = [pd.to_tensor(a, dtype="float64", stop_gradient=False) for a in arrs]
    y = fn(pd, *xs)
    v = pd.to_tensor(np.linspace(0.5, 1.5, max(int(np.prod(y.shape)), 1)).reshape(y.shape))
    gs = pd.grad(y, xs, grad_outputs=v, create_graph=True, allow_unused=True)
    s = None
    for g in gs:
        if g is None or g.stop_gradient:
            continue
        w = pd.to_tensor(np.linspace(-1.0, 1.0, max(int(np.prod(g.shape)), 1)).reshape(g.shape))
        s = (g * w).sum() if s is None else s + (g * w).sum()
    hs = pd.grad(s, xs, allow_unused=True)
    return y, list(gs), list(hs)


def _f(pd):
    return pd.nn.functional


_P = _a(3, 4, lo=0.2, hi=2.0)
# ops whose double grad Paddle implements (its CPU build lacks most others)
_SECOND = {
    "exp": (lambda pd, x: pd.exp(x), [_a(3, 4)]),
    "sin": (lambda pd, x: pd.sin(x), [_a(3, 4)]),
    "cos": (lambda pd, x: pd.cos(x), [_a(3, 4)]),
    "tanh": (lambda pd, x: pd.tanh(x), [_a(3, 4)]),
    "sigmoid": (lambda pd, x: pd.sigmoid(x), [_a(3, 4)]),
    "log": (lambda pd, x: pd.log(x), [_P]),
    "acos": (lambda pd, x: pd.acos(x), [_a(3, 4) * 0.9]),
    "multiply": (lambda pd, x, y: pd.multiply(x, y), [_a(3, 4), _a(4)]),
    "maximum": (lambda pd, x, y: pd.maximum(x, y), [_a(3, 4), _a(4)]),
    "pow_scalar": (lambda pd, x: pd.pow(x, 3.0), [_a(3, 4)]),
    "pow_frac": (lambda pd, x: pd.pow(x, 2.5), [_P]),
    "clip": (lambda pd, x: pd.clip(x * x, 0.1, 0.5), [_a(3, 4)]),
    "where": (lambda pd, x, y: pd.where(x > 0, x * y, y * y), [_a(4), _a(4)]),
    "mean": (lambda pd, x: pd.mean(x * x * x, axis=0), [_a(3, 4)]),
    "nansum": (lambda pd, x: pd.nansum(x * x, axis=1), [_a(3, 4)]),
    "silu": (lambda pd, x: _f(pd).silu(x), [_a(3, 4) * 2]),
    "glu": (lambda pd, x: _f(pd).glu(x), [_a(3, 4) * 2]),
    "soft_margin_sum": (lambda pd, x: _f(pd).soft_margin_loss(
        x, pd.to_tensor([1.0, -1.0, 1.0], dtype="float64"), reduction="sum"), [_a(3)]),
    "poisson_nll": (lambda pd, x: _f(pd).poisson_nll_loss(
        x, pd.to_tensor([[1.0, 0, 2, 0]] * 3, dtype="float64"), reduction="sum"), [_a(3, 4)]),
    "matmul": (lambda pd, x, y: pd.matmul(x, y, transpose_y=True), [_a(3, 4), _a(2, 4)]),
    "matmul_self": (lambda pd, x: pd.matmul(x, x), [_a(3, 3)]),
    "bmm": (lambda pd, x, y: pd.bmm(x, y), [_a(2, 3, 4), _a(2, 4, 2)]),
    "tensordot": (lambda pd, x, y: pd.tensordot(x, y, axes=1), [_a(3, 4), _a(4, 2)]),
    "diff": (lambda pd, x: pd.diff(x * x), [_a(5)]),
}


@pytest.mark.parametrize("name", sorted(_SECOND))
def test_second_derivatives_match_paddle(name):
    fn, arrs = _SECOND[name]
    assert_same(*both(lambda pd: _second(pd, fn, arrs)), rtol=1e-6, atol=1e-9)


# ---- abs: Paddle's abs gradient sign(x) has no gradient of its own --------------------------
def test_abs_second_derivative_does_not_reach_x():
    def f(pd):
        x = pd.to_tensor([0.5, -0.3, 0.0], dtype="float64", stop_gradient=False)
        g, = pd.grad(pd.abs(x).sum(), x, create_graph=True)
        return g, pd.grad(g.sum(), x, allow_unused=True)
    assert_same(*both(f))

    def unused(pd):
        x = pd.to_tensor([0.5, -0.3], dtype="float64", stop_gradient=False)
        g, = pd.grad(pd.abs(x).sum(), x, create_graph=True)
        pd.grad(g.sum(), x)
    same_exception(unused)


@pytest.mark.parametrize("reduction", ["sum", "none"])
def test_l1_loss_second_derivative_does_not_reach_input(reduction):
    def f(pd):
        x = pd.to_tensor([0.5, -0.3], dtype="float64", stop_gradient=False)
        y = pd.to_tensor([0.1, 0.2], dtype="float64", stop_gradient=False)
        loss = pd.nn.functional.l1_loss(x, y, reduction=reduction)
        gx, gy = pd.grad(loss, [x, y], grad_outputs=pd.ones_like(loss), create_graph=True)
        return gx, gy, pd.grad((gx * gx).sum() + gy.sum(), [x, y], allow_unused=True)
    assert_same(*both(f))


def test_abs_gradient_graph_then_backward_twice():
    # torch's own second derivative of abs is an immutable zero tensor: stored as x.grad,
    # it made the next accumulation fail
    def f(pd):
        x = pd.to_tensor([0.5, -0.3], dtype="float64", stop_gradient=False)
        g, = pd.grad(pd.abs(x).sum(), x, create_graph=True)
        (g * x).sum().backward()
        first = x.grad.numpy().copy()
        (x * x).sum().backward()
        return first, x.grad
    assert_same(*both(f))


def test_abs_values_with_gradient():
    def f(pd):
        # (at +-inf Paddle's gradient is NaN, x / |x|: pagaie keeps sign(x))
        x = pd.to_tensor([-0.0, 0.0, -2.5, 3.0], stop_gradient=False)
        y = pd.abs(x)
        return y, np.signbit(y.numpy()), pd.grad(y.sum(), x)
    assert_same(*both(f))


_L1_LIKE = {
    "norm_1": lambda pd, x: pd.linalg.norm(x, p=1),
    "vector_norm_1": lambda pd, x: pd.linalg.vector_norm(x, p=1, axis=-1),
    "dist_1": lambda pd, x: pd.dist(x, pd.zeros_like(x), p=1),
    "matrix_norm_1": lambda pd, x: pd.linalg.matrix_norm(x, p=1),
    "matrix_norm_inf": lambda pd, x: pd.linalg.norm(x, p=float("inf"), axis=[0, 1]),
}


@pytest.mark.parametrize("name", sorted(_L1_LIKE))
def test_second_derivative_is_never_a_data_less_zero_tensor(name):
    # Paddle has no double grad of these norms; pagaie's is real zeros, not torch's data-less
    # zero tensor (which cannot be read, and which broke the next accumulation into x.grad)
    x = pagaie.to_tensor([[0.5, -0.3], [0.2, 0.1]], dtype="float64", stop_gradient=False)
    g, = pagaie.grad(_L1_LIKE[name](pagaie, x), x, create_graph=True)
    h, = pagaie.grad((g * g).sum(), x, allow_unused=True)
    assert h is None or np.array_equal(h.numpy(), np.zeros([2, 2]))
    (g * g).sum().backward()
    assert x.grad is None or np.array_equal(x.grad.numpy(), np.zeros([2, 2]))
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[1.0, -0.6], [0.4, 0.2]])


# ---- soft-label cross entropy: its fused backward is differentiable ----------------------
def _xent_composite(pd, x, label):
    # what Paddle can differentiate twice: exp / sum / log / multiply
    lse = pd.log(pd.sum(pd.exp(x), axis=-1, keepdim=True))
    return -(label * (x - lse)).sum(axis=-1)


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_soft_label_cross_entropy_second_derivative(smoothing):
    x0 = _a(3, 4)
    lab = _RNG.dirichlet([1.0] * 4, 3)
    hard = np.array([1, 0, 3])

    def ours(pd):
        x = pd.to_tensor(x0, stop_gradient=False)
        if smoothing:
            loss = pd.nn.functional.cross_entropy(x, pd.to_tensor(hard), label_smoothing=smoothing,
                                                  reduction="sum")
        else:
            loss = pd.nn.functional.cross_entropy(x, pd.to_tensor(lab), soft_label=True, reduction="sum")
        g, = pd.grad(loss, x, create_graph=True)
        return g, pd.grad((g * g).sum(), x)

    def theirs(pd):
        x = pd.to_tensor(x0, stop_gradient=False)
        label = lab if not smoothing else np.eye(4)[hard] * (1 - smoothing) + smoothing / 4
        loss = _xent_composite(pd, x, pd.to_tensor(label)).sum()
        g, = pd.grad(loss, x, create_graph=True)
        return g, pd.grad((g * g).sum(), x)
    assert_same(ours(pagaie), theirs(paddle_ref()), rtol=1e-6, atol=1e-9)


def test_kl_div_label_gets_no_gradient():
    def f(pd):
        out = []
        for log_target in (False, True):
            x = pd.to_tensor([[0.2, -0.4], [0.7, 0.1]], dtype="float64", stop_gradient=False)
            lab = pd.to_tensor([[0.3, 0.7], [0.6, 0.4]], dtype="float64", stop_gradient=False)
            out.append(pd.grad(pd.nn.functional.kl_div(x, lab, log_target=log_target), [x, lab],
                               allow_unused=True))
        return out
    assert_same(*both(f))


def test_missing_double_grad_is_a_runtime_error_without_internals():
    def f(pd):
        x = pd.to_tensor(_a(3, 4), stop_gradient=False)
        loss = pd.nn.functional.multi_margin_loss(x, pd.to_tensor([1, 0, 3]))
        g, = pd.grad(loss, x, create_graph=True)
        pd.grad(g.sum(), x)
    same_exception(f)


# ---- norms of order 0 / inf / -inf: Paddle's gradients ---------------------------------
_NORM_X = np.array([[[1.0, -2.0, 2.0], [3.0, 3.0, 0.0]], [[0.0, 0.0, 0.0], [-1.0, 1.0, 1.0]]])


@pytest.mark.parametrize("api", ["linalg.vector_norm", "linalg.norm", "norm"])
@pytest.mark.parametrize("p", [float("inf"), -float("inf"), 0.0])
@pytest.mark.parametrize("axis,keepdim", [(None, False), (None, True), (1, False), (-1, True)])
def test_edge_order_norm_gradients(api, p, axis, keepdim):
    def f(pd):
        fn = pd.linalg.vector_norm if api == "linalg.vector_norm" else \
            pd.linalg.norm if api == "linalg.norm" else pd.norm
        x = pd.to_tensor(_NORM_X, stop_gradient=False)
        y = fn(x, p=p, axis=axis, keepdim=keepdim)
        go = pd.to_tensor(np.arange(1.0, y.size + 1).reshape(y.shape))
        return y, y.stop_gradient, pd.grad(y, x, grad_outputs=go)
    assert_same(*both(f))


def test_inf_norm_over_several_axes_splits_ties():
    def f(pd):
        x = pd.to_tensor(_NORM_X, stop_gradient=False)
        y = pd.linalg.vector_norm(x, p=float("inf"), axis=[0, 2])
        return y, pd.grad(y, x, grad_outputs=pd.to_tensor([1.0, 2.0], dtype="float64"))
    assert_same(*both(f))


@pytest.mark.parametrize("p", [float("inf"), -float("inf"), 0.0, 2.0])
def test_dist_edge_order_gradients(p):
    def f(pd):
        x = pd.to_tensor(_NORM_X[0], stop_gradient=False)
        y = pd.to_tensor(_NORM_X[1, 0], stop_gradient=False)
        d = pd.dist(x, y, p=p)
        return d, d.stop_gradient, pd.grad(d, [x, y])
    assert_same(*both(f))


# ---- argument checks of paddle.grad / paddle.autograd.backward ---------------------------
def _x(pd):
    return pd.to_tensor([1.0, 2.0], stop_gradient=False)


_GRAD_BAD = {
    "outputs_none": lambda pd, x: pd.grad(None, x),
    "inputs_none": lambda pd, x: pd.grad((x * x).sum(), None),
    "outputs_empty": lambda pd, x: pd.grad([], x),
    "inputs_empty": lambda pd, x: pd.grad((x * x).sum(), []),
    "outputs_element": lambda pd, x: pd.grad([(x * x).sum(), 2.0], x),
    "inputs_element": lambda pd, x: pd.grad((x * x).sum(), [x, 3.0]),
    "grad_outputs_element": lambda pd, x: pd.grad(x * x, x, grad_outputs=[[1.0, 2.0]]),
    "create_graph_int": lambda pd, x: pd.grad((x * x).sum(), x, create_graph=1),
    "retain_graph_int": lambda pd, x: pd.grad((x * x).sum(), x, retain_graph=1),
    "allow_unused_int": lambda pd, x: pd.grad((x * x).sum(), x, allow_unused=1),
    "no_grad_vars_element": lambda pd, x: pd.grad((x * x).sum(), x, no_grad_vars=[3]),
    "no_grad_vars_type": lambda pd, x: pd.grad((x * x).sum(), x, no_grad_vars=3),
    "backward_empty": lambda pd, x: pd.autograd.backward([]),
    "backward_none": lambda pd, x: pd.autograd.backward(None),
    "backward_element": lambda pd, x: pd.autograd.backward([(x * x).sum(), 3]),
    "backward_retain_int": lambda pd, x: pd.autograd.backward([(x * x).sum()], retain_graph=1),
    "backward_grad_tensor_numpy": lambda pd, x: pd.autograd.backward(
        [x * x], [np.array([1.0, 2.0], dtype="float32")]),
}


@pytest.mark.parametrize("case", sorted(_GRAD_BAD))
def test_autograd_argument_errors(case):
    same_exception(lambda pd: _GRAD_BAD[case](pd, _x(pd)))


def test_grad_accepts_tuples_and_a_no_grad_vars_tuple():
    def f(pd):
        x, y = _x(pd), pd.to_tensor([3.0, 4.0], stop_gradient=False)
        z = x * 2
        a = pd.grad((x * y).sum(), (x, y), retain_graph=True)
        b = pd.grad([(z * x).sum()], x, grad_outputs=(pd.to_tensor(2.0),), no_grad_vars=(z,))
        return a, b
    assert_same(*both(f))


def test_hessian_and_jacobian_through_abs():
    def f(pd):
        x = pd.to_tensor([0.5, -0.3], stop_gradient=False)
        return (pd.autograd.hessian(pd.abs(x).sum(), x)[:],
                pd.autograd.hessian(pd.nn.functional.l1_loss(x, pd.zeros([2]), reduction="sum"), x)[:],
                pd.autograd.jacobian(pd.abs(x), x)[:])
    assert_same(*both(f))


# ---- Tensor.grad / backward glue (pagaie/_core/tensor.py) -----------------------------------

def test_non_leaf_grad_is_none_without_a_warning():
    import warnings
    for P in (pagaie, paddle_ref()):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        z = x * 2
        (z * z).sum().backward()
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            assert z.grad is None
        np.testing.assert_allclose(x.grad.numpy(), [8.0, 16.0])


@pytest.mark.parametrize("with_grad_tensor", [False, True])
def test_backward_retain_graph_must_be_bool(with_grad_tensor):
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        y = x * x
        if with_grad_tensor:
            y.backward(P.ones([2]), retain_graph=1)
        else:
            y.sum().backward(retain_graph=1)
    same_exception(run)


@pytest.mark.parametrize("order", ["retain_first", "hook_first"])
def test_retain_grads_keeps_the_gradient_at_its_place_among_hooks(order):
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        z = x * 2
        if order == "retain_first":
            z.retain_grads()
            z.register_hook(lambda g: g * 5)
        else:
            z.register_hook(lambda g: g * 5)
            z.retain_grads()
        (z * z).sum().backward()
        return z.grad, x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_retained_non_leaf_grad_is_replaced_not_accumulated():
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        z = x * 2
        z.retain_grads()
        (z * z).sum().backward(retain_graph=True)
        (z * 3).sum().backward()
        return z.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_results_computed_from_a_gradient_say_stop_gradient_false():
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        (x * x).sum().backward()
        g = x.grad
        with P.no_grad():
            inside = (g * 2).stop_gradient
        return [g.stop_gradient, g.exp().stop_gradient, (g * 2).stop_gradient, inside]
    ours, theirs = both(run)
    assert ours == theirs == [False, False, False, True]
