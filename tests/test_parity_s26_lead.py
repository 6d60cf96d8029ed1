"""Session 26 (lead): deprecation warnings Paddle 3.3.1 gives on each call, against real Paddle."""
from __future__ import annotations

import warnings

import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _deprecations(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [(w.category.__name__, str(w.message)) for w in caught if "deprecated" in str(w.message)]


def _range(P):
    return P.range(0, 3)


def _gradient(P):
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 2).sum().backward()
    return x.gradient()


@pytest.mark.parametrize("call", [_range, _gradient], ids=["range", "Tensor.gradient"])
def test_deprecated_apis_warn_as_paddle(call):
    ours, theirs = _deprecations(lambda: call(pagaie)), _deprecations(lambda: call(paddle))
    assert len(theirs) == 1
    assert ours == theirs


def test_static_nn_conv2d_warns_as_paddle():
    def build(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                x = P.static.data("x", [1, 3, 8, 8])
                try:
                    P.static.nn.conv2d(x, 4, 3)
                except AssertionError:   # Paddle's PIR mode refuses it after warning
                    pass
        finally:
            P.disable_static()
    ours, theirs = _deprecations(lambda: build(pagaie)), _deprecations(lambda: build(paddle))
    assert len(theirs) == 1
    assert ours == theirs
