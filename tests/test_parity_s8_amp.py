"""Autocast dtype decisions op by op against real Paddle 3.3.1.

Paddle's eager AMP makes no effect on a CPU place, but its PIR static ``auto_cast`` makes
the same per-op decision (same lists, same promote rule) without looking at the place:
the dtype of a static op built under ``auto_cast`` is Paddle's decision, checked here
against pagaie's eager autocast (CPU AMP turned on). Where Paddle's CPU build has no
kernel of the dtype (it then refuses to build the op), the decision comes from Paddle's
lists (``paddle.amp.amp_lists``) and the Python API's choice of op.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from pagaie.amp import state
from tests.reference import paddle_ref, static_mode


@pytest.fixture(autouse=True)
def _cpu_amp():
    prev = state.allow_cpu(True)
    yield
    state.allow_cpu(prev)


_X = (np.random.RandomState(0).rand(4, 4) + 0.5).astype("float32")


def static_amp_dtype(fw, fn, dtypes, cfg):
    """The dtype of ``fn(fw, *inputs)`` built in a static program of framework ``fw`` under
    ``auto_cast(**cfg)``, from [4, 4] inputs of ``dtypes``."""
    with warnings.catch_warnings(), static_mode(fw):
        warnings.simplefilter("ignore")
        with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
            ins = [fw.static.data(f"i{k}", [4, 4], d) for k, d in enumerate(dtypes)]
            with fw.amp.auto_cast(**cfg):
                return str(fn(fw, *ins).dtype).replace("paddle.", "")


def _our_dtype(fn, dtypes, cfg):
    ins = [pagaie.to_tensor(_X).astype(d) for d in dtypes]
    with pagaie.amp.auto_cast(**cfg):
        return str(fn(pagaie, *ins).dtype).replace("paddle.", "")


F = lambda pd: pd.nn.functional  # noqa: E731
O1 = dict(level="O1", dtype="bfloat16")
O2 = dict(level="O2", dtype="bfloat16")
OD = dict(level="OD", dtype="bfloat16")
O1H = dict(level="O1", dtype="float16")
BF, F32, H = "bfloat16", "float32", "float16"

CASES = [
    # ops on no list follow their inputs (bmm, mv, multi_dot, bilinear are not white)
    ("bmm", lambda pd, a, b: pd.bmm(a.unsqueeze(0), b.unsqueeze(0)), O1, [F32, F32]),
    ("mv", lambda pd, a, b: pd.mv(a, b[0]), O2, [F32, BF]),
    ("multi_dot", lambda pd, a, b: pd.linalg.multi_dot([a, b]), O1H, [F32, F32]),
    ("bilinear", lambda pd, a, b: F(pd).bilinear(a, b, pd.ones([3, 4, 4])), O1, [F32, F32]),
    ("max_pool2d", lambda pd, a: F(pd).max_pool2d(a.reshape([1, 4, 2, 2]), 2), O1, [F32]),
    ("max_pool1d", lambda pd, a: F(pd).max_pool1d(a.reshape([1, 4, 4]), 2), O1H, [F32]),
    ("pow_tensor", lambda pd, a, b: pd.pow(a, b), O1, [BF, BF]),
    ("var_fp16", lambda pd, a: pd.var(a), O1H, [H]),
    # Paddle's O2 black list is short: O1-black ops follow their inputs there
    ("exp_o2", lambda pd, a: pd.exp(a), O2, [BF]),
    ("l1_loss_o2", lambda pd, a, b: F(pd).l1_loss(a, b), O2, [BF, BF]),
    ("logaddexp_o2", lambda pd, a, b: pd.logaddexp(a, b), O2, [BF, BF]),
    ("cos_sim_o2_nopromote", lambda pd, a, b: F(pd).cosine_similarity(a, b),
     dict(O2, use_promote=False), [F32, F32]),
    # layer_norm decides by x alone (float32 scale/bias do not promote it)
    ("layer_norm_o2", lambda pd, a: F(pd).layer_norm(a, [4], pd.ones([4]), pd.zeros([4])), O2, [BF]),
    # OD: every op off the white list runs in float32, low inputs included
    ("add_od", lambda pd, a, b: a + b, OD, [BF, BF]),
    ("transpose_od", lambda pd, a: a.T, OD, [BF]),
    ("matmul_od", lambda pd, a, b: pd.matmul(a, b), OD, [F32, F32]),
    # an input of the other low dtype is cast too: to the AMP dtype, or float32 for black ops
    ("add_other_low", lambda pd, a, b: a + b, O1, [H, H]),
    ("exp_other_low", lambda pd, a: pd.exp(a), O1, [H]),
    ("transpose_other_low", lambda pd, a: a.T, O1H, [BF]),
    ("sum_other_low_o2", lambda pd, a: a.sum(), O2, [H]),
    # unchanged decisions
    ("matmul", lambda pd, a, b: pd.matmul(a, b), O1, [F32, F32]),
    ("softmax", lambda pd, a: F(pd).softmax(a), O1, [BF]),
    ("concat_mixed", lambda pd, a, b: pd.concat([a, b]), O1, [F32, BF]),
    ("concat_mixed_o2", lambda pd, a, b: pd.concat([a, b]), O2, [BF, F32]),
    ("float64_kept", lambda pd, a, b: a + b, O1, ["float64", "float64"]),
]


@pytest.mark.parametrize("name,fn,cfg,dtypes", CASES, ids=[c[0] for c in CASES])
def test_op_dtype_decision_matches_paddle(name, fn, cfg, dtypes):
    assert _our_dtype(fn, dtypes, cfg) == static_amp_dtype(paddle_ref(), fn, dtypes, cfg)


def _lists():
    lists = paddle_ref().amp.amp_lists
    return lists.white_list()["bfloat16"]["O1"], lists.black_list()["bfloat16"]["O1"]


def test_depthwise_conv2d_is_not_white():
    # Paddle's GPU F.conv2d runs depthwise_conv2d (on no list) when groups == channels:
    # float32 inputs stay float32, a plain conv2d (white) runs in bfloat16
    white, black = _lists()
    assert "depthwise_conv2d" not in white | black and "conv2d" in white
    x, w = pagaie.rand([1, 4, 4, 4]), pagaie.rand([4, 1, 2, 2])
    with pagaie.amp.auto_cast(**O1):
        assert pagaie.nn.functional.conv2d(x, w, groups=4).dtype == pagaie.float32
        assert pagaie.nn.functional.conv2d(x, pagaie.rand([2, 4, 2, 2])).dtype == pagaie.bfloat16
        assert pagaie.nn.functional.conv1d(pagaie.rand([1, 4, 8]), pagaie.rand([4, 1, 2]),
                                           groups=4).dtype == pagaie.float32


def test_max_pool_with_mask_is_white():
    # return_mask=True runs max_pool2d_with_index (white; Paddle's CPU has no bf16 kernel)
    white, _ = _lists()
    assert "max_pool2d_with_index" in white and "pool2d" not in white
    x = pagaie.rand([1, 4, 2, 2])
    with pagaie.amp.auto_cast(**O1):
        out, mask = pagaie.nn.functional.max_pool2d(x, 2, return_mask=True)
        assert out.dtype == pagaie.bfloat16 and mask.dtype == pagaie.int32
        assert pagaie.nn.functional.max_pool2d(x, 2).dtype == pagaie.float32


@pytest.mark.parametrize("call", [
    lambda x: pagaie.logsumexp(x), lambda x: pagaie.logcumsumexp(x, axis=1),
    lambda x: pagaie.nn.functional.log_sigmoid(x), lambda x: pagaie.std(x),
    lambda x: pagaie.nn.functional.kl_div(x, x), lambda x: pagaie.nn.functional.binary_cross_entropy(x * 0.5, x * 0.5),
    lambda x: pagaie.nn.functional.normalize(x), lambda x: pagaie.linalg.norm(x),
])
def test_ops_off_the_lists_keep_bfloat16_inputs(call):
    # logsumexp, logcumsumexp, logsigmoid, std, kldiv_loss, bce_loss, p_norm, bmm: on no list
    # (bmm has no bfloat16 CPU kernel in Paddle, so it is not called here)
    white, black = _lists()
    assert not {"logsumexp", "logcumsumexp", "logsigmoid", "std", "var", "kldiv_loss", "bce_loss",
                "p_norm", "bmm"} & (white | black)
    x = pagaie.to_tensor(_X).astype("bfloat16")
    with pagaie.amp.auto_cast(**O1):
        assert call(x).dtype == pagaie.bfloat16


def test_frobenius_norm_over_two_axes_is_black():
    _, black = _lists()
    assert "frobenius_norm" in black
    x = pagaie.to_tensor(_X).astype("bfloat16")
    with pagaie.amp.auto_cast(**O1):
        assert pagaie.linalg.norm(x, p="fro", axis=[0, 1]).dtype == pagaie.float32
        assert pagaie.linalg.norm(x, p=2, axis=1).dtype == pagaie.bfloat16


def test_custom_lists_reach_argument_dependent_ops():
    x = pagaie.rand([1, 4, 2, 2])
    with pagaie.amp.auto_cast(custom_white_list={"pool2d"}, **O1):
        assert pagaie.nn.functional.max_pool2d(x, 2).dtype == pagaie.bfloat16
    with pagaie.amp.auto_cast(custom_black_list={"max_pool2d_with_index"}, **O1):
        assert pagaie.nn.functional.max_pool2d(x, 2, return_mask=True)[0].dtype == pagaie.float32


def test_linalg_without_low_kernels_stays_float32_at_o2():
    x = pagaie.to_tensor(_X).astype("bfloat16")
    with pagaie.amp.auto_cast(**O2):
        assert pagaie.linalg.det(x).dtype == pagaie.float32
        assert pagaie.linalg.svd(x)[1].dtype == pagaie.float32
