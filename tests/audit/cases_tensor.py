"""Fuzz cases: Tensor operators, properties, conversion methods and in-place methods."""
from __future__ import annotations

import operator

import numpy as np

from tests.audit.fuzz import Case, X, arr


def _x(shape, dt="float32", kind="float", **kw):
    return X(arr(shape, dt, kind), **kw)


def _binop(op):
    def f(P, a, b):
        return op(a, b)
    f.__name__ = "op_" + op.__name__.strip("_")
    return f


def _unop(op):
    def f(P, a):
        return op(a)
    f.__name__ = "op_" + op.__name__.strip("_")
    return f


BINOPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift,
          operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


def operator_cases() -> list[Case]:
    cs = []
    operands = {
        "f32_f32": (_x([3, 4], kind="nz"), X(arr([3, 4], "float32", "nz", seed=3))),
        "i64_i64": (_x([3, 4], "int64", "nz"), X(arr([3, 4], "int64", "nz", seed=3))),
        "i32_i32": (_x([3, 4], "int32", "nz"), X(arr([3, 4], "int32", "nz", seed=3))),
        "bool_bool": (_x([3, 4], "bool"), X(arr([3, 4], "bool", seed=3))),
        "f32_int": (_x([3, 4], kind="nz"), 2), "f32_float": (_x([3, 4], kind="nz"), 1.5),
        "int_f32": (2, _x([3, 4], kind="nz")), "float_f32": (1.5, _x([3, 4], kind="nz")),
        "i64_int": (_x([3, 4], "int64", "nz"), 3), "i64_float": (_x([3, 4], "int64", "nz"), 1.5),
        "int_i64": (3, _x([3, 4], "int64", "nz")), "float_i32": (2.5, _x([3, 4], "int32", "nz")),
        "i32_bool": (_x([3, 4], "int32", "nz"), True), "bool_int": (_x([3, 4], "bool"), 2),
        "bool_float": (_x([3, 4], "bool"), 1.5), "f16_float": (_x([3, 4], kind="nz", dtype="float16"), 1.5),
        "f32_f64": (_x([3, 4], kind="nz"), X(arr([3, 4], "float64", "nz", seed=3))),
        "f32_0d_f64": (_x([3, 4], kind="nz"), X(np.float64(2.0))), "0d_0d": (_x((), kind="nz"), X(np.float32(2.0))),
        "i32_0d_i64": (_x([3, 4], "int32", "nz"), X(np.int64(2))), "f32_0d_int": (_x([3, 4], kind="nz"), X(np.int64(2))),
        "f32_np": (_x([3, 4], kind="nz"), np.float64(2.0)), "f32_npint": (_x([3, 4], kind="nz"), np.int64(2)),
        "bcast": (_x([3, 1], kind="nz"), X(arr([4], "float32", "nz", seed=3))),
        "f32_c64": (_x([3, 4], kind="nz"), X(arr([3, 4], "complex64", "nz", seed=3))),
        "f32_complex": (_x([3, 4], kind="nz"), 1j), "f32_grad": (_x([3, 4], kind="nz", sg=False), 2.0),
        "i32_bigint": (_x([3, 4], "int32", "nz"), 2**31), "f32_list": (_x([3], kind="nz"), [1.0, 2.0, 3.0]),
        "f32_None": (_x([3], kind="nz"), None),
    }
    for op in BINOPS:
        fn = _binop(op)
        for lab, (a, b) in operands.items():
            cs.append(Case(fn, (a, b), label=lab, group="operator"))
    cs.append(Case(_binop(operator.matmul), (_x([2, 3]), _x([3, 4])), label="f32", group="operator"))
    cs.append(Case(_binop(operator.matmul), (_x([3]), _x([3])), label="1d", group="operator"))
    for op in (operator.neg, operator.pos, operator.abs, operator.invert):
        for lab, a in {"f32": _x([3, 4]), "i32": _x([3, 4], "int32"), "bool": _x([3, 4], "bool"),
                       "0d": _x(()), "u8": _x([3], "uint8")}.items():
            cs.append(Case(_unop(op), (a,), label=lab, group="operator"))
    return cs


def _augmented(P, a, b):
    """``y = x; y += b`` : is ``x`` changed (Paddle has no __iadd__) and what is ``y``?"""
    y = a
    y += b
    return [a, y, y is a]


def _bi(name):
    import builtins

    def f(P, a):
        return getattr(builtins, name)(a)
    f.__name__ = "builtin_" + name
    return f


def property_cases() -> list[Case]:
    cs = []
    props = ["shape", "dtype", "ndim", "size", "stop_gradient", "is_leaf", "T", "mT", "strides", "itemsize",
             "place", "grad", "persistable", "type", "layout", "offset", "is_cuda", "requires_grad"]
    ins = {"f32": _x([2, 3, 4]), "0d": _x(()), "i64": _x([3], "int64"), "grad": _x([2, 3], sg=False),
           "empty": _x([0, 2]), "nc": _x([3, 4], nc=True), "f16": _x([2], dtype="float16"),
           "bf16": _x([2], dtype="bfloat16"), "c64": _x([2], "complex64")}

    def prop(name):
        def f(P, a):
            v = getattr(a, name)
            if name in ("dtype", "place", "layout", "type"):
                return str(v)
            return v
        f.__name__ = "prop_" + name
        return f
    for p in props:
        for lab, a in ins.items():
            cs.append(Case(prop(p), (a,), label=lab, group="property"))
    meths = ["dim", "ndimension", "numel", "element_size", "is_contiguous", "contiguous", "item", "tolist",
             "numpy", "is_floating_point", "is_integer", "is_complex", "get_strides",
             "is_dense", "is_sparse", "cpu", "detach", "clone", "float", "double",
             "int", "long", "bool", "half", "bfloat16", "short", "byte", "char", "cfloat", "cdouble",
             "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "complex64", "complex128",
             "value", "type"]
    for m in meths:
        for lab, a in ins.items():
            cs.append(Case("Tensor." + m, (a,), label=lab, group="method"))
    one = {"0d": _x(()), "1elem": _x([1]), "i64_0d": _x((), "int64"), "bool_0d": X(np.bool_(True)),
           "many": _x([3]), "empty": _x([0]), "f16_0d": _x((), dtype="float16"), "c64_0d": _x((), "complex64")}
    for b in ("bool", "int", "float", "len", "complex"):
        for lab, a in one.items():
            cs.append(Case(_bi(b), (a,), label=lab, group="builtin"))
    cs += [
        Case(_bi("list"), (_x([3]),), group="builtin"), Case(_bi("list"), (_x([2, 3]),), label="2d", group="builtin"),
        Case(lambda P, a: [v for v in a], (_x([2, 3]),), label="iter", group="builtin"),
        Case(lambda P, a: np.asarray(a), (_x([2, 3]),), label="np_asarray", group="builtin"),
        Case(lambda P, a: np.asarray(a), (_x([2], dtype="bfloat16"),), label="np_asarray_bf16", group="builtin"),
        Case(lambda P, a: a.numpy(), (_x([2], dtype="bfloat16"),), label="numpy_bf16", group="builtin"),
        Case(lambda P, a: [1, 2, 3, 4][a], (_x((), "int64"),), label="index", group="builtin"),
        Case(lambda P, a: a.item(0), (_x([3]),), label="item_index", group="builtin"),
        Case(lambda P, a: a.item(1, 2), (_x([3, 4]),), label="item_2index", group="builtin"),
        Case(lambda P, a: hash(a) == hash(a), (_x([3]),), label="hash", group="builtin"),
        Case(lambda P, a: a in a, (_x([3]),), label="contains", group="builtin"),
        Case(lambda P, a: a.shape[0] + 1, (_x([3, 4]),), label="shape_int", group="builtin"),
        Case(lambda P, a: type(a.shape).__name__, (_x([3, 4]),), label="shape_type", group="builtin"),
        Case(lambda P, a: str(a.shape), (_x([3, 4]),), label="shape_str", group="builtin"),
        Case(lambda P, a: a.shape == [3, 4], (_x([3, 4]),), label="shape_eq", group="builtin"),
        Case(lambda P, a: format(a, ".2f"), (_x(()),), label="format_0d", group="builtin"),
        Case(lambda P, a: f"{a.item():.2f}", (_x(()),), label="format_item", group="builtin"),
        Case(lambda P, a: a.dtype == P.float32, (_x([3]),), label="dtype_eq", group="builtin"),
        Case(lambda P, a: a.dtype == "float32", (_x([3]),), label="dtype_eq_str", group="builtin"),
        Case(lambda P, a: str(a.dtype), (_x([3]),), label="dtype_str", group="builtin"),
        Case(lambda P, a: repr(a.place), (_x([3]),), label="place_repr", group="builtin"),
        Case(lambda P, a: a.place.is_cpu_place(), (_x([3]),), label="place_is_cpu", group="builtin"),
    ]
    for lab, (a, b) in {"f32_int": (_x([3]), 1), "f32_f32": (_x([3]), _x([3])),
                        "i32_float": (_x([3], "int32"), 1.5), "f32_f64": (_x([3]), _x([3], "float64")),
                        "bcast_grow": (_x([3]), _x([2, 3]))}.items():
        cs.append(Case(_augmented, (a, b), label=lab, group="augmented"))
    return cs


def inplace_cases() -> list[Case]:
    """In-place methods: the result is the same object, and the input is mutated."""
    def ip(name, *extra, **kw):
        def f(P, a, *args):
            a = a.clone()
            r = getattr(a, name)(*args, **kw)
            return [a, r is a]
        f.__name__ = "inplace_" + name
        return f
    F = _x([3, 4])
    P = _x([3, 4], kind="pos")
    cs = [
        Case(ip("add_"), (F, _x([3, 4]))), Case(ip("add_"), (F, 2), label="scalar"),
        Case(ip("add_"), (_x([3, 4], "int32"), 2.5), label="int_float"),
        Case(ip("add_"), (_x([3, 1]), _x([3, 4])), label="grow"),
        Case(ip("subtract_"), (F, 1.0)), Case(ip("multiply_"), (F, _x([4]))), Case(ip("divide_"), (F, 2.0)),
        Case(ip("divide_"), (_x([3], "int64"), 2), label="int"),
        Case(ip("pow_"), (F, 2)), Case(ip("scale_"), (F, 2.0, 1.0)), Case(ip("clip_"), (F, -0.5, 0.5)),
        Case(ip("exp_"), (F,)), Case(ip("sqrt_"), (P,)), Case(ip("floor_"), (F,)), Case(ip("round_"), (F,)),
        Case(ip("reciprocal_"), (P,)), Case(ip("tanh_"), (F,)), Case(ip("abs_"), (F,)),
        Case(ip("zero_"), (F,)), Case(ip("fill_"), (F, 3.0)), Case(ip("fill_"), (_x([3], "int32"), 2.7), label="int"),
        Case(ip("fill_diagonal_"), (F, 5.0)), Case(ip("fill_diagonal_"), (_x([5, 3]), 5.0, 0, True), label="wrap"),
        Case(ip("reshape_"), (F, [4, 3])), Case(ip("squeeze_"), (_x([1, 3]),)), Case(ip("unsqueeze_"), (F, 0)),
        Case(ip("flatten_"), (F,)), Case(ip("t_"), (F,)),
        Case(ip("cast_"), (F, "float64")), Case(ip("masked_fill_"), (F, _x([3, 4], "bool"), 0.0)),
        Case(ip("index_fill_"), (F, X(np.array([0])), 0, 1.0)),
        Case(ip("scatter_"), (F, X(np.array([1, 0])), _x([2, 4]))),
        Case(ip("put_along_axis_"), (F, X(np.array([[0], [1], [2]])), 9.0, 1)),
        Case(ip("uniform_"), (F,), values=False), Case(ip("normal_"), (F,), values=False),
        Case(ip("exponential_"), (F,), values=False), Case(ip("bernoulli_"), (_x([3, 4], kind="unit"),), values=False),
        Case(ip("copy_"), (F, _x([3, 4]))), Case(ip("set_value"), (F, np.ones([3, 4], "float32"))),
        Case(ip("lerp_"), (F, _x([3, 4]), 0.5)), Case(ip("tril_"), (F,)),
        Case(ip("logical_not_"), (_x([3], "bool"),)), Case(ip("bitwise_and_"), (_x([3], "int32"), _x([3], "int32"))),
        Case(ip("sigmoid_"), (F,)), Case(ip("nan_to_num_"), (_x([3, 4], kind="special"),)),
        Case(ip("cumsum_"), (F, 1)), Case(ip("erfinv_"), (_x([3, 4], kind="unit"),)),
        Case(ip("clamp_"), (F, -0.5, 0.5)), Case(ip("neg_"), (F,)),
    ]
    for c in cs:
        c.group = "inplace"
    return cs


def all_cases() -> list[Case]:
    return operator_cases() + property_cases() + inplace_cases()
