"""Session-8 sweep of paddle.static against real Paddle 3.3.1 (PIR): scalar conversions of
symbolic Values, static.data shape checks, static.nn.fc / embedding input checks and the
dtype checks of static.accuracy / static.auc."""
from __future__ import annotations


import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both_static, paddle_ref, same_static_exception, static_mode


def _both(fn):
    return both_static(fn)


@pytest.mark.parametrize("shape", [[None, 4], [], [1]])
@pytest.mark.parametrize("conv", [float, int, complex, lambda v: [0, 1, 2][v], range])
def test_scalar_conversions_of_symbolic_values_raise_type_error(shape, conv):
    err = same_static_exception(lambda fw: conv(fw.static.data("x", shape, "float32")))
    assert "torch" not in str(err) and "meta" not in str(err)


@pytest.mark.parametrize("shape", [[-2, 3], [2, -5]])
def test_data_rejects_negative_dims_other_than_minus_one(shape):
    same_static_exception(lambda fw: fw.static.data("x", shape, "float32"))


def test_data_unknown_dims_and_lod_level():
    def make(fw):
        x = fw.static.data("x", (None, 3, -1), "int64", lod_level=1)
        return list(x.shape), str(x.dtype), x.stop_gradient, x.persistable, x.name
    ours, theirs = _both(make)
    assert ours == theirs


@pytest.mark.parametrize("make", [
    lambda fw, x, xi: fw.static.nn.fc(xi, 2),                       # int input
    lambda fw, x, xi: fw.static.nn.fc([x, 3], 2),                   # a non-tensor in the list
    lambda fw, x, xi: fw.static.nn.fc(x, 2.0),                      # float size
    lambda fw, x, xi: fw.static.nn.fc(x, -1),                       # negative size
    lambda fw, x, xi: fw.static.nn.fc([x, fw.static.data("x64", [None, 4], "float64")], 2),
    lambda fw, x, xi: fw.static.accuracy(xi, fw.static.data("l", [None, 1], "int64")),
    lambda fw, x, xi: fw.static.auc(x, fw.static.data("l", [None, 1], "float32")),
    lambda fw, x, xi: fw.static.auc(xi, fw.static.data("l", [None, 1], "int64")),
])
def test_static_layer_input_errors(make):
    def build(fw):
        x = fw.static.data("x", [None, 4], "float32")
        xi = fw.static.data("xi", [None, 4], "int32")
        make(fw, x, xi)
    same_static_exception(build)


def test_embedding_rejects_float_ids():
    # (Paddle 3.3.1's PIR static.nn.embedding checks the ids' dtype first: a TypeError)
    ref = paddle_ref()
    for fw in (pagaie, ref):
        with static_mode(fw), fw.static.program_guard(fw.static.Program(), fw.static.Program()):
            with pytest.raises(TypeError):
                fw.static.nn.embedding(fw.static.data("x", [None, 3], "float32"), size=[10, 4])


def test_fc_values_and_zero_units():
    def run(fw):
        main, start = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, start):
            x = fw.static.data("x", [None, 2, 3], "float32")
            c = fw.ParamAttr(initializer=fw.nn.initializer.Constant(0.25))
            a = fw.static.nn.fc(x, 2, num_flatten_dims=-1, weight_attr=c, bias_attr=c)
            b = fw.static.nn.fc([x, x], 3, weight_attr=c, bias_attr=False, activation="relu")
            z = fw.static.nn.fc(x, 0, weight_attr=c)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        feed = {"x": np.arange(12, dtype="float32").reshape(2, 2, 3) - 5}
        return exe.run(main, feed=feed, fetch_list=[a, b, z])
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_cond_checks_the_pred_dtype_before_its_size():
    same_static_exception(lambda fw: fw.static.nn.cond(fw.static.data("f", [2, 3], "float32"),
                                                        lambda: 1, lambda: 2))


def _fc_program(fw):
    main, start = fw.static.Program(), fw.static.Program()
    main.random_seed = start.random_seed = 11
    with fw.static.program_guard(main, start), fw.utils.unique_name.guard():
        x = fw.static.data("x", [None, 3], "float32")
        x.stop_gradient = False
        y = fw.static.nn.fc(x, 2, name="f")
        loss = fw.mean(y * y)
    return main, start, x, y, loss


def test_gradients_take_a_set_as_no_grad_set():
    def run(fw):
        main, start, x, y, loss = _fc_program(fw)
        with fw.static.program_guard(main, start):
            cut = fw.static.gradients(loss, [x], no_grad_set={y})
            (g,) = fw.static.gradients(loss, [x], no_grad_set=set())
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        feed = {"x": np.arange(6, dtype="float32").reshape(2, 3)}
        return cut, exe.run(main, feed=feed, fetch_list=[g])
    (cut, ours), (cut_ref, theirs) = _both(run)
    assert cut == cut_ref == [None]
    assert_same(ours, theirs)


def test_load_program_state_reads_the_whole_file_whatever_var_list(tmp_path):
    def run(fw):
        main, start, x, y, loss = _fc_program(fw)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        path = str(tmp_path / fw.__name__ / "m")
        fw.static.save(main, path)
        w = [p for p in main.global_block().all_parameters() if p.name == "f.w_0"]
        state = fw.static.load_program_state(path, var_list=w)
        return sorted(state), [state[k] for k in sorted(state)]
    (names, ours), (names_ref, theirs) = _both(run)
    assert names == names_ref == ["f.b_0", "f.w_0"]
    assert_same(ours, theirs)


def test_static_load_with_var_list_sets_only_those(tmp_path):
    with static_mode(pagaie):
        main, start, x, y, loss = _fc_program(pagaie)
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(start)
        path = str(tmp_path / "m")
        pagaie.static.save(main, path)
        pagaie.static.set_program_state(main, {"f.w_0": np.zeros([3, 2], "float32"),
                                               "f.b_0": np.zeros([2], "float32")})
        w = [p for p in main.global_block().all_parameters() if p.name == "f.w_0"]
        pagaie.static.load(main, path, exe, var_list=w)
        sc = pagaie.static.global_scope()
        assert np.abs(np.array(sc.find_var("f.w_0").get_tensor())).sum() > 0
        assert np.abs(np.array(sc.find_var("f.b_0").get_tensor())).sum() == 0


def test_scope_tensor_set_with_a_new_shape_replaces_it():
    def run(fw):
        main, start, x, y, loss = _fc_program(fw)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        t = fw.static.global_scope().find_var("f.w_0").get_tensor()
        t.set(np.full([3, 2], 0.5, "float32"), fw.CPUPlace())   # same shape: the values
        before = exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[y])
        t.set(np.ones([6], "float32"), fw.CPUPlace())     # another shape: the new array
        return str(t._dtype()), before, list(t.shape()), np.array(t)
    ours, theirs = _both(run)
    assert ours[0] == theirs[0] == "paddle.float32"
    assert_same(ours[1:], theirs[1:])


def _feed_program(fw):
    main, start = fw.static.Program(), fw.static.Program()
    with fw.static.program_guard(main, start):
        i = fw.static.data("i", [None], "int64")
        b = fw.static.data("b", [None], "bool")
        x = fw.static.data("x", [None, 3], "float32")
        outs = [i * 2, fw.logical_not(b), x * 2 + 1]
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(start)
    return main, exe, outs


GOOD = {"i": [1, 2], "b": [True], "x": np.ones([2, 3], "float32")}


@pytest.mark.parametrize("feed", [
    {"i": [1.7, 2]}, {"i": np.int64(3)}, {"i": np.float32(3)}, {"b": [1, 0]}, {"x": [[1.5, 2, 3]]},
    {"x": 3.0}, {"extra": np.ones(2)},
])
def test_feed_python_data_converts_to_the_declared_dtype(feed):
    def run(fw):
        main, exe, outs = _feed_program(fw)
        return exe.run(main, feed={**GOOD, **feed}, fetch_list=outs)
    ours, theirs = _both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("feed", [
    {"i": "ab"}, {"i": None}, {"i": [[1], [2, 3]]},
    {"x": np.ones([2, 3], "float64")}, {"i": np.ones([2], "int32")},
])
def test_bad_feed_data_errors(feed):
    def run(fw):
        main, exe, outs = _feed_program(fw)
        exe.run(main, feed={**GOOD, **feed}, fetch_list=outs)
    same_static_exception(run)


def test_missing_feed_is_a_key_error():
    def run(fw):
        main, exe, outs = _feed_program(fw)
        exe.run(main, feed={"b": [True], "x": GOOD["x"]}, fetch_list=outs)
    same_static_exception(run)
