"""paddle.amp against real Paddle 3.3.1: argument checks, decorate, GradScaler, debugging,
and short O1/O2 bfloat16 trainings.

Real Paddle's eager AMP makes no effect on a CPU place, so tests comparing the CPU
behaviour turn pagaie's CPU AMP off (tests/amp/conftest.py turns it on); tests of the
GPU-place behaviour let Paddle's Python layer believe the place is a GPU (its CPU kernels
are complete) and keep pagaie's CPU AMP on.
"""
from __future__ import annotations

import sys
import types
import warnings

import numpy as np
import pytest

import pagaie
from pagaie.amp import state
from tests.reference import assert_same, both, paddle_ref, same_exception


@pytest.fixture
def cpu_amp_off():
    prev = state.allow_cpu(False)
    yield
    state.allow_cpu(prev)


class _GpuLike:
    def is_gpu_place(self):
        return True

    def is_xpu_place(self):
        return False

    def is_custom_place(self):
        return False


class _TracerOnGpu:
    """The real tracer, except that its expected place says GPU."""

    def __init__(self, tracer):
        object.__setattr__(self, "_tracer", tracer)

    def __getattr__(self, name):
        return _GpuLike() if name == "_expected_place" else getattr(self._tracer, name)

    def __setattr__(self, name, value):
        setattr(self._tracer, name, value)


@pytest.fixture
def gpu_place(monkeypatch):
    """Paddle's decorate and GradScaler act as on a GPU place; pagaie's CPU AMP stays on."""
    paddle = paddle_ref()
    import paddle.amp.grad_scaler  # noqa: F401
    from paddle.amp.auto_cast import amp_global_state
    from paddle.base.framework import _dygraph_tracer
    acm = sys.modules["paddle.amp.auto_cast"]
    gsm = sys.modules["paddle.amp.grad_scaler"]
    monkeypatch.setattr(acm, "_dygraph_tracer", lambda: _TracerOnGpu(_dygraph_tracer()))
    monkeypatch.setattr(acm, "_is_gpu_float16_supported", lambda: True)
    monkeypatch.setattr(acm, "_is_gpu_bfloat16_supported", lambda: True)
    monkeypatch.setattr(gsm, "_dygraph_tracer", lambda: types.SimpleNamespace(_expected_place=_GpuLike()))
    monkeypatch.setattr(amp_global_state(), "amp_dtype", "float16")
    # Paddle's scale-decrease message calls float() on a [1] tensor, which numpy 2 refuses
    monkeypatch.setattr(paddle.Tensor, "__float__", lambda self: float(self.numpy().reshape(-1)[0]),
                        raising=False)
    state.set_amp_dtype("float16")
    return paddle


def _quiet(fn):
    def run(pd):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(pd)
    return run


# ---- auto_cast ---------------------------------------------------------------------------
def test_auto_cast_checks_its_arguments_on_entry(cpu_amp_off):
    def f(pd):
        cms = [pd.amp.auto_cast(level="O3"), pd.amp.auto_cast(custom_white_list={"exp"},
                                                               custom_black_list={"exp"}),
               pd.autocast("cpu", dtype="float32")]
        return len(cms)
    assert both(_quiet(f))[0] == 3            # building the context managers raises nothing

    def enter(**kw):
        def g(pd):
            with pd.amp.auto_cast(**kw):
                pass
        return _quiet(g)
    same_exception(enter(level="O3"))
    same_exception(enter(dtype="float32"))
    same_exception(enter(dtype="float32", level="O0"))
    same_exception(enter(custom_white_list={"exp"}, custom_black_list={"exp"}, enable=False))


def test_auto_cast_argument_spellings(cpu_amp_off):
    def f(pd):
        out = []
        for kw in ({"level": "o1"}, {"level": "od"}, {"dtype": "BFLOAT16"}, {"dtype": pd.bfloat16},
                   {"custom_white_list": {"exp"}, "custom_black_list": {"exp"}, "level": "O0"},
                   {"custom_white_list": "exp"}, {"enable": 0}):
            with pd.amp.auto_cast(**kw):
                out.append((pd.amp.is_autocast_enabled(), pd.amp.get_autocast_dtype(),
                            str(pd.matmul(pd.ones([2, 2]), pd.ones([2, 2])).dtype)))
        return out
    ours, theirs = both(_quiet(f))
    assert ours == theirs


def test_auto_cast_disabled_accepts_any_dtype_name(cpu_amp_off):
    # Paddle then fails with a KeyError from its own lists; pagaie just casts nothing
    with pagaie.amp.auto_cast(enable=False, dtype="float32"):
        assert pagaie.matmul(pagaie.ones([2, 2]), pagaie.ones([2, 2])).dtype == pagaie.float32


@pytest.mark.parametrize("cfg", [dict(dtype="bfloat16", level="O1"), dict(dtype="float16", level="O2"),
                                 dict(dtype="bfloat16", level="OD"), dict(enable=False)])
def test_ops_under_auto_cast_on_cpu_stay_float32(cfg, cpu_amp_off):
    def f(pd):
        pd.seed(0)
        x = pd.to_tensor(np.random.RandomState(0).rand(2, 4).astype("float32"))
        w = pd.to_tensor(np.random.RandomState(1).rand(4, 3).astype("float32"))
        lab = pd.to_tensor([0, 2])
        F = pd.nn.functional
        with pd.amp.auto_cast(**cfg):
            outs = [pd.matmul(x, w), F.linear(x, w), F.conv2d(pd.ones([1, 1, 4, 4]), pd.ones([2, 1, 3, 3])),
                    F.softmax(x), F.layer_norm(x, [4]), x.mean(), x.sum(), x + x.astype("float16"),
                    F.cross_entropy(pd.matmul(x, w), lab), pd.exp(x), pd.log(x),
                    pd.concat([x, x.astype("bfloat16").astype("float32")]),
                    F.embedding(lab, pd.ones([3, 4])), F.dropout(x, 0.0)]
        return [str(o.dtype) for o in outs]
    ours, theirs = both(_quiet(f))
    assert ours == theirs


def test_amp_namespace_hides_torch():
    assert "torch" not in dir(pagaie.amp)


# ---- decorate ----------------------------------------------------------------------------
def _model(pd):
    pd.seed(0)
    return pd.nn.Sequential(pd.nn.Linear(4, 4), pd.nn.LayerNorm(4), pd.nn.BatchNorm1D(4),
                            pd.nn.GroupNorm(2, 4), pd.nn.InstanceNorm1D(4), pd.nn.Linear(4, 2),
                            pd.nn.Embedding(3, 4), pd.nn.Conv1D(4, 4, 1))


def _decorated_dtypes(**kwargs):
    def f(pd):
        kw = dict(kwargs)
        m = _model(pd)
        o = pd.optimizer.AdamW(0.1, parameters=m.parameters())
        if "excluded_layers" in kw and kw["excluded_layers"] == "Linear":
            kw["excluded_layers"] = [pd.nn.Linear]
        res = pd.amp.decorate(m, o, **kw)
        return ([type(r).__name__ for r in res], [(k, str(v.dtype)) for k, v in m.state_dict().items()],
                o._multi_precision)
    return _quiet(f)


@pytest.mark.parametrize("kw", [
    dict(level="O2", dtype="bfloat16"), dict(level="O2", dtype="float16"),
    dict(level="O2", dtype="bfloat16", master_weight=False), dict(level="O2", dtype="bfloat16", save_dtype="float32"),
    dict(level="O1", save_dtype="float16"), dict(level="O1", save_dtype="int8"),
    dict(level="O2", dtype="bfloat16", excluded_layers="Linear"),
])
def test_decorate_casts_like_paddle_on_a_gpu_place(kw, gpu_place):
    ours, theirs = both(_decorated_dtypes(**dict(kw)))
    assert ours == theirs


@pytest.mark.parametrize("kw", [dict(level="O2", dtype="bfloat16"), dict(level="O1", save_dtype="int8")])
def test_decorate_changes_nothing_on_cpu(kw, cpu_amp_off):
    ours, theirs = both(_decorated_dtypes(**kw))
    assert ours == theirs


def test_decorate_bad_arguments(gpu_place):
    same_exception(_quiet(lambda pd: pd.amp.decorate(_model(pd), level="o2", dtype="bfloat16")))
    same_exception(_quiet(lambda pd: pd.amp.decorate(_model(pd), level="O1", dtype="float32")))
    same_exception(_quiet(lambda pd: pd.amp.decorate(_model(pd), level="O2", dtype="bfloat16",
                                                     save_dtype="int8")))
    same_exception(_quiet(lambda pd: pd.amp.decorate(_model(pd), level="O2", dtype="bfloat16",
                                                     excluded_layers=3)))
    same_exception(_quiet(lambda pd: pd.amp.decorate((_model(pd),), level="O2", dtype="bfloat16")))
    same_exception(_quiet(lambda pd: pd.amp.decorate(3, level="O2", dtype="bfloat16")))
    same_exception(_quiet(lambda pd: pd.amp.decorate(_model(pd), 3, level="O2", dtype="bfloat16")))

    def lists(pd):
        m = _model(pd)
        ms, os_ = pd.amp.decorate([m], [pd.optimizer.SGD(0.1, parameters=m.parameters())],
                                  level="O2", dtype="bfloat16")
        return type(ms).__name__, type(os_).__name__, str(m[0]._dtype).replace("paddle.", "")
    ours, theirs = both(_quiet(lists))
    assert ours == theirs


def test_decorate_o2_master_weights_in_optimizer_state(gpu_place):
    def f(pd):
        lin = pd.nn.Linear(2, 2)
        lin.weight.set_value(np.array([[0.5, -1.0], [0.25, 2.0]], "float32"))
        lin.bias.set_value(np.array([0.1, -0.1], "float32"))
        opt = pd.optimizer.SGD(0.5, parameters=lin.parameters())
        lin, opt = pd.amp.decorate(lin, opt, level="O2", dtype="bfloat16")
        (lin.weight.astype("float32") * 3.0).sum().backward()
        opt.step()
        sd = opt.state_dict()
        mw = sd["master_weights"][lin.weight.name]
        return str(mw.dtype), mw.numpy(), str(lin.weight.dtype), lin.weight.astype("float32").numpy()
    ours, theirs = both(_quiet(f))
    # dtypes only: Paddle's CPU SGD kernel leaves a bfloat16 multi-precision parameter as is
    assert ours[0] == theirs[0] == "paddle.float32" and ours[2] == theirs[2] == "paddle.bfloat16"
    np.testing.assert_allclose(ours[1], ours[3], rtol=1e-2)   # the parameter follows its master


# ---- GradScaler --------------------------------------------------------------------------
def _setup(pd, **kw):
    lin = pd.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[0.5], [-0.25]], "float32"))
    lin.bias.set_value(np.array([0.1], "float32"))
    return lin, pd.optimizer.SGD(0.1, parameters=lin.parameters()), pd.amp.GradScaler(**kw)


def test_grad_scaler_ratio_checks_raise_assertion_errors(gpu_place):
    same_exception(lambda pd: pd.amp.GradScaler(incr_ratio=0.5))
    same_exception(lambda pd: pd.amp.GradScaler(decr_ratio=1.5))
    same_exception(lambda pd: pd.amp.GradScaler().set_incr_ratio(1.0))
    same_exception(lambda pd: pd.amp.GradScaler().set_decr_ratio(1.0))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_grad_scaler_scale_promotes_to_float32(dtype, gpu_place):
    def f(pd):
        sc = pd.amp.GradScaler(init_loss_scaling=8.0)
        return sc.scale(pd.to_tensor([2.0, 3.0]).astype(dtype)), sc.scale(pd.to_tensor(2.0).astype(dtype))
    assert_same(*both(f))


def test_disabled_grad_scaler_returns_any_input(cpu_amp_off):
    ours, theirs = both(_quiet(lambda pd: pd.amp.GradScaler().scale(3.0)))
    assert ours == theirs == 3.0


def test_grad_scaler_minimize_on_overflow_reports_pairs(gpu_place, capsys):
    def f(pd):
        lin, opt, sc = _setup(pd, init_loss_scaling=8.0)
        loss = sc.scale(lin(pd.ones([1, 2]) * float("inf")).mean())
        loss.backward()
        ops, pairs = sc.minimize(opt, loss)
        return ops, [p for p, _ in pairs], [g.shape for _, g in pairs], lin.weight, sc.state_dict()["scale"]
    ours, theirs = both(f)
    assert ours[0] == theirs[0] == [] and ours[2] == theirs[2]
    assert_same(ours[1], theirs[1])
    assert_same(ours[3], theirs[3])
    np.testing.assert_array_equal(ours[4], theirs[4])


def test_grad_scaler_load_state_dict_keeps_numpy_scale(gpu_place):
    def f(pd):
        sc = pd.amp.GradScaler()
        sc.load_state_dict({"scale": np.array([12.0], "float32"), "incr_ratio": 5.0, "decr_ratio": 0.2,
                            "incr_every_n_steps": 3, "decr_every_n_nan_or_inf": 4, "incr_count": 1,
                            "decr_count": 2, "use_dynamic_loss_scaling": False})
        v = sc.get_init_loss_scaling()
        return type(v).__name__, float(v), {k: np.asarray(v).tolist() for k, v in sc.state_dict().items()}
    ours, theirs = both(f)
    assert ours == theirs


def test_grad_scaler_protocol_errors_and_counters(gpu_place, capsys):
    def step_twice(pd):
        lin, opt, sc = _setup(pd)
        sc.scale(lin(pd.ones([1, 2])).mean()).backward()
        sc.step(opt)
        sc.step(opt)

    def unscale_after_step(pd):
        lin, opt, sc = _setup(pd)
        sc.scale(lin(pd.ones([1, 2])).mean()).backward()
        sc.step(opt)
        sc.unscale_(opt)
    same_exception(step_twice)
    same_exception(unscale_after_step)

    def counters(pd):
        lin, opt, sc = _setup(pd, init_loss_scaling=1024.0, decr_every_n_nan_or_inf=2,
                              incr_every_n_steps=2, decr_ratio=0.25, incr_ratio=3.0)
        out = []
        for bad in [1, 1, 1, 0, 0, 0, 1, 0]:
            sc.scale(lin(pd.ones([1, 2]) * (float("inf") if bad else 1.0)).mean()).backward()
            sc.step(opt)
            sc.update()
            opt.clear_grad()
            out.append({k: np.asarray(v).tolist() for k, v in sc.state_dict().items()})
        return out, lin.weight.numpy().tolist()
    ours, theirs = both(counters)
    assert ours == theirs


# ---- debugging ---------------------------------------------------------------------------
def test_check_numerics_print_and_values(capsys):
    ref = paddle_ref()
    D = pagaie.amp.debugging
    x = pagaie.to_tensor([1.0, 0.0, 2.0])
    stats, values = D.check_numerics(x, "myop", "x", D.DebugMode.CHECK_ALL)
    # Paddle prints this line from C++ (not capturable here): no level, no NaN/Inf counts
    assert capsys.readouterr().out == ("[PRECISION] in [device=cpu, op=myop, tensor=x, dtype=fp32], numel=3, "
                                       "num_zero=1, max=2.000000e+00, min=0.000000e+00, mean=1.000000e+00\n")
    rs, rv = ref.amp.debugging.check_numerics(ref.to_tensor([1.0, 0.0, 2.0]), "myop", "x",
                                              ref.amp.debugging.DebugMode.CHECK_ALL)
    assert_same([stats, values], [rs, rv])
    D.check_numerics(pagaie.zeros([0]), "myop", "x", D.DebugMode.CHECK_ALL)
    assert capsys.readouterr().out == ""     # nothing printed for an empty tensor


def test_tensor_checker_config_fields_and_seeding(capsys):
    def f(pd):
        pd.seed(7)
        D = pd.amp.debugging
        c = D.TensorCheckerConfig(True, checked_op_list=["exp"], debug_step=[-1, 3])
        off = D.TensorCheckerConfig(False)
        return ([c.checked_op_list, c.skipped_op_list, c.debug_step, c.start_step, c.end_step, c.seed,
                 off.checked_op_list, off.start_step], pd.rand([3]).numpy(), np.random.rand(2))
    ours, theirs = both(f)
    assert ours[0] == theirs[0]
    np.testing.assert_array_equal(ours[2], theirs[2])      # numpy reseeded with 7 in both
    out = capsys.readouterr().out
    assert out.count("AMP Debugging TensorCheckerConfig: seed  7") == 2
    same_exception(lambda pd: pd.amp.debugging.TensorCheckerConfig(True, debug_step=[3, 1]))
    same_exception(lambda pd: pd.amp.debugging.TensorCheckerConfig(True, debug_step=3))


def test_operator_stats_count_a_cast_by_its_input_dtype(capsys):
    D = pagaie.amp.debugging
    with D.collect_operator_stats():
        x = pagaie.ones([2, 2])
        (x + x).astype("float16")
    rows = {ln.split("|")[0].strip(): [int(c) for c in ln.split("|")[1:]]
            for ln in capsys.readouterr().out.splitlines() if ln.startswith("  ")}
    # Paddle's table (printed from C++): cast 0|0|1|0, elementwise_add 0|0|1|0, fill_constant 0|0|1|0
    assert rows == {"cast": [0, 0, 1, 0], "elementwise_add": [0, 0, 1, 0], "fill_constant": [0, 0, 1, 0]}


# ---- short trainings ---------------------------------------------------------------------
def _train(pd, level, steps=5):
    rng = np.random.RandomState(0)
    x = pd.to_tensor(rng.rand(16, 8).astype("float32"))
    y = pd.to_tensor(rng.randint(0, 3, 16).astype("int64"))
    w1, w2 = rng.randn(8, 16).astype("float32") * 0.3, rng.randn(16, 3).astype("float32") * 0.3
    model = pd.nn.Sequential(pd.nn.Linear(8, 16), pd.nn.ReLU(), pd.nn.Linear(16, 3))
    model[0].weight.set_value(w1)
    model[0].bias.set_value(np.zeros(16, "float32"))
    model[2].weight.set_value(w2)
    model[2].bias.set_value(np.zeros(3, "float32"))
    opt = pd.optimizer.Adam(0.05, parameters=model.parameters())
    if level == "O2":
        model, opt = pd.amp.decorate(model, opt, level="O2", dtype="bfloat16")
    losses = []
    for _ in range(steps):
        with pd.amp.auto_cast(level=level, dtype="bfloat16"):
            loss = pd.nn.functional.cross_entropy(model(x), y)
        loss = loss.astype("float32")
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


@pytest.mark.parametrize("level", ["O1", "O2"])
def test_bf16_training_on_cpu_matches_paddle(level, cpu_amp_off):
    # AMP makes no effect on the CPU in both: the same float32 losses
    ours, theirs = both(_quiet(lambda pd: _train(pd, level)))
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("level", ["O1", "O2"])
def test_bf16_training_with_cpu_amp_tracks_paddle(level):
    # pagaie's CPU AMP really computes in bfloat16: the losses follow Paddle's float32 run
    ref = paddle_ref()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _train(ref, level)
        ours = _train(pagaie, level)
    np.testing.assert_allclose(ours, theirs, rtol=0.03, atol=0.03)
    assert ours[-1] < ours[0]
