"""Session-11 sweep of paddle.static against real Paddle 3.3.1: static.auc's counting (labels,
the positive column, accumulation over runs, the batch window and the shapes of its state),
cond's unification of Python numbers returned by the branches, load_program_state on paths
without a .pdparams file, and the error types of static.nn.fc / spectral_norm.

Where Paddle's PIR cannot build an API (auc's documented accumulating form), the reference is
Paddle's legacy IR (``paddle.pir_utils.OldIrGuard``), which Paddle 3.3.1 still ships."""
from __future__ import annotations

import os
import warnings
from contextlib import contextmanager

import numpy as np
import pytest

import pagaie
from tests.reference import (assert_same, both_static, paddle_ref, same_exception,
                             same_static_exception, static_mode)


def _both(fn):
    return both_static(fn, fresh_programs=True)


@contextmanager
def _legacy_ir(fw):
    """Paddle's legacy IR for real Paddle (pagaie has one IR)."""
    if fw is pagaie:
        yield
    else:
        with fw.pir_utils.OldIrGuard():
            yield


def _run_legacy(build, feeds, fetch):
    """``build(fw)`` in a fresh program with each framework (Paddle in its legacy IR), run once
    per feed; returns [ours, theirs], each the list of fetched lists."""
    ref = paddle_ref()
    out = []
    for fw in (pagaie, ref):
        with static_mode(fw), _legacy_ir(fw):
            main, start = fw.static.Program(), fw.static.Program()
            with fw.static.program_guard(main, start):
                built = build(fw)
            exe = fw.static.Executor(fw.CPUPlace())
            exe.run(start)
            out.append([exe.run(main, feed=f, fetch_list=fetch(built)) for f in feeds])
    return out


# ---- static.auc -------------------------------------------------------------------------------
_P = np.array([[0.5, 0.5], [0.9, 0.1], [0.0, 1.0], [1.0, 0.0]], "float32")
_LABELS = [[2, 0, -1, 1], [1, 0, 1, 0], [1, 0, 0, 0], [0, 1, 1, 0]]


def _auc_feeds():
    return [{"p": _P, "l": np.array(lab, "int64")[:, None]} for lab in _LABELS]


def test_auc_counts_labels_above_zero_as_positive_and_accumulates():
    """A label > 0 is a positive, 0 a negative, < 0 is skipped; the global AUC and its
    [1, n] counts grow over runs, the batch AUC's [(1 + steps) * n + 1] window state holds the
    last run's counts, their sum and the run count."""
    def build(fw):
        p = fw.static.data("p", [None, 2], "float32")
        lab = fw.static.data("l", [None, 1], "int64")
        return fw.static.auc(p, lab, num_thresholds=4)
    ours, theirs = _run_legacy(build, _auc_feeds(), lambda r: [r[0], r[1], *r[2]])
    assert_same(ours, theirs)


def test_auc_batch_window_of_every_run():
    """slide_steps=0: the batch AUC is the global one, its state [1, n] counts."""
    def build(fw):
        p = fw.static.data("p", [None, 2], "float32")
        lab = fw.static.data("l", [None, 1], "int64")
        return fw.static.auc(p, lab, num_thresholds=4, slide_steps=0)
    ours, theirs = _run_legacy(build, _auc_feeds()[:3], lambda r: [r[0], r[1], *r[2]])
    assert_same(ours, theirs)


def test_auc_of_one_column():
    """The last column is the positive probability (one batch: the PIR op gives the same
    AUC). (Paddle's kernel reads int32 labels as int64 and fails; pagaie takes them.)"""
    def run(fw):
        p = fw.static.data("p", [None, 1], "float32")
        lab = fw.static.data("l", [None, 1], "int64")
        r = fw.static.auc(p, lab, num_thresholds=10)
        feed = {"p": _P[:, 1:], "l": np.array([[3], [0], [1], [0]], "int64")}
        return fw.static.Executor().run(feed=feed, fetch_list=[r[0]])
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_auc_in_dynamic_mode_returns_the_legacy_state_shapes():
    """In dynamic mode auc returns (auc, batch_auc, [4 count tensors]) of the legacy shapes."""
    def run(fw):
        p = fw.to_tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        r = fw.static.auc(p, fw.to_tensor([[0], [1], [0], [1]]), num_thresholds=10)
        return [r[0], r[1], *r[2]]
    ref = paddle_ref()
    assert_same(run(pagaie), run(ref))


def test_auc_input_wider_than_two_columns_is_a_value_error():
    """Paddle only takes [N, 1] or [N, 2] predictions (binary classification)."""
    def run(fw):
        r = fw.static.auc(fw.static.data("p", [None, 3], "float32"),
                          fw.static.data("l", [None, 1], "int64"))
        feed = {"p": np.full([2, 3], 0.5, "float32"), "l": np.array([[0], [1]], "int64")}
        fw.static.Executor().run(feed=feed, fetch_list=[r[0]])
    same_static_exception(run)


# ---- cond: Python numbers returned by the branches ---------------------------------------------
@pytest.mark.parametrize("branches", [
    lambda x: (lambda: 1, lambda: 2),                     # one type, other values: an int64 tensor
    lambda x: (lambda: 1.5, lambda: 2.5),                 # float64
    lambda x: (lambda: True, lambda: False),              # bool
    lambda x: (lambda: (x, 1), lambda: (x * 2, 2)),
    lambda x: (lambda: x.sum(), lambda: 2.5),             # a number against a 0-D tensor: its dtype
    lambda x: (lambda: 3, lambda: x.astype("int32").sum()),
    lambda x: (lambda: x.sum() > 1, lambda: True),
])
def test_cond_promotes_python_numbers_to_tensors(branches):
    """Paddle unifies differing Python numbers of one type, or a number against a tensor, into
    0-D tensors (with a warning)."""
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        t, f = branches(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fw.static.nn.cond(x.mean() > 1, t, f)
        leaves = list(out) if isinstance(out, tuple) else [out]
        feed = {"x": np.arange(6, dtype="float32").reshape(2, 3)}
        return fw.static.Executor().run(feed=feed, fetch_list=leaves)
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_cond_keeps_equal_python_values():
    """Equal Python numbers of one type stay a number; None in both stays None."""
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        return (fw.static.nn.cond(x.mean() > 1, lambda: 3, lambda: 3),
                fw.static.nn.cond(x.mean() > 1, lambda: None, lambda: None))
    ours, theirs = _both(run)
    assert ours == theirs == (3, None)


@pytest.mark.parametrize("branches", [
    lambda x: (lambda: 1, lambda: 1.0),            # other types
    lambda x: (lambda: True, lambda: 1),
    lambda x: (lambda: "a", lambda: "b"),          # not a number
    lambda x: (lambda: np.float32(1), lambda: np.float32(2)),
])
def test_cond_rejects_other_python_values_with_type_error(branches):
    """Values that are neither tensors nor numbers of one type are a TypeError."""
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fw.static.nn.cond(x.mean() > 1, *branches(x))
    same_static_exception(run)


# ---- load_program_state without a .pdparams file -----------------------------------------------
def test_load_program_state_of_a_missing_path_is_empty(tmp_path):
    """Paddle looks for per-variable files instead, and finds none: {}."""
    def run(fw):
        return (fw.static.load_program_state(str(tmp_path / "nope")),
                fw.static.load_program_state(str(tmp_path / "nope.pdparams")),
                fw.static.load_program_state(str(tmp_path)))
    ours, theirs = _both(run)
    assert ours == theirs == ({}, {}, {})


def test_load_program_state_skips_unreadable_files_of_a_directory(tmp_path):
    """A file that holds no saved tensor is skipped with a warning."""
    (tmp_path / "junk").write_bytes(b"abc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _both(lambda fw: fw.static.load_program_state(str(tmp_path)))
    assert ours == theirs == {}


def test_load_program_state_of_a_file_needs_var_list(tmp_path):
    """A file path (not a .pdparams prefix) with var_list None is a ValueError."""
    (tmp_path / "junk").write_bytes(b"abc")
    same_static_exception(lambda fw: fw.static.load_program_state(str(tmp_path / "junk")))


def test_load_program_state_reads_per_variable_files(tmp_path):
    """One file per variable (Paddle's save_vars layout) is read back by name."""
    from pagaie._formats.pdiparams import serialize_tensor
    a = np.arange(6, dtype="float32").reshape(2, 3)
    os.makedirs(tmp_path / "sub")
    (tmp_path / "w").write_bytes(serialize_tensor(a))
    (tmp_path / "sub" / "b").write_bytes(serialize_tensor(np.array([1, 2], "int64")))
    state = pagaie.static.load_program_state(str(tmp_path))
    assert sorted(state) == ["sub/b", "w"]
    np.testing.assert_array_equal(state["w"], a)
    assert state["sub/b"].tolist() == [1, 2]


# ---- static.nn argument errors -----------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda fw: fw.static.nn.fc([], 2),                                             # TypeError
    lambda fw: fw.static.nn.fc(fw.static.data("x", [2, None], "float32"), 2),      # AssertionError
    lambda fw: fw.static.nn.fc(fw.static.data("x", [None, 3], "float32"), 2, activation="nope"),
    lambda fw: fw.static.nn.spectral_norm(fw.static.data("w", [3, 4], "float32"), dim=2),
    lambda fw: fw.static.nn.spectral_norm(fw.static.data("w", [3, 4], "float32"), dim=-1),
    lambda fw: fw.static.nn.spectral_norm(fw.static.data("w", [3], "float32"), dim=0),
    lambda fw: fw.static.nn.spectral_norm(fw.static.data("w", [3, 4], "int32")),
])
def test_static_nn_argument_errors(make):
    """fc: an empty input list is a TypeError, unknown flattened dims an AssertionError, an
    unknown activation an AttributeError; spectral_norm: dim 0 or 1 and rank >= 2 (ValueError),
    float weights (TypeError)."""
    same_static_exception(make)


@pytest.mark.parametrize("dim,shape", [(0, [3, 4]), (1, [3, 4, 2])])
def test_spectral_norm_values(dim, shape):
    """spectral_norm's result with Paddle's initial u and v (same program seed)."""
    w = np.random.RandomState(1).rand(*shape).astype("float32")

    def run(fw):
        fw.static.default_main_program().random_seed = 3
        fw.static.default_startup_program().random_seed = 3
        x = fw.static.data("w", shape, "float32")
        y = fw.static.nn.spectral_norm(x, dim=dim, power_iters=2)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(fw.static.default_startup_program())
        return exe.run(feed={"w": w}, fetch_list=[y])
    ours, theirs = _both(run)
    assert_same(ours, theirs)


# ---- while_loop / case / switch_case checks ----------------------------------------------------
def _full(fw, v, dtype="int64", shape=(1,)):
    return fw.full(list(shape), v, dtype)


@pytest.mark.parametrize("make", [
    lambda fw: fw.static.nn.while_loop(lambda i: True, lambda i: [i + 1], [_full(fw, 0)]),
    lambda fw: fw.static.nn.while_loop(lambda i: i + 1, lambda i: [i + 1], [_full(fw, 0)]),
    lambda fw: fw.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1], [_full(fw, 0, shape=[2])]),
    lambda fw: fw.static.nn.while_loop(lambda i: i < 3, lambda i: None, [_full(fw, 0)]),
    lambda fw: fw.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1, i], [_full(fw, 0)]),
    lambda fw: fw.static.nn.case([(_full(fw, 1), lambda: _full(fw, 1))]),
    lambda fw: fw.static.nn.case([]),
    lambda fw: fw.static.nn.case([(_full(fw, 1) > 0, 3)]),
    lambda fw: fw.static.nn.case([(_full(fw, 1) > 0, lambda: _full(fw, 1))], default=3),
    lambda fw: fw.static.nn.switch_case(_full(fw, 1), []),
    lambda fw: fw.static.nn.switch_case(_full(fw, 1), [1, 2]),
    lambda fw: fw.static.nn.switch_case(_full(fw, 1, "float32"), [lambda: _full(fw, 1)]),
    lambda fw: fw.static.nn.switch_case(_full(fw, 1), [(1, lambda: _full(fw, 1)),
                                                       (1, lambda: _full(fw, 2))]),
])
def test_control_flow_argument_errors(make):
    """while_loop: cond returns a bool tensor of one element (TypeError), body tensors of
    the loop's structure (ValueError); case: bool preds (TypeError), callables (TypeError), a
    pair at least (IndexError); switch_case: pairs or callables (TypeError), unique keys."""
    same_static_exception(make)


def test_while_loop_body_changing_a_dtype_is_a_value_error():
    """Paddle fails when the program runs (ValueError); pagaie when it is built."""
    def run(fw):
        out = fw.static.nn.while_loop(lambda i: i < 3, lambda i: [(i + 1).astype("float32")],
                                      [_full(fw, 0)])
        fw.static.Executor().run(fetch_list=out)
    same_static_exception(run)


def test_while_loop_in_dynamic_mode_checks_what_cond_returns():
    """A Python bool is an AttributeError, a tensor of two elements a TypeError."""
    same_exception(lambda fw: fw.static.nn.while_loop(lambda i: False, lambda i: [i + 1],
                                                      [fw.to_tensor(0)]))
    same_exception(lambda fw: fw.static.nn.while_loop(lambda i: fw.to_tensor([True, True]),
                                                      lambda i: [i + 1], [fw.to_tensor(0)]))
    ref = paddle_ref()
    run = (lambda fw: fw.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1], [fw.to_tensor(0)]))
    assert_same(run(pagaie), run(ref))


# ---- Executor and static.data ------------------------------------------------------------------
@pytest.mark.parametrize("program", [3, "main"])
def test_running_something_that_is_not_a_program(program):
    """Paddle fails looking for the program's description: AttributeError."""
    same_static_exception(lambda fw: fw.static.Executor().run(program, feed={}, fetch_list=[]))


def test_a_dense_tensor_feed_must_have_the_declared_dtype():
    """A DenseTensor holding float64 data fed to a float32 input is a ValueError; float32
    data runs."""
    from pagaie.static.framework import DenseTensor
    ref = paddle_ref()

    def run(fw, dtype):
        x = fw.static.data("x", [None, 3], "float32")
        t = ref.base.core.DenseTensor() if fw is ref else DenseTensor()
        t.set(np.ones([2, 3], dtype), fw.CPUPlace())
        return fw.static.Executor().run(feed={"x": t}, fetch_list=[x * 2])
    same_static_exception(lambda fw: run(fw, "float64"))
    ours, theirs = _both(lambda fw: run(fw, "float32"))
    assert_same(ours, theirs)


def test_static_data_in_dynamic_mode_is_an_assertion():
    """static.data needs static mode."""
    same_exception(lambda fw: fw.static.data("x", [2, 3], "float32"))


# ---- load_inference_model ----------------------------------------------------------------------
def _saved_model(fw, prefix):
    x = fw.static.data("x", [None, 3], "float32")
    y = fw.static.nn.fc(x, 2)
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(fw.static.default_startup_program())
    fw.static.save_inference_model(prefix, [x], [y], exe)
    return exe


@pytest.mark.parametrize("case", ["missing", "no_params", "empty", "bad_json", "dir_keywords"])
def test_load_inference_model_of_unreadable_files_is_a_runtime_error(tmp_path, case):
    """Paddle's loader raises RuntimeError for a missing or unreadable model or parameter
    file (also when model_filename is given with a path prefix instead of a directory)."""
    def run(fw):
        prefix = str(tmp_path / fw.__name__ / "inf")
        exe = _saved_model(fw, prefix)
        if case == "missing":
            fw.static.load_inference_model(prefix + "_nope", exe)
        elif case == "no_params":
            os.remove(prefix + ".pdiparams")
            fw.static.load_inference_model(prefix, exe)
        elif case == "dir_keywords":
            fw.static.load_inference_model(prefix, exe, model_filename="inf.json",
                                           params_filename="inf.pdiparams")
        else:
            with open(prefix + "_bad.json", "w") as f:
                f.write("" if case == "empty" else "{abc")
            fw.static.load_inference_model(prefix + "_bad", exe)
    same_static_exception(run)


def test_load_inference_model_takes_only_the_file_name_keywords(tmp_path):
    """Other keyword arguments are a ValueError."""
    def run(fw):
        prefix = str(tmp_path / fw.__name__ / "inf")
        fw.static.load_inference_model(prefix, _saved_model(fw, prefix), foo=1)
    same_static_exception(run)


# ---- Print ---------------------------------------------------------------------------------------
def test_print_phases_in_a_forward_program(capfd):
    """'forward' and 'both' print the value when the program runs, 'backward' nothing."""
    def run(fw):
        x = fw.static.data("x", [2], "float32")
        y = x * 3
        for phase in ("both", "backward", "forward"):
            y = fw.static.Print(y, message=phase, print_phase=phase) * 2
        capfd.readouterr()
        out = fw.static.Executor().run(feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[y])
        return out, capfd.readouterr().out
    ours, theirs = _both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1] and "backward" not in ours[1] and ours[1].count("Variable") == 2


def test_print_in_dynamic_mode_is_an_assertion():
    """Print is a static-mode API."""
    same_exception(lambda fw: fw.static.Print(fw.to_tensor([1.0, 2.0])))


# ---- static.nn layers that only Paddle's legacy IR builds ---------------------------------------
def _same_legacy_exception(fn):
    def wrapped(fw):
        with static_mode(fw), _legacy_ir(fw):
            with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
                fn(fw)
    return same_exception(wrapped)


@pytest.mark.parametrize("make", [
    lambda fw: fw.static.nn.layer_norm(fw.static.data("x", [None, 3, 4], "float32"), begin_norm_axis=-1),
    lambda fw: fw.static.nn.layer_norm(fw.static.data("x", [2, 3, 4], "float32"), begin_norm_axis=0),
    lambda fw: fw.static.nn.group_norm(fw.static.data("x", [None, 3, 4, 4], "float32"), groups=3,
                                       data_layout="NCDHW"),
    lambda fw: fw.static.nn.batch_norm(fw.static.data("x", [3], "float32")),
])
def test_legacy_static_nn_argument_errors(make):
    """layer_norm's begin_norm_axis counts from 1, group_norm takes NCHW / NHWC, batch_norm
    2-D to 5-D input: ValueError."""
    _same_legacy_exception(make)


@pytest.mark.parametrize("padding_idx", [7, -7, -1, 0])
def test_embedding_padding_index_outside_the_table_pads_nothing(padding_idx):
    """An index outside [-vocab, vocab) matches no id; a negative one counts from the end."""
    ids = np.array([[0, 3], [4, 1]], "int64")

    def build(fw):
        x = fw.static.data("x", [None, 2], "int64")
        return fw.static.nn.embedding(x, size=[5, 3], padding_idx=padding_idx,
                                      param_attr=fw.ParamAttr(initializer=fw.nn.initializer.Constant(0.5)))
    ours, theirs = _run_legacy(build, [{"x": ids}], lambda y: [y])
    assert_same(ours, theirs)


def test_row_conv_of_one_sequence_without_a_batch_axis():
    """A [time, dim] input is one sequence: out[t] = sum_i x[t + i] * w[i]. (Paddle's legacy
    kernel leaves a tensor without LoD uncomputed; pagaie reads it as one sequence.)"""
    a = np.random.RandomState(2).rand(5, 3).astype("float32")
    w = np.arange(9, dtype="float32").reshape(3, 3)
    with static_mode(pagaie):
        main, start = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, start):
            x = pagaie.static.data("x", [5, 3], "float32")
            attr = pagaie.ParamAttr(initializer=pagaie.nn.initializer.Assign(w))
            y = pagaie.static.nn.row_conv(x, 2, param_attr=attr)
            y3 = pagaie.static.nn.row_conv(pagaie.unsqueeze(x, 0), 2, param_attr=attr)
        exe = pagaie.static.Executor()
        exe.run(start)
        got, got3 = exe.run(main, feed={"x": a}, fetch_list=[y, y3])
    padded = np.concatenate([a, np.zeros((2, 3), "float32")])
    want = sum(padded[i:i + 5] * w[i] for i in range(3))
    np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(got3[0], want, rtol=1e-5)
