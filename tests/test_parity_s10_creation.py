"""Session-10 parity sweep of the creation ops and the Tensor methods of
``pagaie/framework/tensor_methods.py`` against real Paddle 3.3.1 (CPU)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _exact(ours, theirs):
    """Same dtype, shape and bit-identical values (tolerance 0)."""
    assert_same(ours, theirs, rtol=0, atol=0)


# ---- arange / range: Paddle's CPU kernel sizes the range and sums the steps in the dtype ----

@pytest.mark.parametrize("args,kwargs", [
    ((0, 1, 0.1), {}),                       # running sum: 0.7000000476837158, not 0.7
    ((1, 2.2, 0.4), {}),                     # size computed in float32: 3 values, not 4
    ((1, 2.2, 0.4), {"dtype": "float64"}),   # 4 values, 1.7999999999999998 ...
    ((0, 1, 0.001), {}),                     # the drift of 1000 float32 additions
    ((5, -3, -0.7), {"dtype": "float64"}),
    ((0, -5, -2), {"dtype": "int32"}),
    ((2**40, 2**40 + 7, 3), {}),
])
def test_arange_matches_cpu_kernel(args, kwargs):
    ours, theirs = both(lambda p: p.arange(*args, **kwargs))
    _exact(ours, theirs)


@pytest.mark.parametrize("args,kwargs", [
    ((0, 1, 0.1), {}), ((1, 2.2, 0.4), {"dtype": "float64"}), ((4.999,), {}), ((3, 9, 2.0), {}),
])
def test_range_matches_cpu_kernel(args, kwargs):
    ours, theirs = both(lambda p: p.range(*args, **kwargs))
    _exact(ours, theirs)


def test_range_bounds_must_be_one_element_tensors():
    same_exception(lambda p: p.arange(p.to_tensor([5, 6])))
    same_exception(lambda p: p.linspace(p.to_tensor([0.0, 1.0]), 1, 4))
    same_exception(lambda p: p.linspace(0, 1, p.to_tensor([4, 5])))
    ours, theirs = both(lambda p: p.arange(p.to_tensor([5])))
    _exact(ours, theirs)


def test_logspace_base_as_string_and_bad_base():
    ours, theirs = both(lambda p: p.logspace(0, 3, 4, base="2"))
    _exact(ours, theirs)
    with pytest.raises(TypeError, match="paddle.logspace: 'base'"):
        pagaie.logspace(0, 3, 4, base="two")


# ---- eye / tril_indices / triu_indices argument checks ------------------------------------

def test_eye_size_tensor_must_hold_one_value():
    exc = same_exception(lambda p: p.eye(p.to_tensor([2, 3])))
    assert isinstance(exc, AssertionError) and "num_rows" in str(exc)
    ours, theirs = both(lambda p: p.eye(p.to_tensor([2]), p.to_tensor(3)))
    _exact(ours, theirs)


@pytest.mark.parametrize("op", ["tril_indices", "triu_indices"])
def test_tri_indices_argument_types(op):
    ours, theirs = both(lambda p: getattr(p, op)(3, None))      # col defaults to row
    _exact(ours, theirs)
    ours, theirs = both(lambda p: getattr(p, op)(4, 3, np.int64(1)))
    _exact(ours, theirs)
    ours, theirs = both(lambda p: getattr(p, op)(4, 3, p.to_tensor(-1)))
    _exact(ours, theirs)
    for bad in [(True, 3), (np.int32(3), 3), (3, np.int64(3)), (3, 3, 1.5), (3, 3, True)]:
        same_exception(lambda p: getattr(p, op)(*bad))
    same_exception(lambda p: getattr(p, op)(p.to_tensor(3), 3))


# ---- diag_embed takes data, assign's output must be a Tensor, full(None, v) -----------------

@pytest.mark.parametrize("data", [[1.0, 2.0], np.array([1, 2], dtype=np.int32), 3.0,
                                  np.array([[1.0, 2.0]])])
def test_diag_embed_of_data(data):
    ours, theirs = both(lambda p: p.diag_embed(data, offset=1))
    _exact(ours, theirs)


def test_assign_output_must_be_tensor():
    exc = same_exception(lambda p: p.assign(p.to_tensor([1.0]), [1]))
    assert "output" in str(exc)


def test_full_with_shape_none_is_0d():
    ours, theirs = both(lambda p: p.full(None, 3))
    _exact(ours, theirs)
    ours, theirs = both(lambda p: p.full(shape=None, fill_value=True))
    _exact(ours, theirs)


# ---- to_tensor of a memoryview --------------------------------------------------------------

@pytest.mark.parametrize("arr,dtype", [(np.arange(3.0), None), (np.arange(3, dtype=np.int32), None),
                                       (np.arange(3.0), "float64")])
def test_to_tensor_memoryview(arr, dtype):
    for api in ("to_tensor", "asarray"):
        ours, theirs = both(lambda p: getattr(p, api)(memoryview(arr), dtype=dtype))
        _exact(ours, theirs)


# ---- create_tensor: an uninitialised placeholder ---------------------------------------------

def test_create_tensor_is_uninitialised_until_written():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        t = fw.tensor.create_tensor("float32")
        assert repr(t) == str(t) == "Tensor(Not initialized)"
        assert t._is_initialized() is False
        assert t.tolist() == [] and t.numpy().shape == (0,) and t.numpy().dtype == np.float32
        assert t.name.startswith("create_tensor_") and t.shape == [] and t.dtype == fw.float32
        assert fw.Tensor.create_tensor("int64", name="b").name == "b"
        out = fw.assign(fw.to_tensor([1, 2]), t)
        assert out is t and t._is_initialized() and t.tolist() == [1, 2]
        assert str(t).startswith("Tensor(shape=[2], dtype=int64")
        assert fw.ones([2])._is_initialized() is True


# ---- tensor_methods.py: set_, holders, _is_shared_buffer_with ------------------------------

def test_set_argument_types():
    same_exception(lambda p: p.to_tensor([1.0, 2.0]).set_(p.arange(6, dtype="float32"),
                                                         p.to_tensor([2, 3])))
    same_exception(lambda p: p.to_tensor([1.0, 2.0]).set_(p.arange(6, dtype="float32"), [2],
                                                         offset=4.0))
    ours, theirs = both(lambda p: p.to_tensor([1.0, 2.0]).set_(p.arange(6, dtype="float32"),
                                                              (2, 2), offset=np.int64(4)))
    _exact(ours, theirs)


def test_string_holder_attributes():
    def run(p):
        x = p.to_tensor([1.0], stop_gradient=False)
        x.set_string_list(["a", "b"])
        r = [x.size, x.ndim, x.dim(), list(x.shape), x.stop_gradient]
        x.stop_gradient = True
        return r + [x.stop_gradient]
    ours, theirs = both(run)
    assert ours == theirs == [2, 1, 1, [2], False, True]


def test_vocab_bool_value_is_an_int():
    def run(p):
        x = p.to_tensor([1.0])
        x.set_vocab({"a": True, "b": 3})
        return x.get_map_tensor()
    ours, theirs = both(run)
    assert ours == theirs == {"a": 1, "b": 3}
    assert type(ours["a"]) is int


def test_is_shared_buffer_with_non_tensor_is_false():
    ours, theirs = both(lambda p: [p.to_tensor([1.0])._is_shared_buffer_with(o)
                                   for o in (np.array([1.0]), None)])
    assert ours == theirs == [False, False]
