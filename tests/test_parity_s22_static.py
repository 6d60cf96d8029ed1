"""Session-22 sweep of static programs against real Paddle 3.3.1 (PIR): what a program's
``state_dict`` hands out (DenseTensor views of the variables), ``paddle.load`` in static mode
(DenseTensors, not eager Tensors), and more Executor, Program, static.nn and inference APIs."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both_static, same_static_exception

pytest.importorskip("paddle")


def _both(fn):
    return both_static(fn, fresh_programs=True)


def _fc_program(fw):
    x = fw.static.data("x", [None, 4], "float32")
    y = fw.static.nn.fc(x, 3)
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(fw.static.default_startup_program())
    return x, y, exe


# ---- Program.state_dict / set_state_dict ----------------------------------------------------------
@pytest.mark.parametrize("mode", ["all", "param"])
def test_program_state_dict_values_are_dense_tensor_views(mode):
    """Each value is a DenseTensor: ``shape()`` is a method, and ``set`` writes the variable
    the program reads."""
    def run(fw):
        x, y, exe = _fc_program(fw)
        sd = fw.static.default_main_program().state_dict(mode)
        kinds = sorted((type(v).__name__, v.shape(), str(v._dtype())) for v in sd.values())
        w = next(k for k in sd if k.endswith(".w_0"))
        b = next(k for k in sd if k.endswith(".b_0"))
        sd[w].set(np.full([4, 3], 0.5, "float32"), fw.CPUPlace())
        sd[b].set(np.arange(3, dtype="float32"), fw.CPUPlace())
        out = exe.run(feed={"x": np.ones([2, 4], "float32")}, fetch_list=[y])
        return kinds, out, np.array(fw.static.global_scope().find_var(w).get_tensor())
    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_program_state_dict_saved_loaded_and_set_back(tmp_path):
    """``paddle.save(program.state_dict())`` then ``paddle.load`` in static mode gives
    DenseTensors (numpy arrays with return_numpy), which ``set_state_dict`` takes back."""
    def run(fw):
        x, y, exe = _fc_program(fw)
        prog = fw.static.default_main_program()
        path = str(tmp_path / f"{fw.__name__}.pdparams")
        fw.save(prog.state_dict(), path)
        before = exe.run(feed={"x": np.ones([2, 4], "float32")}, fetch_list=[y])
        loaded = fw.load(path)
        arrays = fw.load(path, return_numpy=True)
        kinds = sorted((type(v).__name__, np.array(v).shape) for v in loaded.values())
        kinds += sorted((type(v).__name__, v.shape) for v in arrays.values())
        exe.run(fw.static.default_startup_program())   # new random values...
        prog.set_state_dict(loaded, fw.static.global_scope())   # ... and the saved ones back
        after = exe.run(feed={"x": np.ones([2, 4], "float32")}, fetch_list=[y])
        return kinds, before, after
    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], ours[2])
    assert_same(theirs[1], theirs[2])


def test_paddle_load_in_static_mode_gives_dense_tensors(tmp_path):
    from tests.reference import paddle_ref
    import pagaie
    for fw in (pagaie, paddle_ref()):
        fw.save({"a": fw.to_tensor(np.ones(3, "float32")), "b": np.ones(2)},
                str(tmp_path / f"d{fw.__name__}.pd"))
        fw.save(fw.to_tensor(np.arange(4, dtype="int64")), str(tmp_path / f"t{fw.__name__}.pd"))

    def run(fw):
        d = fw.load(str(tmp_path / f"d{fw.__name__}.pd"))
        t = fw.load(str(tmp_path / f"t{fw.__name__}.pd"))
        return ([(k, type(v).__name__, np.array(v)) for k, v in sorted(d.items())],
                type(t).__name__, np.array(t))
    ours, theirs = _both(run)
    assert [e[:2] for e in ours[0]] == [e[:2] for e in theirs[0]]
    assert ours[1] == theirs[1]
    assert_same([e[2] for e in ours[0]] + [ours[2]], [e[2] for e in theirs[0]] + [theirs[2]])


# ---- static.gradients ---------------------------------------------------------------------------
@pytest.mark.parametrize("target_gradients", [None, [3.0, 5.0, None], [1.0, 5.0, 3.0]])
def test_gradients_count_a_target_listed_twice_once_with_its_last_gradient(target_gradients):
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        z, w = x * x, x * 2
        tg = None if target_gradients is None else [
            None if g is None else fw.full([2, 3], g) for g in target_gradients]
        gs = fw.static.gradients([z, w, z], [x], tg)
        return fw.static.Executor().run(feed={"x": np.full([2, 3], 2.0, "float32")}, fetch_list=gs)
    ours, theirs = _both(run)
    assert_same(ours, theirs)


# ---- paddle.inference ---------------------------------------------------------------------------
def _three_outputs_net(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(4, 2)

        def forward(self, x, y):
            h = self.fc(x)
            return h, y * 2, h.sum()
    return Net()


def _predictor_outputs(fw, tmp_path, how):
    """Output names, handle shapes/types and values of a predictor over a model ``fw`` saved
    with ``how`` ('jit' or 'static')."""
    import os
    path = os.path.join(str(tmp_path), f"{fw.__name__}_{how}")
    if how == "jit":
        net = _three_outputs_net(fw)
        for p in net.parameters():
            p.set_value(np.full(p.shape, 0.25, "float32"))
        fw.jit.save(net, path, [fw.static.InputSpec([None, 4], "float32", "a"),
                                fw.static.InputSpec([3], "int64", "b")])
    else:
        fw.enable_static()
        try:
            main, start = fw.static.Program(), fw.static.Program()
            with fw.static.program_guard(main, start):
                x = fw.static.data("a", [-1, 4], "float32")
                y = fw.static.data("b", [3], "int64")
                h = fw.static.nn.fc(x, 2)
                outs = [h, y * 2, h.sum()]
            exe = fw.static.Executor(fw.CPUPlace())
            with fw.static.scope_guard(fw.static.Scope()):
                exe.run(start)
                for k, v in main.state_dict().items():
                    v.set(np.full(v.shape(), 0.25, "float32"), fw.CPUPlace())
                fw.static.save_inference_model(path, [x, y], outs, exe, program=main)
        finally:
            fw.disable_static()
    config = fw.inference.Config(path + ".json", path + ".pdiparams")
    pred = fw.inference.create_predictor(config)
    pred.get_input_handle("a").copy_from_cpu(np.arange(8, dtype="float32").reshape(2, 4))
    pred.get_input_handle("b").copy_from_cpu(np.arange(3, dtype="int64"))
    pred.run()
    names = pred.get_output_names()
    handles = [pred.get_output_handle(n) for n in names]
    return (names, [(h.shape(), str(h.type())) for h in handles],
            [h.copy_to_cpu() for h in handles])


@pytest.mark.parametrize("how", ["jit", "static"])
def test_predictor_output_names_are_the_fetch_names(tmp_path, how):
    """Paddle's predictor names a model's outputs fetch_name_<i>, whoever exported it."""
    from tests.reference import paddle_ref
    import pagaie
    ours, theirs = (_predictor_outputs(fw, tmp_path, how) for fw in (pagaie, paddle_ref()))
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


# ---- static.auc's curve -------------------------------------------------------------------------
@pytest.mark.parametrize("curve", ["PR", "ROC", "other"])
def test_auc_takes_any_curve_name_and_computes_the_roc_area(curve):
    def run(fw):
        p = fw.static.data("p", [None, 2], "float32")
        lab = fw.static.data("l", [None, 1], "int64")
        r = fw.static.auc(p, lab, curve=curve, num_thresholds=10)
        feed = {"p": np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], "float32"),
                "l": np.array([[0], [1], [1], [0]], "int64")}
        return fw.static.Executor().run(feed=feed, fetch_list=[r[0]])
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_auc_curve_must_be_a_str():
    same_static_exception(lambda fw: fw.static.auc(fw.static.data("p", [None, 2], "float32"),
                                                   fw.static.data("l", [None, 1], "int64"), curve=3))


# ---- printing a program -------------------------------------------------------------------------
def test_a_printed_program_names_paddles_ops():
    """``str(program)`` names each op as Paddle does (pd_op.matmul...), inputs and parameters
    included (pd_op.data, builtin.parameter)."""
    def run(fw):
        x = fw.static.data("x", [None, 4], "float32")
        fw.mean(fw.static.nn.fc(x, 3, activation="relu") * 2)
        text = str(fw.static.default_main_program())
        names = ["pd_op.data", "builtin.parameter", "pd_op.matmul", "pd_op.add", "pd_op.relu",
                 "pd_op.scale", "pd_op.mean"]
        return [n for n in names if f'"{n}"' in text]
    ours, theirs = _both(run)
    assert ours == theirs


# ---- static.save / load_inference_model argument checks ----------------------------------------
def _inference_model(fw, prefix):
    x = fw.static.data("x", [None, 3], "float32")
    y = fw.static.nn.fc(x, 2)
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(fw.static.default_startup_program())
    fw.static.save_inference_model(prefix, [x], [y], exe)


@pytest.mark.parametrize("executor", [None, 3, "exe"])
def test_load_inference_model_needs_an_executor_for_the_parameters(tmp_path, executor):
    """Paddle asserts an Executor (None fails on its attribute: AttributeError)."""
    def run(fw):
        prefix = str(tmp_path / f"{fw.__name__}_m")
        _inference_model(fw, prefix)
        fw.static.load_inference_model(prefix, executor)
    same_static_exception(run)


@pytest.mark.parametrize("program", [3, "main", None])
def test_static_save_of_something_not_a_program(tmp_path, program):
    same_static_exception(lambda fw: fw.static.save(program, str(tmp_path / "m")))


# ---- inference.Config ---------------------------------------------------------------------------
def test_config_feed_fetch_ops_switch_is_ignored():
    """Paddle 3's predictors have no feed/fetch ops: the switch changes nothing."""
    def run(fw):
        c = fw.inference.Config()
        seen = [c.use_feed_fetch_ops_enabled()]
        for x in (True, False, True):
            c.switch_use_feed_fetch_ops(x)
            seen.append(c.use_feed_fetch_ops_enabled())
        return seen
    from tests.reference import both
    ours, theirs = both(run)
    assert ours == theirs


def test_config_set_model_directory_keeps_the_files(tmp_path):
    """``set_model(dir)`` sets the directory; the program and parameter files set before stay."""
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "d").mkdir()

    def run(fw):
        c = fw.inference.Config(str(tmp_path / "a.json"), str(tmp_path / "b.pdiparams"))
        c.set_model(str(tmp_path / "d"))
        got = [(c.model_dir(), c.prog_file(), c.params_file())]
        c.set_prog_file(str(tmp_path / "z.json"))
        got.append((c.model_dir(), c.prog_file(), c.params_file()))
        return got
    from tests.reference import both
    ours, theirs = both(run)
    assert ours == theirs


# ---- Scope --------------------------------------------------------------------------------------
def test_scope_kids_find_their_parents_variables():
    def run(fw):
        s = fw.static.Scope()
        s.var("a").get_tensor().set(np.arange(3, dtype="float32"), fw.CPUPlace())
        kid = s.new_scope()
        kid.var("b").get_tensor().set(np.ones(2, "int64"), fw.CPUPlace())
        got = [np.array(kid.find_var("a").get_tensor()).tolist(), s.find_var("b") is None,
               kid.find_var("b") is not None]
        s.erase(["a", "missing"])
        got.append(s.find_var("a") is None)
        s.drop_kids()
        return got
    from tests.reference import both
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda fw, s: s.var(3),
    lambda fw, s: s.find_var(None),
    lambda fw, s: s.var("a").get_tensor().set(np.ones(2)),                          # no place
    lambda fw, s: s.var("a").get_tensor().set(np.array(["x", "y"]), fw.CPUPlace()),  # not numbers
])
def test_scope_and_dense_tensor_argument_errors(call):
    from tests.reference import same_exception
    same_exception(lambda fw: call(fw, fw.static.Scope()))


# ---- DenseTensor --------------------------------------------------------------------------------
def test_dense_tensor_set_takes_the_arrays_dtype_and_lod_methods():
    def run(fw):
        t = fw.static.Scope().var("a").get_tensor()
        t.set(np.arange(6, dtype="float32").reshape(2, 3), fw.CPUPlace())
        got = [t._get_dims(), t._get_float_element(4), t._layout()]
        t._set_float_element(4, 9.5)
        t.set_lod([[0, 1, 2]])
        got += [t.lod(), str(t), np.array(t._copy(fw.CPUPlace())).tolist()]
        t.set(np.ones([2, 3], "int64"), fw.CPUPlace())     # same shape, another dtype
        got += [t.shape(), str(t._dtype())]
        t.set(np.array(2.5, "float16"), fw.CPUPlace())
        got += [t.shape(), str(t._dtype())]
        t._clear()
        got.append(t._is_initialized())
        return got
    from tests.reference import both
    ours, theirs = both(run)
    assert ours == theirs
    from tests.reference import same_exception
    same_exception(lambda fw: fw.static.Scope().var("b").get_tensor()._place())


# ---- static.accuracy ----------------------------------------------------------------------------
def test_static_accuracy_in_a_program_leaves_correct_and_total_alone():
    def run(fw):
        p = fw.static.data("p", [4, 3], "float32")
        lab = fw.static.data("l", [4, 1], "int64")
        c, t = fw.zeros([1], "int32"), fw.zeros([1], "int32")
        acc = fw.static.accuracy(p, lab, k=2, correct=c, total=t)
        feed = {"p": np.array([[0.1, 0.5, 0.4], [0.9, 0.05, 0.05], [0.2, 0.3, 0.5], [0.3, 0.3, 0.4]],
                              "float32"),
                "l": np.array([[2], [0], [1], [0]], "int64")}
        return fw.static.Executor().run(feed=feed, fetch_list=[acc, c, t])
    ours, theirs = _both(run)
    assert_same(ours, theirs)
