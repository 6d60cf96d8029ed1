"""Discrete distributions: Bernoulli, Categorical, Geometric, Binomial, Poisson, Multinomial."""
from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import (Distribution, ExponentialFamily, broadcast, check_sequence,
                                       dtype_name, int_dims, open_uniform, sample_via_rsample,
                                       shape_tuple)

__all__ = ["Bernoulli", "Categorical", "Geometric", "Binomial", "Poisson", "Multinomial"]


def _F():
    return P.nn.functional


def _eps(dtype: Any) -> float:
    return float(P.finfo(dtype).eps)


class Bernoulli(ExponentialFamily):
    r"""The Bernoulli distribution: 1 with probability ``probs``, 0 otherwise.

    ``probs`` is clipped to ``[eps, 1 - eps]`` of its dtype; ``logits`` is
    ``log(p) - log(1 - p)``.

    Args:
        probs (float|Tensor): the probability of 1. A Python float gives the default dtype.
        name (str, optional): a name for the outputs' ops.

    Examples:
        >>> import pagaie as paddle
        >>> b = paddle.distribution.Bernoulli(paddle.to_tensor([0.3, 0.5]))
        >>> b.sample([4]).shape
        paddle.Size([4, 2])
        >>> [round(v, 4) for v in b.log_prob(paddle.to_tensor([1.0, 0.0])).tolist()]
        [-1.204, -0.6931]
    """

    def __init__(self, probs: Any, name: str | None = None) -> None:
        self.name = name or "Bernoulli"
        if self._validate_args(probs):
            self.dtype = dtype_name(probs)
        else:
            [probs] = self._to_tensor(probs)
            self.dtype = P.get_default_dtype()
        if not P.is_floating_point(probs):
            raise TypeError(f"paddle.distribution.Bernoulli: 'probs' must be a floating-point Tensor, "
                            f"but received dtype {self.dtype}")
        eps = _eps(self.dtype) if self.dtype in ("float32", "float64") else None
        self.probs = P.clip(probs, min=eps, max=None if eps is None else 1 - eps).astype(self.dtype)
        self.logits = self._probs_to_logits(self.probs, is_binary=True)
        super().__init__(batch_shape=self.probs.shape, event_shape=())

    @property
    def mean(self) -> Tensor:
        """Tensor: ``probs``."""
        return self.probs

    @property
    def variance(self) -> Tensor:
        """Tensor: ``probs * (1 - probs)``."""
        return self.probs * (1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw 0/1 samples (of the distribution's dtype) of shape ``[*shape, *batch_shape]``."""
        full = list(self._extend_shape(shape_tuple(shape, "Bernoulli.sample")))
        with P.no_grad():
            return P.bernoulli(self.probs.expand(full))

    def rsample(self, shape: Sequence[int] = (), temperature: float = 1.0) -> Tensor:
        """Relaxed samples: logistic noise plus ``logits``, divided by ``temperature``.

        The result is the relaxed Bernoulli's logit (apply a sigmoid to get values in (0, 1)).
        """
        full = list(self._extend_shape(shape_tuple(shape, "Bernoulli.rsample")))
        temp = P.full([], temperature, dtype=self.dtype)
        probs = self.probs.expand(full)
        u = P.rand(full, dtype=self.dtype)
        return ((u.log() - (-u).log1p()) + (probs.log() - (-probs).log1p())) / temp

    def cdf(self, value: Tensor) -> Tensor:
        """The CDF: 0 below 0, ``1 - probs`` on [0, 1), 1 from 1 on."""
        value = self._check_values_dtype_in_probs(self.probs, value)
        probs, value = broadcast([self.probs, value], "Bernoulli.cdf")
        return P.where(value < 0, P.zeros_like(probs),
                       P.where(value < 1, 1 - probs, P.ones_like(probs)))

    def log_prob(self, value: Tensor) -> Tensor:
        """``value * log(p) + (1 - value) * log(1 - p)``."""
        value = self._check_values_dtype_in_probs(self.probs, value)
        logits, value = broadcast([self.logits, value], "Bernoulli.log_prob")
        return -_F().binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return self.log_prob(value).exp()

    def entropy(self) -> Tensor:
        """The entropy ``-p log p - (1 - p) log(1 - p)``."""
        return _F().binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def kl_divergence(self, other: "Bernoulli") -> Tensor:
        """KL(self || other) between two Bernoulli distributions."""
        if not isinstance(other, Bernoulli):
            raise TypeError("paddle.distribution.Bernoulli.kl_divergence: 'other' must be a "
                            f"Bernoulli, but received {type(other).__name__}")
        F = _F()
        a, b = self.logits, other.logits
        pa, qa = F.sigmoid(a), F.sigmoid(-a)
        return (-F.softplus(-a) * pa - (-F.softplus(-b)) * pa) + \
            (-F.softplus(a) * qa - (-F.softplus(b)) * qa)


class _NotATensorError(TypeError, AttributeError):
    """A non-Tensor ``value``: a TypeError, and the AttributeError Paddle raises (it calls
    Tensor methods on the value)."""


class Categorical(Distribution):
    r"""A categorical distribution over ``K`` classes given by the last axis of ``logits``.

    As in Paddle, ``logits`` is used two ways: sampling, ``entropy`` and ``kl_divergence``
    take ``softmax(logits)`` as the class probabilities, while ``probs`` / ``log_prob``
    use ``logits / logits.sum(-1)`` (so pass non-negative weights to use those).

    Args:
        logits (list|numpy.ndarray|Tensor): the class weights, ``[*batch_shape, K]``.
        name (str, optional): a name for the outputs' ops.

    Examples:
        >>> import pagaie as paddle
        >>> c = paddle.distribution.Categorical(paddle.to_tensor([0.2, 0.3, 0.5]))
        >>> c.sample([4]).shape
        paddle.Size([4])
        >>> c.probs(paddle.to_tensor([2, 0])).tolist()
        [0.5, 0.20000000298023224]
    """

    def __init__(self, logits: Any, name: str | None = None) -> None:
        self.name = name if name is not None else "Categorical"
        self.dtype = "float32"
        if self._validate_args(logits):
            self.logits = logits
            self.dtype = dtype_name(logits)
        else:
            if isinstance(logits, np.ndarray) and str(logits.dtype) in ("float32", "float64"):
                self.dtype = str(logits.dtype)
            self.logits = self._to_tensor(logits)[0]
            if self.dtype != dtype_name(self.logits):
                self.logits = P.cast(self.logits, self.dtype)
        self._prob = self.logits / P.sum(self.logits, axis=-1, keepdim=True)
        # Paddle never sets these (its batch_shape raises AttributeError); the batch is
        # every axis of ``logits`` but the last, as ``sample`` draws.
        super().__init__(tuple(self.logits.shape[:-1]))

    def sample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default, never mutated
        """Draw class indices (int64) of shape ``[*shape, *batch_shape]``.

        As in Paddle, batched logits take a list ``shape`` only (Paddle appends the batch
        shape to it with ``+``), and a numpy array is refused."""
        dims = list(self.logits.shape)
        # A numpy scalar added to the batch shape becomes an array too; a float is no shape
        # for unbatched logits (a Python float added to the batch list is a TypeError below).
        if (isinstance(shape, np.ndarray) or (len(dims) > 1 and isinstance(shape, np.number))
                or (len(dims) == 1 and isinstance(shape, (float, np.floating)))):
            raise ValueError("paddle.distribution.Categorical.sample: shape must be a list, tuple "
                             f"or Tensor, but received {type(shape).__name__}")
        if len(dims) > 1 and not isinstance(shape, list):
            raise TypeError("paddle.distribution.Categorical.sample: with batched logits the "
                            f"shape must be a list, but received {type(shape).__name__}")
        if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
            shape = [shape]     # Paddle takes a bare int for the number of draws
        shape = list(shape_tuple(shape, "Categorical.sample"))
        n = int(np.prod(shape)) if shape else 1
        logits = self.logits
        if len(dims) > 1:
            logits = P.reshape(logits, [int(np.prod(dims[:-1])), dims[-1]])
            out_shape = shape + dims[:-1]
        else:
            out_shape = shape
        idx = P.multinomial(self._logits_to_probs(logits), n, True)
        if idx.ndim > 1:
            idx = idx.t()
        return P.reshape(idx, out_shape)

    def _normalised(self, logits: Tensor) -> tuple:
        shifted = logits - P.max(logits, axis=-1, keepdim=True)
        z = P.sum(P.exp(shifted), axis=-1, keepdim=True)
        return shifted, z

    def kl_divergence(self, other: "Categorical") -> Tensor:
        """KL(self || other) of the softmax probabilities, keeping a trailing axis of size 1."""
        a, za = self._normalised(self.logits)
        b, zb = self._normalised(other.logits)
        p = P.exp(a) / za
        return P.sum(p * (a - P.log(za) - b + P.log(zb)), axis=-1, keepdim=True)

    def entropy(self) -> Tensor:
        """The entropy of ``softmax(logits)``, of shape ``batch_shape``."""
        a, z = self._normalised(self.logits)
        p = P.exp(a) / z
        return -P.sum(p * (a - P.log(z)), axis=-1)

    def probs(self, value: Tensor) -> Tensor:
        """The probabilities (``logits / logits.sum(-1)``) of the class indices ``value``."""
        self._check_indices(value, "probs")
        return self._gather(value)

    @staticmethod
    def _check_indices(value: Any, api: str) -> None:
        """``value`` must be an integer Tensor: a ValueError for another dtype, as Paddle's
        gather raises (with a batch of ``logits`` Paddle reads memory it never wrote)."""
        where = f"paddle.distribution.Categorical.{api}"
        if not isinstance(value, Tensor):
            raise _NotATensorError(f"{where}: 'value' must be a Tensor of class indices, but received "
                            f"{type(value).__name__}")
        if dtype_name(value) not in ("int32", "int64"):
            raise ValueError(f"{where}: 'value' must be an int32 or int64 Tensor of class "
                             f"indices, but received dtype {dtype_name(value)}")

    def _gather(self, value: Tensor) -> Tensor:
        prob = self._prob
        if prob.ndim == 1:
            return P.gather(prob, value.reshape([-1])).reshape(value.shape)
        if value.ndim == 1:
            return P.take_along_axis(prob, P.reshape(value, [1] * (prob.ndim - 1) + [-1]), axis=-1)
        return P.take_along_axis(prob, value, axis=-1)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(probs(value))``."""
        self._check_indices(value, "log_prob")
        return P.log(self._gather(value))


class Geometric(Distribution):
    r"""The geometric distribution: the number of failures before the first success.

    .. math:: P(X = k) = (1 - p)^k p, \quad k = 0, 1, 2, \ldots

    Args:
        probs (float|Tensor): the success probability, in (0, 1].

    Examples:
        >>> import pagaie as paddle
        >>> g = paddle.distribution.Geometric(paddle.to_tensor([0.5]))
        >>> g.mean.tolist(), g.pmf(paddle.to_tensor([2.0])).tolist()
        ([1.0], [0.125])
    """

    def __init__(self, probs: Any) -> None:
        if isinstance(probs, numbers.Real):
            probs = P.full([], probs, dtype="float32")
        elif not isinstance(probs, Tensor):
            raise TypeError("paddle.distribution.Geometric: 'probs' must be a real number or a "
                            f"Tensor, but received {type(probs).__name__}")
        self.probs = probs
        super().__init__(tuple(probs.shape))

    @property
    def mean(self) -> Tensor:
        """Tensor: ``1 / p - 1``."""
        return 1.0 / self.probs - 1.0

    @property
    def variance(self) -> Tensor:
        """Tensor: ``(1 / p - 1) / p``, without gradient (Paddle rebuilds it with to_tensor,
        which cuts it from the graph; so is ``stddev``)."""
        return ((1.0 / self.probs - 1.0) / self.probs).detach()

    @property
    def stddev(self) -> Tensor:
        """Tensor: the standard deviation."""
        return P.sqrt(self.variance)

    @staticmethod
    def _check_k(k: Any, api: str) -> None:
        if not isinstance(k, (numbers.Integral, Tensor)):
            raise TypeError(f"paddle.distribution.Geometric.{api}: 'k' must be an integer or a "
                            f"Tensor, but received {type(k).__name__}")

    def pmf(self, k: Any) -> Tensor:
        """``P(X = k) = (1 - p)^k p``."""
        self._check_k(k, "pmf")
        return P.pow(1.0 - self.probs, k) * self.probs

    def log_pmf(self, k: Any) -> Tensor:
        """``log P(X = k)``."""
        self._check_k(k, "log_pmf")
        return P.log(self.pmf(k))

    # log_prob and prob stay Distribution's (NotImplementedError), as in Paddle: a Geometric
    # is evaluated with pmf / log_pmf.

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples ``floor(log(u) / log(1 - p))`` with ``u`` uniform on (0, 1)."""
        full = list(self._extend_shape(shape))
        u = open_uniform(full, self.probs)
        return P.floor(P.log(u) / P.log1p(-self.probs))

    def entropy(self) -> Tensor:
        """The entropy ``-((1-p) log(1-p) + p log p) / p``."""
        p = self.probs
        return -((1.0 - p) * P.log(1.0 - p) + p * P.log(p)) / p

    def cdf(self, k: Any) -> Tensor:
        """``P(X <= k) = 1 - (1 - p)^(k + 1)``."""
        self._check_k(k, "cdf")
        return 1.0 - P.pow(1.0 - self.probs, k + 1)

    def kl_divergence(self, other: "Geometric") -> Tensor:
        """KL(self || other) between two geometric distributions."""
        if not isinstance(other, Geometric):
            raise TypeError("paddle.distribution.Geometric.kl_divergence: 'other' must be a "
                            f"Geometric, but received {type(other).__name__}")
        p, q = self.probs, other.probs
        return p * P.log(p / q) + (1.0 - p) * P.log((1.0 - p) / (1.0 - q))


class Binomial(Distribution):
    r"""The binomial distribution: successes in ``total_count`` trials of probability ``probs``.

    Args:
        total_count (int|Tensor): the number of trials.
        probs (float|Tensor): the success probability. Its dtype (default dtype for a float)
            is the distribution's.

    Examples:
        >>> import pagaie as paddle
        >>> b = paddle.distribution.Binomial(10, paddle.to_tensor([0.5]))
        >>> b.mean.tolist(), round(b.prob(paddle.to_tensor([5.0])).item(), 4)
        ([5.0], 0.2461)
    """

    def __init__(self, total_count: Any, probs: Any) -> None:
        self.dtype = P.get_default_dtype()
        if isinstance(probs, float):
            probs = P.to_tensor(probs, dtype=self.dtype)
        else:
            self.dtype = probs.dtype  # a DataType here, as in Paddle (a name otherwise)
        if isinstance(total_count, int):
            total_count = P.to_tensor(total_count, dtype=self.dtype)
        else:
            total_count = P.cast(total_count, self.dtype)
        self.total_count, self.probs = broadcast([total_count, probs], "Binomial")
        super().__init__(self.total_count.shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``n p``."""
        return self.total_count * self.probs

    @property
    def variance(self) -> Tensor:
        """Tensor: ``n p (1 - p)``."""
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw success counts (of the distribution's dtype)."""
        check_sequence(shape, "Binomial")
        full = list(tuple(shape) + tuple(self.batch_shape))
        with P.no_grad():
            n = P.broadcast_to(self.total_count, full)
            p = P.broadcast_to(self.probs, full)
            return P.cast(P.binomial(P.cast(n, "int32"), p), self.dtype)

    def _support(self) -> Tensor:
        values = P.arange(1 + P.max(self.total_count), dtype=self.dtype)
        return values.reshape((-1,) + (1,) * len(self.batch_shape))

    def entropy(self) -> Tensor:
        """The entropy, summed over the support ``0..max(total_count)``."""
        lp = self.log_prob(self._support())
        return -(P.exp(lp) * lp).sum(0)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log C(n, k) + k log p + (n - k) log(1 - p)`` (``-eps`` where that is ``-inf``)."""
        value = P.cast(value, self.dtype)
        n = self.total_count
        log_comb = P.lgamma(n + 1.0) - P.lgamma(n - value + 1.0) - P.lgamma(value + 1.0)
        eps = _eps(self.probs.dtype)
        p = P.clip(self.probs, min=eps, max=1 - eps)
        return P.nan_to_num(log_comb + value * P.log(p) + (n - value) * P.log(1 - p), neginf=-eps)

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def kl_divergence(self, other: "Binomial") -> Tensor:
        """KL(self || other), summed over this distribution's support."""
        support = self._support()
        lp1, lp2 = self.log_prob(support), other.log_prob(support)
        return (P.exp(lp1) * (lp1 - lp2)).sum(0)


class Poisson(Distribution):
    r"""The Poisson distribution with rate ``rate``: :math:`P(k) = \lambda^k e^{-\lambda} / k!`.

    Args:
        rate (float|Tensor): the rate. A Python number gives a 1-element tensor of the
            default dtype (batch shape ``(1,)``), as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.Poisson(paddle.to_tensor([2.0]))
        >>> round(d.prob(paddle.to_tensor([1.0])).item(), 4)
        0.2707
    """

    def __init__(self, rate: Any) -> None:
        self.dtype = P.get_default_dtype()
        if isinstance(rate, (float, int)):
            rate = P.to_tensor([rate], dtype=self.dtype)
        else:
            self.dtype = dtype_name(rate)
        self.rate = rate
        super().__init__(self.rate.shape)

    @property
    def mean(self) -> Tensor:
        """Tensor: ``rate``."""
        return self.rate

    @property
    def variance(self) -> Tensor:
        """Tensor: ``rate``."""
        return self.rate

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw counts (of the distribution's dtype)."""
        check_sequence(shape, "Poisson")
        full = list(tuple(shape) + tuple(self.batch_shape))
        with P.no_grad():
            return P.poisson(P.broadcast_to(self.rate, full))

    def _bounded_support(self, rate: Tensor) -> Tensor:
        """``0 .. rate + 30 sqrt(rate)``: where all but a negligible mass lies."""
        # sqrt(max rate), or 1 where the largest rate is below 1: written without a branch on
        # data, so the same code builds a static program.
        spread = P.sqrt(P.clip(P.max(rate), min=1.0))
        upper = P.max(P.cast(rate + 30 * spread, "int32"))
        return P.arange(0, upper, dtype=self.dtype)

    def entropy(self) -> Tensor:
        """The entropy, summed over the bounded support (0 where ``rate`` is 0)."""
        values = self._bounded_support(self.rate).reshape((-1,) + (1,) * len(self.batch_shape))
        lp = self.log_prob(values)
        proposed = -(P.exp(lp) * lp).sum(0)
        return proposed * P.cast(self.rate != 0.0, self.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        """``k log(rate) - rate - log(k!)`` (``-eps`` where that is ``-inf``)."""
        value = P.cast(value, self.dtype)
        eps = _eps(self.rate.dtype)
        return P.nan_to_num(-self.rate + value * P.log(self.rate) - P.lgamma(value + 1),
                            neginf=-eps)

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def kl_divergence(self, other: "Poisson") -> Tensor:
        """KL(self || other), summed over a support bounding both rates."""
        if self.batch_shape != other.batch_shape:
            raise ValueError("paddle.distribution.Poisson.kl_divergence: KL divergence of two "
                             "poisson distributions should share the same `batch_shape`, but got "
                             f"{self.batch_shape} and {other.batch_shape}")
        top = P.max(P.maximum(self.rate, other.rate))
        a_max = P.max(self._bounded_support(top))
        support = P.arange(0, a_max, dtype=self.dtype).reshape((-1,) + (1,) * len(self.batch_shape))
        lp1, lp2 = self.log_prob(support), other.log_prob(support)
        return (P.exp(lp1) * (lp1 - lp2)).sum(0)


class Multinomial(Distribution):
    r"""The multinomial distribution: counts of ``total_count`` draws over the classes of ``probs``.

    Args:
        total_count (int): the number of draws, at least 1.
        probs (Tensor): the class weights ``[*batch_shape, K]`` (normalised along the last axis).

    Examples:
        >>> import pagaie as paddle
        >>> m = paddle.distribution.Multinomial(4, paddle.to_tensor([0.2, 0.3, 0.5]))
        >>> m.sample([2]).shape
        paddle.Size([2, 3])
        >>> round(m.prob(paddle.to_tensor([1.0, 1.0, 2.0])).item(), 4)
        0.18
    """

    def __init__(self, total_count: int, probs: Tensor) -> None:
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("paddle.distribution.Multinomial: 'total_count' must be an int "
                             f"greater than zero, but received {total_count!r}")
        if probs.dim() < 1:
            raise ValueError("paddle.distribution.Multinomial: 'probs' must have at least one "
                             f"dimension, but received shape {list(probs.shape)}")
        self.probs = probs / probs.sum(-1, keepdim=True)
        self.total_count = total_count
        self._categorical = Categorical(logits=self._probs_to_logits(probs))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    @property
    def mean(self) -> Tensor:
        """Tensor: ``n p``."""
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        """Tensor: ``n p (1 - p)``."""
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(n! / prod(k_i!)) + sum(k_i log p_i)``."""
        if P.is_integer(value):
            value = P.cast(value, self.probs.dtype)
        logits, value = broadcast([P.log(self.probs), value], "Multinomial.log_prob")
        logits = P.where((value == 0) & P.isinf(logits), P.zeros_like(logits), logits)
        return P.lgamma(value.sum(-1) + 1) - P.lgamma(value + 1).sum(-1) + (value * logits).sum(-1)

    def sample(self, shape: Iterable = ()) -> Tensor:
        """Draw count vectors of shape ``[*shape, *batch_shape, K]``."""
        if not isinstance(shape, Iterable) or isinstance(shape, Tensor):
            raise TypeError("paddle.distribution.Multinomial.sample: sample shape must be "
                            f"Iterable object, but received {type(shape).__name__}")
        dims = int_dims(shape, "Multinomial.sample")
        idx = self._categorical.sample([self.total_count, *dims])
        return _F().one_hot(idx, self.probs.shape[-1]).cast(self.probs.dtype).sum(0)

    def entropy(self) -> Tensor:
        """The entropy, via the binomial marginals of the class counts."""
        n = P.full([], self.total_count, dtype=self.probs.dtype)
        support = P.arange(self.total_count + 1, dtype=self.probs.dtype)
        support = support.reshape((-1,) + (1,) * self.probs.ndim)[1:]
        pmf = P.exp(self._binomial_logpmf(n, support))
        return n * self._categorical.entropy() - P.lgamma(n + 1) + \
            (pmf * P.lgamma(support + 1)).sum([0, -1])

    def _binomial_logpmf(self, count: Tensor, value: Tensor) -> Tensor:
        logits = self._probs_to_logits(self.probs, is_binary=True)
        relu = (logits.clip(min=0) + logits - logits.clip(max=0)) / 2
        norm = count * relu + count * P.log1p(P.exp(-P.abs(logits))) - P.lgamma(count + 1)
        return value * logits - P.lgamma(value + 1) - P.lgamma(count - value + 1) - norm
