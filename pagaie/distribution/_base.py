"""The ``Distribution`` base class, ``ExponentialFamily`` and the argument handling they share.

Every distribution here is plain Python over pagaie's public ops, so log-densities and
reparameterised samples carry gradients and record into static programs like any other
composite.
"""
from __future__ import annotations

import warnings
from collections import abc
from typing import Any, Sequence

import numpy as np

import pagaie as P
from pagaie._core.tensor import Tensor

__all__ = ["Distribution", "ExponentialFamily"]

_FLOATS = ("float32", "float64")


def dtype_name(t: Tensor) -> str:
    """``'float32'``-style name of a tensor's dtype."""
    return t.dtype.name


def sum_rightmost(value: Tensor, n: int) -> Tensor:
    """Sum over the last ``n`` axes (``value`` itself when ``n <= 0``)."""
    return value.sum(list(range(-n, 0))) if n > 0 else value


def shape_tuple(shape: Any, api: str) -> tuple:
    """A sample shape as a tuple of ints (list, tuple, range, numpy array or 1-D tensor)."""
    if isinstance(shape, Tensor):
        # iterated as Paddle's tuple(shape) does: a 0-D tensor has no length (AssertionError)
        shape = list(shape)
    if isinstance(shape, (list, tuple, range, np.ndarray, P.Size)):
        return int_dims(shape, api)
    raise TypeError(f"paddle.distribution.{api}: 'shape' must be a sequence of ints, "
                    f"but received {type(shape).__name__}")


def int_dims(shape: Any, api: str) -> tuple:
    """The elements of a sample shape as ints; a non-integer element (such as 2.5) is a
    TypeError, as in Paddle, rather than being truncated. A 0-D integer Tensor counts as its
    value (Paddle's shape arguments take them)."""
    dims = []
    for v in shape:
        if (isinstance(v, Tensor) and not v.is_floating_point() and not v.is_complex()
                and v.dtype != P.bool and v.ndim == 0):
            v = int(v.item())
        if not isinstance(v, (int, np.integer)):
            raise TypeError(f"paddle.distribution.{api}: each element of 'shape' must be an int, "
                            f"but received {type(v).__name__} ({v!r}) in {list(shape)!r}")
        dims.append(int(v))
    return tuple(dims)


def broadcast(tensors: Sequence[Any], api: str) -> list:
    """``broadcast_tensors`` with Paddle's argument rules: Tensors only, all of one dtype
    (ValueError otherwise, as Paddle's kernel raises)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise ValueError(f"paddle.distribution.{api}: broadcast_tensors() needs a list of "
                             f"Tensors, but element {i} is a {type(t).__name__}")
    names = [dtype_name(t) for t in tensors]
    if len(set(names)) > 1:
        raise ValueError(f"paddle.distribution.{api}: the tensors to broadcast must share one "
                         f"data type, but received {', '.join(names)}")
    return P.broadcast_tensors(list(tensors))


def holds_everywhere(cond: Tensor) -> bool:
    """Whether every element of the boolean ``cond`` is True. A symbolic value of a program
    being built has no data yet, so a parameter check on it passes (Paddle checks only data)."""
    if isinstance(cond, P.static.Variable):
        return True
    return bool(P.all(cond))


def check_sequence(shape: Any, api: str) -> None:
    """Paddle's ``sample(shape)`` argument check: a ``collections.abc.Sequence`` (list, tuple,
    range...)."""
    if not isinstance(shape, abc.Sequence):
        raise TypeError(f"paddle.distribution.{api}.sample: sample shape must be a Sequence "
                        f"object, but received {type(shape).__name__}")


def sample_via_rsample(self: Any, shape: Sequence[int] = ()) -> Tensor:
    """Draw samples (no gradient)."""
    with P.no_grad():
        return self.rsample(shape)


def open_uniform(shape: Sequence[int], like: Tensor) -> Tensor:
    """Uniform draws on (0, 1] (the smallest float32 above zero as the low end), in ``like``'s dtype."""
    return P.uniform(shape, min=float(np.finfo("float32").tiny), max=1.0, dtype=dtype_name(like))


def grad_leaves(params: Sequence[Tensor]) -> list:
    """Detached copies of ``params`` that record gradients (to differentiate through them)."""
    leaves = []
    for p in params:
        p = p.detach()
        p.stop_gradient = False
        leaves.append(p)
    return leaves


class Distribution:
    """The abstract base of probability distributions.

    A distribution has a ``batch_shape`` (independent, possibly differently parameterised
    copies) and an ``event_shape`` (the shape of one draw). ``sample(shape)`` returns a
    tensor of shape ``[*shape, *batch_shape, *event_shape]``.

    Args:
        batch_shape (Sequence[int], optional): the batch shape. Default ``()``.
        event_shape (Sequence[int], optional): the event shape. Default ``()``.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.Distribution(batch_shape=[2], event_shape=[3])
        >>> d.batch_shape, d.event_shape
        ((2,), (3,))
    """

    def __init__(self, batch_shape: Sequence[int] = (), event_shape: Sequence[int] = ()) -> None:
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)
        super().__init__()

    @property
    def batch_shape(self) -> tuple:
        """tuple: the batch shape."""
        return self._batch_shape

    @property
    def event_shape(self) -> tuple:
        """tuple: the event shape."""
        return self._event_shape

    @property
    def mean(self) -> Tensor:
        """Tensor: the mean of the distribution."""
        raise NotImplementedError

    @property
    def variance(self) -> Tensor:
        """Tensor: the variance of the distribution."""
        raise NotImplementedError

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw samples of shape ``[*shape, *batch_shape, *event_shape]`` (no gradient)."""
        raise NotImplementedError

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Draw reparameterised samples (gradients flow to the parameters)."""
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """The entropy, of shape ``batch_shape``."""
        raise NotImplementedError

    def kl_divergence(self, other: "Distribution") -> Tensor:
        """KL(self || other)."""
        raise NotImplementedError

    def prob(self, value: Tensor) -> Tensor:
        """The density (or mass) at ``value``: ``exp(log_prob(value))``."""
        return self.log_prob(value).exp()

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density (or log mass) at ``value``."""
        raise NotImplementedError

    def probs(self, value: Tensor) -> Tensor:
        """The density at ``value`` (Paddle's older name, kept where Paddle has it)."""
        raise NotImplementedError

    # ---- helpers shared by the subclasses ----------------------------------------------

    def _extend_shape(self, sample_shape: Sequence[int]) -> tuple:
        return tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape)

    def _validate_args(self, *args: Any) -> bool:
        """True when all arguments are tensors, False when none is; mixing raises ValueError."""
        kinds = {isinstance(a, Tensor) for a in args}
        if len(kinds) > 1:
            raise ValueError(f"paddle.distribution.{type(self).__name__}: if one argument is a "
                             "Tensor, all arguments should be Tensors")
        return kinds == {True}

    def _to_tensor(self, *args: Any) -> tuple:
        """Numbers, lists and numpy arrays as float32 tensors broadcast to one shape."""
        arrays = []
        for a in args:
            if not isinstance(a, (float, list, tuple, np.ndarray, Tensor)):
                raise TypeError(f"paddle.distribution.{type(self).__name__}: parameters must be "
                                "float, list, tuple, numpy.ndarray or Tensor, but received "
                                f"{type(a).__name__}")
            arr = np.asarray(a.numpy() if isinstance(a, Tensor) else a)
            if str(arr.dtype) not in _FLOATS:
                warnings.warn("data type of argument only support float32 and float64, your "
                              "argument will be convert to float32.")
            arrays.append(arr.astype("float32"))
        arrays = np.broadcast_arrays(*arrays)
        return tuple(P.to_tensor(np.array(a), dtype="float32") for a in arrays)

    def _check_values_dtype_in_probs(self, param: Tensor, value: Tensor) -> Tensor:
        """``value`` cast (with a warning) to a floating parameter's dtype."""
        if param.is_complex():
            return value.astype(param.dtype)
        if value.dtype != param.dtype and dtype_name(value) in _FLOATS:
            warnings.warn("dtype of input 'value' needs to be the same as parameters of "
                          "distribution class. dtype of 'value' will be converted.")
            return P.cast(value, param.dtype)
        return value

    def _probs_to_logits(self, probs: Tensor, is_binary: bool = False) -> Tensor:
        return P.log(probs) - P.log1p(-probs) if is_binary else P.log(probs)

    def _logits_to_probs(self, logits: Tensor, is_binary: bool = False) -> Tensor:
        F = P.nn.functional
        return F.sigmoid(logits) if is_binary else F.softmax(logits, axis=-1)

    def _broadcast_all(self, *args: Any) -> list:
        """Tensors and numbers as tensors of one dtype, broadcast together."""
        for a in args:
            if not isinstance(a, (float, list, tuple, np.ndarray, Tensor)):
                raise TypeError(f"paddle.distribution.{type(self).__name__}: parameters must be "
                                "float, list, tuple, numpy.ndarray or Tensor, but received "
                                f"{type(a).__name__}")
        dtype = next((a.dtype for a in args if isinstance(a, Tensor)), P.get_default_dtype())
        ts = [a if isinstance(a, Tensor) else P.to_tensor(a, dtype=dtype) for a in args]
        return broadcast(ts, type(self).__name__)


class ExponentialFamily(Distribution):
    """Base of exponential-family distributions ``p(x) = h(x) exp(<t(x), θ> - A(θ))``.

    A subclass gives its natural parameters ``θ`` (``_natural_parameters``), the log
    normaliser ``A`` (``_log_normalizer``) and ``E[log h(x)]`` (``_mean_carrier_measure``);
    the entropy then follows from the gradient of ``A`` (a Bregman divergence), as does
    the KL divergence between two members of the same family.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.distribution.Exponential(paddle.to_tensor([2.0]))
        >>> isinstance(d, paddle.distribution.ExponentialFamily)
        True
    """

    @property
    def _natural_parameters(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_parameters: Tensor) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """The entropy ``A(θ) - <θ, ∇A(θ)> - E[log h(x)]``."""
        result = -self._mean_carrier_measure
        thetas = grad_leaves(self._natural_parameters)
        log_norm = self._log_normalizer(*thetas)
        grads = P.grad(log_norm.sum(), thetas, create_graph=True)
        result = result + log_norm
        for p, g in zip(thetas, grads):
            result = result - p * g
        return result
