"""Files written whole or not at all.

Every file pagaie saves (checkpoints, programs, parameter files, exported traces) is
written to a temporary file beside its target and renamed over it once complete, so a
crash or a full disk mid-write leaves the previous file, never a truncated one.
"""
from __future__ import annotations

import contextlib
import os
import stat
import uuid
from typing import IO, Any, Iterator

__all__ = ["atomic_open"]


def _open_temp_beside(path: str) -> tuple[int, str]:
    """A new temporary file next to ``path``, created with the permissions ``open(path, 'w')``
    would give (0o666 less the umask; ``mkstemp``'s 0o600 would make saved files private)."""
    folder, base = os.path.split(path)
    while True:
        tmp = os.path.join(folder, f".tmp-{base}-{uuid.uuid4().hex[:12]}")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                           0o666), tmp
        except FileExistsError:
            continue


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "wb", **kwargs: Any) -> Iterator[IO]:
    """Open ``path`` for writing through a temporary file that replaces it when the block
    ends without an error (an existing file keeps its permissions); on an error the target
    is left as it was.

    Args:
        path (str|PathLike): the file to write.
        mode (str): ``'wb'`` (default) or ``'w'``.
        **kwargs: passed to :func:`open` (``encoding`` for text).

    Examples:
        >>> import os, tempfile
        >>> from pagaie._formats.atomic_file import atomic_open
        >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
        >>> with atomic_open(path, "w") as f:
        ...     _ = f.write("done")
        >>> open(path).read()
        'done'
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open: mode must be 'w' or 'wb', but received {mode!r}")
    path = os.fspath(path)
    fd, tmp = _open_temp_beside(path)
    os.close(fd)   # reopened by name: writers that read ``f.name`` (onnx) see the path
    try:
        with open(tmp, mode, **kwargs) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(path):
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
