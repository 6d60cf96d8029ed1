"""Session-10 sweep of the paddle.static public API against real Paddle 3.3.1 (PIR):
Executor.run's fetch_list forms, closed executors and symbolic feeds, cond's structure check,
gradients' target_gradients checks, static.nn.prelu / embedding argument checks and slope
shapes, InputSpec shapes, scope DenseTensor views and static.save's path check."""
from __future__ import annotations


import numpy as np
import pytest

import pagaie
from tests.reference import (assert_same, both_static, paddle_ref, same_exception,
                             same_static_exception, static_mode)


def _both(fn):
    return both_static(fn, fresh_programs=True)


X = np.arange(6, dtype="float32").reshape(2, 3)


def _run(fw, fetch, **kw):
    x = fw.static.data("x", [None, 3], "float32")
    y = x * 2
    z = (x + 1).sum()
    targets = fetch(x, y, z)
    exe = fw.static.Executor(fw.CPUPlace())
    return exe.run(fw.static.default_main_program(), feed={"x": X}, fetch_list=targets, **kw)


# ---- Executor.run ---------------------------------------------------------------------------
@pytest.mark.parametrize("fetch", [
    lambda x, y, z: [[y, z]],          # a list inside the list: its items are fetched
    lambda x, y, z: [x, (y, z)],
    lambda x, y, z: ([z], y),
    lambda x, y, z: (z,),
])
def test_fetch_list_flattens_inner_lists(fetch):
    ours, theirs = _both(lambda fw: _run(fw, fetch))
    assert_same(ours, theirs)


@pytest.mark.parametrize("fetch", [lambda x, y, z: {"y": y}, lambda x, y, z: 3,
                                   lambda x, y, z: [3], lambda x, y, z: [(y, 3)]])
def test_fetch_list_of_another_type_errors(fetch):
    same_static_exception(lambda fw: _run(fw, fetch))


def test_a_closed_executor_cannot_run():
    def run(fw):
        x = fw.static.data("x", [None, 3], "float32")
        y = x * 2
        exe = fw.static.Executor(fw.CPUPlace())
        first = exe.run(feed={"x": X}, fetch_list=[y])
        exe.close()
        exe.close()  # (closing twice is fine)
        return first, exe

    ours, theirs = _both(run)
    assert_same(ours[0], theirs[0])
    err = same_static_exception(lambda fw: run(fw)[1].run(feed={"x": X}, fetch_list=[]))
    assert "closed" in str(err) and "Executor" in str(err)


def test_feeding_a_symbolic_value_is_a_type_error():
    def run(fw):
        x = fw.static.data("x", [None, 3], "float32")
        v = fw.to_tensor(X)  # in static mode: a Value of the program, not data
        fw.static.Executor().run(feed={"x": v}, fetch_list=[x * 2])
    err = same_static_exception(run)
    assert "meta" not in str(err)


# ---- control flow and gradients -------------------------------------------------------------
@pytest.mark.parametrize("branches", [
    lambda x: (lambda: [x, x * 2], lambda: (x * 3, x)),          # list vs tuple
    lambda x: (lambda: {"a": x}, lambda: {"b": x * 2}),          # dicts, other keys
    lambda x: (lambda: (x, [x * 2]), lambda: [x * 3, (x,)]),
])
def test_cond_branches_need_only_as_many_values(branches):
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        t, f = branches(x)
        out = fw.static.nn.cond(x.sum() > 0, t, f)
        leaves = []

        def walk(o):
            if isinstance(o, dict):
                o = list(o.values())
            if isinstance(o, (list, tuple)):
                for e in o:
                    walk(e)
            else:
                leaves.append(o)
        walk(out)
        shape = type(out).__name__, (sorted(out) if isinstance(out, dict) else len(out))
        return shape, fw.static.Executor().run(feed={"x": X}, fetch_list=leaves)

    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


@pytest.mark.parametrize("make", [
    lambda fw, x: fw.static.nn.cond(x.sum() > 0, lambda: (x, x), lambda: x),
    lambda fw, x: fw.static.nn.cond(x.sum() > 0, lambda: [x], lambda: [x, x, x]),
    lambda fw, x: fw.static.nn.switch_case(fw.full([1], 1, "int64"), [lambda: x, lambda: (x, x)]),
    lambda fw, x: fw.static.nn.case([(x.sum() > 0, lambda: x)], default=lambda: (x, x)),
])
def test_cond_branches_returning_other_counts_raise_value_error(make):
    err = same_static_exception(lambda fw: make(fw, fw.static.data("x", [2, 3], "float32")))
    assert "vars" in str(err)


@pytest.mark.parametrize("tg", [
    lambda fw: [fw.full([3], 3.0)],                            # another shape
    lambda fw: [fw.full([3, 2], 3.0)],
    lambda fw: [fw.full([2, 3], 3.0), fw.full([2, 3], 1.0)],   # one per target, not two
])
def test_gradients_check_the_target_gradients(tg):
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        fw.static.gradients([x * 2], [x], target_gradients=tg(fw))
    same_static_exception(run)


def test_gradients_with_target_gradients_values():
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        g = fw.static.gradients([x * x, x * 3], [x],
                                target_gradients=[fw.full([2, 3], 2.0), None])
        return fw.static.Executor().run(feed={"x": X}, fetch_list=g)
    ours, theirs = _both(run)
    assert_same(ours, theirs)


# ---- static.nn ------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda fw: fw.static.nn.prelu(fw.static.data("x", [None, 3], "int32"), "all"),
    lambda fw: fw.static.nn.prelu(fw.static.data("x", [None, 3], "float32"), "channels"),
    lambda fw: fw.static.nn.prelu(fw.static.data("x", [None, 3, 4], "float32"), "channel",
                                  data_format="NWC"),
    lambda fw: fw.static.nn.prelu(fw.static.data("x", [3], "float32"), "channel"),
    lambda fw: fw.static.nn.embedding(fw.static.data("i", [None, 2], "int32"), [5, 3]),
    lambda fw: fw.static.nn.sparse_embedding(fw.static.data("i", [None, 2], "int32"), [5, 3]),
])
def test_static_nn_argument_errors(make):
    same_static_exception(make)


@pytest.mark.parametrize("mode,data_format,shape,alpha", [
    # (Paddle 3.3.1's PIR cannot build static.nn.prelu; these are its legacy-IR slope shapes)
    ("all", "NCHW", [2, 3, 4, 4], [1]),
    ("channel", "NCHW", [2, 3, 4, 4], [1, 3, 1, 1]),
    ("channel", "NHWC", [2, 3, 4, 4], [1, 1, 1, 4]),
    ("channel", "NC", [2, 6], [1, 6, 1, 1]),
    ("channel", "NLC", [2, 3, 5], [1, 1, 1, 5]),
    ("element", "NCHW", [2, 3, 4, 4], [1, 3, 4, 4]),
])
def test_prelu_slope_shapes_and_values(mode, data_format, shape, alpha):
    rng = np.random.RandomState(0)
    a = rng.uniform(-1, 1, shape).astype("float32")
    with static_mode(pagaie):
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            x = pagaie.static.data("x", [None, *shape[1:]], "float32")
            y = pagaie.static.nn.prelu(x, mode, data_format=data_format)
        (w,) = main.global_block().all_parameters()
        assert list(w.shape) == alpha
        got = pagaie.static.Executor().run(main, feed={"x": a}, fetch_list=[y])[0]
    np.testing.assert_allclose(got, np.where(a > 0, a, 0.25 * a), rtol=1e-6)


# ---- InputSpec ------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [3, "ab", 2.5, None])
def test_input_spec_shape_must_be_a_list_or_tuple(shape):
    same_exception(lambda fw: fw.static.InputSpec(shape, "float32"))


def test_input_spec_forms_match_paddle():
    def make(fw):
        S = fw.static.InputSpec
        return [repr(S([None, 3], "float32", "x")), repr(S([2, -1], "int64").batch(4)),
                repr(S([4, 3]).unbatch()), repr(S.from_numpy(np.ones([2, 3], "int32"), "n")),
                S([2], "float32", "x") == S((2,), "float32", "x"), S([None]) == S([-1]),
                S([2]) == S([2], stop_gradient=True)]
    ref = paddle_ref()
    assert make(pagaie) == make(ref)


# ---- scope DenseTensor and static.save ------------------------------------------------------
def test_scope_dense_tensor_view():
    def run(fw):
        t = fw.static.Scope().var("v").get_tensor()
        before = (t._is_initialized(), t.shape(), str(t._dtype()))
        t.set(np.array([[1 / 3, 2.5, 1e10]], "float32"), fw.CPUPlace())
        ti = fw.static.Scope().var("i").get_tensor()
        ti.set(np.array([1, 2], "int64"), fw.CPUPlace())
        tb = fw.static.Scope().var("b").get_tensor()
        tb.set(np.array([True, False]), fw.CPUPlace())
        return (before, t._is_initialized(), t.shape(), str(t._dtype()), t._numel(), t.lod(),
                str(t), str(ti), str(tb), np.array(t).tolist())
    ref = paddle_ref()
    assert run(pagaie) == run(ref)


def test_static_save_without_a_file_prefix_is_an_assertion(tmp_path):
    def run(fw):
        x = fw.static.data("x", [None, 3], "float32")
        fw.static.nn.fc(x, 2)
        fw.static.save(fw.static.default_main_program(), str(tmp_path) + "/")
    same_static_exception(run)


# ---- static.data and feeds ------------------------------------------------------------------
@pytest.mark.parametrize("shape", [[2.0], [True, 3], [None, 2.5], [np.float32(2)]])
def test_data_shape_must_hold_ints(shape):
    same_static_exception(lambda fw: fw.static.data("x", shape, "float32"))


def test_data_shape_takes_numpy_ints():
    ours, theirs = _both(lambda fw: list(fw.static.data("x", [np.int64(2), None], "int32").shape))
    assert ours == theirs == [2, -1]


def test_big_endian_feed_is_read_in_native_order():
    # (Paddle 3.3.1 rejects such arrays with ValueError; pagaie reads the same values)
    with static_mode(pagaie):
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            x = pagaie.static.data("x", [None, 2], "float32")
            y = x * 2
        a = np.array([[1.5, -2.0]], ">f4")
        got = pagaie.static.Executor().run(main, feed={"x": a}, fetch_list=[y])[0]
    assert got.dtype == np.float32 and got.tolist() == [[3.0, -4.0]]


# ---- append_backward ------------------------------------------------------------------------
def _two_layer(fw):
    x = fw.static.data("x", [None, 3], "float32")
    c = fw.nn.initializer.Constant
    h = fw.static.nn.fc(x, 2, weight_attr=fw.ParamAttr(name="w1", initializer=c(0.5)),
                        bias_attr=fw.ParamAttr(name="b1", initializer=c(0.1)))
    y = fw.static.nn.fc(h, 1, weight_attr=fw.ParamAttr(name="w2", initializer=c(0.3)), bias_attr=False)
    fw.static.create_parameter([4], "float32", name="unused")
    params = {p.name: p for p in fw.static.default_main_program().global_block().all_parameters()}
    return fw.mean(y), params


@pytest.mark.parametrize("how", ["default", "no_grad_set", "stop_gradient", "parameter_list"])
def test_append_backward_pairs_every_parameter_with_none_where_no_gradient(how):
    def run(fw):
        loss, params = _two_layer(fw)
        kw = {}
        if how == "no_grad_set":
            kw["no_grad_set"] = {params["w1"]}
        elif how == "stop_gradient":
            params["b1"].stop_gradient = True
        elif how == "parameter_list":
            kw["parameter_list"] = [params["unused"], params["w1"], params["w2"]]
        pairs = fw.static.append_backward(loss, **kw)
        names = sorted((p.name, g is None) for p, g in pairs)
        grads = [g for _, g in sorted(pairs, key=lambda pg: pg[0].name) if g is not None]
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(fw.static.default_startup_program())
        return names, exe.run(feed={"x": X}, fetch_list=grads)
    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


@pytest.mark.parametrize("plist", ["w1", 3])
def test_append_backward_parameter_list_must_be_a_collection(plist):
    def run(fw):
        loss, _ = _two_layer(fw)
        fw.static.append_backward(loss, parameter_list=plist)
    same_static_exception(run)


def test_minimize_skips_parameters_without_gradients():
    def run(fw):
        loss, params = _two_layer(fw)
        params["b1"].stop_gradient = True
        _, pairs = fw.optimizer.SGD(0.1).minimize(loss)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(fw.static.default_startup_program())
        exe.run(feed={"x": X})
        return sorted(p.name for p, _ in pairs), exe.run(feed={"x": X}, fetch_list=[loss])
    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


@pytest.mark.parametrize("nfd", [-5, 3])
def test_fc_num_flatten_dims_other_than_minus_one_out_of_range_raise(nfd):
    # (Paddle 3.3.1 fails there too, with the errors of the ops it builds: TypeError for 3;
    # pagaie names the argument. In range, a negative value counts from the end and 0
    # flattens everything, as Paddle's with known sizes: test_parity_s27_hG)
    with static_mode(pagaie):
        with pagaie.static.program_guard(pagaie.static.Program(), pagaie.static.Program()):
            x = pagaie.static.data("x", [None, 3, 4], "float32")
            with pytest.raises(ValueError, match="num_flatten_dims"):
                pagaie.static.nn.fc(x, 2, num_flatten_dims=nfd)


def test_fc_num_flatten_dims_minus_one():
    def run(fw):
        x = fw.static.data("x", [None, 3, 4], "float32")
        y = fw.static.nn.fc(x, 2, num_flatten_dims=-1,
                            weight_attr=fw.ParamAttr(initializer=fw.nn.initializer.Constant(0.1)))
        a = np.arange(24, dtype="float32").reshape(2, 3, 4)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(fw.static.default_startup_program())
        return list(y.shape), exe.run(feed={"x": a}, fetch_list=[y])
    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])
