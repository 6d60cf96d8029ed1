"""Tensor attributes, conversions and printing against real Paddle."""
import copy
import pickle

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

REPR_CASES = [
    ("float32_vec", lambda pd: pd.to_tensor([1.0, 2.5, -3.0])),
    ("float64_mat", lambda pd: pd.to_tensor([[1.0, 2.0], [3.0, 4.5]], dtype="float64")),
    ("int64_neg", lambda pd: pd.to_tensor([[-1, 20], [3, -400]])),
    ("int32", lambda pd: pd.to_tensor([1, 2, 3], dtype="int32")),
    ("bool", lambda pd: pd.to_tensor([[True, False], [False, True]])),
    ("zero_d_float", lambda pd: pd.to_tensor(3.5)),
    ("zero_d_int", lambda pd: pd.to_tensor(-7)),
    ("three_d", lambda pd: pd.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))),
    ("large_summarised", lambda pd: pd.to_tensor(np.arange(2000, dtype="float32"))),
    ("large_2d_summarised", lambda pd: pd.to_tensor(np.arange(40000, dtype="int64").reshape(200, 200))),
    ("empty", lambda pd: pd.to_tensor(np.zeros((0, 3), dtype="float32"))),
    ("stop_gradient_false", lambda pd: pd.to_tensor([0.1, 0.2], stop_gradient=False)),
    ("small_floats", lambda pd: pd.to_tensor([1e-8, 1.0, 123456.0])),
    ("float16", lambda pd: pd.to_tensor([1.5, 2.25], dtype="float16")),
    ("bfloat16", lambda pd: pd.to_tensor([1.5, 2.25], dtype="bfloat16")),
    ("uint8", lambda pd: pd.to_tensor([0, 255], dtype="uint8")),
    ("complex64", lambda pd: pd.to_tensor([1 + 2j, -3j], dtype="complex64")),
]


@pytest.mark.parametrize("name,make", REPR_CASES, ids=[c[0] for c in REPR_CASES])
def test_repr_matches_paddle(name, make):
    ours, theirs = both(make)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


def test_parameter_repr():
    def f(pd):
        p = pd.create_parameter([2, 2], "float32",
                                default_initializer=pd.nn.initializer.Constant(0.5))
        return repr(p).replace(p.name, "NAME")
    if not hasattr(pagaie, "create_parameter"):
        pytest.skip("create_parameter not declared yet")
    ours, theirs = both(f)
    assert ours == theirs


def test_core_attributes():
    def f(pd):
        x = pd.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        y = pd.to_tensor([1, 2], stop_gradient=False)
        return [list(x.shape), str(x.dtype), str(x.place), x.stop_gradient, x.persistable,
                x.ndim, x.dim(), x.size, x.is_leaf, x.element_size(), x.itemsize,
                x.is_contiguous(), x.stride(), x.strides, x.stride(0), x.get_device(),
                str(x.device), x.is_cuda, x.inplace_version, x.requires_grad,
                x.is_floating_point(), x.is_complex(), x.is_integer(),
                x.is_tensor(), pd.is_tensor(x), pd.is_tensor([1.0]),
                pd.is_floating_point(x), pd.is_integer(y), pd.is_complex(x)]
    ours, theirs = both(f)
    assert ours == theirs


def test_name_is_unique_and_settable():
    x, y = pagaie.to_tensor([1.0]), pagaie.to_tensor([1.0])
    assert x.name != y.name
    x.name = "my_tensor"
    assert x.name == "my_tensor"


def test_numpy_item_tolist():
    def f(pd):
        x = pd.to_tensor([[1, 2], [3, 4]], dtype="int32")
        b = pd.to_tensor([1.5, 2.0], dtype="bfloat16")
        return [x.numpy(), x.item(3), x.item(1, 0), x.tolist(), pd.to_tensor(2.5).item(),
                b.numpy(), np.asarray(pd.to_tensor([1.0, 2.0])),
                np.array(pd.to_tensor([1.0, 2.0]), dtype="float64")]
    ours, theirs = both(f)
    for a, b in zip(ours, theirs):
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
        else:
            assert a == b


@pytest.mark.parametrize("case", ["item_many", "len_0d", "bool_many", "int_many", "float_empty",
                                  "float_1d", "index_1d",
                                  "to_int_device", "stride_out_of_range", "apply_needs_grad"])
def test_protocol_errors(case):
    def bad(pd):
        x = pd.to_tensor([1.0, 2.0])
        if case == "item_many":
            x.item()
        elif case == "len_0d":
            len(pd.to_tensor(1.0))
        elif case == "bool_many":
            bool(x)
        elif case == "int_many":
            int(x)
        elif case == "float_empty":
            float(pd.to_tensor(np.zeros([0], dtype="float32")))
        elif case == "float_1d":
            float(pd.to_tensor([2.5]))
        elif case == "index_1d":
            [1, 2][pd.to_tensor([1])]
        elif case == "to_int_device":
            x.to(3)
        elif case == "stride_out_of_range":
            x.stride(5)
        else:
            pd.to_tensor([1.0], stop_gradient=False).apply(lambda t: t * 2)
    same_exception(bad)


def test_casts_and_conversions():
    def f(pd):
        x = pd.to_tensor([1.7, -2.2, 0.0])
        return [str(getattr(x, m)().dtype) for m in
                ("byte", "char", "short", "int", "long", "half", "bfloat16", "float", "double", "bool")] \
            + [x.int().numpy(), x.to("float64"), x.to("cpu", "int32"), x.to(dtype="float16"),
               x.cpu(), x.apply(lambda t: t * 2.0), int(pd.to_tensor(3)), float(pd.to_tensor(2.5)),
               [1, 2, 3][pd.to_tensor(1)], bool(pd.to_tensor([0]))]
    ours, theirs = both(f)
    assert ours[:10] == theirs[:10]
    assert_same(ours[10:16], theirs[10:16])
    assert ours[16:] == theirs[16:]


def test_apply_inplace():
    def f(pd):
        x = pd.to_tensor([1.0, 2.0])
        r = x.apply_(lambda t: t * 3.0)
        return x, r is x
    ours, theirs = both(f)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


def test_requires_grad_and_stop_gradient():
    def f(pd):
        x = pd.to_tensor([1.0, 2.0])
        a = x.requires_grad_().stop_gradient
        x.requires_grad = False
        b = x.stop_gradient
        i = pd.to_tensor([1, 2])
        i.stop_gradient = False
        return [a, b, i.stop_gradient, i.requires_grad_(False).stop_gradient]
    ours, theirs = both(f)
    assert ours == theirs


def test_grad_helpers():
    def f(pd):
        x = pd.to_tensor([1.0, 2.0], stop_gradient=False)
        before = [x.gradient(), x.grad_, x.grad]
        y = x * x
        fn_leaf = x.grad_fn.name()
        y.sum().backward()
        return [before, x.gradient(), x.grad_, fn_leaf, y.is_leaf, x.is_leaf]
    ours, theirs = both(f)
    assert ours[0] == theirs[0] == [None, None, None]
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert_same(ours[2], theirs[2])
    assert ours[3:] == theirs[3:]


@pytest.mark.parametrize("method", ["data", "detach", "clone"])
def test_clone_detach_data(method):
    if method != "data" and not hasattr(pagaie.Tensor, method):
        pytest.skip(f"Tensor.{method} not declared yet")

    def f(pd):
        x = pd.to_tensor([1.0, 2.0], stop_gradient=False)
        r = x.data if method == "data" else getattr(x, method)()
        return r, r.stop_gradient
    assert_same(*both(f))


def test_dlpack_round_trip():
    if not hasattr(pagaie, "from_dlpack"):
        pytest.skip("from_dlpack not declared yet")
    x = pagaie.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y = pagaie.from_dlpack(x)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    ref = paddle_ref()
    z = ref.utils.dlpack.from_dlpack(x.__dlpack__()) if hasattr(ref.utils, "dlpack") else None
    if z is not None:
        np.testing.assert_array_equal(z.numpy(), x.numpy())


def test_deepcopy_and_pickle_keep_values():
    x = pagaie.to_tensor([1.0, 2.0], stop_gradient=False)
    c = copy.deepcopy(x)
    assert c is not x and c.stop_gradient is False
    np.testing.assert_array_equal(c.numpy(), x.numpy())
    p = pickle.loads(pickle.dumps(x))
    np.testing.assert_array_equal(p.numpy(), x.numpy())
    assert p.dtype == x.dtype


def test_is_empty_and_constants():
    def f(pd):
        return [pd.is_empty(pd.zeros([0, 2])), pd.is_empty(pd.ones([1])), pd.e, pd.pi,
                pd.inf, pd.newaxis]
    ours, theirs = both(f)
    assert_same(ours[:2], theirs[:2])
    assert ours[2:] == theirs[2:]
    assert np.isnan(pagaie.nan)
    same_exception(lambda pd: pd.is_empty(1))
    same_exception(lambda pd: pd.is_floating_point([1.0]))
