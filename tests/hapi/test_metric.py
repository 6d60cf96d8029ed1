"""paddle.metric against real Paddle 3.3.1: Accuracy, Precision, Recall, Auc and accuracy()."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

RNG = np.random.RandomState(1)
SCORES = RNG.rand(3, 6, 5).astype("float32")            # 3 batches of 6 samples, 5 classes
LABELS = RNG.randint(0, 5, (3, 6, 1)).astype("int64")
PROBS = RNG.rand(3, 10).astype("float32")
BINARY = RNG.randint(0, 2, (3, 10)).astype("int64")


def _stream(fw, metric_factory, batches):
    m = metric_factory(fw)
    per_batch = [m.update(*args(fw)) for args in batches]
    return per_batch, m.accumulate(), m.name()


@pytest.mark.parametrize("topk", [(1,), (1, 3), (2, 5)])
@pytest.mark.parametrize("label_form", ["index", "flat", "onehot"])
def test_accuracy_matches_paddle(topk, label_form):
    paddle = paddle_ref()

    def label(fw, i):
        if label_form == "flat":
            return fw.to_tensor(LABELS[i, :, 0])
        if label_form == "onehot":
            return fw.to_tensor(np.eye(5, dtype="float32")[LABELS[i, :, 0]])
        return fw.to_tensor(LABELS[i])

    results = {}
    for fw in (pagaie, paddle):
        m = fw.metric.Accuracy(topk=topk, name="a" if len(topk) > 1 else None)
        per_batch = []
        for i in range(3):
            correct = m.compute(fw.to_tensor(SCORES[i]), label(fw, i))
            assert correct.dtype == fw.float32 and list(correct.shape) == [6, max(topk)]
            per_batch.append(m.update(correct))
        results[fw] = per_batch, m.accumulate(), m.name(), correct.numpy()
        m.reset()
        results[fw] += (m.accumulate(),)
    ours, theirs = results[pagaie], results[paddle]
    np.testing.assert_allclose(ours[0], theirs[0])
    np.testing.assert_allclose(ours[1], theirs[1])
    assert ours[2] == theirs[2]
    np.testing.assert_array_equal(ours[3], theirs[3])
    assert ours[4] == theirs[4]
    assert type(ours[1]) is type(theirs[1])


@pytest.mark.parametrize("name", ["Precision", "Recall"])
@pytest.mark.parametrize("shape", ["flat", "column"])
def test_precision_recall_match_paddle(name, shape):
    paddle = paddle_ref()

    def batch(i):
        p, y = PROBS[i], BINARY[i]
        return (p, y) if shape == "flat" else (p[:, None], y[:, None])

    got = {}
    for fw in (pagaie, paddle):
        m = getattr(fw.metric, name)()
        for i in range(3):
            p, y = batch(i)
            m.update(p if i else fw.to_tensor(p), y if i else fw.to_tensor(y))
        got[fw] = m.accumulate(), m.name()
        m.reset()
        got[fw] += (m.accumulate(),)
    assert got[pagaie] == pytest.approx(got[paddle])
    with pytest.raises(ValueError):
        getattr(pagaie.metric, name)().update([0.5], np.array([1]))


@pytest.mark.parametrize("num_thresholds", [4095, 7])
def test_auc_matches_paddle(num_thresholds):
    paddle = paddle_ref()
    got = {}
    for fw in (pagaie, paddle):
        m = fw.metric.Auc(num_thresholds=num_thresholds)
        for i in range(3):
            preds = np.stack([1 - PROBS[i], PROBS[i]], axis=1)
            m.update(preds, BINARY[i][:, None] if i % 2 else fw.to_tensor(BINARY[i]))
        got[fw] = m.accumulate(), m.name()
        m.reset()
        got[fw] += (m.accumulate(),)
    assert got[pagaie][0] == pytest.approx(got[paddle][0], rel=1e-12)
    assert got[pagaie][1:] == got[paddle][1:]


def test_metric_base_is_abstract():
    with pytest.raises(TypeError):
        pagaie.metric.Metric()
    m = pagaie.metric.Precision()
    assert pagaie.metric.Metric.compute(m, 1, 2) == (1, 2)


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("dtypes", [("float32", "int64"), ("float64", "int32")])
def test_accuracy_op_matches_paddle(k, dtypes):
    x = np.array([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0], [0.3, 0.35, 0.4], [0.5, 0.1, 0.2]])
    y = np.array([[1], [1], [0], [2]])
    ours, theirs = both(lambda fw: fw.metric.accuracy(fw.to_tensor(x.astype(dtypes[0])),
                                                      fw.to_tensor(y.astype(dtypes[1])), k=k))
    assert_same(ours, theirs)


def test_accuracy_op_fills_correct_and_total():
    paddle = paddle_ref()
    x = np.array([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0], [0.3, 0.35, 0.4]], "float32")
    y = np.array([[1], [1], [0]])
    for fw in (pagaie, paddle):
        c, t = fw.zeros([1], "int32"), fw.zeros([1], "int32")
        acc = fw.metric.accuracy(fw.to_tensor(x), fw.to_tensor(y), k=2, correct=c, total=t)
        assert float(acc) == pytest.approx(2 / 3)
        assert (list(c.shape), c.dtype, int(c), int(t)) == ([], fw.int32, 2, 3)


@pytest.mark.parametrize("case", ["label_1d", "rows", "k_too_big", "input_1d", "float_label"])
def test_accuracy_op_errors_match_paddle(case):
    x = np.random.rand(3, 4).astype("float32")
    y = np.array([[1], [2], [0]])

    def call(fw):
        args = {"label_1d": (x, y[:, 0], 1), "rows": (x, y[:2], 1), "k_too_big": (x, y, 5),
                "input_1d": (x[0], y[:1], 1), "float_label": (x, y.astype("float32"), 1)}[case]
        return fw.metric.accuracy(fw.to_tensor(args[0]), fw.to_tensor(args[1]), k=args[2])

    same_exception(call)
