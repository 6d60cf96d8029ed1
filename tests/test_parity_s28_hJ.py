"""Session-28 parity of ``paddle.incubate`` against real Paddle 3.3.1 (CPU), with cases drawn
from Paddle's own unit tests: the argument checks of identity_loss, the fused masked softmaxes,
the segment ops, swiglu, fused_rms_norm / fused_layer_norm and ModelAverage."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

import pagaie  # noqa: E402
from tests.reference import same_exception, same_static_exception  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)

_X4 = np.random.default_rng(28).random((1, 2, 4, 8)).astype("float32")
_X2 = np.random.default_rng(29).standard_normal((4, 8)).astype("float32")


def _F(P):
    return P.incubate.nn.functional


# -- a numpy array (or list) where a Tensor belongs: Paddle's argument parser, ValueError; a
# Tensor of several elements where a scalar belongs: ValueError too ---------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.incubate.identity_loss(_X2, 1),
    lambda P: P.incubate.softmax_mask_fuse(_X4, P.to_tensor(_X4[:, :1])),
    lambda P: P.incubate.softmax_mask_fuse_upper_triangle(_X4),
    lambda P: _F(P).swiglu(P.to_tensor(_X2), _X2),
    lambda P: _F(P).swiglu(P.to_tensor(_X2), [1.0]),
    lambda P: _F(P).swiglu([1.0, 2.0]),
    lambda P: _F(P).swiglu(None),
    lambda P: P.nn.functional.swiglu(P.to_tensor(_X2), _X2),
    lambda P: _F(P).fused_rms_norm(_X2, P.ones([8]), None, 1e-6, 1),
    lambda P: _F(P).fused_rms_norm(P.to_tensor(_X2), P.ones([8]), np.ones(8, "float32"), 1e-6, 1),
    lambda P: _F(P).fused_layer_norm(_X2, P.ones([8]), None, 1e-6),
    lambda P: _F(P).fused_layer_norm(_X2.tolist(), P.ones([8]), None, 1e-6),
    lambda P: _F(P).fused_layer_norm(None, P.ones([8]), None, 1e-6),
    lambda P: _F(P).fused_dropout_add(P.to_tensor(_X2), P.to_tensor(_X2),
                                      p=P.to_tensor([0.5, 0.2])),
    lambda P: P.incubate.nn.FusedDropoutAdd(p=P.to_tensor([0.5, 0.2]))(P.to_tensor(_X2),
                                                                      P.to_tensor(_X2)),
], ids=["identity_loss", "softmax_mask_fuse", "upper_triangle", "swiglu_np_y", "swiglu_list_y",
        "swiglu_list_x", "swiglu_none_x", "nn_swiglu_np_y", "rms_np_x", "rms_np_norm_bias",
        "layer_norm_np_x", "layer_norm_list_x", "layer_norm_none_x", "dropout_add_p_2_elements",
        "dropout_add_layer_p_2_elements"])
def test_non_tensor_argument(call):
    same_exception(call)


# -- static mode: a dtype the op refuses is Paddle's build-time TypeError ---------------------

@pytest.mark.parametrize("call", [
    lambda P: P.incubate.identity_loss(P.static.data("x", [-1, 1], "int32"), 1),
    lambda P: P.incubate.softmax_mask_fuse(P.static.data("x", [2, 8, 8, 32], "int32"),
                                           P.static.data("m", [2, 1, 8, 32], "int32")),
    lambda P: P.incubate.softmax_mask_fuse_upper_triangle(P.static.data("x", [2, 8, 8, 32],
                                                                        "int32")),
    lambda P: P.geometric.segment_sum(P.static.data("x", [3, 3], "bool"),
                                      P.static.data("y", [3], "int32")),
    lambda P: P.incubate.identity_loss(_X2, 3),   # x is checked before 'reduction'
], ids=["identity_loss", "softmax_mask_fuse", "upper_triangle", "segment_sum", "np_x_first"])
def test_static_build_time_type_error(call):
    same_static_exception(call)


# -- ModelAverage: the windows must be ints, the rate a number (checked at step) ------------

def _model_average_step(P, rate, min_window, max_window):
    layer = P.nn.Linear(3, 2)
    avg = P.incubate.optimizer.ModelAverage(rate, parameters=layer.parameters(),
                                            min_average_window=min_window,
                                            max_average_window=max_window)
    layer(P.ones([2, 3])).mean().backward()
    avg.step()


@pytest.mark.parametrize("args", [(0.15, 2, 4.0), (0.15, 2.0, 4), (0.15, True, 4),
                                  (0.15, 2, np.float32(4)), ("a", 2, 4), (None, 2, 4)])
def test_model_average_argument_types(args):
    same_exception(lambda P: _model_average_step(P, *args))


@pytest.mark.parametrize("args", [(True, 2, 4), (np.float32(0.2), 2, 4), (1, np.int64(2), 4)])
def test_model_average_accepted_types(args):
    for P in (paddle, pagaie):
        _model_average_step(P, *args)


# -- LookAhead and ModelAverage in a static program -----------------------------------------

def _static_training(P, make_optimizer, steps=5):
    """Train a one-layer program with ``make_optimizer(P, loss)`` for ``steps`` runs; returns
    the program's scope reader, its executor and what make_optimizer returned."""
    main, startup = P.static.Program(), P.static.Program()
    with P.static.program_guard(main, startup):
        x = P.static.data("X", [2, 2], "float32")
        const = P.nn.initializer.Constant
        h = P.static.nn.fc(x, 2, weight_attr=P.ParamAttr(name="w", initializer=const(0.5)),
                           bias_attr=P.ParamAttr(name="b", initializer=const(0.1)))
        made = make_optimizer(P, P.mean(h * h))
    exe = P.static.Executor(P.CPUPlace())
    exe.run(startup)
    for i in range(steps):
        exe.run(main, feed={"X": np.array([[1.0, 2.0], [2.0, 1.0]], "float32") * (i + 1)})

    def read(name):
        return np.array(P.static.global_scope().find_var(name).get_tensor())
    return read, exe, made


def _both_static(fn):
    out = []
    for P in (pagaie, paddle):
        P.enable_static()
        try:
            out.append(fn(P))
        finally:
            P.disable_static()
    return out


@pytest.mark.parametrize("inner,alpha,k", [("SGD", 0.2, 2), ("Adam", 0.7, 3)])
def test_lookahead_static(inner, alpha, k):
    def run(P):
        def make(P, loss):
            opt = P.incubate.optimizer.LookAhead(getattr(P.optimizer, inner)(learning_rate=0.1),
                                                 alpha=alpha, k=k)
            opt.minimize(loss)
        read, _, _ = _static_training(P, make)
        return read("w"), read("b")
    ours, theirs = _both_static(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("min_window,max_window", [(2, 3), (3, 10)])
def test_model_average_static(min_window, max_window):
    def run(P):
        def make(P, loss):
            P.optimizer.Momentum(learning_rate=0.01, momentum=0.9).minimize(loss)
            return P.incubate.optimizer.ModelAverage(0.15, min_average_window=min_window,
                                                     max_average_window=max_window)
        read, exe, average = _static_training(P, make, steps=6)
        with average.apply(exe):
            averaged = read("w"), read("b")
        return averaged + (read("w"), read("b"))
    ours, theirs = _both_static(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("method", ["apply", "restore"])
def test_model_average_static_needs_executor(method):
    def run(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                P.static.nn.fc(P.static.data("X", [2, 2], "float32"), 2)
                average = P.incubate.optimizer.ModelAverage(0.15)
            if method == "apply":
                with average.apply():
                    pass
            else:
                average.restore()
        finally:
            P.disable_static()
    same_exception(run)


# -- incubate.autograd: what func returns --------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.incubate.autograd.vjp(lambda a: None, P.ones([3])),
    lambda P: P.incubate.autograd.vjp(lambda a: (a, None), P.ones([3])),
    lambda P: P.incubate.autograd.vjp(lambda a: 3, P.ones([3])),
    lambda P: P.incubate.autograd.Hessian(lambda a: (a.sum(), a.sum()), P.ones([3]))[:],
    lambda P: P.incubate.autograd.Hessian(lambda a: None, P.ones([3]))[:],
    lambda P: P.incubate.autograd.Hessian(lambda a: 3, P.ones([3]))[:],
], ids=["vjp_none", "vjp_tuple_with_none", "vjp_int", "hessian_two_outputs", "hessian_none",
        "hessian_int"])
def test_autograd_bad_func_output(call):
    same_exception(call)


def test_hessian_of_one_element_list():
    def run(P):
        x = P.to_tensor([1.0, 2.0, 3.0])
        return P.incubate.autograd.Hessian(lambda a: [(a * a * a).sum()], x)[:].numpy()
    ours, theirs = run(pagaie), run(paddle)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
