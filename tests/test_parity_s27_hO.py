"""Session-27 parity of ``paddle.metric`` and ``paddle.hapi`` against real Paddle 3.3.1, on
the cases of Paddle's own unit tests (test_metrics, test_accuracy_op, test_model,
test_callback_*, test_hapi_amp): the static-program dtype checks name the public API
(``paddle.metric.accuracy``, not the op record), and the exception types and values those
tests pin."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception, same_static_exception

pytest.importorskip("paddle")

_SCORES = np.array([[0.78, 0.22], [0.62, 0.38], [0.55, 0.45], [0.30, 0.70],
                    [0.14, 0.86], [0.59, 0.41], [0.91, 0.08], [0.16, 0.84]])
_LABELS = np.array([[0], [1], [1], [0], [1], [0], [0], [1]])


@pytest.mark.parametrize("api", ["metric.accuracy", "static.accuracy"])
@pytest.mark.parametrize("dtype", ["int32", "float16"])
def test_static_accuracy_input_dtype(api, dtype):
    def build(fw):
        fn = fw.metric.accuracy if api == "metric.accuracy" else fw.static.accuracy
        fn(fw.static.data("x", [-1, 4], dtype), fw.static.data("label", [-1, 1], "int32"))

    err = same_static_exception(build)
    assert isinstance(err, TypeError)
    assert f"paddle.{api}" in str(err)


@pytest.mark.parametrize("what", ["input", "label"])
def test_static_accuracy_numpy_argument(what):
    def build(fw):
        x = fw.static.data("x", [-1, 4], "float32")
        label = fw.static.data("label", [-1, 1], "int32")
        if what == "input":
            x = np.array([[-1.0]])
        else:
            label = np.array([[1]])
        fw.metric.accuracy(x, label)

    assert "paddle.metric.accuracy" in str(same_static_exception(build))


@pytest.mark.parametrize("squeeze", [False, True])
def test_accuracy_metric_steps(squeeze):
    def run(fw):
        x = np.array([[0.1, 0.2, 0.3, 0.4], [0.1, 0.4, 0.3, 0.2],
                      [0.1, 0.2, 0.4, 0.3], [0.1, 0.2, 0.3, 0.4]])
        y = np.array([[0], [1], [2], [3]])
        m = fw.metric.Accuracy(name="my_acc")
        correct = m.compute(fw.to_tensor(x), fw.to_tensor(y.squeeze() if squeeze else y))
        first = m.update(correct)
        x[1] = [0.1, 0.3, 0.4, 0.2]
        second = m.update(m.compute(fw.to_tensor(x), fw.to_tensor(y)))
        return m.name(), list(correct.shape), first, second, m.accumulate()

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("metric", ["Precision", "Recall", "Auc"])
def test_binary_metrics_numpy_and_tensor(metric):
    def run(fw):
        m = getattr(fw.metric, metric)()
        if metric == "Auc":
            m.update(_SCORES, _LABELS)
            m.update(fw.to_tensor(_SCORES), fw.to_tensor(_LABELS))
        else:
            m.update(_SCORES[:, 1], _LABELS[:, 0])
            m.update(fw.to_tensor(_SCORES[:, 1:]), fw.to_tensor(_LABELS))
        value = m.accumulate()
        m.reset()
        return value, m.accumulate()

    ours, theirs = both(run)
    np.testing.assert_allclose(ours, theirs)


@pytest.mark.parametrize("input_size, dtypes", [((1, 1, "2"), None), ((-1, -1), None)])
def test_summary_bad_input_size(input_size, dtypes):
    same_exception(lambda fw: fw.summary(fw.nn.GRU(2, 3, 3), input_size, dtypes=dtypes))


@pytest.mark.parametrize("amp", ["O3", {"level": "O3"}, {"level": "O1", "test": 0},
                                 {"level": "O1", "use_fp16_guard": True},
                                 {"level": "O2", "use_pure_fp16": True}])
def test_prepare_bad_amp_configs(amp):
    def run(fw):
        net = fw.nn.Linear(20, 10)
        model = fw.Model(net)
        model.prepare(fw.optimizer.Adam(parameters=net.parameters()),
                      fw.nn.CrossEntropyLoss(), amp_configs=amp)

    assert isinstance(same_exception(run), ValueError)


def test_model_errors_of_paddle_tests():
    same_exception(lambda fw: fw.Model(fw.nn.Linear(20, 10), [fw.static.InputSpec([None, 10], "float32")],
                                       [fw.static.InputSpec([None, 1], "int64", "label")]))
    same_exception(lambda fw: fw.callbacks.ReduceLROnPlateau(factor=2.0))
