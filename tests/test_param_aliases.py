"""Paddle 3's PyTorch-style keyword aliases (``dim=``, ``input=``, ``other=``...) against real Paddle."""
import inspect

import numpy as np
import pytest

import pagaie
from pagaie._core.param_aliases import ALIASES
from tests.reference import paddle_ref

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], dtype="float32")

CASES = [
    "m.sum(x, dim=0)", "m.sum(input=x, dim=1, keepdim=True)", "m.mean(x, dim=1)", "m.argmax(x, dim=1)",
    "m.concat([x, x], dim=1)", "m.stack([x, x], dim=0)", "m.cumsum(x, dim=1)", "m.flatten(x, start_dim=0)",
    "m.unsqueeze(x, dim=0)", "m.roll(x, shifts=1, dims=1)", "m.add(input=x, other=x)", "m.abs(input=x)",
    "m.nn.functional.softmax(x, dim=1)", "m.logsumexp(x, dim=1)", "m.topk(x, 2, dim=1)[0]",
    "x.sum(dim=0)", "x.mean(dim=0, keepdim=True)", "x.argmax(dim=1)", "m.pow(input=x, y=2)",
    "m.where(x > 0, input=x, other=-x)", "m.var(x, dim=1)", "m.nn.functional.normalize(x, dim=1)",
    "m.zeros(size=[2, 3])", "m.full(size=[2], fill_value=1.5)", "m.diagonal(x, dim1=0, dim2=1)",
    "m.nn.functional.cross_entropy(x, target=m.to_tensor([0, 1]))", "m.expand(x[:1], size=[2, 3])",
    # PyTorch argument orders Paddle 3 also takes
    "m.gather(x, 1, m.to_tensor([[0], [1]]))", "m.gather(x, -1, m.to_tensor([[2, 0], [1, 1]]))",
    "m.index_select(x, 1, m.to_tensor([0, 2]))", "x.view(-1)", "m.rand(2, 3).shape and m.zeros([1])",
]


@pytest.mark.parametrize("expr", CASES)
def test_alias_keywords_match_paddle(expr):
    paddle = paddle_ref()
    got = eval(expr, {"m": pagaie, "x": pagaie.to_tensor(X)})
    want = eval(expr, {"m": paddle, "x": paddle.to_tensor(X)})
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]


def test_every_listed_alias_is_accepted_and_signatures_stay_paddles():
    for api, aliases in ALIASES.items():
        fn = pagaie
        for part in api.split("."):
            fn = getattr(fn, part)
        params = inspect.signature(fn).parameters
        assert set(aliases.values()) <= set(params), api
        assert set(aliases) <= set(getattr(fn, "accepts_aliases", ())), api  # built in, no wrapper
        assert not set(aliases) & set(params), api  # aliases are not shown as parameters


def test_alias_conflicts_and_unknown_keywords_raise():
    x = pagaie.to_tensor(X)
    with pytest.raises(ValueError, match="both 'axis' and its alias 'dim'"):
        pagaie.sum(x, axis=0, dim=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        pagaie.sum(x, foo=1)
    with pytest.raises(TypeError, match="missing required argument 'y'"):
        pagaie.add(x)
