"""paddle.linalg decompositions: SVD, QR, eigen, LU, Householder products, low-rank SVD/PCA.

Only ``eigvalsh`` is also a top-level ``paddle`` name; the rest reach users through
:mod:`pagaie.linalg`.
"""
from __future__ import annotations

import numbers

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import AssertionValueError, dtype_name, parser_bool, write_out
from pagaie._ops.linalg import _floating

__all__ = ["eigvalsh"]


def _svd_out(out, res):
    """Write svd's results into the tuple ``out`` (Paddle wants a tuple of one Tensor per result)."""
    if out is not None:
        if not isinstance(out, tuple) or len(out) != len(res):
            seen = f"a {type(out).__name__} of {len(out)}" if isinstance(out, (list, tuple)) else \
                f"a {type(out).__name__}"
            raise ValueError(f"paddle.linalg.svd: 'out' must be a tuple of {len(res)} Tensors, but "
                             f"received {seen}")
        for o, r in zip(out, res):
            write_out(o, r)
    return res


def _matrix(api: str, x, square: bool = False) -> None:
    if x.dim() < 2 or (square and x.shape[-1] != x.shape[-2]):
        kind = "square matrices" if square else "matrices"
        raise ValueError(f"paddle.linalg.{api}: 'x' must be a (batch of) {kind}, but received shape "
                         f"{list(x.shape)}")


@defop(amp="black", method=False, paddle_types=("svd", "pd_op.svd"))
def svd(x, full_matrices=False, name=None, *, out=None):
    """Singular value decomposition ``x = U @ diag(S) @ VH``.

    Args:
        x (Tensor): ``[..., m, n]``.
        full_matrices (bool, optional): return square ``U`` and ``VH`` instead of the
            reduced ones.
        name (str, optional): unused.
        out (tuple, optional): three tensors to receive ``U``, ``S`` and ``VH``.

    Returns:
        tuple: ``(U, S, VH)``; ``S`` is in descending order.

    Examples:
        >>> import pagaie as paddle
        >>> u, s, vh = paddle.linalg.svd(paddle.to_tensor([[3.0, 0.0], [0.0, -2.0]]))
        >>> s.tolist()
        [3.0, 2.0]
    """
    full_matrices = parser_bool(full_matrices, "linalg.svd", "full_matrices")
    _matrix("svd", x)
    _floating("svd", x)
    return _svd_out(out, torch.linalg.svd(x, full_matrices=full_matrices))


@defop(amp="black", method=False)
def svdvals(x, name=None):
    """Singular values of (a batch of) matrices, in descending order.

    Args:
        x (Tensor): ``[..., m, n]``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., min(m, n)]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.svdvals(paddle.to_tensor([[3.0, 0.0], [0.0, -2.0]])).tolist()
        [3.0, 2.0]
    """
    if x.is_complex():  # Paddle registers svdvals for float32/float64 only: its NotFound
        raise NoKernelError("paddle.linalg.svdvals: 'x' must be float32 or float64, but received "
                            f"{str(x.dtype).replace('torch.', '')}")
    _matrix("svdvals", x)
    _floating("svdvals", x)
    return torch.linalg.svdvals(x)


class _QRNoGrad(torch.autograd.Function):
    """``torch.linalg.qr`` whose backward is Paddle's InvalidArgument: Paddle has no derivative
    of ``mode='r'``, nor of ``mode='complete'`` with more rows than columns."""

    @staticmethod
    def forward(ctx, x, mode):
        ctx.mode, ctx.shape = mode, list(x.shape)
        q, r = torch.linalg.qr(x, mode="reduced" if mode == "r" else mode)
        return q, r

    @staticmethod
    def backward(ctx, gq, gr):
        raise ValueError(f"paddle.linalg.qr: the derivative of qr is not implemented when mode='{ctx.mode}'"
                         + (f" and rows > columns (input shape {ctx.shape})" if ctx.mode == "complete" else ""))


@defop(amp="black", paddle_types=("qr", "pd_op.qr"))
def qr(x, mode="reduced", name=None):
    """QR decomposition ``x = Q @ R``.

    Args:
        x (Tensor): ``[..., m, n]``.
        mode (str, optional): ``'reduced'`` (``Q`` is ``[m, k]``, ``k = min(m, n)``),
            ``'complete'`` (``Q`` is ``[m, m]``) or ``'r'`` (only ``R``).
        name (str, optional): unused.

    Returns:
        tuple|Tensor: ``(Q, R)``, or ``R`` alone for ``mode='r'``.

    Examples:
        >>> import pagaie as paddle
        >>> q, r = paddle.linalg.qr(paddle.to_tensor([[2.0, 0.0], [0.0, 3.0]]))
        >>> (q @ r).tolist()
        [[2.0, 0.0], [0.0, 3.0]]
    """
    if not isinstance(mode, str):  # Paddle's parser wants a str
        raise TypeError(f"paddle.linalg.qr: 'mode' must be a str, but received {type(mode).__name__}")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"paddle.linalg.qr: 'mode' must be 'reduced', 'complete' or 'r', but received {mode!r}")
    _matrix("qr", x)
    _floating("qr", x)
    if x.requires_grad and torch.is_grad_enabled() and (
            mode == "r" or (mode == "complete" and x.shape[-2] > x.shape[-1])):
        q, r = _QRNoGrad.apply(x, mode)
        return r if mode == "r" else (q, r)
    if mode == "r":
        return torch.linalg.qr(x, mode="r")[1]
    return torch.linalg.qr(x, mode=mode)


@defop(amp="black", paddle_types=("eig", "pd_op.eig"))
def eig(x, name=None):
    """Eigenvalues and right eigenvectors of (a batch of) general square matrices.

    Args:
        x (Tensor): ``[..., n, n]``.
        name (str, optional): unused.

    Returns:
        tuple: complex ``(eigenvalues [..., n], eigenvectors [..., n, n])``; the
        eigenvectors are normalised to norm 1.

    Examples:
        >>> import pagaie as paddle
        >>> w, v = paddle.linalg.eig(paddle.to_tensor([[2.0, 0.0], [0.0, 3.0]]))
        >>> w.numpy().real.tolist()
        [2.0, 3.0]
    """
    _matrix("eig", x, square=True)
    _floating("eig", x)
    if x.requires_grad and torch.is_grad_enabled():
        return _Eig.apply(x)
    return torch.linalg.eig(x)


class _Eig(torch.autograd.Function):
    """``torch.linalg.eig`` with Paddle's backward: the same formula as torch's, without its
    refusal of losses that depend on the eigenvectors' phases (Paddle computes the gradient)."""

    @staticmethod
    def forward(ctx, x):
        w, v = torch.linalg.eig(x)
        ctx.save_for_backward(w, v)
        ctx.real_input = not x.is_complex()
        return w, v

    @staticmethod
    def backward(ctx, gw, gv):
        w, v = ctx.saved_tensors
        vh = v.mH
        gw = torch.zeros_like(w) if gw is None else gw
        vhgv = vh @ gv if gv is not None else torch.zeros_like(v)
        diag_re = vhgv.diagonal(dim1=-2, dim2=-1).real.to(v.dtype)
        off = (vhgv - vh @ (v * diag_re.unsqueeze(-2))) / (w.unsqueeze(-2) - w.unsqueeze(-1)).conj()
        eye = torch.eye(w.shape[-1], dtype=torch.bool, device=w.device)
        res = off.masked_fill(eye, 0) + torch.diag_embed(gw)
        gx = torch.linalg.solve(vh, res @ vh)
        return gx.real if ctx.real_input else gx


@defop(amp="black", differentiable=False, paddle_types=("eigvals", "pd_op.eigvals"))
def eigvals(x, name=None):
    """Eigenvalues of (a batch of) general square matrices.

    Args:
        x (Tensor): ``[..., n, n]``.
        name (str, optional): unused.

    Returns:
        Tensor: complex ``[..., n]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.eigvals(paddle.to_tensor([[2.0, 0.0], [0.0, 3.0]])).numpy().real.tolist()
        [2.0, 3.0]
    """
    _matrix("eigvals", x, square=True)
    _floating("eigvals", x)
    # Paddle hands its row-major data to LAPACK as is, i.e. it solves for the eigenvalues of the
    # transpose: the same values, in the order LAPACK finds them for that matrix
    return torch.linalg.eigvals(x.transpose(-2, -1)).detach()  # Paddle has no eigvals gradient


def _symmetric_eigen(api: str, fn, x, UPLO: str):
    """Run torch's symmetric eigen solver; its failure to converge (NaN or Inf input) is Paddle's
    PreconditionNotMet, a RuntimeError."""
    try:
        return fn(x, UPLO=UPLO)
    except torch.linalg.LinAlgError:
        raise RuntimeError(f"paddle.linalg.{api}: the eigenvalue algorithm did not converge: the "
                           f"input holds NaN or Inf values or is too ill-conditioned (received "
                           f"shape {list(x.shape)})") from None


def _uplo(api: str, UPLO: str) -> str:
    if isinstance(UPLO, torch.Tensor) or UPLO not in ("L", "U"):
        seen = "a Tensor" if isinstance(UPLO, torch.Tensor) else repr(UPLO)
        raise ValueError(f"paddle.linalg.{api}: 'UPLO' must be 'L' or 'U', but received {seen}")
    return UPLO


@defop(amp="black", method=False, paddle_types=("eigh", "pd_op.eigh"))
def eigh(x, UPLO="L", name=None):
    """Eigenvalues (ascending) and eigenvectors of (a batch of) Hermitian matrices.

    Args:
        x (Tensor): ``[..., n, n]`` symmetric / Hermitian.
        UPLO (str, optional): use the lower (``'L'``) or upper (``'U'``) triangle.
        name (str, optional): unused.

    Returns:
        tuple: real ``eigenvalues [..., n]`` and ``eigenvectors [..., n, n]`` (columns).

    Examples:
        >>> import pagaie as paddle
        >>> w, v = paddle.linalg.eigh(paddle.to_tensor([[2.0, 1.0], [1.0, 2.0]]))
        >>> [round(e, 4) for e in w.tolist()]
        [1.0, 3.0]
    """
    _matrix("eigh", x, square=True)
    uplo = _uplo("eigh", UPLO)  # (checked before the input, as Paddle does)
    _floating("eigh", x)
    return _symmetric_eigen("eigh", torch.linalg.eigh, x, uplo)


def _eigvalsh_static_check(x, UPLO="L", name=None) -> None:
    """Paddle's static eigvalsh takes only 'L' or 'U' (ValueError while a program is built; its
    eager API reads any other string as 'U')."""
    if UPLO not in ("L", "U"):
        raise ValueError(f"paddle.linalg.eigvalsh: 'UPLO' must be 'L' or 'U' in a static program, "
                         f"but received {UPLO!r}")


@defop(amp="black", paddle_types=("eigvalsh", "pd_op.eigvalsh"), static_check=_eigvalsh_static_check)
def eigvalsh(x, UPLO="L", name=None):
    """Eigenvalues (ascending) of (a batch of) Hermitian matrices.

    Args:
        x (Tensor): ``[..., n, n]`` symmetric / Hermitian.
        UPLO (str, optional): use the lower (``'L'``) or upper (``'U'``, or any other
            string) triangle.
        name (str, optional): unused.

    Returns:
        Tensor: real ``[..., n]``.

    Examples:
        >>> import pagaie as paddle
        >>> [round(e, 4) for e in paddle.linalg.eigvalsh(paddle.to_tensor([[2.0, 1.0], [1.0, 2.0]])).tolist()]
        [1.0, 3.0]
    """
    _matrix("eigvalsh", x, square=True)
    _floating("eigvalsh", x)
    if not isinstance(UPLO, str):
        raise TypeError(f"paddle.linalg.eigvalsh: 'UPLO' must be a str, but received {type(UPLO).__name__}")
    # unlike eigh, Paddle's eigvalsh checks no further: every string but 'L' reads the upper triangle
    return _symmetric_eigen("eigvalsh", torch.linalg.eigvalsh, x, "L" if UPLO == "L" else "U")


@defop(amp="black", paddle_types=("lu", "pd_op.lu"))
def lu(x, pivot=True, get_infos=False, name=None):
    """LU factorisation with partial pivoting, in LAPACK's packed form.

    Args:
        x (Tensor): ``[..., m, n]``.
        pivot (bool, optional): pivot rows (factorisation without pivoting is not
            available on CPU).
        get_infos (bool, optional): also return the LAPACK status per matrix.
        name (str, optional): unused.

    Returns:
        tuple: ``(LU, pivots)`` (and ``infos`` when asked); ``pivots`` and ``infos``
        are int32, pivots 1-based. Unpack with :func:`lu_unpack`.

    Examples:
        >>> import pagaie as paddle
        >>> lu, piv = paddle.linalg.lu(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> piv.tolist()
        [2, 2]
    """
    pivot = parser_bool(pivot, "linalg.lu", "pivot")
    _matrix("lu", x)
    _floating("lu", x)
    if not pivot and x.device.type == "cpu":
        raise ValueError("paddle.linalg.lu: factorisation without pivoting is not implemented on the CPU, "
                         "but received pivot=False")
    lu_, piv, info = torch.linalg.lu_factor_ex(x, pivot=pivot)
    piv = piv.to(torch.int32)
    return (lu_, piv, info.to(torch.int32)) if get_infos else (lu_, piv)


def _pivots(api: str, piv) -> None:
    if piv.dtype != torch.int32:  # Paddle's kernels read the pivots as int32 only
        raise ValueError(f"paddle.linalg.{api}: the pivots must be int32 (as paddle.linalg.lu returns them), "
                         f"but received {str(piv.dtype).replace('torch.', '')}")


@defop(amp="black", paddle_types=("lu_unpack", "pd_op.lu_unpack"))
def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """Unpack :func:`lu`'s result into the permutation, lower and upper factors.

    Args:
        x (Tensor): packed LU data ``[..., m, n]``.
        y (Tensor): pivots ``[..., min(m, n)]`` (1-based).
        unpack_ludata (bool, optional): compute ``L`` and ``U``.
        unpack_pivots (bool, optional): compute ``P``.
        name (str, optional): unused.

    Returns:
        tuple: ``(P, L, U)`` with ``x = P @ L @ U`` (an output not asked for is empty).

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> p, l, u = paddle.linalg.lu_unpack(*paddle.linalg.lu(a))
        >>> (p @ l @ u).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    unpack_ludata = parser_bool(unpack_ludata, "linalg.lu_unpack", "unpack_ludata")
    unpack_pivots = parser_bool(unpack_pivots, "linalg.lu_unpack", "unpack_pivots")
    _floating("lu_unpack", x)
    _pivots("lu_unpack", y)
    _matrix("lu_unpack", x)
    if list(y.shape) != list(x.shape[:-2]) + [min(x.shape[-2], x.shape[-1])]:
        raise ValueError(f"paddle.linalg.lu_unpack: 'y' (the pivots) must have shape "
                         f"{list(x.shape[:-2]) + [min(x.shape[-2], x.shape[-1])]} for 'x' of shape "
                         f"{list(x.shape)}, but received {list(y.shape)}")
    p, l, u = torch.lu_unpack(x, y, unpack_data=unpack_ludata, unpack_pivots=unpack_pivots)
    # Paddle's placeholders for the outputs not asked for are empty float32 tensors
    if not unpack_pivots:
        p = p.new_empty((0,), dtype=torch.float32)
    if not unpack_ludata:
        l, u = l.new_empty((0,), dtype=torch.float32), u.new_empty((0,), dtype=torch.float32)
    return p, l, u


@defop(amp="black", method=False, paddle_types=("lu_solve", "pd_op.lu_solve"))
def lu_solve(b, lu, pivots, trans="N", name=None):
    """Solve ``op(A) @ out = b`` from the LU factorisation of ``A`` given by :func:`lu`.

    Args:
        b (Tensor): ``[..., n, k]`` right-hand sides.
        lu (Tensor): packed LU data of ``A``.
        pivots (Tensor): the pivots of the factorisation.
        trans (str, optional): ``'N'`` (``A``), ``'T'`` (transpose) or ``'C'``
            (conjugate transpose); as in Paddle, any other value means ``'T'``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., n, k]``.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[2.0, 0.0], [0.0, 4.0]])
        >>> paddle.linalg.lu_solve(paddle.to_tensor([[2.0], [2.0]]), *paddle.linalg.lu(a)).tolist()
        [[1.0], [0.5]]
    """
    if not (b.is_floating_point() or b.is_complex()) or b.dtype in (torch.float16, torch.bfloat16):
        raise NoKernelError(f"paddle.linalg.lu_solve: 'b' must be a float32, float64 or complex "
                            f"tensor, but received dtype {dtype_name(b)}")
    if lu.dtype != b.dtype:
        raise ValueError(f"paddle.linalg.lu_solve: 'lu' must have the dtype of 'b' "
                         f"({dtype_name(b)}), but received {dtype_name(lu)}")
    _pivots("lu_solve", pivots)
    for arg, t, least in (("b", b, 2), ("lu", lu, 2), ("pivots", pivots, 1)):
        if t.dim() < least:
            raise ValueError(f"paddle.linalg.lu_solve: '{arg}' must be at least {least}-D, but received shape "
                             f"{list(t.shape)}")
    if lu.shape[-1] != lu.shape[-2]:
        raise ValueError(f"paddle.linalg.lu_solve: 'lu' must be a (batch of) square matrices, but received shape "
                         f"{list(lu.shape)}")
    if b.shape[-2] != lu.shape[-2] or pivots.shape[-1] != lu.shape[-1]:
        raise ValueError(f"paddle.linalg.lu_solve: 'b' must have as many rows, and 'pivots' as many entries, as "
                         f"'lu' has rows, but received shapes b {list(b.shape)}, lu {list(lu.shape)} and "
                         f"pivots {list(pivots.shape)}")
    piv = pivots
    if trans == "N":
        return torch.linalg.lu_solve(lu, piv, b)
    if trans == "C" or not lu.is_complex():  # Paddle solves with the transpose for every other value
        return torch.linalg.lu_solve(lu, piv, b, adjoint=True)
    return torch.linalg.lu_solve(lu, piv, b.conj(), adjoint=True).conj()


_HOUSEHOLDER_DTYPES = frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))


@defop(amp="black", paddle_types=("householder_product", "pd_op.householder_product"),
       program_dtypes={"x": _HOUSEHOLDER_DTYPES})  # (its static API's check, and its matmuls' for float16)
def householder_product(x, tau, name=None):
    """The first ``n`` columns of the product of Householder reflectors (as from a QR).

    Args:
        x (Tensor): ``[..., m, n]``; column ``i`` below the diagonal holds reflector ``i``
            (float32, float64, complex64, complex128, or int32/int64 computed exactly).
        tau (Tensor): ``[..., k]`` reflector scales, ``k <= n``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., m, n]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 0.0], [0.5, 1.0], [0.0, 2.0]])
        >>> q = paddle.linalg.householder_product(x, paddle.to_tensor([1.2, 0.4]))
        >>> q.shape
        paddle.Size([3, 2])
    """
    if x.dtype != tau.dtype:
        raise AssertionValueError("paddle.linalg.householder_product: 'x' and 'tau' must have the same dtype, "
                                  f"but received {str(x.dtype)[6:]} and {str(tau.dtype)[6:]}")
    if x.dim() < 2:
        raise AssertionValueError("paddle.linalg.householder_product: 'x' must be a (batch of) matrices, but "
                                  f"received shape {list(x.shape)}")
    if tau.dim() != x.dim() - 1:
        raise AssertionValueError("paddle.linalg.householder_product: 'tau' must have one dimension fewer "
                                  f"than 'x', but received x: {list(x.shape)}, tau: {list(tau.shape)}")
    if x.shape[-2] < x.shape[-1]:
        raise AssertionValueError(f"paddle.linalg.householder_product: 'x' must have at least as many rows as "
                                  f"columns, but received shape {list(x.shape)}")
    if tau.shape[-1] > x.shape[-1]:
        raise AssertionValueError(f"paddle.linalg.householder_product: the last dimension of 'tau' "
                                  f"({tau.shape[-1]}) must not exceed that of 'x' ({x.shape[-1]})")
    if tau.shape[:-1] != x.shape[:-2]:
        raise AssertionValueError("paddle.linalg.householder_product: 'x' and 'tau' must have the same batch "
                                  f"dimensions, but received x: {list(x.shape)}, tau: {list(tau.shape)}")
    return _householder("householder_product", x, tau)


def _householder(api: str, x, tau):
    """``torch.linalg.householder_product`` over the dtypes Paddle's composite takes: int32 and
    int64 too, from integer matmuls (exact, as float64 is for such values)."""
    if x.dtype in (torch.int32, torch.int64):
        return torch.linalg.householder_product(x.double(), tau.double()).round().to(x.dtype)
    if x.dtype not in _HOUSEHOLDER_DTYPES:
        raise NoKernelError(f"paddle.linalg.{api}: 'x' of dtype {dtype_name(x)} is not supported (Paddle's "
                            "kernels take float32, float64, complex64, complex128, int32, int64)")
    return torch.linalg.householder_product(x, tau)


_ORMQR_PROGRAM_DTYPES = _HOUSEHOLDER_DTYPES | {torch.float16}


@defop(amp="black", paddle_types=("pd_op.ormqr",),  # (the dtypes its static API checks)
       program_dtypes={"x": _ORMQR_PROGRAM_DTYPES, "tau": _ORMQR_PROGRAM_DTYPES, "y": _ORMQR_PROGRAM_DTYPES})
def ormqr(x, tau, y, left=True, transpose=False, name=None):
    """Multiply ``y`` by ``Q = householder_product(x, tau)`` (or its transpose).

    ``Q`` is the ``[m, n]`` matrix :func:`householder_product` returns, so with
    ``left=True`` the product is ``Q @ y`` (``y`` has ``n`` rows) or ``Q^T @ y``
    (``y`` has ``m`` rows) when ``transpose`` is set; with ``left=False`` it is
    ``y @ Q`` or ``y @ Q^T``.

    Args:
        x (Tensor): ``[..., m, n]`` Householder reflectors (float32, float64, complex64,
            complex128, or int32/int64 computed exactly).
        tau (Tensor): ``[..., n]`` reflector scales.
        y (Tensor): the matrix to multiply.
        left (bool, optional): multiply ``y`` from the left (True) or the right.
        transpose (bool, optional): use the transpose of ``Q``.
        name (str, optional): unused.

    Returns:
        Tensor: the product.

    Examples:
        >>> import pagaie as paddle
        >>> y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.linalg.ormqr(y, paddle.to_tensor([0.0, 0.0]), y).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if x.dim() < 2 or y.dim() < 2 or tau.dim() < 1:
        raise AssertionValueError("paddle.linalg.ormqr: 'x' and 'y' must be at least 2-D and 'tau' at least 1-D, "
                                  f"but received shapes {list(x.shape)}, {list(y.shape)} and {list(tau.shape)}")
    if not x.dtype == tau.dtype == y.dtype:
        raise AssertionError("paddle.linalg.ormqr: 'tau' and 'y' must have the dtype of 'x', but received "
                             f"{str(x.dtype)[6:]}, {str(tau.dtype)[6:]} and {str(y.dtype)[6:]}")
    if x.dim() != tau.dim() + 1 or x.dim() != y.dim():
        raise AssertionError("paddle.linalg.ormqr: 'x' and 'y' must have one more dimension than 'tau', "
                             f"but received x: {list(x.shape)}, tau: {list(tau.shape)}, y: {list(y.shape)}")
    if x.shape[-1] != tau.shape[-1]:
        raise AssertionError(f"paddle.linalg.ormqr: the last dimensions of 'x' ({x.shape[-1]}) and 'tau' "
                             f"({tau.shape[-1]}) must be equal")
    if x.dim() == 3 and not x.shape[0] == y.shape[0] == tau.shape[0]:
        raise AssertionError("paddle.linalg.ormqr: 'x', 'tau' and 'y' must have the same batch size, but "
                             f"received {x.shape[0]}, {tau.shape[0]} and {y.shape[0]}")
    m, n = x.shape[-2], x.shape[-1]
    # Paddle asserts these sizes, then multiplies by the [m, n] matrix Q (or its transpose): from
    # the right (left=False) that product only works for square Q, else its matmul ValueError
    need = (m if transpose else n) if left else (m if transpose else n)
    got, where = (y.shape[-2], "rows") if left else (y.shape[-1], "columns")
    if need != got:
        raise AssertionError(f"paddle.linalg.ormqr: 'y' must have {need} {where} for left={left}, "
                             f"transpose={transpose}, but received shape {list(y.shape)}")
    if not left and m != n:
        raise ValueError(f"paddle.linalg.ormqr: with left=False 'x' must be square, because 'y' "
                         f"({list(y.shape)}) is multiplied from the right by Q of shape [{m}, {n}]"
                         f"{' transposed' if transpose else ''}")
    q = _householder("ormqr", x, tau)
    if transpose:
        q = q.transpose(-1, -2)
    return torch.matmul(q, y) if left else torch.matmul(y, q)


def _lowrank_rank(api: str, x, q, niter, check_empty: bool = True) -> int:
    """``q`` (``min(6, m, n)`` when None) after Paddle's checks, in its order: ``q`` out of range
    is its ValueError (svd_lowrank skips that check for empty ``x``), a negative ``niter`` too,
    then a ``q`` or ``niter`` that is no int its TypeError."""
    m, n = x.shape[-2], x.shape[-1]
    # Paddle takes a one-element integer Tensor for either, as its value
    q, niter = (int(v) if isinstance(v, torch.Tensor) and v.numel() == 1 and not v.is_floating_point()
                and not v.is_complex() else v for v in (q, niter))
    if q is not None and (check_empty or min(m, n) != 0) and not 0 <= q <= min(m, n):
        raise ValueError(f"paddle.linalg.{api}: 'q' must be a non-negative int not greater than "
                         f"min(m, n)={min(m, n)}, but received {q}")
    if niter is None or not niter >= 0:
        raise (TypeError if niter is None else ValueError)(
            f"paddle.linalg.{api}: 'niter' must be a non-negative int, but received {niter}")
    for arg, v in (("q", q), ("niter", niter)):
        if v is not None and (not isinstance(v, numbers.Integral) or isinstance(v, bool)):
            raise TypeError(f"paddle.linalg.{api}: '{arg}' must be an int, but received {type(v).__name__}")
    return min(6, m, n) if q is None else int(q)


def _lowrank_float(api, x):
    """Paddle has only floating and complex kernels for the low-rank decompositions (RuntimeError
    otherwise)."""
    if not (x.is_floating_point() or x.is_complex()):
        raise NoKernelError(f"paddle.linalg.{api}: 'x' must be a floating or complex tensor, but received dtype "
                            f"{str(x.dtype).replace('torch.', '')}")


@defop(amp="black")
def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """Approximate truncated SVD by randomized subspace iteration.

    Args:
        x (Tensor): ``[..., m, n]``, floating or complex.
        q (int, optional): the rank to aim at (default ``min(6, m, n)``).
        niter (int, optional): subspace iterations.
        M (Tensor, optional): mean to subtract from ``x`` first.
        name (str, optional): unused.

    Returns:
        tuple: ``(U [..., m, q], S [..., q], V [..., n, q])`` with
        ``x - M ~= U @ diag(S) @ V^H``.

    Examples:
        >>> import pagaie as paddle
        >>> u, s, v = paddle.linalg.svd_lowrank(paddle.to_tensor([[3.0, 0.0], [0.0, 1.0]]), q=1)
        >>> round(s.item(), 2)
        3.0
    """
    _matrix("svd_lowrank", x)
    q = _lowrank_rank("svd_lowrank", x, q, niter, check_empty=False)
    _lowrank_float("svd_lowrank", x)
    if M is not None and (M.dim() > x.dim() or any(a not in (1, b) for a, b in zip(M.shape[::-1], x.shape[::-1]))):
        raise ValueError(f"paddle.linalg.svd_lowrank: 'M' must broadcast to the shape of 'x' {list(x.shape)}, but "
                         f"received shape {list(M.shape)}")
    return _svd_lowrank(x, q, niter, M)


def _tj(a: torch.Tensor) -> torch.Tensor:
    """The conjugate transpose of the last two axes."""
    a = a.transpose(-2, -1)
    return a.conj() if a.is_complex() else a


def _range_basis(a: torch.Tensor, q: int, niter: int, m: torch.Tensor | None) -> torch.Tensor:
    """An orthonormal basis ``[..., rows, q]`` of the range of ``a - m`` by randomized subspace
    iteration. The random start is ``paddle.randn([cols, q])`` from Paddle's stream, so a
    seeded call gives Paddle's basis."""
    from pagaie._ops.random import _gaussian
    r = _gaussian([a.shape[-1], q], a.dtype, a.device)

    def apply(b: torch.Tensor, mat: torch.Tensor, sub: torch.Tensor | None) -> torch.Tensor:
        return mat @ b if sub is None else mat @ b - sub @ b

    a_h, m_h = _tj(a), (None if m is None else _tj(m))
    basis = torch.linalg.qr(apply(r, a, m))[0]
    for _ in range(niter):
        basis = torch.linalg.qr(apply(basis, a_h, m_h))[0]
        basis = torch.linalg.qr(apply(basis, a, m))[0]
    return basis


def _svd_lowrank(x: torch.Tensor, q: int, niter: int, m: torch.Tensor | None) -> tuple:
    """Halko-Martinsson-Tropp randomized SVD of ``x - m``, the branch taken as Paddle's
    (project the rows when ``x`` is wide or ``q`` is below its column count)."""
    rows, cols = x.shape[-2:]
    if m is not None:
        m = m.broadcast_to(x.shape)
    if rows < cols or cols > q:
        basis = _range_basis(_tj(x), q, niter, None if m is None else _tj(m))
        bc = basis.conj() if basis.is_complex() else basis
        b_t = x @ bc if m is None else x @ bc - m @ bc
        u, s, vh = torch.linalg.svd(b_t, full_matrices=False)
        return u, s, basis @ _tj(vh)
    basis = _range_basis(x, q, niter, m)
    bc = basis.conj() if basis.is_complex() else basis
    x_t = x.transpose(-2, -1)
    b = x_t @ bc if m is None else x_t @ bc - m.transpose(-2, -1) @ bc
    u, s, vh = torch.linalg.svd(b.transpose(-2, -1), full_matrices=False)
    return basis @ u, s, _tj(vh)


@defop(amp="black")
def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """Approximate principal components by a randomized low-rank SVD.

    Args:
        x (Tensor): ``[..., m, n]`` data, one observation per row.
        q (int, optional): the rank to aim at (default ``min(6, m, n)``).
        center (bool, optional): subtract the column means first.
        niter (int, optional): subspace iterations.
        name (str, optional): unused.

    Returns:
        tuple: ``(U, S, V)`` as from :func:`svd_lowrank`; the columns of ``V`` are the
        principal directions.

    Examples:
        >>> import pagaie as paddle
        >>> u, s, v = paddle.linalg.pca_lowrank(paddle.to_tensor([[1.0, 0.0], [-1.0, 0.0]]), q=1)
        >>> round(s.item(), 2)
        1.41
    """
    _matrix("pca_lowrank", x)
    q = _lowrank_rank("pca_lowrank", x, q, niter)
    _lowrank_float("pca_lowrank", x)
    return _svd_lowrank(x - x.mean(-2, keepdim=True) if center else x, q, niter, None)
