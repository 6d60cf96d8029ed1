"""paddle.static, paddle.jit and friends against real Paddle 3.3.1, from Paddle's own unit
tests: cond's checks of its arguments and of what the branches return."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import (assert_same, both, both_static, paddle_ref, same_exception,
                             same_static_exception, static_mode)


# ---- cond ---------------------------------------------------------------------------------
def _int_pred(fw):
    i = fw.static.data(name="i", shape=[1], dtype="int32")
    return fw.equal(i % 2, 0)


def _one(fw):
    return fw.full([2, 7], 3, "int32")


def _two(fw):
    return fw.full([3, 1], 7, "int32"), fw.full([3, 1], 8, "int32")


@pytest.mark.parametrize("branches", [
    lambda fw: (lambda: None, lambda: _one(fw)),
    lambda fw: (lambda: _two(fw), lambda: None),
])
def test_cond_branch_returning_none_against_values(branches):
    err = same_static_exception(lambda fw: fw.static.nn.cond(_int_pred(fw), *branches(fw)))
    assert "Incompatible return values of true_fn and false_fn in cond" in str(err)


def test_static_cond_checks_the_name_type():
    same_static_exception(lambda fw: fw.static.nn.cond(_int_pred(fw), lambda: _one(fw),
                                                       lambda: _one(fw), set()))


def test_eager_cond_checks_only_the_branch_taken():
    def run(fw):
        x = fw.to_tensor(3.0)
        return (fw.static.nn.cond(x > 1, lambda: x * 2, set()).item(),
                fw.static.nn.cond(x < 1, set(), lambda: x - 1).item(),
                fw.static.nn.cond(x > 1, lambda: x, lambda: x, set()).item())
    ours, theirs = both(run)
    assert ours == theirs
    same_exception(lambda fw: fw.static.nn.cond(fw.to_tensor(3.0) > 1, set(), lambda: 1))


# ---- Executor.run's feeds ----------------------------------------------------------------
def _exe_run(feed):
    def run(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            x = fw.static.data(name="x", shape=[None, 3], dtype="float32")
            fw.static.data(name="lr", shape=[1], dtype="float32")
            out = x * 2
            return fw.static.Executor(fw.CPUPlace()).run(main, feed=feed, fetch_list=[out])
    return run


def test_executor_wants_every_data_input_fed():
    err = same_static_exception(_exe_run({"x": np.ones([2, 3], "float32")}))
    assert isinstance(err, KeyError) and "lr" in str(err)
    for fw in (pagaie, paddle_ref()):   # fed but unused: runs
        with static_mode(fw):
            out = _exe_run({"x": np.ones([2, 3], "float32"), "lr": 0.5})(fw)
        np.testing.assert_array_equal(out[0], np.full([2, 3], 2.0, "float32"))


def test_executor_warns_on_feed_names_not_in_the_program():
    with static_mode(pagaie):
        with pytest.warns(UserWarning, match="The value zz is not found in program"):
            _exe_run({"x": np.ones([2, 3], "float32"), "lr": 0.5, "zz": 1.0})(pagaie)


# ---- tensor arrays and while_loop in static programs --------------------------------------
def _run(fw, main, feed, fetch):
    return fw.static.Executor(fw.CPUPlace()).run(main, feed=feed, fetch_list=fetch)


def test_static_tensor_array_with_symbolic_index_through_a_loop():
    def build(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            i = fw.zeros([1], "int64")
            x = fw.static.data("x", [4], "float32")
            x.stop_gradient = False
            arr = fw.tensor.array_write(fw.zeros([4], "float32"), i)
            arr.stop_gradient = False   # (Paddle's gradients reach an array's writes only so)
            n = fw.full([1], 3, "int64")

            def body(i, x, arr):
                t = fw.tensor.array_read(arr, i) + x
                i = fw.increment(i)
                fw.tensor.array_write(t, i, array=arr)
                return [i, x, arr]

            i, x2, arr = fw.static.nn.while_loop(lambda i, x, a: i < n, body, [i, x, arr])
            out = fw.tensor.array_read(arr, i)
            dx = fw.static.gradients(fw.mean(out), [x])[0]
            length = fw.tensor.array_length(arr)
            return _run(fw, main, {"x": np.arange(4, dtype="float32")}, [out, dx, length])
    ours, theirs = both_static(build)
    assert_same(ours, theirs)


def test_while_loop_hands_back_untouched_loop_vars_as_the_inputs():
    def build(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            i = fw.zeros([1], "int64")
            x = fw.static.data("x", [3], "float32")
            x.stop_gradient = False
            n = fw.full([1], 3, "int64")
            i2, x2 = fw.static.nn.while_loop(lambda i, x: i < n, lambda i, x: [i + 1, x], [i, x])
            same = (x2 is x) or bool(getattr(x2, "is_same", lambda v: False)(x))
            g = fw.static.gradients(fw.mean(x * 2), [x2])[0]
            return [same] + _run(fw, main, {"x": np.ones(3, "float32")}, [g, i2])
    ours, theirs = both_static(build)
    assert ours[0] is True and theirs[0] is True
    assert_same(ours[1:], theirs[1:])


def test_while_loop_counter_incremented_in_place_is_seen_after_the_loop():
    def build(fw):
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            j = fw.full([1], 1, "int64")
            n = fw.full([1], 4, "int64")

            def body(j):
                j = fw.increment(j)
                return [j]

            fw.static.nn.while_loop(lambda j: j < n, body, [j])
            return _run(fw, main, {}, [j])
    ours, theirs = both_static(build)
    assert_same(ours, theirs)


def test_static_pylayer_without_backward_names_the_stop_gradient_rule():
    def build(fw):
        d = fw.static.data("d", [2], "float32")
        d.stop_gradient = False
        fw.static.nn.static_pylayer(lambda a: a * 2, [d])
    err = same_static_exception(build)
    assert ("``stop_gradient`` attr of all inputs to ``forward_fn`` are expected to be True, "
            "when ``backward_fn == None``") in str(err)


# ---- append_backward / gradients / minimize: no_grad_set and parameter_list ------------------
def _fc_loss(fw):
    x = fw.static.data(name="x", shape=[16, 5], dtype="float32")
    return x, fw.mean(fw.static.nn.fc(x, 3))


@pytest.mark.parametrize("no_grad_set", ["test", 3, ["a"], {"a"}, ("a", 3)])
@pytest.mark.parametrize("api", ["minimize", "append_backward", "gradients"])
def test_no_grad_set_takes_values_only(api, no_grad_set):
    def build(fw):
        x, loss = _fc_loss(fw)
        if api == "minimize":
            fw.optimizer.SGD(0.1).minimize(loss, no_grad_set=no_grad_set)
        elif api == "append_backward":
            fw.static.append_backward(loss, no_grad_set=no_grad_set)
        else:
            fw.static.gradients(loss, [x], no_grad_set=no_grad_set)
    same_static_exception(build)


@pytest.mark.parametrize("plist", [[3], ("a",)])
def test_append_backward_parameter_list_takes_values_only(plist):
    same_static_exception(lambda fw: fw.static.append_backward(_fc_loss(fw)[1], parameter_list=plist))
