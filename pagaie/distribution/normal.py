"""Normal (real or complex) and Uniform distributions."""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.place import default_device
from pagaie._core.random import cpu_engine, on_paddle_cpu
from pagaie._core.tensor import Tensor
from pagaie._ops import _std_dists
from pagaie.distribution._base import Distribution, dtype_name

__all__ = ["Normal", "Uniform"]

_LOG_SQRT_2PI = math.log(math.sqrt(2.0 * math.pi))


def _float_pair(obj: Distribution, a: Any, b: Any) -> tuple:
    """Two non-tensor parameters as tensors of the dtype Paddle picks: a float32/float64 numpy
    argument's dtype (the first one found; kept as the numpy dtype, which Paddle reports as the
    distribution's ``dtype``), else float32."""
    dtype = "float32"
    for v in (a, b):
        if isinstance(v, np.ndarray) and str(v.dtype) in ("float32", "float64"):
            dtype = v.dtype
            break
    ta, tb = obj._to_tensor(a, b)
    if dtype != "float32":
        ta, tb = P.cast(ta, dtype), P.cast(tb, dtype)
    return ta, tb, dtype


def _std_normal(shape: list, dtype: str, seed: int, complex_: bool) -> Tensor:
    """Standard normal samples; a non-zero ``seed`` makes them a fixed function of it: on the
    CPU, Paddle's values (its Gaussian kernel on a fresh engine seeded with ``seed``);
    elsewhere Box-Muller over seeded uniforms."""
    if not seed:  # a complex dtype draws complex gaussian parts in its own precision
        return P.standard_normal(shape, dtype=dtype)
    if on_paddle_cpu(default_device()):
        # Paddle's kernel samples float16/bfloat16 in float32, then casts; a complex sample
        # takes its real and imaginary parts from successive draws of std 1/sqrt(2) (in float32)
        np_dt = np.float64 if dtype in ("float64", "complex128") else np.float32
        n = int(np.prod(shape)) if shape else 1
        if complex_:
            std = float(np.float32(1.0 / math.sqrt(2.0)))
            v = _std_dists.normal(cpu_engine(seed), 2 * n, 0.0, std, np_dt)
            z = (v[0::2] + 1j * v[1::2]).reshape(shape)
        else:
            z = _std_dists.normal(cpu_engine(seed), n, 0.0, 1.0, np_dt).reshape(shape)
        return P.to_tensor(z).astype(dtype)
    real = "float64" if dtype in ("float64", "complex128") else "float32"
    u = P.uniform([4 if complex_ else 2, *shape], dtype=real, seed=seed)
    z = P.sqrt(-2.0 * P.log(1.0 - u[0::2])) * P.cos(2.0 * math.pi * u[1::2])
    if complex_:
        return P.complex(z[0], z[1]) * math.sqrt(0.5)
    return z[0]


class Normal(Distribution):
    r"""The normal (Gaussian) distribution with mean ``loc`` and standard deviation ``scale``.

    .. math:: p(x) = \frac{1}{\sqrt{2\pi}\sigma} e^{-(x-\mu)^2 / (2\sigma^2)}

    A complex ``loc`` gives the complex normal distribution
    :math:`p(x) = e^{-|x-\mu|^2/\sigma^2} / (\pi\sigma^2)`.

    Args:
        loc (float|complex|list|numpy.ndarray|Tensor): the mean.
        scale (float|list|numpy.ndarray|Tensor): the standard deviation.
        name (str, optional): a name for the outputs' ops.

    The batch shape is ``loc``'s shape. Python numbers and lists give float32 parameters;
    numpy arrays keep float32/float64; tensors are used as they are.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.Normal(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))
        >>> d.sample([3]).shape
        paddle.Size([3, 2])
        >>> [round(v, 4) for v in d.log_prob(paddle.to_tensor([0.0, 1.0])).tolist()]
        [-0.9189, -1.6121]
    """

    def __init__(self, loc: Any, scale: Any, name: str | None = None) -> None:
        self.name = name if name is not None else "Normal"
        self.dtype = "float32"
        self.all_arg_is_float = False
        self._complex_gaussian = False
        if isinstance(loc, int):  # bools too, as in Paddle (True is 1.0)
            loc = float(loc)
        if isinstance(scale, int):  # bools too, as in Paddle (True is 1.0)
            scale = float(scale)
        if isinstance(loc, (list, tuple)):
            loc = np.array(loc)
            if loc.dtype == np.float64:
                loc = loc.astype("float32")
            elif loc.dtype == np.complex128:
                loc = loc.astype("complex64")
        if isinstance(scale, (list, tuple)):
            scale = np.array(scale, dtype=np.float32)
        is_complex = (isinstance(loc, complex)
                      or (isinstance(loc, np.ndarray) and loc.dtype.kind == "c")
                      or (isinstance(loc, Tensor) and loc.is_complex()))
        if is_complex:
            self._complex_gaussian = True
            self.all_arg_is_float = isinstance(loc, complex) and isinstance(scale, float)
            if isinstance(loc, np.ndarray):
                part = "float32" if loc.dtype == np.complex64 else "float64"
                loc = P.complex(P.to_tensor(loc.real, part), P.to_tensor(loc.imag, part))
            elif isinstance(loc, complex):
                loc = P.complex(P.to_tensor(loc.real, "float32"), P.to_tensor(loc.imag, "float32"))
            if isinstance(scale, np.ndarray):
                scale = P.to_tensor(scale, dtype=str(scale.dtype))
            elif isinstance(scale, float):
                scale = P.to_tensor(scale, dtype="float32")
            self.loc, self.scale = loc, scale
            self.dtype = dtype_name(loc)
        elif self._validate_args(loc, scale):
            self.loc, self.scale = loc, scale
            self.dtype = dtype_name(loc)
        else:
            self.all_arg_is_float = isinstance(loc, float) and isinstance(scale, float)
            self.loc, self.scale, self.dtype = _float_pair(self, loc, scale)
        super().__init__(self.loc.shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: the mean, ``loc``."""
        return self.loc

    @property
    def variance(self) -> Tensor:
        """Tensor: the variance, ``scale ** 2``."""
        return self.scale.pow(2)

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> Tensor:
        """Draw samples of shape ``[*shape, *batch_shape]`` (no gradient).

        Args:
            shape (Sequence[int], optional): the sample shape. Default ``()``.
            seed (int, optional): a non-zero seed draws from a private generator (the same
                samples every call). Default 0: the global generator.

        Returns:
            Tensor: the samples, of the distribution's dtype.
        """
        if not isinstance(shape, Iterable) or isinstance(shape, Tensor):
            raise TypeError("paddle.distribution.Normal.sample: sample shape must be Iterable "
                            f"object, but received {type(shape).__name__}")
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise TypeError("paddle.distribution.Normal.sample: 'seed' must be an int, but received "
                            f"{type(seed).__name__}")
        shape = list(shape)
        out_shape = shape + list((self.loc + self.scale).shape)
        eps = _std_normal(out_shape, self.dtype, seed, self._complex_gaussian)
        out = eps * (P.zeros(out_shape, dtype=dtype_name(self.scale)) + self.scale) + self.loc
        return P.reshape(out, shape) if self.all_arg_is_float else out

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterised samples ``loc + eps * scale`` (gradients reach the parameters)."""
        if not isinstance(shape, Iterable) or isinstance(shape, Tensor):
            raise TypeError("paddle.distribution.Normal.rsample: sample shape must be Iterable "
                            f"object, but received {type(shape).__name__}")
        full = list(self._extend_shape(tuple(shape)))
        eps = P.normal(mean=0j if self._complex_gaussian else 0.0, shape=full)
        return self.loc + eps * self.scale

    def entropy(self) -> Tensor:
        """The entropy ``0.5 + 0.5 log(2π) + log(scale)`` (complex: ``1 + log(π) + 2 log(scale)``)."""
        batch = list((self.loc + self.scale).shape)
        if self._complex_gaussian:
            zero = P.zeros(batch, dtype=dtype_name(self.scale))
            return (1.0 + zero) + (math.log(math.pi) + 2.0 * P.log(self.scale + zero))
        zero = P.zeros(batch, dtype=self.dtype)
        return (0.5 + zero) + (0.5 * math.log(2 * math.pi) + P.log(self.scale + zero))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at ``value`` (cast to the parameters' dtype)."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        d = value - self.loc
        if self._complex_gaussian:
            return -1.0 * (d.conj() * d) / var - (2.0 * P.log(self.scale) + math.log(math.pi))
        return -1.0 * (d * d) / (2.0 * var) - (P.log(self.scale) + _LOG_SQRT_2PI)

    def probs(self, value: Tensor) -> Tensor:
        """The density at ``value``."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        d = value - self.loc
        if self._complex_gaussian:
            return P.exp(-1.0 * (d.conj() * d) / var) / (math.pi * var)
        return P.exp(-1.0 * (d * d) / (2.0 * var)) / (math.sqrt(2 * math.pi) * self.scale)

    def kl_divergence(self, other: "Normal") -> Tensor:
        """KL(self || other) between two normal distributions."""
        if self._complex_gaussian != other._complex_gaussian:
            raise ValueError("paddle.distribution.Normal.kl_divergence: the kl divergence must be "
                             "computed between two distributions in the same number field")
        ratio = self.scale / other.scale
        ratio = ratio * ratio
        t1 = (self.loc - other.loc) / other.scale
        if self._complex_gaussian:
            return ratio + t1.conj() * t1 - 1.0 - P.log(ratio)
        t1 = t1 * t1
        return 0.5 * ratio + 0.5 * (t1 - 1.0 - P.log(ratio))


class Uniform(Distribution):
    r"""The continuous uniform distribution on ``[low, high)``.

    .. math:: p(x) = \frac{1}{high - low} \quad (low \le x < high)

    Args:
        low (float|list|numpy.ndarray|Tensor): the lower bounds.
        high (float|list|numpy.ndarray|Tensor): the upper bounds.
        name (str, optional): a name for the outputs' ops.

    Examples:
        >>> import pagaie as paddle
        >>> u = paddle.distribution.Uniform(paddle.to_tensor([0.0]), paddle.to_tensor([2.0]))
        >>> u.entropy().tolist()
        [0.6931471824645996]
        >>> u.sample([4]).shape
        paddle.Size([4, 1])
    """

    def __init__(self, low: Any, high: Any, name: str | None = None) -> None:
        self.name = name if name is not None else "Uniform"
        self.dtype = "float32"
        self.all_arg_is_float = False
        self.batch_size_unknown = False
        if isinstance(low, int):  # bools too, as in Paddle (True is 1.0)
            low = float(low)
        if isinstance(high, int):  # bools too, as in Paddle (True is 1.0)
            high = float(high)
        if self._validate_args(low, high):
            self.low, self.high = low, high
            self.dtype = dtype_name(low)
        else:
            self.all_arg_is_float = isinstance(low, float) and isinstance(high, float)
            self.low, self.high, self.dtype = _float_pair(self, low, high)
        super().__init__(self.low.shape)

    # No mean or variance: Paddle's Uniform leaves them to Distribution (NotImplementedError).

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> Tensor:
        """Draw samples of shape ``[*shape, *batch_shape]``.

        Args:
            shape (Sequence[int], optional): the sample shape. Default ``()``.
            seed (int, optional): a non-zero seed draws from a private generator.

        Returns:
            Tensor: the samples.
        """
        shape = list(shape)
        out_shape = shape + list((self.low + self.high).shape)
        u = P.uniform(out_shape, dtype=self.dtype, min=0.0, max=1.0, seed=seed)
        out = u * (P.zeros(out_shape, dtype=self.dtype) + (self.high - self.low)) + self.low
        return P.reshape(out, shape) if self.all_arg_is_float else out

    def _inside(self, value: Tensor) -> Tensor:
        return P.cast(self.low < value, value.dtype) * P.cast(value < self.high, value.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(1 / (high - low))`` inside the support, ``-inf`` outside."""
        value = self._check_values_dtype_in_probs(self.low, value)
        return P.log(self._inside(value)) - P.log(self.high - self.low)

    def probs(self, value: Tensor) -> Tensor:
        """``1 / (high - low)`` inside the support, 0 outside."""
        value = self._check_values_dtype_in_probs(self.low, value)
        return self._inside(value) / (self.high - self.low)

    def entropy(self) -> Tensor:
        """The entropy ``log(high - low)``."""
        return P.log(self.high - self.low)
