"""cond / while_loop / switch_case / case in static programs vs real Paddle (values and
gradients), in eager mode, and through a JSON round trip."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref


def _run(fw, build, feeds):
    fw.enable_static()
    try:
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            fetch = build(fw)
        exe = fw.static.Executor(fw.CPUPlace())
        return [exe.run(main, feed=f, fetch_list=fetch) for f in feeds], main, fetch
    finally:
        fw.disable_static()


def _x(fw, n=3):
    x = fw.static.data("x", [n], "float32")
    x.stop_gradient = False
    return x


def _cond_prog(fw):
    x = _x(fw)
    y = fw.static.nn.cond(fw.mean(x) > 0, lambda: x * x, lambda: x * 3.0)
    (g,) = fw.static.gradients([fw.sum(y)], [x])
    return [y, g]


def _nested_cond_prog(fw):
    x = _x(fw)
    s = fw.sum(x)

    def outer():
        return fw.static.nn.cond(s > 2.0, lambda: fw.exp(x), lambda: fw.sin(x) * s)

    y = fw.static.nn.cond(s > 0, outer, lambda: -x)
    (g,) = fw.static.gradients([fw.sum(y * y)], [x])
    return [y, g]


def _while_prog(fw):
    x = _x(fw)
    i = fw.full([], 0, "int64")
    i, s = fw.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * x], [i, x])
    (g,) = fw.static.gradients([fw.sum(s)], [x])
    return [i, s, g]


def _while_data_prog(fw):
    x = _x(fw)
    # iterate while the sum is small: the number of iterations depends on the fed data
    out = fw.static.nn.while_loop(lambda s: fw.sum(s) < 10.0, lambda s: [s * 2.0 + 0.5], [x])
    return [out[0]]


def _switch_prog(fw):
    idx = fw.static.data("idx", [1], "int64")
    x = fw.static.data("x", [3], "float32")
    a = fw.static.nn.switch_case(idx, {0: lambda: x + 1.0, 2: lambda: x * 2.0}, lambda: x - 5.0)
    b = fw.static.nn.case([(fw.sum(x) > 100.0, lambda: x), (fw.sum(x) > 0, lambda: x * 10.0)],
                          lambda: x * 0.0)
    return [a, b]


FEEDS = [{"x": np.array([1.0, 2.0, 0.5], "float32")}, {"x": np.array([-1.0, 0.5, -2.0], "float32")},
         {"x": np.array([0.3, 0.2, 0.1], "float32")}]


@pytest.mark.parametrize("build", [_cond_prog, _nested_cond_prog, _while_prog, _while_data_prog],
                         ids=["cond", "nested_cond", "while", "while_data_dependent"])
def test_control_flow_matches_paddle(build):
    paddle = paddle_ref()
    theirs, _, _ = _run(paddle, build, FEEDS)
    ours, main, _ = _run(pagaie, build, FEEDS)
    for a, b in zip(ours, theirs):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-6)
            assert u.dtype == v.dtype and u.shape == v.shape


@pytest.mark.parametrize("idx", [0, 1, 2])
def test_switch_case_and_case_match_paddle(idx):
    paddle = paddle_ref()
    feeds = [dict(f, idx=np.array([idx], "int64")) for f in FEEDS]
    theirs, _, _ = _run(paddle, _switch_prog, feeds)
    ours, _, _ = _run(pagaie, _switch_prog, feeds)
    for a, b in zip(ours, theirs):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-6)


def test_control_flow_program_json_round_trip():
    for build in (_cond_prog, _while_prog, _nested_cond_prog):
        ours, main, fetch = _run(pagaie, build, FEEDS)
        loaded = pagaie.static.Program.from_json(main.to_json())
        exe = pagaie.static.Executor()
        again = [exe.run(loaded, feed=f, fetch_list=[v.name for v in fetch]) for f in FEEDS]
        for a, b in zip(ours, again):
            for u, v in zip(a, b):
                np.testing.assert_allclose(u, v)


def test_eager_control_flow_matches_paddle():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        x = fw.to_tensor([1.0, -2.0, 3.0], stop_gradient=False)
        y = fw.static.nn.cond(fw.sum(x) > 0, lambda: x * x, lambda: -x)
        i, s = fw.static.nn.while_loop(lambda i, s: i < 4, lambda i, s: [i + 1, s + y],
                                       [fw.to_tensor(0), fw.zeros([3])])
        fw.sum(s).backward()
        res = (y.numpy(), s.numpy(), int(i), x.grad.numpy(),
               fw.static.nn.switch_case(fw.to_tensor(7), [lambda: 1, lambda: 2]))
        if fw is pagaie:
            ours = res
        else:
            theirs = res
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b)


def test_cond_errors_match_paddle():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        with pytest.raises(AssertionError):
            fw.static.nn.cond(True, lambda: 1, lambda: 2)
        with pytest.raises(ValueError):
            fw.static.nn.while_loop(lambda i: i < 3, lambda i: i + 1, [])
        with pytest.raises(TypeError):
            fw.static.nn.while_loop(1, lambda i: i + 1, [fw.to_tensor(0)])


def test_cond_trains_parameters_only_in_taken_branch():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [None, 2], "float32")
            flag = pagaie.static.data("flag", [1], "bool")
            la = pagaie.nn.Linear(2, 1)
            lb = pagaie.nn.Linear(2, 1)
            y = pagaie.static.nn.cond(flag, lambda: la(x), lambda: lb(x))
            loss = pagaie.mean(y * y)
            pagaie.optimizer.SGD(0.1).minimize(loss)
    finally:
        pagaie.disable_static()
    wa, wb = la.weight.numpy().copy(), lb.weight.numpy().copy()
    exe = pagaie.static.Executor()
    exe.run(main, feed={"x": np.ones([3, 2], "float32"), "flag": np.array([True])}, fetch_list=[loss])
    assert not np.allclose(la.weight.numpy(), wa) and np.allclose(lb.weight.numpy(), wb)
    exe.run(main, feed={"x": np.ones([3, 2], "float32"), "flag": np.array([False])}, fetch_list=[loss])
    assert not np.allclose(lb.weight.numpy(), wb)


def test_static_pylayer_custom_gradient():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [3], "float32")
            x.stop_gradient = False
            y = pagaie.static.nn.static_pylayer(lambda a: pagaie.exp(a), [x], lambda g: g * 2.0)
            (gx,) = pagaie.static.gradients([pagaie.sum(y)], [x])
    finally:
        pagaie.disable_static()
    xv = np.array([0.0, 1.0, 2.0], "float32")
    yv, gv = pagaie.static.Executor().run(main, feed={"x": xv}, fetch_list=[y, gx])
    np.testing.assert_allclose(yv, np.exp(xv), rtol=1e-6)
    np.testing.assert_allclose(gv, [2.0, 2.0, 2.0])
