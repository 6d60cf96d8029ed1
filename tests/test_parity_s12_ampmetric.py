"""Session-12 sweep of paddle.amp and paddle.metric against real Paddle 3.3.1.

Pins: a convolution's bias is added by a separate ``add`` under autocast (so a float32 bias
promotes the result at O1, and conv1d's squeeze runs in float32 at OD), checked against the
dtypes of Paddle's static ``auto_cast`` programs; the operator-statistics table (names of
Paddle's eager calls, footer line); check_numerics counting float64 in float64;
TensorCheckerConfig / auto_cast / accuracy / Auc / Accuracy.update errors of bad input.
"""
from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest

import pagaie
from pagaie.amp import state
from tests.reference import assert_same, both, paddle_ref, same_exception
from tests.test_parity_s8_amp import static_amp_dtype


@pytest.fixture
def cpu_amp():
    prev = state.allow_cpu(True)
    yield
    state.allow_cpu(prev)


# ---- autocast: the conv bias is a separate add ---------------------------------------------

def _eager_dtype(fn, dtypes, cfg):
    x = (np.random.RandomState(0).rand(4, 4) + 0.5).astype("float32")
    ins = [pagaie.to_tensor(x).astype(d) for d in dtypes]
    with pagaie.amp.auto_cast(**cfg):
        return str(fn(pagaie, *ins).dtype).replace("paddle.", "")


F = lambda fw: fw.nn.functional  # noqa: E731
CONV2D_B = lambda fw, a, b: F(fw).conv2d(a.reshape([1, 1, 4, 4]), b.reshape([1, 1, 4, 4]), b[0, :1])  # noqa: E731
CONV1D_B = lambda fw, a, b: F(fw).conv1d(a.reshape([1, 4, 4]), b.reshape([4, 4, 1]), b[0])  # noqa: E731
CONV1D = lambda fw, a, b: F(fw).conv1d(a.reshape([1, 4, 4]), b.reshape([4, 4, 1]), data_format="NLC")  # noqa: E731
CONV2D = lambda fw, a, b: F(fw).conv2d(a.reshape([1, 1, 4, 4]), b.reshape([1, 1, 4, 4]))  # noqa: E731
CONV_CASES = [
    ("conv2d_bias_o1", CONV2D_B, "O1", ["float32", "float32"]),
    ("conv2d_bias_o2", CONV2D_B, "O2", ["float32", "float32"]),
    ("conv2d_bias_od_low", CONV2D_B, "OD", ["bfloat16", "bfloat16"]),
    ("conv2d_low_bias_o1", CONV2D_B, "O1", ["bfloat16", "bfloat16"]),
    ("conv1d_bias_o1", CONV1D_B, "O1", ["float32", "float32"]),
    ("conv1d_od", CONV1D, "OD", ["float32", "float32"]),
    ("conv2d_no_bias_od", CONV2D, "OD", ["float32", "float32"]),
    ("conv2d_bias_o2_nopromote", CONV2D_B, dict(level="O2", use_promote=False), ["float32", "float32"]),
]


@pytest.mark.parametrize("name,fn,level,dtypes", CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv_bias_is_added_by_its_own_op_under_autocast(name, fn, level, dtypes, cpu_amp):
    """Paddle's conv API runs conv2d (white) and then ``add`` of the bias, which promotes."""
    cfg = dict(level, dtype="bfloat16") if isinstance(level, dict) else dict(level=level, dtype="bfloat16")
    assert _eager_dtype(fn, dtypes, cfg) == static_amp_dtype(paddle_ref(), fn, dtypes, cfg)
    assert static_amp_dtype(pagaie, fn, dtypes, cfg) == static_amp_dtype(paddle_ref(), fn, dtypes, cfg)


def test_conv_with_bias_under_autocast_values_and_gradients(cpu_amp):
    """The conv runs in bfloat16, the bias is added in float32; gradients reach all three."""
    import torch
    rs = np.random.RandomState(1)
    x, w, b = (pagaie.to_tensor(rs.rand(*s).astype("float32")) for s in ([1, 2, 5, 5], [3, 2, 3, 3], [3]))
    for t in (x, w, b):
        t.stop_gradient = False
    with pagaie.amp.auto_cast(dtype="bfloat16"):
        y = pagaie.nn.functional.conv2d(x, w, b, padding=1)
    ref = torch.nn.functional.conv2d(x._t.bfloat16(), w._t.bfloat16(), padding=1).float() + b._t.view(1, -1, 1, 1)
    np.testing.assert_array_equal(y.numpy(), ref.detach().numpy())
    y.sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), [25.0] * 3)
    assert x.grad.dtype == w.grad.dtype == pagaie.float32


# ---- auto_cast arguments -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [3, np.float16, None])
def test_auto_cast_dtype_of_another_type_is_an_attribute_error(dtype):
    """Paddle calls ``dtype.lower()`` on entry: anything but a str or DataType fails there."""
    def f(fw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with fw.amp.auto_cast(dtype=dtype):
                pass
    same_exception(f)


def test_auto_cast_exit_lets_exceptions_through():
    """``__exit__`` returns False: an exception raised in the region propagates."""
    def f(fw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ctx = fw.amp.auto_cast()
            ctx.__enter__()
            return ctx.__exit__(None, None, None)
    ours, theirs = both(f)
    assert ours is False and theirs is False


# ---- debugging -----------------------------------------------------------------------------

def _printed(fw, fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(fw)
    return buf.getvalue()


def _stats_rows(fw, fn):
    """The operator-statistics rows Paddle's recorder holds (it prints them from Python)."""
    D = fw.amp.debugging
    with contextlib.redirect_stdout(io.StringIO()):
        D.enable_operator_stats_collection()
        fn(fw)
        if fw is pagaie:
            rows = {k: ",".join(map(str, v)) for k, v in D._STATS.counts.items()}
        else:
            rows = dict(fw.base.core.get_low_precision_op_list())
        D.disable_operator_stats_collection()
    return rows


_X = np.ones([2, 3, 4], "float32")
STATS_CASES = {
    "linear": lambda fw: fw.nn.functional.linear(fw.to_tensor(_X), fw.ones([4, 5]), fw.ones([5])),
    "linear_no_bias": lambda fw: fw.nn.functional.linear(fw.to_tensor(_X), fw.ones([4, 5])),
    "conv2d_bias": lambda fw: fw.nn.functional.conv2d(fw.to_tensor(_X).unsqueeze(0), fw.ones([2, 2, 1, 1]),
                                                      fw.ones([2])),
    "reshape": lambda fw: fw.to_tensor(_X).reshape([6, 4]),
    "slice": lambda fw: fw.to_tensor(_X)[:, 1:2],
    "split_num": lambda fw: fw.split(fw.to_tensor(_X), 2, axis=-1),
    "pow_scalar": lambda fw: fw.to_tensor(_X) ** 2,
    "neg": lambda fw: -fw.to_tensor(_X),
    "sort": lambda fw: fw.sort(fw.to_tensor(_X)),
    "isnan": lambda fw: fw.isnan(fw.to_tensor(_X)),
    "where": lambda fw: fw.where(fw.to_tensor(_X) > fw.zeros([4]), fw.to_tensor(_X), fw.to_tensor(_X)),
    "embedding": lambda fw: fw.nn.functional.embedding(fw.zeros([2], "int64"), fw.ones([4, 5])),
    "interpolate": lambda fw: fw.nn.functional.interpolate(fw.to_tensor(_X).unsqueeze(0), scale_factor=2),
}


@pytest.mark.parametrize("name", sorted(STATS_CASES))
def test_operator_stats_name_paddles_eager_calls(name):
    """The statistics count the calls Paddle's eager API makes, under Paddle's names."""
    fn = STATS_CASES[name]
    ours, theirs = both(lambda fw: _stats_rows(fw, lambda f: (f.ones([1]), fn(f))))
    assert ours == theirs


def test_operator_stats_table_text():
    """The footer is centred in 120 columns and followed by an empty line; enabling again
    starts the counts afresh."""
    def f(fw):
        D = fw.amp.debugging
        x = fw.ones([2, 2])
        D.enable_operator_stats_collection()
        x.sum()
        D.enable_operator_stats_collection()
        fw.matmul(x, x)
        D.disable_operator_stats_collection()
        with D.collect_operator_stats():
            pass
    ours, theirs = both(lambda fw: _printed(fw, f))
    assert ours == theirs


def test_check_numerics_counts_float64_in_float64(capsys):
    """A float64 value beyond float32's range is finite; max/mean are reported as float32."""
    def f(fw):
        D = fw.amp.debugging
        return D.check_numerics(fw.to_tensor(np.array([1e39, 2.0])), "op", "v", D.DebugMode.CHECK_NAN_INF)
    assert_same(*both(f))


def test_check_numerics_of_a_non_tensor_is_a_value_error():
    """Paddle's argument parser rejects a numpy array with ValueError."""
    same_exception(lambda fw: fw.amp.debugging.check_numerics(np.zeros([2], "float32"), "op", "v"))


@pytest.mark.parametrize("kw", [dict(checked_op_list="exp"), dict(skipped_op_list="log"),
                                dict(debug_mode=3)])
def test_tensor_checker_config_bad_arguments(kw):
    """Op lists must be lists or tuples (ValueError); a debug_mode without ``name`` fails
    when Paddle reads it (AttributeError)."""
    same_exception(lambda fw: fw.amp.debugging.TensorCheckerConfig(enable=False, **kw))


# ---- metric --------------------------------------------------------------------------------

def test_accuracy_op_correct_must_be_a_tensor():
    """``correct`` / ``total`` of another type: Paddle's argument parser raises ValueError."""
    p, y = np.random.RandomState(0).rand(4, 3).astype("float32"), np.array([[0], [1], [2], [0]])
    same_exception(lambda fw: fw.metric.accuracy(fw.to_tensor(p), fw.to_tensor(y), correct=np.zeros(1)))
    same_exception(lambda fw: fw.metric.accuracy(fw.to_tensor(p), fw.to_tensor(y), total=[0]))


def test_accuracy_metric_update_of_a_list_is_an_attribute_error():
    """Accuracy.update reads ``correct.shape``: a Python list has none."""
    same_exception(lambda fw: fw.metric.Accuracy().update([[1.0, 0.0]]))


@pytest.mark.parametrize("tensor", [False, True])
def test_auc_scores_of_more_than_two_dims_are_a_type_error(tensor):
    """Auc turns each sample's positive score into a Python number: a [N, 2, 1] input fails."""
    preds = np.random.RandomState(0).rand(4, 2, 1).astype("float32")
    labels = np.array([0, 1, 1, 0])

    def f(fw):
        p, lab = (fw.to_tensor(preds), fw.to_tensor(labels)) if tensor else (preds, labels)
        fw.metric.Auc().update(p, lab)
    same_exception(f)
