"""Session-9 follow-ups in shared files (the registry, flags, places, seeding, a few ops),
against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _same_bits(ours, theirs):
    """Same dtype and values, the sign of zeros included."""
    assert str(ours.dtype) == str(theirs.dtype)
    a, b = ours.astype("float32").numpy(), theirs.astype("float32").numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.signbit(a), np.signbit(b))


# -- x * number: Paddle's scale kernel adds a zero bias, so no product is -0.0 -------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("expr", [lambda x: x * 0.0, lambda x: x * -2.0, lambda x: -3 * x,
                                  lambda x: x * 0, lambda x: x * 0.1])
def test_tensor_times_number_has_no_negative_zero(dtype, expr):
    vals = np.array([-0.0, 0.0, -1.5, 2.25, -7.0, 1e-3], "float32")
    ours, theirs = both(lambda P: expr(P.to_tensor(vals).astype(dtype)))
    _same_bits(ours, theirs)


def test_tensor_times_number_gradient():
    ours, theirs = both(lambda P: _grad_of(P, lambda x: x * -2.5))
    assert_same(ours, theirs)


def _grad_of(P, fn):
    x = P.to_tensor(np.array([1.0, -2.0, 0.0], "float32"))
    x.stop_gradient = False
    y = fn(x)
    (g,) = P.grad((y * y).sum(), [x])
    return [y, g]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_scale_rounds_its_factor_to_low_precision(dtype):
    vals = np.array([100.0, -3.3, 0.0], "float32")
    for s, b, after in ((np.pi / 180, 0.0, True), (0.3, 0.1, True), (0.3, 0.1, False)):
        ours, theirs = both(lambda P: P.scale(P.to_tensor(vals).astype(dtype), s, b, after))
        _same_bits(ours, theirs)


# -- argument checks -------------------------------------------------------------------------------
def test_where_with_a_0d_condition_only():
    same_exception(lambda P: P.where(P.to_tensor(True)))


@pytest.mark.parametrize("bad", ["py_float", "float_tensor", "float_elem", "bool_tensor", "py_bool"])
def test_slice_bounds_must_be_integers(bad):
    def make(P):
        return {"py_float": [1.0], "float_tensor": P.to_tensor([1.0]), "float_elem": [P.to_tensor(1.0)],
                "bool_tensor": P.to_tensor([True]), "py_bool": [True]}[bad]
    same_exception(lambda P: P.slice(P.zeros([2, 3]), [0], [0], make(P)))


def test_slice_bounds_accept_integer_tensors():
    ours, theirs = both(lambda P: P.slice(P.arange(6).reshape([2, 3]), [1], [P.to_tensor(1, "int16")],
                                          P.to_tensor([3], "int32")))
    assert_same(ours, theirs)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular", "constant"])
def test_pad_of_an_empty_input_gives_zeros(mode):
    ours, theirs = both(lambda P: P.nn.functional.pad(P.zeros([1, 1, 0, 2]), [1, 0, 0, 1], mode=mode))
    assert_same(ours, theirs)


def test_copysign_inplace_with_a_number_keeps_the_dtype():
    def run(P):
        x = P.to_tensor([3, 5], dtype="uint8")
        x.copysign_(-1.5)
        b = P.to_tensor([True, False])
        b.copysign_(2)
        i = P.to_tensor([1, -2])
        i.copysign_(-1.5)
        return [x, b, i]
    ours, theirs = both(run)
    assert_same(ours, theirs)


# -- median: a PyTorch-style alias makes mode 'min' ------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda P, x: P.median(x, dim=1), lambda P, x: P.median(input=x), lambda P, x: x.median(dim=1),
    lambda P, x: P.median(x, dim=1, mode="avg"), lambda P, x: P.median(x, 1), lambda P, x: P.median(x)])
def test_median_alias_default_mode(call):
    arr = np.array([[1.0, 4.0, 2.0, 3.0], [5.0, 6.0, 7.0, 9.0]], "float32")
    ours, theirs = both(lambda P: call(P, P.to_tensor(arr)))
    assert_same(ours, theirs)


# -- flags, seeds, places ----------------------------------------------------------------------------
@pytest.fixture
def restore_flags():
    import pagaie
    keep = pagaie.get_flags(["FLAGS_check_nan_inf", "FLAGS_paddle_num_threads"])
    yield
    pagaie.set_flags(keep)


@pytest.mark.parametrize("value", [0.0, 1.5, None, np.True_, np.int64(1)])
def test_bool_flag_takes_numbers_and_none(value, restore_flags):
    from tests.reference import paddle_ref
    ref = paddle_ref()
    keep = ref.get_flags("FLAGS_check_nan_inf")
    try:
        ours, theirs = both(lambda P: (P.set_flags({"FLAGS_check_nan_inf": value}),
                                       P.get_flags("FLAGS_check_nan_inf"))[1])
    finally:
        ref.set_flags(keep)
    assert ours == theirs


@pytest.mark.parametrize("flag,value", [("FLAGS_check_nan_inf", "1"), ("FLAGS_check_nan_inf", [1]),
                                        ("FLAGS_paddle_num_threads", 2.0),
                                        ("FLAGS_paddle_num_threads", "3"),
                                        ("FLAGS_paddle_num_threads", None)])
def test_flag_values_of_the_wrong_kind(flag, value, restore_flags):
    same_exception(lambda P: P.set_flags({flag: value}))


def test_int_flag_takes_numpy_integers(restore_flags):
    from tests.reference import paddle_ref
    ref = paddle_ref()
    keep = ref.get_flags("FLAGS_paddle_num_threads")
    try:
        ours, theirs = both(lambda P: (P.set_flags({"FLAGS_paddle_num_threads": np.int64(2)}),
                                       P.get_flags("FLAGS_paddle_num_threads"))[1])
    finally:
        ref.set_flags(keep)
    assert ours == theirs


def test_flag_names_must_be_strings():
    same_exception(lambda P: P.set_flags({1: True}))
    same_exception(lambda P: P.get_flags([1]))


@pytest.mark.parametrize("seed", [-1, 2 ** 64, None])
def test_seed_out_of_range(seed):
    try:
        same_exception(lambda P: P.seed(seed))
    finally:
        import pagaie
        from tests.reference import paddle_ref
        pagaie.seed(0)
        paddle_ref().seed(0)


def test_seed_upper_range_accepted():
    import pagaie
    assert pagaie.seed(2 ** 64 - 1).initial_seed() == 2 ** 64 - 1
    pagaie.seed(0)


@pytest.mark.parametrize("args", [(), ("0",), (0.0,)])
def test_cuda_place_id_must_be_an_int(args):
    same_exception(lambda P: P.CUDAPlace(*args))


def test_custom_place_of_an_unregistered_type():
    same_exception(lambda P: P.CustomPlace("npu", 0))


def test_median_alias_warns_as_paddle():
    import pagaie
    x = pagaie.to_tensor([1.0, 3.0, 2.0, 4.0])
    with pytest.warns(Warning, match=r"Set default parameters \['mode', 'min'\]"):
        pagaie.median(x, dim=0)


def test_static_interpolate_with_run_time_sizes_has_unknown_dims():
    def build(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                x = P.static.data("x", [2, 4, 6, 8])
                sz = P.static.data("sz", [2], "int32")
                s = P.static.data("s", [2], "float32")
                F = P.nn.functional
                return [list(F.interpolate(x, size=sz, mode="bilinear").shape),
                        list(F.interpolate(x, scale_factor=s, mode="bilinear").shape)]
        finally:
            P.disable_static()
    ours, theirs = both(build)
    assert ours == theirs


def test_static_operators_keep_the_numbers_they_turn_into_tensors():
    def run(P):
        P.enable_static()
        try:
            main = P.static.Program()
            with P.static.program_guard(main, P.static.Program()):
                x = P.static.data("x", [3], "int32")
                outs = [x == 2.5, 2 << x, 5 & x]
            exe = P.static.Executor(P.CPUPlace())
            return exe.run(main, feed={"x": np.array([1, 2, 3], "int32")}, fetch_list=outs)
        finally:
            P.disable_static()
    ours, theirs = both(run)
    assert_same(ours, theirs)


# -- in-place writes into a gradient leaf under no_grad (a manual parameter update) -----------------
_NO_GRAD_UPDATES = {
    "add_": lambda P, x: x.add_(P.ones([3])),
    "subtract_": lambda P, x: x.subtract_(P.full([3], 0.5)),
    "scale_": lambda P, x: x.scale_(2.0),
    "clip_": lambda P, x: x.clip_(0, 2.5),
    "divide_": lambda P, x: x.divide_(P.full([3], 2.0)),
    "exp_": lambda P, x: x.exp_(),
    "zero_": lambda P, x: x.zero_(),
    "fill_": lambda P, x: x.fill_(2.0),
    "setitem": lambda P, x: x.__setitem__(0, 5.0),
    "setitem_advanced": lambda P, x: x.__setitem__(P.to_tensor([0, 2]), 7.0),
    "masked_fill_": lambda P, x: x.masked_fill_(P.to_tensor([True, False, True]), 0.0),
    "scatter_": lambda P, x: x.scatter_(P.to_tensor([0]), P.to_tensor([9.0])),
    "index_put_": lambda P, x: x.index_put_((P.to_tensor([1]),), P.to_tensor([8.0])),
    "cast_": lambda P, x: x.cast_("float64"),
    "unsqueeze_": lambda P, x: x.unsqueeze_(0),
    "uniform_": lambda P, x: (P.seed(3), x.uniform_()),
}


@pytest.mark.parametrize("op", sorted(_NO_GRAD_UPDATES))
def test_inplace_update_of_a_leaf_under_no_grad(op):
    def run(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        with P.no_grad():
            _NO_GRAD_UPDATES[op](P, x)
        (x * x).sum().backward()
        return [x.stop_gradient, x, x.grad]
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_inplace_on_a_leaf_with_gradients_on_is_still_refused():
    same_exception(lambda P: P.to_tensor([1.0, 2.0], stop_gradient=False).add_(P.ones([2])))


# -- creation functions: dims as separate ints, size= and other PyTorch spellings ------------------
@pytest.mark.parametrize("call", [
    lambda P: P.zeros(2, 3, dtype="float64"), lambda P: P.ones(2, 3, 4, 5), lambda P: P.empty(2, 3).shape,
    lambda P: (P.seed(5), P.rand(2, 3, dtype="float64"))[1], lambda P: (P.seed(5), P.randn(2, 3, 4))[1],
    lambda P: (P.seed(5), P.rand(size=[2, 3]))[1], lambda P: (P.seed(5), P.randn(3))[1],
    lambda P: P.empty(size=[2]).shape, lambda P: (P.seed(5), P.normal(0.0, 1.0, size=[3]))[1],
    lambda P: (P.seed(5), P.multinomial(input=P.to_tensor([0.2, 0.8]), num_samples=2))[1],
    lambda P: (P.seed(5), P.randn_like(input=P.ones([2])))[1],
    lambda P: (P.seed(5), P.ones([2]).exponential_(lambd=2.0))[1],
    lambda P: (P.seed(5), P.zeros([3]).uniform_(**{"from": 1.0, "to": 3.0}))[1]])
def test_creation_size_forms(call):
    ours, theirs = both(call)
    if isinstance(theirs, list) or type(theirs).__name__ == "Size":
        assert list(ours) == list(theirs)
    else:
        assert_same(ours, theirs)


@pytest.mark.parametrize("kw", [dict(lower=0, upper=1), dict(lower=0.1, upper=1), dict(lower=-1)])
def test_rrelu_bounds_must_be_floats(kw):
    same_exception(lambda P: P.nn.functional.rrelu(-P.ones([3]), **kw))


def test_dropout_inplace_writes_into_x():
    def run(P):
        P.seed(1)
        x = P.ones([6])
        x.stop_gradient = False
        h = x * 1
        y = P.nn.functional.dropout(h, 0.5, inplace=True)
        y.sum().backward()
        z = P.ones([4])
        return [y is h, P.nn.functional.dropout(z, 0.5, training=False, inplace=True) is z, h, x.grad]
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2] == [True, True]
    assert_same(ours[2:], theirs[2:])


def test_dropout_inplace_on_a_gradient_leaf():
    def run(P):
        x = P.ones([3])
        x.stop_gradient = False
        P.nn.functional.dropout(x, 0.5, inplace=True)
    same_exception(run)


@pytest.mark.parametrize("case", ["nan_f32", "nan_f64", "complex_to_real", "complex_to_int"])
def test_cast_corners(case, recwarn):
    def run(P):
        if case == "nan_f32":
            return P.to_tensor(np.array([np.nan, -np.nan, 1.5], "float32")).astype("bfloat16").numpy()
        if case == "nan_f64":
            return P.cast(P.to_tensor(np.array([np.nan, 2.0], "float64")), "bfloat16").numpy()
        if case == "complex_to_real":
            return P.to_tensor([1 + 2j, -3 - 1j]).astype("float32").numpy()
        return P.cast(P.to_tensor([1 + 2j]), "int32").numpy()
    import pagaie
    ours = run(pagaie)
    assert not [w for w in recwarn if "imaginary" in str(w.message)]
    from tests.reference import paddle_ref
    np.testing.assert_array_equal(ours, run(paddle_ref()))


def test_tensor_constructor_copies_ndarrays_and_reads_uint16_as_bfloat16():
    def run(P):
        a = np.arange(3.0)
        t = P.Tensor(a)
        a[0] = 9
        b = P.Tensor(np.array([16256, 16320], np.uint16)).astype("float32")
        return [t, b]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("dt", ["uint32", "uint64", "longdouble"])
def test_tensor_constructor_refuses_other_numpy_dtypes(dt):
    same_exception(lambda P: P.Tensor(np.array([1], dt)))


def test_float8_is_not_floating_point():
    ours, theirs = both(lambda P: (lambda x: (x.is_floating_point(), P.is_floating_point(x)))(
        P.to_tensor([1.0]).astype("float8_e4m3fn")))
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda P: P.add(P.ones([2, 2, 5, 5]), P.ones([3, 5, 5])), lambda P: P.ones([2, 3]) * P.ones([4]),
    lambda P: P.multigammaln(P.to_tensor([2, 3]), 2),
    lambda P: P.linalg.cov(P.to_tensor([[True, False], [False, True]])),
    lambda P: P.linalg.corrcoef(P.to_tensor([[True, False], [False, True]]))])
def test_error_types_s9(call):
    err = same_exception(call)
    assert "size of tensor a" not in str(err)


def test_where_inplace_with_a_bigger_result_returns_it():
    def run(P):
        x = P.ones([3])
        r = P.where_(P.to_tensor([True, False, True]), x, P.zeros([2, 3]))
        return [r is x, r, x]
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_logical_inplace_on_views_and_non_leaves():
    def run(P):
        b = P.to_tensor([[1, 2], [3, 4]])
        b[0].bitwise_and_(P.to_tensor([0, 0]))
        a = P.ones([2])
        a.stop_gradient = False
        x = a * 1
        x.equal_(P.ones([2]))
        y = P.to_tensor([0.0, -1.0])
        y.neg_()
        return [b, x.stop_gradient, x, y, y.inplace_version]
    ours, theirs = both(run)
    assert ours[1] == theirs[1] and ours[4] == theirs[4]
    assert_same([ours[0], ours[2], ours[3]], [theirs[0], theirs[2], theirs[3]])


@pytest.mark.parametrize("op", ["asinh_", "atanh_"])
def test_inverse_hyperbolic_inplace_backward(op):
    def run(P):
        a = P.to_tensor([0.5])
        a.stop_gradient = False
        x = a * 1
        getattr(x, op)()
        x.sum().backward()
        return a.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_inplace_growth_under_no_grad_is_the_shape_error():
    def run(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        with P.no_grad():
            x.masked_fill_(P.to_tensor([[True, False, True], [False, False, True]]), 0.0)
    import pagaie
    with pytest.raises(ValueError, match="in-place result has shape"):
        run(pagaie)


@pytest.mark.parametrize("op", ["where_", "scatter_"])
def test_inplace_write_back_ops_update_a_leaf_under_no_grad(op):
    def run(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        with P.no_grad():
            if op == "where_":
                P.where_(P.to_tensor([True, False, True]), x, P.zeros([3]))
            else:
                x.scatter_(P.to_tensor([1]), P.to_tensor([9.0]))
        (x * x).sum().backward()
        return [x.stop_gradient, x, x.grad]
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])
