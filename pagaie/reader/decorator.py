"""Reader decorators: each takes readers (callables returning iterables of samples) and
returns a new reader.

Threads (``buffered``, ``xmap_readers``) and forked processes (``multiprocess_reader``) read
ahead of the consumer; an exception raised while reading or mapping reaches the consumer
instead of leaving it waiting for samples that never come.
"""
from __future__ import annotations

import itertools
import json
import multiprocessing
import random
import sys
import threading
from queue import Queue
from typing import Any, Callable, Iterator, Sequence

__all__: list[str] = []

Reader = Callable[[], Iterator[Any]]

# Seconds ``multiprocess_reader`` (queue mode) waits for the next sample before giving up.
_QUEUE_GET_TIMEOUT = 60


class ComposeNotAligned(ValueError):
    """Raised by a :func:`compose` reader when its readers end at different lengths."""


class _End:
    """Marks the end of a producer thread's samples."""


class _Failed:
    """Carries an exception from a producer thread to the consumer."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def cache(reader: Reader) -> Reader:
    """Read all of ``reader`` now and replay the samples on every call.

    Args:
        reader (callable): the reader to cache.

    Returns:
        callable: a reader over the cached samples.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.reader.cache(lambda: iter([1, 2, 3]))
        >>> list(r()), list(r())
        ([1, 2, 3], [1, 2, 3])
    """
    samples = tuple(reader())

    def cached() -> Iterator[Any]:
        yield from samples

    return cached


def map_readers(func: Callable[..., Any], *readers: Reader) -> Reader:
    """A reader of ``func(a, b, ...)`` over the samples of ``readers`` read in step (it ends
    with the shortest).

    Args:
        func (callable): takes one sample of each reader.
        *readers (callable): the readers.

    Returns:
        callable: the mapped reader.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.reader.map_readers(lambda a, b: a + b, lambda: iter([1, 2]), lambda: iter([10, 20, 30]))
        >>> list(r())
        [11, 22]
    """
    def mapped() -> Iterator[Any]:
        yield from map(func, *[r() for r in readers])

    return mapped


def shuffle(reader: Reader, buf_size: int) -> Reader:
    """Shuffle the samples of ``reader`` within consecutive windows of ``buf_size`` samples
    (the last window may be shorter), with Python's ``random`` module.

    Args:
        reader (callable): the reader to shuffle.
        buf_size (int): samples per shuffled window.

    Returns:
        callable: the shuffled reader.

    Examples:
        >>> import random
        >>> import pagaie as paddle
        >>> random.seed(0)
        >>> sorted(paddle.reader.shuffle(lambda: iter(range(5)), 2)())
        [0, 1, 2, 3, 4]
    """
    def shuffled() -> Iterator[Any]:
        window: list = []
        for sample in reader():
            window.append(sample)
            if len(window) >= buf_size:
                random.shuffle(window)
                yield from window
                window = []
        if window:
            random.shuffle(window)
            yield from window

    return shuffled


def chain(*readers: Reader) -> Reader:
    """A reader of the samples of each of ``readers`` in turn.

    Args:
        *readers (callable): the readers.

    Returns:
        callable: the chained reader.

    Examples:
        >>> import pagaie as paddle
        >>> list(paddle.reader.chain(lambda: iter([1, 2]), lambda: iter([3]))())
        [1, 2, 3]
    """
    def chained() -> Iterator[Any]:
        yield from itertools.chain(*[r() for r in readers])

    return chained


def compose(*readers: Reader, **kwargs: Any) -> Reader:
    """A reader of flat tuples joining one sample of each reader (a tuple sample contributes
    its items, any other sample itself).

    Args:
        *readers (callable): the readers, read in step.
        check_alignment (bool, optional): keyword only; raise :class:`ComposeNotAligned` when
            the readers end at different lengths (otherwise stop at the shortest). Default True.

    Returns:
        callable: the composed reader.

    Examples:
        >>> import pagaie as paddle
        >>> list(paddle.reader.compose(lambda: iter([(1, 2), (3, 4)]), lambda: iter(['a', 'b']))())
        [(1, 2, 'a'), (3, 4, 'b')]
    """
    check_alignment = kwargs.pop("check_alignment", True)

    def flat(samples: tuple) -> tuple:
        return sum((s if isinstance(s, tuple) else (s,) for s in samples), ())

    def composed() -> Iterator[tuple]:
        its = [r() for r in readers]
        if not check_alignment:
            for samples in zip(*its):
                yield flat(samples)
            return
        for samples in itertools.zip_longest(*its):
            # A None fill value means one reader ended before the others.
            if any(s is None for s in samples):
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield flat(samples)

    return composed


def _producer(put: Callable[[Any], None], produce: Callable[[], None]) -> Callable[[], None]:
    """A thread body that runs ``produce`` and then puts the end mark, or the exception that
    stopped it."""
    def run() -> None:
        try:
            produce()
        except BaseException as exc:  # noqa: BLE001  (handed to the consumer)
            put(_Failed(exc))
            return
        put(_End())
    return run


def buffered(reader: Reader, size: int) -> Reader:
    """A reader that reads ``reader`` ahead in a background thread, keeping up to ``size``
    samples waiting (no limit when ``size`` is 0).

    Args:
        reader (callable): the reader to read ahead.
        size (int): the most samples read ahead.

    Returns:
        callable: the buffered reader.

    Examples:
        >>> import pagaie as paddle
        >>> list(paddle.reader.buffered(lambda: iter(range(4)), 2)())
        [0, 1, 2, 3]
    """
    def read_ahead() -> Iterator[Any]:
        q: Queue = Queue(maxsize=size)
        it = reader()

        def produce() -> None:
            for sample in it:
                q.put(sample)

        threading.Thread(target=_producer(q.put, produce), daemon=True).start()
        while True:
            item = q.get()
            if isinstance(item, _End):
                return
            if isinstance(item, _Failed):
                raise item.exc
            yield item

    return read_ahead


def firstn(reader: Reader, n: int) -> Reader:
    """A reader of the first ``n`` samples of ``reader``.

    Args:
        reader (callable): the reader.
        n (int): the number of samples kept.

    Returns:
        callable: the shortened reader.

    Examples:
        >>> import pagaie as paddle
        >>> list(paddle.reader.firstn(lambda: iter(range(10)), 3)())
        [0, 1, 2]
    """
    def first() -> Iterator[Any]:
        for i, sample in enumerate(reader()):
            if i == n:
                break
            yield sample

    return first


def xmap_readers(mapper: Callable[[Any], Any], reader: Reader, process_num: int, buffer_size: int,
                 order: bool = False) -> Reader:
    """A reader of ``mapper(sample)`` over ``reader``, mapped by ``process_num`` threads.

    Args:
        mapper (callable): maps one sample.
        reader (callable): the reader.
        process_num (int): the number of mapping threads.
        buffer_size (int): the most samples waiting to be mapped, and mapped samples waiting
            to be read.
        order (bool, optional): give the results in the order of the samples; otherwise in
            the order they finish. Default False.

    Returns:
        callable: the mapped reader.

    Examples:
        >>> import pagaie as paddle
        >>> list(paddle.reader.xmap_readers(lambda x: x * 2, lambda: iter(range(5)), 2, 4, order=True)())
        [0, 2, 4, 6, 8]
    """
    def xreader() -> Iterator[Any]:
        in_q: Queue = Queue(buffer_size)
        out_q: Queue = Queue(buffer_size)
        turn = threading.Condition()
        next_out = [0]   # with ``order``, the index of the sample whose result goes out next

        def read() -> None:
            for i, sample in enumerate(reader()):
                in_q.put((i, sample))

        def handle() -> None:
            while True:
                item = in_q.get()
                if isinstance(item, (_End, _Failed)):
                    in_q.put(item)   # every mapping thread sees the end
                    if isinstance(item, _Failed):
                        raise item.exc
                    return
                i, sample = item
                result = mapper(sample)
                if not order:
                    out_q.put(result)
                    continue
                with turn:
                    turn.wait_for(lambda: next_out[0] == i)
                    out_q.put(result)
                    next_out[0] += 1
                    turn.notify_all()

        threading.Thread(target=_producer(in_q.put, read), daemon=True).start()
        for _ in range(process_num):
            threading.Thread(target=_producer(out_q.put, handle), daemon=True).start()
        finished = 0
        while finished < process_num:
            item = out_q.get()
            if isinstance(item, _End):
                finished += 1
            elif isinstance(item, _Failed):
                raise item.exc
            else:
                yield item

    return xreader


def multiprocess_reader(readers: Sequence[Reader], use_pipe: bool = True, queue_size: int = 1000) -> Reader:
    """A reader of the samples of ``readers``, each read in its own forked process, in the
    order they arrive.

    Args:
        readers (list|tuple): the readers.
        use_pipe (bool, optional): send samples through pipes as JSON (tuples arrive as
            lists; samples must be JSON-serialisable); otherwise through one
            ``multiprocessing.Queue``. Default True.
        queue_size (int, optional): the queue's capacity when ``use_pipe`` is False. Default 1000.

    Returns:
        callable: the merged reader.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.reader.multiprocess_reader([lambda: iter([1, 2]), lambda: iter([3])])
        >>> sorted(r())
        [1, 2, 3]
    """
    if sys.platform == "win32":
        raise NotImplementedError("The multiprocess_reader method is not supported on windows.")
    assert isinstance(readers, (list, tuple)) and len(readers) > 0, "`readers` must be list or tuple."
    ctx = multiprocessing.get_context("fork")
    failed = ""   # what a process sends after its reader raised (or gave a None sample)

    def read_into_queue(reader: Reader, q: Any) -> None:
        try:
            for sample in reader():
                if sample is None:
                    raise ValueError("sample has None")
                q.put(sample)
            q.put(None)
        except Exception:
            q.put(failed)
            raise

    def queue_reader() -> Iterator[Any]:
        q = ctx.Queue(queue_size)
        procs = [ctx.Process(target=read_into_queue, args=(r, q), daemon=True) for r in readers]
        for p in procs:
            p.start()
        finished = 0
        while finished < len(procs):
            sample = q.get(timeout=_QUEUE_GET_TIMEOUT)
            if sample is None:
                finished += 1
            elif isinstance(sample, str) and sample == failed:
                raise ValueError("multiprocess_reader failed to put data into the multiprocessing.Queue.")
            else:
                yield sample
        for p in procs:
            p.join()

    def read_into_pipe(reader: Reader, conn: Any) -> None:
        try:
            for sample in reader():
                if sample is None:
                    raise ValueError("sample has None!")
                conn.send(json.dumps(sample))
            conn.send(json.dumps(None))
        except Exception:
            conn.send(json.dumps(failed))
            raise
        finally:
            conn.close()

    def pipe_reader() -> Iterator[Any]:
        conns, procs = [], []
        for r in readers:
            parent, child = ctx.Pipe()
            conns.append(parent)
            procs.append(ctx.Process(target=read_into_pipe, args=(r, child), daemon=True))
            procs[-1].start()
            child.close()
        # One sample from each open pipe in turn, until every reader has ended.
        while conns:
            for conn in list(conns):
                sample = json.loads(conn.recv())
                if sample is None:
                    conn.close()
                    conns.remove(conn)
                elif isinstance(sample, str) and sample == failed:
                    conn.close()
                    raise ValueError("multiprocess_reader failed to send data into the multiprocessing.Pipe.")
                else:
                    yield sample
        for p in procs:
            p.join()

    return pipe_reader if use_pipe else queue_reader
