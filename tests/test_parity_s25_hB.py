"""Differential tests against real Paddle: slicing APIs and Tensor indexing details."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _x(m):
    return m.to_tensor(np.arange(18, dtype="float32").reshape(3, 6))


def _same(call):
    want, got = call(paddle), call(pagaie)
    assert list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def _same_error(call):
    with pytest.raises(Exception) as want:
        call(paddle)
    with pytest.raises(type(want.value)):
        call(pagaie)


@pytest.mark.parametrize("call", [
    lambda m: m.slice(_x(m), axes=[1, 1], starts=[1, 0], ends=[5, 2]),
    lambda m: m.slice(_x(m), axes=[1, 1, 0], starts=[1, 1, 1], ends=[5, 3, 3]),
    lambda m: m.slice(_x(m), axes=[1, -1], starts=[1, 1], ends=[5, 3]),
    lambda m: m.strided_slice(_x(m), axes=[1, 1], starts=[1, 0], ends=[5, 2], strides=[1, 1]),
    lambda m: m.strided_slice(_x(m), axes=[1, 1], starts=[5, 0], ends=[0, 2], strides=[-1, 1]),
    lambda m: m.slice_scatter(_x(m), m.ones([3, 2]), [1, 1], [1, 0], [5, 2], [1, 1]),
], ids=["slice", "slice3", "slice_neg_axis", "strided", "strided_neg", "slice_scatter_last_wins"])
def test_repeated_axes(call):
    _same(call)


@pytest.mark.parametrize("call", [
    lambda m: m.slice(_x(m), axes=[0, 1], starts=np.array([1, 1]), ends=np.array([3, 3])),
    lambda m: m.slice(_x(m), axes=[1], starts=np.array([1], dtype="int32"), ends=np.array([3])),
    lambda m: m.strided_slice(_x(m), axes=np.array([1]), starts=np.array([1], dtype="int16"),
                              ends=np.array([5]), strides=np.array([2])),
    lambda m: m.strided_slice(_x(m), axes=[1], starts=m.to_tensor(1), ends=m.to_tensor(3),
                              strides=m.to_tensor(1)),
    lambda m: m.slice_scatter(_x(m), m.ones([3, 2]), [1], np.array([1]), np.array([5]), np.array([2])),
], ids=["slice_np", "slice_np_int32", "strided_np", "strided_0d_tensors", "slice_scatter_np"])
def test_numpy_and_tensor_bounds(call):
    _same(call)


@pytest.mark.parametrize("call", [
    lambda m: m.slice(_x(m), axes=[1], starts=np.array(1), ends=np.array(3)),
    lambda m: m.slice(_x(m), axes=[1], starts=m.to_tensor(1), ends=m.to_tensor(3)),
    lambda m: m.slice(_x(m), axes=[1], starts=[np.float32(1.0)], ends=[3]),
    lambda m: m.slice(_x(m), axes=[1], starts=np.array([1.0]), ends=[3]),
    lambda m: m.strided_slice(_x(m), [1], np.array([1], dtype="uint8"), [3], [1]),
], ids=["np_0d", "tensor_0d", "np_float_item", "np_float_array", "np_uint8"])
def test_bad_bounds(call):
    _same_error(call)


def test_repeated_axes_grad():
    def run(m):
        x = _x(m)
        x.stop_gradient = False
        y = m.slice(x, [1, 1], [1, 1], [5, 3])
        (y * y).sum().backward()
        return x.grad
    np.testing.assert_array_equal(run(pagaie).numpy(), run(paddle).numpy())


@pytest.mark.parametrize("write", [
    lambda x: x.__setitem__(slice(1, None), x[:-1]),
    lambda x: x.__setitem__(slice(None, None, -1), x),
    lambda x: x.reshape([2, 3]).__setitem__((slice(None), slice(1, None)), x.reshape([2, 3])[:, :2]),
], ids=["shift", "reverse", "2d_shift"])
def test_setitem_value_overlapping_x(write):
    def run(m):
        x = m.arange(6, dtype="float32")
        write(x)
        return x
    np.testing.assert_array_equal(run(pagaie).numpy(), run(paddle).numpy())


@pytest.mark.parametrize("index, shape", [
    (lambda m: slice(None), [2, 4]), (lambda m: 0, [3]), (lambda m: 0, [2, 4]),
    (lambda m: slice(None, None, -1), [2, 4]), (lambda m: m.to_tensor([0, 1]), [3, 4]),
    (lambda m: m.to_tensor([True, False, True]), [3, 4]),
], ids=["slice", "int", "int_rank", "neg_step", "advanced", "mask"])
def test_setitem_value_shape_error(index, shape):
    def run(m):
        x = m.zeros([3, 4])
        x[index(m)] = m.ones(shape)
    with pytest.raises(ValueError):
        run(paddle)
    with pytest.raises(ValueError, match=r"__setitem__: the value of shape .* cannot be broadcast"):
        run(pagaie)


@pytest.mark.parametrize("bound", [1.0, "a", np.float32(1)], ids=["float", "str", "np_float32"])
def test_slice_bound_type_error(bound):
    with pytest.raises(ValueError):
        paddle.arange(6)[bound:4]
    with pytest.raises(ValueError, match="slice bounds must be int"):
        pagaie.arange(6)[bound:4]
