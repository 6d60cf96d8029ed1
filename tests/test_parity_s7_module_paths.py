"""Paddle's implementation module paths (pagaie._module_paths) and
paddle.nn.functional.flash_attention, against real Paddle 3.3.1."""
import importlib
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pagaie
from pagaie import _module_paths
from tests.reference import paddle_ref, same_exception

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Names that pagaie's own (real) modules of these paths lack or bind to another object: fixes
# belong to those modules' owners; the list may only shrink.
KNOWN_GAPS = set("""
    base.disable_dygraph base.enable_dygraph base.in_dygraph_mode base.dygraph.disable_dygraph
    base.dygraph.enable_dygraph base.framework.in_dygraph_mode compat.nn.functional.softmax
    device.cpu.device_count device.cpu.get_rng_state device.cpu.manual_seed
    device.cpu.max_memory_allocated device.cpu.max_memory_reserved
    device.cpu.reset_max_memory_allocated device.cpu.reset_max_memory_reserved device.cpu.set_rng_state
""".split())
# pagaie binds a non-module object under this name in the parent package: it wins.
DECLINED = {"distributed.auto_parallel.local_map"}


def _resolve(path):
    obj = pagaie
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def test_real_modules_with_table_children_are_packages():
    """Python imports a child only under a package: every real pagaie module that has table
    submodules must be one."""
    import importlib.util
    for pkg in _module_paths._load_tables()[1]:
        spec = importlib.util.find_spec(f"pagaie.{pkg}")
        if spec is not None and spec.loader is not None and \
                type(spec.loader).__name__ != "_TableLoader":
            assert spec.submodule_search_locations is not None, pkg


def test_every_table_module_imports_and_resolves():
    modules, _ = _module_paths._load_tables()
    gaps = set()
    for sub, names in modules.items():
        if sub in DECLINED:
            with pytest.raises(ModuleNotFoundError):
                importlib.import_module(f"pagaie.{sub}")
            continue
        mod = importlib.import_module(f"pagaie.{sub}")
        made = isinstance(getattr(mod.__spec__, "loader", None), _module_paths._TableLoader)
        for name, path in names.items():
            if getattr(mod, name, None) is not _resolve(path):
                assert not made, f"pagaie.{sub}.{name} is not pagaie.{path}"
                gaps.add(f"{sub}.{name}")
    assert gaps <= KNOWN_GAPS, sorted(gaps - KNOWN_GAPS)


def test_table_entries_are_paddles_objects():
    paddle = paddle_ref()
    modules, _ = _module_paths._load_tables()
    for sub in ("nn.functional.activation", "nn.initializer.xavier", "framework.random", "framework.dtype",
                "jit.dy2static.program_translator", "optimizer.adamw", "io.dataloader.dataset"):
        mod = importlib.import_module(f"paddle.{sub}")
        for name, path in modules[sub].items():
            obj = paddle
            for part in path.split("."):
                obj = getattr(obj, part)
            assert getattr(mod, name) is obj, f"paddle.{sub}.{name}"


def test_made_module_semantics():
    import pagaie.nn.functional.activation as act
    assert act.relu is pagaie.nn.functional.relu
    assert act.log_sigmoid is pagaie.nn.functional.log_sigmoid
    assert "relu" in act.__all__ and "relu" in dir(act)
    assert not hasattr(act, "__path__")
    with pytest.raises(AttributeError, match="pagaie.nn.functional.activation.*no_such"):
        act.no_such
    with pytest.raises(ImportError):
        from pagaie.nn.functional.activation import no_such  # noqa: F401
    import pagaie.distributed.fleet.meta_parallel as mp
    assert mp.__path__ == []
    # a package's table submodules are reachable as attributes
    assert mp.sharding.__name__ == "pagaie.distributed.fleet.meta_parallel.sharding"


def test_real_modules_and_objects_win():
    import pagaie.nn.layer.layers as layers
    assert layers.__file__.endswith(os.path.join("nn", "layer", "layers.py"))
    local_map = pagaie.distributed.auto_parallel.local_map     # a function in pagaie
    assert callable(local_map)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pagaie.distributed.auto_parallel.local_map")
    assert pagaie.distributed.auto_parallel.local_map is local_map
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pagaie.nn.functional.no_such_module")


def test_real_modules_get_the_names_they_lack():
    """pagaie's own modules at Paddle's paths answer Paddle's names there."""
    from pagaie.framework import CPUPlace, no_grad, seed
    from pagaie.io.dataloader import TensorDataset, random_split
    from pagaie.nn.clip import GradientClipByGlobalNorm
    from pagaie.jit.api import save
    assert (seed, no_grad, CPUPlace) == (pagaie.seed, pagaie.no_grad, pagaie.CPUPlace)
    assert (TensorDataset, random_split) == (pagaie.io.TensorDataset, pagaie.io.random_split)
    assert GradientClipByGlobalNorm is pagaie.nn.ClipGradByGlobalNorm and save is pagaie.jit.save
    with pytest.raises(AttributeError, match="pagaie.framework"):
        pagaie.framework.no_such_name


REAL_WORLD = """
from paddle.nn.functional.activation import relu, softmax
import paddle.nn.functional.loss as L
from paddle.nn.initializer.xavier import XavierUniform
from paddle.framework.random import seed, get_rng_state
from paddle.nn.functional.flash_attention import flash_attention, flash_attn_unpadded
from paddle.jit.dy2static.program_translator import enable_to_static
from paddle.nn.layer.layers import Layer
from paddle.tensor.math import add
from paddle.nn.functional.common import dropout, linear
from paddle.nn.functional.conv import conv2d
from paddle.nn.functional.norm import layer_norm
from paddle.nn.functional.pooling import max_pool2d
from paddle.nn.initializer.kaiming import KaimingNormal
from paddle.nn.initializer.constant import Constant
from paddle.framework.dtype import float32
from paddle.autograd.py_layer import PyLayer
from paddle.io.dataloader.dataset import Dataset
from paddle.optimizer.adamw import AdamW
from paddle.nn.layer.transformer import TransformerEncoderLayer
from paddle.static.input import InputSpec
import paddle.distributed.auto_parallel.intermediate.tensor_parallel
"""


def test_real_world_import_lines_under_the_paddle_alias():
    code = "from pagaie import compat\ncompat.install()\nimport paddle\n" + REAL_WORLD + textwrap.dedent("""
        import pagaie
        assert paddle is pagaie
        assert relu is paddle.nn.functional.relu and L.cross_entropy is paddle.nn.functional.cross_entropy
        assert XavierUniform is paddle.nn.initializer.XavierUniform and seed is paddle.seed
        assert float32 is paddle.float32 and AdamW is paddle.optimizer.AdamW and Layer is paddle.nn.Layer
        assert paddle.nn.functional.activation.__name__ == "pagaie.nn.functional.activation"
        x = paddle.to_tensor([-1.0, 2.0])
        assert relu(x).tolist() == [0.0, 2.0]
        print("ok")
        """)
    assert len(REAL_WORLD.strip().splitlines()) >= 20
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-3000:]


# ---- paddle.nn.functional.flash_attention -------------------------------------------------

def _qkv(fw, shape=(2, 5, 2, 8), kshape=None, dtype="float32", seed=0):
    rng = np.random.default_rng(seed)
    kshape = kshape or shape
    mk = lambda s: fw.to_tensor(rng.standard_normal(s).astype(dtype), stop_gradient=False)  # noqa: E731
    return mk(shape), mk(kshape), mk(kshape)


@pytest.mark.parametrize("kw", [{}, {"causal": True}, {"return_softmax": True}, {"dropout": 0.3},
                                {"dropout": 0.3, "return_softmax": True}, {"dropout": 0.3, "training": False},
                                {"dropout": 0.5, "causal": True}, {"dropout": 1.0}])
def test_flash_attention_matches_paddle_cpu(kw):
    paddle = paddle_ref()
    import paddle.nn.functional.flash_attention as theirs
    import pagaie.nn.functional.flash_attention as ours
    res = []
    for fw, mod in ((pagaie, ours), (paddle, theirs)):
        q, k, v = _qkv(fw)
        fw.seed(7)
        out, sm = mod.flash_attention(q, k, v, **kw)
        (out * out).sum().backward()
        res.append((out, sm, q.grad, k.grad, v.grad))
    for a, b in zip(*res):
        assert (a is None) == (b is None)
        if a is not None:
            assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_flash_attention_dtypes(dtype):
    paddle = paddle_ref()
    import paddle.nn.functional.flash_attention as theirs
    import pagaie.nn.functional.flash_attention as ours
    rng = np.random.default_rng(1)
    a = rng.integers(0, 5, (2, 3, 2, 4)).astype(dtype)
    o1, _ = ours.flash_attention(*[pagaie.to_tensor(a)] * 3)
    o2, _ = theirs.flash_attention(*[paddle.to_tensor(a)] * 3)
    assert str(o1.dtype) == str(o2.dtype)
    np.testing.assert_allclose(o1.numpy(), o2.numpy(), rtol=1e-5, atol=1e-5)


def test_flash_attention_bad_input_errors():
    def call(**over):
        def f(fw):
            mod = importlib.import_module(f"{fw.__name__}.nn.functional.flash_attention")
            q, k, v = _qkv(fw, kshape=over.get("kshape"))
            if "kdtype" in over:
                k = k.astype(over["kdtype"])
            return mod.flash_attention(q, k, v)
        return f
    same_exception(call(kshape=(2, 5, 2, 4)))       # head_dim of key differs
    same_exception(call(kdtype="float64"))          # mixed dtypes


def test_flash_attention_module_contents():
    import pagaie.nn.functional.flash_attention as fa
    F = pagaie.nn.functional
    for name in ("flash_attn_qkvpacked", "flash_attn_varlen_qkvpacked", "flashmask_attention",
                 "flash_attention_v3_varlen", "sdp_kernel"):
        assert getattr(fa, name) is getattr(F, name)
    assert F.flash_attention is fa     # the submodule, as in Paddle
    with pytest.raises(ValueError):
        with fa.sdp_kernel(False, False, False):
            pass
    with fa.sdp_kernel(enable_math=True):
        assert fa.flash_attention(*_qkv(pagaie))[0].shape == [2, 5, 2, 8]


def test_get_triangle_upper_mask_matches_paddle():
    paddle = paddle_ref()
    import paddle.nn.functional.flash_attention as theirs
    import pagaie.nn.functional.flash_attention as ours
    x = np.random.default_rng(2).standard_normal((2, 3, 4)).astype("float32")
    a, b = ours.get_triangle_upper_mask(pagaie.to_tensor(x)), theirs.get_triangle_upper_mask(paddle.to_tensor(x))
    assert a.stop_gradient and b.stop_gradient and str(a.dtype) == str(b.dtype)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_flash_attn_unpadded_is_per_sequence_attention():
    # Paddle has no CPU kernel for it: compare with Paddle's CPU flash_attention per sequence
    paddle = paddle_ref()
    import paddle.nn.functional.flash_attention as theirs
    import pagaie.nn.functional.flash_attention as ours
    x = np.random.default_rng(3).standard_normal((9, 2, 8)).astype("float32")
    cu = [0, 4, 9]
    for causal in (False, True):
        t = pagaie.to_tensor(x)
        out, sm = ours.flash_attn_unpadded(t, t, t, pagaie.to_tensor(cu, dtype="int32"),
                                           pagaie.to_tensor(cu, dtype="int32"), 5, 5, 8 ** -0.5, causal=causal)
        assert sm is None
        for s, e in zip(cu[:-1], cu[1:]):
            seq = paddle.to_tensor(x[None, s:e])
            ref, _ = theirs.flash_attention(seq, seq, seq, causal=causal)
            np.testing.assert_allclose(out.numpy()[s:e], ref.numpy()[0], rtol=1e-5, atol=1e-5)
    with pytest.raises(NotImplementedError):
        ours.flash_attn_unpadded(t, t, t, pagaie.to_tensor(cu), pagaie.to_tensor(cu), 5, 5, 0.3,
                                 return_softmax=True)


def test_flash_attn_varlen_func_and_reduced_scores():
    import pagaie.nn.functional.flash_attention as fa
    q = pagaie.to_tensor(np.random.default_rng(4).standard_normal((7, 2, 8)).astype("float32"))
    cu = pagaie.to_tensor([0, 3, 7], dtype="int32")
    a, b = fa.flash_attn_varlen_func(q, q, q, cu, cu, 4, 4, causal=True), \
        fa.flash_attention_v3_varlen(q, q, q, cu, cu, 4, 4, causal=True)
    np.testing.assert_array_equal(a[0].numpy(), b[0].numpy())
    np.testing.assert_array_equal(a[1].numpy(), b[1].numpy())
    q4, k4, _ = _qkv(pagaie, (1, 4, 2, 8), (1, 6, 2, 8))
    q4, k4 = q4.detach(), k4.detach()
    _, lse = fa.flashmask_attention(q4, k4, k4, return_softmax_lse=True)
    s = fa.calc_reduced_attention_scores(q4, k4, lse)
    w = pagaie.nn.functional.softmax(pagaie.matmul(q4.transpose([0, 2, 1, 3]), k4.transpose([0, 2, 3, 1]))
                                     * 8 ** -0.5, -1)
    assert s.shape == [1, 2, 1, 6] and str(s.dtype) == "paddle.float32"
    np.testing.assert_allclose(s.numpy(), w.sum(2, keepdim=True).numpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(AssertionError):
        fa.calc_reduced_attention_scores(_qkv(pagaie)[0], k4, lse)
