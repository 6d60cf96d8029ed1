"""Static training and program files, pagaie vs real Paddle 3.3.1: optimizers (with weight
decay, gradient clipping, LR schedulers) trained from Paddle's initial parameters, and
``static.save`` / ``load`` / ``set_program_state`` / inference models moving between the two."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception

STEPS = 8


def _batches():
    rng = np.random.default_rng(7)
    bs = [{"x": rng.standard_normal([6, 4]).astype("float32"),
           "y": rng.standard_normal([6, 1]).astype("float32")} for _ in range(3)]
    return [bs[i % 3] for i in range(STEPS)]


def _params(main):
    return [p for p in main.global_block().all_parameters() if not p.name.startswith("learning_rate")]


def _mlp(fw, make_opt):
    x = fw.static.data("x", [None, 4], "float32")
    y = fw.static.data("y", [None, 1], "float32")
    h = fw.nn.functional.tanh(fw.nn.Linear(4, 8)(x))
    loss = fw.mean((fw.static.nn.fc(h, 1) - y) ** 2)
    opt, sched = make_opt(fw)
    opt.minimize(loss)
    return loss, sched


def _train(fw, make_opt, init=None):
    fw.seed(2024)
    fw.enable_static()
    try:
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            loss, sched = _mlp(fw, make_opt)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        params = _params(main)
        if init is None:
            init = [np.array(fw.static.global_scope().find_var(p.name).get_tensor()) for p in params]
        else:  # Paddle's initial values, by creation order
            fw.static.set_program_state(main, {p.name: v for p, v in zip(params, init)})
        losses = []
        for b in _batches():
            losses.append(float(exe.run(main, feed=b, fetch_list=[loss])[0]))
            if sched is not None:
                sched.step()
        return init, losses
    finally:
        fw.disable_static()


def _sched(kind):
    def make(fw):
        s = {"step": lambda: fw.optimizer.lr.StepDecay(0.1, step_size=3, gamma=0.5),
             "warmup": lambda: fw.optimizer.lr.LinearWarmup(0.1, 4, 0.0, 0.1),
             "cosine": lambda: fw.optimizer.lr.CosineAnnealingDecay(0.05, 5)}[kind]()
        return fw.optimizer.Momentum(s, momentum=0.9), s
    return make


OPTIMIZERS = {
    "sgd-l1": lambda fw: fw.optimizer.SGD(0.05, weight_decay=fw.regularizer.L1Decay(0.1)),
    "momentum-nesterov-wd": lambda fw: fw.optimizer.Momentum(0.05, 0.9, use_nesterov=True, weight_decay=0.01),
    "adam-l2": lambda fw: fw.optimizer.Adam(0.01, weight_decay=fw.regularizer.L2Decay(0.1)),
    "adamw": lambda fw: fw.optimizer.AdamW(0.01, weight_decay=0.3),
    "adagrad": lambda fw: fw.optimizer.Adagrad(0.05, initial_accumulator_value=0.1),
    "rmsprop-centered": lambda fw: fw.optimizer.RMSProp(0.01, centered=True, momentum=0.5),
    "adamax": lambda fw: fw.optimizer.Adamax(0.01),
    "adadelta": lambda fw: fw.optimizer.Adadelta(0.5),
    "lamb": lambda fw: fw.optimizer.Lamb(0.01, lamb_weight_decay=0.1),
    "clip-norm": lambda fw: fw.optimizer.SGD(0.05, grad_clip=fw.nn.ClipGradByNorm(0.1)),
    "clip-global-norm": lambda fw: fw.optimizer.Adam(0.05, grad_clip=fw.nn.ClipGradByGlobalNorm(0.1)),
}


@pytest.mark.parametrize("name", list(OPTIMIZERS) + ["sched-step", "sched-warmup", "sched-cosine"])
def test_static_training_matches_paddle(name):
    paddle = paddle_ref()
    make = _sched(name[6:]) if name.startswith("sched-") else (lambda fw: (OPTIMIZERS[name](fw), None))
    init, theirs = _train(paddle, make)
    _, ours = _train(pagaie, make, init)
    np.testing.assert_allclose(ours, theirs, rtol=2e-4, atol=1e-5)


# ---- program files -----------------------------------------------------------------------------
def _saved_program(fw, tmp, names):
    """An Adam-trained program with named parameters, saved after 2 steps under ``tmp/m``."""
    fw.seed(1)
    main, startup = fw.static.Program(), fw.static.Program()
    # (fresh name counters: the learning rate is ``learning_rate_0`` in both frameworks)
    with fw.static.program_guard(main, startup), fw.utils.unique_name.guard():
        x = fw.static.data("x", [None, 4], "float32")
        y = fw.static.data("y", [None, 1], "float32")
        h = fw.nn.Linear(4, 3, weight_attr=fw.ParamAttr(name=names[0]),
                         bias_attr=fw.ParamAttr(name=names[1]))(x)
        out = fw.static.nn.fc(h, 1, weight_attr=fw.ParamAttr(name=names[2]),
                              bias_attr=fw.ParamAttr(name=names[3]))
        loss = fw.mean((out - y) ** 2)
        fw.optimizer.Adam(0.01).minimize(loss)
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(startup)
    return main, exe, x, out, loss


_FEED = {"x": np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4),
         "y": np.array([[0.5], [-1.0], [2.0]], "float32")}


def _with_static(fw, fn):
    fw.enable_static()
    try:
        return fn()
    finally:
        fw.disable_static()


def test_static_save_files_load_in_paddle_and_back(tmp_path):
    """pagaie's .pdopt holds Paddle's ``learning_rate_0``: real Paddle loads the files."""
    paddle = paddle_ref()
    names = ["sw_w1", "sw_b1", "sw_w2", "sw_b2"]

    def ours():
        main, exe, _, _, loss = _saved_program(pagaie, tmp_path, names)
        state = {n: np.array(pagaie.static.global_scope().find_var(n).get_tensor()) for n in names}
        for _ in range(2):
            exe.run(main, feed=_FEED, fetch_list=[loss])
        pagaie.static.save(main, str(tmp_path / "ours" / "m"))
        return state, float(exe.run(main, feed=_FEED, fetch_list=[loss])[0])

    init, ours_loss = _with_static(pagaie, ours)
    saved = pagaie.static.load_program_state(str(tmp_path / "ours" / "m"))
    assert saved["learning_rate_0"].shape == () and saved["learning_rate_0"].dtype == np.float32

    def theirs():
        main, exe, _, _, loss = _saved_program(paddle, tmp_path, names)
        paddle.static.load(main, str(tmp_path / "ours" / "m"), exe)  # asserts every variable is there
        value = float(exe.run(main, feed=_FEED, fetch_list=[loss])[0])
        paddle.static.save(main, str(tmp_path / "theirs" / "m"))
        return value

    theirs_loss = _with_static(paddle, theirs)
    np.testing.assert_allclose(ours_loss, theirs_loss, rtol=1e-5)

    def back():  # Paddle's files (with its learning_rate_0) load into pagaie
        main, exe, _, _, loss = _saved_program(pagaie, tmp_path, names)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            pagaie.static.load(main, str(tmp_path / "theirs" / "m"), exe)
        return float(exe.run(main, feed=_FEED, fetch_list=[loss])[0])

    assert np.isfinite(_with_static(pagaie, back))
    assert init  # (initial values were read through the scope)


def test_static_load_errors_match_paddle(tmp_path):
    names = ["le_w1", "le_b1", "le_w2", "le_b2"]

    def missing_params(fw):
        def go():
            main, exe, *_ = _saved_program(fw, tmp_path, names)
            fw.static.load(main, str(tmp_path / fw.__name__ / "nosuch"), exe)
        _with_static(fw, go)

    assert "nosuch.pdparams" in str(same_exception(missing_params))

    def missing_opt(fw):
        def go():
            main, exe, _, _, loss = _saved_program(fw, tmp_path, names)
            exe.run(main, feed=_FEED, fetch_list=[loss])
            prefix = str(tmp_path / fw.__name__ / "m")
            fw.static.save(main, prefix)
            os.remove(prefix + ".pdopt")
            fw.static.load(main, prefix, exe)
        _with_static(fw, go)

    assert ".pdopt" in str(same_exception(missing_opt))


@pytest.mark.parametrize("value", [np.zeros([3, 3], "float32"), np.zeros([4, 3], "float64")],
                         ids=["shape", "dtype"])
def test_set_program_state_mismatch_is_an_assertion(tmp_path, value):
    names = ["sm_w1", "sm_b1", "sm_w2", "sm_b2"]

    def go(fw):
        def run():
            main, *_ = _saved_program(fw, tmp_path, names)
            fw.static.set_program_state(main, {"sm_w1": value})
        _with_static(fw, run)

    assert "sm_w1" in str(same_exception(go))


def test_set_program_state_partial_after_training(tmp_path):
    """Only the given values change; optimizer state not given keeps its value (Paddle)."""
    names = ["sp_w1", "sp_b1", "sp_w2", "sp_b2"]

    def go():
        main, exe, _, _, loss = _saved_program(pagaie, tmp_path, names)
        exe.run(main, feed=_FEED, fetch_list=[loss])
        before = {k: np.asarray(v) for k, v in main.state_dict().items()}
        with pytest.warns(UserWarning, match="no_such_value"):
            pagaie.static.set_program_state(main, {"sp_w1_moment1_0": np.full([4, 3], 0.5, "float32"),
                                                   "no_such_value": np.zeros([2], "float32")})
        after = {k: np.asarray(v) for k, v in main.state_dict().items()}
        assert (after["sp_w1_moment1_0"] == 0.5).all()
        for k in before:
            if k != "sp_w1_moment1_0":
                np.testing.assert_array_equal(after[k], before[k], err_msg=k)
        exe.run(main, feed=_FEED, fetch_list=[loss])  # and training goes on

    _with_static(pagaie, go)


def test_load_inference_model_reads_paddle_exports(tmp_path):
    paddle = paddle_ref()
    names = ["ie_w1", "ie_b1", "ie_w2", "ie_b2"]
    prefix = str(tmp_path / "inf")

    def theirs():
        main, exe, x, out, _ = _saved_program(paddle, tmp_path, names)
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        return exe.run(main, feed=_FEED, fetch_list=[out])[0]

    expected = _with_static(paddle, theirs)

    def ours():
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        program, feeds, fetches = pagaie.static.load_inference_model(prefix, exe)
        assert feeds == ["x"]
        return exe.run(program, feed={"x": _FEED["x"]}, fetch_list=fetches)[0]

    np.testing.assert_allclose(_with_static(pagaie, ours), expected, rtol=1e-5, atol=1e-6)


def test_amp_program_saves_its_optimizer_state(tmp_path):
    def go():
        main, startup = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, startup):
            x = pagaie.static.data("x", [None, 4], "float32")
            lin = pagaie.nn.Linear(4, 2, weight_attr=pagaie.ParamAttr(name="amp_sv_w"))
            loss = pagaie.mean(lin(x))
            opt = pagaie.static.amp.decorate(pagaie.optimizer.Adam(0.01), level="O1", dtype="bfloat16")
            opt.minimize(loss)
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(startup)
        exe.run(main, feed={"x": _FEED["x"]}, fetch_list=[loss])
        pagaie.static.save(main, str(tmp_path / "amp"))
        return pagaie.static.load_program_state(str(tmp_path / "amp"))

    state = _with_static(pagaie, go)
    assert "amp_sv_w_moment1_0" in state and any(k.startswith("learning_rate_") for k in state)


def _rnn_losses(fw, kind, init=None):
    fw.seed(1)
    fw.enable_static()
    try:
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            x = fw.static.data("x", [None, 5, 4], "float32")
            y = fw.static.data("y", [None, 1], "float32")
            out, _ = getattr(fw.nn, kind)(4, 6)(x)
            loss = fw.mean((fw.mean(out, axis=[1, 2]).unsqueeze(-1) - y) ** 2)
            fw.optimizer.Adam(0.05).minimize(loss)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        names = sorted(p.name for p in main.global_block().all_parameters() if "cell" in p.name)
        if init is None:
            init = {n: np.array(fw.static.global_scope().find_var(n).get_tensor()) for n in names}
        else:
            fw.static.set_program_state(main, init)
        rng = np.random.default_rng(0)
        feed = {"x": rng.standard_normal([3, 5, 4]).astype("float32"),
                "y": rng.standard_normal([3, 1]).astype("float32")}
        return init, [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(4)]
    finally:
        fw.disable_static()


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "SimpleRNN"])
def test_recurrent_layers_train_in_static_mode_as_in_paddle(kind):
    # (their dropout-state buffer once made them fail to build in a static program)
    init, theirs = _rnn_losses(paddle_ref(), kind)
    assert sorted(init) == [f"{kind.lower().replace('simplernn', 'simple_rnn')}_cell_0.{s}"
                            for s in ("b_0", "b_1", "w_0", "w_1")]
    _, ours = _rnn_losses(pagaie, kind, init)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
