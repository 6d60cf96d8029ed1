"""Static-graph user API against real Paddle 3.3.1 (PIR): Executor.run feeds and fetches,
gradients / append_backward / minimize return formats, printed Values, InputSpec, data,
program_guard, control-flow errors, setitem on Values and unique names across modes."""
from __future__ import annotations


import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both_static, paddle_ref, same_exception, static_mode


def _both(fn):
    return both_static(fn)


def _same_static_exception(fn):
    def wrapped(fw):
        with static_mode(fw):
            fn(fw)
    return same_exception(wrapped)


def _net(fw):
    main, start = fw.static.Program(), fw.static.Program()
    with fw.static.program_guard(main, start):
        x = fw.static.data("x", [None, 3], "float32")
        x.stop_gradient = False
        h = fw.static.nn.fc(x, 4, weight_attr=fw.ParamAttr(initializer=fw.nn.initializer.Constant(0.3)),
                            bias_attr=fw.ParamAttr(initializer=fw.nn.initializer.Constant(0.1)))
        lin = fw.nn.Linear(4, 2, weight_attr=fw.ParamAttr(initializer=fw.nn.initializer.Constant(-0.2)))
        y = lin(h)
        loss = fw.mean(y * y)
    return main, start, x, y, loss


FEED = {"x": np.arange(6, dtype="float32").reshape(2, 3)}


def test_fetch_single_value_parameter_and_ignored_feeds():
    def run(fw):
        main, start, x, y, loss = _net(fw)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        a = exe.run(main, feed=FEED, fetch_list=y)  # one Value, not in a list
        feed = dict(FEED, unused=np.ones([1], "float32"))  # names not in the program are ignored
        b = exe.run(main, feed=feed, fetch_list=[loss])
        w = main.global_block().all_parameters()
        c = exe.run(main, feed=FEED, fetch_list=w)  # parameters fetched by Value
        return a + b + c
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_fed_shape_is_not_checked():
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3], "float32")
            y = x * 2
        return fw.static.Executor().run(main, feed={"x": np.ones([1, 4], "float32")}, fetch_list=[y])
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_append_backward_order_and_grads():
    def run(fw):
        main, start, x, y, loss = _net(fw)
        with fw.static.program_guard(main, start):
            pairs = fw.static.append_backward(loss)
        exe = fw.static.Executor()
        exe.run(start)
        vals = exe.run(main, feed=FEED, fetch_list=[g for _, g in pairs])
        return [p.name.split(".")[-1] for p, _ in pairs], [g.stop_gradient for _, g in pairs], \
            [repr(g) for _, g in pairs], vals
    (names, sg, reprs, vals), (pnames, psg, preprs, pvals) = _both(run)
    assert names == pnames and sg == psg and reprs == preprs
    assert_same(vals, pvals)


def test_minimize_returns_pairs_in_paddle_order():
    def run(fw):
        main, start, x, y, loss = _net(fw)
        with fw.static.program_guard(main, start):
            ops, pairs = fw.optimizer.SGD(0.1).minimize(loss)
        exe = fw.static.Executor()
        exe.run(start)
        losses = [exe.run(main, feed=FEED, fetch_list=[loss])[0] for _ in range(3)]
        return type(ops).__name__, [(p.name.split(".")[-1], g.stop_gradient) for p, g in pairs], losses
    (t, names, losses), (pt, pnames, plosses) = _both(run)
    assert (t, names) == (pt, pnames)
    assert_same(losses, plosses, rtol=1e-4)


def test_gradients_none_for_unreached_inputs():
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [3], "float32")
            z = fw.static.data("z", [3], "float32")
            w = fw.static.data("w", [3], "float32")
            z.stop_gradient = False
            w.stop_gradient = False
            loss = fw.sum(x * 2 + z * z + w.detach())
            grads = fw.static.gradients(loss, [x, z, w])
        out = fw.static.Executor().run(main, feed={k: np.arange(3, dtype="float32") for k in "xzw"},
                                       fetch_list=[grads[1]])
        return [g is None for g in grads], [repr(g) for g in grads if g is not None], out
    ours, theirs = _both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


@pytest.mark.parametrize("expr", ["x * 2", "x + 1", "2 - x", "x / 2", "-x", "x + x", "1 / x", "x[0]",
                                  "x[:, 1]", "x[::2]", "x[x > 0]", "fw.ones_like(x)",
                                  "fw.nn.functional.linear(x, fw.ones([3, 2]))",
                                  "fw.split(x, 3, axis=1)[1]", "fw.nn.functional.mse_loss(x, x)",
                                  "fw.static.nn.cond(fw.sum(x) > 0, lambda: x + 1, lambda: x - 1)"])
def test_value_repr_names_the_defining_op(expr):
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3], "float32")
            return repr(eval(expr, {"fw": fw, "x": x}))
    ours, theirs = _both(run)
    assert ours == theirs


def test_setitem_on_a_value_updates_it():
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [2, 3], "float32")
            y = x * 1
            y[0] = 5.0
            y[1, 1:] = fw.full([2], 7.0)
            z = y + 1
        return fw.static.Executor().run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[x, y, z])
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_data_dependent_shapes_keep_their_static_dims():
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3, 4], "float32")
            ids = fw.static.data("ids", [None, 2], "int64")
            outs = [fw.nonzero(x), fw.masked_select(x, x > 0), fw.gather(x, fw.to_tensor([0, 0])),
                    fw.unique(x), fw.nn.functional.embedding(ids, fw.ones([10, 4])),
                    fw.nn.functional.one_hot(ids, 5), x[::2], fw.nn.functional.max_pool1d(x, 2, 2)]
        return [list(o.shape) for o in outs]
    ours, theirs = _both(run)
    assert ours == theirs


def test_symbolic_value_protocol():
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [2, 3], "float32")
            return [repr(x.to("float64")), x.is_dense_tensor_type(), (x * 2).get_defining_op().name()]
    ours, theirs = _both(run)
    assert ours == theirs
    for attr in ("numpy", "tolist"):
        _same_static_exception(lambda fw, a=attr: getattr(fw.static.data("x", [2], "float32"), a)())
    _same_static_exception(lambda fw: len(fw.static.data("x", [None, 2], "float32")))


def test_trainable_and_create_parameter_in_static_mode():
    def run(fw):
        main, start = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, start):
            w = fw.static.create_parameter([3, 2], "float32",
                                           default_initializer=fw.nn.initializer.Constant(0.5))
            x = fw.static.data("x", [None, 3], "float32")
            y = fw.matmul(x, w)
        exe = fw.static.Executor()
        exe.run(start)
        return [w.trainable, w.persistable, w.stop_gradient, list(w.shape)], \
            exe.run(main, feed=FEED, fetch_list=[y, w])
    (a, va), (b, vb) = _both(run)
    assert a == b
    assert_same(va, vb)


def test_argument_errors_match_paddle():
    _same_static_exception(lambda fw: fw.static.data("x", 3, "float32"))
    _same_static_exception(lambda fw: fw.static.create_parameter([2, "a"], "float32"))
    _same_static_exception(lambda fw: fw.static.program_guard(fw.static.Program(), 3).__enter__())
    _same_static_exception(lambda fw: fw.static.Executor().run(
        fw.static.Program(), feed={}, fetch_list=[3]))

    for build in (lambda fw, a: fw.matmul(a, fw.ones([3])), lambda fw, a: fw.reshape(a, [3]),
                  lambda fw, a: fw.nn.functional.max_pool2d(a, 2), lambda fw, a: a[5],
                  lambda fw, a: fw.sum(a, axis=3)):  # errors while recording: the eager types
        _same_static_exception(lambda fw, b=build: b(fw, fw.static.data("a", [2], "float32")))

    def bad_feed_dtype(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3], "float32")
            y = x * 2
        fw.static.Executor().run(main, feed={"x": np.ones([1, 3], "float64")}, fetch_list=[y])
    _same_static_exception(bad_feed_dtype)

    def runtime_shape_error(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3], "float32")
            y = fw.matmul(x, fw.ones([3, 2]))
        fw.static.Executor().run(main, feed={"x": np.ones([2, 4], "float32")}, fetch_list=[y])
    _same_static_exception(runtime_shape_error)

    def bad_inference_vars(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3], "float32")
            y = x * 2
        fw.static.save_inference_model("/tmp/pagaie_never_written/m", ["x"], [y],
                                       fw.static.Executor(), program=main)
    _same_static_exception(bad_inference_vars)


@pytest.mark.parametrize("case", ["none_branch", "python_pred", "float_index"])
def test_control_flow_errors_match_paddle(case):
    def build(fw):
        x = fw.static.data("x", [1], "float32")
        if case == "none_branch":
            fw.static.nn.cond(x > 0, lambda: x * 2)
        elif case == "python_pred":
            fw.static.nn.cond(True, lambda: x + 1, lambda: x)
        else:
            fw.static.nn.switch_case(x, {1: lambda: x})
    _same_static_exception(lambda fw: build(fw))


@pytest.mark.parametrize("make", [lambda S: S("abc"), lambda S: S([1.5, 2]), lambda S: S([3]).batch("a"),
                                  lambda S: S([3]).batch([8, 9]), lambda S: S([]).unbatch(),
                                  lambda S: S.from_tensor(np.ones(3))])
def test_input_spec_errors_match_paddle(make):
    same_exception(lambda fw: make(fw.static.InputSpec))


def test_input_spec_values_match_paddle():
    def run(fw):
        S = fw.static.InputSpec
        return [S([-1, -2, None, 3]).shape, S([2], "float32", "a", True) == S([2], "float32", "a"),
                S([2], "float32", "a") == S([2], "float32", "a"), repr(S([3, 4], "int64", "x").batch(8)),
                repr(S.from_numpy(np.ones([2, 3], "int32"), name="n"))]
    ref = paddle_ref()
    assert run(pagaie) == run(ref)


def test_unique_names_are_per_mode():
    def run(fw):
        with static_mode(fw):
            first = fw.nn.Linear(2, 2).weight.name
        dynamic = fw.nn.Linear(2, 2).weight.name  # each dynamic session counts from 0 again
        with static_mode(fw):
            second = fw.nn.Linear(2, 2).weight.name  # static mode's counters continue
        k = int(first.split("_")[1].split(".")[0])
        return dynamic, second == f"linear_{k + 1}.w_0"
    ref = paddle_ref()
    assert run(pagaie) == run(ref) == ("linear_0.w_0", True)


def test_files_written_for_a_program_without_parameters(tmp_path):
    def run(fw):
        d = tmp_path / fw.__name__
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [None, 3], "float32")
            y = x * 2
        exe = fw.static.Executor()
        fw.static.save_inference_model(str(d / "m"), [x], [y], exe, program=main)
        prog, feeds, fetches = fw.static.load_inference_model(str(d / "m"), exe)
        out = exe.run(prog, feed={feeds[0]: np.ones([2, 3], "float32")}, fetch_list=fetches)
        return sorted(p.name for p in d.iterdir()), out
    (files, out), (pfiles, pout) = _both(run)
    assert files == pfiles
    assert_same(out, pout)
