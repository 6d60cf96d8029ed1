"""Distributions built from others: Independent, TransformedDistribution, LogNormal, Gumbel."""
from __future__ import annotations

import math
import numbers
import typing
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import Distribution, broadcast, sample_via_rsample, sum_rightmost
from pagaie.distribution.normal import Normal, Uniform
from pagaie.distribution.transform import AffineTransform, ChainTransform, ExpTransform, Transform

__all__ = ["Independent", "TransformedDistribution", "LogNormal", "Gumbel"]


class Independent(Distribution):
    r"""Reinterprets the rightmost ``reinterpreted_batch_rank`` batch axes of ``base`` as event
    axes: ``log_prob`` and ``entropy`` are summed over them.

    Args:
        base (Distribution): the base distribution.
        reinterpreted_batch_rank (int): how many batch axes become event axes,
            ``0 < rank <= len(base.batch_shape)``.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> d = D.Independent(D.Normal(paddle.zeros([2, 3]), paddle.ones([2, 3])), 1)
        >>> d.batch_shape, d.event_shape, d.log_prob(paddle.zeros([2, 3])).shape
        ((2,), (3,), paddle.Size([2]))
    """

    def __init__(self, base: Distribution, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Distribution):
            raise TypeError("paddle.distribution.Independent: 'base' must be a Distribution, but "
                            f"received {type(base).__name__}")
        n = len(base.batch_shape)
        if not 0 < reinterpreted_batch_rank <= n:
            raise ValueError("paddle.distribution.Independent: expected 0 < "
                             f"reinterpreted_batch_rank <= {n}, but received "
                             f"{reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        cut = n - reinterpreted_batch_rank
        super().__init__(batch_shape=shape[:cut], event_shape=shape[cut:])

    @property
    def mean(self) -> Tensor:
        """Tensor: the base distribution's mean."""
        return self._base.mean

    @property
    def variance(self) -> Tensor:
        """Tensor: the base distribution's variance."""
        return self._base.variance

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of the base distribution."""
        return self._base.sample(shape)

    # No rsample: Paddle's Independent leaves it to Distribution (NotImplementedError).

    def log_prob(self, value: Tensor) -> Tensor:
        """The base log-density summed over the reinterpreted axes."""
        return sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return self.log_prob(value).exp()

    def entropy(self) -> Tensor:
        """The base entropy summed over the reinterpreted axes."""
        return sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)


class TransformedDistribution(Distribution):
    r"""The distribution of ``y = f_n(...f_1(x))`` for ``x ~ base``.

    .. math:: \log p_Y(y) = \log p_X(x) - \sum_i \log|\det J_{f_i}|

    Args:
        base (Distribution): the distribution of ``x``.
        transforms (Sequence[Transform]): the transforms, applied first to last.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> d = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.ExpTransform()])
        >>> round(d.log_prob(paddle.to_tensor(1.0)).item(), 4)
        -0.9189
    """

    def __init__(self, base: Distribution, transforms: Sequence[Transform]) -> None:
        if not isinstance(base, Distribution):
            raise TypeError("paddle.distribution.TransformedDistribution: 'base' must be a "
                            f"Distribution, but received {type(base).__name__}")
        if not isinstance(transforms, typing.Sequence):
            raise TypeError("paddle.distribution.TransformedDistribution: 'transforms' must be a "
                            f"Sequence[Transform], but received {type(transforms).__name__}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("paddle.distribution.TransformedDistribution: all elements of "
                            "'transforms' must be Transform instances")
        self._base = base
        self._transforms = transforms
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = ChainTransform(transforms)
        rank = chain._domain.event_rank
        full = tuple(base.batch_shape) + tuple(base.event_shape)
        if len(full) < rank:
            raise ValueError("paddle.distribution.TransformedDistribution: 'base' needs a shape "
                             f"of size at least {rank}, but got {len(full)}")
        if rank > len(base.event_shape):
            base = Independent(base, rank - len(base.event_shape))
        shape = tuple(chain.forward_shape(tuple(base.batch_shape) + tuple(base.event_shape)))
        event_rank = chain._codomain.event_rank + max(len(base.event_shape) - rank, 0)
        super().__init__(shape[:len(shape) - event_rank], shape[len(shape) - event_rank:])

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Transformed samples of the base distribution."""
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Transformed reparameterised samples of the base distribution."""
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at ``value``, by the change-of-variables formula."""
        result = 0.0
        y = value
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain.event_rank - t._codomain.event_rank
            result = result - sum_rightmost(t.forward_log_det_jacobian(x),
                                            rank - t._domain.event_rank)
            y = x
        return result + sum_rightmost(self._base.log_prob(y), rank - len(self._base.event_shape))


class LogNormal(TransformedDistribution):
    r"""The log-normal distribution: ``exp(X)`` for ``X ~ Normal(loc, scale)``.

    Args:
        loc (float|list|numpy.ndarray|Tensor): the mean of ``log(Y)``.
        scale (float|list|numpy.ndarray|Tensor): the standard deviation of ``log(Y)``.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.LogNormal(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> round(d.mean.item(), 4), round(d.log_prob(paddle.to_tensor([1.0])).item(), 4)
        (1.6487, -0.9189)
    """

    def __init__(self, loc: Any, scale: Any) -> None:
        self._base = Normal(loc=loc, scale=scale)
        self.loc = self._base.loc
        self.scale = self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self) -> Tensor:
        """Tensor: ``exp(loc + scale² / 2)``."""
        return P.exp(self._base.mean + self._base.variance / 2)

    @property
    def variance(self) -> Tensor:
        """Tensor: ``(exp(scale²) - 1) exp(2 loc + scale²)``."""
        v = self._base.variance
        return P.expm1(v) * P.exp(2 * self._base.mean + v)

    def entropy(self) -> Tensor:
        """The entropy: the normal's entropy plus ``loc``."""
        return self._base.entropy() + self._base.mean

    def probs(self, value: Tensor) -> Tensor:
        """The density at ``value``."""
        return P.exp(self.log_prob(value))

    def kl_divergence(self, other: "LogNormal") -> Tensor:
        """KL(self || other): that of the underlying normals."""
        return self._base.kl_divergence(other._base)


def _real_or_tensor(v: Any, arg: str) -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, numbers.Real):
        return P.full([], v)
    raise TypeError(f"paddle.distribution.Gumbel: '{arg}' must be a real number or a Tensor, but "
                    f"received {type(v).__name__}")


class Gumbel(TransformedDistribution):
    r"""The Gumbel distribution: :math:`p(x) = \frac{1}{\beta} e^{-(z + e^{-z})}`, :math:`z = (x - \mu)/\beta`.

    Args:
        loc (float|Tensor): the location :math:`\mu`.
        scale (float|Tensor): the scale :math:`\beta > 0`.

    Examples:
        >>> import pagaie as paddle
        >>> g = paddle.distribution.Gumbel(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> round(g.mean.item(), 4), round(g.cdf(paddle.to_tensor([0.0])).item(), 4)
        (0.5772, 0.3679)
    """

    def __init__(self, loc: Any, scale: Any) -> None:
        loc = _real_or_tensor(loc, "loc")
        scale = _real_or_tensor(scale, "scale")
        if list(loc.shape) != list(scale.shape):
            loc, scale = broadcast([loc, scale], "Gumbel")
        self.loc, self.scale = loc, scale
        f32 = np.finfo("float32")
        self.base_dist = Uniform(P.full_like(loc, float(f32.tiny)), P.full_like(loc, float(1 - f32.eps)))
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``loc + scale * γ`` (Euler's constant)."""
        return self.loc + self.scale * np.euler_gamma

    @property
    def variance(self) -> Tensor:
        """Tensor: ``π² scale² / 6``."""
        return P.pow(self.scale, 2) * P.full(self.loc.shape, math.pi ** 2, dtype=self.scale.dtype) / 6

    @property
    def stddev(self) -> Tensor:
        """Tensor: the standard deviation."""
        return P.sqrt(self.variance)

    def prob(self, value: Tensor) -> Tensor:
        """The density at ``value``."""
        y = (self.loc - value.astype(self.loc.dtype)) / self.scale.astype(self.loc.dtype)
        return P.exp(y - P.exp(y)) / self.scale.astype(y.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(prob(value))``."""
        return P.log(self.prob(value))

    def cdf(self, value: Tensor) -> Tensor:
        """``exp(-exp(-(x - μ) / β))``."""
        return P.exp(-P.exp(-(value - self.loc.astype(value.dtype)) / self.scale.astype(value.dtype)))

    def entropy(self) -> Tensor:
        """The entropy ``log β + 1 + γ``."""
        return P.log(self.scale) + 1 + np.euler_gamma

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterised samples ``loc - scale * log(-log(u))``."""
        exp = ExpTransform()
        neg = AffineTransform(P.full(self.scale.shape, 0, dtype=self.loc.dtype),
                              -P.ones_like(self.scale))
        out = AffineTransform(self.loc, -self.scale)
        return out.forward(exp.inverse(neg.forward(exp.inverse(self._base.sample(shape)))))
