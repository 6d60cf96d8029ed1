"""``Tensor.size`` (a callable int) and ``paddle.permute(x, *dims)``, as in Paddle 3."""
import pytest

import pagaie
from tests.reference import paddle_ref


@pytest.mark.parametrize("shape", [[2, 3, 4], [5], []])
def test_tensor_size_is_a_callable_count(shape):
    paddle = paddle_ref()
    ours, theirs = pagaie.ones(shape), paddle.ones(shape)
    assert int(ours.size) == int(theirs.size) and isinstance(ours.size, int)
    assert list(ours.size()) == list(theirs.size())
    for d in range(-len(shape), len(shape)):
        assert ours.size(d) == theirs.size(d)
    assert repr(ours.size) == repr(int(theirs.size))


@pytest.mark.parametrize("call", [lambda m, x: m.permute(x, 2, 0, 1), lambda m, x: m.permute(x, [2, 0, 1]),
                                  lambda m, x: m.permute(x, dims=(2, 0, 1)), lambda m, x: x.permute(2, 0, 1)])
def test_permute_takes_dims_as_ints_or_a_list(call):
    paddle = paddle_ref()
    assert list(call(pagaie, pagaie.ones([2, 3, 4])).shape) == list(call(paddle, paddle.ones([2, 3, 4])).shape)
