"""Finding a dataset's files: Paddle's cache, a local archive or directory, or one download.

A dataset lives in ``DATA_HOME`` (``~/.cache/paddle/dataset``, where real Paddle puts it too)
as the folder its archive unpacks to. :func:`dataset_root` returns the directory that holds
that folder:

- ``archive['url']`` naming a local directory: that directory (it holds the dataset folder,
  or is the dataset folder itself);
- the folder already unpacked in ``DATA_HOME``: ``DATA_HOME``;
- ``archive['url']`` naming a local archive (a path or a ``file://`` URL): it is checked
  against ``archive['md5']`` when given and unpacked into ``DATA_HOME``;
- an ``http(s)`` URL: one download attempt with a short timeout, then the same; when the
  network cannot be reached a RuntimeError says where to put the files instead.
"""
from __future__ import annotations

import os
import tarfile
import urllib.parse
import urllib.request
import zipfile
from typing import Callable

from pagaie.utils.download import fetch, md5file

__all__: list[str] = []

DATA_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")
DOWNLOAD_TIMEOUT_S = 10.0


def _local_path(url: str) -> str | None:
    """The filesystem path ``url`` names (a plain path or a ``file://`` URL), else None."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "file":
        return urllib.request.url2pathname(parsed.path)
    if parsed.scheme in ("http", "https", "ftp"):
        return None
    return os.path.expanduser(url)


def _extract(archive: str, dest: str, api: str) -> None:
    """Unpack a zip or tar archive into ``dest`` (members must stay inside ``dest``)."""
    root = os.path.realpath(dest)

    def inside(name: str) -> bool:
        target = os.path.realpath(os.path.join(root, name))
        return target == root or target.startswith(root + os.sep)

    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as z:
            bad = [n for n in z.namelist() if not inside(n)]
            if bad:
                raise RuntimeError(f"{api}: archive '{archive}' has members outside its folder: {bad[:3]}")
            z.extractall(root)
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as t:
            bad = [m.name for m in t.getmembers() if not inside(m.name)]
            if bad:
                raise RuntimeError(f"{api}: archive '{archive}' has members outside its folder: {bad[:3]}")
            if hasattr(tarfile, "data_filter"):
                t.extractall(root, filter="data")
            else:
                t.extractall(root)
    else:
        raise RuntimeError(f"{api}: '{archive}' is neither a zip nor a tar archive")


def _download(url: str, md5: str | None, api: str, hint: str) -> str:
    """Fetch ``url`` into ``DATA_HOME`` (kept when already there with the right md5)."""
    path = os.path.join(DATA_HOME, os.path.basename(urllib.parse.urlparse(url).path))
    if os.path.isfile(path) and (not md5 or md5file(path) == md5):
        return path
    try:
        fetch(url, path, md5, timeout=DOWNLOAD_TIMEOUT_S)
    except Exception as e:  # noqa: BLE001 - any network or disk failure ends the same way
        raise RuntimeError(
            f"{api}: the dataset is not in '{DATA_HOME}' and downloading {url} failed "
            f"({type(e).__name__}: {e}). {hint}") from None
    return path


def dataset_root(archive: dict, present: Callable[[str], bool], api: str) -> str:
    """The directory holding the dataset folder (see the module docstring).

    Args:
        archive: ``{'url': ..., 'md5': ...}``; the url may be a local directory, a local
            archive path, a ``file://`` URL or an ``http(s)`` URL.
        present: ``present(root)`` tells whether ``root`` holds the unpacked dataset.
        api: the dataset's public name, for messages.
    """
    url = archive["url"]
    md5 = archive.get("md5")
    hint = (f"Unpack the archive there, or pass archive={{'url': <local archive or directory>, "
            f"'md5': <md5 or None>}}.")
    local = _local_path(url)
    if local is not None and os.path.isdir(local):
        for root in (local, os.path.dirname(os.path.abspath(local))):
            if present(root):
                return root
        raise RuntimeError(f"{api}: the directory '{local}' does not hold the dataset's files. {hint}")
    if present(DATA_HOME):
        return DATA_HOME
    if local is not None:
        if not os.path.isfile(local):
            raise RuntimeError(f"{api}: the dataset is not in '{DATA_HOME}' and the archive '{local}' "
                               f"does not exist. {hint}")
        if md5 and md5file(local) != md5:
            raise RuntimeError(f"{api}: the archive '{local}' does not have the md5 {md5}")
        path = local
    else:
        path = _download(url, md5, api, hint)
    os.makedirs(DATA_HOME, exist_ok=True)
    _extract(path, DATA_HOME, api)
    if not present(DATA_HOME):
        raise RuntimeError(f"{api}: the archive '{path}' did not unpack to the dataset's files "
                           f"in '{DATA_HOME}'. {hint}")
    return DATA_HOME
