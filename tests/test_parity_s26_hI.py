"""Static training programs against real Paddle 3.3.1: the same network, the same initial
parameters, 20 runs of the program; what ``minimize`` returns; the program's parameter
table; the ``learning_rate_<n>`` variable an optimizer keeps in the program."""
from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

STEPS = 20
_ids = itertools.count()


@pytest.fixture
def static_both():
    paddle.enable_static()
    pagaie.enable_static()
    yield
    paddle.disable_static()
    pagaie.disable_static()


def _attr(fw, name, **kw):
    return fw.ParamAttr(name=name, **kw)


def _optimizer(fw, case):
    """The optimizer of a case, and its scheduler (or None)."""
    name, kw = case
    kw = dict(kw)
    lr = kw.pop("lr", 0.05)
    if lr == "step":
        lr = fw.optimizer.lr.StepDecay(0.05, step_size=5, gamma=0.5)
    elif lr == "cosine":
        lr = fw.optimizer.lr.CosineAnnealingDecay(0.05, T_max=6)
    elif lr == "warmup":
        lr = fw.optimizer.lr.LinearWarmup(fw.optimizer.lr.StepDecay(0.05, 4), 5, 0.0, 0.05)
    if "clip" in kw:
        kw["grad_clip"] = getattr(fw.nn, kw.pop("clip"))(0.05)
    if "l2" in kw:
        kw["weight_decay"] = fw.regularizer.L2Decay(kw.pop("l2"))
    if kw.pop("decay_weights_only", False):
        kw["apply_decay_param_fun"] = lambda n: n.endswith("_w")
    opt = getattr(fw.optimizer, name)(lr, **kw)
    return opt, (lr if isinstance(lr, fw.optimizer.lr.LRScheduler) else None)


def _mlp(fw, p, case):
    """Linear -> LayerNorm -> tanh -> Linear, mean squared error, ``minimize``."""
    x = fw.static.data("x", [None, 4], "float32")
    y = fw.static.data("y", [None, 1], "float32")
    h = fw.nn.Linear(4, 8, weight_attr=_attr(fw, p + "l1_w", learning_rate=0.5),
                     bias_attr=_attr(fw, p + "l1_b", trainable=False))(x)
    h = fw.nn.LayerNorm(8, weight_attr=_attr(fw, p + "ln_w"), bias_attr=_attr(fw, p + "ln_b"))(h)
    out = fw.nn.Linear(8, 1, weight_attr=_attr(fw, p + "l2_w"), bias_attr=_attr(fw, p + "l2_b"))(fw.tanh(h))
    loss = fw.mean((out - y) ** 2)
    opt, sched = _optimizer(fw, case)
    result = opt.minimize(loss)
    return loss, sched, result


def _init(p):
    rng = np.random.default_rng(3)
    shapes = {"l1_w": [4, 8], "l1_b": [8], "ln_w": [8], "ln_b": [8], "l2_w": [8, 1], "l2_b": [1]}
    return {p + k: (rng.standard_normal(s) * 0.5).astype("float32") for k, s in shapes.items()}


def _losses(fw, case):
    p = f"s26hi{next(_ids)}_"
    main, startup = fw.static.Program(), fw.static.Program()
    with fw.static.program_guard(main, startup):
        loss, sched, _ = _mlp(fw, p, case)
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(startup)
    fw.static.set_program_state(main, _init(p))
    rng = np.random.default_rng(0)
    out = []
    for _ in range(STEPS):
        feed = {"x": rng.random([8, 4], dtype="float32"), "y": rng.random([8, 1], dtype="float32")}
        out.append(exe.run(main, feed=feed, fetch_list=[loss])[0])
        if sched is not None:
            sched.step()
    return np.array(out)


CASES = [
    ("SGD", {}), ("Momentum", {"momentum": 0.9, "use_nesterov": True}), ("Adam", {"lr": "cosine"}),
    ("AdamW", {"weight_decay": 0.1, "decay_weights_only": True}), ("Adagrad", {}),
    ("RMSProp", {"momentum": 0.5, "centered": True}), ("Lamb", {"lamb_weight_decay": 0.1}),
    ("SGD", {"lr": "step", "clip": "ClipGradByGlobalNorm"}),
    ("Momentum", {"lr": "warmup", "l2": 0.1}), ("Adam", {"clip": "ClipGradByNorm", "l2": 0.05}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] + "-" + "-".join(map(str, c[1].values())))
def test_training_losses_match(static_both, case):
    np.testing.assert_allclose(_losses(pagaie, case), _losses(paddle, case), rtol=2e-4, atol=1e-6)


def _build(fw, case=("Adam", {})):
    p = f"s26hi{next(_ids)}_"
    main, startup = fw.static.Program(), fw.static.Program()
    with fw.static.program_guard(main, startup):
        loss, sched, result = _mlp(fw, p, case)
    return main, startup, loss, sched, result


@pytest.mark.parametrize("opt", ["SGD", "Adam"])
def test_minimize_returns_the_update_ops_and_pairs(static_both, opt):
    res = {}
    for fw in (paddle, pagaie):
        _, _, _, _, result = _build(fw, (opt, {}))
        ops, pairs = result
        res[fw] = (type(result), type(ops), len(ops) > 0, type(pairs), len(pairs),
                   [type(pg).__name__ for pg in pairs], [tuple(p.shape) for p, _ in pairs])
        assert all(callable(op.name) for op in ops)
    assert res[pagaie] == res[paddle]


def test_apply_gradients_returns_the_update_ops(static_both):
    lens = {}
    for fw in (paddle, pagaie):
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            x = fw.static.data("x", [None, 2], "float32")
            loss = fw.mean(fw.nn.Linear(2, 1)(x))
            pairs = fw.static.append_backward(loss)
            lens[fw] = len(fw.optimizer.SGD(0.1).apply_gradients(pairs)) > 0
    assert lens[pagaie] == lens[paddle] is True


def test_get_all_parameter_values_is_a_name_table(static_both):
    got = {}
    for fw in (paddle, pagaie):
        main, *_ = _build(fw)
        table = main.get_all_parameter_values()
        assert isinstance(table, dict)
        got[fw] = sorted((k.split("_", 1)[1], tuple(v.shape)) for k, v in table.items())
    assert got[pagaie] == got[paddle]


@pytest.mark.parametrize("sched", [None, "step"])
def test_learning_rate_variable(static_both, sched, tmp_path):
    """A scheduler's variable is a parameter holding the rate of the last run; a fixed
    rate's is optimizer state. Checked through ``state_dict`` and ``static.save``."""
    seen = {}
    for fw in (paddle, pagaie):
        case = ("Adam", {} if sched is None else {"lr": sched})
        main, startup, loss, lr, _ = _build(fw, case)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        trace = []
        feed = {"x": np.ones([2, 4], "float32"), "y": np.zeros([2, 1], "float32")}
        for _ in range(7):
            if lr is not None:
                lr.step()
            row = []
            for mode in ("param", "opt"):
                row += [(mode, float(np.array(v))) for k, v in main.state_dict(mode).items()
                        if k.startswith("learning_rate")]
            trace.append(row)
            exe.run(main, feed=feed, fetch_list=[loss])
        path = str(tmp_path / fw.__name__ / "m")
        fw.static.save(main, path)
        files = []
        for ext in ("pdparams", "pdopt"):
            with open(f"{path}.{ext}", "rb") as f:
                files.append((ext, any(k.startswith("learning_rate") for k in pickle.load(f))))
        seen[fw] = trace, files
    assert seen[pagaie] == seen[paddle]


@pytest.mark.parametrize("reduce", ["none", "sum_keepdim", "mean"])
@pytest.mark.parametrize("method", ["minimize", "backward"])
def test_optimizer_needs_a_one_element_loss(static_both, reduce, method):
    outcome = {}
    for fw in (paddle, pagaie):
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            x = fw.static.data("x", [None, 4], "float32")
            out = fw.nn.Linear(4, 1)(x)
            loss = {"none": out, "sum_keepdim": fw.sum(out, keepdim=True), "mean": fw.mean(out)}[reduce]
            try:
                getattr(fw.optimizer.SGD(0.1), method)(loss)
                outcome[fw] = "ok"
            except AssertionError:
                outcome[fw] = "AssertionError"
    assert outcome[pagaie] == outcome[paddle]


@pytest.mark.parametrize("opt", ["Adam", "Momentum", "Lamb"])
def test_running_startup_again_restarts_the_optimizer_state(static_both, opt):
    """``minimize`` puts the accumulators' initial values in the startup program."""
    got = {}
    for fw in (paddle, pagaie):
        main, startup, loss, _, _ = _build(fw, (opt, {}))
        p = next(iter(main.get_all_parameter_values())).split("_")[0] + "_"
        exe = fw.static.Executor(fw.CPUPlace())
        feed = {"x": np.ones([2, 4], "float32"), "y": np.zeros([2, 1], "float32")}
        losses = []
        for _ in range(2):
            exe.run(startup)
            fw.static.set_program_state(main, _init(p))
            losses += [exe.run(main, feed=feed, fetch_list=[loss])[0] for _ in range(3)]
        got[fw] = np.array(losses), {k.split("_", 1)[1]: np.array(v) for k, v in main.state_dict("opt").items()
                                     if not k.startswith("learning_rate")}
    np.testing.assert_allclose(got[pagaie][0], got[paddle][0], rtol=1e-5)
    assert sorted(got[pagaie][1]) == sorted(got[paddle][1])
    for k, v in got[paddle][1].items():
        np.testing.assert_allclose(got[pagaie][1][k], v, rtol=1e-5, atol=1e-7, err_msg=k)
