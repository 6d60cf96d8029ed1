"""Seeded parameter initialisation in static programs, pagaie vs real Paddle 3.3.1 (PIR mode).

Paddle fills a parameter created while a program is built when ``exe.run(startup)`` runs the
startup program's initializer ops, in creation order: ``paddle.seed`` between building and
running matters, and a second run draws the next values. A random initializer with seed 0
adopts the startup program's ``random_seed`` when recorded (a fresh engine seeded with it on
every run, so same-shape parameters get the same values and a re-run repeats them), and keeps
it (a shared instance stays seeded, in dynamic mode too). Dynamic mode ignores the programs'
``random_seed``. ``WeightNormParamAttr`` raises TypeError in a static program.
No parameter is copied between the frameworks here: the values come from each one's own draws.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception


def _run(fw, fn):
    fw.enable_static()
    try:
        # (a fresh name space: other tests read Paddle's parameter names, e.g. lstm_cell_0)
        with warnings.catch_warnings(), fw.utils.unique_name.guard():
            warnings.simplefilter("ignore")
            return fn(fw)
    finally:
        fw.disable_static()


def _both(fn):
    paddle = paddle_ref()
    return _run(pagaie, fn), _run(paddle, fn)


def _exact(ours, theirs, what=""):
    assert len(ours) == len(theirs), what
    for i, (a, b) in enumerate(zip(ours, theirs)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (what, i, a.dtype, a.shape, b.dtype, b.shape)
        np.testing.assert_array_equal(a, b, err_msg=f"{what}[{i}]")


def _layers(fw):
    I = fw.nn.initializer
    return [
        fw.nn.Linear(6, 5),
        fw.nn.Conv2D(3, 4, 3),
        fw.nn.Conv2DTranspose(3, 2, 3),
        fw.nn.Embedding(10, 4),
        fw.nn.BatchNorm2D(3),
        fw.nn.LayerNorm(6),
        fw.nn.LSTM(4, 3),
        fw.nn.GRU(4, 3, direction="bidirect"),
        fw.nn.MultiHeadAttention(8, 2),
        fw.nn.PReLU(3),
        fw.nn.Linear(4, 3, weight_attr=I.Uniform(-0.5, 0.5), bias_attr=I.Normal(1.0, 2.0)),
        fw.nn.Linear(4, 3, weight_attr=I.TruncatedNormal(0.0, 0.5), bias_attr=I.XavierNormal()),
        fw.nn.Conv2D(3, 2, 3, weight_attr=I.XavierUniform(), bias_attr=I.KaimingUniform()),
        fw.nn.Conv2D(3, 2, 3, weight_attr=I.KaimingNormal(), bias_attr=I.Constant(0.3)),
        fw.nn.Linear(2, 2, weight_attr=I.Assign(np.arange(4, dtype="float32").reshape(2, 2))),
        fw.nn.Conv2D(2, 2, 3, weight_attr=I.Dirac()),
        fw.nn.Conv2DTranspose(2, 2, 4, weight_attr=I.Bilinear()),
    ]


def _model_params(setup):
    """Build the layers under ``setup``, run the startup program, fetch every parameter."""
    def fn(fw):
        main, startup = fw.static.Program(), fw.static.Program()
        if "rs" in setup:
            startup.random_seed = 33
            main.random_seed = 33
        if "main_rs" in setup:
            main.random_seed = 12
        if "seed" in setup:
            fw.seed(5)
        with fw.static.program_guard(main, startup):
            layers = _layers(fw)
            y = fw.static.data("y", [None, 6], "float32")
            out = fw.static.nn.fc(y, 3)
            cps = [fw.static.create_parameter([3, 4], "float32"),
                   fw.create_parameter([4, 2], "float32"),
                   fw.create_parameter([4], "float64", is_bias=True,
                                       default_initializer=fw.nn.initializer.Normal())]
        if "between" in setup:
            fw.seed(9)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        # Paddle's static RNN layers list extra flat-weight/dropout-state values last:
        # compare the layers' own parameters (the first len(weights) of each).
        keep = {6: 4, 7: 8}     # the LSTM's and the bidirectional GRU's own weights
        flat = [p for i, l in enumerate(layers) for p in list(l.parameters())[:keep.get(i)]] + cps
        return exe.run(main, feed={"y": np.ones([1, 6], "float32")}, fetch_list=flat + [out])
    return fn


@pytest.mark.parametrize("setup", ["rs", "seed", "seed_between", "main_rs_seed", "rs_seed_between"])
def test_startup_parameters_equal_paddles(setup):
    ours, theirs = _both(_model_params(setup))
    _exact(ours, theirs, setup)


def test_orthogonal_takes_the_startup_seed():
    def fn(fw):
        main, startup = fw.static.Program(), fw.static.Program()
        startup.random_seed = 21
        with fw.static.program_guard(main, startup):
            a = fw.nn.Linear(4, 6, weight_attr=fw.nn.initializer.Orthogonal())
            b = fw.nn.Linear(6, 4, weight_attr=fw.nn.initializer.Orthogonal(gain=2.0))
        exe = fw.static.Executor(fw.CPUPlace())
        fw.seed(1)
        exe.run(startup)
        return exe.run(main, fetch_list=[a.weight, b.weight])
    ours, theirs = _both(fn)
    for a, b in zip(ours, theirs):   # a QR factorisation: LAPACK's rounding may differ
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_startup_rerun_repeats_seeded_and_draws_on_unseeded():
    def fn(fw):
        out = []
        for seed in (33, 0):
            main, startup = fw.static.Program(), fw.static.Program()
            startup.random_seed = seed
            fw.seed(4)
            with fw.static.program_guard(main, startup):
                l1, l2 = fw.nn.Linear(4, 3), fw.nn.Linear(4, 3)
            exe = fw.static.Executor(fw.CPUPlace())
            for _ in range(2):
                exe.run(startup)
                out += exe.run(main, fetch_list=[l1.weight, l2.weight])
        return out
    ours, theirs = _both(fn)
    _exact(ours, theirs)
    np.testing.assert_array_equal(ours[0], ours[1])    # same shape, same op seed
    np.testing.assert_array_equal(ours[0], ours[2])    # a re-run repeats a seeded startup
    assert not np.array_equal(ours[4], ours[6])        # and continues an unseeded one


def test_random_seed_is_read_when_the_parameter_is_created():
    def fn(fw):
        main, startup = fw.static.Program(), fw.static.Program()
        fw.seed(4)
        with fw.static.program_guard(main, startup):
            a = fw.nn.Linear(3, 2)
            startup.random_seed = 33      # seeds only what is created from now on
            b = fw.nn.Linear(3, 2)
        startup.random_seed = 0
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        return exe.run(main, fetch_list=[a.weight, b.weight])
    ours, theirs = _both(fn)
    _exact(ours, theirs)


def test_shared_initializer_keeps_the_program_seed():
    """A global (or shared default) initializer adopts the first program seed it meets and
    keeps it: in a later unseeded program and in dynamic mode too."""
    def fn(fw):
        I = fw.nn.initializer
        I.set_global_initializer(I.Uniform(), I.Normal())
        try:
            exe = fw.static.Executor(fw.CPUPlace())
            out = []
            for seed in (21, 0):
                main, startup = fw.static.Program(), fw.static.Program()
                startup.random_seed = seed
                with fw.static.program_guard(main, startup):
                    l = fw.nn.Linear(3, 2)
                fw.seed(5)
                exe.run(startup)
                out += exe.run(main, fetch_list=[l.weight, l.bias])
            shared = I.Normal(0.0, 2.0)
            main, startup = fw.static.Program(), fw.static.Program()
            startup.random_seed = 9
            with fw.static.program_guard(main, startup):
                a = fw.create_parameter([3], "float32", default_initializer=shared)
                b = fw.static.create_parameter([3], "float32", default_initializer=shared)
            exe.run(startup)
            out += exe.run(main, fetch_list=[a, b])
            fw.disable_static()
            fw.seed(5)
            out.append(fw.nn.Linear(3, 2).weight.numpy())
            out.append(fw.create_parameter([3], "float32", default_initializer=shared).numpy())
            fw.enable_static()
            return out
        finally:
            I.set_global_initializer(None)
    ours, theirs = _both(fn)
    _exact(ours, theirs)


def test_building_a_program_does_not_move_the_stream():
    """Nothing is drawn until the startup program runs: eager draws after building (and the
    startup run after them) continue the stream where paddle.seed left it."""
    def fn(fw):
        fw.seed(3)
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            l = fw.nn.Linear(5, 4)
        fw.disable_static()
        r = fw.rand([3]).numpy()
        fw.enable_static()
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        return [r] + exe.run(main, fetch_list=[l.weight])
    ours, theirs = _both(fn)
    _exact(ours, theirs)


def test_dynamic_mode_ignores_program_random_seed():
    paddle = paddle_ref()
    got = []
    for fw in (pagaie, paddle):
        fw.seed(1)
        fw.static.default_main_program().random_seed = 33
        fw.static.default_startup_program().random_seed = 33
        try:
            with fw.utils.unique_name.guard():
                got.append([fw.nn.Linear(3, 2).weight.numpy(), fw.nn.Linear(3, 2).weight.numpy()])
        finally:
            fw.static.default_main_program().random_seed = 0
            fw.static.default_startup_program().random_seed = 0
    _exact(got[0], got[1])
    assert not np.array_equal(got[0][0], got[0][1])


@pytest.mark.parametrize("variant", ["rs", "seed_only", "seed_and_rs"])
def test_static_training_losses_equal_paddles(variant):
    """PaddleTest's pattern: seeds set, startup run, 10 steps of Conv2D/Linear + Dropout + Adam
    on numpy batches; losses equal Paddle's without copying parameters."""
    def fn(fw):
        main, startup = fw.static.Program(), fw.static.Program()
        if variant != "seed_only":
            main.random_seed = startup.random_seed = 33
        if variant != "rs":
            fw.seed(33)
        F = fw.nn.functional
        with fw.static.program_guard(main, startup):
            x = fw.static.data("x", [None, 3, 8, 8], "float32")
            lab = fw.static.data("lab", [None, 1], "int64")
            h = fw.nn.MaxPool2D(2)(F.relu(fw.nn.Conv2D(3, 4, 3, padding=1)(x)))
            h = fw.nn.Dropout(0.3)(fw.flatten(h, 1))
            h = F.relu(fw.nn.Linear(64, 16)(h))
            loss = F.cross_entropy(fw.nn.Linear(16, 5)(h), lab).mean()
            fw.optimizer.Adam(learning_rate=0.01).minimize(loss)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        rng = np.random.RandomState(2024)
        losses = []
        for _ in range(10):
            feed = {"x": rng.standard_normal([4, 3, 8, 8]).astype("float32"),
                    "lab": rng.randint(0, 5, [4, 1]).astype("int64")}
            losses.append(float(exe.run(main, feed=feed, fetch_list=[loss])[0]))
        return losses
    ours, theirs = _both(fn)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)


@pytest.mark.parametrize("make", ["linear", "fc", "create_parameter"])
def test_weight_norm_param_attr_raises_in_static_programs(make):
    def fn(fw):
        fw.enable_static()
        try:
            main, startup = fw.static.Program(), fw.static.Program()
            with fw.static.program_guard(main, startup), fw.utils.unique_name.guard():
                attr = fw.static.WeightNormParamAttr(dim=0)
                x = fw.static.data("x", [None, 3], "float32")
                if make == "linear":
                    fw.nn.Linear(3, 2, weight_attr=attr)
                elif make == "fc":
                    fw.static.nn.fc(x, 2, weight_attr=attr)
                else:
                    fw.static.create_parameter([3, 2], "float32", attr=attr)
        finally:
            fw.disable_static()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        err = same_exception(fn)
    assert "WeightNormParamAttr" in str(err)


def test_startup_program_json_round_trip_keeps_initializers():
    """(pagaie only: Paddle's PIR startup program is not JSON) the init ops serialise with
    their initializer's class and fields, seed included."""
    def fn(fw):
        main, startup = fw.static.Program(), fw.static.Program()
        startup.random_seed = 7
        I = fw.nn.initializer
        with fw.static.program_guard(main, startup):
            fw.nn.Linear(2, 3)
            fw.create_parameter([2, 2], "float32", default_initializer=I.Assign(np.eye(2, dtype="float32")))
        back = fw.static.Program.from_json(startup.to_json())
        return [op.attrs["initializer"] for op in back.global_block().ops]
    inits = _run(pagaie, fn)
    assert [type(i).__name__ for i in inits] == ["XavierUniform", "Constant", "Assign"]
    assert inits[0]._seed == 7
    np.testing.assert_array_equal(inits[2]._value, np.eye(2, dtype="float32"))


def test_manual_program_seed_as_paddle():
    """paddle.framework.random._manual_program_seed, used by Paddle's own unit tests."""
    P = paddle_ref()
    seen = []
    for fw in (P, pagaie):
        from importlib import import_module
        mod = import_module(f"{fw.__name__}.framework.random")
        mod._manual_program_seed(11)
        try:
            seen.append((fw.static.default_main_program().random_seed,
                         fw.static.default_startup_program().random_seed, fw.static.Program().random_seed))
        finally:
            mod._manual_program_seed(0)
    assert seen[0] == seen[1] == (11, 11, 11)


SHARED_SCRIPT = """
import numpy as np
def run(paddle):
    out = []
    for shared in (True, False):
        paddle.seed(3)
        paddle.enable_static()
        main, st = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, st):
            x = paddle.static.data('x', [2, 3])
            l1 = paddle.nn.Linear(3, 3, weight_attr=paddle.ParamAttr(name='sw' if shared else 'sw1'))
            l2 = paddle.nn.Linear(3, 3, weight_attr=paddle.ParamAttr(name='sw' if shared else 'sw2'))
            y = l2(l1(x))
        exe = paddle.static.Executor()
        exe.run(st)
        out.append(exe.run(main, feed={'x': np.ones((2, 3), 'float32')}, fetch_list=[y])[0])
        if shared:   # another program reuses the trained-by-name parameter
            main2 = paddle.static.Program()
            with paddle.static.program_guard(main2, paddle.static.Program()):
                x = paddle.static.data('x', [2, 3])
                z = paddle.nn.Linear(3, 3, weight_attr=paddle.ParamAttr(name='sw'), bias_attr=False)(x)
            out.append(exe.run(main2, feed={'x': np.ones((2, 3), 'float32')}, fetch_list=[z])[0])
        paddle.disable_static()
        out.append(paddle.rand([2]).numpy())
    return out
"""


def test_parameters_shared_by_name_across_layers_and_programs():
    """A ParamAttr name used twice in static programs is one parameter (Paddle's scope variable);
    its second initializer still draws at startup."""
    P = paddle_ref()
    ns = {}
    exec(SHARED_SCRIPT, ns)
    theirs = ns["run"](P)
    ours = ns["run"](pagaie)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_executor_caches_do_not_outlive_their_program():
    """A program allocated where a freed one lived (same id, same version and var count) gets
    its own plan and persistable state, not the freed program's."""
    import weakref

    from pagaie.static.executor import global_plan_cache

    pagaie.enable_static()
    try:
        main, startup = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, startup):
            x = pagaie.static.data("x", [2], "float32")
            y = x * 3.0
        exe = pagaie.static.Executor(pagaie.CPUPlace())

        class Gone:
            pass
        dead = weakref.ref(Gone())              # what a freed program's reference reads
        key = (main.version, ("x",), (y.name,))
        global_plan_cache.entries[(id(main),) + key] = (dead, "stale plan")
        exe._states.entries[(id(main), main.version, sum(len(b.vars) for b in main.blocks))] = (
            dead, "stale state")
        out, = exe.run(main, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[y])
        np.testing.assert_array_equal(out, [3.0, 6.0])
    finally:
        pagaie.disable_static()
