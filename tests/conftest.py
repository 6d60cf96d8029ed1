"""Shared test set-up: quiet real Paddle, seed everything, and mark slow/GPU tests."""
import os
import warnings

import numpy as np
import pytest
import torch

from tests.reference import forget_failed_paddle_conversions

if os.environ.get("PYTEST_XDIST_WORKER"):
    # one compute thread per worker process (torch now, real Paddle when a test imports it):
    # the workers already share the cores
    torch.set_num_threads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("FLAGS_call_stack_level", "0")
warnings.filterwarnings("ignore", module="paddle")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running benchmark-like test (skipped in CI)")
    config.addinivalue_line("markers", "gpu: needs a CUDA device")


def pytest_collection_modifyitems(config, items):
    skip_gpu = pytest.mark.skip(reason="no CUDA device")
    skip_slow = pytest.mark.skip(reason="slow test; run with PAGAIE_SLOW=1")
    for item in items:
        if "gpu" in item.keywords and not torch.cuda.is_available():
            item.add_marker(skip_gpu)
        if "slow" in item.keywords and not os.environ.get("PAGAIE_SLOW"):
            item.add_marker(skip_slow)


@pytest.fixture(autouse=True)
def _seed():
    np.random.seed(0)
    torch.manual_seed(0)
    forget_failed_paddle_conversions()
    yield


@pytest.fixture()
def ref_flops(monkeypatch):
    """Real Paddle's flops ends with ``int(Tensor of shape [1])``, which the installed numpy
    refuses; give its Tensor a one-element ``__int__`` for the test."""
    from tests.reference import paddle_ref
    ref = paddle_ref()
    try:
        int(ref.ones([1], dtype="int64"))
    except TypeError:
        orig = ref.Tensor.__int__

        def one_element_int(self):
            a = self.numpy()
            return int(a.reshape(-1)[0]) if a.size == 1 else orig(self)
        monkeypatch.setattr(ref.Tensor, "__int__", one_element_int)
    return ref



@pytest.fixture(scope="module")
def cpu_devices():
    """Both frameworks on the CPU for a whole module (``pytestmark = usefixtures(...)``)."""
    import pagaie
    from tests.reference import paddle_ref
    paddle_ref().set_device("cpu")
    pagaie.set_device("cpu")
