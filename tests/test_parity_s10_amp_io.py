"""paddle.save / paddle.load and autocast corners against real Paddle 3.3.1 (session 10).

Autocast decisions are read from Paddle's PIR static ``auto_cast`` (its eager AMP makes
no effect on a CPU place), for ops whose Python API takes the same path on a GPU build.
"""
from __future__ import annotations

import io
import os
import stat
import warnings

import numpy as np
import pytest

import pagaie
from pagaie.amp import state
from tests.reference import assert_same, paddle_ref, same_exception
from tests.test_parity_s8_amp import _X, _our_dtype, static_amp_dtype  # the dtype each framework picks


# ---- save / load -------------------------------------------------------------------------
def _three_in_a_buffer(pd):
    buf = io.BytesIO()
    pd.save(pd.to_tensor([1.0, 2.0]), buf)
    pd.save([pd.to_tensor([3, 4]), 5], buf)
    pd.save({"w": pd.to_tensor([[0.5]])}, buf)
    buf.seek(0)
    return [pd.load(buf) for _ in range(3)]


def test_objects_saved_one_after_another_in_a_buffer_load_in_turn():
    ours, theirs = _three_in_a_buffer(pagaie), _three_in_a_buffer(paddle_ref())
    assert_same(ours[0], theirs[0])
    assert_same(ours[1][0], theirs[1][0]) and ours[1][1] == theirs[1][1] == 5
    assert_same(ours[2]["w"], theirs[2]["w"])


def test_binary_format_reads_the_first_record_of_a_buffer():
    def f(pd):
        buf = io.BytesIO()
        pd.save(pd.to_tensor([1.0, 2.0]), buf, use_binary_format=True)
        pd.save(pd.to_tensor([3.0, 4.0, 5.0]), buf, use_binary_format=True)
        buf.seek(0)
        return pd.load(buf), buf.tell() == len(buf.getvalue())
    ours, theirs = f(pagaie), f(paddle_ref())
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


@pytest.mark.parametrize("case", ["empty_state_dict", "pickle_protocol"])
def test_save_warns_like_paddle(tmp_path, case):
    def f(pd):
        path = str(tmp_path / f"{pd.__name__}.pd")
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            if case == "empty_state_dict":
                pd.save({}, path)
            else:
                pd.save([pd.ones([1])], path, pickle_protocol=2)
            loaded = pd.load(path)
        return loaded, [w for w in rec if issubclass(w.category, UserWarning) and "ccache" not in str(w.message)]
    (ours, ours_w), (theirs, theirs_w) = f(pagaie), f(paddle_ref())
    assert len(ours_w) == len(theirs_w) == 1
    if case == "empty_state_dict":
        assert ours == theirs == {}
    else:
        assert_same(ours[0], theirs[0])


def test_save_to_an_empty_path_is_a_value_error():
    same_exception(lambda pd: pd.save(pd.ones([1]), ""))


def test_saved_file_has_the_permissions_open_gives(tmp_path):
    def mode(pd, name):
        path = str(tmp_path / name)
        pd.save({"w": pd.ones([1])}, path)
        first = stat.S_IMODE(os.stat(path).st_mode)
        os.chmod(path, 0o640)                 # an overwritten file keeps its permissions
        pd.save({"w": pd.ones([1])}, path)
        return first, stat.S_IMODE(os.stat(path).st_mode)
    assert mode(pagaie, "ours") == mode(paddle_ref(), "theirs")


def test_load_of_a_prefix_names_the_full_file(tmp_path):
    pagaie.save({"w": pagaie.ones([1])}, str(tmp_path / "model.pdparams"))
    err = same_exception(lambda pd: pd.load(str(tmp_path / "model")))
    assert "model.pdparams" in str(err)


# ---- autocast decisions ------------------------------------------------------------------
@pytest.fixture
def cpu_amp():
    prev = state.allow_cpu(True)
    yield
    state.allow_cpu(prev)


F = lambda pd: pd.nn.functional  # noqa: E731
O1 = dict(level="O1", dtype="bfloat16")
O1H = dict(level="O1", dtype="float16")
O2 = dict(level="O2", dtype="bfloat16")
O2H_NP = dict(level="O2", dtype="float16", use_promote=False)
OD = dict(level="OD", dtype="bfloat16")
BF, F32, H = "bfloat16", "float32", "float16"

CASES = [
    # *_like: Paddle resolves dtype=None to x.dtype before the op runs
    ("zeros_like_other_low", lambda pd, a: pd.zeros_like(a), O1, [H]),
    ("ones_like_o2_nopromote", lambda pd, a: pd.ones_like(a), O2H_NP, [F32]),
    ("full_like_od", lambda pd, a: pd.full_like(a, 2.0), OD, [BF]),
    ("full_like_fp16_amp", lambda pd, a: pd.full_like(a, 2.0), O1H, [BF]),
    # dropout with p == 0 returns x itself
    ("dropout_p0_other_low", lambda pd, a: F(pd).dropout(a, 0.0), O1, [H]),
    ("dropout_p0_o2", lambda pd, a: F(pd).dropout(a, p=0), O2H_NP, [F32]),
    ("dropout_p0_od", lambda pd, a: F(pd).dropout(a, 0.0), OD, [BF]),
    # inner runs matmul (white) then reshape; at OD the reshape runs in float32
    ("inner_o1", lambda pd, a: pd.inner(a, a), O1, [F32]),
    ("inner_o2", lambda pd, a, b: pd.inner(a, b), O2, [F32, F32]),
    ("inner_od", lambda pd, a: pd.inner(a, a), OD, [F32]),
    ("tensordot_od", lambda pd, a, b: pd.tensordot(a, b, 1), OD, [F32, F32]),
    ("tensordot_od_low", lambda pd, a: pd.tensordot(a, a, 1), OD, [H]),
    ("tensordot_o1", lambda pd, a, b: pd.tensordot(a, b, 1), O1, [F32, F32]),
]


@pytest.mark.parametrize("name,fn,cfg,dtypes", CASES, ids=[c[0] for c in CASES])
def test_autocast_dtype_matches_paddle(name, fn, cfg, dtypes, cpu_amp):
    assert _our_dtype(fn, dtypes, cfg) == static_amp_dtype(paddle_ref(), fn, dtypes, cfg)


def test_dropout_with_p_zero_returns_input_values(cpu_amp):
    x = pagaie.to_tensor(_X).astype("float16")
    with pagaie.amp.auto_cast(dtype="bfloat16"):
        y = F(pagaie).dropout(x, 0.0)
        z = F(pagaie).dropout(x, 0.5, training=False)   # runs the op: cast as Paddle does
    assert y.dtype == pagaie.float16 and z.dtype == pagaie.bfloat16
    np.testing.assert_array_equal(y.numpy(), x.numpy())


def test_inner_with_a_single_element_multiplies(cpu_amp):
    # paddle.inner multiplies when an operand has one element: on no list, float32 stays
    x, s = pagaie.to_tensor(_X[0]), pagaie.to_tensor(2.0)
    with pagaie.amp.auto_cast(dtype="bfloat16"):
        assert pagaie.inner(s, x).dtype == pagaie.float32
        assert pagaie.inner(x, x).dtype == pagaie.bfloat16
    with pagaie.amp.auto_cast(dtype="bfloat16", custom_black_list={"matmul_v2"}):
        assert pagaie.inner(x, x).dtype == pagaie.float32
