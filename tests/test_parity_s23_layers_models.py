"""Session-23 sweep of the ``paddle.nn.Layer`` machinery, ``paddle.nn.initializer``/``ParamAttr``
and ``paddle.vision.models`` against real Paddle 3.3.1, for what the earlier sweeps
(test_parity_s11_layerapi, test_parity_s20_layer, tests/vision) left out: the batch norms'
``_data_format`` rewritten by a forward pass (and so their repr), Upsample's layout fixed by
its first input, parameters made under LazyGuard (uninitialised, drawn by initialize()),
``paddle.summary`` in static mode.

Cases return plain Python values (names, dtypes, flags) that must be equal in both frameworks;
bad inputs must raise the same exception type.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

from tests.reference import both, same_exception

pytest.importorskip("paddle")


def _same_plain(fn):
    ours, theirs = both(fn)
    assert ours == theirs, f"pagaie {ours!r}\nPaddle {theirs!r}"


# -- batch norms: a forward pass rewrites _data_format to the kernel's layout name -------------

@pytest.mark.parametrize("cls,fmt,shape", [
    ("BatchNorm1D", "NCL", [2, 2]), ("BatchNorm1D", "NLC", [2, 3, 2]), ("BatchNorm1D", "NC", [2, 2, 3]),
    ("BatchNorm3D", "NCDHW", [2, 2, 1, 1, 2]), ("BatchNorm3D", "NDHWC", [2, 1, 1, 2, 2]),
    ("BatchNorm1D", "NCL", [2, 2, 2, 2]),
])
def test_batch_norm_format_after_forward(cls, fmt, shape):
    def f(P):
        bn = getattr(P.nn, cls)(2, data_format=fmt)
        bn.eval()
        before = repr(bn)
        try:
            bn(P.ones(shape))
        except ValueError:   # a bad rank: the format was rewritten first
            pass
        return before, repr(bn), bn._data_format
    _same_plain(f)


# -- Upsample without data_format: the first input's rank fixes the layout ---------------------

def test_upsample_first_call_fixes_data_format():
    def f(P):
        up = P.nn.Upsample(scale_factor=2, mode="nearest")
        first = up(P.ones([1, 1, 2, 2])).shape
        return first, repr(up), up.data_format
    _same_plain(f)


@pytest.mark.parametrize("shapes", [([1, 1, 2, 2], [1, 1, 2, 2, 2]), ([1, 2],)])
def test_upsample_rank_after_first_call(shapes):
    def f(P):
        up = P.nn.Upsample(scale_factor=2)
        for s in shapes:
            up(P.ones(s))
    same_exception(f)


# -- LazyGuard: parameters hold nothing, and draw nothing, until initialize() ------------------

def _lazy_linear(P):
    with P.LazyGuard():
        return P.nn.Linear(2, 3, bias_attr=P.nn.initializer.Constant(5.0))


_LAZY = {
    "not_initialized": lambda P: (lambda fc: (fc.weight._is_initialized(), repr(fc.bias), fc.weight.numpy().shape,
                                              fc.bias.tolist(), list(fc.weight.shape)))(_lazy_linear(P)),
    "draws_at_initialize": lambda P: (P.seed(0), (lambda fc: (P.rand([2]).numpy().tolist(), fc.weight.initialize(),
                                                              fc.weight.numpy().round(5).tolist()))(_lazy_linear(P)))[1],
    "loaded_then_initialized": lambda P: (lambda fc: (fc.set_state_dict({"bias": P.ones([3])}), fc.bias._is_initialized(),
                                                      fc.bias.tolist(), fc.bias.initialize(), fc.bias.tolist()))(
        _lazy_linear(P)),
    "set_value": lambda P: (lambda fc: (fc.bias.set_value(np.ones(3, "float32")), fc.bias._is_initialized(),
                                        fc.bias.tolist()))(_lazy_linear(P)),
    "copy_": lambda P: (lambda fc: (fc.bias.copy_(P.ones([3]), False).tolist(), fc.bias._is_initialized()))(
        _lazy_linear(P)),
    "deepcopy": lambda P: (lambda c: (c.bias._is_initialized(), c.bias.initialize(), c.bias.tolist()))(
        copy.deepcopy(_lazy_linear(P))),
}


@pytest.mark.parametrize("case", list(_LAZY))
def test_lazy_guard_parameters(case):
    _same_plain(_LAZY[case])


def test_lazy_parameter_initialize_runs_once():
    def f(P):
        fc = _lazy_linear(P)
        fc.set_state_dict({"bias": P.ones([3])})
        fc.bias.initialize()
        fc.bias.initialize()
    same_exception(f)


# -- paddle.summary in static mode: Paddle reads no input shapes off a program's values and
#    counts a composite layer's whole state dict -------------------------------------------------

def _static_summary(P):
    class Block(P.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = P.nn.Linear(2, 3)
            self.b = P.nn.Linear(3, 2)

        def forward(self, x, y):
            return self.b(self.a(x)) + y

    P.enable_static()
    try:
        with P.static.program_guard(P.static.Program(), P.static.Program()):
            with P.utils.unique_name.guard():
                return P.summary(Block(), [(1, 2), (1, 2)])
    finally:
        P.disable_static()


def test_summary_in_static_mode(capsys):
    ours, theirs = both(lambda P: (_static_summary(P), capsys.readouterr().out))
    assert ours == theirs, f"pagaie {ours!r}\nPaddle {theirs!r}"
