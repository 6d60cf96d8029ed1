"""paddle.device's 3.x selection helpers and the paddle.device.cpu module, against real Paddle."""
import numpy as np
import pytest
import torch

from tests.reference import both, same_exception

cpu_only = pytest.mark.skipif(torch.cuda.is_available(), reason="expectations of a CPU-only machine")


@cpu_only
def test_default_and_current_device():
    ours, theirs = both(lambda p: (str(p.device.get_default_device()), p.device.current_device(),
                                   repr(p.device.device_to_place("cpu")),
                                   repr(p.device.device_to_place(None)),
                                   p.device.set_default_device("cpu"), p.device.get_device(),
                                   p.device.cpu.device_count()))
    assert ours == theirs


@cpu_only
@pytest.mark.parametrize("call", [
    lambda p: p.device.device_to_place(3),
    lambda p: p.device.device_to_place("gpu:0"),
    lambda p: p.device.set_default_device("gpu"),
    lambda p: p.device.cpu.max_memory_allocated(),
    lambda p: p.device.cpu.max_memory_reserved(),
])
def test_errors(call):
    same_exception(call)


def test_module_and_seeds():
    ours, theirs = both(lambda p: p.device.get_device_module("cpu").__name__.split(".")[-1])
    assert ours == theirs == "cpu"

    def draws(p):
        p.device.manual_seed_all(11)
        a = p.rand([3]).numpy()
        p.device.cpu.manual_seed(11)
        return a, p.rand([3]).numpy()

    for a, b in both(draws):
        np.testing.assert_array_equal(a, b)


def test_device_context_restores():
    import pagaie as paddle
    before = paddle.device.get_device()
    with paddle.device.device("cpu"):
        assert paddle.device.get_device() == "cpu"
    assert paddle.device.get_device() == before
    assert paddle.device.stream is paddle.device.stream_guard
