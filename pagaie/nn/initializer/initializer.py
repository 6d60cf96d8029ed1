"""The Initializer base and the distribution initializers (constant, normal, uniform,
Xavier, Kaiming). An initializer fills a parameter in place: ``init(param)``.

On the CPU the random initializers draw what Paddle's CPU kernels draw (``uniform``,
``gaussian``, ``truncated_gaussian_random``) from Paddle's engine
(:func:`pagaie._core.random.cpu_engine`), so after ``paddle.seed(s)`` a model built layer
by layer gets Paddle's very parameters, and the random calls after it continue Paddle's
stream. Elsewhere (GPU, compiled code) they use torch's samplers.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core.random import cpu_engine, on_paddle_cpu
from pagaie._core.registry import NoKernelError
from pagaie._core.tensor import Tensor
from pagaie._ops import _std_dists_init as _dists
from pagaie._ops._std_dists_samplers import normal_cpu, uniform_cpu

__all__ = ["Initializer", "Constant", "Normal", "TruncatedNormal", "Uniform", "XavierNormal",
           "XavierUniform", "KaimingNormal", "KaimingUniform", "calculate_gain",
           "set_global_initializer", "ConstantInitializer", "NormalInitializer",
           "TruncatedNormalInitializer", "UniformInitializer", "XavierInitializer", "MSRAInitializer"]

_LOW = (torch.float16, torch.bfloat16)

# Set by pagaie.static.startup: ``[hook]``, ``hook(initializer, param, block)`` returning True
# when it recorded the fill into the startup program of a static program being built.
_DEFER: list[Callable[[Any, Any, Any], bool]] = []


class Initializer:
    """Base class: ``init(param)`` fills ``param`` in place and returns None.

    Subclasses implement :meth:`_fill`, which receives the parameter's torch tensor
    and writes into it (under ``no_grad``).

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([2], 'float32')
        >>> paddle.nn.initializer.Constant(3.0)(w)
        >>> w.tolist()
        [3.0, 3.0]
    """

    # The parameter dtypes Paddle's static API takes, where it checks more than the kernels
    # do (checked while a static program is built); None: no such check.
    _program_dtypes: frozenset | None = None
    # What Paddle raises when the target is not a Tensor (its explicit check of ``var``)
    _not_a_tensor: type = AssertionError

    def __call__(self, param: Any, block: Any = None) -> None:
        # While a static program is being built, a new parameter is filled when the startup
        # program runs, as in Paddle (see pagaie.static.startup).
        if _DEFER and _DEFER[0](self, param, block):
            return None
        return self.forward(param, block)

    def forward(self, param: Any, block: Any = None) -> None:
        """Fill ``param`` in place; returns None. As in Paddle, a user-defined initializer
        subclasses :class:`Initializer` and overrides this method.

        Args:
            param (Tensor): the parameter to fill.
            block (optional): unused in dynamic mode.

        Examples:
            >>> import pagaie as paddle
            >>> class Sevens(paddle.nn.initializer.Initializer):
            ...     def forward(self, param, block=None):
            ...         paddle.assign(paddle.full(param.shape, 7.0, param.dtype), param)
            >>> paddle.create_parameter([2], 'float32', default_initializer=Sevens()).tolist()
            [7.0, 7.0]
        """
        self._fill_param(param)
        return None

    def _fill_param(self, param: Any) -> None:
        """Fill ``param`` (a Tensor) now."""
        if not isinstance(param, Tensor):   # Paddle asserts the target is a Tensor
            raise self._not_a_tensor(f"paddle.nn.initializer.{type(self).__name__}: the tensor to "
                                 f"initialize must be a paddle.Tensor, but received "
                                 f"{type(param).__name__}")
        with torch.no_grad():
            out = self._fill(param._t)
        if out is not None:  # an initializer that changes the shape (Assign)
            keep = not param.stop_gradient
            param._t = out.detach().requires_grad_(param._t.requires_grad)
            if keep and param.stop_gradient:
                param.stop_gradient = False   # an integer one keeps stop_gradient False

    def _take_program_seed(self, seed: int) -> None:
        """Paddle's random initializers adopt the program's ``random_seed`` when their own
        seed is 0, and keep it (the instance is changed: a shared one stays seeded)."""
        if getattr(self, "_seed", None) == 0:
            self._seed = int(seed)

    def _fill(self, t: torch.Tensor) -> torch.Tensor | None:
        raise NotImplementedError

    @staticmethod
    def _compute_fans(shape: Any) -> tuple[int, int]:
        """Paddle's fan rule: [in, out] for matrices, [out, in, *k] for conv kernels."""
        shape = list(shape.shape if hasattr(shape, "shape") else shape)
        if len(shape) == 0:
            return 1, 1
        if len(shape) == 1:
            return shape[0], shape[0]
        if len(shape) == 2:
            return shape[0], shape[1]
        rf = int(np.prod(shape[2:]))
        return shape[1] * rf, shape[0] * rf


def _sample(t: torch.Tensor, make) -> None:
    """Fill ``t`` with ``make(float tensor)``: low-precision and int tensors sample in float32."""
    if t.dtype in _LOW or not (t.is_floating_point() or t.is_complex()):
        tmp = torch.empty(t.shape, dtype=torch.float32, device=t.device)
        make(tmp)
        t.copy_(tmp)
    else:
        make(t)


def _on_paddle_engine(t: torch.Tensor) -> bool:
    """Whether ``t`` is filled from Paddle's CPU engine (else from torch's samplers)."""
    return on_paddle_cpu(t.device)


def _work_dtype(t: torch.Tensor) -> torch.dtype:
    """The type Paddle's kernels sample ``t`` in: its own for float64 and complex, else
    float32 (the float16/bfloat16 kernels sample in float and cast; Paddle has no integer
    ones)."""
    return t.dtype if t.dtype == torch.float64 or t.is_complex() else torch.float32


def _random_kernel_dtype(t: torch.Tensor, cpu_refused: tuple = ()) -> None:
    """Paddle's random kernels (uniform, gaussian, truncated_gaussian) are registered for
    floating and complex types only, some of them for fewer on the CPU (``cpu_refused``):
    another parameter dtype is their NotFound, a RuntimeError (while a static program is
    built, the TypeError of its dtype check)."""
    if not (t.is_floating_point() or t.is_complex()) or \
            (t.dtype in cpu_refused and _on_paddle_engine(t)):
        raise NoKernelError("paddle.nn.initializer: Paddle's random initializer kernels do not take "
                            f"a parameter of dtype {str(t.dtype).replace('torch.', '')}")


def _draw(t: torch.Tensor, paddle_values: Callable[[], torch.Tensor], torch_fill: Callable) -> None:
    """Fill ``t`` with random values: on the CPU the tensor ``paddle_values()`` (what Paddle's
    kernel computes, drawn from its engine), elsewhere ``torch_fill(float tensor)`` in place."""
    _random_kernel_dtype(t)
    if _on_paddle_engine(t):
        t.copy_(paddle_values().reshape(t.shape))
    else:
        _sample(t, torch_fill)


class ConstantInitializer(Initializer):
    """Paddle's legacy constant initializer (the base of :class:`Constant`): fill with ``value``.

    Args:
        value (float): the value. Default 0.0.
        force_cpu (bool): kept for compatibility; the fill happens where the parameter lives.

    Examples:
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.ConstantInitializer(1.5)
        >>> w = paddle.create_parameter([2], 'float32', default_initializer=init)
        >>> w.tolist()
        [1.5, 1.5]
    """

    def __init__(self, value: float = 0.0, force_cpu: bool = False) -> None:
        if value is None:
            raise AssertionError("paddle.nn.initializer.ConstantInitializer: 'value' must not be None")
        self._value = value
        self._force_cpu = force_cpu

    def _fill(self, t: torch.Tensor) -> None:
        # Paddle fills with float(value): numeric strings are read, complex values are a
        # TypeError, and a value beyond the dtype's range overflows (to inf for float16)
        t.copy_(torch.tensor(float(self._value), dtype=torch.float64).expand(t.shape))


class Constant(ConstantInitializer):
    """Fill with a constant ``value``.

    Args:
        value (float): the value. Default 0.0.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(2, 1, weight_attr=paddle.nn.initializer.Constant(2.0))
        >>> fc.weight.tolist()
        [[2.0], [2.0]]
    """

    def __init__(self, value: float = 0.0) -> None:
        if value is None:   # Constant checks this itself, with a ValueError
            raise ValueError("paddle.nn.initializer.Constant: 'value' must not be None")
        super().__init__(value=value, force_cpu=False)


def _not_none(api: str, **args: Any) -> None:
    """Paddle asserts that these arguments are not None."""
    for k, v in args.items():
        if v is None:
            raise AssertionError(f"paddle.nn.initializer.{api}: '{k}' must not be None")


def _numbers(api: str, **args: Any) -> None:
    """Paddle's gaussian kernels take these arguments as doubles: a string or a sequence is a
    TypeError when the parameter is filled (numbers, numpy scalars and Tensors pass)."""
    for k, v in args.items():
        if isinstance(v, (str, bytes, list, tuple, dict, set)):
            raise TypeError(f"paddle.nn.initializer.{api}: '{k}' must be a number, but received "
                            f"{type(v).__name__} {v!r:.40}")


class NormalInitializer(Initializer):
    """Paddle's legacy normal initializer (the base of :class:`Normal`): N(loc, scale**2).

    Args:
        loc (float): the mean. Default 0.0.
        scale (float): the standard deviation. Default 1.0.
        seed (int): 0 draws from the global generator; otherwise from a generator of its own
            seeded with ``seed`` (the same values every time).

    Examples:
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.NormalInitializer(0.0, 1.0, seed=3)
        >>> a = paddle.create_parameter([3], 'float32', default_initializer=init)
        >>> b = paddle.create_parameter([3], 'float32', default_initializer=init)
        >>> a.tolist() == b.tolist()
        True
    """

    def __init__(self, loc: float = 0.0, scale: float = 1.0, seed: int = 0) -> None:
        _not_none(type(self).__name__, loc=loc, scale=scale, seed=seed)
        if isinstance(loc, complex):
            if loc.real != loc.imag:
                raise ValueError("if mean is a complex number, its real part should equal imag part, "
                                 f"but got real part: {loc.real} != imag part: {loc.imag}")
            loc = loc.real
        self._mean, self._std, self._seed = loc, scale, seed

    def _fill(self, t: torch.Tensor) -> None:
        _numbers(type(self).__name__, mean=self._mean, std=self._std)
        _gaussian(t, self._seed, self._mean, self._std)


class Normal(NormalInitializer):
    """Fill with samples of N(mean, std**2).

    Args:
        mean (float): the mean. Default 0.0.
        std (float): the standard deviation. Default 1.0.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([1000], 'float32', default_initializer=paddle.nn.initializer.Normal(0., 0.1))
        >>> abs(float(w.numpy().std()) - 0.1) < 0.02
        True
    """

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        super().__init__(loc=mean, scale=std, seed=0)


class TruncatedNormalInitializer(Initializer):
    """Paddle's legacy truncated-normal initializer (the base of :class:`TruncatedNormal`).

    Args:
        loc (float): the mean. Default 0.0.
        scale (float): the standard deviation. Default 1.0.
        seed (int): 0 draws from the global generator, else from one seeded with ``seed``.
        a (float): lower cutoff. Default -2.0.
        b (float): upper cutoff. Default 2.0.

    Examples:
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.TruncatedNormalInitializer(0.0, 1.0)
        >>> w = paddle.create_parameter([100], 'float32', default_initializer=init)
        >>> bool((abs(w.numpy()) <= 2).all())
        True
    """

    def __init__(self, loc: float = 0.0, scale: float = 1.0, seed: int = 0, a: float = -2.0,
                 b: float = 2.0) -> None:
        _not_none(type(self).__name__, loc=loc, scale=scale, seed=seed, a=a, b=b)
        self._mean, self._std, self._seed, self._a, self._b = loc, scale, seed, a, b

    def _fill(self, t: torch.Tensor) -> None:
        m, s, a, b = self._mean, self._std, self._a, self._b
        _numbers(type(self).__name__, mean=m, std=s, a=a, b=b)
        _check_seed(self._seed)
        # Paddle's CPU truncated_gaussian kernel has no float16 or complex types
        _random_kernel_dtype(t, (torch.float16, torch.complex64, torch.complex128))
        work = np.float64 if _work_dtype(t) == torch.float64 else np.float32
        _draw(t, lambda: torch.from_numpy(_dists.truncated_normal(cpu_engine(self._seed), t.numel(),
                                                                  m, s, a, b, work)),
              lambda x: torch.nn.init.trunc_normal_(x, m, s, a, b))


class TruncatedNormal(TruncatedNormalInitializer):
    """Fill with N(mean, std**2) samples truncated to the interval [a, b] (absolute bounds).

    Args:
        mean (float): the mean. Default 0.0.
        std (float): the standard deviation. Default 1.0.
        a (float): lower cutoff. Default -2.0.
        b (float): upper cutoff. Default 2.0.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([100], 'float32', default_initializer=paddle.nn.initializer.TruncatedNormal())
        >>> bool((abs(w.numpy()) <= 2).all())
        True
    """

    def __init__(self, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                 name: str | None = None) -> None:
        super().__init__(loc=mean, scale=std, seed=0, a=a, b=b)


class UniformInitializer(Initializer):
    """Paddle's legacy uniform initializer (the base of :class:`Uniform`): U(low, high).

    Args:
        low (float): lower bound. Default -1.0.
        high (float): upper bound. Default 1.0.
        seed (int): 0 draws from the global generator, else from one seeded with ``seed``.
        diag_num (int): checked and kept; ignored, as by Paddle 3's eager and PIR kernels.
        diag_step (int): checked and kept; ignored likewise.
        diag_val (float): kept; ignored likewise.

    Examples:
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.UniformInitializer(0.0, 0.5)
        >>> w = paddle.create_parameter([2, 2], 'float32', default_initializer=init)
        >>> bool((w.numpy() >= 0).all() and (w.numpy() <= 0.5).all())
        True
    """

    def __init__(self, low: float = -1.0, high: float = 1.0, seed: int = 0, diag_num: int = 0,
                 diag_step: int = 0, diag_val: float = 1.0) -> None:
        api = type(self).__name__
        _not_none(api, low=low, high=high)
        if low > high:   # Paddle checks this with ``assert``: the same AssertionError here
            raise AssertionError(f"paddle.nn.initializer.{api}: 'low' ({low}) must not exceed "
                                 f"'high' ({high})")
        _not_none(api, seed=seed, diag_num=diag_num, diag_step=diag_step, diag_val=diag_val)
        if (diag_num > 0 or diag_step > 0) and not (diag_num > 0 and diag_step > 0):
            raise AssertionError(f"paddle.nn.initializer.{api}: 'diag_num' ({diag_num}) and "
                                 f"'diag_step' ({diag_step}) must both be positive when one is")
        self._low, self._high, self._seed = low, high, seed
        self._diag_num, self._diag_step, self._diag_val = diag_num, diag_step, diag_val

    def _fill(self, t: torch.Tensor) -> None:
        # Paddle 3 passes the diag_* settings only to the legacy static kernel: eager and PIR
        # programs ignore them, and so does pagaie.
        _uniform(t, self._seed, self._low, self._high)


class Uniform(UniformInitializer):
    """Fill with samples of U(low, high).

    Args:
        low (float): lower bound. Default -1.0.
        high (float): upper bound. Default 1.0.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([100], 'float32', default_initializer=paddle.nn.initializer.Uniform(0., 1.))
        >>> bool((w.numpy() >= 0).all() and (w.numpy() <= 1).all())
        True
    """

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        super().__init__(low=low, high=high, seed=0, diag_num=0, diag_step=0, diag_val=1.0)


def _check_seed(seed: Any) -> None:
    """Paddle's random kernels take the seed as an int: a bool, float or string is a TypeError
    when the parameter is filled."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"paddle.nn.initializer: 'seed' must be an int, but received "
                        f"{type(seed).__name__} {seed!r:.40}")


def _uniform(t: torch.Tensor, seed: int, low: float, high: float) -> None:
    _check_seed(seed)
    _draw(t, lambda: uniform_cpu(t.shape, _work_dtype(t), low, high, seed),
          lambda x: x.uniform_(low, high))


def _gaussian(t: torch.Tensor, seed: int, mean: float, std: float) -> None:
    _check_seed(seed)
    _draw(t, lambda: normal_cpu(t.shape, _work_dtype(t), mean, std, seed),
          lambda x: x.normal_(mean, std))


class XavierInitializer(Initializer):
    r"""Paddle's legacy Glorot initializer (the base of :class:`XavierUniform` and
    :class:`XavierNormal`).

    Args:
        uniform (bool): U(-l, l) with :math:`l = gain \sqrt{6 / (fan\_in + fan\_out)}` when
            True, else N(0, std**2) with :math:`std = gain \sqrt{2 / (fan\_in + fan\_out)}`.
        fan_in (float, optional): fan in; computed from the shape when None.
        fan_out (float, optional): fan out; computed from the shape when None.
        seed (int): 0 draws from the global generator, else from one seeded with ``seed``.
        gain (float): scale. Default 1.0.

    Examples:
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.XavierInitializer(uniform=True)
        >>> w = paddle.create_parameter([4, 4], 'float32', default_initializer=init)
        >>> bool((abs(w.numpy()) <= (6 / 8) ** 0.5).all())
        True
    """

    def __init__(self, uniform: bool = True, fan_in: float | None = None,
                 fan_out: float | None = None, seed: int = 0, gain: float = 1.0) -> None:
        _not_none(type(self).__name__, uniform=uniform, seed=seed)
        self._uniform, self._fan_in, self._fan_out = uniform, fan_in, fan_out
        self._seed, self._gain = seed, gain

    def _fill(self, t: torch.Tensor) -> None:
        fi, fo = self._compute_fans(t.shape)
        fi = fi if self._fan_in is None else self._fan_in
        fo = fo if self._fan_out is None else self._fan_out
        zero = 0 in (fi, fo)            # Paddle then draws zeros (still using the words)
        if self._uniform:
            limit = 0.0 if zero else self._gain * math.sqrt(6.0 / float(fi + fo))
            _uniform(t, self._seed, -limit, limit)
        else:
            std = 0.0 if zero else self._gain * math.sqrt(2.0 / float(fi + fo))
            _gaussian(t, self._seed, 0.0, std)


class XavierUniform(XavierInitializer):
    r"""Glorot uniform: U(-l, l) with :math:`l = gain \sqrt{6 / (fan\_in + fan\_out)}`.

    Args:
        fan_in (float, optional): fan in; computed from the shape when None.
        fan_out (float, optional): fan out; computed from the shape when None.
        gain (float): scale. Default 1.0.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(4, 4, weight_attr=paddle.nn.initializer.XavierUniform())
        >>> bool((abs(fc.weight.numpy()) <= (6 / 8) ** 0.5).all())
        True
    """

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, gain: float = 1.0,
                 name: str | None = None) -> None:
        super().__init__(uniform=True, fan_in=fan_in, fan_out=fan_out, seed=0, gain=gain)


class XavierNormal(XavierInitializer):
    r"""Glorot normal: N(0, std**2) with :math:`std = gain \sqrt{2 / (fan\_in + fan\_out)}`.

    Args:
        fan_in (float, optional): fan in; computed from the shape when None.
        fan_out (float, optional): fan out; computed from the shape when None.
        gain (float): scale. Default 1.0.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([200, 200], 'float32', default_initializer=paddle.nn.initializer.XavierNormal())
        >>> abs(float(w.numpy().std()) - 0.0707) < 0.005
        True
    """

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, gain: float = 1.0,
                 name: str | None = None) -> None:
        super().__init__(uniform=False, fan_in=fan_in, fan_out=fan_out, seed=0, gain=gain)


class MSRAInitializer(Initializer):
    r"""Paddle's legacy He initializer (the base of :class:`KaimingNormal` and
    :class:`KaimingUniform`).

    Args:
        uniform (bool): U(-l, l) with :math:`l = gain \sqrt{3 / fan}` when True, else
            N(0, std**2) with :math:`std = gain / \sqrt{fan}`. Default True.
        fan_in (float, optional): the fan; computed from the shape (per ``mode``) when None.
        seed (int): 0 draws from the global generator, else from one seeded with ``seed``.
        negative_slope (float): slope of the leaky_relu following the layer. Default 0.0.
        nonlinearity (str): the following non-linearity, for the gain. Default 'relu'.
        mode (str): 'fan_in' or 'fan_out'. Default 'fan_in'.

    Examples:
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.MSRAInitializer(uniform=True)
        >>> w = paddle.create_parameter([6, 4], 'float32', default_initializer=init)
        >>> bool((abs(w.numpy()) <= 1.0).all())
        True
    """

    def __init__(self, uniform: bool = True, fan_in: float | None = None, seed: int = 0,
                 negative_slope: float = 0, nonlinearity: str = "relu", mode: str = "fan_in") -> None:
        api = type(self).__name__
        _not_none(api, uniform=uniform, seed=seed)
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"paddle.nn.initializer.{api}: 'mode' must be 'fan_in' "
                             f"or 'fan_out', but received {mode!r}")
        if mode == "fan_out" and fan_in is not None:
            raise ValueError(f"paddle.nn.initializer.{api}: 'mode' is 'fan_out', "
                             "but 'fan_in' is set. Please set fan_in to None.")
        self._uniform, self._fan_in, self._seed = uniform, fan_in, seed
        self._slope, self._nonlin, self._mode = negative_slope, nonlinearity, mode

    def _fill(self, t: torch.Tensor) -> None:
        fi, fo = self._compute_fans(t.shape)
        fan = self._fan_in if self._fan_in is not None else (fi if self._mode == "fan_in" else fo)
        gain = calculate_gain(self._nonlin, self._slope)
        if self._uniform:
            limit = gain * math.sqrt(3.0 / float(fan))
            _uniform(t, self._seed, -limit, limit)
        else:
            _gaussian(t, self._seed, 0.0, gain / math.sqrt(float(fan)))


class KaimingNormal(MSRAInitializer):
    r"""He normal: N(0, std**2) with :math:`std = gain / \sqrt{fan}`.

    Args:
        fan_in (float, optional): the fan; computed from the shape (per ``mode``) when None.
        negative_slope (float): slope of the leaky_relu following the layer. Default 0.0.
        nonlinearity (str): the following non-linearity, for the gain. Default 'relu'.
        mode (str): 'fan_in' or 'fan_out'. Default 'fan_in'.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([400, 100], 'float32', default_initializer=paddle.nn.initializer.KaimingNormal())
        >>> abs(float(w.numpy().std()) - (2 / 400) ** 0.5) < 0.01
        True
    """

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0,
                 nonlinearity: str = "relu", mode: str = "fan_in") -> None:
        super().__init__(uniform=False, fan_in=fan_in, seed=0, negative_slope=negative_slope,
                         nonlinearity=nonlinearity, mode=mode)


class KaimingUniform(MSRAInitializer):
    r"""He uniform: U(-l, l) with :math:`l = gain \sqrt{3 / fan}`.

    Args:
        fan_in (float, optional): the fan; computed from the shape (per ``mode``) when None.
        negative_slope (float): slope of the leaky_relu following the layer. Default 0.0.
        nonlinearity (str): the following non-linearity, for the gain. Default 'relu'.
        mode (str): 'fan_in' or 'fan_out'. Default 'fan_in'.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([6, 4], 'float32', default_initializer=paddle.nn.initializer.KaimingUniform())
        >>> bool((abs(w.numpy()) <= 1.0).all())
        True
    """

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0,
                 nonlinearity: str = "relu", mode: str = "fan_in") -> None:
        super().__init__(uniform=True, fan_in=fan_in, seed=0, negative_slope=negative_slope,
                         nonlinearity=nonlinearity, mode=mode)


_LINEAR = ("sigmoid", "linear", "conv1d", "conv2d", "conv3d", "conv1d_transpose",
           "conv_transpose1d", "conv2d_transpose", "conv_transpose2d", "conv3d_transpose",
           "conv_transpose3d")
_GAINS = {**{k: 1 for k in _LINEAR}, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}


def calculate_gain(nonlinearity: str, param: bool | float | None = None) -> float:
    """The recommended initialisation gain for a non-linearity.

    Args:
        nonlinearity (str): 'sigmoid', 'linear', 'conv1d'..'conv3d_transpose' (also spelt
            'conv_transpose1d'..'conv_transpose3d'), 'tanh', 'relu', 'leaky_relu' or 'selu'.
        param (bool|int|float, optional): the negative slope for 'leaky_relu' (default 0.01).

    Returns:
        float: the gain.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.initializer.calculate_gain('tanh')
        1.6666666666666667
    """
    if param is None:
        param = 0.01
    elif not isinstance(param, (bool, int, float)):   # Paddle asserts: numpy scalars fail too
        raise AssertionError(f"paddle.nn.initializer.calculate_gain: 'param' must be a bool, int "
                             f"or float, but received {type(param).__name__}")
    if isinstance(nonlinearity, str) and nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + float(param) ** 2))
    if nonlinearity in _GAINS:
        return _GAINS[nonlinearity]
    raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")


_GLOBAL = {"weight": None, "bias": None}


def set_global_initializer(weight_init: Initializer | None, bias_init: Initializer | None = None) -> None:
    """Use these initializers for every parameter created afterwards: they replace the
    layers' built-in defaults (an initializer given in a ParamAttr still wins);
    ``None`` restores the defaults.

    Args:
        weight_init (Initializer|None): for weights.
        bias_init (Initializer|None): for biases.

    Examples:
        >>> import pagaie as paddle
        >>> nn = paddle.nn
        >>> nn.initializer.set_global_initializer(nn.initializer.Constant(1.0), nn.initializer.Constant(2.0))
        >>> fc = nn.Linear(1, 1)
        >>> fc.weight.tolist(), fc.bias.tolist()
        ([[1.0]], [2.0])
        >>> nn.initializer.set_global_initializer(None)
    """
    _GLOBAL["weight"], _GLOBAL["bias"] = weight_init, bias_init


def global_initializer(is_bias: bool) -> Initializer | None:
    return _GLOBAL["bias" if is_bias else "weight"]
