"""Streaming evaluation metrics: ``Metric`` and its Accuracy / Precision / Recall / Auc.

A metric accumulates statistics over batches: ``compute`` (optional) turns network outputs
and labels into per-sample values with tensor ops, ``update`` folds one batch of them (numpy
arrays or Tensors) into the running state and returns the batch's value, ``accumulate``
returns the value over everything seen since ``reset``.
"""
from __future__ import annotations

import abc
import operator
from typing import Any, Sequence

import numpy as np

from pagaie._core.tensor import Tensor

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc"]


def _as_numpy(value: Any, what: str, api: str) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return value
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")


def _one_value_error(api: str, what: str, size: int) -> ValueError:
    return ValueError(f"paddle.metric.{api}.update: each sample of '{what}' must hold one value, "
                      f"but received {size}")


def _per_sample(hard: np.ndarray, labels: np.ndarray, api: str, first: str) -> tuple[np.ndarray, np.ndarray]:
    """The rounded predictions and the labels as ``[N, values]`` arrays, with Paddle's errors.

    Paddle walks the labels sample by sample, comparing first the ``first`` array's sample
    (``'preds'`` for Precision, ``'labels'`` for Recall) with 1, then both samples when that
    holds: a sample of several values fails (ValueError) when it is compared, and a missing
    prediction (fewer predictions than labels) fails (IndexError) when it is reached. The
    checks below raise the error Paddle meets first."""
    n, m = labels.shape[0], hard.shape[0]
    if n == 0:
        return np.zeros((0, 1), hard.dtype), np.zeros((0, 1), labels.dtype)
    if m == 0:
        raise IndexError(f"paddle.metric.{api}.update: 'preds' has 0 samples but 'labels' has {n}")
    k = min(m, n)
    hard, truth = hard[:k].reshape(k, -1), labels[:k].reshape(k, -1)
    lead, other = (hard, truth) if first == "preds" else (truth, hard)
    if lead.shape[1] != 1:
        raise _one_value_error(api, first, lead.shape[1])
    if (lead[:, 0] == 1).any() and other.shape[1] != 1:
        raise _one_value_error(api, "labels" if first == "preds" else "preds", other.shape[1])
    if m < n:
        raise IndexError(f"paddle.metric.{api}.update: 'preds' has {m} samples but 'labels' has {n}")
    return hard, truth


class Metric(metaclass=abc.ABCMeta):
    """Base class of metrics: subclasses implement ``reset``, ``update``, ``accumulate`` and
    ``name``; ``compute`` may preprocess the network outputs and labels with tensor ops.

    ``paddle.Model`` calls ``compute(*outputs, *labels)`` for each batch, converts its
    results to numpy and passes them to ``update``; ``accumulate`` gives the epoch's value
    under the name(s) ``name()`` returns.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> class MeanError(paddle.metric.Metric):
        ...     def __init__(self):
        ...         self.reset()
        ...     def reset(self):
        ...         self.total, self.count = 0.0, 0
        ...     def update(self, err):
        ...         self.total += float(np.sum(err)); self.count += err.size
        ...     def accumulate(self):
        ...         return self.total / self.count
        ...     def name(self):
        ...         return 'mean_error'
        >>> m = MeanError()
        >>> m.update(np.array([1.0, 3.0]))
        >>> m.accumulate()
        2.0
    """

    def __init__(self) -> None:
        pass

    @abc.abstractmethod
    def reset(self) -> None:
        """Clear the accumulated state."""
        raise NotImplementedError(f"function 'reset' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def update(self, *args: Any) -> Any:
        """Fold one batch of (computed) values into the state."""
        raise NotImplementedError(f"function 'update' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def accumulate(self) -> Any:
        """The metric over everything seen since the last ``reset``."""
        raise NotImplementedError(
            f"function 'accumulate' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def name(self) -> Any:
        """The metric's name (a str, or a list of str for several values)."""
        raise NotImplementedError(f"function 'name' not implemented in {self.__class__.__name__}.")

    def compute(self, *args: Any) -> Any:
        """Preprocess network outputs and labels with tensor ops; by default returns them as is."""
        return args


class Accuracy(Metric):
    """Top-k classification accuracy.

    Args:
        topk (list[int]|tuple[int], optional): the k values to report. Default (1,).
        name (str, optional): the metric name; ``'acc'`` by default, suffixed with
            ``_top{k}`` for each k when any k is above 1.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> pred = paddle.to_tensor([[0.1, 0.7, 0.2], [0.6, 0.3, 0.1], [0.2, 0.3, 0.5]])
        >>> label = paddle.to_tensor([[1], [1], [0]])
        >>> m = paddle.metric.Accuracy(topk=(1, 2))
        >>> correct = m.compute(pred, label)
        >>> [round(float(a), 4) for a in m.update(correct)]
        [0.3333, 0.6667]
        >>> m.name()
        ['acc_top1', 'acc_top2']
    """

    def __init__(self, topk: Sequence[int] = (1,), name: str | None = None, *args: Any,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.topk = topk
        self.maxk = max(topk)
        base = name or "acc"
        self._name = [f"{base}_top{k}" for k in topk] if self.maxk != 1 else [base]
        self.reset()

    def compute(self, pred: Tensor, label: Tensor, *args: Any) -> Tensor:
        """Per-sample hits of the ``maxk`` best classes: a float32 ``[N, maxk]`` tensor whose
        entry ``j`` is 1 when the j-th ranked class is the label.

        ``label`` holds class indices (``[N]`` or ``[N, 1]``) or one-hot / soft labels
        (``[N, C]``, reduced with argmax).
        """
        import pagaie as paddle

        if not isinstance(self.maxk, (int, np.integer)):  # Paddle's slice takes integer ends only
            raise TypeError(f"paddle.metric.Accuracy.compute: 'topk' must hold integers, but received "
                            f"{self.topk!r}")
        order = paddle.argsort(pred, axis=-1, descending=True)[..., :self.maxk]
        if label.ndim == 1 or (label.ndim == 2 and label.shape[-1] == 1):
            label = paddle.reshape(label, (-1, 1))
        elif label.shape[-1] != 1:
            label = paddle.argmax(label, axis=-1, keepdim=True)
        return paddle.cast(order == label.astype(order.dtype), "float32")

    def update(self, correct: Any, *args: Any) -> float | list[float]:
        """Fold one batch of ``compute`` results in; returns the batch's accuracy (a list
        when several k are tracked)."""
        # numpy arrays and Tensors only: as in Paddle, a list has no ``shape`` (AttributeError)
        correct = correct.numpy() if isinstance(correct, Tensor) else correct
        num_samples = np.prod(np.array(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            hits = correct[..., :k].sum()
            accs.append(float(hits) / num_samples)
            self.total[i] += hits
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        """Clear the running counts."""
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self) -> float | list[float]:
        """Accuracy over all batches since ``reset`` (a list when several k are tracked)."""
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self) -> list[str]:
        """The reported names, one per k."""
        return self._name


class Precision(Metric):
    """Precision of a binary classifier: true positives over predicted positives.

    Predictions are probabilities of the positive class, rounded at 0.5.

    Args:
        name (str, optional): the metric name. Default 'precision'.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> m = paddle.metric.Precision()
        >>> m.update(np.array([0.1, 0.5, 0.6, 0.9]), np.array([0, 1, 1, 0]))
        >>> m.accumulate()
        0.6666666666666666
    """

    def __init__(self, name: str = "precision", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        """Count one batch: ``preds`` ``[N]`` or ``[N, 1]`` probabilities, ``labels`` 0/1."""
        preds = _as_numpy(preds, "preds", "Precision")
        labels = _as_numpy(labels, "labels", "Precision")
        hard, truth = _per_sample(np.floor(preds + 0.5).astype("int32"), labels, "Precision", "preds")
        positive = hard[:, 0] == 1
        self.tp += int(np.sum(positive & (hard[:, 0] == truth[:, 0])))
        self.fp += int(np.sum(positive & (hard[:, 0] != truth[:, 0])))

    def reset(self) -> None:
        """Clear the counts."""
        self.tp = 0
        self.fp = 0

    def accumulate(self) -> float:
        """tp / (tp + fp), or 0.0 when nothing was predicted positive."""
        ap = self.tp + self.fp
        return float(self.tp) / ap if ap != 0 else 0.0

    def name(self) -> str:
        """The metric name."""
        return self._name


class Recall(Metric):
    """Recall of a binary classifier: true positives over actual positives.

    Predictions are probabilities of the positive class, rounded to the nearest integer.

    Args:
        name (str, optional): the metric name. Default 'recall'.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> m = paddle.metric.Recall()
        >>> m.update(np.array([0.1, 0.5, 0.6, 0.9]), np.array([0, 1, 1, 0]))
        >>> m.accumulate()
        0.5
    """

    def __init__(self, name: str = "recall", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        """Count one batch: ``preds`` ``[N]`` or ``[N, 1]`` probabilities, ``labels`` 0/1."""
        preds = _as_numpy(preds, "preds", "Recall")
        labels = _as_numpy(labels, "labels", "Recall")
        hard, truth = _per_sample(np.rint(preds).astype("int32"), labels, "Recall", "labels")
        actual = truth[:, 0] == 1
        self.tp += int(np.sum(actual & (hard[:, 0] == truth[:, 0])))
        self.fn += int(np.sum(actual & (hard[:, 0] != truth[:, 0])))

    def accumulate(self) -> float:
        """tp / (tp + fn), or 0.0 when there was no positive label."""
        total = self.tp + self.fn
        return float(self.tp) / total if total != 0 else 0.0

    def reset(self) -> None:
        """Clear the counts."""
        self.tp = 0
        self.fn = 0

    def name(self) -> str:
        """The metric name."""
        return self._name


class Auc(Metric):
    """Area under the ROC curve, from histograms of the positive-class score.

    Scores are bucketed into ``num_thresholds + 1`` bins; the area is integrated with the
    trapezoid rule from the highest bin down.

    Args:
        curve (str, optional): 'ROC' (default) or 'PR'; only the ROC area is computed, as
            in Paddle.
        num_thresholds (int|Tensor, optional): number of score buckets minus one (a 0-D
            Tensor counts as its value). Default 4095.
        name (str, optional): the metric name. Default 'auc'.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> m = paddle.metric.Auc()
        >>> preds = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> m.update(preds, np.array([[0], [1], [1], [0]]))
        >>> m.accumulate()
        np.float64(0.75)
    """

    def __init__(self, curve: str = "ROC", num_thresholds: int | Tensor = 4095, name: str = "auc",
                 *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._curve = curve
        # A 0-D Tensor counts as its value, as in Paddle
        if isinstance(num_thresholds, Tensor) and num_thresholds.ndim == 0:
            num_thresholds = operator.index(num_thresholds)
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        """Count one batch: ``preds`` ``[N, 2]`` class probabilities (column 1 is the
        positive class), ``labels`` ``[N]`` or ``[N, 1]`` of 0/1."""
        labels = _as_numpy(labels, "labels", "Auc")
        preds = _as_numpy(preds, "preds", "Auc")
        n = len(labels)
        if preds.shape[0] < n:
            raise IndexError(f"paddle.metric.Auc.update: 'preds' has {preds.shape[0]} samples but "
                             f"'labels' has {n}")
        truth = labels.reshape(n, -1) if n else np.zeros((0, 1), labels.dtype)
        if n and truth.shape[1] != 1:
            raise _one_value_error("Auc", "labels", truth.shape[1])
        scores = preds[:n, 1]
        if scores.ndim != 1:
            # Paddle turns each sample's score into a Python number
            raise TypeError(f"paddle.metric.Auc.update: each sample of 'preds' must hold one score "
                            f"per class, but 'preds' has shape {list(preds.shape)}")
        if np.isnan(scores).any():
            raise ValueError("paddle.metric.Auc.update: 'preds' holds NaN, which has no bucket")
        if np.isinf(scores).any():
            raise OverflowError("paddle.metric.Auc.update: 'preds' holds an infinite score")
        bins = (scores * self._num_thresholds).astype(np.int64)
        # Paddle indexes its histogram with the bucket, so a negative score would wrap
        # around to the top buckets; pagaie rejects it like a score above 1.
        if bins.size and (bins.max() > self._num_thresholds or bins.min() < 0):
            raise AssertionError("paddle.metric.Auc.update: 'preds' must be probabilities in [0, 1], "
                                 f"but received values in [{scores.min()}, {scores.max()}]")
        pos = truth[:, 0].astype(bool)
        size = self._num_thresholds + 1
        self._stat_pos += np.bincount(bins[pos], minlength=size)[:size]
        self._stat_neg += np.bincount(bins[~pos], minlength=size)[:size]

    @staticmethod
    def trapezoid_area(x1: float, x2: float, y1: float, y2: float) -> float:
        """Area of a trapezoid with parallel sides y1, y2 between x1 and x2."""
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self) -> float:
        """The ROC area over all batches since ``reset``: a numpy float64 (a Python 0.0
        when a class is absent)."""
        pos = np.cumsum(self._stat_pos[::-1])
        neg = np.cumsum(self._stat_neg[::-1])
        pos_prev = np.concatenate([[0.0], pos[:-1]])
        neg_prev = np.concatenate([[0.0], neg[:-1]])
        # A running (sequential) sum, as Paddle's loop adds the trapezoids one by one; the
        # result stays a numpy float64, as in Paddle.
        auc = np.cumsum(np.abs(neg - neg_prev) * (pos + pos_prev) / 2.0)[-1]
        tot_pos, tot_neg = pos[-1], neg[-1]
        return auc / tot_pos / tot_neg if tot_pos > 0.0 and tot_neg > 0.0 else 0.0

    def reset(self) -> None:
        """Clear the histograms."""
        size = self._num_thresholds + 1
        self._stat_pos = np.zeros(size)
        self._stat_neg = np.zeros(size)

    def name(self) -> str:
        """The metric name."""
        return self._name
