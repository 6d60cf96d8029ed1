"""The pass engine (registry, fixed point, debug verification) and the verifier."""
from __future__ import annotations

import pytest
import torch

import pagaie as paddle
from pagaie._static.ir import Program
from pagaie._static.passes import (PASSES, Pass, Rule, apply_build_strategy, clone_program,
                                   register_pass, run_passes)
from pagaie._static.verifier import check, verify
from tests.static_passes.helpers import assert_same_outputs, op_types, run, static_program


def _mlp():
    with static_program() as main:
        x = paddle.static.data("x", [None, 4], "float32")
        h = paddle.nn.functional.relu(paddle.nn.Linear(4, 8)(x))
        out = paddle.tanh(h * 2.0 + 1.0)
    return main, x, out


def test_sound_program_verifies():
    main, _, _ = _mlp()
    assert verify(main) == []
    check(main)


def test_verifier_catches_wrong_shape_and_dtype():
    main, _, out = _mlp()
    bad = clone_program(main)
    v = bad.global_block().var(out.name)
    v._t = torch.empty([3, 3], device="meta")
    errs = verify(bad)
    assert any("recorded with shape [3, 3]" in e for e in errs), errs
    bad2 = clone_program(main)
    v2 = bad2.global_block().var(out.name)
    v2._t = torch.empty(v2._t.shape, dtype=torch.float64, device="meta")
    assert any("recorded as float64" in e for e in verify(bad2))


def test_verifier_catches_arity_use_before_def_and_missing_producer():
    main, _, _ = _mlp()
    bad = clone_program(main)
    ops = bad.global_block().ops
    ops[0].args = ops[0].args + [1, 2, 3, 4, 5]
    assert any("do not match the signature" in e for e in verify(bad))

    bad = clone_program(main)
    ops = bad.global_block().ops
    ops[0], ops[1] = ops[1], ops[0]
    assert any("used before it is defined" in e for e in verify(bad))

    bad = clone_program(main)
    ctx_free = {"x"}
    del bad.global_block().ops[1]
    errs = verify(bad, free_inputs=ctx_free)
    assert any("is not defined by any op" in e for e in errs), errs

    bad = clone_program(main)
    bad.global_block().ops[0].type = "no_such_op"
    assert any("unknown op type" in e for e in verify(bad))
    with pytest.raises(ValueError, match="program is invalid"):
        check(bad)


def test_verifier_catches_double_definition():
    main, _, _ = _mlp()
    bad = clone_program(main)
    ops = bad.global_block().ops
    ops[3].outputs = ops[1].outputs  # a second, non in-place definition
    assert any("defined a second time" in e for e in verify(bad))


class _Corrupt(Rule):
    """A broken rule: drops the linear op that the rest of the program reads."""

    name = "corrupt"

    def match(self, op, ctx):
        return op.type == "linear"

    def rewrite(self, op, m, ctx):
        ctx.remove_op(op)


def test_debug_mode_runs_the_verifier_after_each_pass(monkeypatch):
    if "test_corrupt" not in PASSES:
        register_pass(Pass("test_corrupt", [_Corrupt()], blocks="global"))
    main, _, out = _mlp()
    with pytest.raises(AssertionError, match="test_corrupt"):
        run_passes(clone_program(main), ["test_corrupt"], keep=[out.name], debug=True)
    monkeypatch.setenv("PAGAIE_DEBUG_PASSES", "1")
    with pytest.raises(AssertionError, match="not defined by any op"):
        run_passes(clone_program(main), ["test_corrupt"], keep=[out.name])
    monkeypatch.setenv("PAGAIE_DEBUG_PASSES", "0")
    run_passes(clone_program(main), ["test_corrupt"], keep=[out.name])  # no check: no error


def test_registry_errors():
    with pytest.raises(ValueError, match="registered twice"):
        register_pass(Pass("dead_code_elimination", []))
    main, _, _ = _mlp()
    with pytest.raises(ValueError, match="unknown pass"):
        run_passes(main, ["no_such_pass"])


def test_apply_build_strategy_never_mutates_the_program():
    main, x, out = _mlp()
    before = repr(main)
    version = main.version
    bs = paddle.static.BuildStrategy() if hasattr(paddle.static, "BuildStrategy") else None
    opt = apply_build_strategy(main, bs, keep=[out.name], debug=True)
    assert repr(main) == before and main.version == version
    assert opt is not main
    assert_same_outputs(main, opt, {"x": torch.randn(3, 4)}, [out])


def test_clone_shares_parameters_and_runs_the_same():
    main, x, out = _mlp()
    c = clone_program(main)
    assert [v.source for v in c.all_parameters()] == [v.source for v in main.all_parameters()]
    assert all(a is not b for a, b in zip(c.list_vars(), main.list_vars()))
    feed = {"x": torch.randn(2, 4)}
    assert torch.equal(run(main, feed, [out])[0], run(c, feed, [out.name])[0])
    assert op_types(c) == op_types(main)


def test_fixed_point_over_sub_blocks():
    with static_program() as main:
        x = paddle.static.data("x", [4], "float32")
        blk = main.create_block(0)
        y = blk.create_var("inner", [4], "float32")
        blk.append_op("exp", [x, None], {"out": None}, y)
    # Block 1 holds an op whose result nothing reads: removed by DCE there too.
    stats = run_passes(main, ["dead_code_elimination"], keep=[])
    assert stats.get("dead_code") == 1 and main.blocks[1].ops == []
    assert isinstance(main, Program)
