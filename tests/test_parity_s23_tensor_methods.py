"""Session-23 sweep of ``paddle.Tensor`` methods against real Paddle 3.3.1: operators with
numpy numbers and bool tensors, in-place variants (gradients through them on non-leaf tensors,
operands aliasing the output) and ``contiguous``."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

pytest.importorskip("paddle")


# -- bool / bool divides as integers -------------------------------------------------------------

@pytest.mark.parametrize("form", ["divide", "operator", "inplace", "python_bool", "reflected_bool", "0d"])
def test_bool_divided_by_bool_is_bool(form):
    def run(P):
        x = P.to_tensor([True, False])
        y = P.to_tensor([True, True])
        return {"divide": lambda: P.divide(x, y), "operator": lambda: x / y,
                "inplace": lambda: x.divide_(y), "python_bool": lambda: x / True,
                "reflected_bool": lambda: True / P.to_tensor([True, True]),
                "0d": lambda: x / P.to_tensor(True)}[form]()
    assert_same(*both(run))


@pytest.mark.parametrize("form", ["tensor", "python_bool", "reflected_bool"])
def test_bool_divided_by_false_is_an_integer_division_by_zero(form):
    def run(P):
        x = P.to_tensor([True, False])
        return {"tensor": lambda: x / P.to_tensor([True, False]), "python_bool": lambda: x / False,
                "reflected_bool": lambda: True / x}[form]()
    with pytest.raises(Exception) as theirs:
        run(paddle_ref())
    assert type(theirs.value).__name__ == "EnforceNotMet"
    with pytest.raises(ZeroDivisionError):   # (pagaie's integer division by zero, as for //)
        run(pagaie)


# -- gradients through in-place ops on non-leaf tensors -------------------------------------------

@pytest.mark.parametrize("view", [False, True])
def test_floor_divide_inplace_passes_gradients_through(view):
    """floor_divide_ records no backward: x keeps its grad node (the gradient is not zeroed)."""
    def run(P):
        a = P.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        x = a * 1.0
        target = x[0] if view else x
        target.floor_divide_(P.full(target.shape, 2.0))
        (x * a).sum().backward()
        return [x, a.grad]
    assert_same(*both(run))


# -- numpy numbers as operator operands ------------------------------------------------------------

_OPS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
        "truediv": lambda a, b: a / b, "floordiv": lambda a, b: a // b, "mod": lambda a, b: a % b,
        "pow": lambda a, b: a ** b, "lt": lambda a, b: a < b, "ge": lambda a, b: a >= b,
        "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


@pytest.mark.parametrize("dt", ["int32", "int64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("v", [np.float32(2.5), np.float16(-1.5), np.complex64(2 + 1j)])
def test_numpy_float32_number_becomes_a_tensor_of_x_dtype(dt, v):
    """np.float32/float16/complex64 are not Python numbers to Paddle: the number is cast to x's
    dtype (2.5 is 2 for an int tensor; a real tensor drops the imaginary part)."""
    names = ["add", "sub", "mul", "truediv", "lt", "eq"] + (["floordiv", "mod", "pow"] if dt.startswith("int") else [])
    for name in names:
        for rev in (False, True):
            def run(P):
                x = P.to_tensor(np.array([3, -4, 6], "float32")).astype(dt)
                return _OPS[name](v, x) if rev else _OPS[name](x, v)
            if dt == "complex64" and name == "lt":
                continue
            assert_same(*both(run), what=f"{name} reflected={rev}")


@pytest.mark.parametrize("v", [np.int64(3), np.int32(0), np.int64(-1)])
def test_numpy_int_with_a_bool_tensor(v):
    """A numpy int is not a Python int to Paddle: next to a bool tensor it becomes a bool
    (but ``/`` divides by it as a number)."""
    for name in ["add", "mul", "truediv", "lt", "ge", "eq", "ne"]:
        for rev in (False, True):
            def run(P):
                x = P.to_tensor([True, False])
                return _OPS[name](v, x) if rev else _OPS[name](x, v)
            assert_same(*both(run), what=f"{name} reflected={rev}")


@pytest.mark.parametrize("v", [np.int8(1), np.uint8(1), np.uint64(1), np.bool_(True), np.longdouble(1)])
def test_numpy_numbers_paddle_does_not_read(v):
    """Paddle reads no other numpy number: TypeError where its operator hands the operand
    back to Python, ValueError elsewhere."""
    for name in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lt", "ge"]:
        for rev in (False, True):
            same_exception(lambda P: _OPS[name](v, P.to_tensor([1.0, 2.0])) if rev
                           else _OPS[name](P.to_tensor([1.0, 2.0]), v))


def test_numpy_int16_only_for_the_scalar_kernels():
    """np.int16 is a number to ``+ - *``, ``x / y`` and ``x ** y`` only."""
    for name in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lt", "ge"]:
        for rev in (False, True):
            def run(P):
                x = P.to_tensor([1.0, 2.0])
                return _OPS[name](np.int16(3), x) if rev else _OPS[name](x, np.int16(3))
            if (name, rev) in {("add", False), ("add", True), ("sub", False), ("sub", True), ("mul", False),
                               ("mul", True), ("truediv", False), ("pow", False)}:
                assert_same(*both(run))
            else:
                same_exception(run)


@pytest.mark.parametrize("v", [np.int8(1), np.bool_(True)])
def test_unreadable_numpy_number_compares_by_identity(v):
    ours, theirs = both(lambda P: (P.to_tensor([1.0]) == v, P.to_tensor([1.0]) != v, v == P.to_tensor([1.0])))
    assert ours == theirs


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("v", [2, 2.5, np.float64(2.0)])
def test_number_divided_by_a_low_float_tensor_has_no_cpu_kernel(dt, v):
    """``2 / x`` makes the number a tensor of x's dtype (no reflected scalar kernel)."""
    same_exception(lambda P: v / P.to_tensor([1.0, 2.0]).astype(dt))
    assert_same(*both(lambda P: P.to_tensor([1.0, 2.0]).astype(dt) / v))


# -- contiguous / is_contiguous ---------------------------------------------------------------------

def test_contiguous_converts_a_strided_view_in_place():
    """Paddle makes the view itself contiguous (a copy: later writes no longer reach the base)."""
    def run(P):
        x = P.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        y = x.t()
        r = y.contiguous()
        y[0, 0] = 100.0
        return [r is y, y.is_contiguous(), y.strides, x, y]
    ours, theirs = both(run)
    assert ours[:3] == theirs[:3]
    assert_same(ours[3:], theirs[3:])


def test_contiguous_view_keeps_its_gradient():
    def run(P):
        a = P.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        y = a.t()
        y.contiguous()
        y.scale_(2.0)
        (y * y).sum().backward()
        return [y, a.grad]
    assert_same(*both(run))


@pytest.mark.parametrize("index", [(slice(None, None, 3),), (slice(None), slice(0, 1)), (slice(0, 1),), (1,)])
def test_is_contiguous_checks_length_one_axes_too(index):
    ours, theirs = both(lambda P: (lambda y: (y.strides, y.is_contiguous()))(
        P.to_tensor(np.arange(12.0).reshape(3, 4))[index]))
    assert ours == theirs


# -- a real value tensor written into a complex tensor ---------------------------------------------

_FILLS = {
    "masked_fill": lambda P, x, v: x.masked_fill(P.to_tensor([True, False]), v),
    "masked_fill_": lambda P, x, v: x.masked_fill_(P.to_tensor([True, False]), v),
    "index_fill": lambda P, x, v: x.index_fill(P.to_tensor([0]), 0, v),
    "index_put": lambda P, x, v: x.index_put((P.to_tensor([0]),), v),
    "index_put_": lambda P, x, v: x.index_put_((P.to_tensor([0]),), v),
}


@pytest.mark.parametrize("name", sorted(_FILLS))
def test_complex_tensor_takes_a_real_floating_value_tensor(name):
    """Paddle's kernel casts a float value to the complex dtype; another complex dtype it cannot
    cast (NotImplementedError); an int value is still refused."""
    for dx, dv in [("complex64", "float32"), ("complex128", "float32"), ("complex64", "float64")]:
        assert_same(*both(lambda P: _FILLS[name](P, P.to_tensor([1.0, 2.0]).astype(dx),
                                                 P.to_tensor(3.5).astype(dv))))
    for dx, dv in [("complex64", "complex128"), ("complex128", "complex64"), ("complex64", "int64")]:
        same_exception(lambda P: _FILLS[name](P, P.to_tensor([1.0, 2.0]).astype(dx), P.to_tensor(3.5).astype(dv)))


@pytest.mark.parametrize("dx, dy", [("int32", "float32"), ("complex64", "float32"), ("float16", "float32"),
                                    ("float32", "float64")])
def test_lerp_looks_up_x_kernel_before_comparing_dtypes(dx, dy):
    same_exception(lambda P: P.to_tensor([1.0, 2.0]).astype(dx).lerp(P.to_tensor([3.0, 1.0]).astype(dy), 0.5))
    same_exception(lambda P: P.to_tensor([1.0, 2.0]).astype(dx).lerp_(P.to_tensor([3.0, 1.0]).astype(dy), 0.5))


# -- fill values past complex64's range --------------------------------------------------------------

@pytest.mark.parametrize("v", [1e40, -1e40])
def test_complex64_fill_of_an_out_of_range_float_is_inf(v):
    assert_same(*both(lambda P: P.zeros([2], "complex64").fill_(v)))
    assert_same(*both(lambda P: P.full_like(P.zeros([2], "complex64"), v)))


# -- computed results are row-major; views and detach keep the input's layout ----------------------

_ON_TRANSPOSED = {
    "abs": lambda P, v: v.abs(), "add": lambda P, v: v + v, "add_number": lambda P, v: v + 1,
    "where": lambda P, v: P.where(v > 2, v, v * 0), "astype": lambda P, v: v.astype("int32"),
    "to": lambda P, v: v.to("float64"), "to_copy": lambda P, v: v.to("float32", copy=True),
    "eq": lambda P, v: v == 2, "lerp": lambda P, v: P.lerp(v, v, 0.5), "detach": lambda P, v: v.detach(),
    "getitem": lambda P, v: v[:, 0], "unsqueeze": lambda P, v: v.unsqueeze(0),
}


@pytest.mark.parametrize("name", sorted(_ON_TRANSPOSED))
def test_layout_of_results_of_a_transposed_input(name):
    def run(P):
        x = P.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        y = _ON_TRANSPOSED[name](P, x.t())
        return [y.strides, y.is_contiguous(), y]
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


def test_detach_of_a_view_still_shares_memory():
    def run(P):
        x = P.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        y = x.t().detach()
        y[0, 1] = 9.0
        return [x, y]
    assert_same(*both(run))


# -- apply / apply_ / data ----------------------------------------------------------------------------

def test_apply_inplace_rebinds_to_the_result():
    """apply_ makes x hold the function's result (shape and dtype too, no version counted, no
    write through a view); None leaves x as it is."""
    def run(P):
        x = P.to_tensor([1.0, 2.0])
        r = P.ones([3], "int32")
        y = x.apply_(lambda t: r)
        r[0] = 9
        z = P.to_tensor([5.0, 6.0])
        v0 = z.inplace_version
        z.apply_(lambda t: t * 2)
        base = P.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        view = base[0]
        view.apply_(lambda t: t * 10)
        w = P.to_tensor([1.0, 2.0])
        w.apply_(lambda t: None)
        return [y is x, z.inplace_version - v0, x, z, base, view, w]
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2:], theirs[2:])


def test_apply_of_a_function_returning_none_aliases_x():
    def run(P):
        x = P.to_tensor([1.0, 2.0])
        y = x.apply(lambda t: None)
        y[0] = 7.0
        return [x, y]
    assert_same(*both(run))


def test_data_setter():
    """``x.data = t`` takes only a Tensor; a tensor that needs gradients may take int data."""
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        x.data = P.to_tensor([5, 6, 7], "int32")
        return [x, x.stop_gradient]
    ours, theirs = both(run)
    assert_same(ours, theirs)
    same_exception(lambda P: setattr(P.to_tensor([1.0, 2.0]), "data", np.array([5.0, 6.0])))
    same_exception(lambda P: setattr(P.to_tensor([1.0, 2.0]), "data", 3))


def test_masked_fill_inplace_grows_x_to_the_broadcast_shape():
    """Paddle's masked_fill_ kernel resizes x to the broadcast shape of x and the mask (the
    other elementwise in-place ops refuse a growing broadcast)."""
    def run(P):
        x = P.to_tensor([1.0, 5.0])
        v = x.inplace_version
        r = x.masked_fill_(P.to_tensor([[True, False], [False, True], [True, True]]), 0.5)
        a = P.to_tensor([1.0, 5.0], stop_gradient=False)
        y = a * 1
        y.masked_fill_(P.to_tensor([[True, False], [False, True]]), 0.5)
        (y * 2).sum().backward()
        return [r is x, x.inplace_version - v, x, y, a.grad]
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2:], theirs[2:])
    same_exception(lambda P: P.ones([2]).add_(P.ones([3, 2])))


@pytest.mark.parametrize("name", ["equal_", "less_than_", "logical_and_", "logical_xor_"])
@pytest.mark.parametrize("dt", ["float32", "int32", "bool", "uint8"])
def test_bool_inplace_op_with_x_as_its_own_operand(name, dt):
    """``x.equal_(x)``: the bool result would overwrite the x it reads: Paddle's ValueError
    (a bool x is fine)."""
    def run(P):
        x = P.to_tensor([1.0, 0.0]).astype(dt)
        getattr(x, name)(x)
        return x
    if dt == "bool":
        assert_same(*both(run))
    else:
        same_exception(run)
