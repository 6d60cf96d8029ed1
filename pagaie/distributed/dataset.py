"""Parameter-server datasets and sparse-table entry policies."""
from __future__ import annotations

from typing import Any

__all__ = ["InMemoryDataset", "QueueDataset", "CountFilterEntry", "ProbabilityEntry", "ShowClickEntry"]

_PS = ("is used by parameter-server training (Executor.train_from_dataset), which pagaie does not support; "
       "use paddle.io.Dataset with paddle.io.DataLoader")


class InMemoryDataset:
    """Parameter-server dataset loaded into memory (not supported)."""

    def __init__(self) -> None:
        raise NotImplementedError(f"paddle.distributed.InMemoryDataset {_PS}")


class QueueDataset:
    """Parameter-server streaming dataset (not supported)."""

    def __init__(self) -> None:
        raise NotImplementedError(f"paddle.distributed.QueueDataset {_PS}")


class _Entry:
    _name = ""

    def _to_attr(self) -> str:
        raise NotImplementedError



class CountFilterEntry(_Entry):
    """Admit a sparse feature into the table after ``count_filter`` occurrences.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.CountFilterEntry(5)._to_attr()
        'count_filter_entry:5'
    """

    def __init__(self, count_filter: int) -> None:
        if not isinstance(count_filter, int) or count_filter < 0:
            raise ValueError(f"paddle.distributed.CountFilterEntry: count_filter must be a non-negative int, "
                             f"but received {count_filter!r}")
        self._name = "count_filter_entry"
        self._count_filter = count_filter

    def _to_attr(self) -> str:
        return f"{self._name}:{self._count_filter}"


class ProbabilityEntry(_Entry):
    """Admit a sparse feature into the table with probability ``probability``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.ProbabilityEntry(0.5)._to_attr()
        'probability_entry:0.5'
    """

    def __init__(self, probability: float) -> None:
        if not isinstance(probability, float) or not 0 < probability < 1:
            raise ValueError(f"paddle.distributed.ProbabilityEntry: probability must be a float in (0, 1), "
                             f"but received {probability!r}")
        self._name = "probability_entry"
        self._probability = probability

    def _to_attr(self) -> str:
        return f"{self._name}:{self._probability}"


class ShowClickEntry(_Entry):
    """Feed show/click statistics (two variable names) to a sparse table.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.ShowClickEntry("show", "click")._to_attr()
        'show_click_entry:show:click'
    """

    def __init__(self, show_name: Any, click_name: Any) -> None:
        show_name = getattr(show_name, "name", show_name)
        click_name = getattr(click_name, "name", click_name)
        if not isinstance(show_name, str) or not isinstance(click_name, str):
            raise ValueError(f"paddle.distributed.ShowClickEntry: show_name and click_name must be str (or "
                             f"variables with a name), but received {show_name!r} and {click_name!r}")
        self._name = "show_click_entry"
        self._show_name = getattr(show_name, "name", show_name)
        self._click_name = getattr(click_name, "name", click_name)

    def _to_attr(self) -> str:
        return f"{self._name}:{self._show_name}:{self._click_name}"
