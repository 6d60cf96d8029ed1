"""``kl_divergence(p, q)`` and the table of registered KL rules (``register_kl``)."""
from __future__ import annotations

import warnings
from typing import Callable

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import Distribution, ExponentialFamily, grad_leaves, sum_rightmost
from pagaie.distribution.continuous import Cauchy, ContinuousBernoulli, Laplace
from pagaie.distribution.discrete import Bernoulli, Binomial, Categorical, Geometric, Poisson
from pagaie.distribution.gamma import Beta, Dirichlet, Exponential, Gamma
from pagaie.distribution.multivariate import MultivariateNormal
from pagaie.distribution.normal import Normal, Uniform
from pagaie.distribution.transformed import LogNormal

__all__ = ["kl_divergence", "register_kl"]

_RULES: dict = {}


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    r"""The Kullback-Leibler divergence :math:`KL(p\|q) = E_p[\log p(x) - \log q(x)]`.

    The rule registered for the most specific pair of classes of ``p`` and ``q`` is used
    (see :func:`register_kl`); NotImplementedError when none applies.

    Args:
        p (Distribution): the first distribution.
        q (Distribution): the second distribution.

    Returns:
        Tensor: the divergence, of the distributions' batch shape.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> p = D.Normal(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> q = D.Normal(paddle.to_tensor([1.0]), paddle.to_tensor([1.0]))
        >>> D.kl_divergence(p, q).tolist()
        [0.5]
    """
    return _dispatch(type(p), type(q))(p, q)


def register_kl(cls_p: type, cls_q: type) -> Callable:
    """A decorator registering ``f(p, q)`` as the KL rule for ``cls_p`` and ``cls_q`` (and
    their subclasses, unless a more specific rule exists).

    Args:
        cls_p (type): a subclass of Distribution.
        cls_q (type): a subclass of Distribution.

    Returns:
        Callable: the decorator; it returns the function unchanged.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> class MyNormal(D.Normal):
        ...     pass
        >>> @D.register_kl(MyNormal, MyNormal)
        ... def _kl(p, q):
        ...     return paddle.zeros([1])
        >>> D.kl_divergence(MyNormal(0.0, 1.0), MyNormal(1.0, 1.0)).tolist()
        [0.0]
    """
    if not (isinstance(cls_p, type) and isinstance(cls_q, type)
            and issubclass(cls_p, Distribution) and issubclass(cls_q, Distribution)):
        raise TypeError("paddle.distribution.register_kl: cls_p and cls_q must be subclasses of "
                        f"Distribution, but received {cls_p!r} and {cls_q!r}")

    def decorator(f: Callable) -> Callable:
        _RULES[cls_p, cls_q] = f
        return f

    return decorator


def _at_most(a: tuple, b: tuple) -> bool:
    """Whether the class pair ``a`` is at least as specific as ``b`` (lexicographically)."""
    for x, y in zip(a, b):
        if not issubclass(x, y):
            return False
        if x is not y:
            break
    return True


def _most_specific(pairs: list) -> tuple:
    best = pairs[0]
    for m in pairs[1:]:
        if _at_most(m, best) and m != best:
            best = m
    return best


def _dispatch(cls_p: type, cls_q: type) -> Callable:
    matches = [k for k in _RULES if issubclass(cls_p, k[0]) and issubclass(cls_q, k[1])]
    if not matches:
        raise NotImplementedError(f"paddle.distribution.kl_divergence: no KL divergence is "
                                  f"registered for ({cls_p.__name__}, {cls_q.__name__})")
    left = _most_specific(matches)
    # Paddle ranks the pairs by q's class first, then looks the winner up as it stands, (q, p):
    # a pair registered one way only, (A, B) with A != B, then fails with a KeyError.
    right = _most_specific([(b, a) for a, b in matches])
    if right not in _RULES:
        raise KeyError(right)
    if _RULES[left] is not _RULES[right]:
        warnings.warn(f"Ambiguous kl_divergence({cls_p.__name__}, {cls_q.__name__}). Please "
                      f"register_kl({left[0].__name__}, {right[1].__name__})", RuntimeWarning)
    return _RULES[left]


def _by_method(p: Distribution, q: Distribution) -> Tensor:
    return p.kl_divergence(q)


for _cls in (Bernoulli, Binomial, Categorical, Cauchy, ContinuousBernoulli, Normal,
             MultivariateNormal, Uniform, Laplace, Geometric, Exponential, Gamma, Poisson):
    register_kl(_cls, _cls)(_by_method)
del _cls


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Beta, q: Beta) -> Tensor:
    ps, qs = p.alpha + p.beta, q.alpha + q.beta
    return (q.alpha.lgamma() + q.beta.lgamma() + ps.lgamma()) \
        - (p.alpha.lgamma() + p.beta.lgamma() + qs.lgamma()) \
        + (p.alpha - q.alpha) * p.alpha.digamma() + (p.beta - q.beta) * p.beta.digamma() \
        + (qs - ps) * ps.digamma()


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Dirichlet, q: Dirichlet) -> Tensor:
    a, b = p.concentration, q.concentration
    a0 = a.sum(-1)
    return a0.lgamma() - b.sum(-1).lgamma() - (a.lgamma() - b.lgamma()).sum(-1) + \
        ((a - b) * (a.digamma() - a0.digamma().unsqueeze(-1))).sum(-1)


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p: LogNormal, q: LogNormal) -> Tensor:
    return p._base.kl_divergence(q._base)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p: ExponentialFamily, q: ExponentialFamily) -> Tensor:
    """The Bregman divergence of the log normaliser, for two members of one family."""
    if type(p) is not type(q):
        raise NotImplementedError(f"paddle.distribution.kl_divergence: no KL divergence is "
                                  f"registered for ({type(p).__name__}, {type(q).__name__})")
    thetas = grad_leaves(p._natural_parameters)
    p_norm = p._log_normalizer(*thetas)
    try:
        grads = P.grad(p_norm, thetas, create_graph=True)
    except RuntimeError as exc:
        raise TypeError(f"paddle.distribution.kl_divergence: can't compute "
                        f"kl_divergence({type(p).__name__}, {type(q).__name__}) as a bregman "
                        f"divergence; please register_kl({type(p).__name__}, "
                        f"{type(q).__name__})") from exc
    kl = q._log_normalizer(*q._natural_parameters) - p_norm
    for tp, tq, g in zip(thetas, q._natural_parameters, grads):
        kl = kl - sum_rightmost((tq - tp) * g, len(q.event_shape))
    return kl
