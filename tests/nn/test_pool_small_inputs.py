"""Pooling windows larger than the input: Paddle's C-style (toward zero) output size, one
window over the part that exists, or an empty result; compared with real Paddle."""
import pytest

from tests.reference import assert_same, both

CASES = [(4, 2), (5, 2), (4, 1), (3, 3), (2, 2), (4, 3), (5, 3)]


@pytest.mark.parametrize("k,s", CASES)
@pytest.mark.parametrize("op", ["max", "avg", "avg_inclusive", "max_ceil", "lp"])
def test_windows_larger_than_the_input(op, k, s):
    def run(p):
        x = p.arange(9, dtype="float32").reshape([1, 1, 3, 3])
        f = p.nn.functional
        return {"max": lambda: f.max_pool2d(x, k, s),
                "avg": lambda: f.avg_pool2d(x, k, s),
                "avg_inclusive": lambda: f.avg_pool2d(x, k, s, exclusive=False),
                "max_ceil": lambda: f.max_pool2d(x, k, s, ceil_mode=True),
                "lp": lambda: f.lp_pool2d(x, 2, k, s)}[op]()

    ours, theirs = both(run)
    assert ours.shape == theirs.shape
    assert_same(ours, theirs)


def test_small_vgg_input_runs_as_in_paddle():
    def run(p):
        p.seed(0)
        x = p.ones([1, 3, 16, 16])
        return p.nn.functional.max_pool2d(p.nn.functional.max_pool2d(x[:, :, :1, :1], 2, 2), 2, 2).shape

    ours, theirs = both(run)
    assert list(ours) == list(theirs)
