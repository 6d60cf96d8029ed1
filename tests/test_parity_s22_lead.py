"""Session-22 lead: behaviours found by side-by-side snippets run with pagaie and real
Paddle 3.3.1 (sparse tensors, ...)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_same

pytest.importorskip("paddle")


@pytest.mark.parametrize("indices,values,shape", [
    ([[0, 0, 0, 1], [1, 1, 1, 2]], [5.0, 1.0, 2.0, 3.0], [2, 3]),   # sorted, three duplicates
    ([[1, 0, 0], [2, 1, 1]], [3.0, 1.0, 2.0], [2, 3]),              # unsorted
    ([[2, 2, 0]], [1.0, 4.0, 7.0], [3]),
    ([[0, 0]], [[1.0, 2.0], [3.0, 4.0]], [2, 2]),                   # hybrid: dense rows
])
def test_uncoalesced_coo_to_dense_keeps_the_last_duplicate(indices, values, shape):
    """Paddle's ``to_dense`` writes the entries in order, so of duplicate indices the last
    value stands (coalescing sums them)."""
    def run(P):
        x = P.sparse.sparse_coo_tensor(indices, values, shape)
        return [x.to_dense(), P.sparse.coalesce(x).to_dense()]
    both_same(run)


@pytest.mark.parametrize("padding_idx", [1, -1])
def test_sparse_embedding_padding_row_still_gets_its_gradient(padding_idx):
    """With ``sparse=True`` Paddle's gradient has a row per id, the padding id's too: the
    padding row outputs zeros but an optimizer step moves it (dense gradients mask it)."""
    def run(P):
        P.seed(2)
        emb = P.nn.Embedding(5, 3, padding_idx=padding_idx, sparse=True)
        opt = P.optimizer.SGD(0.1, parameters=emb.parameters())
        out = emb(P.to_tensor([[0, 1, 4, 4]]))
        (out * P.arange(1, 4, dtype="float32")).sum().backward()
        opt.step()
        return [out, emb.weight]
    both_same(run)


def test_dense_embedding_padding_row_gets_no_gradient():
    def run(P):
        w = P.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
        out = P.nn.functional.embedding(P.to_tensor([0, 1, 1, 2]), w, padding_idx=1)
        out.sum().backward()
        return [out, w.grad]
    both_same(run)


def _rosenbrock(x):
    return 100 * (x[1] - x[0] ** 2) ** 2 + (1 - x[0]) ** 2


@pytest.mark.parametrize("case", ["quadratic", "rosenbrock", "h0"])
def test_minimize_bfgs_follows_paddles_inverse_hessian_update(case):
    """Paddle's BFGS update multiplies by ``I - rho y s^T`` on the left (the textbook's
    transpose): its iterates, function-call count and returned inverse Hessian follow."""
    def run(P):
        opt = P.incubate.optimizer.functional.minimize_bfgs
        if case == "quadratic":
            w = P.to_tensor([1.0, 2.0])
            return opt(lambda x: P.sum((x - 1.5) ** 2 * w), P.to_tensor([0.0, 0.0]))
        if case == "rosenbrock":
            return opt(_rosenbrock, P.to_tensor([-1.2, 1.0], dtype="float64"), dtype="float64")
        return opt(lambda x: P.sum(x ** 4 + x ** 2), P.to_tensor([1.0, -2.0]), max_iters=4,
                   initial_inverse_hessian_estimate=P.to_tensor([[2.0, 0.0], [0.0, 1.0]]))
    both_same(run, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op", ["deg2rad", "rad2deg"])
@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32", "int64"])
def test_deg2rad_rad2deg_integer_kernels(op, dt):
    """Paddle casts int32/int64 to float32; its int8/int16/uint8 kernels multiply by the
    factor truncated to an integer (wrapping) and its bool kernel keeps the values."""
    both_same(lambda P: getattr(P, op)(P.to_tensor([0, 1, 3, 100, 200]).astype(dt)))


@pytest.mark.parametrize("shape,dim,iters", [([3, 4], 0, 3), ([2, 3, 2], 1, 1), ([4, 2, 3], 0, 2)])
def test_spectral_norm_gradient_is_paddles_kernel(shape, dim, iters):
    """Paddle's spectral_norm gradient is ``g * (1 - u v^T * sum(W / sigma)) / sigma``
    element-wise, not the derivative of ``W / sigma``: nn.SpectralNorm follows it."""
    w0 = np.random.RandomState(0).rand(*shape).astype("float32")
    g0 = np.random.RandomState(1).rand(*shape).astype("float32")

    def run(P):
        P.seed(0)
        sn = P.nn.SpectralNorm(shape, dim=dim, power_iters=iters)
        w = P.to_tensor(w0, stop_gradient=False)
        out = sn(w)
        (out * P.to_tensor(g0)).sum().backward()
        return [out, w.grad]
    both_same(run)


def test_static_spectral_norm_is_the_op():
    """static.nn.spectral_norm runs the spectral_norm op: the same output and gradient as
    Paddle's from the same u and v."""
    from tests.reference import both_static
    w0 = np.random.RandomState(0).rand(3, 4).astype("float32")

    def run(P):
        main, start = P.static.Program(), P.static.Program()
        with P.static.program_guard(main, start):
            w = P.static.data("w", [3, 4], "float32")
            w.stop_gradient = False
            out = P.static.nn.spectral_norm(w, dim=0, power_iters=2)
            loss = (out * P.arange(12, dtype="float32").reshape([3, 4])).sum()
            grads = P.static.gradients([loss], [w])
        exe = P.static.Executor(P.CPUPlace())
        exe.run(start)
        for k, var in enumerate(sorted((v for v in main.list_vars() if v.persistable),
                                       key=lambda v: v.shape[0])):
            t = P.static.global_scope().find_var(var.name).get_tensor()
            t.set(np.random.RandomState(k).rand(*var.shape).astype("float32"), P.CPUPlace())
        return exe.run(main, feed={"w": w0}, fetch_list=[out] + grads)
    ours, theirs = both_static(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("axis,keepdim", [(1, False), (None, False), ([0, 2], True), (-1, True)])
def test_prod_gradient_is_grad_times_out_over_x(axis, keepdim):
    """Paddle's prod gradient is ``grad * out / x``: NaN where a zero input zeroes the
    product, the usual values elsewhere."""
    data = np.random.RandomState(0).rand(2, 3, 4).astype("float32") + 0.5
    data[0, 1, 2] = 0.0

    def run(P):
        x = P.to_tensor(data, stop_gradient=False)
        y = P.prod(x, axis, keepdim=keepdim)
        (y * 2.0).sum().backward()
        return [y, x.grad]
    both_same(run)


@pytest.mark.parametrize("shape,fmt", [([2, 4, 3], "NCL"), ([2, 4, 3, 2], "NCHW"), ([2, 3, 2, 4], "NHWC")])
@pytest.mark.parametrize("with_bias", [False, True])
def test_group_norm_without_scale_has_paddles_gradient(shape, fmt, with_bias):
    """Without a weight, Paddle's CPU group_norm gradient leaves out the mean of the output
    gradient (``dx = (dy - mean(dy * xhat) * xhat) / std``); with a weight it is exact."""
    data = np.random.RandomState(0).rand(*shape).astype("float32")
    c = shape[-1] if fmt == "NHWC" else shape[1]

    def run(P):
        x = P.to_tensor(data, stop_gradient=False)
        b = P.to_tensor(np.linspace(-1, 1, c).astype("float32"), stop_gradient=False) if with_bias else None
        y = P.nn.functional.group_norm(x, 2, bias=b, data_format=fmt)
        (y * P.arange(int(np.prod(shape)), dtype="float32").reshape(shape)).sum().backward()
        return [y, x.grad] + ([b.grad] if with_bias else [])
    both_same(run, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("norm", ["batch_train", "batch_eval", "instance"])
@pytest.mark.parametrize("given", ["weight", "bias"])
def test_norm_scale_or_shift_alone_gets_no_gradient(norm, given):
    """Paddle's batch_norm and instance_norm kernels give the scale and shift gradients only
    when both are passed: alone, either stays without a gradient."""
    data = np.random.RandomState(0).rand(4, 3, 2).astype("float32")

    def run(P):
        x = P.to_tensor(data, stop_gradient=False)
        p = P.to_tensor([1.0, 2.0, 0.5], stop_gradient=False)
        kw = {given: p}
        F = P.nn.functional
        if norm == "instance":
            y = F.instance_norm(x, **kw)
        else:
            y = F.batch_norm(x, P.zeros([3]) + 0.5, P.ones([3]) * 2, training=norm == "batch_train", **kw)
        (y * P.arange(24, dtype="float32").reshape([4, 3, 2])).sum().backward()
        return [y, x.grad, p.grad]
    both_same(run, rtol=1e-4, atol=1e-4)


def test_batch_norm_layer_without_bias_leaves_its_weight_untrained():
    def run(P):
        P.seed(0)
        bn = P.nn.BatchNorm1D(3, bias_attr=False)
        opt = P.optimizer.SGD(0.1, parameters=bn.parameters())
        x = P.to_tensor(np.random.RandomState(0).rand(4, 3).astype("float32"))
        (bn(x) * P.arange(12, dtype="float32").reshape([4, 3])).sum().backward()
        opt.step()
        return [bn.weight, bn.weight.grad]
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] is None and theirs[1] is None


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_of_infinities(dt, approximate):
    """gelu(inf) is inf and gelu(-inf) NaN (``-inf * 0``), in every dtype and form."""
    vals = [float("inf"), -float("inf"), 1e30, -1e30, 0.0, 1.5] * 3
    both_same(lambda P: P.nn.functional.gelu(P.to_tensor(vals, dtype=dt), approximate=approximate))
