"""Multivariate distributions: MultivariateNormal and LKJCholesky."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import (Distribution, check_sequence, dtype_name, holds_everywhere,
                                       sample_via_rsample)
from pagaie.distribution.gamma import Beta

__all__ = ["MultivariateNormal", "LKJCholesky"]


def _swap_last(t: Tensor) -> Tensor:
    perm = list(range(t.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return t.transpose(perm)


def _precision_to_scale_tril(prec: Tensor) -> Tensor:
    """The lower Cholesky factor of ``inverse(prec)``, without forming the inverse."""
    lf = P.linalg.cholesky(P.flip(prec, (-2, -1)))
    l_inv = _swap_last(P.flip(lf, (-2, -1)))
    eye = P.eye(prec.shape[-1], dtype=prec.dtype)
    return P.linalg.triangular_solve(l_inv, eye, upper=False)


def _mahalanobis(tril: Tensor, x: Tensor) -> Tensor:
    """``x^T (L L^T)^{-1} x`` over broadcast batch axes."""
    n = x.shape[-1]
    if n != tril.shape[-1]:  # expand would stretch a 1 x 1 factor to n x n
        raise ValueError(f"paddle.distribution.MultivariateNormal: the last axis of the "
                         f"value ({n}) must match the event size ({tril.shape[-1]})")
    batch = P.broadcast_shape(list(tril.shape[:-2]), list(x.shape[:-1]))
    lt = tril.expand([*batch, n, n])
    xs = x.expand([*batch, n]).unsqueeze(-1)
    return P.linalg.triangular_solve(lt, xs, upper=False).squeeze(-1).pow(2).sum(-1)


def _half_log_det(tril: Tensor) -> Tensor:
    return tril.diagonal(axis1=-2, axis2=-1).log().sum(-1)


class MultivariateNormal(Distribution):
    r"""The multivariate normal distribution with mean ``loc`` and one of a covariance matrix,
    a precision matrix or a lower-triangular scale factor.

    .. math:: p(x) = (2\pi)^{-k/2} |\Sigma|^{-1/2} e^{-\frac12 (x-\mu)^T\Sigma^{-1}(x-\mu)}

    Args:
        loc (float|Tensor): the mean, ``[*batch, k]``.
        covariance_matrix (Tensor, optional): positive-definite ``[*batch, k, k]``.
        precision_matrix (Tensor, optional): positive-definite ``[*batch, k, k]``.
        scale_tril (Tensor, optional): lower-triangular with positive diagonal.
            Exactly one of the three must be given.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.MultivariateNormal(paddle.zeros([2]), covariance_matrix=paddle.eye(2))
        >>> d.sample([3]).shape, round(d.log_prob(paddle.zeros([2])).item(), 4)
        (paddle.Size([3, 2]), -1.8379)
    """

    def __init__(self, loc: Any, covariance_matrix: Tensor | None = None,
                 precision_matrix: Tensor | None = None, scale_tril: Tensor | None = None) -> None:
        self.dtype = P.get_default_dtype()
        if isinstance(loc, (float, int)):
            loc = P.to_tensor([loc], dtype=self.dtype)
        else:
            self.dtype = dtype_name(loc)
        if loc.dim() < 1:
            loc = loc.reshape((1,))
        self.covariance_matrix = self.precision_matrix = self.scale_tril = None
        given = [(n, m) for n, m in (("scale_tril", scale_tril),
                                     ("covariance_matrix", covariance_matrix),
                                     ("precision_matrix", precision_matrix)) if m is not None]
        if len(given) != 1:
            raise ValueError("paddle.distribution.MultivariateNormal: exactly one of "
                             "covariance_matrix or precision_matrix or scale_tril may be "
                             f"specified, but received {len(given)}")
        which, mat = given[0]
        if mat.dim() < 2:
            raise ValueError(f"paddle.distribution.MultivariateNormal: {which} must be at least "
                             "two-dimensional, with optional leading batch dimensions, but "
                             f"received shape {list(mat.shape)}")
        mat = P.cast(mat, self.dtype)
        batch_shape = tuple(P.broadcast_shape(list(mat.shape[:-2]), list(loc.shape[:-1])))
        setattr(self, which, mat.expand([*batch_shape, mat.shape[-2], mat.shape[-1]]))
        self.loc = loc.expand([*batch_shape, -1])
        if which == "scale_tril":
            self._unbroadcasted_scale_tril = mat
        elif which == "covariance_matrix":
            self._unbroadcasted_scale_tril = P.linalg.cholesky(mat)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(mat)
        super().__init__(batch_shape, self.loc.shape[-1:])

    @property
    def mean(self) -> Tensor:
        """Tensor: ``loc``."""
        return self.loc

    @property
    def variance(self) -> Tensor:
        """Tensor: the diagonal of the covariance matrix."""
        return P.square(self._unbroadcasted_scale_tril).sum(-1).expand(
            list(self._batch_shape + self._event_shape))

    sample = sample_via_rsample

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterised samples ``loc + L eps``."""
        check_sequence(shape, "MultivariateNormal")
        eps = P.cast(P.normal(shape=list(self._extend_shape(shape))), self.dtype)
        return self.loc + P.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at ``value``."""
        value = P.cast(value, self.dtype)
        m = _mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + m) - _half_log_det(self._unbroadcasted_scale_tril)

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return P.exp(self.log_prob(value))

    def entropy(self) -> Tensor:
        """The differential entropy, of shape ``batch_shape``."""
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + _half_log_det(self._unbroadcasted_scale_tril)
        return h.expand(list(self._batch_shape)) if self._batch_shape else h

    def kl_divergence(self, other: "MultivariateNormal") -> Tensor:
        """KL(self || other) between two multivariate normal distributions."""
        if self._batch_shape != other._batch_shape and self._event_shape != other._event_shape:
            raise ValueError("paddle.distribution.MultivariateNormal.kl_divergence: KL divergence "
                             "of two Multivariate Normal distributions should share the same "
                             "`batch_shape` and `event_shape`")
        l1, l2 = self._unbroadcasted_scale_tril, other._unbroadcasted_scale_tril
        cov1 = P.matmul(l1, _swap_last(l1))
        cov2 = P.matmul(l2, _swap_last(l2))
        trace = P.linalg.solve(cov2, cov1).diagonal(axis1=-2, axis2=-1).sum(-1)
        trace = trace + _mahalanobis(l2, self.loc - other.loc)
        return _half_log_det(l2) - _half_log_det(l1) + 0.5 * (trace - self._event_shape[0])


def _paddle_fill_order(partial: Tensor) -> Tensor:
    """``partial`` ([..., n] values, n per matrix) reordered as Paddle fills its matrices:
    it sorts the (matrix, position) slots by matrix with its unstable argsort, and writes
    the values in that order, so beyond 16 values in all, a matrix's positions (and even
    its values) come out permuted. paddle.argsort ties in the same order."""
    n = partial.shape[-1]
    count = int(np.prod(partial.shape[:-1]))
    slots = P.to_tensor(np.tile(np.arange(count), n))      # slot r: matrix r % count
    inverse = P.argsort(P.argsort(slots))
    order = inverse.reshape([n, count]).t().reshape([-1])
    return P.gather(partial.reshape([-1]), order).reshape(partial.shape)


def vec_to_tril_matrix(p_flatten: Tensor, dim: int, last_dim: int, flatten_shape: int,
                       sample_shape: Sequence[int] = (), diag: int = 0) -> Tensor:
    """Strictly lower triangular ``dim x dim`` matrices filled from the flat values ``p_flatten``.

    Each run of ``last_dim`` values fills one matrix below its diagonal, row by row, in the
    order Paddle's helper of the same name writes them.

    Args:
        p_flatten (Tensor): ``flatten_shape`` values, ``last_dim = dim * (dim - 1) / 2`` a matrix.
        dim (int): the matrix size.
        last_dim (int): the number of values per matrix.
        flatten_shape (int): the number of values in all.
        sample_shape (Sequence[int], optional): leading axes of the result. Default ``()``.
        diag (int, optional): unused, as in Paddle. Default 0.

    Returns:
        Tensor: of shape ``[*sample_shape, count / prod(sample_shape), dim, dim]`` (``count`` the
        number of matrices), of ``p_flatten``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distribution.lkj_cholesky import vec_to_tril_matrix
        >>> vec_to_tril_matrix(paddle.to_tensor([1.0, 2.0, 3.0]), 3, 3, 3).tolist()
        [[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 3.0, 0.0]]]
    """
    rows, cols = np.tril_indices(dim, -1)
    if last_dim != len(rows) or flatten_shape % last_dim:
        raise ValueError(f"vec_to_tril_matrix: expected 'last_dim' {len(rows)} (dividing "
                         f"'flatten_shape' {flatten_shape}) for 'dim' {dim}, but received {last_dim}")
    count = flatten_shape // last_dim
    values = _paddle_fill_order(p_flatten.reshape([count, last_dim]))
    place = np.zeros((last_dim, dim * dim))
    place[np.arange(last_dim), rows * dim + cols] = 1.0
    out = P.matmul(values, P.to_tensor(place, dtype=dtype_name(values)))
    return out.reshape([*sample_shape, count // int(np.prod(sample_shape)), dim, dim])


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The entries of ``mat`` on and below its ``diag``-th diagonal, row by row, as vectors.

    Args:
        mat (Tensor): a ``[..., n, n]`` (batch of) matrices.
        diag (int, optional): the last diagonal kept, in ``[-n, n - 1]``; ``-1`` drops the main
            diagonal. Default 0.

    Returns:
        Tensor: of shape ``[..., (n + diag) * (n + diag + 1) / 2]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distribution.lkj_cholesky import tril_matrix_to_vec
        >>> tril_matrix_to_vec(paddle.arange(9.0).reshape([3, 3]), -1).tolist()
        [3.0, 6.0, 7.0]
    """
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"tril_matrix_to_vec: 'diag' ({diag}) is outside [{-n}, {n - 1}]")
    keep = np.flatnonzero(np.tril(np.ones((n, n), dtype=bool), diag))
    flat = mat.reshape([*mat.shape[:-2], n * n])
    return P.index_select(flat, P.to_tensor(keep), axis=-1)


def _mvlgamma(a: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma function of dimension ``p``."""
    j = P.arange(1, p + 1, dtype=a.dtype)
    return p * (p - 1) / 4 * math.log(math.pi) + P.lgamma(a.unsqueeze(-1) + (1 - j) / 2).sum(-1)


class LKJCholesky(Distribution):
    r"""The LKJ distribution over Cholesky factors of ``dim x dim`` correlation matrices.

    .. math:: p(L) \propto \prod_{i=2}^{d} L_{ii}^{d - i + 2(\eta - 1)}

    Args:
        dim (int, optional): the matrix size, at least 2. Default 2.
        concentration (float|Tensor, optional): :math:`\eta > 0`. Default 1.0 (uniform over
            correlation matrices).
        sample_method (str, optional): ``'onion'`` (default) or ``'cvine'``.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.LKJCholesky(3, 2.0)
        >>> L = d.sample([4])
        >>> L.shape, bool(paddle.allclose((L * L).sum(-1), paddle.ones([4, 3])))
        (paddle.Size([4, 3, 3]), True)
    """

    def __init__(self, dim: int = 2, concentration: Any = 1.0, sample_method: str = "onion") -> None:
        if self._validate_args(concentration):
            self.concentration = concentration
            self.dtype = dtype_name(concentration)
        else:
            [self.concentration] = self._to_tensor(concentration)
            self.dtype = P.get_default_dtype()
        if not dim >= 2:
            raise ValueError("paddle.distribution.LKJCholesky: expected 'dim' greater than or "
                             f"equal to 2, but received {dim}")
        if not isinstance(dim, int):
            raise TypeError(f"paddle.distribution.LKJCholesky: 'dim' must be an int, but received "
                            f"{dim!r}")
        self.dim = dim
        if not holds_everywhere(self.concentration > 0):
            raise ValueError("paddle.distribution.LKJCholesky: the arg of `concentration` must be "
                             "positive")
        self.sample_method = sample_method
        marginal = self.concentration + 0.5 * (dim - 2)
        offset = P.arange(dim - 1, dtype=self.concentration.dtype)
        if sample_method == "onion":
            offset = P.concat([P.zeros((1,), dtype=offset.dtype), offset])
            self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        elif sample_method == "cvine":
            rows, cols = np.tril_indices(dim - 1)
            tril_offset = P.to_tensor(0.5 * cols, dtype=dtype_name(offset))
            conc = marginal.unsqueeze(-1) - tril_offset
            self._beta = Beta(conc, conc)
        else:
            raise ValueError("paddle.distribution.LKJCholesky: `sample_method` should be one of "
                             f"'cvine' or 'onion', but received {sample_method!r}")
        super().__init__(self.concentration.shape, (dim, dim))

    def _onion(self, sample_shape: Sequence[int]) -> Tensor:
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u = P.randn(list(self._extend_shape(sample_shape)), dtype=y.dtype).tril(-1)
        u = u / u.norm(axis=-1, keepdim=True)
        zero_row = P.zeros([*u.shape[:-2], 1, self.dim], dtype=u.dtype)
        u = P.concat([zero_row, u[..., 1:, :]], axis=-2)
        w = P.sqrt(y) * u
        tiny = float(P.finfo(w.dtype).tiny)
        diag = P.clip(1 - P.sum(w ** 2, axis=-1), min=tiny).sqrt()
        return w + P.diag_embed(diag)

    def _cvine(self, sample_shape: Sequence[int]) -> Tensor:
        d = self.dim
        partial = 2 * self._beta.sample(sample_shape) - 1      # [..., d(d-1)/2]
        if d == 2:  # Beta.sample squeezes a trailing axis of size 1
            partial = partial.unsqueeze(-1)
        n = partial.shape[-1]
        r = vec_to_tril_matrix(partial.reshape([-1]), d, n, int(np.prod(partial.shape)))
        tiny = float(P.finfo(r.dtype).tiny)
        r = P.clip(r, min=-1 + tiny, max=1 - tiny)
        cum = P.cumprod(P.sqrt(1 - r ** 2), dim=-1)
        shifted = P.concat([P.ones([*cum.shape[:-1], 1], dtype=cum.dtype), cum[..., :-1]], axis=-1)
        return (r + P.eye(d, dtype=r.dtype)) * shifted

    def sample(self, sample_shape: Sequence[int] = ()) -> Tensor:
        """Draw Cholesky factors of shape ``[*sample_shape, *batch_shape, dim, dim]``."""
        check_sequence(sample_shape, "LKJCholesky")
        res = self._onion(sample_shape) if self.sample_method == "onion" else self._cvine(sample_shape)
        return res.reshape([*sample_shape, *self.concentration.shape, self.dim, self.dim])

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density at the Cholesky factors ``value``."""
        d, c = self.dim, self.concentration
        if isinstance(value, Tensor) and value.ndim < 2:
            raise IndexError("paddle.distribution.LKJCholesky.log_prob: 'value' must have at least "
                             f"2 dimensions, but received shape {list(value.shape)}")
        diag = P.diagonal(value, offset=0, axis1=-1, axis2=-2)[..., 1:]
        order = 2 * (c - 1).unsqueeze(-1) + d - P.arange(2, d + 1, dtype=c.dtype)
        unnormalised = P.sum(order * P.log(diag), axis=-1)
        dm1 = d - 1
        alpha = c + 0.5 * dm1
        norm = 0.5 * dm1 * math.log(math.pi) + _mvlgamma(alpha - 0.5, dm1) - P.lgamma(alpha) * dm1
        return unnormalised - norm
