"""Paddle's CPU engine (mt19937_64 through seed_seq) and the libstdc++ distributions over it.

The words and values are compared with real Paddle 3.3.1's samplers after the same seed,
including where the stream stands after each call.
"""
import numpy as np
import pytest

import pagaie
from pagaie._core.mt64 import Engine
from pagaie._core.random import cpu_engine
from pagaie._ops import _std_dists as D
from tests.reference import paddle_ref


@pytest.mark.parametrize("seed", [0, 1, 2023, 2 ** 40 + 5])
def test_seeded_stream_matches_paddle_uniform_normal_randint(seed):
    paddle = paddle_ref()
    paddle.seed(seed)
    e = Engine.from_seed(seed)
    np.testing.assert_array_equal(D.canonical(e, 257), paddle.rand([257]).numpy())
    np.testing.assert_array_equal(D.uniform_real(e, 100, np.float32(-2.5), np.float32(7.25)),
                                  paddle.uniform([100], min=-2.5, max=7.25).numpy())
    # float32 normals: glibc's logf is not correctly rounded, so a few values differ by an ulp
    np.testing.assert_allclose(D.normal(e, 333, 0.0, 1.0), paddle.randn([333]).numpy(),
                               rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(D.normal(e, 64, 0.5, 2.0), paddle.normal(0.5, 2.0, [64]).numpy(),
                               rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(D.uniform_int(e, 500, -3, 11), paddle.randint(-3, 12, [500]).numpy())
    np.testing.assert_array_equal(D.canonical(e, 7, np.float64),
                                  paddle.rand([7], dtype="float64").numpy())


def test_normal_float64_and_odd_counts_leave_the_stream_where_paddle_does():
    paddle = paddle_ref()
    paddle.seed(11)
    e = Engine.from_seed(11)
    for n in (1, 2, 5, 8):
        np.testing.assert_allclose(D.normal(e, n, 0.0, 1.0, np.float64),
                                   paddle.randn([n], dtype="float64").numpy(), rtol=1e-14)
        np.testing.assert_array_equal(D.canonical(e, 3), paddle.rand([3]).numpy())


def test_op_seed_engine_is_seeded_with_the_integer():
    paddle = paddle_ref()
    ours = D.uniform_real(cpu_engine(77), 20, np.float32(0), np.float32(1))
    np.testing.assert_array_equal(ours, paddle.uniform([20], seed=77).numpy())


def test_state_round_trip_inside_a_peeked_buffer():
    e = Engine.from_seed(5)
    e.take(10)
    e.peek(5000)            # draws ahead; the state must still be "after 10 words"
    st = e.get_state()
    a = e.take(3000)
    e.set_state(st)
    np.testing.assert_array_equal(e.take(3000), a)
    f = Engine.from_seed(5)
    f.skip(10)
    np.testing.assert_array_equal(f.take(3000), a)


def test_uniform_int_rejection_keeps_order():
    # a range just above 2**63 rejects about half the words: the redraws must come in order
    e, ref = Engine.from_seed(9), Engine.from_seed(9)
    rng = (1 << 63) + 12345
    got = D.uniform_int(e, 200, 0, rng - 1).view(np.uint64)
    want = []
    words = ref.take(1000)
    i = 0
    threshold = ((1 << 64) - rng) % rng
    while len(want) < 200:
        prod = int(words[i]) * rng
        i += 1
        if prod & ((1 << 64) - 1) >= threshold:
            want.append(prod >> 64)
    np.testing.assert_array_equal(got, np.array(want, dtype=np.uint64))
    np.testing.assert_array_equal(e.take(1), words[i:i + 1])


def test_keep_words_threshold_is_the_float_comparison():
    e, f = Engine.from_seed(3), Engine.from_seed(3)
    for p in (0.1, 0.5, 0.9, 1e-9):
        np.testing.assert_array_equal(D.keep_words(e, 4096, p), D.canonical(f, 4096) >= np.float32(p))


def test_paddle_seed_generator_random_and_rng_state_follow_paddle():
    paddle = paddle_ref()
    g, pg = pagaie.seed(42), paddle.seed(42)
    assert g.random() == pg.random()
    st, pst = pagaie.get_rng_state(), paddle.get_rng_state()
    a, pa = pagaie.rand([4]).numpy(), paddle.rand([4]).numpy()
    np.testing.assert_array_equal(a, pa)
    pagaie.set_rng_state(st)
    paddle.set_rng_state(pst)
    np.testing.assert_array_equal(pagaie.rand([4]).numpy(), a)
    assert g.initial_seed() == pg.initial_seed() == 42


def test_seeded_training_loop_with_dropout_follows_paddle():
    """Initial parameters, the batches drawn, dropout masks and the stream after: a seeded
    script gives Paddle's losses."""
    paddle = paddle_ref()

    def run(p):
        p.seed(7)
        net = p.nn.Sequential(p.nn.Linear(8, 16), p.nn.ReLU(), p.nn.Dropout(0.3), p.nn.Linear(16, 3))
        opt = p.optimizer.Adam(1e-2, parameters=net.parameters())
        losses = []
        for _ in range(4):
            x, y = p.randn([4, 8]), p.randint(0, 3, [4])
            loss = p.nn.functional.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses, p.rand([2]).numpy()

    ours, theirs = run(pagaie), run(paddle)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    np.testing.assert_array_equal(ours[1], theirs[1])
