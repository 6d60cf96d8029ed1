"""Paddle's CPU random engine: the 64-bit Mersenne Twister, seeded as Paddle seeds it.

Paddle's CPU kernels draw from one ``std::mt19937_64`` per process, which ``paddle.seed``
re-seeds through ``std::seed_seq``; an op given its own non-zero ``seed`` draws from a
fresh engine seeded with that integer directly. :class:`Engine` reproduces both, so the
same seed gives pagaie's CPU samplers the same 64-bit words, in the same order, as
Paddle's. The words come from ``randomgen``'s MT64 (the same recurrence, in C).

Samplers often need to look at words before knowing how many they use (rejection
sampling): :meth:`Engine.peek` shows the next words without using them and
:meth:`Engine.skip` then uses as many as were needed.
"""
from __future__ import annotations

import functools

import numpy as np
from randomgen import MT64

__all__ = ["Engine"]

_N = 312                       # state words of mt19937_64
_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_EMPTY = np.empty(0, dtype=np.uint64)
# A look-ahead buffer keeps its used words (the state is recovered from them) up to this many.
_COMPACT = 1 << 20


def _undo_xorshift(y: np.ndarray, shift: int, left: bool, mask: int = _M64) -> np.ndarray:
    """Invert ``y ^= (y << shift) & mask`` (or ``>>``) by fixed-point iteration."""
    m, k, x = np.uint64(mask), np.uint64(shift), y.copy()
    for _ in range(64 // shift + 1):
        x = y ^ (((x << k) if left else (x >> k)) & m)
    return x


def _untemper(words: np.ndarray) -> np.ndarray:
    """The state words whose tempered outputs are ``words`` (mt19937_64's tempering inverted)."""
    x = _undo_xorshift(words, 43, False)
    x = _undo_xorshift(x, 37, True, 0xFFF7EEE000000000)
    x = _undo_xorshift(x, 17, True, 0x71D67FFFEDA60000)
    return _undo_xorshift(x, 29, False, 0x5555555555555555)


def _seed_seq_words(seed32: int, n: int) -> list[int]:
    """``std::seed_seq({seed32}).generate`` of ``n`` 32-bit words (the C++ standard's
    algorithm, [rand.util.seedseq])."""
    b = [0x8B8B8B8B] * n
    t = 11 if n >= 623 else 7 if n >= 68 else 5 if n >= 39 else 3 if n >= 7 else (n - 1) // 2
    p = (n - t) // 2
    q = p + t
    m = max(2, n)              # one seed value: s = 1
    for k in range(m):
        x = b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n]
        r1 = (1664525 * (x ^ (x >> 27))) & _M32
        r2 = (r1 + (1 if k == 0 else k % n + seed32 if k == 1 else k % n)) & _M32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & _M32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & _M32
        b[k % n] = r2
    for k in range(m, m + n):
        x = (b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & _M32
        r3 = (1566083941 * (x ^ (x >> 27))) & _M32
        r4 = (r3 - k % n) & _M32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return b


@functools.lru_cache(maxsize=64)
def _seed_seq_key(seed: int) -> bytes:
    # seed_seq keeps 32-bit values: Paddle's 64-bit seed is truncated on the way in
    w = _seed_seq_words(seed & _M32, 2 * _N)
    key = [w[2 * i] | (w[2 * i + 1] << 32) for i in range(_N)]
    if key[0] >> 31 == 0 and not any(key[1:]):
        key[0] = 1 << 63
    return np.array(key, dtype=np.uint64).tobytes()


@functools.lru_cache(maxsize=64)
def _int_seed_key(seed: int) -> bytes:
    # mt19937_64::seed(value): the reference initialisation of the state from one word
    key = [seed & _M64]
    for i in range(1, _N):
        prev = key[-1]
        key.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & _M64)
    return np.array(key, dtype=np.uint64).tobytes()


class Engine:
    """A ``std::mt19937_64`` that yields its 64-bit words as numpy arrays.

    Examples:
        >>> from pagaie._core.mt64 import Engine
        >>> e = Engine.from_seed(0)
        >>> w = e.peek(3)
        >>> bool((e.take(3) == w).all()), bool(e.take(1)[0] != w[0])
        (True, True)
    """

    __slots__ = ("_bits", "_buf", "_pos", "_start")

    def __init__(self, key: bytes, pos: int = _N) -> None:
        self._bits = MT64(0)
        self._load(key, pos)

    @classmethod
    def from_seed(cls, seed: int) -> Engine:
        """The engine ``paddle.seed(seed)`` makes (seeded through ``std::seed_seq``)."""
        return cls(_seed_seq_key(int(seed) & _M64))

    @classmethod
    def from_op_seed(cls, seed: int) -> Engine:
        """The private engine of an op called with a non-zero ``seed`` argument."""
        return cls(_int_seed_key(int(seed) & _M64))

    def _load(self, key: bytes, pos: int) -> None:
        st = self._bits.state
        st["state"] = {"key": np.frombuffer(key, dtype=np.uint64).copy(), "pos": int(pos)}
        st["has_uint32"] = st["uinteger"] = 0
        self._bits.state = st
        self._buf = _EMPTY
        self._pos = 0
        self._start = (key, pos)

    def reseed(self, seed: int) -> None:
        """Re-seed in place as ``paddle.seed`` does."""
        self._load(_seed_seq_key(int(seed) & _M64), _N)

    def peek(self, n: int) -> np.ndarray:
        """The next ``n`` words, without using them."""
        have = self._buf.size - self._pos
        if have < n:
            if have == 0:
                self._start = self._raw_state()
                self._buf, self._pos = self._bits.random_raw(max(n, 256)), 0
            else:
                if self._pos > _COMPACT:      # drop the used words, keeping the state exact
                    self._start = self._state_at(self._pos)
                    self._buf, self._pos = self._buf[self._pos:], 0
                more = self._bits.random_raw(max(n - have, 256))
                self._buf = np.concatenate([self._buf, more])
        return self._buf[self._pos:self._pos + n]

    def skip(self, n: int) -> None:
        """Use the next ``n`` words (after :meth:`peek` showed them)."""
        self.peek(n)
        self._used(n)

    def take(self, n: int) -> np.ndarray:
        """Use and return the next ``n`` words."""
        have = self._buf.size - self._pos
        if have == 0:
            return self._bits.random_raw(n)
        if have >= n:
            out = self._buf[self._pos:self._pos + n].copy()
            self._used(n)
            return out
        out = np.concatenate([self._buf[self._pos:], self._bits.random_raw(n - have)])
        self._buf, self._pos = _EMPTY, 0
        return out

    def _used(self, n: int) -> None:
        self._pos += n
        if self._pos >= self._buf.size:
            self._buf, self._pos = _EMPTY, 0

    def _raw_state(self) -> tuple[bytes, int]:
        st = self._bits.state["state"]
        return st["key"].tobytes(), int(st["pos"])

    def _state_at(self, used: int) -> tuple[bytes, int]:
        """The state after ``used`` words of the buffer. A word's block of 312 outputs is the
        tempered state the engine had after its last twist, so the state is recovered by
        untempering that block (or, for the block still being drawn from, read off the
        generator) instead of replaying the words."""
        key0, pos0 = self._start
        if used == 0:
            return self._start
        last = pos0 + used - 1                 # the absolute index of the last used word
        block = last // _N
        pos = last % _N + 1
        if block == 0:
            return key0, pos
        lo = block * _N - pos0
        if lo + _N <= self._buf.size:
            return _untemper(self._buf[lo:lo + _N]).tobytes(), pos
        return self._raw_state()[0], pos

    @property
    def load_token(self) -> tuple[bytes, int]:
        """An object that is replaced whenever the engine is seeded, a state is loaded (even
        the state it already had) or its look-ahead buffer is refilled: a caller holding a
        copy of the engine compares it with ``is`` to notice a re-seed to the same state."""
        return self._start

    def get_state(self) -> tuple[bytes, int]:
        """The state (key words and position), as of the words used so far."""
        if self._pos == 0 and self._buf.size == 0:
            return self._raw_state()
        return self._state_at(self._pos)

    def set_state(self, state: tuple[bytes, int]) -> None:
        """Restore a state from :meth:`get_state`."""
        self._load(*state)
