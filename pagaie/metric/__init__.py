"""``paddle.metric``: streaming evaluation metrics and the ``accuracy`` op."""
from pagaie.metric.functional import accuracy
from pagaie.metric.metrics import Accuracy, Auc, Metric, Precision, Recall

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
