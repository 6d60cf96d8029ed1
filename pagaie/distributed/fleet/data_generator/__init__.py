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
                                  "to return a function yielding samples [(name, [feasign, ...]), ...] for one "
                                  "input line")

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


def _as_sample(line: Any, api: str) -> list:
    if isinstance(line, zip):
        line = list(line)
    if not isinstance(line, (list, tuple)):
        raise ValueError(f"paddle.distributed.fleet.{api}: a sample must be a list or tuple of (name, values) "
                         f"pairs such as [('words', [1926, 8, 17]), ('label', [1])], but received "
                         f"{type(line).__name__}")
    return list(line)


def _check_slot(name: Any, elements: Any, api: str) -> None:
    if not isinstance(name, str):
        raise ValueError(f"paddle.distributed.fleet.{api}: slot names must be str, but received "
                         f"{type(name).__name__} {name!r}")
    if not isinstance(elements, list):
        raise ValueError(f"paddle.distributed.fleet.{api}: the values of slot {name!r} must be a list, "
                         f"but received {type(elements).__name__}")
    if not elements:
        raise ValueError(f"paddle.distributed.fleet.{api}: slot {name!r} has no values; pad it in "
                         "generate_sample")


class MultiSlotDataGenerator(_DataGenerator):
    """Writes each sample ``[(name, [numbers...]), ...]`` as ``"<len> v1 v2 ... <len> ..."``.

    The first sample fixes the slots (``_proto_info``: ``[(name, 'uint64'|'float'), ...]``); a
    slot becomes 'float' once a float value appears in it, and later samples must have the same
    slot names in the same order.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> g = fleet.MultiSlotDataGenerator()
        >>> g._gen_str([("words", [1, 2]), ("label", [0.5])])
        '2 1 2 1 0.5\\n'
        >>> g._proto_info
        [('words', 'uint64'), ('label', 'float')]
    """

    def _gen_str(self, line: Any) -> str:
        api = "MultiSlotDataGenerator"
        line = _as_sample(line, api)
        first = self._proto_info is None
        if first:
            self._proto_info = []
        elif len(line) != len(self._proto_info):
            raise ValueError(f"paddle.distributed.fleet.{api}: a sample has {len(line)} slots but the first one "
                             f"had {len(self._proto_info)} ({[n for n, _ in self._proto_info]})")
        out = []
        for index, (name, elements) in enumerate(line):
            _check_slot(name, elements, api)
            if first:
                self._proto_info.append((name, "uint64"))
            elif name != self._proto_info[index][0]:
                raise ValueError(f"paddle.distributed.fleet.{api}: slot {index} is named {name!r} but the first "
                                 f"sample named it {self._proto_info[index][0]!r}")
            for e in elements:
                if isinstance(e, float):
                    self._proto_info[index] = (name, "float")
                elif not isinstance(e, int):
                    raise ValueError(f"paddle.distributed.fleet.{api}: slot {name!r} values must be int or float, "
                                     f"but received {type(e).__name__}")
            out.append(str(len(elements)))
            out.extend(str(e) for e in elements)
        return " ".join(out) + "\n"


class MultiSlotStringDataGenerator(_DataGenerator):
    """Like :class:`MultiSlotDataGenerator` but the values are strings, written as they are.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> fleet.MultiSlotStringDataGenerator()._gen_str([("words", ["a", "b"])])
        '2 a b\\n'
    """

    def _gen_str(self, line: Any) -> str:
        out = []
        for name, elements in _as_sample(line, "MultiSlotStringDataGenerator"):
            bad = [e for e in elements if not isinstance(e, str)]
            if bad:  # a TypeError, as Paddle's str.join
                raise TypeError(f"paddle.distributed.fleet.MultiSlotStringDataGenerator: slot {name!r} values "
                                f"must be str, but received {type(bad[0]).__name__}")
            out.append(str(len(elements)))
            out.extend(elements)
        return " ".join(out) + "\n"
