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
