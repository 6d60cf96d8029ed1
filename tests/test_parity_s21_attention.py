"""Session-21: attention and Transformer APIs against real Paddle 3.3.1 (scaled_dot_product_attention's
masks and argument types, the flash-attention functions' CPU dtypes and shapes, sequence_mask,
Transformer helpers, incubate's fused_dot_product_attention, compat.nn.MultiheadAttention)."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from tests.nn.seq_helpers import compare_seq
from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")

RNG = np.random.default_rng(21)
Q = RNG.standard_normal((2, 5, 4, 8)).astype("float32")
K = RNG.standard_normal((2, 6, 4, 8)).astype("float32")
V = RNG.standard_normal((2, 6, 4, 8)).astype("float32")
# row 1 of the mask hides every key
BOOL_MASK = RNG.random((5, 6)) > 0.5
BOOL_MASK[1] = False


def _sdpa(P, mask, grads=False, **kw):
    ts = [P.to_tensor(a, stop_gradient=not grads) for a in (Q, K, V)]
    out = P.nn.functional.scaled_dot_product_attention(*ts, attn_mask=mask, **kw)
    return [out, *P.grad((out * out).sum(), ts)] if grads else out


# -- scaled_dot_product_attention: a query row the mask hides from every key ---------------------

@pytest.mark.parametrize("kind", ["bool", "float"])
def test_sdpa_fully_masked_row_is_nan_with_nan_gradients(kind):
    # Paddle's CPU attention is softmax(q k^T * scale + mask): a row of -inf gives NaN
    mask = BOOL_MASK if kind == "bool" else np.where(BOOL_MASK, 0, -np.inf).astype("float32")
    ours, theirs = both(lambda P: _sdpa(P, P.to_tensor(mask), grads=True))
    assert np.isnan(theirs[0].numpy()[:, 1]).all()
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


def test_sdpa_fully_masked_row_unbatched_and_causal():
    assert_same(*both(lambda P: P.nn.functional.scaled_dot_product_attention(
        *[P.to_tensor(a[0]) for a in (Q, K, V)], attn_mask=P.to_tensor(BOOL_MASK))), rtol=1e-5)
    # is_causal ignores the mask
    assert_same(*both(lambda P: _sdpa(P, P.to_tensor(BOOL_MASK), is_causal=True)), rtol=1e-5)


def test_mha_float_mask_hiding_a_row():
    mask = np.zeros((5, 5), "float32")
    mask[0] = -np.inf
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4),
                lambda P, m, x: m(x, attn_mask=P.to_tensor(mask)),
                [Q.reshape(2, 5, 32)[..., :16].copy()], grad=False)


# -- scaled_dot_product_attention: a numpy attn_mask ---------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_sdpa_numpy_float_mask_is_additive(dtype):
    mask = RNG.standard_normal((5, 6)).astype(dtype)
    assert_same(*both(lambda P: _sdpa(P, mask)), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["bool", "int32", "float64"])
def test_sdpa_numpy_mask_other_dtypes_fail(dtype):
    mask = np.ones((5, 6), dtype)
    same_exception(lambda P: _sdpa(P, mask))


@pytest.mark.parametrize("where", [0, 1, 2, 3])
@pytest.mark.parametrize("value", [Q.tolist(), None, Q, 1.0])
def test_sdpa_non_tensor_arguments(where, value):
    # Paddle's Python code reads .dim()/.shape/.place first: AttributeError, arrays included
    # (an array mask is added to the scores instead)
    if where == 3 and (value is None or isinstance(value, np.ndarray)):
        pytest.skip("None is no mask; an array mask is tested above")

    def run(P):
        args = [P.to_tensor(a) for a in (Q, Q, Q)] + [None]
        args[where] = value
        return P.nn.functional.scaled_dot_product_attention(*args)
    same_exception(run)


# -- flash_attention / flash_attn_qkvpacked on the CPU: Paddle's math path ----------------------

QKV = RNG.standard_normal((2, 5, 3, 4, 8)).astype("float32")


def _fa(P, *arrays, **kw):
    return P.nn.functional.flash_attention.flash_attention(
        *[P.to_tensor(a) if isinstance(a, np.ndarray) else a for a in arrays], **kw)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "bool", "int8", "uint8", "int16",
                                   "complex64"])
def test_flash_functions_cpu_dtypes_without_kernels(dtype):
    # matmul has no bool/small-int/half CPU kernel, softmax no complex one: Paddle's NotFound
    same_exception(lambda P: P.nn.functional.flash_attention.flash_attention(
        *[P.to_tensor(a).astype(dtype) for a in (Q, Q, Q)]))
    same_exception(lambda P: P.nn.functional.flash_attn_qkvpacked(P.to_tensor(QKV).astype(dtype)))


def test_flash_attention_key_of_a_half_dtype():
    same_exception(lambda P: _fa(P, Q, P.to_tensor(K).astype("float16"), V))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float64"])
def test_flash_attn_qkvpacked_integer_and_double(dtype):
    # integers compute in float32, as Paddle's ``query * scale`` promotes them
    assert_same(*both(lambda P: P.nn.functional.flash_attn_qkvpacked(P.to_tensor(QKV).astype(dtype))),
                rtol=1e-5, atol=1e-6)


def test_flash_attention_unbatched_query_is_index_error():
    same_exception(lambda P: _fa(P, Q[0], K[0], V[0]))
    same_exception(lambda P: _fa(P, Q, K[0], V[0]))


@pytest.mark.parametrize("where", [0, 1])
def test_flash_attention_numpy_and_list_arguments(where):
    def call(P, value):
        args = [P.to_tensor(a) for a in (Q, K, V)]
        args[where] = value
        return P.nn.functional.flash_attention.flash_attention(*args)
    same_exception(lambda P: call(P, Q))
    same_exception(lambda P: call(P, Q.tolist()))


@pytest.mark.parametrize("value", [QKV, QKV.tolist()])
def test_flash_attn_qkvpacked_non_tensor(value):
    same_exception(lambda P: P.nn.functional.flash_attn_qkvpacked(value))


# -- sequence_mask and Transformer.generate_square_subsequent_mask: argument types ---------------

@pytest.mark.parametrize("x", [np.array([1, 2]), [1, 2], None])
def test_sequence_mask_non_tensor_lengths(x):
    same_exception(lambda P: P.nn.functional.sequence_mask(x))


@pytest.mark.parametrize("length", [3.0, True, "3", np.float32(3)])
def test_square_subsequent_mask_length_must_be_an_int(length):
    same_exception(lambda P: P.nn.Transformer(16, 4, 1, 1, 32).generate_square_subsequent_mask(length))


def test_square_subsequent_mask_float_tensor_length():
    same_exception(lambda P: P.nn.Transformer(16, 4, 1, 1, 32).generate_square_subsequent_mask(
        P.to_tensor(3.0)))


@pytest.mark.parametrize("length", [np.int64(3), 0, "tensor"])
def test_square_subsequent_mask_int_lengths(length):
    def run(P):
        n = P.to_tensor([3], dtype="int32") if length == "tensor" else length
        return P.nn.Transformer(16, 4, 1, 1, 32).generate_square_subsequent_mask(n)
    assert_same(*both(run))


# -- paddle.incubate.nn.functional.fused_dot_product_attention (cuDNN's attention) -------------

def test_fused_dot_product_attention_is_sdpa_with_a_scaling_factor():
    import pagaie
    ts = [pagaie.to_tensor(a) for a in (Q, K, V)]
    mask = pagaie.to_tensor(RNG.standard_normal((5, 6)).astype("float32"))
    ours = pagaie.incubate.nn.functional.fused_dot_product_attention(*ts, mask, scaling_factor=0.5)
    ref = pagaie.nn.functional.scaled_dot_product_attention(*ts, mask, scale=0.5)
    np.testing.assert_allclose(ours.numpy(), ref.numpy(), rtol=1e-6)


@pytest.mark.parametrize("case", ["causal_and_mask", "mask_dtype", "bool_mask", "unbatched",
                                  "float16"])
def test_fused_dot_product_attention_checks(case):
    def run(P):
        q, k, v = (P.to_tensor(a) for a in (Q, K, V))
        mask = P.to_tensor(RNG.standard_normal((5, 6)).astype("float32"))
        fdpa = P.incubate.nn.functional.fused_dot_product_attention
        if case == "causal_and_mask":
            return fdpa(q, k, v, mask, is_causal=True)
        if case == "mask_dtype":
            return fdpa(q, k, v, mask.astype("float64"))
        if case == "bool_mask":
            return fdpa(q, k, v, mask > 0)
        if case == "unbatched":
            return fdpa(q[0], k[0], v[0])
        return fdpa(q.astype("float16"), k.astype("float16"), v.astype("float16"))
    same_exception(run)


# -- paddle.compat.nn.MultiheadAttention (PyTorch's layout and masks) ----------------------------

X_SBE = RNG.standard_normal((5, 2, 16)).astype("float32")
MEM_SBE = RNG.standard_normal((7, 2, 16)).astype("float32")
KEY_PAD = RNG.standard_normal((2, 7)).astype("float32")
HIDE = RNG.random((5, 7)) > 0.7
MASK_3D = RNG.standard_normal((8, 5, 7)).astype("float32")


def _compat_nn(nn):
    """compare_seq builds layers from ``paddle.nn`` / ``pagaie.nn``: their framework's compat.nn."""
    return sys.modules[nn.__name__.split(".")[0]].compat.nn


def _compat_mha(kw, call, **tol):
    compare_seq(lambda nn: _compat_nn(nn).MultiheadAttention(16, 4, **kw), call, [X_SBE, MEM_SBE],
                **tol)


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("masks", ["none", "bool_attn", "float_pad", "bool_both", "float3d_bool_pad",
                                   "causal"])
def test_compat_mha_masks(need_weights, masks):
    def call(P, m, x, mem):
        kw = {"need_weights": need_weights}
        if masks in ("bool_attn", "bool_both"):
            kw["attn_mask"] = P.to_tensor(HIDE)
        if masks == "float3d_bool_pad":
            kw["attn_mask"] = P.to_tensor(MASK_3D)
        if masks == "float_pad":
            kw["key_padding_mask"] = P.to_tensor(KEY_PAD)
        if masks in ("bool_both", "float3d_bool_pad"):
            kw["key_padding_mask"] = P.to_tensor(KEY_PAD > 0)
        if masks == "causal":
            return list(m(x, x, x, is_causal=True, **kw))
        return list(m(x, mem, mem, **kw))
    _compat_mha({}, call, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kw", [{"kdim": 12, "vdim": 10}, {"add_bias_kv": True, "add_zero_attn": True},
                                {"bias": False}, {"batch_first": True}])
def test_compat_mha_options(kw):
    def call(P, m, x, mem):
        k = P.concat([mem, mem], axis=-1)
        key, value = (k[..., :12], k[..., :10]) if "kdim" in kw else (mem, mem)
        if kw.get("batch_first"):
            key = value = mem[:5]
        return list(m(x, key, value, key_padding_mask=P.to_tensor(KEY_PAD > 0)
                      if not kw.get("batch_first") else None, average_attn_weights=False))
    _compat_mha(kw, call, rtol=1e-5, atol=1e-5)


def test_compat_mha_dropout_in_training():
    def call(P, m, x, mem):
        P.seed(5)
        return list(m(x, mem, mem))
    compare_seq(lambda nn: _compat_nn(nn).MultiheadAttention(16, 4, dropout=0.3), call,
                [X_SBE, MEM_SBE], train=True)


def test_compat_mha_parameters_and_errors():
    def names(P):
        # generated names count the layers made before: start both counters afresh
        with P.utils.unique_name.guard():
            mha = P.compat.nn.MultiheadAttention(16, 4, add_bias_kv=True, kdim=8)
        return [(n, p.name, list(p.shape)) for n, p in mha.named_parameters()]
    ours, theirs = both(names)
    assert ours == theirs
    same_exception(lambda P: P.compat.nn.MultiheadAttention(16, 5))
    same_exception(lambda P: P.compat.nn.MultiheadAttention(16, 4)(
        P.to_tensor(X_SBE), P.to_tensor(MEM_SBE), P.to_tensor(MEM_SBE),
        key_padding_mask=P.to_tensor(KEY_PAD[:, :3] > 0)))
