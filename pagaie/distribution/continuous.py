"""Continuous distributions: Cauchy, Laplace, StudentT, ContinuousBernoulli."""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import (Distribution, broadcast, check_sequence, dtype_name,
                                       sample_via_rsample, shape_tuple)

__all__ = ["Cauchy", "Laplace", "StudentT", "ContinuousBernoulli"]


def _real_or_tensor(v: Any, api: str, arg: str) -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, numbers.Real):
        return P.full([], v)
    raise TypeError(f"paddle.distribution.{api}: '{arg}' must be a real number or a Tensor, "
                    f"but received {type(v).__name__}")


def _need_tensor(v: Any, api: str) -> None:
    if not isinstance(v, Tensor):
        raise TypeError(f"paddle.distribution.{api}: 'value' must be a Tensor, but received "
                        f"{type(v).__name__}")


class Cauchy(Distribution):
    r"""The Cauchy distribution: :math:`p(x) = \frac{1}{\pi\gamma[1 + ((x - x_0)/\gamma)^2]}`.

    It has no mean, variance or standard deviation (those properties raise ValueError).

    Args:
        loc (float|Tensor): the location :math:`x_0`.
        scale (float|Tensor): the scale :math:`\gamma > 0`.
        name (str, optional): a name for the outputs' ops.

    Examples:
        >>> import pagaie as paddle
        >>> c = paddle.distribution.Cauchy(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> c.cdf(paddle.to_tensor([0.0])).tolist()
        [0.5]
        >>> c.rsample([3]).shape
        paddle.Size([3, 1])
    """

    def __init__(self, loc: Any, scale: Any, name: str | None = None) -> None:
        self.name = name if name is not None else "Cauchy"
        loc = _real_or_tensor(loc, "Cauchy", "loc")
        scale = _real_or_tensor(scale, "Cauchy", "scale")
        if list(loc.shape) != list(scale.shape):
            loc, scale = broadcast([loc, scale], "Cauchy")
        self.loc, self.scale = loc, scale
        self.dtype = self.loc.dtype
        super().__init__(batch_shape=self.loc.shape, event_shape=())

    @property
    def mean(self) -> Tensor:
        """The Cauchy distribution has no mean: raises ValueError."""
        raise ValueError("paddle.distribution.Cauchy: Cauchy distribution has no mean.")

    @property
    def variance(self) -> Tensor:
        """The Cauchy distribution has no variance: raises ValueError."""
        raise ValueError("paddle.distribution.Cauchy: Cauchy distribution has no variance.")

    @property
    def stddev(self) -> Tensor:
        """The Cauchy distribution has no standard deviation: raises ValueError."""
        raise ValueError("paddle.distribution.Cauchy: Cauchy distribution has no stddev.")

    def sample(self, shape: Sequence[int] = (), name: str | None = None) -> Tensor:
        """Draw samples (no gradient)."""
        with P.no_grad():
            return self.rsample(shape, name)

    def rsample(self, shape: Sequence[int] = (), name: str | None = None) -> Tensor:
        """Reparameterised samples ``loc + scale * tan(π (u - 1/2))``."""
        if not isinstance(shape, (np.ndarray, Tensor, list, tuple)):
            raise TypeError("paddle.distribution.Cauchy.rsample: 'shape' must be a sequence of "
                            f"ints, but received {type(shape).__name__}")
        dims = shape_tuple(shape, "Cauchy.rsample")
        full = list(self._extend_shape(dims))
        u = P.rand(full, dtype=self.dtype)
        return self.loc.expand(full) + self.scale.expand(full) * P.tan(np.pi * (u - 0.5))

    def prob(self, value: Tensor) -> Tensor:
        """The density at ``value``."""
        _need_tensor(value, "Cauchy.prob")
        return self.log_prob(value).exp()

    def log_prob(self, value: Tensor) -> Tensor:
        """``-log(π γ) - log(1 + ((x - x_0)/γ)²)``."""
        _need_tensor(value, "Cauchy.log_prob")
        value = self._check_values_dtype_in_probs(self.loc, value)
        loc, scale, value = broadcast([self.loc, self.scale, value], "Cauchy.log_prob")
        z = P.square((value - loc) / scale)
        return -z.log1p() - (P.full(loc.shape, np.log(np.pi), dtype=self.dtype) + scale.log())

    def cdf(self, value: Tensor) -> Tensor:
        """``atan((x - x_0)/γ) / π + 1/2``."""
        _need_tensor(value, "Cauchy.cdf")
        value = self._check_values_dtype_in_probs(self.loc, value)
        loc, scale, value = broadcast([self.loc, self.scale, value], "Cauchy.cdf")
        return P.atan((value - loc) / scale) / np.pi + 0.5

    def entropy(self) -> Tensor:
        """The entropy ``log(4π γ)``."""
        return P.full(self.loc.shape, np.log(4 * np.pi), dtype=self.dtype) + self.scale.log()

    def kl_divergence(self, other: "Cauchy") -> Tensor:
        """KL(self || other) between two Cauchy distributions."""
        if not isinstance(other, Cauchy):
            raise TypeError("paddle.distribution.Cauchy.kl_divergence: 'other' must be a "
                            f"Cauchy, but received {type(other).__name__}")
        t1 = (P.pow(self.scale + other.scale, 2) + P.pow(self.loc - other.loc, 2)).log()
        t2 = (4 * (self.scale * other.scale)).log()
        return t1 - t2


class Laplace(Distribution):
    r"""The Laplace distribution: :math:`p(x) = \frac{1}{2b} e^{-|x - \mu| / b}`.

    Args:
        loc (float|Tensor): the location :math:`\mu`.
        scale (float|Tensor): the scale :math:`b > 0`.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.Laplace(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> d.cdf(paddle.to_tensor([0.0])).tolist(), d.variance.tolist()
        ([0.5], [1.9999998807907104])
    """

    def __init__(self, loc: Any, scale: Any) -> None:
        loc = _real_or_tensor(loc, "Laplace", "loc")
        scale = _real_or_tensor(scale, "Laplace", "scale")
        if (scale.ndim > 0 or loc.ndim > 0) and loc.dtype == scale.dtype:
            loc, scale = broadcast([loc, scale], "Laplace")
        self.loc, self.scale = loc, scale
        super().__init__(self.loc.shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``loc``."""
        return self.loc

    @property
    def stddev(self) -> Tensor:
        """Tensor: ``sqrt(2) * scale``."""
        return 2 ** 0.5 * self.scale

    @property
    def variance(self) -> Tensor:
        """Tensor: ``2 scale²``."""
        return self.stddev.pow(2)

    def _validate_value(self, value: Any) -> tuple:
        if isinstance(value, numbers.Real):
            value = P.full([], value)
        if value.dtype != self.scale.dtype:
            value = P.cast(value, self.scale.dtype)
        if self.scale.ndim > 0 or self.loc.ndim > 0 or value.ndim > 0:
            return tuple(broadcast([self.loc, self.scale, value], "Laplace"))
        return self.loc, self.scale, value

    def log_prob(self, value: Any) -> Tensor:
        """``-log(2b) - |x - μ| / b``."""
        loc, scale, value = self._validate_value(value)
        return -P.log(2 * scale) - P.abs(value - loc) / scale

    def entropy(self) -> Tensor:
        """The entropy ``1 + log(2b)``."""
        return 1 + P.log(2 * self.scale)

    def cdf(self, value: Any) -> Tensor:
        """The cumulative distribution function."""
        loc, scale, value = self._validate_value(value)
        d = value - loc
        return 0.5 - 0.5 * d.sign() * P.expm1(-d.abs() / scale)

    def icdf(self, value: Any) -> Tensor:
        """The inverse CDF (quantile function)."""
        loc, scale, value = self._validate_value(value)
        t = value - 0.5
        return loc - scale * t.sign() * P.log1p(-2 * t.abs())

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterised samples by the inverse CDF of uniform noise on (-1, 1)."""
        eps = 2.22045e-16 if self.loc.dtype in (P.float64, P.complex128) else 1.19209e-07
        full = list(self._extend_shape(tuple(shape)))
        u = P.uniform(full, min=float(np.nextafter(-1, 1)) + eps / 2, max=1.0 - eps / 2,
                      dtype=dtype_name(self.loc))
        return self.loc - self.scale * u.sign() * P.log1p(-u.abs())

    def kl_divergence(self, other: "Laplace") -> Tensor:
        """KL(self || other) between two Laplace distributions."""
        t = P.abs(self.loc - other.loc)
        return (self.scale * P.exp(-t / self.scale) + t) / other.scale + \
            P.log(other.scale / self.scale) - 1


class StudentT(Distribution):
    r"""Student's t distribution with ``df`` degrees of freedom, location and scale.

    .. math:: p(x) = \frac{\Gamma((\nu+1)/2)}{\sigma\sqrt{\nu\pi}\,\Gamma(\nu/2)}
              \left(1 + \frac{1}{\nu}\left(\frac{x-\mu}{\sigma}\right)^2\right)^{-(\nu+1)/2}

    Args:
        df (float|Tensor): degrees of freedom, non-negative.
        loc (float|Tensor): the location.
        scale (float|Tensor): the scale, non-negative.
        name (str, optional): a name for the outputs' ops.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.StudentT(paddle.to_tensor([3.0]), paddle.to_tensor([0.0]),
        ...                                  paddle.to_tensor([1.0]))
        >>> round(t.log_prob(paddle.to_tensor([0.0])).item(), 4)
        -1.0009
    """

    def __init__(self, df: Any, loc: Any, scale: Any, name: str | None = None) -> None:
        from pagaie.distribution.gamma import Gamma
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = self._broadcast_all(df, loc, scale)
        for arg, t in (("df", self.df), ("scale", self.scale)):
            if not bool((t >= 0.0).all()):
                raise ValueError(f"paddle.distribution.StudentT: every element of '{arg}' should "
                                 "be nonnegative")
        super().__init__(self.df.shape)
        self._chi2 = Gamma(0.5 * self.df, P.full_like(self.df, 0.5))

    @property
    def mean(self) -> Tensor:
        """Tensor: ``loc`` where ``df > 1``, NaN elsewhere."""
        return P.where(self.df > 1.0, self.loc, P.full_like(self.loc, float("nan")))

    @property
    def variance(self) -> Tensor:
        """Tensor: ``scale² df / (df - 2)`` for ``df > 2``, inf for ``1 < df <= 2``, else NaN."""
        df = self.df.clone().detach()
        var = P.where(self.df > 2.0, self.scale.pow(2) * df / (df - 2),
                      P.full_like(df, float("nan")))
        return P.where((self.df <= 2.0).logical_and(self.df > 1.0),
                       P.full_like(var, float("inf")), var)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw samples ``loc + scale * z / sqrt(chi2 / df)``."""
        check_sequence(shape, "StudentT")
        z = P.normal(shape=list(self._extend_shape(shape)))
        chi2 = self._chi2.sample(shape)
        return self.loc + self.scale * (z * P.rsqrt(chi2 / self.df))

    def entropy(self) -> Tensor:
        """The differential entropy."""
        df = self.df
        lbeta = P.lgamma(0.5 * df) + math.lgamma(0.5) - P.lgamma(0.5 * (df + 1))
        return self.scale.log() + 0.5 * (df + 1) * (P.digamma(0.5 * (df + 1)) - P.digamma(0.5 * df)) \
            + 0.5 * df.log() + lbeta

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at ``value``."""
        value = self._check_values_dtype_in_probs(self.df, value)
        df = self.df
        y = (value - self.loc) / self.scale
        z = self.scale.log() + 0.5 * df.log() + 0.5 * math.log(math.pi) + P.lgamma(0.5 * df) \
            - P.lgamma(0.5 * (df + 1.0))
        return -0.5 * (df + 1.0) * P.log1p(y ** 2.0 / df) - z

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))


class ContinuousBernoulli(Distribution):
    r"""The continuous Bernoulli distribution on [0, 1]: :math:`p(x) = C(\lambda)\lambda^x(1-\lambda)^{1-x}`.

    Near ``probs = 0.5`` (inside ``lims``) the normaliser and moments use Taylor expansions.

    Args:
        probs (float|Tensor): the parameter :math:`\lambda` in (0, 1). A Python number gives a
            1-element tensor of the default dtype.
        lims (tuple, optional): the interval around 0.5 where Taylor expansions are used.
            Default ``(0.499, 0.501)``.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.ContinuousBernoulli(paddle.to_tensor([0.2]))
        >>> round(d.mean.item(), 4), round(d.cdf(paddle.to_tensor([0.5])).item(), 4)
        (0.388, 0.6667)
    """

    def __init__(self, probs: Any, lims: tuple = (0.499, 0.501)) -> None:
        self.dtype = P.get_default_dtype()
        if isinstance(probs, (float, int)):
            probs = P.to_tensor([probs], dtype=self.dtype)
        elif not isinstance(probs, Tensor):
            # Paddle reads ``probs.dtype`` and then clips: AttributeError without a dtype,
            # ValueError (from clip's argument check) for a numpy array.
            error = ValueError if hasattr(probs, "dtype") else AttributeError
            raise error("paddle.distribution.ContinuousBernoulli: 'probs' must be a float or a "
                        f"Tensor, but received {type(probs).__name__}")
        else:
            self.dtype = probs.dtype  # a DataType here, as in Paddle (a name otherwise)
        self.lims = P.to_tensor(lims, dtype=self.dtype)
        eps = float(P.finfo(probs.dtype).eps)
        self.probs = P.clip(probs, min=eps, max=1 - eps)
        super().__init__(self.probs.shape)

    def _outside(self) -> Tensor:
        """True where ``probs`` lies outside ``lims`` (the exact formulas are stable there)."""
        return P.logical_or(self.probs <= self.lims[0], self.probs > self.lims[1])

    def _cut_probs(self) -> Tensor:
        return P.where(self._outside(), self.probs, self.lims[0] * P.ones_like(self.probs))

    @staticmethod
    def _atanh(v: Tensor) -> Tensor:
        return 0.5 * (P.log1p(v) - P.log1p(-v))

    def _log_constant(self) -> Tensor:
        cut = self._cut_probs()
        low = cut <= 0.5
        below = P.where(low, cut, P.zeros_like(cut))
        above = P.where(cut >= 0.5, cut, P.ones_like(cut))
        exact = P.log(2.0 * P.abs(self._atanh(1.0 - 2.0 * cut))) - \
            P.where(low, P.log1p(-2.0 * below), P.log(2.0 * above - 1.0))
        x = P.square(self.probs - 0.5)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return P.where(self._outside(), exact, taylor)

    @property
    def mean(self) -> Tensor:
        """Tensor: the mean."""
        cut = self._cut_probs()
        exact = cut / (2.0 * cut - 1.0) + 1.0 / (2.0 * self._atanh(1.0 - 2.0 * cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * P.square(x)) * x
        return P.where(self._outside(), exact, taylor)

    @property
    def variance(self) -> Tensor:
        """Tensor: the variance."""
        cut = self._cut_probs()
        exact = cut * (cut - 1.0) / P.square(1.0 - 2.0 * cut) + \
            1.0 / P.square(P.log1p(-cut) - P.log(cut))
        x = P.square(self.probs - 0.5)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return P.where(self._outside(), exact, taylor)

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterised samples by the inverse CDF of uniform noise."""
        check_sequence(shape, "ContinuousBernoulli")
        full = list(tuple(shape) + tuple(self.batch_shape))
        return self.icdf(P.uniform(full, dtype=self.dtype, min=0, max=1))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at ``value``."""
        value = P.cast(value, self.dtype)
        eps = float(P.finfo(self.probs.dtype).eps)
        ce = P.nan_to_num(value * P.log(self.probs) + (1.0 - value) * P.log(1 - self.probs),
                          neginf=-eps)
        return self._log_constant() + ce

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def entropy(self) -> Tensor:
        """The differential entropy (0 at ``probs == 0.5``)."""
        log_p, log_q = P.log(self.probs), P.log1p(-self.probs)
        h = -self._log_constant() + self.mean * (log_q - log_p) - log_q
        return P.where(self.probs == 0.5, P.full_like(self.probs, 0.0), h)

    def cdf(self, value: Tensor) -> Tensor:
        """The cumulative distribution function."""
        value = P.cast(value, self.dtype)
        cut = self._cut_probs()
        exact = (P.pow(cut, value) * P.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (2.0 * cut - 1.0)
        inner = P.where(self._outside(), exact, value)
        return P.where(value <= 0.0, P.zeros_like(value),
                       P.where(value >= 1.0, P.ones_like(value), inner))

    def icdf(self, value: Tensor) -> Tensor:
        """The inverse CDF (quantile function)."""
        value = P.cast(value, self.dtype)
        cut = self._cut_probs()
        exact = (P.log1p(-cut + value * (2.0 * cut - 1.0)) - P.log1p(-cut)) / \
            (P.log(cut) - P.log1p(-cut))
        return P.where(self._outside(), exact, value)

    def kl_divergence(self, other: "ContinuousBernoulli") -> Tensor:
        """KL(self || other); both must have the same batch shape."""
        if self.batch_shape != other.batch_shape:
            raise ValueError("paddle.distribution.ContinuousBernoulli.kl_divergence: KL divergence "
                             "of two Continuous Bernoulli distributions should share the same "
                             f"`batch_shape`, but got {self.batch_shape} and {other.batch_shape}")
        log_q, log_1q = P.log(other.probs), P.log1p(-other.probs)
        return -self.entropy() - (other._log_constant() + self.mean * (log_q - log_1q) + log_1q)
