"""Session-19 sweep of paddle.static programs against real Paddle 3.3.1 (PIR): the sizes a
program infers from constant inputs (a ``full`` value, ``paddle.shape(y)``), probes with
distinct data per input, linspace/logspace lengths, ``paddle.grad`` in static mode."""
from __future__ import annotations

import os

import numpy as np
import pytest

from tests.reference import assert_same, both_static, same_static_exception

pytest.importorskip("paddle")


def _both(fn):
    return both_static(fn, fresh_programs=True)


def _shapes(build):
    """The build-time shapes of ``build(fw)``'s results in both frameworks (equal)."""
    ours, theirs = _both(lambda fw: [list(v.shape) for v in build(fw)])
    assert ours == theirs


# ---- sizes read from constant inputs -----------------------------------------------------------
def _full(fw, shape, v, dt="int64"):
    return fw.full(shape, v, dt)


def _x(fw, shape=(4, 6)):
    return fw.static.data("x", list(shape), "float32")


@pytest.mark.parametrize("build", [
    lambda fw: [fw.arange(_full(fw, [], 2), _full(fw, [], 7))],
    lambda fw: [fw.arange(_full(fw, [1], 0.5, "float32"), _full(fw, [1], 3.0, "float32"), 0.5)],
    lambda fw: [fw.arange(0, 10, _full(fw, [], 2))],
    lambda fw: [fw.zeros(_full(fw, [2], 3)), fw.ones(_full(fw, [2], 3, "int32")),
                fw.empty(_full(fw, [2], 3)), fw.full(_full(fw, [2], 3), 1.0)],
    lambda fw: [fw.eye(_full(fw, [1], 3))],
    lambda fw: [fw.ones([_full(fw, [], 3), 2]), fw.ones([_full(fw, [1], 3), 2])],
    lambda fw: [fw.ones(_full(fw, [2], -1))],
    lambda fw: list(fw.topk(_x(fw), _full(fw, [1], 2))) + [fw.topk(_x(fw), _full(fw, [], 3, "int32"))[0]],
    lambda fw: [fw.expand(_x(fw, (1, 6)), _full(fw, [2], 6, "int32")),
                fw.broadcast_to(_x(fw, (1, 6)), _full(fw, [2], 6, "int32")),
                fw.expand(_x(fw, (1, 6)), [_full(fw, [], 3), 6])],
    lambda fw: [fw.tile(_x(fw, (2, 6)), _full(fw, [2], 2, "int32")), fw.tile(_x(fw, (1, 6)), [_full(fw, [], 3), 1])],
    lambda fw: [fw.reshape(_x(fw), [_full(fw, [], 3), 8]), fw.reshape(_x(fw), [_full(fw, [1], 3), 8])],
    lambda fw: [fw.unsqueeze(_x(fw), _full(fw, [1], 1)), fw.squeeze(_x(fw, (4, 1)), _full(fw, [1], 1))],
    lambda fw: [fw.sum(_x(fw), axis=_full(fw, [1], 1)), fw.mean(_x(fw), axis=_full(fw, [1], 1)),
                fw.max(_x(fw), axis=_full(fw, [1], 1)), fw.prod(_x(fw), axis=_full(fw, [1], 1))],
    lambda fw: [fw.crop(_x(fw), _full(fw, [2], 2, "int32"))],
    lambda fw: [fw.nn.functional.pad(_x(fw, (1, 1, 4, 6)), _full(fw, [4], 1, "int32"))],
    # not read: random ops, slices, split sections, values computed from a constant
    lambda fw: [fw.rand(_full(fw, [2], 3)), fw.randint(0, 5, _full(fw, [2], 3))],
    lambda fw: [fw.slice(_x(fw, (8, 6)), [0], _full(fw, [1], 1), _full(fw, [1], 4))],
    lambda fw: [fw.zeros(_full(fw, [2], 3) * 2), fw.arange(_full(fw, [], 2) + 1, 7)],
    lambda fw: [fw.nonzero(_full(fw, [3], 1))],
])
def test_sizes_read_from_full_values(build):
    _shapes(build)


@pytest.mark.parametrize("build", [
    lambda fw: [fw.reshape(_x(fw), fw.shape(fw.static.data("y", [-1, 3], "float32")))],
    lambda fw: [fw.reshape(_x(fw), fw.shape(fw.static.data("y", [8, 3], "float32")))],
    lambda fw: [fw.reshape(_x(fw, (-1, 6)), fw.shape(fw.static.data("y", [-1, 2, 3], "float32")))],
    lambda fw: [fw.ones(fw.shape(fw.static.data("y", [-1, 3], "float32")))],
    lambda fw: [fw.expand(_x(fw, (1, 3)), fw.shape(fw.static.data("y", [-1, 3], "float32")))],
    lambda fw: [fw.tile(_x(fw, (2, 3)), fw.shape(fw.static.data("y", [-1, 2], "float32")))],
    lambda fw: [fw.zeros(fw.concat([fw.shape(fw.static.data("y", [-1, 2, 3], "float32")),
                                    _full(fw, [1], 4)]))],
    lambda fw: [fw.zeros(fw.shape(fw.static.data("y", [-1, 2, 3], "float32"))[1:])],
])
def test_sizes_read_from_shape_values(build):
    _shapes(build)


def test_constant_inputs_run_to_the_inferred_sizes():
    def run(fw):
        x = fw.static.data("x", [4, 6], "float32")
        y = fw.static.data("y", [-1, 3], "float32")
        outs = [fw.arange(_full(fw, [], 2), _full(fw, [], 7)), fw.topk(x, _full(fw, [1], 2))[0],
                fw.reshape(x, fw.shape(y)), fw.zeros(_full(fw, [2], 3))]
        exe = fw.static.Executor(fw.CPUPlace())
        feed = {"x": np.arange(24, dtype="float32").reshape(4, 6), "y": np.ones((8, 3), "float32")}
        return [list(v.shape) for v in outs], exe.run(feed=feed, fetch_list=outs)

    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


def test_probes_give_each_input_its_own_data():
    # two data inputs with the same values would always make an empty range
    _shapes(lambda fw: [fw.arange(fw.static.data("a", [3], "int64")[0],
                                  fw.static.data("b", [3], "int64")[0])])


# ---- linspace / logspace ----------------------------------------------------------------------
@pytest.mark.parametrize("num", [5, 0, -1])
@pytest.mark.parametrize("api", ["linspace", "logspace"])
def test_spacing_length_is_read_when_the_program_runs(api, num):
    _shapes(lambda fw: [getattr(fw, api)(0, 1, num), getattr(fw, api)(0, 1, num, dtype="float64")])

    def run(fw):
        y = getattr(fw, api)(0, 1, num)
        return str(y.dtype), fw.static.Executor(fw.CPUPlace()).run(fetch_list=[y])

    if num > 0 or (api == "linspace" and num == 0):
        ours, theirs = _both(run)
        assert ours[0] == theirs[0]
        assert_same(ours[1], theirs[1])
    else:
        same_static_exception(run)


# ---- paddle.grad --------------------------------------------------------------------------------
def test_grad_is_dynamic_mode_only():
    def build(fw):
        x = fw.static.data("x", [3], "float32")
        x.stop_gradient = False
        fw.grad((x * x).sum(), x)

    assert type(same_static_exception(build)) is AssertionError


# ---- Executor ---------------------------------------------------------------------------------
def _times_two(fw):
    x = fw.static.data("x", [3], "float32")
    return x, x * 2


def test_return_numpy_false_gives_dense_tensors():
    def run(fw):
        _, y = _times_two(fw)
        (t,) = fw.static.Executor(fw.CPUPlace()).run(feed={"x": np.ones(3, "float32")},
                                                     fetch_list=[y], return_numpy=False)
        return (type(t).__name__, t.shape(), str(t._dtype()), np.array(t),
                hasattr(t, "dtype"), hasattr(t, "stop_gradient"))

    ours, theirs = _both(run)
    assert ours[:3] == theirs[:3] and ours[4:] == theirs[4:]
    assert_same(ours[3], theirs[3])


def test_fed_inputs_are_in_the_global_scope():
    def run(fw):
        _, y = _times_two(fw)
        fw.static.Executor(fw.CPUPlace()).run(feed={"x": np.arange(3, dtype="float32")}, fetch_list=[y])
        t = fw.static.global_scope().find_var("x").get_tensor()
        return t.shape(), str(t._dtype())   # (Paddle's has released its data by then: ours keeps it)

    ours, theirs = _both(run)
    assert ours == theirs


@pytest.mark.parametrize("fed", ["int32", "bool", "float64"])
def test_feeds_of_another_dtype_are_refused(fed):
    def run(fw):
        x = fw.static.data("x", [3], "int64" if fed != "float64" else "float32")
        fw.static.Executor(fw.CPUPlace()).run(feed={"x": np.array([1, 0, 1], fed)}, fetch_list=[x + 1])

    assert type(same_static_exception(run)) is ValueError


# ---- autograd.jacobian in programs ------------------------------------------------------------
def _feed_x(fw, shape, arr, fetch):
    return fw.static.Executor(fw.CPUPlace()).run(feed={"x": arr}, fetch_list=fetch)


@pytest.mark.parametrize("case", [
    ([3], lambda fw, x: fw.autograd.jacobian(x * x, x)[1, :]),
    ([3], lambda fw, x: fw.autograd.jacobian(x * x, x)[:]),
    ([3], lambda fw, x: fw.autograd.jacobian(fw.sin(x) * x[0], x)[:, 0]),
    ([3], lambda fw, x: fw.autograd.jacobian((x * x).sum(), x)[:]),
    ([2, 3], lambda fw, x: fw.autograd.jacobian(x * x, x, batch_axis=0)[:]),
    ([3], lambda fw, x: fw.autograd.jacobian(x * x, (x, x * 1))[0][1]),
])
def test_jacobian_rows_are_program_values(case):
    shape, fn = case
    arr = np.arange(1, 1 + int(np.prod(shape)), dtype="float32").reshape(shape)

    def run(fw):
        x = fw.static.data("x", shape, "float32")
        x.stop_gradient = False
        v = fn(fw, x)
        return list(v.shape), _feed_x(fw, shape, arr, [v])

    ours, theirs = _both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


# ---- static.save_vars / load_vars -------------------------------------------------------------
def _with_linear(fw, body):
    """``body(exe, lin, main)`` in static mode over a fresh program holding a Linear(3, 2), its
    startup program run (the programs stay referenced throughout)."""
    fw.enable_static()
    try:
        main, start = fw.static.Program(), fw.static.Program()   # (PIR programs: after enable)
        with fw.static.program_guard(main, start):
            x = fw.static.data("x", [1, 3], "float32")
            lin = fw.nn.Linear(3, 2)
            lin(x)
            exe = fw.static.Executor(fw.CPUPlace())
            exe.run(start)
            return body(exe, lin, main)
    finally:
        fw.disable_static()


def _scope_array(fw, name):
    return np.array(fw.static.global_scope().find_var(name).get_tensor())


def _frameworks():
    import paddle
    import pagaie
    return pagaie, paddle


@pytest.mark.parametrize("filename", [None, "params"])
def test_save_vars_files_and_load_vars_round_trip(tmp_path, filename):
    def run(fw, exe, lin, main):
        d = str(tmp_path / fw.__name__)
        wn, bn = lin.weight.name, lin.bias.name
        fw.static.save_vars(exe, d, main, vars=[lin.weight, lin.bias], filename=filename)
        files = sorted(f.replace(wn, "W").replace(bn, "B") for f in os.listdir(d))
        w = _scope_array(fw, wn)
        fw.static.global_scope().find_var(wn).get_tensor().set(np.zeros([3, 2], "float32"), fw.CPUPlace())
        fw.static.load_vars(exe, d, main, vars=[lin.weight, lin.bias], filename=filename)
        return files, bool((_scope_array(fw, wn) == w).all())

    ours, theirs = [_with_linear(fw, lambda exe, lin, main, fw=fw: run(fw, exe, lin, main)) for fw in _frameworks()]
    assert ours == theirs


def test_save_vars_defaults_to_the_program_parameters(tmp_path):
    def run(fw, exe, main):
        d = str(tmp_path / fw.__name__)
        fw.static.save_vars(exe, d, main, predicate=lambda v: False)   # (ignored, as Paddle's PIR form)
        return len(os.listdir(d))

    ours, theirs = [_with_linear(fw, lambda exe, lin, main, fw=fw: run(fw, exe, main)) for fw in _frameworks()]
    assert ours == theirs == 2


def test_vars_files_read_across_frameworks(tmp_path):
    for writer, reader in (_frameworks(), _frameworks()[::-1]):
        d = str(tmp_path / writer.__name__)

        def save(exe, lin, main, fw=writer):
            fw.static.save_vars(exe, d, main, vars=[lin.weight, lin.bias], filename="params")
            # (sorted by name: the bias first)
            return [_scope_array(fw, lin.bias.name), _scope_array(fw, lin.weight.name)]

        def load(exe, lin, main, fw=reader):
            fw.static.load_vars(exe, d, main, vars=[lin.weight, lin.bias], filename="params")
            return [_scope_array(fw, lin.bias.name), _scope_array(fw, lin.weight.name)]

        want = _with_linear(writer, save)
        assert_same(_with_linear(reader, load), want)


def test_load_vars_of_a_missing_file_errors(tmp_path):
    for fw in _frameworks():
        with pytest.raises(RuntimeError):
            _with_linear(fw, lambda exe, lin, main, fw=fw: fw.static.load_vars(exe, str(tmp_path), main, vars=[lin.weight]))


# ---- PIR Value introspection ------------------------------------------------------------------
def test_value_uses_and_kinds():
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        y = x * 2
        u = x * 3
        z = y + 1
        w = fw.static.create_parameter([3], "float32")
        facts = [x.has_name, y.has_name, x.initialized(), x.is_parameter, w.is_parameter,
                 x.use_empty(), z.use_empty(), x.has_one_use(), y.has_one_use(),
                 [op.name() for op in x.all_used_ops()], type(x.id).__name__,
                 type(x.hash()).__name__, x.is_combine(), x.is_dense_tensor_array_type(),
                 x.is_selected_row_type(), x.is_sparse_coo_tensor_type(),
                 x.is_dist_dense_tensor_type(), x.is_distributed, x.need_clip, w.need_clip, u.has_one_use(),
                 x.optimize_attr, w.optimize_attr, x.regularizer, x.index(), z.index(),
                 x._names, x._has_only_one_name()]
        y.replace_all_uses_with(u)   # z now reads x * 3
        feed = {"x": np.ones([2, 3], "float32")}
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(fw.static.default_startup_program())
        return facts, y.use_empty(), exe.run(feed=feed, fetch_list=[z])

    ours, theirs = _both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


@pytest.mark.parametrize("build", [
    lambda fw: list(fw.split(_x(fw), [2, _full(fw, [1], 4, "int32")], axis=1)),
    lambda fw: list(fw.split(_x(fw), [2, fw.static.data("n", [1], "int32")], axis=1)),
    lambda fw: list(fw.split(_x(fw), 2, axis=fw.static.data("a", [1], "int64"))),
    lambda fw: list(fw.split(_x(fw), [2, -1], axis=1)),
])
def test_split_with_symbolic_sections_or_axis(build):
    _shapes(build)


def test_split_with_symbolic_sections_runs():
    def run(fw):
        x, n = _x(fw), fw.static.data("n", [1], "int32")
        ys = fw.split(x, [2, n], axis=1)
        feed = {"x": np.arange(24, dtype="float32").reshape(4, 6), "n": np.array([4], "int32")}
        return fw.static.Executor(fw.CPUPlace()).run(feed=feed, fetch_list=list(ys))

    assert_same(*_both(run))


def test_set_shape_outside_to_static_errors():
    assert type(same_static_exception(lambda fw: _x(fw, (-1, 3)).set_shape([4, 3]))) is AssertionError


@pytest.mark.parametrize("build", [
    lambda fw: fw.reshape(_x(fw), _full(fw, [2], 12, "int32")),
    lambda fw: fw.squeeze(_x(fw), _full(fw, [1], 5)),
    lambda fw: fw.sum(_x(fw), axis=_full(fw, [1], 5)),
])
def test_constants_paddle_checks_while_building(build):
    assert type(same_static_exception(build)) is ValueError


def test_constants_paddle_does_not_check_build():
    # (Paddle's own sizes there, [4, 10] and [5, 5], are not checked: ours are unknown)
    ours, theirs = _both(lambda fw: [len(fw.topk(_x(fw), _full(fw, [1], 10))[0].shape),
                                     len(fw.expand(_x(fw, (2, 6)), _full(fw, [2], 5, "int32")).shape)])
    assert ours == theirs


def test_operation_block_and_program_introspection():
    def run(fw):
        x = fw.static.data("x", [3], "float32")
        y = fw.add(x, x)
        v, i = fw.topk(x, 2)
        op, b = y.get_defining_op(), fw.static.default_main_program().global_block()
        return [op.num_operands(), op.num_results(), [s.is_same(x) for s in op.operands_source()],
                op.operand_source(1).is_same(x), op.result(0).is_same(y),
                [r.is_same(y) for r in op.results()], v.get_defining_op().num_results(),
                op.get_parent_block() is b, type(op.id()).__name__, b.back().name(), b.empty(),
                b.parent_block, fw.static.default_main_program().parameters_num(),
                len(fw.static.default_main_program().get_all_parameter_values())]

    ours, theirs = _both(run)
    assert ours == theirs


@pytest.mark.parametrize("build", [
    lambda fw: [fw.full([2, _full(fw, [], 3, "int32")], 1.0), fw.ones([2, _full(fw, [], 3, "int32")]),
                fw.reshape(_x(fw), [_full(fw, [], 3, "int32"), 8])],   # (int32 in a list: not read)
    lambda fw: [fw.nn.functional.one_hot(fw.static.data("i", [4], "int64"), _full(fw, [1], 5))],
    lambda fw: [fw.nn.functional.one_hot(fw.static.data("i", [4], "int64"), fw.static.data("n", [1], "int64"))],
    lambda fw: [fw.nn.functional.one_hot(fw.static.data("i", [4], "int64"), 3)],
    lambda fw: [fw.strided_slice(_x(fw, (8, 6)), [0], _full(fw, [1], 1), _full(fw, [1], 5), [1])],
])
def test_more_sizes_read_from_constants(build):
    _shapes(build)


def test_one_hot_with_a_symbolic_depth_runs():
    def run(fw):
        i, n = fw.static.data("i", [4], "int64"), fw.static.data("n", [1], "int64")
        y = fw.nn.functional.one_hot(i, n)
        feed = {"i": np.array([0, 2, 1, 2]), "n": np.array([3])}
        return fw.static.Executor(fw.CPUPlace()).run(feed=feed, fetch_list=[y])

    assert_same(*_both(run))


@pytest.mark.parametrize("build", [
    lambda fw: [fw.squeeze(_x(fw), fw.static.data("a", [1], "int64"))],
    lambda fw: [fw.strided_slice(_x(fw), [0], fw.static.data("a", [1], "int64"),
                                 fw.static.data("b", [1], "int64"), [1])],
    lambda fw: [fw.slice(_x(fw), [0], fw.static.data("a", [1], "int64"), fw.static.data("b", [1], "int64"))],
])
def test_sizes_from_symbolic_axes_and_bounds(build):
    _shapes(build)


def test_kthvalue_k_must_be_an_int_in_programs():
    assert type(same_static_exception(
        lambda fw: fw.kthvalue(_x(fw), fw.static.data("k", [], "int64")))) is TypeError
