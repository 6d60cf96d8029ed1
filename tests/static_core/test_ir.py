"""The static IR, the recorder and the interpreter (independent of the paddle.static API)."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import pagaie as paddle
from pagaie._static.interpreter import Plan
from pagaie._static.ir import Program
from pagaie._static.recorder import recording


def _build():
    prog = Program()
    block = prog.global_block()
    x = block.create_var("x", [-1, 4], "float32")
    x.is_data = True
    w = paddle.create_parameter([4, 3], "float32")
    with recording(prog):
        h = paddle.matmul(x, w)
        y = paddle.nn.functional.relu(h + 1.0)
        z = y.reshape([-1, 3, 1]).sum(axis=1)
        m = paddle.masked_select(z, z > 0.5)
    return prog, x, w, h, y, z, m


def test_shapes_dtypes_and_capture():
    prog, x, w, h, y, z, m = _build()
    assert h.shape == [-1, 3] and y.dtype == paddle.float32
    assert z.shape == [-1, 1]
    assert m.shape == [-1]                       # data-dependent: unknown
    params = prog.all_parameters()
    assert [p.source for p in params] == [w]
    assert not y.stop_gradient                   # depends on a trainable parameter
    text = str(prog)
    assert "matmul" in text and "relu" in text and "persist" in text


def test_interpreter_matches_eager_and_frees_values():
    prog, x, w, h, y, z, m = _build()
    data = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")
    plan = Plan(prog, ["x"], [z, m])
    got_z, got_m = plan.run({"x": torch.from_numpy(data)})
    xe = paddle.to_tensor(data)
    ze = paddle.nn.functional.relu(paddle.matmul(xe, w) + 1.0).reshape([-1, 3, 1]).sum(axis=1)
    np.testing.assert_allclose(got_z.detach().numpy(), ze.numpy(), rtol=1e-6)
    np.testing.assert_allclose(got_m.detach().numpy(), ze.numpy()[ze.numpy() > 0.5], rtol=1e-6)
    freed = {s for step in plan.steps for s in step[6]}
    assert freed, "intermediate values should be freed after their last use"


def test_plan_prunes_unused_ops_and_requires_feeds():
    prog, x, w, h, y, z, m = _build()
    plan = Plan(prog, ["x"], [h])
    assert [s[0].type for s in plan.steps] == ["matmul"]
    with pytest.raises(ValueError, match="feed"):
        Plan(prog, [], [h])


def test_json_round_trip_is_lossless():
    prog, *_ = _build()
    text = prog.to_json()
    again = Program.from_json(text)
    assert str(again) == str(prog)
    assert again.to_json() == text


@pytest.mark.parametrize("mutate, match", [
    (lambda d: d.update(version=99), "newer"),
    (lambda d: d.update(format="other"), "not a pagaie program"),
    (lambda d: d["blocks"][0]["ops"][0].update(type="no_such_op"), "unknown op"),
    (lambda d: d["blocks"][0].pop("ops"), "corrupt"),
])
def test_bad_program_files_raise_clearly(mutate, match):
    prog, *_ = _build()
    data = json.loads(prog.to_json())
    mutate(data)
    with pytest.raises(ValueError, match=match):
        Program.from_json(json.dumps(data))
    with pytest.raises(ValueError, match="JSON"):
        Program.from_json(prog.to_json()[:-10])


def test_symbolic_values_refuse_data_access():
    prog, x, *_ = _build()
    with pytest.raises(AssertionError, match="symbolic"):  # Paddle's type in static mode
        x.numpy()
    with pytest.raises(TypeError, match="truth value"):
        bool(x)


def test_inplace_call_records_the_out_of_place_op():
    # As Paddle's programs: ``y.add_(...)`` records ``add`` and y keeps its value
    prog = Program()
    x = prog.global_block().create_var("x", [3], "float32")
    x.is_data = True
    with recording(prog):
        y = x * 2
        r = y.add_(paddle.ones([3]))
        z = y * 3
    assert r is not y
    plan = Plan(prog, ["x"], [z, r])
    out, res = plan.run({"x": torch.ones(3)})
    assert out.tolist() == [6.0, 6.0, 6.0] and res.tolist() == [3.0, 3.0, 3.0]


def test_inplace_call_redefines_its_input_inside_inplace_redefines():
    from pagaie._core.registry import inplace_redefines
    prog = Program()
    x = prog.global_block().create_var("x", [3], "float32")
    x.is_data = True
    with recording(prog):
        y = x * 2
        with inplace_redefines():
            y.add_(paddle.ones([3]))
        z = y * 3
    plan = Plan(prog, ["x"], [z])
    (out,) = plan.run({"x": torch.ones(3)})
    assert out.tolist() == [9.0, 9.0, 9.0]


def test_real_sizes_near_a_fraction_of_the_placeholder_stay_known():
    # 1248 * 8 is within a few of the unknown-size placeholder (9973): sizes were once
    # guessed from the placeholder and DenseNet-161's 1248 channels became -1
    import pagaie as paddle
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            a = paddle.static.data("a", [None, 1200, 2, 2], "float32")
            b = paddle.static.data("b", [None, 48, 2, 2], "float32")
            known = paddle.static.data("k", [4, 1248], "float32")
            cat = paddle.concat([a, b], axis=1)
            img = paddle.static.data("img", [None, 3, None, None], "float32")
            conv = paddle.nn.Conv2D(3, 8, 3, stride=2, padding=1)(img)
            half = paddle.nn.functional.max_pool2d(conv, 2)
            flat = paddle.reshape(cat, [-1, 1248 * 4])
    finally:
        paddle.disable_static()
    assert list(cat.shape) == [-1, 1248, 2, 2]
    assert list(known.shape) == [4, 1248]
    assert list(conv.shape) == [-1, 8, -1, -1] and list(half.shape) == [-1, 8, -1, -1]
    assert list(flat.shape) == [-1, 4992]


def test_ops_that_need_a_divisible_size_record_on_unknown_sizes():
    # the prime placeholder of an unknown size cannot be split in two: such ops are
    # recorded from runs on divisible placeholders
    import numpy as np
    import pagaie as paddle
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [None, 4], "float32")
            a, b = paddle.split(x, 2, axis=0)
            parts = paddle.chunk(x, 3, axis=0)
            r = paddle.reshape(x, [2, -1, 4])
    finally:
        paddle.disable_static()
    assert [list(a.shape), list(b.shape), list(parts[2].shape)] == [[-1, 4]] * 3
    assert list(r.shape) == [2, -1, 4]
    got = paddle.static.Executor().run(main, feed={"x": np.arange(24, dtype="float32").reshape(6, 4)},
                                       fetch_list=[a, b, parts[2], r])
    assert [g.shape for g in got] == [(3, 4), (3, 4), (2, 4), (2, 3, 4)]
    np.testing.assert_array_equal(got[1], np.arange(12, 24, dtype="float32").reshape(3, 4))
