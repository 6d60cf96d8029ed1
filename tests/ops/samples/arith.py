from tests.ops.samples import FLOATS, INTS, OpSample, T

SAMPLES = [
    OpSample("add", [T((2, 3)), T((3,))], dtypes=FLOATS + INTS),
    OpSample("subtract", [T((2, 3)), T((2, 1))], dtypes=FLOATS + INTS),
    OpSample("multiply", [T((4,)), T((4,))], dtypes=FLOATS + INTS),
    OpSample("divide", [T((3, 2)), T((3, 2), kind="pos")]),
    OpSample("divide", [T((3,), kind="int", low=-9, high=9), T((3,), kind="int", low=1, high=4)],
             dtypes=INTS, id="divide_int"),
    OpSample("floor_divide", [T((5,), low=-9, high=9), T((5,), low=1, high=4)], dtypes=INTS),
    OpSample("remainder", [T((5,), low=-9, high=9), T((5,), low=1, high=4)], dtypes=INTS),
    OpSample("remainder", [T((5,)), T((5,), kind="pos")], id="remainder_float"),
    OpSample("pow", [T((4,), kind="pos"), 3.0]),
    OpSample("pow", [T((4,), kind="pos"), T((4,), kind="unit")], id="pow_tensor"),
    OpSample("Tensor.__add__", [T((2, 2)), 1.5], id="op_add_scalar"),
    OpSample("Tensor.__add__", [T((2, 2), dtype="int64"), 1.5], id="op_add_int_floatscalar", grad=False),
    OpSample("Tensor.__rsub__", [T((2, 2)), 1.5], id="op_rsub"),
    OpSample("Tensor.__truediv__", [T((2, 2), dtype="int64", low=1), 2], id="op_div_int", grad=False),
    OpSample("Tensor.__rtruediv__", [T((3,), kind="pos"), 2.0], id="op_rdiv"),
]
