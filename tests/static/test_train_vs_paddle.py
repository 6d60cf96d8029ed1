"""Static training programs, pagaie vs real Paddle 3.3.1 from the same initial parameters:
20 steps of an MLP (SGD, Adam) and of a small CNN with batch_norm (Momentum)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref

STEPS = 20
_P = ""  # name prefix, unique per test (parameter names are global in pagaie)


def _mlp(fw, opt):
    x = fw.static.data("x", [None, 4], "float32")
    y = fw.static.data("y", [None, 1], "float32")
    h = fw.nn.Linear(4, 8, weight_attr=fw.ParamAttr(name=_P + "mlp_w1"),
                     bias_attr=fw.ParamAttr(name=_P + "mlp_b1"))(x)
    h = fw.nn.functional.relu(h)
    out = fw.static.nn.fc(h, 1, weight_attr=fw.ParamAttr(name=_P + "mlp_w2"),
                          bias_attr=fw.ParamAttr(name=_P + "mlp_b2"))
    loss = fw.mean((out - y) ** 2)
    make = {"sgd": lambda: fw.optimizer.SGD(0.05), "adam": lambda: fw.optimizer.Adam(0.01)}[opt]
    make().minimize(loss)
    return loss


def _cnn(fw, opt):
    x = fw.static.data("x", [None, 2, 6, 6], "float32")
    y = fw.static.data("y", [None, 1], "int64")
    c = fw.nn.Conv2D(2, 4, 3, weight_attr=fw.ParamAttr(name=_P + "cnn_cw"),
                     bias_attr=fw.ParamAttr(name=_P + "cnn_cb"))(x)
    bn = fw.nn.BatchNorm2D(4, weight_attr=fw.ParamAttr(name=_P + "cnn_bs"),
                           bias_attr=fw.ParamAttr(name=_P + "cnn_bb"))
    b = fw.nn.functional.relu(bn(c))
    f = fw.flatten(b, 1)
    logits = fw.static.nn.fc(f, 3, weight_attr=fw.ParamAttr(name=_P + "cnn_fw"),
                             bias_attr=fw.ParamAttr(name=_P + "cnn_fb"))
    loss = fw.mean(fw.nn.functional.cross_entropy(logits, y))
    fw.optimizer.Momentum(0.05, momentum=0.9).minimize(loss)
    _STATS[fw.__name__] = {"moving_mean": bn._mean.name, "moving_var": bn._variance.name}
    return loss


_STATS: dict = {}


def _data(kind):
    """A few fixed batches cycled through (so the loss must go down)."""
    rng = np.random.default_rng(7)
    if kind == "mlp":
        batches = [{"x": rng.standard_normal([6, 4]).astype("float32"),
                    "y": rng.standard_normal([6, 1]).astype("float32")} for _ in range(2)]
    else:
        batches = [{"x": rng.standard_normal([5, 2, 6, 6]).astype("float32"),
                    "y": rng.integers(0, 3, [5, 1]).astype("int64")} for _ in range(2)]
    return [batches[i % 2] for i in range(STEPS)]


def _train(fw, build, opt, batches, init=None):
    fw.seed(2024)
    fw.enable_static()
    try:
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            loss = build(fw, opt)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        if init is None:
            scope = fw.static.global_scope()
            names = [p.name for p in main.global_block().all_parameters()
                     if p.name.startswith(_P)]
            init = {n: np.array(scope.find_var(n).get_tensor()) for n in names}
        else:
            fw.static.set_program_state(main, init)
        losses = [float(exe.run(main, feed=b, fetch_list=[loss])[0]) for b in batches]
        state = {n: np.asarray(v) for n, v in main.state_dict().items()}
        return init, losses, state
    finally:
        fw.disable_static()


@pytest.mark.parametrize("build,opt,kind", [(_mlp, "sgd", "mlp"), (_mlp, "adam", "mlp"),
                                            (_cnn, "momentum", "cnn")],
                         ids=["mlp-sgd", "mlp-adam", "cnn-bn-momentum"])
def test_training_matches_paddle(build, opt, kind):
    global _P
    paddle = paddle_ref()
    _P = f"t{opt}_{kind}_"
    batches = _data(kind)
    init, theirs, their_state = _train(paddle, build, opt, batches)
    assert len(init) >= 4  # parameters found by name in Paddle's scope
    _, ours, our_state = _train(pagaie, build, opt, batches, init)
    np.testing.assert_allclose(ours, theirs, rtol=2e-4, atol=1e-5)
    assert np.mean(ours[-5:]) < np.mean(ours[:5])
    for name in init:  # final parameters agree
        np.testing.assert_allclose(our_state[name], their_state[name], rtol=1e-3, atol=1e-5,
                                   err_msg=name)
    if kind == "cnn":  # batch_norm's moving statistics, updated in place by every run
        for key, theirs_name in _STATS["paddle"].items():
            ours_v = our_state[_STATS["pagaie"][key]]
            assert not np.allclose(ours_v, 0.0 if key == "moving_mean" else 1.0)
            np.testing.assert_allclose(ours_v, their_state[theirs_name], rtol=1e-4, atol=1e-5,
                                       err_msg=key)
