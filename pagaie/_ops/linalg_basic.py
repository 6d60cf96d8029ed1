"""Products and contractions: matmul and its relatives, einsum, distances, trace."""
from __future__ import annotations

import numbers

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor, wrap
from pagaie._ops._helpers import (F32_F64, LOW_FLOATS, SMALL_INTS, AssertionValueError, float_kernel, int_list,
                                  check_binary_dtypes, kernel_dtypes, no_low_float_kernel, norm_axis,
                                  parser_bool, unpromoted_pair, write_out)

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "einsum", "addmm", "addmm_", "baddbmm", "baddbmm_",
           "kron", "cross", "outer", "inner", "ger", "tensordot", "trace", "dist", "cdist", "pdist",
           "vecdot"]



def _floating(api: str, x) -> None:
    if not (x.is_floating_point() or x.is_complex()):  # no integer kernel in Paddle: NotFound
        raise NoKernelError(f"paddle.{api}: 'x' must be a floating tensor, but received dtype "
                            f"{str(x.dtype).replace('torch.', '')}")

# Paddle's CPU matmul kernels, and the dtypes its static API lets a program record
_MATMUL_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64, torch.complex64,
                            torch.complex128))
_MATMUL_STATIC = _MATMUL_DTYPES | {torch.int8, torch.uint8, torch.bfloat16}
# what the CPU matmul and conj kernels behind inner, tensordot and vecdot lack (bool is refused
# elsewhere, before them)
_NO_MATMUL_KERNEL = LOW_FLOATS | SMALL_INTS


@defop(amp="white", paddle_types=("matmul_v2", "matmul", "pd_op.matmul"))
def matmul(x, y, transpose_x=False, transpose_y=False, name=None, *, out=None):
    """Matrix product with broadcasting over batch dimensions.

    A 1-D operand is treated as a vector: prepended (``x``) or appended (``y``)
    with a dimension of size 1 that is removed from the result, so two vectors
    give their 0-D dot product.

    Args:
        x (Tensor): the left operand.
        y (Tensor): the right operand, same dtype as ``x``.
        transpose_x (bool, optional): swap the last two dimensions of ``x`` first.
        transpose_y (bool, optional): swap the last two dimensions of ``y`` first.
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: the product.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.matmul(a, a, transpose_y=True).tolist()
        [[5.0, 11.0], [11.0, 25.0]]
        >>> (a @ paddle.to_tensor([1.0, 1.0])).tolist()
        [3.0, 7.0]
    """
    if type(transpose_x) is not bool or type(transpose_y) is not bool:  # Paddle's parser reads both
        transpose_x = parser_bool(transpose_x, "matmul", "transpose_x")
        transpose_y = parser_bool(transpose_y, "matmul", "transpose_y")
    if transpose_x and x.dim() > 1:
        x = x.transpose(-1, -2)
    if transpose_y and y.dim() > 1:
        y = y.transpose(-1, -2)
    try:
        r = torch.matmul(x, y)
    except RuntimeError:
        if x.dtype == y.dtype:
            if x.dtype not in _MATMUL_DTYPES:   # Paddle finds no kernel before it checks shapes
                kernel_dtypes("matmul", x, _MATMUL_DTYPES, static=_MATMUL_STATIC)
            _check_matmul_shapes(x, y)
            raise
        r = torch.matmul(*_promote(x, y, "matmul"))   # promotion off the hot path
    if r.dtype not in _MATMUL_DTYPES:
        kernel_dtypes("matmul", r, _MATMUL_DTYPES, static=_MATMUL_STATIC)
    return r if out is None else write_out(out, r)


def _check_matmul_shapes(x: torch.Tensor, y: torch.Tensor, api: str = "matmul") -> None:
    """Name a shape mismatch of ``matmul`` (or of ``api``, one of its family) in Paddle's terms
    (after any transposes)."""
    if x.dim() == 0 or y.dim() == 0:
        raise ValueError(f"paddle.{api}: the inputs must have at least 1 dimension, but received "
                         f"shapes {list(x.shape)} and {list(y.shape)}")
    kx = x.shape[-1]
    ky = y.shape[0] if y.dim() == 1 else y.shape[-2]
    if kx != ky:
        raise ValueError(f"paddle.{api}: the last dimension of x ({kx}) must equal the "
                         f"{'first' if y.dim() == 1 else 'second-to-last'} dimension of y "
                         f"({ky}); the shapes{' (after transpose_x/transpose_y)' if api == 'matmul' else ''} "
                         f"are {list(x.shape)} and {list(y.shape)}")
    try:
        broadcast_shapes(x.shape[:-2], y.shape[:-2])
    except RuntimeError:
        raise ValueError(f"paddle.{api}: the batch dimensions of x {list(x.shape[:-2])} and y "
                         f"{list(y.shape[:-2])} do not broadcast") from None


# Paddle's CPU multiply kernels
_MULTIPLY_DTYPES = frozenset((torch.bool, torch.int32, torch.int64, torch.bfloat16, torch.float32,
                              torch.float64, torch.complex64, torch.complex128))


def _outer(x, y, out, api):
    """The outer product of the flattened ``x`` and ``y`` (``outer`` and ``ger``), promoted as
    ``multiply`` promotes (a complex operand takes an integer or bool one too)."""
    if x.dtype != y.dtype:
        check_binary_dtypes(api, x, y)
        dt = torch.promote_types(x.dtype, y.dtype)
        x, y = x.to(dt), y.to(dt)
    # (Paddle multiplies with its multiply kernel, which a program records for int8/uint8 too)
    kernel_dtypes(api, x, _MULTIPLY_DTYPES, static=_MULTIPLY_DTYPES | {torch.int8, torch.uint8})
    return write_out(out, torch.outer(x.reshape(-1), y.reshape(-1)))


_FLOATS_32_64 = (torch.float32, torch.float64)


def _matmul_operands(self: Tensor, other, op: str) -> tuple[Tensor, Tensor]:
    """``self`` and the other operand of ``@`` as Paddle takes them: a real Tensor of another
    dtype is cast to ``self``'s when neither is complex (Paddle's operator casts it); a numpy
    array counts as a Tensor of its dtype; a Python number (a numpy number as its Python number)
    is a shape-[1] tensor of ``self``'s dtype, except that a float makes an integer ``self`` the
    default float dtype and a complex one is complex, as in Paddle's arithmetic operators; other
    non-tensors raise TypeError. A complex Tensor with a real one other than float32/float64
    is Paddle's RuntimeError."""
    if isinstance(other, Tensor):
        a, b = self._t.dtype, other._t.dtype
        if a is not b and not (a.is_complex or b.is_complex):
            return self, other.astype(self.dtype)
        if a.is_complex is not b.is_complex and (b if a.is_complex else a) not in _FLOATS_32_64:
            raise RuntimeError(f"paddle.Tensor.{op}: a complex Tensor is promoted only with a "
                               f"float32, float64 or complex one, but received {str(a)[6:]} and "
                               f"{str(b)[6:]}")
        return self, other
    if isinstance(other, np.ndarray) and other.dtype.kind in "biufc":
        return _matmul_operands(self, wrap(torch.from_numpy(other.copy())), op)   # as a Tensor
    other = _dt.python_number(other)
    if type(other) in (int, float, bool, complex):
        d = self._t.dtype
        if type(other) is float and not (d.is_floating_point or d.is_complex):
            self = self.astype(_dt.default_float())
            d = self._t.dtype
        elif type(other) is complex and not d.is_complex:
            d = torch.complex128 if d is torch.float64 else torch.complex64
        # (on the CPU for a symbolic ``self``, so that a recorded program keeps the value)
        dev = torch.device("cpu") if self._t.device.type == "meta" else self._t.device
        return self, wrap(torch.tensor([other], device=dev).to(d))
    raise TypeError(f"paddle.Tensor.{op}: argument (position 1) must be int, float, bool or Tensor, "
                    f"but got {type(other).__name__}")


def _matmul_operator(self: Tensor, other) -> Tensor:
    x, y = _matmul_operands(self, other, "__matmul__")
    return matmul(x, y)


def _rmatmul_operator(self: Tensor, other) -> Tensor:
    y, x = _matmul_operands(self, other, "__rmatmul__")
    return matmul(x, y)


Tensor.__matmul__ = _matmul_operator
Tensor.__rmatmul__ = _rmatmul_operator


def _promote(x, y, api):
    """Paddle's matmul family: a floating operand with a complex one is promoted (an integer or
    bool one is ValueError); an int32/int64
    ``y`` is cast for a float32 ``x`` only (not by kron) when it runs; any other mix (two floating dtypes,
    two integer dtypes, an integer ``x`` with a floating ``y``, a float64/float16/bfloat16
    ``x`` with an integer ``y``) is Paddle's ValueError."""
    if x.dtype == y.dtype:
        return x, y
    if x.is_complex() or y.is_complex():
        real = y if x.is_complex() else x
        if not (real.is_complex() or real.is_floating_point()):
            raise ValueError(f"paddle.{api}: a complex operand is not promoted with an integer "
                             f"or bool one, but received {str(x.dtype)[6:]} and "
                             f"{str(y.dtype)[6:]}")
        dt = torch.promote_types(x.dtype, y.dtype)
        return x.to(dt), y.to(dt)
    # the kernel is looked up by y's dtype (NotFound, a RuntimeError, when the CPU has none)
    kernel_dtypes(api, y, _KRON_DTYPES if api == "kron" else _MATMUL_DTYPES, "y")
    if x.device.type == "meta" or (x.dtype == torch.float32 and not y.is_floating_point()
                                   and api != "kron"):
        return x, y.to(x.dtype)   # (a program records any real pair in x's dtype; its run fails)
    raise ValueError(f"paddle.{api}: the operands must have the same dtype, but received "
                     f"{str(x.dtype)[6:]} and {str(y.dtype)[6:]}")


def _promote_float(x, y, api):
    """Paddle's automatic type promotion for ops like cross: between floating-point dtypes, and
    between complex and real ones; any other mix is a TypeError."""
    if x.dtype == y.dtype:
        return x, y
    fx, fy = (t.is_floating_point() or t.is_complex() for t in (x, y))
    if not (fx and fy):
        raise TypeError(f"paddle.{api}: type promotion only supports floating-point and complex "
                        f"dtypes, but received {str(x.dtype)[6:]} and {str(y.dtype)[6:]}")
    dt = torch.promote_types(x.dtype, y.dtype)
    return x.to(dt), y.to(dt)


# what the static APIs of mm, inner and tensordot take for both operands (a build-time TypeError)
_PROGRAM_MATMUL = frozenset({torch.float16, torch.float32, torch.float64})


@defop(amp="white", paddle_types=("pd_op.mm",),
       program_dtypes={"input": _PROGRAM_MATMUL, "mat2": _PROGRAM_MATMUL})
def mm(input, mat2, name=None):
    """Matrix product of ``input`` and ``mat2`` (broadcasting like :func:`matmul`).

    Args:
        input (Tensor): the left operand.
        mat2 (Tensor): the right operand.
        name (str, optional): unused.

    Returns:
        Tensor: the product.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.mm(paddle.ones([2, 3]), paddle.ones([3, 1])).tolist()
        [[3.0], [3.0]]
    """
    if input.dtype != mat2.dtype:
        input, mat2 = _promote(input, mat2, "mm")
    # (the matmul kernel; a program records float32 and float64 only)
    kernel_dtypes("mm", input, _MATMUL_DTYPES, arg="input", static=F32_F64)
    try:
        return torch.matmul(input, mat2)
    except RuntimeError:
        _check_matmul_shapes(input, mat2, "mm")
        raise


@defop(amp="promote", paddle_types=("bmm", "pd_op.bmm"))
def bmm(x, y, name=None, *, out=None):
    """Batched matrix product of two 3-D tensors ``[b, m, k] @ [b, k, n]``.

    Args:
        x (Tensor): 3-D left operand.
        y (Tensor): 3-D right operand.
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: ``[b, m, n]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.bmm(paddle.ones([2, 1, 3]), paddle.ones([2, 3, 2])).shape
        paddle.Size([2, 1, 2])
    """
    if x.dim() != 3 or y.dim() != 3:
        raise ValueError(f"paddle.bmm: 'x' and 'y' must be 3-D tensors, but received x: {list(x.shape)}, "
                         f"y: {list(y.shape)}")
    # Paddle picks its kernel by y's dtype (a complex one's, in a real/complex mix) and reads x
    # as that type
    if x.is_complex() and not y.is_complex():
        kernel_dtypes("bmm", x, _BMM_DTYPES)
    kernel_dtypes("bmm", y, _BMM_DTYPES, "y")
    if x.dtype != y.dtype:
        raise ValueError(f"paddle.bmm: 'x' must have the dtype of 'y' ({str(y.dtype)[6:]}), but "
                         f"received {str(x.dtype)[6:]}")
    _check_bmm_shapes("bmm", x, y)
    return write_out(out, torch.bmm(x, y))


_BMM_DTYPES = frozenset({torch.float32, torch.float64})  # Paddle's CPU bmm kernel


@defop(amp="promote", paddle_types=("mv", "pd_op.mv"))
def mv(x, vec, name=None):
    """Matrix-vector product of a 2-D ``x`` and a 1-D ``vec``.

    Args:
        x (Tensor): ``[m, n]`` matrix.
        vec (Tensor): ``[n]`` vector.
        name (str, optional): unused.

    Returns:
        Tensor: ``[m]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.mv(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), paddle.to_tensor([1.0, 1.0])).tolist()
        [3.0, 7.0]
    """
    if x.dim() != 2 or vec.dim() != 1:
        raise ValueError(f"paddle.mv: 'x' must be 2-D and 'vec' 1-D, but received x: {list(x.shape)}, "
                         f"vec: {list(vec.shape)}")
    # Paddle's kernel is chosen by vec's dtype (float only: NotFound), then reads x as that type
    if not (vec.is_floating_point() or vec.is_complex()):
        raise NoKernelError(f"paddle.mv: 'vec' must be a floating tensor, but received dtype "
                            f"{str(vec.dtype).replace('torch.', '')}")
    if x.is_complex():
        kernel_dtypes("mv", x, F32_F64)
    kernel_dtypes("mv", vec, F32_F64, arg="vec")
    if x.dtype != vec.dtype:
        raise ValueError(f"paddle.mv: 'x' and 'vec' must have the same dtype, but received "
                         f"{str(x.dtype).replace('torch.', '')} and {str(vec.dtype).replace('torch.', '')}")
    if x.shape[1] != vec.shape[0]:
        raise ValueError(f"paddle.mv: the second dimension of 'x' ({x.shape[1]}) must equal the size of "
                         f"'vec' ({vec.shape[0]}), but received shapes {list(x.shape)} and {list(vec.shape)}")
    return torch.mv(x, vec)


_EINSUM_DTYPES = frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))
_DOT_KERNEL_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64, torch.complex64,
                                torch.complex128))


@defop(paddle_types=("dot", "pd_op.dot"))
def dot(x, y, name=None, *, out=None):
    """Dot product of two vectors, or row-wise dot products of two 2-D tensors.

    Args:
        x (Tensor): 1-D or 2-D.
        y (Tensor): same shape as ``x``.
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: 0-D for vectors, ``[n]`` for ``[n, k]`` inputs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.dot(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])).item()
        11.0
    """
    if x.shape != y.shape:
        raise RuntimeError(f"paddle.dot: the shapes of 'x' {list(x.shape)} and 'y' {list(y.shape)} "
                           "must be exactly the same")
    if x.is_complex() and y.is_floating_point():
        y = y.to(x.dtype)  # Paddle reads real data into a complex x's kernel
    if x.dtype != y.dtype:
        # Paddle picks the kernel by x's dtype (none for half/bool/small ints: its NotFound), which
        # then refuses y's data of another dtype (InvalidArgument)
        kind = ValueError if x.dtype in _DOT_KERNEL_DTYPES else RuntimeError
        raise kind(f"paddle.dot: 'x' and 'y' must have the same dtype, but received "
                   f"{str(x.dtype)[6:]} and {str(y.dtype)[6:]}")
    kernel_dtypes("dot", x, _DOT_KERNEL_DTYPES)
    if x.dim() == 1 and y.dim() == 1:
        r = torch.dot(x, y) if x.dtype.is_floating_point else (x * y).sum(dtype=x.dtype)
    elif x.dim() == 2 and x.shape == y.shape:
        r = (x * y).sum(-1, dtype=x.dtype)
    else:
        raise RuntimeError(f"paddle.dot: 'x' and 'y' must be 1-D or 2-D tensors of the same shape, but "
                         f"received x: {list(x.shape)}, y: {list(y.shape)}")
    return write_out(out, r)


@defop(amp="white", paddle_types=("einsum", "pd_op.einsum"), method=False)
def einsum(equation, *operands):
    """Einstein summation over the operands, as described by ``equation``.

    Args:
        equation (str): subscripts such as ``'ij,jk->ik'``.
        *operands (Tensor): the inputs.

    Returns:
        Tensor: the contraction.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.einsum('ii->', a).item()
        5.0
    """
    equation = _check_equation(equation, operands)
    dtypes = [t.dtype for t in operands if isinstance(t, torch.Tensor)]
    if len(set(dtypes)) > 1:
        # Paddle's kernel picks its dtype from the first operand: one without a CPU kernel is
        # its NotFound, operands of other dtypes then its InvalidArgument (no promotion)
        if isinstance(operands[0], torch.Tensor):
            kernel_dtypes("einsum", operands[0], _EINSUM_DTYPES, "operands[0]")
        raise ValueError("paddle.einsum: all operands must have one dtype, but received "
                         + ", ".join(str(d).replace("torch.", "") for d in dtypes))
    for i, t in enumerate(operands):
        if isinstance(t, torch.Tensor):
            kernel_dtypes("einsum", t, _EINSUM_DTYPES, f"operands[{i}]")
    lhs, arrow, rhs = equation.partition("->")
    if arrow and "." not in rhs and len(set(rhs)) < len(rhs):
        return _einsum_repeated_output(lhs, rhs, operands)
    return torch.einsum(equation, *operands)


def _einsum_repeated_output(lhs: str, rhs: str, operands: tuple) -> torch.Tensor:
    """An output label written more than once (``'i->ii'``) places the values on the diagonal
    of those axes, zeros elsewhere, as Paddle's kernel does; torch refuses such an output."""
    unique = "".join(dict.fromkeys(rhs))
    part = torch.einsum(f"{lhs}->{unique}", *operands)
    size = dict(zip(unique, part.shape))
    out = part.new_zeros([size[c] for c in rhs])
    strides = [sum(st for c2, st in zip(rhs, out.stride()) if c2 == c) for c in unique]
    out.as_strided(part.shape, strides).copy_(part)
    return out


def _check_equation(equation: str, operands: tuple) -> str:
    """Paddle's checks of the equation, in its order, with its messages: at least one operand,
    one ``->`` at most, one comma-separated term per operand (a list of tensors is one
    operand), letters and whole ellipses only, one label per dimension, an ellipsis in the
    output where the inputs have one, and one size per label (1 broadcasts). Returns the
    equation as Paddle reads it: without spaces and in lower case (``'IJ'`` is ``'ij'``)."""
    if not isinstance(equation, str):
        return equation  # torch's own error, mapped by the dispatcher
    equation = equation.replace(" ", "").lower()
    if not operands:
        raise AssertionError("paddle.einsum: Required at least one operand in Einsum API, but "
                             "received 0")
    lhs, *rhs = equation.split("->")
    if len(rhs) > 1:
        raise AssertionError(f"paddle.einsum: Invalid equation: multiple `->` were found "
                             f"(equation {equation!r}).")
    terms = lhs.split(",")
    if len(terms) != len(operands):  # a list of tensors counts as one operand
        raise AssertionError(f"paddle.einsum: Invalid equation: the number of operands is "
                             f"{len(operands)}, but found {len(terms)} segments in the label equation.")
    sizes: dict = {}
    for term, op in zip(terms, operands):
        for c in term.replace(".", ""):
            if not c.isalpha():
                raise AssertionError(f"paddle.einsum: Invalid equation: {c} is not a valid label, "
                                     "which should be letters.")
        if term.replace("...", "", 1).find(".") != -1:
            raise AssertionError("paddle.einsum: Invalid equation: `.` is found outside of an "
                                 f"ellipsis (label string {term!r}).")
        if isinstance(op, (list, tuple)):  # Paddle reads the operand's shape
            raise AttributeError(f"paddle.einsum: each operand must be a Tensor, but received a "
                                 f"{type(op).__name__}")
        labels = term.replace("...", "." * (op.dim() - len(term) + 3))
        if len(labels) != op.dim():
            raise AssertionError(f"paddle.einsum: Invalid equation: the label string '{term}' misses "
                                 f"dimensions (the operand has shape {list(op.shape)}).")
        mine: dict = {}
        for c, n in zip(labels, op.shape):
            if c == ".":
                continue
            seen = sizes.get(c)
            if mine.get(c, n) != n or (seen is not None and n != seen and 1 not in (n, seen)):
                raise ValueError(f"paddle.einsum: Same label have different shapes for label: `{c}` "
                                 f"({n} and {mine.get(c, seen)}, in equation {equation!r}).")
            mine[c] = n
            sizes[c] = n if seen in (None, 1) else seen
    if rhs and "..." in lhs and "..." not in rhs[0]:
        raise AssertionError(f"paddle.einsum: Invalid equation: missing ellipsis in output labels "
                             f"(equation {equation!r}).")
    return equation


# addmm and baddbmm: Paddle's CPU kernels take float32 and float64 only (its GPU kernels add
# float16 and bfloat16); no device has an integer or complex kernel.
_ADDMM_CPU = frozenset({torch.float32, torch.float64})


def _addmm_dtypes(api: str, x: torch.Tensor, input: torch.Tensor, shape: tuple) -> None:
    """The dtype check, after Paddle's shape check: ``input`` must broadcast to the result's
    ``shape`` (a ValueError whatever the dtypes)."""
    if input.dim() <= len(shape) and any(a != b and a != 1 for a, b in
                                         zip(input.shape[::-1], shape[::-1])):
        raise ValueError(f"paddle.{api}: 'input' of shape {list(input.shape)} does not broadcast to "
                         f"the result's shape {list(shape)}")
    if not x.is_floating_point():
        float_kernel(f"paddle.{api}", x)
    kernel_dtypes(api, x, _ADDMM_CPU)


def _check_mm(api, x, y):
    if x.dim() != 2 or y.dim() != 2:
        raise ValueError(f"paddle.{api}: 'x' and 'y' must be 2-D tensors, but received x: "
                         f"{list(x.shape)}, y: {list(y.shape)}")
    _check_matmul_shapes(x, y, api)


def _check_bmm_shapes(api, x, y):
    """Paddle's batched products: equal batch sizes and x's width equal to y's height."""
    if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(f"paddle.{api}: 'x' [b, m, k] and 'y' [b, k, n] must agree in b and k, but "
                         f"received shapes {list(x.shape)} and {list(y.shape)}")


def _into_input(input: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    """The in-place result: written into ``input``, which Paddle resizes to the result's shape
    when it only broadcast (an ``[n]`` or ``[1, n]`` input becomes ``[m, n]``)."""
    if r.shape == input.shape:
        return input.copy_(r)
    input.data = r
    return input


def _addmm_inplace(input, x, y, beta=1.0, alpha=1.0, name=None):
    _check_mm("addmm_", x, y)
    _addmm_dtypes("addmm_", x, input, (x.shape[0], y.shape[1]))
    if input.shape == (x.shape[0], y.shape[1]):
        return input.addmm_(x, y, beta=beta, alpha=alpha)
    return _into_input(input, addmm.op_record.kernel(input, x, y, beta, alpha))


@defop(amp="promote", paddle_types=("addmm", "pd_op.addmm"), inplace=_addmm_inplace)
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)`` for 2-D ``x`` and ``y``; ``input`` broadcasts.

    Args:
        input (Tensor): the term to add.
        x (Tensor): ``[m, k]``.
        y (Tensor): ``[k, n]``.
        beta (float, optional): scale of ``input``.
        alpha (float, optional): scale of the product.
        name (str, optional): unused.

    Returns:
        Tensor: ``[m, n]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.addmm(paddle.ones([2, 2]), paddle.ones([2, 3]), paddle.ones([3, 2]), beta=0.5).tolist()
        [[3.5, 3.5], [3.5, 3.5]]
    """
    _check_mm("addmm", x, y)
    if input.dim() not in (1, 2):
        raise ValueError(f"paddle.addmm: the dimension of input should be 2 or 1, but received "
                         f"input's shape {list(input.shape)}")
    _addmm_dtypes("addmm", x, input, (x.shape[0], y.shape[1]))
    return torch.addmm(input, x, y, beta=beta, alpha=alpha)


addmm_ = addmm.inplace


def _baddbmm_inplace(input, x, y, beta=1.0, alpha=1.0, name=None):
    if x.dim() != 3 or y.dim() != 3:
        raise ValueError(f"paddle.baddbmm_: 'x' and 'y' must be 3-D tensors, but received x: "
                         f"{list(x.shape)}, y: {list(y.shape)}")
    _addmm_dtypes("baddbmm_", x, input, (x.shape[0], x.shape[1], y.shape[2]))
    if input.shape == (x.shape[0], x.shape[1], y.shape[2]):
        return input.baddbmm_(x, y, beta=beta, alpha=alpha)
    return _into_input(input, baddbmm.op_record.kernel(input, x, y, beta, alpha))


@defop(amp="promote", paddle_types=("baddbmm", "pd_op.baddbmm"), inplace=_baddbmm_inplace)
def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * bmm(x, y)`` for 3-D ``x`` and ``y``; ``input`` broadcasts.

    Args:
        input (Tensor): the term to add: 3-D and broadcasting to ``[b, m, n]``, or 2-D
            ``[b, n]`` (one row per batch, as ``[b, 1, n]``).
        x (Tensor): ``[b, m, k]``.
        y (Tensor): ``[b, k, n]``.
        beta (float, optional): scale of ``input``.
        alpha (float, optional): scale of the product.
        name (str, optional): unused.

    Returns:
        Tensor: ``[b, m, n]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.baddbmm(paddle.zeros([1, 2, 2]), paddle.ones([1, 2, 3]), paddle.ones([1, 3, 2])).tolist()
        [[[3.0, 3.0], [3.0, 3.0]]]
    """
    if not isinstance(input, (torch.Tensor, np.ndarray)):   # Paddle reads input.shape first
        raise AttributeError(f"paddle.baddbmm: 'input' must be a Tensor, but received {type(input).__name__}")
    if x.dim() != 3 or y.dim() != 3:
        raise ValueError(f"paddle.baddbmm: 'x' and 'y' must be 3-D tensors, but received x: "
                         f"{list(x.shape)}, y: {list(y.shape)}")
    _check_bmm_shapes("baddbmm", x, y)
    if input.dim() == 2:
        # Paddle reads a 2-D input as one row per batch, [b, n] -> [b, 1, n], not as a matrix
        # shared by the batch
        if input.shape[0] != x.shape[0] or input.shape[1] not in (y.shape[2], 1):
            raise ValueError(f"paddle.baddbmm: a 2-D 'input' must be shaped [{x.shape[0]}, {y.shape[2]}] (or "
                             f"[{x.shape[0]}, 1]), but received {list(input.shape)}")
        input = input.unsqueeze(1)
    elif input.dim() != 3:
        raise ValueError(f"paddle.baddbmm: 'input' must be 2-D or 3-D, but received shape {list(input.shape)}")
    _addmm_dtypes("baddbmm", x, input, (x.shape[0], x.shape[1], y.shape[2]))
    return torch.baddbmm(input, x, y, beta=beta, alpha=alpha)


baddbmm_ = baddbmm.inplace


# Paddle's CPU kron kernel (no bool, small-int or bfloat16 one).
_KRON_DTYPES = frozenset({torch.int32, torch.int64, torch.float16, torch.float32, torch.float64,
                          torch.complex64, torch.complex128})


@defop(paddle_types=("kron", "pd_op.kron"))
def kron(x, y, name=None):
    """Kronecker product of ``x`` and ``y``.

    Args:
        x (Tensor): the first operand.
        y (Tensor): the second operand.
        name (str, optional): unused.

    Returns:
        Tensor: the Kronecker product.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.kron(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 10])).tolist()
        [1, 10, 2, 20]
    """
    x, y = _promote(x, y, "kron")
    kernel_dtypes("kron", x, _KRON_DTYPES)
    return torch.kron(x, y)


def _cross_static_shape(x, y, axis=9, name=None) -> list[int] | None:
    """Static rule (see ``Recorder``): with unknown sizes the axis of size 3 the default
    ``axis`` picks is only known when the program runs; the result has the inputs' shape."""
    if not (x._t.is_floating_point() or x._t.is_complex()) or x.dim() != y.dim():
        return None
    return [a if a != -1 else b for a, b in zip(x._known_dims(), y._known_dims())]


# Paddle's CPU cross kernel has no bool, int8, uint8, int16, float16 or bfloat16 version (the
# last two run on its GPU)
_CROSS_DTYPES = frozenset({torch.int32, torch.int64, torch.float32,
                           torch.float64, torch.complex64, torch.complex128})


def _cross_static_check(x, y, axis=9, name=None) -> None:
    """Paddle's program builder checks cross's known sizes (ValueError): equal shapes, and size
    3 along an explicit ``axis``; unknown sizes (-1) are left to the run."""
    xs, ys = list(x.shape), list(y.shape)
    if -1 not in xs and -1 not in ys and xs != ys:
        raise ValueError(f"paddle.cross: 'x' and 'y' must have the same shape, but received {xs} "
                         f"and {ys}")
    if axis is not None and axis != 9 and isinstance(axis, int) and -len(xs) <= axis < len(xs) \
            and xs[axis] not in (3, -1):
        raise ValueError(f"paddle.cross: the size of 'axis' {axis} must be 3, but received "
                         f"{xs[axis]} (shape {xs})")


@defop(paddle_types=("cross", "pd_op.cross"), static_shape=_cross_static_shape,
       static_check=_cross_static_check)
def cross(x, y, axis=9, name=None):
    """Cross product of 3-vectors along ``axis``.

    Args:
        x (Tensor): the first operand.
        y (Tensor): the second operand, same shape.
        axis (int, optional): the axis of size 3; the default (9, or None) takes the
            first axis of size 3.
        name (str, optional): unused.

    Returns:
        Tensor: the cross products.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cross(paddle.to_tensor([1.0, 0.0, 0.0]), paddle.to_tensor([0.0, 1.0, 0.0])).tolist()
        [0.0, 0.0, 1.0]
    """
    x, y = _promote_float(x, y, "cross")
    kernel_dtypes("cross", x, _CROSS_DTYPES)
    if list(x.shape) != list(y.shape):
        raise ValueError(f"paddle.cross: 'x' and 'y' must have the same shape, but received "
                         f"{list(x.shape)} and {list(y.shape)}")
    if axis is None or axis == 9:
        dims = [d for d in range(x.dim()) if x.shape[d] == 3]
        if not dims:
            raise ValueError(f"paddle.cross: 'x' and 'y' need an axis of size 3, but received shape "
                             f"{list(x.shape)}")
        ax = dims[0]
    else:
        ax = norm_axis(axis, x.dim(), "cross", error=IndexError)
        if x.shape[ax] != 3:
            raise ValueError(f"paddle.cross: the size of 'axis' {axis} must be 3, but received "
                             f"{x.shape[ax]} (shape {list(x.shape)})")
    return torch.linalg.cross(x, y, dim=ax)


@defop(paddle_types=("pd_op.outer",))
def outer(x, y, name=None, *, out=None):
    """Outer product of the flattened ``x`` and ``y``.

    Args:
        x (Tensor): the first operand (flattened).
        y (Tensor): the second operand (flattened).
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: ``[x.size, y.size]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.outer(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])).tolist()
        [[3, 4], [6, 8]]
    """
    return _outer(x, y, out, "outer")


@defop(method=False)
def ger(x, y, name=None, *, out=None):
    """Outer product of two vectors (same as :func:`outer`).

    Args:
        x (Tensor): the first operand (flattened).
        y (Tensor): the second operand (flattened).
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: ``[x.size, y.size]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ger(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0])).tolist()
        [[3.0], [6.0]]
    """
    return _outer(x, y, out, "ger")


@defop(paddle_types=("pd_op.inner",), program_dtypes={"x": _PROGRAM_MATMUL, "y": _PROGRAM_MATMUL})
def inner(x, y, name=None):
    """Inner product over the last axis of ``x`` and ``y`` (a broadcast product when either has
    one element).

    Args:
        x (Tensor): the first operand.
        y (Tensor): the second operand; its last axis matches that of ``x``.
        name (str, optional): unused.

    Returns:
        Tensor: shape ``x.shape[:-1] + y.shape[:-1]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.inner(paddle.to_tensor([[1.0, 2.0]]), paddle.to_tensor([[3.0, 4.0]])).tolist()
        [[11.0]]
    """
    if x.numel() == 1 or y.numel() == 1:   # Paddle multiplies (broadcasting) when one has one element
        from pagaie._ops.arith import multiply
        return multiply.op_record.kernel(x, y)
    x, y = _promote(x, y, "inner")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"paddle.inner: the last dimensions of 'x' and 'y' must match, but received "
                         f"shapes {list(x.shape)} and {list(y.shape)}")
    no_low_float_kernel("inner", x, missing=_NO_MATMUL_KERNEL)
    return torch.inner(x, y)


def _axes_list(v):
    if isinstance(v, torch.Tensor):
        return [int(e) for e in v.reshape(-1).tolist()]
    if isinstance(v, (list, tuple)):
        return int_list(v)
    return [int(v)]


@defop(amp="white", method=True, program_dtypes={"x": _PROGRAM_MATMUL, "y": _PROGRAM_MATMUL})
def tensordot(x, y, axes=2, name=None):
    """Sum the products of ``x`` and ``y`` over the given axes.

    Args:
        x (Tensor): the left operand.
        y (Tensor): the right operand.
        axes (int|list|tuple|Tensor, optional): an int ``n`` contracts the last ``n``
            axes of ``x`` with the first ``n`` of ``y``; a list of ints contracts the
            same axes of both; a pair of lists gives the axes of ``x`` and of ``y``
            (the shorter list is completed from the longer one).
        name (str, optional): unused.

    Returns:
        Tensor: the contraction.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tensordot(paddle.ones([2, 3]), paddle.ones([3, 4]), axes=1).shape
        paddle.Size([2, 4])
    """
    if isinstance(axes, torch.Tensor):
        axes = axes.tolist()
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        n = int(axes)
        if n < 0:
            raise AssertionError(f"paddle.tensordot: an int 'axes' must be non-negative, but received {n}")
        ax_x, ax_y = list(range(x.dim() - n, x.dim())), list(range(n))
    elif isinstance(axes, (float, str)):  # Paddle indexes into a non-int axes: its TypeError
        raise TypeError(f"paddle.tensordot: 'axes' must be an int, a list or a tuple, but received {axes!r}")
    else:
        ax_x, ax_y = _axes_pair(list(axes))
    for a, b in zip(ax_x, ax_y):
        # Paddle contracts a size-1 axis with any size: the other operand is summed over its axis
        if x.shape[a] == 1 and y.shape[b] != 1:
            y = y.sum(b, keepdim=True)
        elif y.shape[b] == 1 and x.shape[a] != 1:
            x = x.sum(a, keepdim=True)
        elif x.shape[a] != y.shape[b]:
            raise AssertionError(f"paddle.tensordot: 'x' has size {x.shape[a]} in axis {a} but 'y' has size "
                                 f"{y.shape[b]} in axis {b}; contracted axes must match (or be 1)")
    x, y = _promote(x, y, "tensordot")
    no_low_float_kernel("tensordot", x, missing=_NO_MATMUL_KERNEL)
    return torch.tensordot(x, y, dims=(ax_x, ax_y))


def _axes_pair(axes: list) -> tuple[list, list]:
    """The contracted axes of x and of y from a list ``axes``: ints name the same axes of both,
    a pair of lists gives each; the shorter list is completed from the longer one."""
    if not axes:
        ax_x, ax_y = [], []
    elif all(not isinstance(a, (list, tuple, torch.Tensor)) for a in axes):
        ax_x = ax_y = int_list(axes)
    else:
        ax_x = _axes_list(axes[0])
        ax_y = _axes_list(axes[1]) if len(axes) > 1 else list(ax_x)
    if len(ax_x) < len(ax_y):
        ax_x = ax_x + ax_y[len(ax_x):]
    elif len(ax_y) < len(ax_x):
        ax_y = ax_y + ax_x[len(ax_y):]
    return ax_x, ax_y


# The dtypes of Paddle's CPU trace kernel (probed; others are NotFound).
_TRACE_DTYPES = frozenset({torch.float16, torch.float32, torch.float64, torch.int32, torch.int64, torch.complex64, torch.complex128})


@defop(paddle_types=("trace", "pd_op.trace"))
def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Sum of the diagonal of the 2-D slices given by ``axis1`` and ``axis2``.

    Args:
        x (Tensor): at least 2-D.
        offset (int, optional): diagonal offset (positive: above the main diagonal).
        axis1 (int, optional): the first axis of the slices.
        axis2 (int, optional): the second axis of the slices.
        name (str, optional): unused.

    Returns:
        Tensor: the traces, with ``axis1`` and ``axis2`` removed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.trace(paddle.to_tensor([[1, 2], [3, 4]])).item()
        5
    """
    kernel_dtypes("trace", x, _TRACE_DTYPES)
    if x.dim() < 2:
        raise IndexError(f"paddle.trace: 'x' must be at least 2-D, but received {x.dim()}-D")
    # (an axis out of range is Paddle's OutOfRange: IndexError)
    a1 = norm_axis(axis1, x.dim(), "trace", "axis1", error=IndexError)
    a2 = norm_axis(axis2, x.dim(), "trace", "axis2", error=IndexError)
    if a1 == a2:
        raise ValueError(f"paddle.trace: 'axis1' and 'axis2' must differ, but both are {axis1}")
    return torch.diagonal(x, offset, a1, a2).sum(-1, dtype=x.dtype)


@defop(amp="black", paddle_types=("dist", "pd_op.dist"))
def dist(x, y, p=2, name=None):
    """The ``p``-norm of ``x - y`` (broadcast), as a 0-D tensor.

    Args:
        x (Tensor): the first operand.
        y (Tensor): the second operand.
        p (float, optional): the norm order; ``0`` counts non-zeros, ``inf`` / ``-inf``
            take the max / min absolute value.
        name (str, optional): unused.

    Returns:
        Tensor: 0-D.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.dist(paddle.to_tensor([3.0, 0.0]), paddle.to_tensor([0.0, 4.0])).item()
        5.0
    """
    unpromoted_pair("dist", x, y, F32_F64)
    if isinstance(p, str):   # Paddle's parser wants a number (float() would read the text)
        raise TypeError(f"paddle.dist: 'p' must be a number, but received str {p!r}")
    p = float(p)
    if (p < 1 or np.isinf(p)) and (x.requires_grad or y.requires_grad) and torch.is_grad_enabled():
        from pagaie._ops.linalg import _pnorm  # Paddle's gradients at these orders
        return _pnorm(x - y, p, None, False)
    return torch.dist(x, y, p=p)




@defop(amp="black", program_dtypes={"x": F32_F64, "y": F32_F64})  # its static API's check
def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """Pairwise ``p``-norm distances between the rows of ``x`` and ``y``.

    Args:
        x (Tensor): ``[..., m, d]``.
        y (Tensor): ``[..., n, d]``.
        p (float, optional): the norm order.
        compute_mode (str, optional): ``'use_mm_for_euclid_dist_if_necessary'``,
            ``'use_mm_for_euclid_dist'`` or ``'donot_use_mm_for_euclid_dist'``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., m, n]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cdist(paddle.to_tensor([[0.0, 0.0]]), paddle.to_tensor([[3.0, 4.0]])).tolist()
        [[5.0]]
    """
    modes = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")
    if compute_mode not in modes:
        raise ValueError(f"paddle.cdist: 'compute_mode' must be one of {modes}, but received {compute_mode!r}")
    floats = [t.is_floating_point() for t in (x, y)]
    if floats[0] != floats[1]:
        raise TypeError(f"paddle.cdist: type promotion only supports floating-point inputs here, "
                        f"but received {str(x.dtype)[6:]} and {str(y.dtype)[6:]}")
    _floating("cdist", x)
    for name, t in (("x", x), ("y", y)):
        if t.dim() < 2:
            raise AssertionError(f"paddle.cdist: '{name}' must be at least 2-dimensional, but "
                                 f"received a {t.dim()}-D tensor")
    if x.dtype != y.dtype:
        d = torch.promote_types(x.dtype, y.dtype)   # (bfloat16 with float16: float32)
        x, y = x.to(d), y.to(d)
    if x.shape[-1] != y.shape[-1]:
        raise AssertionError(f"paddle.cdist: 'x' and 'y' must have the same last dimension, but received "
                             f"{x.shape[-1]} and {y.shape[-1]}")
    if float(p) < 0:
        raise AssertionError(f"paddle.cdist: 'p' must be greater than or equal to 0, but received {p}")
    if x.is_complex():  # real distances between complex rows: norms of |x_i - y_j|
        diff = (x.unsqueeze(-2) - y.unsqueeze(-3)).abs()
        return torch.linalg.vector_norm(diff, ord=float(p), dim=-1)
    if 0 < float(p) < 1 and (x.requires_grad or y.requires_grad) and torch.is_grad_enabled():
        # Paddle's p-norm gradient at a zero difference is NaN for these orders (torch's is finite)
        from pagaie._ops.linalg import _pnorm
        diff = x.unsqueeze(-2) - y.unsqueeze(-3)
        return _pnorm(diff, float(p), [diff.dim() - 1], False)
    return torch.cdist(x, y, p=float(p), compute_mode=compute_mode)


@defop(amp="black", method=False, program_dtypes={"x": frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))})  # (its static API's check)
def pdist(x, p=2.0, name=None):
    """``p``-norm distances between every pair of rows of a 2-D ``x`` (upper triangle, flat).

    Args:
        x (Tensor): ``[n, d]``.
        p (float, optional): the norm order.
        name (str, optional): unused.

    Returns:
        Tensor: ``[n * (n - 1) / 2]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.pdist(paddle.to_tensor([[0.0, 0.0], [3.0, 4.0]])).tolist()
        [5.0]
    """
    if x.dim() != 2:
        raise AssertionValueError(f"paddle.pdist: 'x' must be 2-D, but received {x.dim()}-D")  # Paddle asserts
    _floating("pdist", x)
    if x.is_complex() or float(p) < 0:
        # Paddle's composite: the real p-norms of the rows' differences' moduli (torch's pdist
        # takes neither a complex input nor a negative p)
        i, j = torch.triu_indices(x.shape[0], x.shape[0], 1, device=x.device)
        d = (x[i] - x[j]).abs()
        if float(p) == 0:  # the count of non-zero entries, with Paddle's zero gradient
            return (d != 0).sum(-1).to(d.dtype) + d.sum(-1) * 0
        if abs(float(p)) == float("inf"):  # every tied extreme takes the whole gradient
            m = d.detach().amax(-1, keepdim=True) if p > 0 else d.detach().amin(-1, keepdim=True)
            return m.squeeze(-1) + ((d - d.detach()) * (d.detach() == m)).sum(-1)
        return torch.linalg.vector_norm(d, ord=float(p), dim=-1)
    return torch.pdist(x, p=float(p))


@defop(method=False)
def vecdot(x, y, axis=-1, name=None):
    """Dot products of vectors along ``axis`` (``x`` conjugated), with broadcasting.

    Args:
        x (Tensor): the first operand.
        y (Tensor): the second operand.
        axis (int, optional): the axis holding the vectors.
        name (str, optional): unused.

    Returns:
        Tensor: the dot products, with ``axis`` removed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.vecdot(paddle.to_tensor([[1.0, 2.0]]), paddle.to_tensor([3.0, 4.0])).tolist()
        [11.0]
    """
    if x.dtype == torch.bool or y.dtype == torch.bool:  # Paddle has no bool kernel of conj: NotFound
        raise NoKernelError(f"paddle.linalg.vecdot: 'x' and 'y' must not be bool, but received "
                            f"{str(x.dtype)[6:]} and {str(y.dtype)[6:]}")
    if x.is_floating_point() != y.is_floating_point() and not (x.is_complex() or y.is_complex()):
        raise TypeError("paddle.linalg.vecdot: type promotion only works between floating-point (or complex and "
                        f"real) tensors, but received {str(x.dtype)[6:]} and {str(y.dtype)[6:]}")
    no_low_float_kernel("linalg.vecdot", x, missing=_NO_MATMUL_KERNEL)   # (conj, on x only)
    if type(axis) is int:  # (over the broadcast shape)
        norm_axis(axis, max(x.dim(), y.dim()), "linalg.vecdot")
    return (x.conj() * y).sum(dim=axis)
