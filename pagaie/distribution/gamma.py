"""Gamma-family distributions: Gamma, Chi2, Exponential, Beta, Dirichlet."""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import (ExponentialFamily, broadcast, dtype_name, holds_everywhere,
                                       open_uniform, sample_via_rsample)

__all__ = ["Gamma", "Chi2", "Exponential", "Beta", "Dirichlet"]


class Gamma(ExponentialFamily):
    r"""The gamma distribution: :math:`p(x) = \frac{\beta^\alpha}{\Gamma(\alpha)} x^{\alpha-1} e^{-\beta x}`.

    Args:
        concentration (float|Tensor): the shape :math:`\alpha > 0`.
        rate (float|Tensor): the rate :math:`\beta > 0`. Both are numbers or both tensors.

    Examples:
        >>> import pagaie as paddle
        >>> g = paddle.distribution.Gamma(paddle.to_tensor([2.0]), paddle.to_tensor([1.0]))
        >>> g.mean.tolist(), round(g.log_prob(paddle.to_tensor([1.0])).item(), 4)
        ([2.0], -1.0)
    """

    def __init__(self, concentration: Any, rate: Any) -> None:
        if self._validate_args(concentration, rate):
            self.concentration, self.rate = concentration, rate
            self.dtype = dtype_name(concentration)
        else:
            self.concentration, self.rate = self._to_tensor(concentration, rate)
            self.dtype = P.get_default_dtype()
        super().__init__(self.concentration.shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``concentration / rate``."""
        return self.concentration / self.rate

    @property
    def variance(self) -> Tensor:
        """Tensor: ``concentration / rate²``."""
        return self.concentration / self.rate.pow(2)

    def prob(self, value: Any) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def log_prob(self, value: Any) -> Tensor:
        """The log density at ``value``."""
        c, r = self.concentration, self.rate
        return c * P.log(r) + (c - 1) * P.log(value) - r * value - P.lgamma(c)

    def entropy(self) -> Tensor:
        """The differential entropy."""
        c = self.concentration
        return c - P.log(self.rate) + P.lgamma(c) + (1.0 - c) * P.digamma(c)

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples ``standard_gamma(concentration) / rate`` (gradients reach ``rate``, as in Paddle)."""
        full = list(self._extend_shape(shape))
        return P.standard_gamma(self.concentration.expand(full)) / self.rate.expand(full)

    def kl_divergence(self, other: "Gamma") -> Tensor:
        """KL(self || other) between two gamma distributions."""
        if not isinstance(other, Gamma):
            raise TypeError("paddle.distribution.Gamma.kl_divergence: 'other' must be a Gamma, "
                            f"but received {type(other).__name__}")
        a1, b1, a2, b2 = self.concentration, self.rate, other.concentration, other.rate
        return a2 * P.log(b1 / b2) + (P.lgamma(a2) - P.lgamma(a1)) + \
            (a1 - a2) * P.digamma(a1) + (b2 - b1) * (a1 / b1)

    @property
    def _natural_parameters(self) -> tuple:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return P.lgamma(x + 1) + (x + 1) * P.log(-y.reciprocal())


class Chi2(Gamma):
    r"""The chi-squared distribution with ``df`` degrees of freedom: ``Gamma(df / 2, 1 / 2)``.

    Args:
        df (float|Tensor): the degrees of freedom, positive.

    Examples:
        >>> import pagaie as paddle
        >>> c = paddle.distribution.Chi2(paddle.to_tensor([4.0]))
        >>> c.mean.tolist(), c.variance.tolist()
        ([4.0], [8.0])
    """

    def __init__(self, df: Any) -> None:
        if self._validate_args(df):
            self.df = df
            self.dtype = dtype_name(df)
        else:
            [self.df] = self._to_tensor(df)
            self.dtype = P.get_default_dtype()
        self.rate = P.full_like(self.df, 0.5)
        if not holds_everywhere(self.df > 0):
            raise ValueError("paddle.distribution.Chi2: the arg of `df` must be positive")
        super().__init__(self.df * 0.5, self.rate)


class Exponential(ExponentialFamily):
    r"""The exponential distribution: :math:`p(x) = \lambda e^{-\lambda x}` for :math:`x \ge 0`.

    Args:
        rate (float|Tensor): the rate :math:`\lambda > 0`.

    Examples:
        >>> import pagaie as paddle
        >>> e = paddle.distribution.Exponential(paddle.to_tensor([2.0]))
        >>> e.mean.tolist(), e.cdf(paddle.to_tensor([0.0])).tolist()
        ([0.5], [0.0])
    """

    def __init__(self, rate: Any) -> None:
        if self._validate_args(rate):
            self.rate = rate
            self.dtype = dtype_name(rate)
        else:
            [self.rate] = self._to_tensor(rate)
            self.dtype = P.get_default_dtype()
        super().__init__(self.rate.shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``1 / rate``."""
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        """Tensor: ``1 / rate²``."""
        return self.rate.pow(-2)

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterised samples ``-log(u) / rate``."""
        full = list(self._extend_shape(shape))
        u = open_uniform(full, self.rate)
        return -P.log(u) / self.rate

    def prob(self, value: Any) -> Tensor:
        """The density ``rate * exp(-rate * value)``."""
        return self.rate * P.exp(-self.rate * value)

    def log_prob(self, value: Any) -> Tensor:
        """``log(rate) - rate * value``."""
        return P.log(self.rate) - self.rate * value

    def entropy(self) -> Tensor:
        """The entropy ``1 - log(rate)``."""
        return 1.0 - P.log(self.rate)

    def cdf(self, value: Any) -> Tensor:
        """``1 - exp(-rate * value)``."""
        return 1.0 - P.exp(-self.rate * value)

    def icdf(self, value: Any) -> Tensor:
        """``-log(1 - value) / rate``."""
        return -P.log1p(-value) / self.rate

    def kl_divergence(self, other: "Exponential") -> Tensor:
        """KL(self || other) between two exponential distributions."""
        if not isinstance(other, Exponential):
            raise TypeError("paddle.distribution.Exponential.kl_divergence: 'other' must be an "
                            f"Exponential, but received {type(other).__name__}")
        ratio = other.rate / self.rate
        return -P.log(ratio) + ratio - 1

    @property
    def _natural_parameters(self) -> tuple:
        return (-self.rate,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return -P.log(-x)


class Dirichlet(ExponentialFamily):
    r"""The Dirichlet distribution over the simplex, with concentration :math:`\alpha`.

    .. math:: p(x) = \frac{\Gamma(\sum_i\alpha_i)}{\prod_i\Gamma(\alpha_i)} \prod_i x_i^{\alpha_i - 1}

    Args:
        concentration (Tensor): ``[*batch_shape, K]``, positive, at least 1-D.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.Dirichlet(paddle.to_tensor([1.0, 2.0, 3.0]))
        >>> d.sample([5]).shape, d.event_shape
        (paddle.Size([5, 3]), (3,))
    """

    def __init__(self, concentration: Tensor) -> None:
        if concentration.dim() < 1 or int(np.prod(concentration.shape)) == 0:
            raise ValueError("paddle.distribution.Dirichlet: `concentration` parameter must be at "
                             f"least one dimensional, but received shape {list(concentration.shape)}")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self) -> Tensor:
        """Tensor: ``concentration / concentration.sum(-1)``."""
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self) -> Tensor:
        """Tensor: the marginal variances."""
        c = self.concentration
        c0 = c.sum(-1, keepdim=True)
        return c * (c0 - c) / (c0.pow(2) * (c0 + 1))

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw points of the simplex, of shape ``[*shape, *batch_shape, K]``."""
        full = list(self._extend_shape(tuple(shape)))
        with P.no_grad():
            g = P.standard_gamma(self.concentration.expand(full))
            return g / g.sum(-1, keepdim=True)

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at the simplex points ``value``."""
        c = self.concentration
        return (P.log(value) * (c - 1.0)).sum(-1) + P.lgamma(c.sum(-1)) - P.lgamma(c).sum(-1)

    def entropy(self) -> Tensor:
        """The differential entropy."""
        c = self.concentration
        c0 = c.sum(-1)
        k = c.shape[-1]
        return P.lgamma(c).sum(-1) - P.lgamma(c0) - (k - c0) * P.digamma(c0) - \
            ((c - 1.0) * P.digamma(c)).sum(-1)

    @property
    def _natural_parameters(self) -> tuple:
        return (self.concentration,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return x.lgamma().sum(-1) - P.lgamma(x.sum(-1))


class Beta(ExponentialFamily):
    r"""The beta distribution on [0, 1]: :math:`p(x) = x^{\alpha-1}(1-x)^{\beta-1} / B(\alpha, \beta)`.

    Args:
        alpha (float|Tensor): :math:`\alpha > 0`.
        beta (float|Tensor): :math:`\beta > 0`. Numbers give default-dtype 0-D tensors; the
            two are broadcast together.

    Examples:
        >>> import pagaie as paddle
        >>> b = paddle.distribution.Beta(paddle.to_tensor([2.0]), paddle.to_tensor([2.0]))
        >>> b.mean.tolist(), round(b.prob(paddle.to_tensor([0.5])).item(), 4)
        ([0.5], 1.5)
    """

    def __init__(self, alpha: Any, beta: Any) -> None:
        if isinstance(alpha, numbers.Real):
            alpha = P.full([], alpha)
        if isinstance(beta, numbers.Real):
            beta = P.full([], beta)
        self.alpha, self.beta = broadcast([alpha, beta], "Beta")
        self._dirichlet = Dirichlet(P.stack([self.alpha, self.beta], -1))
        super().__init__(self._dirichlet._batch_shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``alpha / (alpha + beta)``."""
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self) -> Tensor:
        """Tensor: ``alpha beta / ((alpha + beta)² (alpha + beta + 1))``."""
        s = self.alpha + self.beta
        return self.alpha * self.beta / (s.pow(2) * (s + 1))

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at ``value``."""
        return self._dirichlet.log_prob(P.stack([value, 1.0 - value], -1))

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw samples; like Paddle, a trailing batch axis of size 1 is squeezed away."""
        return P.squeeze(self._dirichlet.sample(tuple(shape))[..., 0], axis=-1)

    def entropy(self) -> Tensor:
        """The differential entropy."""
        return self._dirichlet.entropy()

    @property
    def _natural_parameters(self) -> tuple:
        return (self.alpha, self.beta)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return P.lgamma(x) + P.lgamma(y) - P.lgamma(x + y)
