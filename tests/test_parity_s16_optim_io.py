"""Cases from Paddle's unit tests of paddle.distribution, the optimizers and learning-rate
schedulers, and data loading that pagaie answered differently from Paddle 3.3.1."""
from __future__ import annotations

import random

import numpy as np
import pytest

from tests.reference import both, same_exception


# --- paddle.reader: the legacy sample-reader decorators ---

def _r10():
    yield from range(10)


def _seeded(fn):
    """``fn`` with Python's ``random`` seeded, as the shuffling decorators draw from it."""
    def run(P):
        random.seed(5)
        return fn(P)
    return run


@pytest.mark.parametrize("name,fn", [
    ("map_readers", lambda P: list(P.reader.map_readers(lambda a, b: a * b, _r10, lambda: iter([3, 4]))())),
    ("chain", lambda P: list(P.reader.chain(_r10, lambda: iter("ab"))())),
    ("compose", lambda P: list(P.reader.compose(lambda: iter([(1, 2), (3, 4)]), lambda: iter("ab"),
                                                lambda: iter([[5], [6]]))())),
    ("compose_unchecked", lambda P: list(P.reader.compose(P.reader.chain(_r10, _r10), _r10,
                                                          check_alignment=False)())),
    ("firstn", lambda P: [list(P.reader.firstn(_r10, n)()) for n in (0, 3, 20, -1)]),
    ("cache", lambda P: (lambda c: [list(c()), list(c())])(P.reader.cache(_r10))),
    ("buffered", lambda P: [list(P.reader.buffered(_r10, s)()) for s in (0, 1, 4)]),
    ("xmap_ordered", lambda P: [list(P.reader.xmap_readers(lambda x: x + 1, _r10, t, s, True)())
                                for t in (1, 4) for s in (1, 4)]),
    ("xmap_unordered", lambda P: sorted(P.reader.xmap_readers(lambda x: -x, _r10, 3, 2)())),
    ("shuffle", _seeded(lambda P: [list(P.reader.shuffle(_r10, s)()) for s in (0, 1, 3, 10, 100)])),
    ("batch_of_shuffle", _seeded(lambda P: list(P.batch(P.reader.shuffle(_r10, 4), 3)()))),
    ("multiprocess_pipe", lambda P: sorted(P.reader.multiprocess_reader(
        [lambda: iter([[1, (2, 3)], [4, 5]]), lambda: iter([[7, 8]])])())),
    ("multiprocess_queue", lambda P: sorted(P.reader.multiprocess_reader(
        [lambda: iter([[1, (2, 3)], [4, 5]]), lambda: iter([[7, 8]])], False)())),
    ("names", lambda P: (sorted(n for n in dir(P.reader) if not n.startswith("_")), P.reader.__all__,
                         P.reader.ComposeNotAligned.__mro__[1].__name__)),
])
def test_reader_decorators(name, fn):
    ours, theirs = both(fn)
    assert ours == theirs, name


def test_reader_compose_not_aligned():
    def count(P):
        n = 0
        try:
            for _ in P.reader.compose(P.reader.chain(_r10, _r10), _r10)():
                n += 1
        except P.reader.ComposeNotAligned as exc:
            return n, type(exc).__name__, isinstance(exc, ValueError)
    ours, theirs = both(count)
    assert ours == theirs == (10, "ComposeNotAligned", True)


@pytest.mark.parametrize("fn", [
    lambda P: P.reader.multiprocess_reader(_r10),                            # not a list: AssertionError
    lambda P: list(P.reader.multiprocess_reader([lambda: iter([1, None])])()),
    lambda P: list(P.reader.multiprocess_reader([lambda: iter([1, None])], False)()),
])
def test_reader_decorator_errors(fn):
    same_exception(fn)


def test_reader_module_paths():
    import importlib

    import pagaie
    d = importlib.import_module("pagaie.reader.decorator")
    assert d is pagaie.reader.decorator and d.shuffle is pagaie.reader.shuffle


# --- AdamW.sharded_state_dict: the optimizer state laid out like the model's sharded state ---

def _adamw_sharded(P, steps=1, amsgrad=False):
    P.seed(1)
    # fresh name counters: the state names must not depend on what earlier tests built (the
    # moments are named at the first step, so the steps run under the guard too)
    with P.utils.unique_name.guard():
        net = P.nn.Sequential(P.nn.Linear(2, 3), P.nn.Linear(3, 1))
        opt = P.optimizer.AdamW(0.1, parameters=net.parameters(), amsgrad=amsgrad)
        for _ in range(steps):
            net(P.ones([1, 2])).sum().backward()
            opt.step()
            opt.clear_grad()
    sd = opt.sharded_state_dict(net.sharded_state_dict())
    meta = [(k, v.key, v.local_tensor.name, v.local_shape, v.global_shape, v.global_offset, v.is_flattened,
             v.flattened_range) for k, v in sd.items()]
    return meta, [v.local_tensor.numpy() for v in sd.values()]


@pytest.mark.parametrize("steps", [0, 2])
def test_adamw_sharded_state_dict(steps):
    (meta, values), (ref_meta, ref_values) = both(lambda P: _adamw_sharded(P, steps))
    assert meta == ref_meta
    for a, b in zip(values, ref_values):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_adamw_sharded_state_dict_errors():
    same_exception(lambda P: _adamw_sharded(P, amsgrad=True))   # moment2_max: an unknown state name
    same_exception(lambda P: (lambda net: (lambda opt: (net(P.ones([1, 2])).sum().backward(), opt.step(),
                                                        opt.sharded_state_dict({"x": 1})))(
        P.optimizer.AdamW(0.1, parameters=net.parameters())))(P.nn.Linear(2, 3)))


# --- static minimize with a learning-rate scheduler names it on the program ---

def _static_sched_loop(P, make_opt):
    x_np = np.linspace(-2, 2, 20).reshape(5, 4).astype("float32")
    P.enable_static()
    try:
        main, startup = P.static.Program(), P.static.Program()
        with P.static.program_guard(main, startup):
            x = P.static.data("x", [5, 4], "float32")
            w = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")
            lin = P.nn.Linear(4, 3, weight_attr=P.nn.initializer.Assign(w),
                              bias_attr=P.nn.initializer.Constant(0.3))
            loss = (lin(x) ** 2).mean()
            opt = make_opt(P)
            opt.minimize(loss)
        exe = P.static.Executor(P.CPUPlace())
        exe.run(startup)
        out = [hasattr(main, "lr_scheduler"), hasattr(main.clone(), "lr_scheduler")]
        if hasattr(main, "lr_scheduler"):
            out += [main.lr_scheduler is opt._learning_rate, isinstance(main.lr_name, str)]
        for _ in range(4):   # Paddle's own training loops step the program's scheduler
            if hasattr(main, "lr_scheduler"):
                main.lr_scheduler.step()
            out.append(float(exe.run(main, feed={"x": x_np}, fetch_list=[loss])[0]))
        return out
    finally:
        P.disable_static()


@pytest.mark.parametrize("make_opt", [
    lambda P: P.optimizer.SGD(P.optimizer.lr.StepDecay(0.1, 1, 0.5)),
    lambda P: P.optimizer.Adam(P.optimizer.lr.PiecewiseDecay([1, 2], [0.1, 0.01, 0.001])),
    lambda P: P.optimizer.SGD(0.1),   # a float learning rate: no scheduler on the program
])
def test_static_program_lr_scheduler(make_opt):
    ours, theirs = both(lambda P: _static_sched_loop(P, make_opt))
    assert ours[:-4] == theirs[:-4]
    np.testing.assert_allclose(ours[-4:], theirs[-4:], rtol=1e-5)


# --- static programs: Optimizer.backward and apply_gradients add to the program ---

def _static_apply(P, how):
    x_np = np.linspace(-2, 2, 20).reshape(5, 4).astype("float32")
    P.enable_static()
    try:
        main, startup = P.static.Program(), P.static.Program()
        with P.static.program_guard(main, startup):
            x = P.static.data("x", [5, 4], "float32")
            w = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")
            l1 = P.nn.Linear(4, 3, weight_attr=P.nn.initializer.Assign(w), bias_attr=P.nn.initializer.Constant(0.2))
            l2 = P.nn.Linear(3, 1, weight_attr=P.nn.initializer.Constant(0.5), bias_attr=P.nn.initializer.Constant(0.1))
            loss = (l2(l1(x)) ** 2).mean()
            if how == "append_backward":
                opt = P.optimizer.Adam(0.1)
                opt.apply_gradients(P.static.append_backward(loss))
            elif how == "backward":
                opt = P.optimizer.Adam(0.1)
                pairs = opt.backward(loss)
                opt.apply_gradients(pairs)
            else:   # clipping and regularization apply as in minimize
                opt = P.optimizer.Momentum(0.1, grad_clip=P.nn.ClipGradByGlobalNorm(0.5),
                                           weight_decay=P.regularizer.L2Decay(0.1))
                opt.apply_gradients(P.static.append_backward(loss))
        exe = P.static.Executor(P.CPUPlace())
        exe.run(startup)
        return [exe.run(main, feed={"x": x_np}, fetch_list=[loss, l1.weight, l2.bias]) for _ in range(3)]
    finally:
        P.disable_static()


@pytest.mark.parametrize("how", ["append_backward", "backward", "clipped"])
def test_static_apply_gradients_trains(how):
    ours, theirs = both(lambda P: _static_apply(P, how))
    for a, b in zip(ours, theirs):
        for x, y in zip(a, b):
            np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)


def test_static_optimizer_backward_pairs():
    def pairs(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                x = P.static.data("x", [5, 4], "float32")
                loss = P.nn.Linear(4, 3)(x).mean()
                # (names carry the process's layer counter: compare their suffixes)
                return [(p.name.split('.')[-1], list(g.shape)) for p, g in P.optimizer.SGD(0.1).backward(loss)]
        finally:
            P.disable_static()
    ours, theirs = both(pairs)
    assert sorted(ours) == sorted(theirs)
