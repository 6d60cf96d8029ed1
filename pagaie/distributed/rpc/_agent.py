"""The RPC agent: a small request/response protocol over TCP sockets with pickled payloads.

Every worker serves calls on its own endpoint (``ip:port``): a thread accepts connections and
runs each request in a thread of its own, so that a called function may itself make RPCs. A
request is one frame (8-byte big-endian length, then a pickle of ``(fn, args, kwargs)``); the
reply is one frame holding ``(True, result)`` or ``(False, exception)``. A client opens one
connection per call. Workers find each other through a key-value store at the master endpoint
(torch.distributed's ``TCPStore``), where each one publishes its :class:`WorkerInfo`.

Pickle runs arbitrary code: as with Paddle's RPC, use it only inside a trusted network.
"""
from __future__ import annotations

import pickle
import socket
import struct
import threading
import traceback
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, NamedTuple

_HEADER = struct.Struct(">Q")


class WorkerInfo(NamedTuple):
    """A worker of the RPC group: its ``name``, ``rank`` and the ``ip``/``port`` it serves on.

    Examples:
        >>> from pagaie.distributed.rpc import WorkerInfo
        >>> WorkerInfo("worker0", 0, "127.0.0.1", 9002)
        {name: worker0, rank: 0, ip: 127.0.0.1, port: 9002}
    """

    name: str
    rank: int
    ip: str
    port: int

    def __repr__(self) -> str:
        return f"{{name: {self.name}, rank: {self.rank}, ip: {self.ip}, port: {self.port}}}"

    __str__ = __repr__


# ---- framing -------------------------------------------------------------------------
def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise ConnectionError("the RPC peer closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def send_frame(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(_HEADER.pack(len(payload)) + payload)


def recv_frame(sock: socket.socket) -> bytes:
    (n,) = _HEADER.unpack(_recv_exact(sock, _HEADER.size))
    return _recv_exact(sock, n)


def _pack_result(ok: bool, value: Any) -> bytes:
    try:
        return pickle.dumps((ok, value))
    except Exception as exc:  # noqa: BLE001 - an unpicklable result or exception
        if ok:
            value = RuntimeError(f"paddle.distributed.rpc: the result could not be pickled: {exc}")
        else:
            value = RuntimeError(f"{type(value).__name__}: {value}")
        return pickle.dumps((False, value))


# ---- server ----------------------------------------------------------------------------
class Server:
    """Serves calls on ``(host, port)`` (port 0 picks a free one: see :attr:`port`)."""

    def __init__(self, host: str, port: int) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self._sock.listen(128)
        self.port = self._sock.getsockname()[1]
        self._closed = False
        self._thread = threading.Thread(target=self._accept_loop, name="pagaie-rpc-server", daemon=True)
        self._thread.start()

    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    @staticmethod
    def _serve(conn: socket.socket) -> None:
        with conn:
            try:
                request = recv_frame(conn)
            except (ConnectionError, OSError):
                return
            try:
                fn, args, kwargs = pickle.loads(request)
                reply = _pack_result(True, fn(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 - the caller re-raises it
                exc.__notes__ = [*getattr(exc, "__notes__", []), "raised in the RPC callee:\n"
                                 + "".join(traceback.format_exception(exc))]
                reply = _pack_result(False, exc)
            try:
                send_frame(conn, reply)
            except OSError:
                pass

    def close(self) -> None:
        self._closed = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()


# ---- client ----------------------------------------------------------------------------
def call(ip: str, port: int, fn: Callable, args: tuple, kwargs: dict, timeout: float | None) -> Any:
    """Run ``fn(*args, **kwargs)`` on the worker serving ``ip:port``; returns its result."""
    payload = pickle.dumps((fn, args, kwargs))
    try:
        with socket.create_connection((ip, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            send_frame(sock, payload)
            ok, value = pickle.loads(recv_frame(sock))
    except socket.timeout:
        raise RuntimeError(f"paddle.distributed.rpc: the call of {getattr(fn, '__name__', fn)!r} on "
                           f"{ip}:{port} timed out after {timeout} s") from None
    if not ok:
        raise value
    return value


class FutureWrapper:
    """The pending result of :func:`paddle.distributed.rpc.rpc_async`: ``wait()`` returns it
    (or raises the exception the remote function raised)."""

    def __init__(self, future: Future) -> None:
        self._future = future

    def wait(self) -> Any:
        """Block until the call has finished; return its result."""
        return self._future.result()

    def done(self) -> bool:
        """Whether the call has finished."""
        return self._future.done()


class Client:
    """Runs calls in a pool of threads."""

    def __init__(self, max_workers: int = 16) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="pagaie-rpc-client")

    def submit(self, ip: str, port: int, fn: Callable, args: tuple, kwargs: dict,
               timeout: float | None) -> FutureWrapper:
        return FutureWrapper(self._pool.submit(call, ip, port, fn, args, kwargs, timeout))

    def close(self) -> None:
        self._pool.shutdown(wait=True)
