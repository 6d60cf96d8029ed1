"""BeamSearchDecoder / dynamic_decode and class_center_sample vs real Paddle; errors of the
misc functional ops."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.nn.helpers import copy_params
from tests.reference import assert_same, paddle_ref, same_exception


@pytest.mark.parametrize("cell", ["LSTMCell", "GRUCell"])
def test_beam_search_decoding_matches_paddle(cell):
    paddle = paddle_ref()

    def build(fw):
        return fw.nn.LayerList([fw.nn.Embedding(12, 8), getattr(fw.nn, cell)(8, 16), fw.nn.Linear(16, 12)])
    theirs, ours = build(paddle), build(pagaie)
    copy_params(theirs, ours)
    h = np.random.default_rng(1).standard_normal((3, 16)).astype("float32")
    res = []
    for fw, m in ((pagaie, ours), (paddle, theirs)):
        dec = fw.nn.BeamSearchDecoder(m[1], 0, 1, 4, embedding_fn=m[0], output_fn=m[2])
        inits = (fw.to_tensor(h), fw.to_tensor(h)) if cell == "LSTMCell" else fw.to_tensor(h)
        ids, states, lengths = fw.nn.dynamic_decode(dec, inits, max_step_num=5, return_length=True)
        res.append([ids, states.log_probs, states.finished, states.lengths, lengths])
    assert_same(res[0], res[1], rtol=1e-4, atol=1e-4)
    x = np.arange(6, dtype="float32").reshape(3, 2)
    assert_same(pagaie.nn.BeamSearchDecoder.tile_beam_merge_with_batch(pagaie.to_tensor(x), 3),
                paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor(x), 3))


def test_class_center_sample():
    label = pagaie.to_tensor([11, 5, 1, 3, 12, 2, 15, 19, 18, 19])
    for n in (4, 9, 14):
        remapped, centers = pagaie.nn.functional.class_center_sample(label, 20, n)
        c = centers.numpy()
        pos = np.unique(label.numpy())
        assert len(c) == max(n, len(pos)) and len(set(c.tolist())) == len(c)
        np.testing.assert_array_equal(c[:len(pos)], pos)          # positives first, ascending
        np.testing.assert_array_equal(c[remapped.numpy()], label.numpy())
        assert remapped.dtype == centers.dtype == pagaie.int64
    assert isinstance(same_exception(lambda fw: fw.nn.functional.class_center_sample(
        fw.to_tensor([1, 2]), 5, 6)), ValueError)
    assert isinstance(same_exception(lambda fw: fw.nn.functional.class_center_sample(
        fw.to_tensor([[1, 2]]), 5, 3)), ValueError)


def test_misc_errors():
    for f in (lambda fw: fw.nn.functional.temporal_shift(fw.ones([4, 4, 2, 2]), 2, data_format="NCDHW"),
              lambda fw: fw.nn.functional.gather_tree(fw.ones([2, 3], "int64"), fw.ones([2, 3], "int64"))):
        assert isinstance(same_exception(f), ValueError)
