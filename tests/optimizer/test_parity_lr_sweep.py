"""Differential sweep of ``paddle.optimizer.lr`` against real Paddle 3.3.1.

Every scheduler runs 35 ``step()`` calls (and a run of ``step(epoch)`` jumps) with several
argument sets in both frameworks; the ``last_lr`` values (and their Python types), the
printed verbose lines and the final ``state_dict`` must agree. Also: argument validation
(exception types), ``state_dict`` / ``set_state_dict`` round trips, ReduceOnPlateau with
float / int / numpy / Tensor metrics, and schedulers driving an optimizer's ``get_lr()``.
"""
from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def L(fw):
    return fw.optimizer.lr


SCHEDULERS = {
    "noam": lambda fw: L(fw).NoamDecay(d_model=64, warmup_steps=5, verbose=True),
    "noam_resume": lambda fw: L(fw).NoamDecay(d_model=64, warmup_steps=5, learning_rate=2.0,
                                               last_epoch=3),
    "piecewise": lambda fw: L(fw).PiecewiseDecay([3, 6, 9], [0.1, 0.2, 0.3, 0.4], verbose=True),
    "natural_exp": lambda fw: L(fw).NaturalExpDecay(0.5, gamma=0.1, verbose=True),
    "inverse_time": lambda fw: L(fw).InverseTimeDecay(0.5, gamma=0.3),
    "polynomial": lambda fw: L(fw).PolynomialDecay(0.5, decay_steps=7, end_lr=0.01, power=2.0),
    "polynomial_cycle": lambda fw: L(fw).PolynomialDecay(0.5, decay_steps=7, cycle=True),
    "warmup_float": lambda fw: L(fw).LinearWarmup(0.5, warmup_steps=5, start_lr=0.0, end_lr=0.5,
                                                   verbose=True),
    "warmup_sched": lambda fw: L(fw).LinearWarmup(L(fw).StepDecay(0.5, 3, 0.5), warmup_steps=5,
                                                   start_lr=0.01, end_lr=0.5),
    "exponential": lambda fw: L(fw).ExponentialDecay(0.5, 0.9),
    "multistep": lambda fw: L(fw).MultiStepDecay(0.5, [2, 5, 11], 0.5),
    "step": lambda fw: L(fw).StepDecay(0.5, 4),
    "lambda": lambda fw: L(fw).LambdaDecay(0.5, lambda e: 0.95 ** e),
    "cosine": lambda fw: L(fw).CosineAnnealingDecay(0.5, 7, eta_min=0.01, verbose=True),
    "cosine_resume": lambda fw: L(fw).CosineAnnealingDecay(0.5, 7, last_epoch=4),
    "multiplicative": lambda fw: L(fw).MultiplicativeDecay(0.5, lambda e: 0.9),
    "one_cycle": lambda fw: L(fw).OneCycleLR(1.0, total_steps=40),
    "one_cycle_3phase": lambda fw: L(fw).OneCycleLR(1.0, total_steps=40, phase_pct=0.2,
                                                     three_phase=True, anneal_strategy="linear"),
    "cyclic": lambda fw: L(fw).CyclicLR(0.1, 1.0, 4, 6),
    "cyclic_tri2": lambda fw: L(fw).CyclicLR(0.1, 1.0, 3, mode="triangular2"),
    "cyclic_exp": lambda fw: L(fw).CyclicLR(0.1, 1.0, 3, mode="exp_range", exp_gamma=0.9),
    "cyclic_fn": lambda fw: L(fw).CyclicLR(0.1, 1.0, 3, scale_fn=lambda x: 0.5,
                                            scale_mode="iterations"),
    "linear": lambda fw: L(fw).LinearLR(0.5, 10),
    "linear_down": lambda fw: L(fw).LinearLR(0.5, 10, start_factor=0.5, end_factor=0.1,
                                              verbose=True),
    "warm_restarts": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.5, 5, verbose=True),
    "warm_restarts_mult": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.5, 3, T_mult=2,
                                                                        eta_min=0.01),
    "warm_restarts_resume": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.5, 3, T_mult=2,
                                                                          last_epoch=5),
}
EPOCHS = [0, 3, 7, 2, 10, 15, 1, 30, 5, 5]
ONE_CYCLE_EPOCHS = [0, 3, 7, 2, 9, 1, 5]


def run_schedule(fw, make, epochs=None, n=35):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        s = make(fw)
        seq = [s()]
        for i in range(n):
            s.step() if epochs is None else s.step(epochs[i % len(epochs)])
            seq.append(s())
    return seq, s.state_dict(), out.getvalue()


def assert_schedules_agree(ours, theirs):
    seq_o, sd_o, out_o = ours
    seq_t, sd_t, out_t = theirs
    np.testing.assert_allclose(seq_o, seq_t, rtol=1e-12, atol=0)
    assert [type(v) for v in seq_o] == [type(v) for v in seq_t]
    assert str(sd_o) == str(sd_t)
    assert out_o == out_t


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_step_sequence_matches_paddle(name):
    make = SCHEDULERS[name]
    ours, theirs = both(lambda fw: run_schedule(fw, make))
    assert_schedules_agree(ours, theirs)


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_step_epoch_sequence_matches_paddle(name):
    make = SCHEDULERS[name]
    epochs = ONE_CYCLE_EPOCHS if name.startswith("one_cycle") else EPOCHS
    ours, theirs = both(lambda fw: run_schedule(fw, make, epochs=epochs, n=12))
    assert_schedules_agree(ours, theirs)


@pytest.mark.parametrize("name", ["exponential", "cosine", "warmup_sched", "warm_restarts_mult",
                                  "linear", "cyclic", "one_cycle", "multiplicative"])
def test_state_dict_round_trip_matches_paddle(name):
    make = SCHEDULERS[name]

    def run(fw):
        with contextlib.redirect_stdout(io.StringIO()):
            a = make(fw)
            for _ in range(5):
                a.step()
            sd = a.state_dict()
            b = make(fw)
            b.set_state_dict(sd)
            seq = []
            for _ in range(7):
                b.step()
                seq.append(b())
        return str(sd), seq, str(b.state_dict())

    ours, theirs = both(run)
    assert ours[0] == theirs[0] and ours[2] == theirs[2]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


def test_set_state_dict_missing_key_and_extra_key():
    same_exception(lambda fw: L(fw).ExponentialDecay(0.5, 0.9).set_state_dict({"last_epoch": 3}))
    same_exception(lambda fw: L(fw).LinearWarmup(L(fw).ExponentialDecay(0.5, 0.9), 3, 0.0, 0.5)
                   .set_state_dict({"last_epoch": 3, "last_lr": 0.1}))

    def extra(fw):
        s = L(fw).ExponentialDecay(0.5, 0.9)
        with pytest.warns(UserWarning, match="unused values"):
            s.set_dict({"last_epoch": 3, "last_lr": 0.2, "x": 1})
        return s.state_dict(), s()

    ours, theirs = both(extra)
    assert ours == theirs


# Paddle checks ``x > 0`` before ``isinstance(x, int)`` in these, so a str or None raises
# TypeError (from the comparison), a float raises AssertionError / ValueError.
ERRORS = {
    "polynomial_str_steps": lambda fw: L(fw).PolynomialDecay(0.1, "a"),
    "polynomial_float_steps": lambda fw: L(fw).PolynomialDecay(0.1, 2.0),
    "warmup_str_steps": lambda fw: L(fw).LinearWarmup(0.1, "a", 0.0, 1.0),
    "warmup_float_steps": lambda fw: L(fw).LinearWarmup(0.1, 2.0, 0.0, 1.0),
    "warm_restarts_str_t0": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.1, "a"),
    "warm_restarts_none_t0": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.1, None),
    "warm_restarts_float_t0": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.1, 2.0),
    "warm_restarts_str_mult": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.1, 2, T_mult="a"),
    "warm_restarts_float_mult": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.1, 2, T_mult=1.5),
    "warm_restarts_neg_epoch": lambda fw: L(fw).CosineAnnealingWarmRestarts(0.1, 2).step(-1),
    "lr_str": lambda fw: L(fw).ExponentialDecay("a", 0.5),
    "lr_negative": lambda fw: L(fw).ExponentialDecay(-1.0, 0.5),
    "lr_np_float32": lambda fw: L(fw).ExponentialDecay(np.float32(0.5), 0.5),
    "noam_zero_d_model": lambda fw: L(fw).NoamDecay(0, 10),
    "piecewise_empty": lambda fw: L(fw).PiecewiseDecay([], [0.1]),
    "piecewise_short": lambda fw: L(fw).PiecewiseDecay([1, 2], [0.1, 0.2]),
    "natural_exp_gamma": lambda fw: L(fw).NaturalExpDecay(0.1, 0.0),
    "polynomial_power": lambda fw: L(fw).PolynomialDecay(0.1, 3, power=0),
    "warmup_type": lambda fw: L(fw).LinearWarmup("a", 3, 0.0, 1.0),
    "warmup_end_lr": lambda fw: L(fw).LinearWarmup(0.1, 3, 1.0, 1.0),
    "exponential_gamma": lambda fw: L(fw).ExponentialDecay(0.1, 1.0),
    "multistep_type": lambda fw: L(fw).MultiStepDecay(0.1, 3),
    "multistep_order": lambda fw: L(fw).MultiStepDecay(0.1, [3, 2]),
    "multistep_gamma": lambda fw: L(fw).MultiStepDecay(0.1, [3], gamma=1.0),
    "step_type": lambda fw: L(fw).StepDecay(0.1, 2.0),
    "step_gamma": lambda fw: L(fw).StepDecay(0.1, 2, 1.5),
    "step_zero": lambda fw: L(fw).StepDecay(0.1, 0),
    "lambda_not_callable": lambda fw: L(fw).LambdaDecay(0.1, 3),
    "multiplicative_not_callable": lambda fw: L(fw).MultiplicativeDecay(0.1, 3),
    "plateau_mode": lambda fw: L(fw).ReduceOnPlateau(0.1, mode="avg"),
    "plateau_factor": lambda fw: L(fw).ReduceOnPlateau(0.1, factor=1.0),
    "plateau_threshold_mode": lambda fw: L(fw).ReduceOnPlateau(0.1, threshold_mode="x"),
    "plateau_lr": lambda fw: L(fw).ReduceOnPlateau("a"),
    "plateau_metric_str": lambda fw: L(fw).ReduceOnPlateau(0.1).step("a"),
    "plateau_metric_list": lambda fw: L(fw).ReduceOnPlateau(0.1).step([1.0]),
    "plateau_metric_none": lambda fw: L(fw).ReduceOnPlateau(0.1).step(None),
    "plateau_metric_2_tensor": lambda fw: L(fw).ReduceOnPlateau(0.1).step(fw.to_tensor([1.0, 2.0])),
    "plateau_metric_2_array": lambda fw: L(fw).ReduceOnPlateau(0.1).step(np.array([1.0, 2.0])),
    "plateau_no_metric": lambda fw: L(fw).ReduceOnPlateau(0.1).step(),
    "cosine_type": lambda fw: L(fw).CosineAnnealingDecay(0.1, 2.0),
    "cosine_eta": lambda fw: L(fw).CosineAnnealingDecay(0.1, 2, eta_min="a"),
    "cosine_zero": lambda fw: L(fw).CosineAnnealingDecay(0.1, 0),
    "one_cycle_type": lambda fw: L(fw).OneCycleLR("a", 10),
    "one_cycle_negative": lambda fw: L(fw).OneCycleLR(-1.0, 10),
    "one_cycle_end": lambda fw: L(fw).OneCycleLR(1.0, 10, end_learning_rate=-1),
    "one_cycle_steps": lambda fw: L(fw).OneCycleLR(1.0, 10.0),
    "one_cycle_pct_int": lambda fw: L(fw).OneCycleLR(1.0, 10, phase_pct=1),
    "one_cycle_pct": lambda fw: L(fw).OneCycleLR(1.0, 10, phase_pct=1.5),
    "one_cycle_divide": lambda fw: L(fw).OneCycleLR(1.0, 10, divide_factor="a"),
    "one_cycle_3phase": lambda fw: L(fw).OneCycleLR(1.0, 10, phase_pct=0.5, three_phase=True),
    "one_cycle_anneal": lambda fw: L(fw).OneCycleLR(1.0, 10, anneal_strategy="x"),
    "one_cycle_overrun": lambda fw: L(fw).OneCycleLR(1.0, 3).step(4),
    "cyclic_type": lambda fw: L(fw).CyclicLR(0.1, "a", 2),
    "cyclic_up": lambda fw: L(fw).CyclicLR(0.1, 1.0, 2.0),
    "cyclic_down": lambda fw: L(fw).CyclicLR(0.1, 1.0, 2, 0),
    "cyclic_gamma": lambda fw: L(fw).CyclicLR(0.1, 1.0, 2, exp_gamma=1),
    "cyclic_mode": lambda fw: L(fw).CyclicLR(0.1, 1.0, 2, mode="x"),
    "cyclic_scale_mode": lambda fw: L(fw).CyclicLR(0.1, 1.0, 2, scale_mode="x"),
    "cyclic_base": lambda fw: L(fw).CyclicLR(-0.1, 1.0, 2),
    "linear_start": lambda fw: L(fw).LinearLR(0.1, 3, start_factor=0),
    "linear_end": lambda fw: L(fw).LinearLR(0.1, 3, end_factor=1.5),
    "linear_steps": lambda fw: L(fw).LinearLR(0.1, 0),
    "linear_steps_str": lambda fw: L(fw).LinearLR(0.1, "a"),
    "base_get_lr": lambda fw: L(fw).LRScheduler(0.1),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_paddle(name):
    same_exception(ERRORS[name])


# A bool is an int to Paddle: accepted wherever a number is.
BOOLS = {
    "scheduler_lr": lambda fw: L(fw).ExponentialDecay(True, 0.5)(),
    "warmup_lr": lambda fw: L(fw).LinearWarmup(True, 3, 0.0, 1.0)(),
    "one_cycle_max": lambda fw: L(fw).OneCycleLR(True, 10)(),
    "cyclic_max": lambda fw: L(fw).CyclicLR(0.1, True, 2)(),
    "plateau_metric": lambda fw: (lambda s: (s.step(True), s.state_dict()))(
        L(fw).ReduceOnPlateau(0.1)),
}


@pytest.mark.parametrize("name", sorted(BOOLS))
def test_bool_arguments_accepted_like_paddle(name):
    ours, theirs = both(BOOLS[name])
    assert ours == theirs


LOSSES = [1.0, 0.9, 0.95, 0.95, 0.95, 0.96, 0.97, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.4, 0.4,
          0.4, 0.4, 0.4, 0.4, 0.4]


@pytest.mark.parametrize("kind", ["float", "int", "tensor", "tensor64", "ndarray", "np_float32"])
@pytest.mark.parametrize("kw", [dict(patience=2),
                                dict(patience=1, cooldown=2, threshold_mode="abs",
                                     threshold=0.01, factor=0.5, min_lr=0.1),
                                dict(mode="max", patience=0)], ids=["rel", "abs_cooldown", "max"])
def test_reduce_on_plateau_metric_kinds_match_paddle(kind, kw):
    def metric(fw, loss):
        return {"float": loss, "int": int(loss * 10), "tensor": fw.to_tensor(loss),
                "tensor64": fw.to_tensor(loss, dtype="float64"), "ndarray": np.array(loss),
                "np_float32": np.float32(loss)}[kind]

    def run(fw):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            s = L(fw).ReduceOnPlateau(1.0, verbose=True, **kw)
            seq = []
            for loss in LOSSES:
                s.step(metric(fw, loss))
                seq.append((s(), s.num_bad_epochs, s.cooldown_counter, s.last_epoch))
        sd = {k: (type(v).__name__, np.asarray(v).tolist()) for k, v in s.state_dict().items()}
        best = s.best
        # a Tensor metric is kept as a Tensor (dtype and shape included), as in Paddle
        best_kind = (type(best).__name__, str(getattr(best, "dtype", "")).split(".")[-1],
                     list(getattr(best, "shape", [])))
        return seq, sd, best_kind, out.getvalue()

    ours, theirs = both(run)
    assert ours == theirs


def test_reduce_on_plateau_one_element_tensor_state_is_a_float():
    # Paddle's own state_dict fails on a [1]-shaped Tensor metric (float() of a 1-D array
    # under NumPy 2); pagaie returns the float.
    s = pagaie.optimizer.lr.ReduceOnPlateau(1.0)
    s.step(pagaie.to_tensor([0.5]))
    assert s.state_dict()["best"] == 0.5


def test_reduce_on_plateau_explicit_epoch_matches_paddle():
    def run(fw):
        s = L(fw).ReduceOnPlateau(1.0, patience=0)
        s.step(1.0, epoch=10)
        s.step(2.0, epoch=3)
        s.step(2.0)
        return s(), s.last_epoch, s.state_dict()

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("opt", ["SGD", "Adam", "Momentum", "AdamW"])
@pytest.mark.parametrize("sched", ["step", "warmup_sched", "cyclic"])
def test_optimizer_get_lr_follows_scheduler_like_paddle(opt, sched):
    make = SCHEDULERS[sched]
    w0 = np.arange(6, dtype="float32").reshape(3, 2) / 10

    def run(fw):
        lin = fw.nn.Linear(3, 2)
        lin.weight.set_value(w0)
        lin.bias.set_value(np.zeros(2, "float32"))
        s = make(fw)
        o = getattr(fw.optimizer, opt)(learning_rate=s, parameters=lin.parameters())
        x = fw.to_tensor(np.ones((4, 3), "float32"))
        lrs = []
        for _ in range(6):
            lin(x).sum().backward()
            o.step()
            o.clear_grad()
            lrs.append(o.get_lr())
            s.step()
        return lrs, [type(v).__name__ for v in lrs], lin.weight.numpy(), o.state_dict()["LR_Scheduler"]

    ours, theirs = both(run)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    assert ours[1] == theirs[1]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-6)
    assert str(ours[3]) == str(theirs[3])


def test_plateau_drives_optimizer_with_tensor_loss_like_paddle():
    def run(fw):
        lin = fw.nn.Linear(3, 2)
        s = L(fw).ReduceOnPlateau(0.1, patience=0)
        o = fw.optimizer.SGD(learning_rate=s, parameters=lin.parameters())
        out = []
        for loss in [1.0, 2.0, 2.0, 0.5]:
            s.step(fw.to_tensor(loss))
            out.append(o.get_lr())
        return out, o.state_dict()["LR_Scheduler"]

    ours, theirs = both(run)
    assert ours == theirs


def test_set_lr_with_scheduler_raises_like_paddle():
    paddle_ref()
    same_exception(lambda fw: fw.optimizer.SGD(
        learning_rate=L(fw).StepDecay(0.1, 2),
        parameters=fw.nn.Linear(3, 2).parameters()).set_lr(0.5))
