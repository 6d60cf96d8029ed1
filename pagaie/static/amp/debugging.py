"""``paddle.static.amp.debugging``: operator statistics of mixed-precision runs.

``collect_operator_stats`` is the same context manager as
``paddle.amp.debugging.collect_operator_stats`` (it counts the ops run, per dtype).
"""
from pagaie.amp.debugging import collect_operator_stats  # noqa: F401

__all__ = ["collect_operator_stats"]
