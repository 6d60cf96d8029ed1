"""Every scheduler of paddle.optimizer.lr gives real Paddle's learning-rate sequence."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception

STEPS = 30


def _cases():
    return [
        ("LRScheduler", lambda m: _Halving(m)),
        ("NoamDecay", lambda m: m.optimizer.lr.NoamDecay(d_model=16, warmup_steps=5, learning_rate=2.0)),
        ("PiecewiseDecay", lambda m: m.optimizer.lr.PiecewiseDecay(boundaries=[3, 6, 10], values=[1.0, 0.5, 0.1, 0.01])),
        ("NaturalExpDecay", lambda m: m.optimizer.lr.NaturalExpDecay(learning_rate=0.5, gamma=0.1)),
        ("InverseTimeDecay", lambda m: m.optimizer.lr.InverseTimeDecay(learning_rate=0.5, gamma=0.1)),
        ("PolynomialDecay", lambda m: m.optimizer.lr.PolynomialDecay(learning_rate=0.5, decay_steps=7, power=2.0)),
        ("PolynomialDecay-cycle", lambda m: m.optimizer.lr.PolynomialDecay(learning_rate=0.5, decay_steps=7,
                                                                             end_lr=0.01, cycle=True)),
        ("LinearWarmup-float", lambda m: m.optimizer.lr.LinearWarmup(learning_rate=0.5, warmup_steps=5,
                                                                     start_lr=0.0, end_lr=0.5)),
        ("LinearWarmup-sched", lambda m: m.optimizer.lr.LinearWarmup(
            learning_rate=m.optimizer.lr.CosineAnnealingDecay(0.5, T_max=8), warmup_steps=4, start_lr=0.01, end_lr=0.5)),
        ("ExponentialDecay", lambda m: m.optimizer.lr.ExponentialDecay(learning_rate=0.5, gamma=0.9)),
        ("MultiStepDecay", lambda m: m.optimizer.lr.MultiStepDecay(learning_rate=0.5, milestones=[4, 9, 20], gamma=0.5)),
        ("StepDecay", lambda m: m.optimizer.lr.StepDecay(learning_rate=0.5, step_size=4, gamma=0.3)),
        ("LambdaDecay", lambda m: m.optimizer.lr.LambdaDecay(learning_rate=0.5, lr_lambda=lambda e: 0.95 ** e)),
        ("MultiplicativeDecay", lambda m: m.optimizer.lr.MultiplicativeDecay(learning_rate=0.5,
                                                                             lr_lambda=lambda e: 0.9 if e % 2 else 0.99)),
        ("CosineAnnealingDecay", lambda m: m.optimizer.lr.CosineAnnealingDecay(learning_rate=0.5, T_max=7, eta_min=0.01)),
        ("OneCycleLR", lambda m: m.optimizer.lr.OneCycleLR(max_learning_rate=1.0, total_steps=STEPS + 1)),
        ("OneCycleLR-3phase-linear", lambda m: m.optimizer.lr.OneCycleLR(
            max_learning_rate=1.0, total_steps=STEPS + 1, phase_pct=0.2, anneal_strategy='linear', three_phase=True)),
        ("CyclicLR", lambda m: m.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=5)),
        ("CyclicLR-triangular2", lambda m: m.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=4, mode='triangular2')),
        ("CyclicLR-exp_range", lambda m: m.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=4, mode='exp_range',
                                                                 exp_gamma=0.9)),
        ("LinearLR", lambda m: m.optimizer.lr.LinearLR(learning_rate=0.5, total_steps=10, start_factor=0.2,
                                                       end_factor=0.9)),
        ("CosineAnnealingWarmRestarts", lambda m: m.optimizer.lr.CosineAnnealingWarmRestarts(
            learning_rate=0.5, T_0=3, T_mult=2, eta_min=0.01)),
    ]


def _Halving(m):
    class Halving(m.optimizer.lr.LRScheduler):
        def get_lr(self):
            return self.base_lr * 0.5 ** (self.last_epoch % 5)
    return Halving(learning_rate=0.8)


def _sequence(sched) -> list:
    out = [sched()]
    for _ in range(STEPS):
        sched.step()
        out.append(sched())
    return out


@pytest.mark.parametrize("case", _cases(), ids=[c[0] for c in _cases()])
def test_sequence_matches_paddle(case):
    ref = paddle_ref()
    _, make = case
    ours, theirs = make(pagaie), make(ref)
    np.testing.assert_allclose(_sequence(ours), _sequence(theirs), rtol=1e-12, atol=1e-15)
    assert ours.state_dict() == theirs.state_dict()


@pytest.mark.parametrize("case", _cases(), ids=[c[0] for c in _cases()])
def test_step_with_epoch_and_state_round_trip(case):
    ref = paddle_ref()
    _, make = case
    ours, theirs = make(pagaie), make(ref)
    for e in (3, 7, 2):
        ours.step(e)
        theirs.step(e)
        assert abs(ours() - theirs()) <= 1e-12 * max(1.0, abs(theirs()))
    # Round trip through the state dict, compared with the same round trip in Paddle
    # (some schedulers keep state outside the dict, e.g. the restart period).
    fresh_ours, fresh_theirs = make(pagaie), make(ref)
    fresh_ours.set_state_dict(ours.state_dict())
    fresh_theirs.set_state_dict(theirs.state_dict())
    assert fresh_ours.state_dict() == fresh_theirs.state_dict()
    for _ in range(3):
        fresh_ours.step()
        fresh_theirs.step()
        assert abs(fresh_ours() - fresh_theirs()) <= 1e-12 * max(1.0, abs(fresh_theirs()))

def test_reduce_on_plateau_matches_paddle():
    ref = paddle_ref()
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.5]
    for kw in ({"patience": 1, "factor": 0.5}, {"mode": "max", "patience": 0, "cooldown": 2},
               {"threshold_mode": "abs", "threshold": 0.05, "patience": 1, "min_lr": 0.05}):
        ours = pagaie.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, **kw)
        theirs = ref.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, **kw)
        for m in metrics:
            ours.step(m)
            theirs.step(m)
            assert ours() == theirs()
        assert ours.state_dict() == theirs.state_dict()
    ours = pagaie.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, patience=0)
    theirs = ref.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, patience=0)
    for v in (1.0, 2.0, 3.0):
        ours.step(pagaie.to_tensor(v))
        theirs.step(ref.to_tensor(v))
        assert ours() == theirs()
        ours.step(np.array([v]))
        theirs.step(np.array([v]))
        assert ours() == theirs()


def test_verbose_prints_like_paddle(capsys):
    ref = paddle_ref()
    ref.optimizer.lr.StepDecay(0.5, step_size=2, verbose=True).step()
    theirs = capsys.readouterr().out
    pagaie.optimizer.lr.StepDecay(0.5, step_size=2, verbose=True).step()
    assert capsys.readouterr().out == theirs


@pytest.mark.parametrize("make", [
    lambda m: m.optimizer.lr.LRScheduler(learning_rate="a"),
    lambda m: m.optimizer.lr.LRScheduler(learning_rate=-1.0),
    lambda m: m.optimizer.lr.NoamDecay(d_model=0, warmup_steps=3),
    lambda m: m.optimizer.lr.PiecewiseDecay(boundaries=[], values=[1.0]),
    lambda m: m.optimizer.lr.PiecewiseDecay(boundaries=[1, 2], values=[1.0, 2.0]),
    lambda m: m.optimizer.lr.MultiStepDecay(0.1, milestones=3),
    lambda m: m.optimizer.lr.MultiStepDecay(0.1, milestones=[3, 2]),
    lambda m: m.optimizer.lr.StepDecay(0.1, step_size=2.0),
    lambda m: m.optimizer.lr.StepDecay(0.1, step_size=2, gamma=2.0),
    lambda m: m.optimizer.lr.LambdaDecay(0.1, lr_lambda=3),
    lambda m: m.optimizer.lr.ReduceOnPlateau(0.1, mode="mid"),
    lambda m: m.optimizer.lr.ReduceOnPlateau(0.1, factor=1.5),
    lambda m: m.optimizer.lr.ReduceOnPlateau(0.1).step("x"),
    lambda m: m.optimizer.lr.CosineAnnealingDecay(0.1, T_max=2.0),
    lambda m: m.optimizer.lr.OneCycleLR(1.0, total_steps=0),
    lambda m: m.optimizer.lr.OneCycleLR(1.0, total_steps=10, phase_pct=1),
    lambda m: m.optimizer.lr.OneCycleLR(1.0, total_steps=10, anneal_strategy="exp"),
    lambda m: m.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=0),
    lambda m: m.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=2, mode="x"),
    lambda m: m.optimizer.lr.LinearLR(0.1, total_steps=5, start_factor=0),
    lambda m: m.optimizer.lr.CosineAnnealingWarmRestarts(0.1, T_0=0),
    lambda m: m.optimizer.lr.LinearWarmup("a", warmup_steps=2, start_lr=0.0, end_lr=1.0),
    lambda m: m.optimizer.lr.ExponentialDecay(0.1, gamma=1.5),
    lambda m: m.optimizer.lr.StepDecay(0.1, step_size=2).set_state_dict({"last_epoch": 1}),
])
def test_errors_match_paddle(make):
    same_exception(make)
