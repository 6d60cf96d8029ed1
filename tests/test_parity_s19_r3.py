"""Session-19 round 3: static programs and to_static against real Paddle 3.3.1 (PIR): in-place
APIs whose own signature differs from their out-of-place op's (``cumprod_``, ``bitwise_*_``)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both_static, paddle_ref

import pagaie

XV = (np.arange(1, 13, dtype="float32").reshape(3, 4) / 4)
IV = np.arange(12, dtype="int32").reshape(3, 4)


def fw_full(x):
    fw = pagaie if type(x).__module__.startswith("pagaie") else paddle_ref()
    return fw.full([1], 0, "int64")


def _program(fw, build):
    x = fw.static.data("x", [3, 4], "float32")
    i = fw.static.data("i", [3, 4], "int32")
    j = fw.static.data("j", [3, 4], "int32")
    y = build(x, i, j)
    exe = fw.static.Executor(fw.CPUPlace())
    return exe.run(fw.static.default_main_program(), feed={"x": XV, "i": IV, "j": IV[::-1].copy()},
                   fetch_list=[y, x, i])


@pytest.mark.parametrize("build", [
    lambda x, i, j: x.cumprod_(0),   # the method passes its (x, dim, dtype, name) positionally
    lambda x, i, j: x.cumprod_(1, dtype="float64"),
    lambda x, i, j: i.bitwise_and_(j),
    lambda x, i, j: i.bitwise_xor_(j, None),
    lambda x, i, j: i.bitwise_not_(),
    lambda x, i, j: x.index_fill_(fw_full(x), 1, 5.0),   # the program's result, not x
])
def test_inplace_method_with_positional_args_in_a_program(build):
    ours, theirs = both_static(lambda fw: _program(fw, build), fresh_programs=True)
    assert_same(ours, theirs)


def test_inplace_cumprod_dtype_positional_builds():
    # Paddle 3.3.1 fails to build ``x.cumprod_(1, 'float64')`` (a TypeError from passing the
    # in-place API's positional dtype to cumprod, whose dtype is keyword-only): we build it
    with pagaie.static.program_guard(pagaie.static.Program(), pagaie.static.Program()):
        pagaie.enable_static()
        try:
            x = pagaie.static.data("x", [3, 4], "float32")
            assert x.cumprod_(1, "float64").dtype == pagaie.float64
        finally:
            pagaie.disable_static()


def test_to_static_cumprod_method_writes_into_x():
    def run(fw):
        @fw.jit.to_static
        def f(x):
            return x.cumprod_(1) * 2
        x = fw.to_tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
        return [f(x), x]
    paddle = paddle_ref()
    assert_same(run(pagaie), run(paddle))


def _inference(fw, tmp_path, fetch_list):
    main, startup = fw.static.Program(), fw.static.Program()
    with fw.static.program_guard(main, startup):
        x = fw.static.data("x", [3, 4], "float32")
        z = fw.nn.Linear(4, 2, bias_attr=False)(x) + 1
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        prefix = str(tmp_path / fw.__name__ / "m")
        fw.static.save_inference_model(prefix, [x], [z], exe, program=main)
    prog, _, fetches = fw.static.load_inference_model(prefix, exe)
    fw.seed(0)
    out = exe.run(prog, feed={"x": XV}, fetch_list=fetch_list(fetches))
    return [o.shape for o in out]


@pytest.mark.parametrize("fetch_list", [
    lambda f: ["fetch_name_0"],     # the name of a loaded inference program's fetch op
    lambda f: None,                 # no fetch_list: the program's fetch targets
    lambda f: [],
    lambda f: f,
])
def test_loaded_inference_program_fetch_by_fetch_op_name(tmp_path, fetch_list):
    ours, theirs = both_static(lambda fw: _inference(fw, tmp_path, fetch_list))
    assert ours == theirs


def test_unknown_fetch_name_raises(tmp_path):
    # Paddle raises a bare Exception for any name that is not a fetch op's; ours names the target
    def run(fw):
        try:
            _inference(fw, tmp_path, lambda f: ["fetch_name_3"])
        except Exception as exc:  # noqa: BLE001
            return exc
    ours, theirs = both_static(run)
    assert ours is not None and theirs is not None
    assert "fetch_list[0]" in str(ours) and "torch" not in str(ours)


def _introspect(fw):
    x = fw.static.data("x", [3, 4], "float32")
    y = fw.add(x, x)
    s = fw.sum(y, axis=1, keepdim=True)
    c = fw.cast(s, "float64")
    sop, cop, aop = s.get_defining_op(), c.get_defining_op(), y.get_defining_op()
    p = fw.static.data("p", [1], "float32")
    r = fw.static.nn.cond(p.sum() > 0, lambda: p + 1, lambda: p - 1)
    i = fw.full([1], 0, "int64")
    w = fw.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1], [i])[0]
    whiles = [o for o in w.block.program.global_block().ops if o.name() == "pd_op.while"]
    t = fw.tanh(x)
    first = x.first_use()
    return [sop.has_attr("keepdim"), sop.has_attr("zz"), "keepdim" in sop.get_attr_names(),
            cop.get_attr_names(), cop.get_input_names(), aop.get_input_names(),
            [o.source().is_same(x) for o in aop.operands()], aop.operand(1).index(),
            aop.num_regions(), r.get_defining_op().num_regions(), whiles[0].num_regions(),
            len(list(r.get_defining_op().blocks())), len(list(aop.blocks())),
            first.owner().name(), first.index(), first.source().is_same(x),
            y.first_use().owner().name(), fw is pagaie and t.first_use()]


def test_operation_and_value_introspection():
    # an unused value's first_use: Paddle gives a null OpOperand (truthy, every method raises
    # ValueError); ours is None
    ours, theirs = both_static(_introspect, fresh_programs=True)
    assert ours[-1] is None
    ours[-1] = theirs[-1] = None
    assert ours == theirs


def test_has_attr_takes_a_str():
    def run(fw):
        y = fw.static.data("x", [3], "float32") * 2
        y.get_defining_op().has_attr(1)
    from tests.reference import same_static_exception
    same_static_exception(run)


def test_operation_attrs_is_callable():
    def run(fw):
        x = fw.static.data("x", [3, 4], "float32")
        s = fw.sum(x, axis=1, keepdim=True)
        a = s.get_defining_op().attrs()
        return [a["keepdim"], a["stop_gradient"]]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda op: op.operand(5), lambda op: op.operand_source(5), lambda op: op.result(3),
    lambda op: op.operand(-1), lambda op: op.operand("a"),
])
def test_operation_index_errors(call):
    from tests.reference import same_static_exception
    same_static_exception(lambda fw: call((fw.static.data("x", [3], "float32") + 1).get_defining_op()))


def test_value_use_list_counts_each_operand_latest_first():
    def run(fw):
        x = fw.static.data("x", [3, 4], "float32")
        a = x + x
        out = [x.has_one_use(), [o.name() for o in x.all_used_ops()]]
        fw.tanh(x)
        return out + [x.has_one_use(), [o.name() for o in x.all_used_ops()], a.use_empty(),
                      len(x.all_used_ops_in_same_block())]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs
