"""File-system helpers of fleet: :class:`LocalFS` (the local disk) and :class:`HDFSClient`.

``HDFSClient`` runs the ``hadoop fs`` command line of a Hadoop installation
(``<hadoop_home>/bin/hadoop``); without one it cannot work and says so when constructed.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from typing import Any, Callable

__all__ = ["LocalFS", "HDFSClient", "ExecuteError", "FSFileExistsError", "FSFileNotExistsError", "FSTimeOut",
           "FSShellCmdAborted"]


class ExecuteError(Exception):
    """A file-system command failed (it is retried until the client's time-out)."""


class FSFileExistsError(Exception):
    """The destination path exists already."""


class FSFileNotExistsError(Exception):
    """The source path does not exist."""


class FSTimeOut(Exception):
    """A file-system command kept failing until the time-out."""


class FSShellCmdAborted(ExecuteError):
    """A file-system command was aborted (exit status 134)."""


class LocalFS:
    """The local file system, with the interface of fleet's file systems.

    Examples:
        >>> import os, tempfile
        >>> from pagaie.distributed.fleet.utils import LocalFS
        >>> fs = LocalFS()
        >>> root = tempfile.mkdtemp()
        >>> fs.mkdirs(os.path.join(root, "d"))
        >>> fs.touch(os.path.join(root, "f.txt"))
        >>> fs.ls_dir(root)
        (['d'], ['f.txt'])
        >>> fs.delete(root)
        >>> fs.is_exist(root)
        False
    """

    def ls_dir(self, fs_path: str) -> tuple[list[str], list[str]]:
        """The names of the sub-directories and of the files under ``fs_path``
        (two empty lists when it does not exist)."""
        if not self.is_exist(fs_path):
            return [], []
        dirs, files = [], []
        for name in os.listdir(fs_path):
            (dirs if os.path.isdir(os.path.join(fs_path, name)) else files).append(name)
        return dirs, files

    def list_dirs(self, fs_path: str) -> list[str]:
        """The names of the sub-directories of ``fs_path`` (empty when it does not exist)."""
        return self.ls_dir(fs_path)[0]

    def mkdirs(self, fs_path: str) -> None:
        """Create the directory ``fs_path`` and its parents (nothing when it exists).

        Raises:
            AssertionError: when ``fs_path`` is a file.
        """
        if os.path.isfile(fs_path):
            raise AssertionError(f"{fs_path} is already a file")
        os.makedirs(fs_path, exist_ok=True)

    def rename(self, fs_src_path: str, fs_dst_path: str) -> None:
        """Rename a file or directory (``os.rename``)."""
        os.rename(fs_src_path, fs_dst_path)

    def delete(self, fs_path: str) -> None:
        """Delete a file or a directory tree (nothing when it does not exist)."""
        if not self.is_exist(fs_path):
            return
        if os.path.isfile(fs_path) or os.path.islink(fs_path):
            os.remove(fs_path)
        else:
            shutil.rmtree(fs_path)

    def need_upload_download(self) -> bool:
        """False: local paths are used directly."""
        return False

    def is_file(self, fs_path: str) -> bool:
        """Whether ``fs_path`` exists and is a file."""
        return os.path.isfile(fs_path)

    def is_dir(self, fs_path: str) -> bool:
        """Whether ``fs_path`` exists and is a directory."""
        return os.path.isdir(fs_path)

    def is_exist(self, fs_path: str) -> bool:
        """Whether ``fs_path`` exists (file or directory)."""
        return os.path.exists(fs_path)

    def touch(self, fs_path: str, exist_ok: bool = True) -> None:
        """Create an empty file.

        Raises:
            FSFileExistsError: when ``fs_path`` exists and ``exist_ok`` is False.
        """
        if self.is_exist(fs_path):
            if exist_ok:
                return
            raise FSFileExistsError(f"LocalFS.touch: {fs_path} exists already")
        with open(fs_path, "a"):
            pass

    def mv(self, src_path: str, dst_path: str, overwrite: bool = False, test_exists: bool = False) -> None:
        """Move ``src_path`` to ``dst_path``; with ``overwrite`` an existing destination is deleted first.

        Raises:
            FSFileNotExistsError: when ``src_path`` does not exist.
            FSFileExistsError: when ``dst_path`` exists and ``overwrite`` is False.
        """
        if not self.is_exist(src_path):
            raise FSFileNotExistsError(f"LocalFS.mv: {src_path} does not exist")
        if overwrite and self.is_exist(dst_path):
            self.delete(dst_path)
        if self.is_exist(dst_path):
            raise FSFileExistsError(f"LocalFS.mv: {dst_path} exists already")
        self.rename(src_path, dst_path)

    # As in Paddle, the local file system has no remote side to copy to or from.
    def upload(self, local_path: str, fs_path: str) -> None:
        """Not available on the local file system (``need_upload_download()`` is False)."""
        raise NotImplementedError("LocalFS.upload: the local file system has no remote side; "
                                  "need_upload_download() is False, so use local paths directly")

    def download(self, fs_path: str, local_path: str) -> None:
        """Not available on the local file system (``need_upload_download()`` is False)."""
        raise NotImplementedError("LocalFS.download: the local file system has no remote side; "
                                  "need_upload_download() is False, so use local paths directly")

    def upload_dir(self, local_dir: str, dest_dir: str) -> None:
        """Not available on the local file system (``need_upload_download()`` is False)."""
        raise NotImplementedError("LocalFS.upload_dir: the local file system has no remote side; "
                                  "need_upload_download() is False, so use local paths directly")

    def cat(self, fs_path: str | None = None) -> str:
        """Not available on the local file system, as in Paddle: read the file with ``open``."""
        raise NotImplementedError("LocalFS.cat: not provided for the local file system; read the file "
                                  "with open()")


class HDFSClient:
    """A client of HDFS that runs ``<hadoop_home>/bin/hadoop fs`` commands.

    Args:
        hadoop_home (str): the Hadoop installation.
        configs (dict): Hadoop options passed as ``-Dkey=value``, e.g. ``fs.default.name`` and
            ``hadoop.job.ugi``.
        time_out (int): milliseconds to keep retrying a failing command.
        sleep_inter (int): milliseconds between retries.

    Raises:
        NotImplementedError: when ``<hadoop_home>/bin/hadoop`` does not exist.

    Examples:
        >>> from pagaie.distributed.fleet.utils import HDFSClient
        >>> try:
        ...     HDFSClient("/no/hadoop", {"fs.default.name": "hdfs://x", "hadoop.job.ugi": "u,p"})
        ... except NotImplementedError:
        ...     print("no hadoop here")
        no hadoop here
    """

    def __init__(self, hadoop_home: str, configs: dict, time_out: int = 5 * 60 * 1000,
                 sleep_inter: int = 1000) -> None:
        hadoop = os.path.join(str(hadoop_home), "bin", "hadoop")
        if not os.path.isfile(hadoop):
            raise NotImplementedError(f"paddle.distributed.fleet.utils.HDFSClient: no Hadoop command line at "
                                      f"{hadoop!r}; HDFSClient needs a Hadoop installation (hadoop_home)")
        self.pre_commands = [hadoop, "fs"] + [f"-D{k}={v}" for k, v in (configs or {}).items()]
        self._time_out = time_out
        self._sleep_inter = sleep_inter

    # ---- running commands --------------------------------------------------------------
    def _run(self, *args: str) -> tuple[int, list[str]]:
        proc = subprocess.run(self.pre_commands + [f"-{args[0]}", *args[1:]], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if proc.returncode == 134:
            raise FSShellCmdAborted(" ".join(args))
        return proc.returncode, proc.stdout.splitlines()

    def _must(self, *args: str) -> list[str]:
        """Run a command, retrying while it fails, until the time-out."""
        start = time.time()
        while True:
            ret, lines = self._run(*args)
            if ret == 0:
                return lines
            if (time.time() - start) * 1000 >= self._time_out:
                raise FSTimeOut(f"HDFSClient: 'hadoop fs -{' '.join(args)}' kept failing for "
                                f"{time.time() - start:.1f} s: {' '.join(lines)[-500:]}")
            time.sleep(self._sleep_inter / 1000)

    # ---- queries -------------------------------------------------------------------------
    def is_exist(self, fs_path: str) -> bool:
        """Whether ``fs_path`` exists on HDFS."""
        return self._run("test", "-e", fs_path)[0] == 0

    def is_dir(self, fs_path: str) -> bool:
        """Whether ``fs_path`` exists and is a directory."""
        return self.is_exist(fs_path) and self._run("test", "-d", fs_path)[0] == 0

    def is_file(self, fs_path: str) -> bool:
        """Whether ``fs_path`` exists and is not a directory."""
        return self.is_exist(fs_path) and self._run("test", "-d", fs_path)[0] != 0

    def ls_dir(self, fs_path: str) -> tuple[list[str], list[str]]:
        """The names of the sub-directories and of the files under ``fs_path``."""
        if not self.is_exist(fs_path):
            return [], []
        dirs, files = [], []
        for line in self._must("ls", fs_path):
            fields = line.split()
            if len(fields) != 8:   # "Found N items" and the like
                continue
            (dirs if fields[0].startswith("d") else files).append(os.path.basename(fields[7]))
        return dirs, files

    def list_dirs(self, fs_path: str) -> list[str]:
        """The names of the sub-directories of ``fs_path``."""
        return self.ls_dir(fs_path)[0]

    def list_files_info(self, path_list: list[str]) -> list[dict]:
        """``{'path', 'size'}`` of every file listed under the paths of ``path_list``."""
        if not path_list:
            return []
        out = []
        for line in self._must("ls", *path_list):
            fields = line.split()
            if len(fields) == 8:
                out.append({"path": fields[7], "size": int(fields[4])})
        return out

    def cat(self, fs_path: str | None = None) -> str:
        """The text of the file ``fs_path`` ('' when it is not a file)."""
        if fs_path is None or not self.is_file(fs_path):
            return ""
        return "\n".join(self._must("cat", fs_path))

    def need_upload_download(self) -> bool:
        """True: remote files are copied to and from local paths."""
        return True

    # ---- changes -------------------------------------------------------------------------
    def mkdirs(self, fs_path: str) -> None:
        """Create the directory ``fs_path`` and its parents."""
        if not self.is_exist(fs_path):
            self._must("mkdir", "-p", fs_path)

    def delete(self, fs_path: str) -> None:
        """Delete a file or a directory tree (nothing when it does not exist)."""
        if not self.is_exist(fs_path):
            return
        self._must("rm", "-r", fs_path) if self.is_dir(fs_path) else self._must("rm", fs_path)

    def touch(self, fs_path: str, exist_ok: bool = True) -> None:
        """Create an empty file (FSFileExistsError when it exists and ``exist_ok`` is False)."""
        if self.is_exist(fs_path):
            if exist_ok:
                return
            raise FSFileExistsError(f"HDFSClient.touch: {fs_path} exists already")
        self._must("touchz", fs_path)

    def mv(self, fs_src_path: str, fs_dst_path: str, overwrite: bool = False, test_exists: bool = True) -> None:
        """Move a path on HDFS; with ``overwrite`` an existing destination is deleted first."""
        if overwrite and self.is_exist(fs_dst_path):
            self.delete(fs_dst_path)
        if test_exists:
            if not self.is_exist(fs_src_path):
                raise FSFileNotExistsError(f"HDFSClient.mv: {fs_src_path} does not exist")
            if self.is_exist(fs_dst_path):
                raise FSFileExistsError(f"HDFSClient.mv: {fs_dst_path} exists already")
        self._must("mv", fs_src_path, fs_dst_path)

    def rename(self, fs_src_path: str, fs_dst_path: str) -> None:
        """Rename a path on HDFS (see :meth:`mv`)."""
        self.mv(fs_src_path, fs_dst_path)

    def _each(self, fn: Callable[[str], Any], items: list[str], workers: int) -> None:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=max(1, int(workers))) as pool:
            list(pool.map(fn, items))

    def upload(self, local_path: str, fs_path: str, multi_processes: int = 5, overwrite: bool = False) -> None:
        """Copy a local file, or the entries of a local directory, into ``fs_path``
        (``multi_processes`` copies at a time)."""
        if not os.path.exists(local_path):
            raise FSFileNotExistsError(f"HDFSClient.upload: {local_path} does not exist")
        files = ([os.path.join(local_path, f) for f in os.listdir(local_path)] if os.path.isdir(local_path)
                 else [local_path])
        if not files:
            return
        if overwrite and self.is_exist(fs_path):
            self.delete(fs_path)
            self.mkdirs(fs_path)
        self._each(lambda f: self._must("put", f, fs_path), files, multi_processes)

    def upload_dir(self, local_dir: str, dest_dir: str, overwrite: bool = False) -> None:
        """Copy the directory ``local_dir`` into ``dest_dir`` (created if needed)."""
        local_dir, dest_dir = local_dir.rstrip("/"), dest_dir.rstrip("/")
        target = f"{dest_dir}/{os.path.basename(local_dir)}"
        if overwrite and self.is_exist(target):
            self.delete(target)
        self.mkdirs(dest_dir)
        self._must("put", local_dir, dest_dir)

    def download(self, fs_path: str, local_path: str, multi_processes: int = 5, overwrite: bool = False) -> None:
        """Copy a remote file, or the entries of a remote directory, to ``local_path``."""
        if not self.is_exist(fs_path):
            raise FSFileNotExistsError(f"HDFSClient.download: {fs_path} does not exist")
        if self.is_file(fs_path):
            self._must("get", fs_path, local_path)
            return
        dirs, files = self.ls_dir(fs_path)
        entries = [f"{fs_path}/{n}" for n in files + dirs]
        self._each(lambda e: self._must("get", e, local_path), entries, multi_processes)
