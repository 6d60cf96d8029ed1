"""Differential tests against real Paddle for the Tensor object's own API (round 27, hK)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


@pytest.mark.parametrize("kwargs", [{}, {"nan": float("inf")}, {"posinf": 9.0, "neginf": -9.0}])
def test_nan_to_num_inplace_version(kwargs):
    data = np.array([np.nan, np.inf, -np.inf, 1.0], "float32")
    got = []
    for mod in (paddle, pagaie):
        x = mod.to_tensor(data)
        r = mod.nan_to_num_(x, **kwargs)
        x.nan_to_num_(**kwargs)
        got.append((r is x, x.inplace_version, x.numpy().tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("kwargs", [
    {"blocking": False}, {"non_blocking": True}, {"blocking": True, "non_blocking": False},
    {"other_kw": True}, {"blocking": "a"}, {"blocking": 1.5}, {"non_blocking": "a"},
])
def test_copy_arguments(kwargs):
    got = []
    for mod in (paddle, pagaie):
        x = mod.zeros([2])
        src = mod.to_tensor([1.0, 2.0])
        kw = dict(kwargs)
        try:
            if kw.pop("other_kw", False):
                x.copy_(other=src, **kw)
            else:
                x.copy_(src, **kw)
            got.append(x.numpy().tolist())
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            got.append(type(e).__name__)
    assert got[0] == got[1]


@pytest.mark.parametrize("kwargs", [{}, {"dtype": "float64"}, {"stop_gradient": False}, {"place": "cpu"}])
def test_to_tensor_from_dense_tensor(kwargs):
    got = []
    for mod in (paddle, pagaie):
        x = mod.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        dense = x.get_tensor()
        y = mod.to_tensor(dense, **kwargs)
        shared = y.data_ptr() == x.data_ptr()
        if y.stop_gradient:
            y[0] = 9.0   # writes through to x where the memory is shared
        got.append((shared, str(y.dtype), y.stop_gradient, y.is_leaf, x.numpy().tolist(), y.numpy().tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("case", ["leaf", "no_grad_leaf", "non_leaf", "accumulate", "dtype", "not_tensor"])
def test_copy_gradient_from(case):
    got = []
    for mod in (paddle, pagaie):
        x = mod.to_tensor([1.0, 2.0], stop_gradient=case == "no_grad_leaf")
        if case == "non_leaf":
            x = x * 2
        y = {"dtype": mod.to_tensor([5, 6]), "not_tensor": np.ones(2)}.get(case, mod.to_tensor([5.0, 6.0]))
        try:
            if case == "accumulate":
                (x * x).sum().backward()
            x._copy_gradient_from(y)
            if case == "accumulate":
                (x * x).sum().backward()
            got.append((x.grad.numpy().tolist(), x._inplace_version()))
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            got.append(type(e).__name__)
    assert got[0] == got[1]


def test_is_initialized_after_clear_data():
    got = []
    for mod in (paddle, pagaie):
        x = mod.ones([2])
        before = x._is_initialized()
        x._clear_data()
        got.append((before, x._is_initialized(), x._is_dense_tensor_hold_allocation()))
    assert got[0] == got[1]


@pytest.mark.parametrize("persistable", [False, True])
def test_copy_to_keeps_name_and_persistable(persistable):
    got = []
    for mod in (paddle, pagaie):
        x = mod.to_tensor([1.0, 2.0], stop_gradient=False)
        x.persistable = persistable
        y = x._copy_to(mod.CPUPlace(), True)
        got.append((y.name == x.name, y.persistable, y.stop_gradient, y.is_leaf,
                    y.data_ptr() == x.data_ptr(), y.numpy().tolist()))
    assert got[0] == got[1]
