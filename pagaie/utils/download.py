"""``paddle.utils.download``: fetch weights and data files into a local cache.

:func:`get_path_from_url` downloads an ``http(s)`` URL into a folder unless the file is
already there (and matches its md5 sum), retries a few times, and unpacks ``.tar*`` and
``.zip`` archives next to it. :func:`get_weights_path_from_url` does the same into
:data:`WEIGHTS_HOME`. Only the Python standard library is used (``urllib``).

``WEIGHTS_HOME`` is Paddle's cache folder ``~/.cache/paddle/hapi/weights``, or the folder
named by the ``PAGAIE_WEIGHTS_HOME`` environment variable (read at import), the same
folder pagaie's vision models read pretrained weights from.

In a multi-process job (``PADDLE_TRAINER_ENDPOINTS`` / ``PADDLE_CURRENT_ENDPOINT`` set),
one process per machine downloads and the others wait for the file, as in Paddle.

Examples:
    >>> import os
    >>> from pagaie.utils.download import WEIGHTS_HOME
    >>> os.path.basename(WEIGHTS_HOME) == 'weights' or 'PAGAIE_WEIGHTS_HOME' in os.environ
    True
"""
from __future__ import annotations

import hashlib
import logging
import os
import os.path as osp
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Literal

__all__ = ["get_weights_path_from_url"]

logger = logging.getLogger(__name__)

WEIGHTS_HOME = osp.abspath(osp.expanduser(
    os.environ.get("PAGAIE_WEIGHTS_HOME") or "~/.cache/paddle/hapi/weights"))
DOWNLOAD_RETRY_LIMIT = 3
_CHUNK = 1024 * 64


def is_url(path: str) -> bool:
    """Whether ``path`` is an ``http://`` or ``https://`` URL.

    Args:
        path (str): the text to test.

    Returns:
        bool: True for http(s) URLs.

    Examples:
        >>> from pagaie.utils.download import is_url
        >>> is_url('https://example.com/a.pdparams'), is_url('/tmp/a.pdparams')
        (True, False)
    """
    return path.startswith("http://") or path.startswith("https://")


def get_weights_path_from_url(url: str, md5sum: str | None = None) -> str:
    """The local path of the weights at ``url``, downloading them into
    :data:`WEIGHTS_HOME` first if they are not there yet.

    Args:
        url (str): the ``http(s)`` URL of the weights file.
        md5sum (str, optional): the expected md5 hex digest; a cached file that does not
            match is downloaded again.

    Returns:
        str: the local path of the weights (of the unpacked folder for archives).

    Examples:
        >>> import os, tempfile
        >>> from pagaie.utils import download
        >>> home = tempfile.mkdtemp()
        >>> open(os.path.join(home, 'w.pdparams'), 'wb').close()   # already cached
        >>> old, download.WEIGHTS_HOME = download.WEIGHTS_HOME, home
        >>> download.get_weights_path_from_url('https://example.com/w.pdparams') == \\
        ...     os.path.join(home, 'w.pdparams')
        True
        >>> download.WEIGHTS_HOME = old
    """
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


def _map_path(url: str, root_dir: str) -> str:
    return osp.join(root_dir, osp.split(url)[-1])


def _is_download_leader() -> bool:
    """True for the one process per machine that downloads (the first endpoint of its IP)."""
    endpoints = [e for e in os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]
    current = os.environ.get("PADDLE_CURRENT_ENDPOINT", "")
    if not endpoints or not current:
        return True
    first_per_ip: dict[str, str] = {}
    for e in sorted(endpoints):
        first_per_ip.setdefault(e.split(":")[0], e)
    return current in first_per_ip.values()


def get_path_from_url(url: str, root_dir: str, md5sum: str | None = None, check_exist: bool = True,
                      decompress: bool = True, method: Literal["wget", "get"] = "get") -> str:
    """Download ``url`` into ``root_dir`` (unless already there) and unpack archives.

    Args:
        url (str): the ``http(s)`` URL; the file keeps the URL's last path component as name.
        root_dir (str): the folder to download into (created if needed).
        md5sum (str, optional): the expected md5 hex digest of the file. A download that
            does not match is retried.
        check_exist (bool, optional): reuse a file already in ``root_dir`` (if its md5
            matches). Default True.
        decompress (bool, optional): unpack ``tar`` and ``zip`` archives next to the file
            and return the unpacked path. Default True.
        method (str, optional): the download method; only ``'get'`` exists (as in Paddle,
            ``'wget'`` is accepted by the type but not implemented).

    Returns:
        str: the local path: the file, or the unpacked file/folder of an archive.

    Raises:
        AssertionError: ``url`` is not an http(s) URL, or ``method`` is unknown.
        RuntimeError: the download failed (or kept failing the md5 check)
            ``DOWNLOAD_RETRY_LIMIT`` times.

    Examples:
        >>> import os, tempfile
        >>> from pagaie.utils.download import get_path_from_url
        >>> root = tempfile.mkdtemp()
        >>> with open(os.path.join(root, 'data.txt'), 'w') as f:
        ...     _ = f.write('cached')
        >>> get_path_from_url('http://127.0.0.1:1/data.txt', root) == os.path.join(root, 'data.txt')
        True
    """
    assert is_url(url), f"downloading from {url} not a url"
    fullpath = _map_path(url, root_dir)
    leader = _is_download_leader()
    if osp.exists(fullpath) and check_exist and _md5check(fullpath, md5sum):
        logger.info("Found %s", fullpath)
    elif leader:
        fullpath = _download(url, root_dir, md5sum, method=method)
    else:
        while not osp.exists(fullpath):
            time.sleep(1)
    if leader and decompress and (tarfile.is_tarfile(fullpath) or zipfile.is_zipfile(fullpath)):
        fullpath = _decompress(fullpath)
    return fullpath


class _Progress:
    """Percent (or byte count) written to stderr, as Paddle's fallback progress bar."""

    def __init__(self, total: int | None) -> None:
        self.total, self.n = total, 0

    def update(self, n: int) -> None:
        self.n += n
        if self.total:
            sys.stderr.write(f"\r{100 * self.n / float(self.total):.1f}%")
        else:
            sys.stderr.write(f"\r{self.n:.1f} bytes")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")


def md5file(path: str) -> str:
    """The hex md5 digest of the file at ``path``.

    Examples:
        >>> import tempfile
        >>> from pagaie.utils.download import md5file
        >>> with tempfile.NamedTemporaryFile() as f:
        ...     md5file(f.name)
        'd41d8cd98f00b204e9800998ecf8427e'
    """
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch(url: str, path: str, md5: str | None = None, timeout: float | None = None,
          progress: bool = False) -> str:
    """Download ``url`` to the file ``path`` atomically: into a temporary file in the same
    folder, checked against ``md5``, then renamed; nothing is left behind on failure.

    Raises:
        OSError / urllib.error.URLError: the transfer failed or the md5 sum differs.

    Examples:
        >>> import os, tempfile
        >>> from pathlib import Path
        >>> from pagaie.utils.download import fetch
        >>> d = tempfile.mkdtemp()
        >>> _ = Path(d, 'a.txt').write_text('hi')
        >>> open(fetch(Path(d, 'a.txt').as_uri(), os.path.join(d, 'b.txt'))).read()
        'hi'
    """
    folder = osp.dirname(osp.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310
            status = getattr(resp, "status", None) or 200
            if status != 200:
                raise OSError(f"Downloading from {url} failed with code {status}!")
            size = resp.headers.get("content-length") if progress else None
            bar = _Progress(int(size) if size else None) if progress else None
            while True:
                chunk = resp.read(_CHUNK)
                if not chunk:
                    break
                out.write(chunk)
                if bar is not None:
                    bar.update(len(chunk))
            if bar is not None:
                bar.close()
        if md5 and md5file(tmp) != md5:
            raise OSError(f"md5 mismatch for {url} (expected {md5})")
        os.replace(tmp, path)
    finally:
        if osp.exists(tmp):
            os.remove(tmp)
    return path


def _get_download(url: str, fullname: str) -> str | bool:
    """One download attempt into ``fullname``; False on failure."""
    try:
        return fetch(url, fullname, progress=True)
    except (OSError, RuntimeError, urllib.error.URLError, ValueError) as e:
        logger.info("Downloading %s from %s failed with exception %s", osp.basename(fullname), url, e)
        return False


_download_methods = {"get": _get_download}


def _download(url: str, path: str, md5sum: str | None = None, method: str = "get") -> str:
    """Download ``url`` into the folder ``path``, retrying up to DOWNLOAD_RETRY_LIMIT times."""
    assert method in _download_methods, f"make sure `{method}` implemented"
    os.makedirs(path, exist_ok=True)
    fullname = osp.join(path, osp.split(url)[-1])
    tries = 0
    logger.info("Downloading %s from %s", osp.basename(fullname), url)
    while not (osp.exists(fullname) and _md5check(fullname, md5sum)):
        if tries >= DOWNLOAD_RETRY_LIMIT:
            raise RuntimeError(f"Download from {url} failed. Retry limit reached")
        tries += 1
        if not _download_methods[method](url, fullname):
            time.sleep(1)
    return fullname


def _md5check(fullname: str, md5sum: str | None = None) -> bool:
    if md5sum is None:
        return True
    calc = md5file(fullname)
    if calc != md5sum:
        logger.info("File %s md5 check failed, %s(calc) != %s(base)", fullname, calc, md5sum)
        return False
    return True


def _decompress(fname: str) -> str:
    """Unpack a tar or zip archive next to it; returns the unpacked file or folder."""
    logger.info("Decompressing %s...", fname)
    if tarfile.is_tarfile(fname):
        return _uncompress_tar(fname)
    if zipfile.is_zipfile(fname):
        return _uncompress_zip(fname)
    raise TypeError(f"Unsupported compress file type {fname}")


def _target(filepath: str, names: list[str]) -> tuple[str, str]:
    """(folder to extract into, path to return) for an archive holding ``names``.

    One top-level file or one top-level folder: extract next to the archive and return it;
    several top-level entries: extract into a folder named after the archive.
    """
    file_dir = osp.dirname(filepath)
    tops = {n.replace("\\", "/").strip("/").split("/")[0] for n in names if n.strip("/")}
    if len(names) == 1 and "/" not in names[0].replace("\\", "/"):
        return file_dir, osp.join(file_dir, names[0])
    if len(tops) == 1:
        return file_dir, osp.join(file_dir, tops.pop())
    root = osp.join(file_dir, osp.splitext(osp.basename(filepath))[0])
    return root, root


def _check_member(name: str, dest: str) -> None:
    p = Path(name)
    if p.is_absolute() or ".." in p.parts:
        raise ValueError(f"Unsafe path in archive: {name}")
    if not Path(dest, name).resolve().is_relative_to(Path(dest).resolve()):
        raise ValueError(f"Attempted path traversal in archive: {name}")


def _uncompress_tar(filepath: str) -> str:
    with tarfile.open(filepath, "r:*") as tar:
        members = tar.getmembers()
        dest, result = _target(filepath, [m.name for m in members])
        safe = []
        for m in members:
            _check_member(m.name, dest)
            if m.isfile() or m.isdir():  # links and devices are skipped, as in Paddle
                safe.append(m)
            else:
                logger.warning("Skipping link or special file in tar: %s", m.name)
        os.makedirs(dest, exist_ok=True)
        tar.extractall(dest, members=safe)
    return result


def _uncompress_zip(filepath: str) -> str:
    # zipfile itself drops absolute and '..' parts of member names when extracting.
    with zipfile.ZipFile(filepath, "r") as zf:
        names = zf.namelist()
        dest, result = _target(filepath, names)
        os.makedirs(dest, exist_ok=True)
        zf.extractall(dest)
    return result


def check_and_create_dir(path: str | None) -> None:
    """Make sure ``path`` is a directory, creating it if needed (None: nothing to do).

    Args:
        path (str|None): the folder.

    Raises:
        AssertionError: ``path`` is not a str.
        NotADirectoryError: ``path`` exists and is not a folder.
        OSError: the folder cannot be created.

    Examples:
        >>> import os, tempfile
        >>> from pagaie.utils.download import check_and_create_dir
        >>> d = os.path.join(tempfile.mkdtemp(), 'a', 'b')
        >>> check_and_create_dir(d)
        >>> os.path.isdir(d)
        True
    """
    if path is None:
        return
    assert isinstance(path, str), "path must be string type"
    if osp.exists(path):
        if not osp.isdir(path):
            raise NotADirectoryError(f" path:'{path}' must be directory ")
        return
    try:
        os.makedirs(path)
    except Exception as e:  # noqa: BLE001
        raise OSError(f"Create '{path}' failed : {e}") from e
