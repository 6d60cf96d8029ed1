"""Session-20 sweep of optimizers, LR schedulers, gradient clipping, regularizers and AMP
against real Paddle 3.3.1."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref

paddle = pytest.importorskip("paddle")


# ---- AMP while a static program is built ---------------------------------------------------
def _static_autocast(fw, level, dtype, ops):
    """Build ``ops(fw, x, y)`` under auto_cast in a static program and run it on the CPU:
    (the outputs' build-time dtypes, their fetched dtypes and float32 values)."""
    fw.enable_static()
    try:
        main, start = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, start):
            x = fw.static.data("x", [2, 3], "float32")
            y = fw.static.data("y", [3, 2], "float32")
            with fw.amp.auto_cast(level=level, dtype=dtype):
                outs = ops(fw, x, y)
            built = [str(o.dtype).replace("paddle.", "") for o in outs]
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        got = exe.run(main, feed={"x": np.arange(6, dtype="float32").reshape(2, 3) / 4,
                                  "y": np.ones([3, 2], "float32")}, fetch_list=outs)
        # (a bfloat16 result is fetched as its uint16 bit patterns, in both frameworks)
        return built, [str(np.asarray(v).dtype) for v in got], [np.asarray(v).astype("float32") for v in got]
    finally:
        fw.disable_static()


_STATIC_OPS = {
    "matmul": lambda fw, x, y: [fw.matmul(x, y)],
    "matmul_then_add": lambda fw, x, y: [fw.matmul(x, y) + 1, fw.exp(x)],
    "mixed": lambda fw, x, y: [fw.matmul(x, y), fw.nn.functional.relu(fw.matmul(x, y)), fw.tanh(fw.matmul(x, y)),
                               fw.sum(x), fw.nn.functional.softmax(x)],
}


@pytest.mark.parametrize("level", ["O1", "O2"])
@pytest.mark.parametrize("ops", sorted(_STATIC_OPS))
def test_static_bfloat16_autocast_records_its_casts(level, ops):
    """A static program built under auto_cast(dtype='bfloat16') casts its inputs with recorded
    cast ops: it runs and fetches bfloat16 results (the casts were once taken as constants
    without data and the run failed)."""
    fn = _STATIC_OPS[ops]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = _static_autocast(pagaie, level, "bfloat16", fn)
        theirs = _static_autocast(paddle_ref(), level, "bfloat16", fn)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(a, b, rtol=1e-2)


# ---- float64 optimizer state ---------------------------------------------------------------
def _float64_run(fw, name, steps=3, **kw):
    """Parameters and state (by accumulator suffix) after ``steps`` float64 steps."""
    rng = np.random.RandomState(0)
    with fw.utils.unique_name.guard():
        p = fw.create_parameter([3, 2], "float64", default_initializer=fw.nn.initializer.Assign(
            np.arange(6, dtype="float64").reshape(3, 2) / 10 + 0.05))
        opt = getattr(fw.optimizer, name)(0.1, parameters=[p], **kw)
        for _ in range(steps):
            (p * fw.to_tensor(rng.randn(3, 2))).sum().backward()
            opt.step()
            opt.clear_grad()
        state = {k.replace(p.name, "P"): v.numpy() for k, v in opt.state_dict().items()}
        return p.numpy(), state


@pytest.mark.parametrize("kw", [{}, {"weight_decay": 0.1}, {"beta1": 0.7}])
def test_adamax_float64_beta1_power_is_exact(kw):
    """Paddle multiplies Adamax's beta1 power by the beta as a double: a float64 parameter's
    power is 0.9 ** t exactly (not 0.9 rounded to float32), and so are its steps."""
    ours = _float64_run(pagaie, "Adamax", **kw)
    theirs = _float64_run(paddle_ref(), "Adamax", **kw)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-13, atol=0)
    assert sorted(ours[1]) == sorted(theirs[1])
    for k in theirs[1]:
        np.testing.assert_allclose(ours[1][k], theirs[1][k], rtol=1e-13, atol=0, err_msg=k)
