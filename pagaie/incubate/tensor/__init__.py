"""``paddle.incubate.tensor``: the deprecated segment reductions, the same functions as
``paddle.incubate.segment_sum`` ... (each warns and points to ``paddle.geometric``).

Examples:
    >>> import warnings
    >>> import pagaie as paddle
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     out = paddle.incubate.tensor.segment_sum(paddle.to_tensor([1.0, 2.0, 3.0]),
    ...                                              paddle.to_tensor([0, 0, 1]))
    >>> out.tolist()
    [3.0, 3.0]
"""
from pagaie.incubate import segment_max, segment_mean, segment_min, segment_sum  # noqa: F401

__all__: list[str] = []
