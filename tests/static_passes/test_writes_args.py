"""Ops whose records list ``writes_args`` count as mutating for the passes."""
import numpy as np

import pagaie as paddle
from pagaie._ops.quant_ops import fake_quantize_dequantize_moving_average_abs_max as fake_quant
from pagaie._static.passes import apply_build_strategy
from pagaie._static.passes.engine import mutates


def test_a_fake_quantizer_updating_its_scale_is_kept_and_marked_mutating():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [4], "float32")
            scale = paddle.static.create_parameter([1], "float32")
            accum = paddle.static.create_parameter([1], "float32")
            state = paddle.static.create_parameter([1], "float32")
            fake_quant(x, scale, accum, state)     # result unused: only the updates matter
            y = x * 2.0
    finally:
        paddle.disable_static()
    kinds = {op.type: mutates(op) for op in main.global_block().ops}
    assert kinds["fake_quantize_dequantize_moving_average_abs_max"] is True
    assert kinds["multiply"] is False or kinds.get("scale") is False
    opt = apply_build_strategy(main, keep=[y.name])
    assert "fake_quantize_dequantize_moving_average_abs_max" in [op.type for op in opt.global_block().ops]
    before = scale.source.numpy().copy() if getattr(scale, "source", None) is not None else None
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(paddle.static.default_startup_program())
    (out,) = exe.run(main, feed={"x": np.array([1.0, -3.0, 2.0, 0.5], "float32")}, fetch_list=[y])
    np.testing.assert_allclose(out, [2.0, -6.0, 4.0, 1.0])
    if before is not None:
        assert not np.array_equal(scale.source.numpy(), before)  # the moving scale was updated
