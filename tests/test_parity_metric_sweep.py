"""Differential sweep of ``paddle.metric`` against real Paddle 3.3.1.

Accuracy / Precision / Recall / Auc run ``compute`` / ``update`` / ``accumulate`` / ``reset``
/ ``name`` over several batches (numpy and Tensor inputs) in both frameworks; results,
their Python / numpy types and dtypes must agree. The ``accuracy`` op is checked for values,
the ``correct`` / ``total`` outputs and the exception types of bad input.
"""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

RNG = np.random.RandomState(0)
P1 = RNG.rand(6, 5).astype("float32")
Y1 = RNG.randint(0, 5, (6, 1)).astype("int64")
P2 = RNG.rand(7, 5).astype("float32")
Y2 = RNG.randint(0, 5, (7, 1)).astype("int64")


def plain(v):
    """A comparable form of a metric result: type name plus value (tensors as arrays)."""
    if isinstance(v, (list, tuple)):
        return type(v).__name__, [plain(e) for e in v]
    if hasattr(v, "numpy") and not isinstance(v, np.ndarray):
        return "Tensor", str(v.dtype).split(".")[-1], np.asarray(v.numpy()).round(6).tolist()
    if isinstance(v, np.ndarray):
        return "ndarray", str(v.dtype), v.round(6).tolist()
    if isinstance(v, (float, np.floating)):
        return type(v).__name__, round(float(v), 10)
    return type(v).__name__, v


ACCURACY_CASES = {
    "top1": dict(topk=(1,)),
    "top12_named": dict(topk=(1, 2), name="a"),
    "top3_list": dict(topk=[3]),
    "top13_numpy_update": dict(topk=(1, 3), numpy_update=True),
    "label_1d": dict(topk=(1, 2), label=lambda y: y[:, 0]),
    "label_int32": dict(topk=(1, 2), label=lambda y: y.astype("int32")),
    "label_onehot": dict(topk=(1, 2), label=lambda y: np.eye(5, dtype="float32")[y[:, 0]]),
    "pred_float64": dict(topk=(1, 2), pred=lambda p: p.astype("float64")),
    "topk_above_classes": dict(topk=(1, 7)),
}


@pytest.mark.parametrize("case", sorted(ACCURACY_CASES))
def test_accuracy_metric_batches_match_paddle(case):
    cfg = dict(ACCURACY_CASES[case])
    label = cfg.pop("label", lambda y: y)
    pred = cfg.pop("pred", lambda p: p)
    numpy_update = cfg.pop("numpy_update", False)

    def run(fw):
        m = fw.metric.Accuracy(**cfg)
        out = [m.name()]
        for p, y in ((P1, Y1), (P2, Y2)):
            c = m.compute(fw.to_tensor(pred(p)), fw.to_tensor(label(y)))
            out += [plain(c), plain(m.update(c.numpy() if numpy_update else c)),
                    plain(m.accumulate())]
        out += [plain(m.total), plain(m.count)]
        m.reset()
        return out + [plain(m.accumulate()), plain(m.total)]

    ours, theirs = both(run)
    assert ours == theirs


def test_accuracy_metric_ties_3d_and_names_match_paddle():
    def run(fw):
        m = fw.metric.Accuracy((1, 2))
        ties = m.compute(fw.to_tensor([[0.3, 0.3, 0.3, 0.1], [0.5, 0.5, 0.5, 0.5]]),
                         fw.to_tensor([[2], [3]]))
        c3 = m.compute(fw.to_tensor(P1.reshape(2, 3, 5)), fw.to_tensor(Y1.reshape(2, 3, 1)))
        return (plain(ties), plain(c3), plain(m.update(c3)), fw.metric.Accuracy((2,)).name(),
                fw.metric.Accuracy((1, 1)).name(), plain(fw.metric.Accuracy((1, 2)).accumulate()))

    ours, theirs = both(run)
    assert ours == theirs


PR_PREDS = [RNG.rand(8).astype("float32"), RNG.rand(8, 1).astype("float64"),
            np.array([0.5, 0.49, 0.51, 1.5, -0.3], "float32")]
PR_LABELS = [RNG.randint(0, 2, 8).astype("int64"), RNG.randint(0, 2, (8, 1)).astype("int32"),
             np.array([1, 0, 1, 1, 0])]


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
@pytest.mark.parametrize("tensor", [False, True], ids=["numpy", "tensor"])
def test_precision_recall_batches_match_paddle(cls, tensor):
    def run(fw):
        m = getattr(fw.metric, cls)()
        out = [m.name(), getattr(fw.metric, cls)(name="x").name()]
        for p, y in zip(PR_PREDS, PR_LABELS):
            r = m.update(fw.to_tensor(p) if tensor else p, fw.to_tensor(y) if tensor else y)
            out.append((r, m.tp, getattr(m, "fp", None), getattr(m, "fn", None),
                        plain(m.accumulate())))
        m.reset()
        return out + [plain(m.accumulate())]

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
@pytest.mark.parametrize("preds, labels", [
    # more predictions than labels: Paddle walks the labels, sample by sample
    (np.array([0.9, 0.9, 0.1, 0.1]), np.array([1, 1])),
    (np.array([0.9, 0.2, 0.7]), np.array([[1], [1], [0]])),
    (np.array([0.9, 0.9, 2.0]), np.array([2, 1, 2])),
    (np.array([0.9, 0.2]), np.array([True, False])),
    (np.zeros((0,)), np.zeros((0,))),
    (np.array([[0.1, 0.7], [0.2, 0.9]]), np.array([0, 0])),   # Recall: no positive label
    (np.array([0.1, 0.2]), np.array([[1, 0], [0, 1]])),       # Precision: no positive pred
], ids=["more_preds", "label_column", "label_two", "bool_labels", "empty", "two_col_preds",
        "two_col_labels"])
def test_precision_recall_shapes_match_paddle(cls, preds, labels):
    def run(fw):
        m = getattr(fw.metric, cls)()
        m.update(preds, labels)
        return m.tp, getattr(m, "fp", None), getattr(m, "fn", None), m.accumulate()

    several = {"Precision": preds.ndim == 2 and preds.shape[1] > 1,
               "Recall": labels.ndim == 2 and labels.shape[1] > 1}
    if several[cls]:
        same_exception(run)  # several values per sample: ValueError in Paddle
        return
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
@pytest.mark.parametrize("args", [
    ([0.1], [1]), (np.array([0.1]), [1]), (np.float32(0.9), np.int64(1)),
    (np.array(0.9), np.array(1)), (np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1])),
    (np.array([0.9]), np.array([1, 1])),
], ids=["lists", "list_labels", "scalars", "zero_d", "two_col_preds", "fewer_preds"])
def test_precision_recall_errors_match_paddle(cls, args):
    same_exception(lambda fw: getattr(fw.metric, cls)().update(*args))


AUC_PREDS = [RNG.rand(10, 2).astype("float32"), RNG.rand(6, 2).astype("float64")]
AUC_PREDS = [a / a.sum(1, keepdims=True) for a in AUC_PREDS]
AUC_LABELS = [RNG.randint(0, 2, (10, 1)).astype("int64"), RNG.randint(0, 2, 6).astype("int32")]


@pytest.mark.parametrize("num_thresholds", [4095, 10, 1])
@pytest.mark.parametrize("tensor", [False, True], ids=["numpy", "tensor"])
@pytest.mark.parametrize("curve", ["ROC", "PR"])
def test_auc_batches_match_paddle(num_thresholds, tensor, curve):
    def run(fw):
        m = fw.metric.Auc(curve=curve, num_thresholds=num_thresholds)
        out = [m.name(), fw.metric.Auc(name="x").name()]
        for p, y in zip(AUC_PREDS, AUC_LABELS):
            r = m.update(fw.to_tensor(p) if tensor else p, fw.to_tensor(y) if tensor else y)
            out.append((r, plain(m.accumulate()), plain(m._stat_pos), plain(m._stat_neg)))
        m.reset()
        return out + [plain(m.accumulate())]

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("preds, labels", [
    (np.array([[0.2, 0.8]]), np.array([1])),
    (np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([1, 0])),
    (np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]), np.array([2, 0, 1])),
    (np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]), np.array([1, 0])),
    (np.zeros((0, 2)), np.zeros((0, 2))),
], ids=["one_class", "extremes", "label_two", "more_preds", "empty"])
def test_auc_edge_inputs_match_paddle(preds, labels):
    def run(fw):
        m = fw.metric.Auc()
        m.update(preds, labels)
        return plain(m.accumulate()), plain(fw.metric.Auc.trapezoid_area(1, 3, 2, 4))

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("preds, labels", [
    ([[0.2, 0.8]], np.array([1])),
    (np.array([0.2, 0.8]), np.array([1, 0])),
    (np.array([[0.2, 1.8]]), np.array([1])),
    (np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([1, 0, 1])),
    (np.array([[0.2, 0.8]]), np.array([[1, 0]])),
    (np.array([[0.2, np.nan]]), np.array([1])),
    (np.array([[0.2, np.inf]]), np.array([1])),
], ids=["list_preds", "one_d_preds", "above_one", "fewer_preds", "two_col_labels", "nan", "inf"])
def test_auc_errors_match_paddle(preds, labels):
    same_exception(lambda fw: fw.metric.Auc().update(preds, labels))


def test_auc_rejects_negative_scores():
    # Paddle indexes its histogram with a negative bucket, which wraps around to the top
    # buckets (a silent wrong area); pagaie rejects it like a score above 1.
    with pytest.raises(AssertionError, match="Auc.update"):
        pagaie.metric.Auc(num_thresholds=10).update(np.array([[0.2, -0.5], [0.1, 0.9]]),
                                                    np.array([1, 0]))


def test_metric_base_class_matches_paddle():
    same_exception(lambda fw: fw.metric.Metric())
    same_exception(lambda fw: type("M", (fw.metric.Metric,), {"reset": lambda s: None})())

    def compute(fw):
        cls = type("M", (fw.metric.Metric,), {"reset": lambda s: None,
                                              "update": lambda s, *a: None,
                                              "accumulate": lambda s: 1, "name": lambda s: "m"})
        return cls().compute(1, 2)

    ours, theirs = both(compute)
    assert ours == theirs


@pytest.mark.parametrize("k, label_dtype, pred_dtype", [
    (1, "int64", "float32"), (3, "int64", "float32"), (2, "int32", "float32"),
    (5, "int64", "float64"),
])
def test_accuracy_op_matches_paddle(k, label_dtype, pred_dtype):
    def run(fw):
        correct, total = fw.zeros([1], "int32"), fw.zeros([1], "int32")
        acc = fw.metric.accuracy(fw.to_tensor(P1.astype(pred_dtype)),
                                 fw.to_tensor(Y1.astype(label_dtype)), k=k,
                                 correct=correct, total=total)
        return acc, correct, total

    ours, theirs = both(run)
    assert_same(ours, theirs)
    assert ours[0].stop_gradient == theirs[0].stop_gradient


@pytest.mark.parametrize("dtype, shape", [("int64", [1]), ("float32", [2, 2]), ("int32", [])])
def test_accuracy_op_counts_become_int32_scalars_like_paddle(dtype, shape):
    def run(fw):
        correct, total = fw.zeros(shape, dtype), fw.zeros(shape, dtype)
        fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(Y1), k=2, correct=correct, total=total)
        return correct, total

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_accuracy_op_ties_and_large_labels_match_paddle():
    def run(fw):
        ties = fw.metric.accuracy(fw.to_tensor(np.array([[1.0, 1.0, 0.0], [0.5, 0.5, 0.5]],
                                                        "float32")),
                                  fw.to_tensor(np.array([[1], [2]])))
        big = fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(Y1 + 5))
        return ties, big

    ours, theirs = both(run)
    assert_same(ours, theirs)


ACCURACY_ERRORS = {
    "k_zero": lambda fw: fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(Y1), k=0),
    "k_too_big": lambda fw: fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(Y1), k=6),
    "label_1d": lambda fw: fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(Y1[:, 0])),
    "label_two_columns": lambda fw: fw.metric.accuracy(
        fw.to_tensor(P1), fw.to_tensor(np.concatenate([Y1, Y1], 1))),
    "label_float": lambda fw: fw.metric.accuracy(fw.to_tensor(P1),
                                                 fw.to_tensor(Y1.astype("float32"))),
    "label_negative": lambda fw: fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(-Y1 - 1)),
    "rows": lambda fw: fw.metric.accuracy(fw.to_tensor(P1), fw.to_tensor(Y1[:4])),
    "input_1d": lambda fw: fw.metric.accuracy(fw.to_tensor(P1[0]), fw.to_tensor(Y1)),
    "input_3d": lambda fw: fw.metric.accuracy(fw.to_tensor(P1.reshape(2, 3, 5)),
                                              fw.to_tensor(Y1.reshape(2, 3, 1))),
    "input_int": lambda fw: fw.metric.accuracy(fw.to_tensor((P1 * 10).astype("int64")),
                                               fw.to_tensor(Y1)),
    "input_numpy": lambda fw: fw.metric.accuracy(P1, Y1),
}


@pytest.mark.parametrize("name", sorted(ACCURACY_ERRORS))
def test_accuracy_op_errors_match_paddle(name):
    same_exception(ACCURACY_ERRORS[name])
