"""paddle.reader: the legacy sample-reader decorators.

A *reader* is a callable with no arguments that returns an iterable of samples; each
decorator takes readers and returns a new reader. They predate :mod:`pagaie.io` and are
kept for scripts written against them (``paddle.batch(paddle.reader.shuffle(r, 100), 32)``).

    >>> import pagaie as paddle
    >>> def reader():
    ...     yield from range(4)
    >>> list(paddle.reader.firstn(paddle.reader.chain(reader, reader), 6)())
    [0, 1, 2, 3, 0, 1]
"""
from pagaie.reader import decorator  # noqa: F401
from pagaie.reader.decorator import (  # noqa: F401
    ComposeNotAligned, buffered, cache, chain, compose, firstn, map_readers, multiprocess_reader, shuffle,
    xmap_readers,
)

# As Paddle, the decorators are reached as attributes only: nothing is exported by ``*``.
__all__: list[str] = []
