"""Data generators: turn user samples into the MultiSlot text lines that Paddle's datasets read."""
from __future__ import annotations

import sys
from typing import Any, Iterable

__all__ = ["MultiSlotDataGenerator", "MultiSlotStringDataGenerator"]


class _DataGenerator:
    def __init__(self) -> None:
        self._proto_info = None
        self.batch_size_ = 32

    def set_batch(self, batch_size: int) -> None:
        self.batch_size_ = batch_size

    def generate_sample(self, line: str) -> Any:
        """Override: return a function yielding samples ``[(slot_name, [values...]), ...]`` for ``line``."""
        raise NotImplementedError("paddle.distributed.fleet.DataGenerator.generate_sample: override this method "
                                  "to yield samples for one input line")

    def generate_batch(self, samples: list) -> Any:
        """Override to post-process a batch of samples; by default yields them unchanged."""
        def local_iter():
            yield from samples
        return local_iter

    def _lines(self, lines: Iterable[str]) -> Iterable[str]:
        batch: list = []
        for line in lines:
            for sample in self.generate_sample(line)():
                if sample is None:
                    continue
                batch.append(sample)
                if len(batch) == self.batch_size_:
                    for s in self.generate_batch(batch)():
                        yield self._gen_str(s)
                    batch = []
        if batch:
            for s in self.generate_batch(batch)():
                yield self._gen_str(s)

    def run_from_memory(self) -> None:
        """Generate from ``generate_sample(None)`` and print the lines to stdout."""
        for out in self._lines([None]):
            sys.stdout.write(out)

    def run_from_stdin(self) -> None:
        """Read lines from stdin, generate samples and print the lines to stdout."""
        for out in self._lines(sys.stdin):
            sys.stdout.write(out)

    def _gen_str(self, line: Any) -> str:
        raise NotImplementedError


class MultiSlotDataGenerator(_DataGenerator):
    """Writes each sample ``[(name, [numbers...]), ...]`` as ``"<len> v1 v2 ... <len> ..."``.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> fleet.MultiSlotDataGenerator()._gen_str([("words", [1, 2]), ("label", [0])])
        '2 1 2 1 0\\n'
    """

    def _gen_str(self, line: Any) -> str:
        if not isinstance(line, (list, tuple)):
            raise ValueError("paddle.distributed.fleet.MultiSlotDataGenerator: a sample must be a list of "
                             f"(name, values) pairs, but received {type(line).__name__}")
        out = []
        for item in line:
            name, elements = item
            if not elements:
                raise ValueError(f"paddle.distributed.fleet.MultiSlotDataGenerator: slot {name!r} has no values")
            for e in elements:
                if not isinstance(e, (int, float)):
                    raise ValueError(f"paddle.distributed.fleet.MultiSlotDataGenerator: slot {name!r} values must "
                                     f"be int or float, but received {type(e).__name__}")
            out.append(str(len(elements)))
            out.extend(str(e) for e in elements)
        return " ".join(out) + "\n"


class MultiSlotStringDataGenerator(_DataGenerator):
    """Like :class:`MultiSlotDataGenerator` but the values are strings written as they are.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> fleet.MultiSlotStringDataGenerator()._gen_str([("words", ["a", "b"])])
        '2 a b\\n'
    """

    def _gen_str(self, line: Any) -> str:
        out = []
        for name, elements in line:
            out.append(str(len(elements)))
            out.extend(str(e) for e in elements)
        return " ".join(out) + "\n"
