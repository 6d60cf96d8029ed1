"""Dead-code elimination, constant folding and common-subexpression elimination."""
from __future__ import annotations

import torch

import pagaie as paddle
from pagaie._core.registry import inplace_redefines
from pagaie._static.passes import clone_program, run_passes
from tests.static_passes.helpers import assert_same_outputs, op_types, run, static_program


def test_dead_code_elimination_keeps_fetches_and_effects():
    with static_program() as main:
        x = paddle.static.data("x", [3, 4], "float32")
        a = paddle.exp(x)
        dead = paddle.sin(a) * 3.0          # two dead ops
        out = paddle.tanh(a)
    opt = clone_program(main)
    stats = run_passes(opt, ["dead_code_elimination"], keep=[out.name], debug=True)
    assert stats == {"dead_code": 2}
    assert op_types(opt) == ["exp", "tanh"]
    assert_same_outputs(main, opt, {"x": torch.randn(3, 4)}, [out])
    # Without a fetch list the program's results (dead included) stay.
    kept = clone_program(main)
    assert run_passes(kept, ["dead_code_elimination"]) == {}
    assert dead.name in {v.name for op in kept.global_block().ops for v in op.output_values()}


def test_dead_code_keeps_training_side_effects():
    with static_program() as main:
        x = paddle.static.data("x", [8, 4], "float32")
        loss = paddle.nn.Linear(4, 1)(x).mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    opt = clone_program(main)
    run_passes(opt, ["dead_code_elimination"], keep=[], debug=True)
    assert op_types(opt) == op_types(main)


def test_constant_folding():
    c = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])             # an eager constant
    with static_program() as main:
        x = paddle.static.data("x", [2, 4], "float32")
        lin = paddle.nn.Linear(4, 4)
        k = paddle.exp(c) * 2.0 + paddle.full([4], 0.5)      # 4 foldable ops
        w = paddle.exp(lin.weight)                           # a parameter: not folded
        out = paddle.matmul(x + k, w)
    opt = clone_program(main)
    stats = run_passes(opt, ["constant_folding", "dead_code_elimination"], keep=[out.name],
                       debug=True)
    assert stats["constant_fold"] == 4
    assert op_types(opt) == ["exp", "add", "matmul"]
    folded = opt.global_block().var(k.name)
    assert folded.source is not None and folded.op is None
    torch.testing.assert_close(folded.source._t, torch.exp(c._t) * 2 + 0.5)
    assert_same_outputs(main, opt, {"x": torch.randn(2, 4)}, [out])
    # Optimizer updates of the parameter are still seen by the folded program.
    with torch.no_grad():
        lin.weight._t.add_(1.0)
    assert_same_outputs(main, opt, {"x": torch.randn(2, 4)}, [out])


def test_constant_folding_skips_random_and_persistable():
    buf = paddle.to_tensor([1.0, 2.0])
    buf.persistable = True
    with static_program() as main:
        x = paddle.static.data("x", [2], "float32")
        r = paddle.rand([2])
        out = x + paddle.exp(buf) + r
    opt = clone_program(main)
    assert run_passes(opt, ["constant_folding"], keep=[out.name]) == {}


def test_cse_merges_repeats_but_not_random_ops():
    with static_program() as main:
        x = paddle.static.data("x", [4, 4], "float32")
        a = paddle.exp(x)
        b = paddle.exp(x)                                     # repeat of a
        d1 = paddle.nn.functional.dropout(x, 0.5)
        d2 = paddle.nn.functional.dropout(x, 0.5)             # random: kept
        out = a + b
        rnd = d1 + d2
    opt = clone_program(main)
    stats = run_passes(opt, ["common_subexpression_elimination", "dead_code_elimination"],
                       keep=[out.name, rnd.name], debug=True)
    assert stats == {"cse": 1, "dead_code": 0} or stats == {"cse": 1}
    assert op_types(opt).count("exp") == 1 and op_types(opt).count("dropout") == 2
    assert_same_outputs(main, opt, {"x": torch.randn(4, 4)}, [out])


def test_cse_respects_redefinitions():
    with static_program() as main:
        x = paddle.static.data("x", [4], "float32")
        h = x * 1.0
        a = paddle.exp(h)
        with inplace_redefines():
            h.add_(x)                                             # h re-defined in place
        b = paddle.exp(h)                                     # not the same value as a
        out = a + b
    opt = clone_program(main)
    run_passes(opt, ["common_subexpression_elimination"], keep=[out.name], debug=True)
    assert op_types(opt).count("exp") == 2
    assert_same_outputs(main, opt, {"x": torch.randn(4)}, [out])


def test_cse_then_fetch_of_merged_value():
    with static_program() as main:
        x = paddle.static.data("x", [3], "float32")
        a = paddle.sin(x)
        b = paddle.sin(x)
    opt = clone_program(main)
    # Both are fetch targets: neither may disappear.
    assert run_passes(opt, ["common_subexpression_elimination"], keep=[a.name, b.name]) == {}
    feed = {"x": torch.randn(3)}
    ra, rb = run(opt, feed, [a, b])
    assert torch.equal(ra, rb)
