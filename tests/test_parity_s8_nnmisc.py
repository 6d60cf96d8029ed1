"""Session-8 sweep of the remaining paddle.nn.functional ops against real Paddle 3.3.1: the
dropout family, one_hot, label_smooth, sequence_mask, the distances, normalize, linear /
bilinear, embedding, temporal_shift, gather_tree, class_center_sample and the flash-attention
wrappers' argument checks.

Each test compares values, dtypes, shapes and gradients, or the exception type raised for bad
input (whose message must name the API, never torch)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, output_and_grads, paddle_ref, same_exception

RNG = np.random.default_rng(12)


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


def _F(fw):
    return fw.nn.functional


def _same(fn, rtol=1e-5, atol=1e-6, seed=None):
    def run(fw):
        if seed is not None:
            fw.seed(seed)
        return fn(fw)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=rtol, atol=atol)


def _no_torch(exc):
    assert "paddle" in str(exc) and "torch" not in str(exc) and "tensor a" not in str(exc), str(exc)


# ---------------------------------------------------------------- dropout family

def test_dropout_p_may_be_a_bool():
    x = RNG.standard_normal((2, 3)).astype("float32")
    _same(lambda fw: _F(fw).dropout(fw.to_tensor(x), True), seed=1)
    _same(lambda fw: _F(fw).dropout(fw.to_tensor(x), False), seed=1)
    _same(lambda fw: _F(fw).alpha_dropout(fw.to_tensor(x), True), seed=1)


@pytest.mark.parametrize("p", [0.3, 1.0])
def test_dropout_axis_inference_keeps_bool(p):
    x = np.array([[True, False, True], [False, True, True]])
    _same(lambda fw: _F(fw).dropout(fw.to_tensor(x), p, axis=1, training=False, mode="downscale_in_infer"))


@pytest.mark.parametrize("axis", [None, 1, [0, 2]])
@pytest.mark.parametrize("mode", ["upscale_in_train", "downscale_in_infer"])
def test_dropout_seeded_values_and_grads(axis, mode):
    x = RNG.standard_normal((3, 4, 5)).astype("float32")
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, t: _F(fw).dropout(t, 0.4, axis=axis, mode=mode)), seed=5)


# ---------------------------------------------------------------- one_hot / label_smooth / sequence_mask

def test_one_hot_float_depth_is_truncated():
    _same(lambda fw: _F(fw).one_hot(fw.to_tensor([1, 0]), 3.7))


def test_one_hot_negative_depth():
    _no_torch(same_exception(lambda fw: _F(fw).one_hot(fw.to_tensor([1, 0]), -2)))


def test_label_smooth_prior_gets_no_gradient():
    lab = np.eye(4, dtype="float32")[[0, 2, 3]]
    prior = np.array([[0.1, 0.2, 0.3, 0.4]], "float32")
    _same(lambda fw: output_and_grads(fw, [lab, prior], lambda fw, t, pr: _F(fw).label_smooth(t, pr, epsilon=0.3)))


def test_label_smooth_0d_label():
    # Paddle's 0-D result adds epsilon over a class count read from memory it never set (its
    # values vary between runs, about 0.25 here): compare the shape and dtype, and pagaie's
    # value with (1 - epsilon) * label
    ours, theirs = both(lambda fw: _F(fw).label_smooth(fw.to_tensor(0.5), epsilon=0.5))
    assert ours.shape == theirs.shape == [] and str(ours.dtype) == str(theirs.dtype)
    assert float(ours) == 0.25
    _same(lambda fw: _F(fw).label_smooth(fw.to_tensor(0.0), fw.to_tensor([0.3])))


def test_label_smooth_prior_dtype_and_shape_errors():
    lab = np.eye(4, dtype="float32")[[0, 2]]
    _no_torch(same_exception(lambda fw: _F(fw).label_smooth(fw.to_tensor(lab), fw.ones([1, 4], "float64"))))
    # Paddle reads past a too-short prior (a bug); pagaie names the mismatch
    with pytest.raises(ValueError, match="label_smooth"):
        _F(pagaie).label_smooth(pagaie.to_tensor(lab), pagaie.ones([1, 3]))


@pytest.mark.parametrize("maxlen", [-1, -5])
def test_sequence_mask_negative_maxlen_is_the_longest(maxlen):
    _same(lambda fw: _F(fw).sequence_mask(fw.to_tensor([[1, 3], [0, 2]]), maxlen))


# ---------------------------------------------------------------- distances / normalize

def test_cosine_similarity_refuses_integers():
    _no_torch(same_exception(lambda fw: _F(fw).cosine_similarity(fw.ones([2, 3], "int32"), fw.ones([2, 3], "int32"))))


def test_cosine_similarity_and_pairwise_distance_shape_errors():
    a, b = np.ones((4, 3), "float32"), np.ones((4, 2), "float32")
    _no_torch(same_exception(lambda fw: _F(fw).cosine_similarity(fw.to_tensor(a), fw.to_tensor(b))))
    _no_torch(same_exception(lambda fw: _F(fw).pairwise_distance(fw.to_tensor(a), fw.to_tensor(b))))


@pytest.mark.parametrize("keepdim", [False, True])
def test_pairwise_distance_p0_has_zero_gradients(keepdim):
    a, b = RNG.standard_normal((3, 4)).astype("float32"), RNG.standard_normal((3, 4)).astype("float32")
    _same(lambda fw: output_and_grads(fw, [a, b], lambda fw, x, y: _F(fw).pairwise_distance(x, y, p=0, keepdim=keepdim)))


def test_pairwise_distance_p_of_a_wrong_type():
    _no_torch(same_exception(lambda fw: _F(fw).pairwise_distance(fw.ones([2, 3]), fw.zeros([2, 3]), p="fro")))
    _same(lambda fw: _F(fw).pairwise_distance(fw.ones([2, 3]), fw.zeros([2, 3]), p=np.int64(3)))


def test_normalize_axis_out_of_range_names_the_api():
    with pytest.raises(ValueError) as info:   # Paddle's p_norm on a 0-D input may segfault
        _F(pagaie).normalize(pagaie.to_tensor(3.0), axis=1)
    _no_torch(info.value)


# ---------------------------------------------------------------- linear / bilinear

@pytest.mark.parametrize("dts", [("float32", "float64"), ("float64", "float32")])
def test_linear_bias_of_another_dtype_promotes(dts):
    x, w = np.ones((2, 2, 3), dts[0]), RNG.standard_normal((3, 4)).astype(dts[0])
    b = RNG.standard_normal(4).astype(dts[1])
    _same(lambda fw: output_and_grads(fw, [x, w, b], lambda fw, *t: _F(fw).linear(*t)))


X1, X2 = RNG.standard_normal((4, 3)).astype("float32"), RNG.standard_normal((4, 2)).astype("float32")
BW, BB = RNG.standard_normal((5, 3, 2)).astype("float32"), RNG.standard_normal((1, 5)).astype("float32")


def test_bilinear_values_and_grads():
    _same(lambda fw: output_and_grads(fw, [X1, X2, BW, BB], lambda fw, *t: _F(fw).bilinear(*t)))


@pytest.mark.parametrize("case", ["bias1d", "x3d", "x1d", "w", "batch", "bias", "mixed", "w2d"])
def test_bilinear_errors(case):
    def call(fw):
        t = fw.to_tensor
        args = {"bias1d": (t(X1), t(X2), t(BW), t(BB[0])),
                "x3d": (t(X1[None]), t(X2[None]), t(BW)),
                "x1d": (t(X1[0]), t(X2[0]), t(BW)),
                "w": (t(X1), t(X2), t(BW[:, :2])),
                "batch": (t(X1), t(X2[:3]), t(BW)),
                "bias": (t(X1), t(X2), t(BW), t(BB[:, :3])),
                "mixed": (t(X1).astype("float64"), t(X2), t(BW)),
                "w2d": (t(X1), t(X2), t(BW[0]))}[case]
        return _F(fw).bilinear(*args)
    _no_torch(same_exception(call))


# ---------------------------------------------------------------- embedding

W6 = np.arange(18, dtype="float32").reshape(6, 3) / 10


@pytest.mark.parametrize("padding_idx", [-7, -12, -1, 2])
def test_embedding_padding_idx_range_as_paddle(padding_idx):
    _same(lambda fw: output_and_grads(fw, [W6], lambda fw, w: _F(fw).embedding(fw.to_tensor([[0, 2, 5], [1, 2, 2]]), w,
                                                                      padding_idx=padding_idx)))


def test_embedding_padding_idx_out_of_range():
    same_exception(lambda fw: _F(fw).embedding(fw.to_tensor([0]), fw.to_tensor(W6), padding_idx=-13))
    same_exception(lambda fw: _F(fw).embedding(fw.to_tensor([0]), fw.to_tensor(W6), padding_idx=6))


@pytest.mark.parametrize("padding_idx", [None, -7])
def test_embedding_id_minus_one_is_padding_when_padding_idx_is_none(padding_idx):
    # Paddle's kernel zeroes every id equal to the resolved padding_idx (-1 when None);
    # its backward then refuses the id (a bug not copied), so only the forward is compared
    _same(lambda fw: _F(fw).embedding(fw.to_tensor([-1, 0, 5]), fw.to_tensor(W6), padding_idx=padding_idx))
    same_exception(lambda fw: _F(fw).embedding(fw.to_tensor([-2, 0]), fw.to_tensor(W6), padding_idx=padding_idx))


# ---------------------------------------------------------------- temporal_shift / gather_tree

@pytest.mark.parametrize("seg_num, shift_ratio", [(0, 0.25), (-1, 0.25), (2, 0.0), (2, -0.1), (4, 0.25),
                                                  (2.0, 0.25)])
def test_temporal_shift_argument_errors(seg_num, shift_ratio):
    x = np.ones((6, 4, 1, 1), "float32")
    _no_torch(same_exception(lambda fw: _F(fw).temporal_shift(fw.to_tensor(x), seg_num, shift_ratio)))


IDS = np.array([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
PAR = np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])


@pytest.mark.parametrize("case", ["mixed", "mixed2", "float_parents", "shape", "shape2", "parent_oob", "numpy"])
def test_gather_tree_errors(case):
    def call(fw):
        t = fw.to_tensor
        args = {"mixed": (t(IDS).astype("int32"), t(PAR)),
                "mixed2": (t(IDS), t(PAR).astype("int32")),
                "float_parents": (t(IDS), t(PAR).astype("float32")),
                "shape": (t(IDS), t(PAR[:2])),
                "shape2": (t(IDS), t(PAR[:, :1])),
                "parent_oob": (t(IDS), t(PAR * 5)),
                "numpy": (IDS, PAR)}[case]
        return _F(fw).gather_tree(*args)
    _no_torch(same_exception(call))


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_gather_tree_values(dtype):
    _same(lambda fw: _F(fw).gather_tree(fw.to_tensor(IDS).astype(dtype), fw.to_tensor(PAR).astype(dtype)))


# ---------------------------------------------------------------- class_center_sample

@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_class_center_sample_with_a_program_seed_draws_paddles_centres(dtype):
    # Paddle seeds the kernel with the legacy default program's random_seed (else with
    # std::random_device, which nothing can match); pagaie reads its default program's
    from paddle.base import framework
    ref = paddle_ref()
    lab = np.array([20, 5, 1, 20, 33, 5, 7])
    prog, ours_prog = framework.default_main_program(), pagaie.static.default_main_program()
    old, ours_old = prog.random_seed, ours_prog.random_seed
    prog.random_seed = ours_prog.random_seed = 7
    try:
        theirs = _F(ref).class_center_sample(ref.to_tensor(lab).astype(dtype), 50, 12)
        ours = _F(pagaie).class_center_sample(pagaie.to_tensor(lab).astype(dtype), 50, 12)
    finally:
        prog.random_seed, ours_prog.random_seed = old, ours_old
    assert_same(list(ours), list(theirs))


# ---------------------------------------------------------------- flash attention wrappers

def test_flashmask_startend_row_indices_dtype_message():
    from pagaie.nn.functional.flash_attention import flashmask_attention
    q = pagaie.ones([1, 4, 1, 8])
    sri = pagaie.to_tensor(np.full((1, 1, 4, 1), 4, "int64"))
    with pytest.raises(AssertionError) as info:
        flashmask_attention(q, q, q, startend_row_indices=sri, causal=True)
    assert "paddle.int64" in str(info.value) and "torch" not in str(info.value)
