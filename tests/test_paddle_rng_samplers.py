"""The random creation ops and in-place samplers give real Paddle's CPU values for the same
``paddle.seed``, and leave Paddle's stream where Paddle leaves it (the next call matches).

Normal samples (and what is computed from them with transcendental functions) are
compared to a few ulps: glibc's ``logf`` is not correctly rounded, numpy's may differ.
"""
import numpy as np
import pytest

import pagaie
from pagaie._core.mt64 import Engine
from pagaie._ops import _std_dists_samplers as S
from tests.reference import paddle_ref

_CLOSE = dict(rtol=1e-6, atol=1e-6)


def _np(t):
    a = t.numpy() if not str(t.dtype).endswith("bfloat16") else t.astype("float32").numpy()
    return np.asarray(a)


def _same(fn, seed=2024, exact=True, tol=None):
    """Seed both frameworks, call ``fn(framework)``, compare; then check the next draw."""
    paddle = paddle_ref()
    pagaie.seed(seed)
    ours = fn(pagaie)
    paddle.seed(seed)
    theirs = fn(paddle)
    a, b = _np(ours), _np(theirs)
    assert str(ours.dtype).replace("paddle.", "") == str(theirs.dtype).replace("paddle.", "")
    assert a.shape == b.shape
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, **(tol or _CLOSE))
    np.testing.assert_array_equal(pagaie.rand([5]).numpy(), paddle.rand([5]).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64"])
def test_rand_and_uniform(dtype):
    _same(lambda p: p.rand([3, 7], dtype=dtype))
    _same(lambda p: p.uniform([11], dtype=dtype, min=-2.5, max=0.7), seed=3)


def test_uniform_op_seed_and_like():
    _same(lambda p: p.uniform([6], min=-1.0, max=1.0, seed=99))
    _same(lambda p: p.rand_like(p.zeros([2, 5], dtype="float64")))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "complex64", "complex128"])
def test_randn_standard_normal(dtype):
    _same(lambda p: p.randn([5, 3], dtype=dtype), exact=False)
    _same(lambda p: p.standard_normal([7], dtype=dtype), seed=8, exact=False)


def test_normal_forms():
    m = np.array([[0.0, 10.0, -3.0]], dtype=np.float32)
    sd = np.array([[1.0, 0.5, 2.0]], dtype=np.float32)
    _same(lambda p: p.normal(0.3, 2.5, [9]), exact=False)
    _same(lambda p: p.normal(mean=1 + 1j, std=2.0, shape=[4]), exact=False)
    _same(lambda p: p.normal(p.to_tensor(m)), exact=False)
    _same(lambda p: p.normal(p.to_tensor(m), p.to_tensor(sd)), exact=False)
    _same(lambda p: p.normal(1.5, p.to_tensor(sd.astype(np.float64))), exact=False)
    _same(lambda p: p.randn_like(p.zeros([3, 2])), exact=False)
    _same(lambda p: p.log_normal(0.5, 0.25, [6]), exact=False)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_randint(dtype):
    _same(lambda p: p.randint(-7, 100, [4, 9], dtype=dtype))
    _same(lambda p: p.randint(5, shape=[3], dtype=dtype), seed=1)


def test_randint_like():
    _same(lambda p: p.randint_like(p.zeros([2, 3], dtype="float32"), 0, 10))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 10, 1001])
def test_randperm(n):
    _same(lambda p: p.randperm(n))
    _same(lambda p: p.randperm(n, dtype="float32"), seed=n)


def test_randperm_swaps_match_the_sequential_shuffle():
    rng = np.random.default_rng(0)
    n = 500
    j = np.array([0] + [int(rng.integers(0, t + 1)) for t in range(1, n)])
    a = list(range(n))
    for t in range(1, n):
        a[t], a[j[t]] = a[j[t]], a[t]
    np.testing.assert_array_equal(S.swaps_to_permutation(j), a)


def test_bernoulli():
    x = np.linspace(0, 1, 24, dtype=np.float32).reshape(4, 6)
    _same(lambda p: p.bernoulli(p.to_tensor(x)))
    _same(lambda p: p.bernoulli(p.to_tensor(x.astype(np.float64))), seed=4)
    _same(lambda p: p.bernoulli(p.zeros([10]), p=0.3), seed=5)


def test_bernoulli_inplace():
    pt = np.array([[0.2], [0.9]], dtype=np.float32)
    _same(lambda p: p.zeros([2, 5]).bernoulli_())
    _same(lambda p: p.zeros([2, 5]).bernoulli_(p.to_tensor(pt)), seed=6)


@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial(replacement):
    w = np.random.default_rng(1).random((3, 12)).astype(np.float32)
    w[:, 2] = 0
    _same(lambda p: p.multinomial(p.to_tensor(w), 6, replacement))
    _same(lambda p: p.multinomial(p.to_tensor(w[0].astype(np.float64)), 5, replacement), seed=9)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inplace_samplers(dtype):
    _same(lambda p: p.zeros([4, 5], dtype=dtype).uniform_(-3.0, 4.0))
    _same(lambda p: p.zeros([4, 5], dtype=dtype).uniform_(seed=12))
    _same(lambda p: p.zeros([7], dtype=dtype).normal_(0.1, 3.0), exact=False)
    _same(lambda p: p.zeros([7], dtype=dtype).exponential_(2.5), exact=False)
    _same(lambda p: p.zeros([7], dtype=dtype).log_normal_(0.0, 0.5), exact=False)
    _same(lambda p: p.zeros([7], dtype=dtype).cauchy_(1.0, 2.0), exact=False,
          tol=dict(rtol=1e-4, atol=1e-5))
    _same(lambda p: p.zeros([7], dtype=dtype).geometric_(0.3), exact=False)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_random_(dtype):
    _same(lambda p: p.zeros([9], dtype=dtype).random_(-4, 40))
    _same(lambda p: p.zeros([9], dtype=dtype).random_(), seed=3)
    _same(lambda p: p.zeros([9], dtype=dtype).random_(7), seed=4)


def test_a_sequence_of_calls_stays_in_step():
    def run(p):
        p.seed(77)
        out = [p.rand([3]), p.randn([5]), p.randint(0, 9, [4]), p.randperm(6),
               p.uniform([2], min=-1.0, max=1.0), p.randn([1])]
        return [_np(t).astype(np.float64) for t in out]
    paddle = paddle_ref()
    for a, b in zip(run(pagaie), run(paddle)):
        np.testing.assert_allclose(a, b, **_CLOSE)


def test_shuffle_uses_the_same_words_as_the_reference_loop():
    e, ref = Engine.from_seed(3), Engine.from_seed(3)
    got = S.shuffle(e, 9)
    a = list(range(9))
    for i in range(1, 9, 2):                       # odd n: pairs only
        r = i + 1
        x = int(S.uniform_ints(ref, np.array([r * (r + 1)], dtype=np.uint64))[0])
        a[i], a[x // (r + 1)] = a[x // (r + 1)], a[i]
        a[i + 1], a[x % (r + 1)] = a[x % (r + 1)], a[i + 1]
    np.testing.assert_array_equal(got, a)
    np.testing.assert_array_equal(e.take(2), ref.take(2))


def test_draws_larger_than_one_block_match():
    """Big draws are made block by block: values and the stream after still match Paddle."""
    P = paddle_ref()
    n = (1 << 15) * 2 + 5
    x = np.ones(n, dtype="float32")
    outs = []
    for fw in (P, pagaie):
        fw.seed(7)
        outs.append([fw.randn([n]).numpy(), fw.rand([n]).numpy(),
                     fw.nn.functional.dropout(fw.to_tensor(x), 0.3).numpy(), fw.rand([3]).numpy()])
    for theirs, ours in zip(*outs):
        np.testing.assert_array_equal(ours, theirs)
