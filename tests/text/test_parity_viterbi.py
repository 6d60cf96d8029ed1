"""paddle.text.viterbi_decode: gradients and bad inputs, pagaie vs real Paddle 3.3.1."""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

RNG = np.random.default_rng(3)
E = RNG.normal(0, 1, (3, 5, 4)).astype("float32")
TR = RNG.normal(0, 1, (4, 4)).astype("float32")
LN = np.array([5, 3, 1], "int64")


def test_scores_never_carry_gradients():
    def fn(fw):
        e = fw.to_tensor(E, stop_gradient=False)
        t = fw.to_tensor(TR, stop_gradient=False)
        scores, path = fw.text.viterbi_decode(e, t, fw.to_tensor(LN))
        dec = fw.text.ViterbiDecoder(t)(e, fw.to_tensor(LN))
        return scores, path, scores.stop_gradient, path.stop_gradient, dec[0].stop_gradient
    ours, theirs = both(fn)
    assert_same(list(ours), list(theirs))
    assert ours[2] is True


@pytest.mark.parametrize("shapes", [
    ((5, 4), (4, 4), (3,)),          # potentials not 3-D
    ((3, 5, 4), (3, 4), (3,)),       # transition rows != num_tags
    ((3, 5, 4), (4, 4), (3, 1)),     # lengths not 1-D
    ((3, 5, 4), (4, 4), (2,)),       # lengths batch mismatch
])
def test_bad_shapes_raise_value_error(shapes):
    pe, pt, pl = shapes

    def fn(fw):
        return fw.text.viterbi_decode(fw.to_tensor(np.zeros(pe, "float32")), fw.to_tensor(np.zeros(pt, "float32")),
                                      fw.to_tensor(np.ones(pl, "int64")))
    assert str(same_exception(fn)).startswith("paddle.text.viterbi_decode: ")
