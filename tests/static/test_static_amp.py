"""paddle.static.amp: static mixed-precision training (vs real Paddle on the CPU)."""
import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception

RNG = np.random.default_rng(0)
W1 = RNG.standard_normal((8, 16)).astype("float32") * 0.3
W2 = RNG.standard_normal((16, 1)).astype("float32") * 0.3
X = RNG.standard_normal((4, 8)).astype("float32")
Y = RNG.standard_normal((4, 1)).astype("float32")


def _train(p, dtype, level, steps=20, decorate=True, **kw):
    """Losses of ``steps`` SGD steps of a 2-layer MLP built as a static program."""
    p.enable_static()
    try:
        main, startup = p.static.Program(), p.static.Program()
        with p.static.program_guard(main, startup):
            x = p.static.data("x", [4, 8], "float32")
            y = p.static.data("y", [4, 1], "float32")
            init = p.nn.initializer.Assign
            l1 = p.nn.Linear(8, 16, weight_attr=p.ParamAttr(initializer=init(W1)))
            l2 = p.nn.Linear(16, 1, weight_attr=p.ParamAttr(initializer=init(W2)))
            out = l2(p.nn.functional.relu(l1(x)))
            loss = p.mean((out.astype("float32") - y) ** 2)
            opt = p.optimizer.SGD(0.05)
            if decorate:
                opt = p.static.amp.decorate(opt, level=level, dtype=dtype, **kw)
            opt.minimize(loss)
        exe = p.static.Executor(p.CPUPlace())
        exe.run(startup)
        losses = [float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0]) for _ in range(steps)]
        return losses, main, opt
    finally:
        p.disable_static()


@pytest.mark.parametrize("level", ["O1", "O2"])
def test_bf16_training_matches_paddle(level):
    paddle = paddle_ref()
    # (Paddle 3.3.1 fails to build a bfloat16 program with the default loss-scaling
    # arguments on the CPU; these make it turn loss scaling off, as pagaie does)
    kw = {"init_loss_scaling": 1024.0, "use_dynamic_loss_scaling": True}
    ours, main, _ = _train(pagaie, "bfloat16", level, **kw)
    theirs, _, _ = _train(paddle, "bfloat16", level, **kw)
    # bfloat16 keeps 8 bits of mantissa: AMP tolerance
    np.testing.assert_allclose(ours, theirs, rtol=3e-2, atol=1e-3)
    assert ours[-1] < ours[0] * 0.1
    types = [op.type for op in main.global_block().ops]
    assert "cast" in types and "pagaie.static_amp_step" in types


@pytest.mark.parametrize("level", ["O1", "O2"])
def test_fp16_training_matches_float32(level):
    # Paddle cannot run float16 static AMP on the CPU; compare with its float32 training.
    paddle = paddle_ref()
    ours, main, opt = _train(pagaie, "float16", level, init_loss_scaling=1024.0)
    theirs, _, _ = _train(paddle, "float16", level, decorate=False)
    np.testing.assert_allclose(ours, theirs, rtol=2e-2, atol=1e-3)
    assert opt.get_loss_scaling().tolist() == [1024.0]
    matmuls = [op for op in main.global_block().ops if op.type == "linear"]
    assert all(op.outputs.dtype == pagaie.float16 for op in matmuls)


def test_dynamic_loss_scaling_skips_overflowing_steps():
    losses, _, opt = _train(pagaie, "float16", "O1", steps=3, init_loss_scaling=2.0 ** 120,
                            decr_every_n_nan_or_inf=1, decr_ratio=2.0 ** -110)
    # step 1 overflows (scale 2**120), the update is skipped and the scale shrinks
    assert losses[0] == losses[1]
    assert opt.get_loss_scaling().tolist() == [1024.0]
    assert losses[2] < losses[1]


def test_custom_lists_and_errors():
    lists = pagaie.static.amp.AutoMixedPrecisionLists(custom_white_list={"exp"},
                                                      custom_black_list={"matmul"})
    assert "exp" in lists.white_list and "matmul" in lists.black_list and "matmul" not in lists.white_list
    same_exception(lambda p: p.static.amp.AutoMixedPrecisionLists(custom_white_list={"exp"},
                                                                   custom_black_list={"exp"}))
    same_exception(lambda p: p.static.amp.AutoMixedPrecisionLists(dtype="float32"))
    same_exception(lambda p: p.static.amp.decorate(p.optimizer.SGD(0.1), level="O3"))
    assert pagaie.static.amp.CustomOpLists is pagaie.static.amp.AutoMixedPrecisionLists


def test_black_list_keeps_float32():
    lists = pagaie.static.amp.AutoMixedPrecisionLists(custom_black_list={"linear"}, dtype="bfloat16")
    pagaie.enable_static()
    try:
        prog = pagaie.static.Program()
        with pagaie.static.program_guard(prog):
            x = pagaie.static.data("x", [2, 3], "float32")
            y = pagaie.nn.Linear(3, 2)(x)
            z = pagaie.matmul(y, y, transpose_y=True)
        pagaie.static.amp.fp16_utils.rewrite_program(prog, lists, dtype="bfloat16")
        assert y.dtype == pagaie.float32 and z.dtype == pagaie.bfloat16
    finally:
        pagaie.disable_static()


def test_guard_limits_the_rewrite():
    pagaie.enable_static()
    try:
        prog = pagaie.static.Program()
        with pagaie.static.program_guard(prog):
            x = pagaie.static.data("x", [2, 3], "float32")
            a = pagaie.nn.functional.relu(x)
            with pagaie.static.amp.fp16_guard():
                b = pagaie.nn.functional.relu(x)
        pagaie.static.amp.cast_model_to_fp16(prog)
        assert a.dtype == pagaie.float32 and b.dtype == pagaie.float16
    finally:
        pagaie.disable_static()


def test_bf16_namespace():
    paddle = paddle_ref()
    vals = [1.0, -2.5, 3.1415926, 1e-3]
    np.testing.assert_array_equal(pagaie.static.amp.bf16.convert_float_to_uint16(np.array(vals, "float32")),
                                  paddle.static.amp.bf16.convert_float_to_uint16(np.array(vals, "float32")))
    lists = pagaie.static.amp.bf16.AutoMixedPrecisionListsBF16(custom_fp32_list={"matmul"})
    assert "matmul" in lists.fp32_list and lists.amp_dtype == "bfloat16"
    opt = pagaie.static.amp.bf16.decorate_bf16(pagaie.optimizer.SGD(0.1, parameters=pagaie.nn.Linear(2, 2).parameters()), use_pure_bf16=True)
    assert (opt._amp_level, opt._amp_dtype, opt._use_amp_guard) == ("O2", "bfloat16", True)
    for name in ("bf16_guard", "cast_model_to_bf16", "cast_parameters_to_bf16", "rewrite_program_bf16"):
        assert hasattr(pagaie.static.amp.bf16, name) and hasattr(paddle.static.amp.bf16, name)
    for name in ("decorate", "AutoMixedPrecisionLists", "CustomOpLists", "fp16_guard",
                 "cast_model_to_fp16", "cast_parameters_to_fp16", "debugging", "fp16_lists", "fp16_utils"):
        assert hasattr(pagaie.static.amp, name) and hasattr(paddle.static.amp, name)
    assert hasattr(pagaie.static.amp.debugging, "collect_operator_stats")
