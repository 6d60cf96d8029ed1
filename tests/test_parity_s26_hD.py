"""Parity with Paddle 3.3.1 for sparse tensors given to dense APIs, and the paddle.sparse sweep."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _sparse(fw, fmt):
    i = fw.to_tensor([[0, 1, 1], [1, 0, 2]])
    v = fw.to_tensor([1.0, -2.0, 3.0])
    x = fw.sparse.sparse_coo_tensor(i, v, [2, 3])
    return x.to_sparse_csr() if fmt == "csr" else x


# Dense ops Paddle has no sparse kernel for: Paddle raises at once (its NotImplementedError,
# or an OSError where it reads a sparse tensor's dims as a dense one's), never a sparse result.
_DENSE_ON_SPARSE = {
    "add": lambda fw, x: x + x, "sub": lambda fw, x: x - x, "mul": lambda fw, x: x * x,
    "div": lambda fw, x: x / x, "neg": lambda fw, x: -x, "abs": lambda fw, x: abs(x),
    "pow": lambda fw, x: x ** 2, "add_number": lambda fw, x: x + 1, "rmul": lambda fw, x: 2 * x,
    "div_number": lambda fw, x: x / 2, "floordiv": lambda fw, x: x // 2,
    "sum": lambda fw, x: x.sum(), "sum_axis": lambda fw, x: x.sum(axis=1),
    "abs_method": lambda fw, x: x.abs(), "sin": lambda fw, x: x.sin(), "sqrt": lambda fw, x: x.sqrt(),
    "tanh": lambda fw, x: fw.tanh(x), "relu": lambda fw, x: fw.nn.functional.relu(x),
    "square": lambda fw, x: x.square(), "T": lambda fw, x: x.T, "t": lambda fw, x: x.t(),
    "transpose": lambda fw, x: x.transpose([1, 0]), "reshape": lambda fw, x: x.reshape([3, 2]),
    "cast": lambda fw, x: x.astype("float64"), "clone": lambda fw, x: x.clone(),
    "isnan": lambda fw, x: x.isnan(), "round": lambda fw, x: fw.round(x),
    "numel": lambda fw, x: fw.numel(x), "zeros_like": lambda fw, x: fw.zeros_like(x),
    "ones_like": lambda fw, x: fw.ones_like(x), "add_": lambda fw, x: x.add_(x),
    "zero_": lambda fw, x: x.zero_(), "getitem": lambda fw, x: x[0],
}


@pytest.mark.parametrize("fmt", ["coo", "csr"])
@pytest.mark.parametrize("case", sorted(_DENSE_ON_SPARSE))
def test_dense_op_on_sparse_raises(case, fmt):
    call = _DENSE_ON_SPARSE[case]
    with pytest.raises((NotImplementedError, OSError)):
        call(paddle, _sparse(paddle, fmt))
    with pytest.raises(NotImplementedError) as info:
        call(pagaie, _sparse(pagaie, fmt))
    msg = str(info.value)
    assert msg.startswith("paddle.") and "sparse" in msg and "torch" not in msg


@pytest.mark.parametrize("fmt", ["coo", "csr"])
@pytest.mark.parametrize("case", ["detach", "positive", "empty_like", "rank"])
def test_dense_ops_paddle_runs_on_sparse(case, fmt):
    calls = {"detach": lambda fw, x: x.detach(), "positive": lambda fw, x: +x,
             "empty_like": lambda fw, x: fw.empty_like(x), "rank": lambda fw, x: fw.rank(x)}
    theirs = calls[case](paddle, _sparse(paddle, fmt))
    ours = calls[case](pagaie, _sparse(pagaie, fmt))
    assert ours.is_sparse_coo() == theirs.is_sparse_coo()
    assert ours.is_sparse_csr() == theirs.is_sparse_csr()
    assert list(ours.shape) == list(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    if ours.is_sparse():
        np.testing.assert_allclose(ours.to_dense().numpy(), theirs.to_dense().numpy())


def test_dense_ops_still_run_on_dense():
    x = pagaie.to_tensor([[1.0, -2.0], [3.0, 4.0]])
    np.testing.assert_allclose((x + x).numpy(), [[2.0, -4.0], [6.0, 8.0]])
    np.testing.assert_allclose(x.t().numpy(), [[1.0, 3.0], [-2.0, 4.0]])
    assert pagaie.sum(x).item() == 6.0 and pagaie.numel(x).item() == 4
    assert pagaie.positive(x) is not None and x.detach().shape == [2, 2]


def test_coo_indices_rank_checked_before_dtype():
    # an empty list is a 1-D float tensor: Paddle's rank check speaks first (ValueError)
    with pytest.raises(ValueError):
        paddle.sparse.sparse_coo_tensor([], [], [3])
    with pytest.raises(ValueError, match="2-D"):
        pagaie.sparse.sparse_coo_tensor([], [], [3])
    for fw in (paddle, pagaie):   # a 2-D float one is the dtype's TypeError in both
        with pytest.raises(TypeError):
            fw.sparse.sparse_coo_tensor([[]], [], [3])


# Paddle writes or reads out of bounds for these (memory corruption, a hang): refused here.
@pytest.mark.parametrize("make", [
    lambda S: S.sparse_coo_tensor([[0, -1], [1, 2]], [1.0, 2.0], [3, 3]),
    lambda S: S.sparse_csr_tensor([0, 1, 2], [1, 5], [1.0, 2.0], [2, 2]),
    lambda S: S.sparse_csr_tensor([0, 1, 2], [1, -1], [1.0, 2.0], [2, 2]),
])
def test_out_of_range_indices_refused(make):
    with pytest.raises(ValueError, match="paddle.sparse"):
        make(pagaie.sparse)


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_sparse_is_contiguous_and_contiguous(fmt):
    theirs, ours = _sparse(paddle, fmt), _sparse(pagaie, fmt)
    assert ours.is_contiguous() == theirs.is_contiguous()
    assert ours.contiguous() is ours and theirs.contiguous().is_sparse()
