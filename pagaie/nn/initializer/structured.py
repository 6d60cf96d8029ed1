"""Initializers that write a structure rather than a distribution: Orthogonal, Assign,
Dirac and Bilinear."""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

from pagaie._core.registry import NoKernelError
from pagaie._core.tensor import Tensor
from pagaie._ops._std_dists_samplers import normal_cpu
from pagaie.nn.initializer.initializer import (Initializer, _on_paddle_engine, _random_kernel_dtype, _sample,
                                               _work_dtype)

__all__ = ["Orthogonal", "Assign", "Dirac", "Bilinear", "NumpyArrayInitializer"]


class Orthogonal(Initializer):
    """Fill with a (semi-)orthogonal matrix: the parameter viewed as
    ``[shape[0], prod(shape[1:])]`` has orthonormal rows or columns, times ``gain``.

    Args:
        gain (float): scale. Default 1.0.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([3, 5], 'float32', default_initializer=paddle.nn.initializer.Orthogonal())
        >>> import numpy as np
        >>> bool(np.allclose(w.numpy() @ w.numpy().T, np.eye(3), atol=1e-5))
        True
    """

    _seed = 0

    def __init__(self, gain: float = 1.0, name: str | None = None) -> None:
        if gain is None:
            raise AssertionError("paddle.nn.initializer.Orthogonal: gain should not be None")
        self._gain = gain

    def _take_program_seed(self, seed: int) -> None:
        self._seed = int(seed)   # Paddle's Orthogonal always takes the program's seed

    def _fill(self, t: torch.Tensor) -> None:
        if t.dim() < 2:
            raise AssertionError("paddle.nn.initializer.Orthogonal: only tensors with 2 or more "
                                 f"dimensions can be initialized, but received shape {list(t.shape)}")
        # Paddle's CPU qr kernel takes float32/float64/complex only
        _random_kernel_dtype(t, (torch.float16, torch.bfloat16))
        rows, cols = t.shape[0], int(np.prod(t.shape[1:]))   # a size-0 row count is legal
        big, small = max(rows, cols), min(rows, cols)
        gain = float(self._gain)   # as Paddle's scale: a number, numeric string or 1-element Tensor

        def make(x: torch.Tensor) -> None:
            if _on_paddle_engine(x):   # Paddle's gaussian draw, in the parameter's dtype
                a = normal_cpu((big, small), _work_dtype(x), 0.0, 1.0, self._seed)
            else:
                a = torch.randn(big, small, dtype=x.dtype, device=x.device)
            q, r = torch.linalg.qr(a)
            q = q * torch.sgn(torch.diagonal(r))   # sgn: x / |x|, also for complex
            if rows < cols:
                q = q.T
            x.copy_((gain * q).reshape(x.shape))

        _sample(t, make)


class NumpyArrayInitializer(Initializer):
    """Paddle's legacy array initializer (the base of :class:`Assign`): fill with a numpy
    array; the parameter takes the array's shape.

    Args:
        value (numpy.ndarray): the value.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> init = paddle.nn.initializer.NumpyArrayInitializer(np.array([1.0, 2.0], 'float32'))
        >>> paddle.create_parameter([2], 'float32', default_initializer=init).tolist()
        [1.0, 2.0]
    """

    def __init__(self, value: Any) -> None:
        if not isinstance(value, np.ndarray):  # Paddle asserts here
            raise AssertionError("paddle.nn.initializer.NumpyArrayInitializer: 'value' must be a "
                                 f"numpy.ndarray, but received {type(value).__name__}")
        self._value = value

    # Paddle's initializer takes these parameter dtypes only (16-bit floats via float32); its
    # assign_value kernel then refuses uint8 (NotFound, a RuntimeError)
    _DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32,
               torch.int8, torch.uint8)

    def _fill(self, t: torch.Tensor) -> torch.Tensor | None:
        from pagaie._core.tensor import Tensor
        if t.dtype not in self._DTYPES:
            raise ValueError(f"paddle.nn.initializer.{type(self).__name__}: unsupported parameter "
                             f"dtype {str(t.dtype).replace('torch.', '')}; it takes float16, "
                             "bfloat16, float32, float64, int32 and int8")
        if t.dtype == torch.uint8:
            raise NoKernelError(f"paddle.nn.initializer.{type(self).__name__}: a parameter of dtype "
                                "uint8 is not supported (Paddle's assign_value kernel takes no uint8)")
        v = self._value
        src = v._t.detach() if isinstance(v, Tensor) else torch.as_tensor(np.asarray(v))
        src = src.to(device=t.device, dtype=t.dtype)
        if list(src.shape) == list(t.shape):
            t.copy_(src)
            return None
        return src.clone()


class Assign(NumpyArrayInitializer):
    """Fill with a given value (numpy array, list or Tensor); the parameter takes the
    value's shape.

    Args:
        value (numpy.ndarray|list|Tensor): the value.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(2, 1, weight_attr=paddle.nn.initializer.Assign([[1.0], [2.0]]))
        >>> fc.weight.tolist()
        [[1.0], [2.0]]
    """

    def __init__(self, value: Any, name: str | None = None) -> None:
        from pagaie._core.tensor import Tensor
        if not isinstance(value, (np.ndarray, list, tuple, Tensor)):  # Paddle asserts here
            raise AssertionError("paddle.nn.initializer.Assign: 'value' must be a numpy.ndarray, list, "
                                 f"tuple or Tensor, but received {type(value).__name__}")
        self._value = value


class Dirac(Initializer):
    """Identity-preserving init for 3-D/4-D/5-D convolution kernels
    ``[out, in, *k]``: a one at the kernel centre of ``[g*out/groups + i, i]``.

    Args:
        groups (int): the convolution's groups. Default 1.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([2, 2, 3], 'float32', default_initializer=paddle.nn.initializer.Dirac())
        >>> w.numpy()[:, :, 1].tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """

    _program_dtypes = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})

    def __init__(self, groups: int = 1, name: str | None = None) -> None:
        if not isinstance(groups, (int, float, np.number, Tensor)):   # Paddle's test compares first
            raise TypeError("paddle.nn.initializer.Dirac: 'groups' must be a positive integer, "
                            f"but received {type(groups).__name__}")
        if not isinstance(groups, int) or groups <= 0:
            raise AssertionError("paddle.nn.initializer.Dirac: 'groups' must be a positive integer, "
                                 f"but received {groups!r}")
        self._groups = groups

    def _fill(self, t: torch.Tensor) -> None:
        if t.dim() not in (3, 4, 5):
            raise AssertionError("Only Tensor with 3/4/5 dimensions can be initialized by Dirac")
        if t.shape[0] % self._groups != 0:
            raise AssertionError("Tensor 0-dimension must be divisible by groups")
        per = t.shape[0] // self._groups
        t.zero_()
        centre = tuple(k // 2 for k in t.shape[2:])
        for g in range(self._groups):
            for i in range(min(per, t.shape[1])):
                t[(g * per + i, i) + centre] = 1


class Bilinear(Initializer):
    """Bilinear-interpolation kernel for transposed convolutions used as upsamplers;
    the parameter must be 4-D ``[C_out, C_in, K, K]``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([1, 1, 2, 2], 'float32', default_initializer=paddle.nn.initializer.Bilinear())
        >>> w.shape
        paddle.Size([1, 1, 2, 2])
    """

    _not_a_tensor = ValueError   # Paddle's Bilinear checks its target with a ValueError

    def __init__(self) -> None:
        pass

    def _fill(self, t: torch.Tensor) -> None:
        shape = list(t.shape)
        if len(shape) != 4:
            raise ValueError("the length of shape must be 4.")
        if shape[2] != shape[3]:
            raise ValueError("shape[2] must be equal to shape[3].")
        if t.dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
            raise TypeError("paddle.nn.initializer.Bilinear: the parameter must be of a floating "
                            f"type, but its dtype is {str(t.dtype).replace('torch.', '')}")
        n = int(np.prod(shape))
        if n > 1024 * 1024:
            raise ValueError("The size of input is too big. ")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(n, dtype=np.float64)
        x = i % size
        y = (i / size) % size  # Paddle's formula divides without flooring: kept for equal values
        w = ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype(np.float32).reshape(shape)
        t.copy_(torch.from_numpy(w))

