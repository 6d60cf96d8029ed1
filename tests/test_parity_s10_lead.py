"""Session-10 follow-ups in shared files, against real Paddle 3.3.1 where Paddle is the point."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tests.reference import both, same_exception


def _clip_norm(P, max_norm):
    P.seed(1)
    lin = P.nn.Linear(3, 2)
    lin(P.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))).sum().backward()
    total = P.nn.utils.clip_grad_norm_(lin.parameters(), max_norm(P))
    return [total, lin.weight.grad]


def test_clip_grad_norm_takes_a_one_element_tensor_as_max_norm():
    ours, theirs = both(lambda P: _clip_norm(P, lambda P: P.to_tensor(1.0)))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_clip_grad_norm_refuses_a_string_max_norm():
    same_exception(lambda P: _clip_norm(P, lambda P: "a"))


def test_building_a_program_does_not_import_the_compiler():
    # Shapes come from torch's Python meta kernels; their dynamo-disabled wrappers must not pull in
    # torch._dynamo (70 MB, over a second) in a process that never compiles.
    code = (
        "import sys\n"
        "import pagaie as paddle\n"
        "paddle.enable_static()\n"
        "main = paddle.static.Program()\n"
        "with paddle.static.program_guard(main):\n"
        "    x = paddle.static.data('x', [4, 8], 'float32')\n"
        "    y = paddle.nn.functional.relu(paddle.nn.Linear(8, 3)(x) * 2 + 1).mean()\n"
        "    paddle.optimizer.SGD(0.1).minimize(y)\n"
        "exe = paddle.static.Executor()\n"
        "import numpy as np\n"
        "out = exe.run(main, feed={'x': np.ones([4, 8], 'float32')}, fetch_list=[y])\n"
        "assert np.isfinite(out[0]).all()\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "False"


def test_meta_kernels_still_compile_after_dynamo_is_imported():
    torch = pytest.importorskip("torch")
    from pagaie._static.meta_kernels import defer_dynamo_import
    defer_dynamo_import()
    import torch._dynamo  # noqa: F401 - the stand-ins now hand over to the real disabled forms

    def f(a, b):
        return torch.nn.functional.linear(a, b) * 2 + 1

    a, b = torch.randn(3, 4), torch.randn(5, 4)
    compiled = torch.compile(f, backend="eager")
    torch.testing.assert_close(compiled(a, b), f(a, b))
    meta = torch.nn.functional.linear(a.to("meta"), b.to("meta"))
    assert meta.shape == (3, 5)


def test_layer_norm_takes_eps_as_an_alias_of_epsilon():
    x = np.random.default_rng(0).standard_normal((2, 4)).astype("float32")
    ours, theirs = both(lambda P: P.nn.functional.layer_norm(input=P.to_tensor(x), normalized_shape=4, eps=1e-4))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
