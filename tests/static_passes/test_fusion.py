"""Fusion passes: conv + batch norm folding, conv/bn/add/act, linear/act, elementwise chains."""
from __future__ import annotations

import numpy as np
import torch

import pagaie as paddle
from pagaie._core.registry import inplace_redefines
from pagaie._static.ir import Program
from pagaie._static.passes import clone_program, optimize_for_inference, run_passes
from tests.static_passes.helpers import assert_same_outputs, op_types, run, static_program


def _randomise_bn(bn):
    with torch.no_grad():
        bn._mean._t.copy_(torch.randn(bn._mean.shape[0]) * 0.1)
        bn._variance._t.copy_(torch.rand(bn._variance.shape[0]) + 0.5)
        bn.weight._t.copy_(torch.rand(bn.weight.shape[0]) + 0.5)
        bn.bias._t.copy_(torch.randn(bn.bias.shape[0]))


def _conv_bn_net(training: bool):
    with static_program() as main:
        x = paddle.static.data("x", [None, 3, 8, 8], "float32")
        conv1 = paddle.nn.Conv2D(3, 4, 3, padding=1)
        bn1 = paddle.nn.BatchNorm2D(4)
        conv2 = paddle.nn.Conv2D(4, 4, 3, padding=1, bias_attr=False)
        bn2 = paddle.nn.BatchNorm2D(4)
        for layer in (bn1, bn2):
            _randomise_bn(layer)
            layer.train() if training else layer.eval()
        h = paddle.nn.functional.relu(bn1(conv1(x)))
        out = paddle.nn.functional.relu(bn2(conv2(h)) + h)     # a residual block
    return main, out, (bn1, bn2)


def test_fold_conv_bn_for_inference():
    main, out, _ = _conv_bn_net(training=False)
    opt = clone_program(main)
    stats = run_passes(opt, ["fold_conv_bn"], keep=[out.name], debug=True)
    assert stats == {"fold_conv_bn": 2}
    assert "batch_norm" not in op_types(opt) and op_types(opt).count("conv2d") == 2
    assert_same_outputs(main, opt, {"x": torch.randn(2, 3, 8, 8)}, [out], rtol=1e-4, atol=1e-5)


def test_fold_conv_bn_not_in_training_programs():
    main, out, _ = _conv_bn_net(training=False)
    with paddle.static.program_guard(main):
        paddle.enable_static()
        try:
            paddle.optimizer.SGD(0.1).minimize(out.mean())
        finally:
            paddle.disable_static()
    assert run_passes(clone_program(main), ["fold_conv_bn"], keep=[]) == {}
    main2, out2, _ = _conv_bn_net(training=True)                # batch statistics
    assert run_passes(clone_program(main2), ["fold_conv_bn"], keep=[out2.name]) == {}


def test_inference_pipeline_on_residual_block():
    main, out, _ = _conv_bn_net(training=False)
    opt = optimize_for_inference(main, keep=[out.name], debug=True)
    assert op_types(opt) == ["fused_conv2d_bn_act", "fused_conv2d_bn_act"]
    assert_same_outputs(main, opt, {"x": torch.randn(2, 3, 8, 8)}, [out], rtol=1e-4, atol=1e-5)


def test_fuse_conv_bn_add_act_in_training_mode_updates_statistics():
    main, out, (bn1, bn2) = _conv_bn_net(training=True)
    opt = clone_program(main)
    stats = run_passes(opt, ["fuse_conv_bn_add_act"], keep=[out.name], debug=True)
    assert op_types(opt) == ["fused_conv2d_bn_act", "fused_conv2d_bn_act"], stats
    feed = {"x": torch.randn(4, 3, 8, 8)}
    saved = [t._t.clone() for t in (bn1._mean, bn1._variance, bn2._mean, bn2._variance)]
    ref = run(main, feed, [out])[0]
    after_ref = [t._t.clone() for t in (bn1._mean, bn1._variance, bn2._mean, bn2._variance)]
    for t, s in zip((bn1._mean, bn1._variance, bn2._mean, bn2._variance), saved):
        t._t.copy_(s)
    got = run(opt, feed, [out.name])[0]
    torch.testing.assert_close(got, ref)
    for t, r in zip((bn1._mean, bn1._variance, bn2._mean, bn2._variance), after_ref):
        torch.testing.assert_close(t._t, r)


def test_fuse_linear_act_and_gemm_epilogue():
    with static_program() as main:
        x = paddle.static.data("x", [5, 6], "float32")
        lin = paddle.nn.Linear(6, 7)
        h = paddle.nn.functional.gelu(lin(x))                      # linear + act
        w = paddle.create_parameter([7, 3], "float32")
        b = paddle.create_parameter([3], "float32", is_bias=True)
        out = paddle.nn.functional.relu(paddle.matmul(h, w) + b)   # matmul + bias + act
        t = paddle.matmul(h, w, transpose_y=False) + paddle.ones([5, 3])  # not a bias: kept
    opt = clone_program(main)
    stats = run_passes(opt, ["fuse_linear_act"], keep=[out.name, t.name], debug=True)
    assert op_types(opt).count("fused_linear_act") == 2, (stats, op_types(opt))
    fused = [op for op in opt.global_block().ops if op.type == "fused_linear_act"]
    assert {op.kwargs["act"] for op in fused} == {"gelu", "relu"}
    assert_same_outputs(main, opt, {"x": torch.randn(5, 6)}, [out, t])


def test_fuse_elementwise_chain_and_json_round_trip():
    with static_program() as main:
        x = paddle.static.data("x", [4, 8], "float32")
        y = paddle.static.data("y", [4, 8], "float32")
        s = paddle.static.data("s", [8], "float32")
        a = paddle.exp(x) * y + s                     # s broadcasts
        out = paddle.nn.functional.silu(paddle.nn.functional.sigmoid(a) - 0.5).astype("float64")
    opt = clone_program(main)
    stats = run_passes(opt, ["fuse_elementwise"], keep=[out.name], debug=True)
    assert op_types(opt) == ["fused_elementwise"], stats
    op = opt.global_block().ops[0]
    assert len(op.args[1]) == 7 and [v.name for v in op.args[0]] == ["x", "y", "s"]
    feed = {"x": torch.randn(4, 8), "y": torch.randn(4, 8), "s": torch.randn(8)}
    assert_same_outputs(main, opt, feed, [out])
    back = Program.from_json(opt.to_json())
    assert op_types(back) == ["fused_elementwise"]
    assert_same_outputs(main, back, feed, [out])


def test_fused_value_that_is_fetched_is_not_fused_away():
    with static_program() as main:
        x = paddle.static.data("x", [4], "float32")
        a = paddle.exp(x)
        out = paddle.tanh(a * 2.0)
    opt = clone_program(main)
    run_passes(opt, ["fuse_elementwise"], keep=[out.name, a.name], debug=True)
    assert op_types(opt) == ["exp", "fused_elementwise"]
    ra, ro = run(opt, {"x": torch.ones(4)}, [a, out])
    np.testing.assert_allclose(ro.numpy(), np.tanh(2 * np.e) * np.ones(4), rtol=1e-6)


def test_no_fusion_across_in_place_redefinition():
    with static_program() as main:
        x = paddle.static.data("x", [4], "float32")
        h = x * 1.0
        a = paddle.exp(h)
        with inplace_redefines():
            h.add_(x)                         # barrier: h changes between exp and tanh
        out = paddle.tanh(a) + h
    opt = clone_program(main)
    run_passes(opt, ["fuse_elementwise"], keep=[out.name], debug=True)
    assert_same_outputs(main, opt, {"x": torch.randn(4)}, [out])
    ops = opt.global_block().ops
    redefine = next(i for i, op in enumerate(ops) if op.outputs is op.args[0])
    assert all(op.type != "fused_elementwise" or
               not any(v.name == "x" for v in op.input_values()) or i > redefine
               for i, op in enumerate(ops))
