"""Session-23 sweep of the ``paddle.nn.Layer`` machinery, ``paddle.nn.initializer``/``ParamAttr``
and ``paddle.vision.models`` against real Paddle 3.3.1, for what the earlier sweeps
(test_parity_s11_layerapi, test_parity_s20_layer, tests/vision) left out: the batch norms'
``_data_format`` rewritten by a forward pass (and so their repr), Upsample's layout fixed by
its first input, ...

Cases return plain Python values (names, dtypes, flags) that must be equal in both frameworks;
bad inputs must raise the same exception type.
"""
from __future__ import annotations

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
