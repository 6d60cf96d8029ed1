"""``paddle.distribution``: probability distributions, transforms and KL divergences.

Every distribution is plain Python over pagaie's public ops, so densities and
reparameterised samples carry gradients and record into static programs.

    >>> import pagaie as paddle
    >>> d = paddle.distribution.Normal(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
    >>> d.sample([2]).shape
    paddle.Size([2, 1])
"""
from pagaie.distribution import constraint, transform, variable
from pagaie.distribution._base import Distribution, ExponentialFamily
from pagaie.distribution.continuous import Cauchy, ContinuousBernoulli, Laplace, StudentT
from pagaie.distribution.discrete import (Bernoulli, Binomial, Categorical, Geometric, Multinomial,
                                          Poisson)
from pagaie.distribution.gamma import Beta, Chi2, Dirichlet, Exponential, Gamma
from pagaie.distribution.kl import kl_divergence, register_kl
from pagaie.distribution.multivariate import LKJCholesky, MultivariateNormal
from pagaie.distribution.normal import Normal, Uniform
from pagaie.distribution.transform import (AbsTransform, AffineTransform, ChainTransform,
                                           ExpTransform, IndependentTransform, PowerTransform,
                                           ReshapeTransform, SigmoidTransform, SoftmaxTransform,
                                           StackTransform, StickBreakingTransform, TanhTransform,
                                           Transform)
from pagaie.distribution.transformed import Gumbel, Independent, LogNormal, TransformedDistribution

__all__ = ["Bernoulli", "Beta", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli", "Dirichlet",
           "Distribution", "Exponential", "ExponentialFamily", "Multinomial", "MultivariateNormal",
           "Normal", "Uniform", "kl_divergence", "register_kl", "Independent",
           "TransformedDistribution", "Laplace", "LogNormal", "LKJCholesky", "Gamma", "Gumbel",
           "Geometric", "Binomial", "Poisson", "StudentT", *transform.__all__]

# Paddle's per-class module paths (``paddle.distribution.bernoulli.Bernoulli``...), loaded
# with the package as in Paddle; imported last because each re-exports the names above.
from pagaie.distribution import (bernoulli, beta, binomial, categorical, cauchy, chi2,  # noqa: E402
                                 continuous_bernoulli, dirichlet, distribution, exponential,
                                 exponential_family, geometric, gumbel, independent, kl, laplace,
                                 lkj_cholesky, lognormal, multinomial, multivariate_normal, normal,
                                 poisson, student_t, transformed_distribution, uniform)

# Each class reports the module Paddle defines it in (its repr reads
# ``<paddle.distribution.uniform.Uniform object at ...>`` there), and that module holds it.
for _mod, _cls in ((distribution, Distribution), (exponential_family, ExponentialFamily),
                   (bernoulli, Bernoulli), (beta, Beta), (binomial, Binomial),
                   (categorical, Categorical), (cauchy, Cauchy), (chi2, Chi2),
                   (continuous_bernoulli, ContinuousBernoulli), (dirichlet, Dirichlet),
                   (exponential, Exponential), (geometric, Geometric), (gumbel, Gumbel),
                   (independent, Independent), (laplace, Laplace), (lkj_cholesky, LKJCholesky),
                   (lognormal, LogNormal), (multinomial, Multinomial),
                   (multivariate_normal, MultivariateNormal), (normal, Normal), (poisson, Poisson),
                   (student_t, StudentT), (transformed_distribution, TransformedDistribution),
                   (uniform, Uniform)):
    _cls.__module__ = _mod.__name__
del _mod, _cls
