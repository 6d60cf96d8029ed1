"""Shape/layout ops beyond the sample table: errors, in-place variants, methods, helpers."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

A = np.arange(24, dtype="float32").reshape(2, 3, 4)


@pytest.mark.parametrize("case", [
    lambda P: P.reshape(P.to_tensor(A), [5, 5]),
    lambda P: P.split(P.to_tensor(A), 2, axis=1),
    lambda P: P.split(P.to_tensor(A), [1, 1], axis=1),
    lambda P: P.chunk(P.to_tensor(A), 3, axis=2),
    lambda P: P.squeeze(P.to_tensor(A), 5),
    lambda P: P.unsqueeze(P.to_tensor(A), 5),
    lambda P: P.flatten(P.to_tensor(A), 2, 1),
    lambda P: P.expand(P.to_tensor(A), [2, 5, 4]),
    lambda P: P.t(P.to_tensor(A)),
    lambda P: P.view(P.to_tensor(A).transpose([2, 1, 0]), [24]),
    lambda P: P.concat([P.ones([2, 3]), P.ones([2, 4])]),
    lambda P: P.stack([P.ones([2, 3]), P.ones([2, 4])]),
    lambda P: P.cast(P.ones([2]), "notadtype"),
    lambda P: P.moveaxis(P.to_tensor(A), [0, 1], [0]),
])
def test_errors(case):
    same_exception(case)


@pytest.mark.parametrize("name,args", [
    ("reshape_", ([6, 4],)),
    ("squeeze_", ()),
    ("unsqueeze_", (0,)),
    ("flatten_", (1, 2)),
    ("transpose_", ([2, 0, 1],)),
    ("cast_", ("float64",)),
])
def test_shape_changing_inplace(name, args):
    def run(P):
        x = P.to_tensor(A if name != "squeeze_" else A.reshape(2, 1, 12))
        r = getattr(P, name)(x, *args)
        return x, r is x

    (x1, same1), (x2, same2) = both(run)
    assert_same(x1, x2)
    assert same1 and same2


def test_t_inplace():
    def run(P):
        x = P.to_tensor(A[0])
        x.t_()
        return x

    assert_same(*both(run))


def test_inplace_on_grad_leaf_raises():
    def run(P):
        x = P.ones([2, 3])
        x.stop_gradient = False
        P.reshape_(x, [3, 2])

    same_exception(run)


def test_tensor_properties_and_methods():
    def run(P):
        x = P.to_tensor(A)
        x.stop_gradient = False
        y = x * 2
        return [x.T, x.mT, P.to_tensor(A[0]).T, x.detach(), x.contiguous(), x.reshape(6, 4),
                x.expand(3, 2, 3, 4), x.permute(2, 0, 1), x.transpose(0, 2), x.repeat(1, 2, 1),
                x.view(4, 6), x.type_as(P.to_tensor([1], dtype="int32")), x.astype("float16"),
                y.detach().stop_gradient, y.detach_().stop_gradient, x.is_same_shape(y),
                x.split_with_sizes([1, 3], dim=2)]

    ours, theirs = both(run)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert_same(a, b, what=f"item {i}")


def test_copy_and_resize():
    def run(P):
        x = P.zeros([2, 3])
        x.copy_(P.ones([3]) * 2)
        w = P.zeros([2, 3])
        w.copy_(P.ones([2, 3]))
        v = P.ones([2, 3])
        v.stop_gradient = False
        c = P.zeros([2, 3])
        c.copy_(v * 3)
        r = P.arange(6).astype("float32")
        r.resize_([3, 3], fill_zero=True)
        return x, w, c, c.stop_gradient, r

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        assert_same(a, b)


def test_helpers():
    def run(P):
        return [P.broadcast_shape([2, 1, 3], [4, 1]), P.broadcast_shapes([3, 1], [1, 4], [4]),
                P.tolist(P.to_tensor(A[0])), P.tolist(P.to_tensor(3))]

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        assert a == b
    pagaie.check_shape([2, 3], "reshape")
    with pytest.raises(TypeError):
        pagaie.check_shape("abc", "reshape")


def test_concat_out_and_dtype_errors():
    def run(P):
        out = P.zeros([4])
        P.concat([P.ones([2]), P.zeros([2])], out=out)
        return out

    assert_same(*both(run))
    for f in ("concat", "stack", "hstack"):
        same_exception(lambda P: getattr(P, f)([P.ones([2], "int32"), P.ones([2], "int64")]))
    same_exception(lambda P: P.zeros([2]).copy_(P.ones([2], "int64")))
    same_exception(lambda P: P.zeros([2]).copy_(np.ones(2, "float32")))


def test_reshape_shares_memory():
    def run(P):
        x = P.to_tensor(A)
        y = x.reshape([24])
        y[0] = 77.0
        return x

    assert_same(*both(run))


def test_split_gradients():
    def run(P):
        x = P.to_tensor(A)
        x.stop_gradient = False
        a, b = P.split(x, [1, -1], axis=2)
        (a.sum() * 2 + (b * b).sum()).backward()
        return x.grad

    assert_same(*both(run))


def test_flip_0d_and_as_strided_offset():
    same_exception(lambda P: P.flip(P.to_tensor(3.0), 0))
    assert_same(*both(lambda P: P.flip(P.to_tensor(3.0), [])))
    assert_same(*both(lambda P: P.as_strided(P.arange(12.0), [3, 2], [4, 1], 4)))
