"""Creation ops beyond the value table: dtype inference, keywords, in-place fills,
legacy constructors, DLPack and errors, each checked against real Paddle."""
import numpy as np
import pytest

import pagaie as paddle
from tests.reference import assert_same, both, same_exception


def _meta(t):
    return list(t.shape), str(t.dtype), t.stop_gradient


# ---- to_tensor dtype inference ------------------------------------------------------------------

TO_TENSOR = {
    "int": lambda p: p.to_tensor(1),
    "float": lambda p: p.to_tensor(1.5),
    "bool": lambda p: p.to_tensor(True),
    "complex": lambda p: p.to_tensor(1 + 2j),
    "mixed_list": lambda p: p.to_tensor([1, 2.5]),
    "bool_int_list": lambda p: p.to_tensor([True, 2]),
    "np_f64_scalar": lambda p: p.to_tensor(np.float64(1.5)),
    "np_i32_scalar": lambda p: p.to_tensor(np.int32(3)),
    "np_f64_array": lambda p: p.to_tensor(np.array([1.5])),
    "np_f16_array": lambda p: p.to_tensor(np.array([1.5], dtype=np.float16)),
    "np_u8_array": lambda p: p.to_tensor(np.array([1, 2], dtype=np.uint8)),
    "list_np_f64": lambda p: p.to_tensor([np.float64(1.5)]),
    "list_np_i32": lambda p: p.to_tensor([np.int32(1)]),
    "empty": lambda p: p.to_tensor([]),
    "empty_2d": lambda p: p.to_tensor([[]]),
    "tuple": lambda p: p.to_tensor((1, 2)),
    "tensors": lambda p: p.to_tensor([p.to_tensor(1.0), p.to_tensor(2.0)]),
    "tensor_rows": lambda p: p.to_tensor([p.to_tensor([1]), p.to_tensor([2])]),
    "tensor_int32_and_int": lambda p: p.to_tensor([p.to_tensor(1, dtype="int32"), 2]),
    "tensor_f64_and_float": lambda p: p.to_tensor([p.to_tensor(1.0, dtype="float64"), 2.0]),
    "tensor": lambda p: p.to_tensor(p.to_tensor([1.0], dtype="float64")),
    "tensor_cast": lambda p: p.to_tensor(p.to_tensor([1.5]), dtype="int32"),
    "dtype_grad": lambda p: p.to_tensor([1, 2], dtype="float64", stop_gradient=False),
    "float16": lambda p: p.to_tensor([[1, 2], [3, 4]], dtype=p.float16),
    "np_dtype_arg": lambda p: p.to_tensor(np.array([1.5]), dtype=np.float16),
    "bfloat16": lambda p: p.to_tensor(3, dtype="bfloat16"),
    "float_to_int": lambda p: p.to_tensor([1.7, -1.7], dtype="int64"),
    "big_int": lambda p: p.to_tensor([2 ** 40]),
    "place": lambda p: p.to_tensor([1, 2], place="cpu"),
    "place_obj": lambda p: p.to_tensor([1, 2], place=p.CPUPlace()),
}


@pytest.mark.parametrize("case", sorted(TO_TENSOR))
def test_to_tensor_like_paddle(case):
    ours, theirs = both(TO_TENSOR[case])
    assert _meta(ours) == _meta(theirs)
    assert_same(ours, theirs)


def test_to_tensor_default_dtype_float64():
    paddle.set_default_dtype("float64")
    try:
        assert paddle.to_tensor(1.5).dtype == paddle.float64
        assert paddle.to_tensor([1.0, 2]).dtype == paddle.float64
        assert paddle.to_tensor(1 + 1j).dtype == paddle.complex128
        assert paddle.zeros([1]).dtype == paddle.float64
        assert paddle.full([1], 2).dtype == paddle.float64
        assert paddle.arange(0.0, 1.0).dtype == paddle.float64
        assert paddle.linspace(0, 1, 2).dtype == paddle.float64
        assert paddle.to_tensor(np.array([1.0], dtype=np.float32)).dtype == paddle.float32
    finally:
        paddle.set_default_dtype("float32")


def test_to_tensor_copies():
    a = np.arange(3.0)
    t = paddle.to_tensor(a)
    a[0] = 9
    assert t.tolist() == [0.0, 1.0, 2.0]
    src = paddle.to_tensor([1.0, 2.0])
    t2 = paddle.to_tensor(src)
    t2.zero_()
    assert src.tolist() == [1.0, 2.0]
    f = paddle.from_numpy(a)
    a[1] = 7
    assert f.tolist() == [9.0, 1.0, 2.0]


def test_to_tensor_bfloat16_tensor_list():
    t = paddle.to_tensor([paddle.to_tensor([1.0, 2.0], dtype="bfloat16")])
    assert t.dtype == paddle.bfloat16 and t.shape == [1, 2]


def test_to_tensor_list_of_grad_tensors_detaches():
    a = paddle.to_tensor(1.0, stop_gradient=False)
    t = paddle.to_tensor([a, a])
    assert t.stop_gradient and t.tolist() == [1.0, 1.0]


ERRORS = {
    "to_tensor_str": lambda p: p.to_tensor("abc"),
    "to_tensor_none": lambda p: p.to_tensor(None),
    "to_tensor_dict": lambda p: p.to_tensor({1: 2}),
    "to_tensor_range": lambda p: p.to_tensor(range(3)),
    "to_tensor_ragged": lambda p: p.to_tensor([[1, 2], [3]]),
    "to_tensor_bad_dtype": lambda p: p.to_tensor([1, 2], dtype="foo"),
    "to_tensor_np_str": lambda p: p.to_tensor(np.array(["a"])),
    "to_tensor_huge_int": lambda p: p.to_tensor(2 ** 70),
    "from_numpy_list": lambda p: p.from_numpy([1, 2]),
    "zeros_negative": lambda p: p.zeros([-1]),
    "zeros_float_dim": lambda p: p.zeros([2.5]),
    "zeros_str": lambda p: p.zeros("a"),
    "eye_negative": lambda p: p.eye(-1),
    "eye_float": lambda p: p.eye(2.5),
    "eye_cols_negative": lambda p: p.eye(2, -1),
    "arange_step0": lambda p: p.arange(0, 5, 0.5, dtype="int64"),
    "linspace_negative": lambda p: p.linspace(0, 10, -1),
    "diag_3d": lambda p: p.diag(p.zeros([2, 2, 2])),
    "diag_float_offset": lambda p: p.diag(p.to_tensor([1.0, 2.0]), 1.5),
    "tril_0d": lambda p: p.tril(p.to_tensor(1.0)),
    "tril_float_diag": lambda p: p.tril(p.ones([2, 2]), 1.5),
    "meshgrid_indexing": lambda p: p.meshgrid(p.to_tensor([1.0]), p.to_tensor([1.0, 2]), indexing="foo"),
    "meshgrid_dtypes": lambda p: p.meshgrid(p.to_tensor([1.0]), p.to_tensor([1, 2])),
    "meshgrid_2d": lambda p: p.meshgrid(p.to_tensor([[1.0]]), p.to_tensor([1.0, 2])),
    "meshgrid_empty": lambda p: p.meshgrid(),
    "cartesian_2d": lambda p: p.cartesian_prod([p.to_tensor([[1, 2]])]),
    "cartesian_tensor": lambda p: p.cartesian_prod(p.to_tensor([1, 2])),
    "cartesian_dtypes": lambda p: p.cartesian_prod([p.to_tensor([1]), p.to_tensor([1.0])]),
    "combinations_2d": lambda p: p.combinations(p.ones([2, 3])),
    "combinations_0d": lambda p: p.combinations(p.to_tensor(1)),
    "combinations_neg_r": lambda p: p.combinations(p.to_tensor([1, 2, 3]), -1),
    "vander_2d": lambda p: p.vander(p.ones([2, 3])),
    "vander_0d": lambda p: p.vander(p.to_tensor(2.0)),
    "vander_neg_n": lambda p: p.vander(p.to_tensor([1, 2, 3]), -1),
    "block_diag_3d": lambda p: p.block_diag([p.ones([2, 2, 2])]),
    "block_diag_dtypes": lambda p: p.block_diag([p.ones([2, 2]), p.to_tensor([1, 2])]),
    "complex_dtypes": lambda p: p.complex(p.to_tensor([1.0]), p.to_tensor([2.0], dtype="float64")),
    "complex_scalar": lambda p: p.complex(p.to_tensor(1.0), 2.0),
    "diag_embed_same_dims": lambda p: p.diag_embed(p.ones([1, 2]), 0, 1, 1),
    "diag_embed_dim_range": lambda p: p.diag_embed(p.to_tensor(1.0)),
    "tril_indices_negative": lambda p: p.tril_indices(-1, 3),
    "triu_indices_negative": lambda p: p.triu_indices(3, -1),
    "fill_diagonal_tensor_shape": lambda p: p.zeros([3, 3]).fill_diagonal_tensor(p.to_tensor([1.0, 2])),
    "fill_on_grad_leaf": lambda p: _grad_leaf(p).fill_(1.0),
    "zero_on_grad_leaf": lambda p: _grad_leaf(p).zero_(),
    "tril_on_grad_leaf": lambda p: _grad_leaf(p, [2, 2]).tril_(),
}


def _grad_leaf(p, shape=(3,)):
    x = p.zeros(list(shape))
    x.stop_gradient = False
    return x


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_like_paddle(case):
    same_exception(ERRORS[case])


@pytest.mark.parametrize("call", [
    lambda: paddle.arange(0, 3, 1, dtype="bool"), lambda: paddle.eye(3, dtype="bool"),
    lambda: paddle.diag(paddle.to_tensor([True, False])),
    lambda: paddle.complex(paddle.to_tensor([1]), paddle.to_tensor([1])),
    lambda: paddle.tril_indices(3, 3, 0, "float32"), lambda: paddle.vander(paddle.to_tensor([True, False])),
])
def test_unsupported_dtypes_raise(call):
    # Paddle raises a RuntimeError (no kernel for the dtype); so does pagaie, naming the API.
    with pytest.raises(RuntimeError, match=r"^paddle\."):
        call()


# ---- keywords ---------------------------------------------------------------------------------------

def test_out_keyword_writes_into_tensor():
    for fn in (lambda p, o: p.zeros([2, 2], out=o), lambda p, o: p.ones([3], out=o),
               lambda p, o: p.full([2], 4.0, out=o), lambda p, o: p.arange(4, out=o),
               lambda p, o: p.linspace(0, 1, 3, out=o), lambda p, o: p.eye(2, out=o),
               lambda p, o: p.tril(p.ones([2, 2]), out=o)):
        def run(p):
            o = p.zeros([1], dtype="float32")
            r = fn(p, o)
            return o, r
        (o1, r1), (o2, r2) = both(run)
        assert_same(o1, o2)
        assert_same(r1, r2)


def test_requires_grad_and_device():
    for make in (lambda p: p.zeros([2], requires_grad=True), lambda p: p.ones_like(p.zeros([2]), requires_grad=True),
                 lambda p: p.full([2], 1.0, requires_grad=True), lambda p: p.arange(0.0, 3, requires_grad=True),
                 lambda p: p.eye(2, requires_grad=True), lambda p: p.linspace(0, 1, 3, requires_grad=True),
                 lambda p: p.empty([2], requires_grad=True), lambda p: p.as_tensor([1.0], requires_grad=True),
                 lambda p: p.zeros([2]).new_zeros([3], requires_grad=True)):
        ours, theirs = both(make)
        assert ours.stop_gradient == theirs.stop_gradient is False
    assert paddle.zeros([2], device="cpu").place.is_cpu_place()
    assert paddle.ones([2], device=paddle.CPUPlace()).place.is_cpu_place()


def test_empty_shapes_dtypes():
    for make in (lambda p: p.empty([2, 3]), lambda p: p.empty([2], "int32"), lambda p: p.empty(2, 3),
                 lambda p: p.empty_like(p.to_tensor([1, 2])),
                 lambda p: p.empty_like(p.to_tensor([1, 2]), dtype="float64"),
                 lambda p: p.to_tensor([1, 2]).new_empty([3]),
                 lambda p: p.to_tensor([1.0]).new_empty([2, 2], dtype="int32")):
        ours, theirs = both(make)
        assert _meta(ours) == _meta(theirs)


def test_new_factories_varargs():
    x = paddle.to_tensor([1, 2])
    assert x.new_zeros(2, 3).shape == [2, 3]
    assert x.new_ones((2, 3)).dtype == paddle.int64
    assert x.new_zeros(size=[3]).shape == [3]


# ---- in-place fills return self -------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda x: x.fill_(2.0), lambda x: x.zero_(), lambda x: x.fill_diagonal_(3.0),
    lambda x: x.fill_diagonal_tensor_(paddle.ones([3])), lambda x: x.tril_(), lambda x: x.triu_(1),
    lambda x: paddle.tril_(x), lambda x: paddle.triu_(x),
])
def test_inplace_fill_returns_self(call):
    x = paddle.ones([3, 3])
    before = x._t
    assert call(x) is x and x._t is before


def test_fill_int_cast_and_tensor_value():
    x = paddle.zeros([2], dtype="int32")
    assert x.fill_(2.7).tolist() == [2, 2]
    with pytest.raises(TypeError):   # Paddle takes only Python numbers
        paddle.zeros([2]).fill_(paddle.to_tensor(3.0))


def test_clone_keeps_graph():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.clone(x)
    assert not y.stop_gradient
    (y * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_assign_output():
    ours, theirs = both(lambda p: (lambda o: (p.assign(p.to_tensor([[1.0, 2.0]]), o), o)[1])(p.zeros([1])))
    assert_same(ours, theirs)


# ---- legacy constructors -----------------------------------------------------------------------------

LEGACY = ["FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor",
          "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]


@pytest.mark.parametrize("cls", LEGACY)
def test_dtype_tensor_constructors(cls):
    for make in (lambda p: getattr(p, cls)([1, 0]), lambda p: getattr(p, cls)((1, 2)),
                 lambda p: getattr(p, cls)(2, 3), lambda p: getattr(p, cls)()):
        ours, theirs = both(make)
        assert _meta(ours) == _meta(theirs)
    assert not isinstance(getattr(paddle, cls)([1]), getattr(paddle, cls))
    assert isinstance(getattr(paddle, cls)([1]), paddle.Tensor)


def test_float_tensor_from_numpy():
    t = paddle.FloatTensor(np.array([1.0, 2.0]))
    assert t.dtype == paddle.float64 and t.tolist() == [1.0, 2.0]   # Paddle keeps the array's dtype


# ---- DLPack ---------------------------------------------------------------------------------------

def test_dlpack_round_trip_shares_memory():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.from_dlpack(paddle.to_dlpack(x))
    assert y.tolist() == [1.0, 2.0, 3.0] and y.dtype == paddle.float32
    x.fill_(5.0)
    assert y.tolist() == [5.0, 5.0, 5.0]
    a = np.arange(3.0)
    z = paddle.from_dlpack(a)
    assert z.dtype == paddle.float64 and z.tolist() == [0.0, 1.0, 2.0]
    assert paddle.from_dlpack(x).tolist() == [5.0, 5.0, 5.0]


# ---- ranges: dtype inference from tensor bounds -----------------------------------------------------

RANGES = {
    "arange_int_tensor": lambda p: p.arange(p.to_tensor(1, dtype="int32"), 3),
    "arange_float_tensor": lambda p: p.arange(p.to_tensor(1.0, dtype="float64"), 3),
    "arange_end_kw": lambda p: p.arange(end=4),
    "arange_tensor_end": lambda p: p.arange(p.to_tensor([3])),
    "linspace_tensors": lambda p: p.linspace(p.to_tensor(0.0), p.to_tensor(1.0, dtype="float64"), 3),
    "linspace_num_tensor": lambda p: p.linspace(0, 10, p.to_tensor(3)),
    "logspace_tensor": lambda p: p.logspace(p.to_tensor(0.0), 2, 3),
    "eye_tensor": lambda p: p.eye(p.to_tensor(3)),
    "eye_cols_tensor": lambda p: p.eye(2, p.to_tensor(4)),
    "range_requires_grad": lambda p: p.range(0, 3, requires_grad=True),
    "tril_tensor_diag": lambda p: p.triu(p.to_tensor([[1, 2], [3, 4]]), diagonal=p.to_tensor(1)),
    "block_diag_tensor": lambda p: p.block_diag(p.to_tensor([[1.0, 2.0]])),
}


@pytest.mark.parametrize("case", sorted(RANGES))
def test_ranges_like_paddle(case):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = both(RANGES[case])
    assert _meta(ours) == _meta(theirs)
    assert_same(ours, theirs)


def test_stop_gradient_of_creation_outputs_like_paddle():
    def run(p):
        m = p.to_tensor([1.0, 2.0], stop_gradient=False)
        outs = [p.zeros_like(m), p.full_like(m, 2), p.assign(m), p.clone(m), p.diag(m), p.vander(m),
                p.block_diag([m, m]), p.cartesian_prod([m, m]), p.combinations(m), p.meshgrid(m, m)[0],
                p.to_tensor(m), p.diag_embed(m), p.diagflat(m), p.complex(m, m), p.polar(m, m)]
        return [o.stop_gradient for o in outs]
    ours, theirs = both(run)
    assert ours == theirs
