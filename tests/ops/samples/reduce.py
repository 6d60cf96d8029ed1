from tests.ops.samples import FLOATS, INTS, OpSample, T

_ALL = FLOATS + INTS
SAMPLES = []
for _n in ("sum", "mean", "max", "min", "amax", "amin", "prod"):
    _dt = FLOATS + INTS
    SAMPLES += [
        OpSample(_n, [T((3, 4))], dtypes=_dt),
        OpSample(_n, [T((3, 4))], kwargs={"axis": 1}, dtypes=_dt, id=f"{_n}_axis"),
        OpSample(_n, [T((2, 3, 4))], kwargs={"axis": [0, -1], "keepdim": True}, dtypes=_dt,
                 id=f"{_n}_axes_keepdim"),
        OpSample(_n, [T((2, 3))], kwargs={"keepdim": True}, id=f"{_n}_full_keepdim"),
        OpSample(_n, [T((), value=1.5)], kwargs={"axis": 0}, id=f"{_n}_0d"),
    ]
for _n in ("max", "min", "amax", "amin"):
    SAMPLES.append(OpSample(_n, [T((2, 4), value=[[1.0, 3.0, 3.0, 2.0], [0.0, 0.0, -1.0, 0.0]])],
                            id=f"{_n}_ties"))
    SAMPLES.append(OpSample(_n, [T((2, 4), value=[[1.0, 3.0, 3.0, 2.0], [0.0, 0.0, -1.0, 0.0]])],
                            kwargs={"axis": 1}, id=f"{_n}_ties_axis"))
SAMPLES += [
    OpSample("sum", [T((2, 3), kind="bool")], dtypes=("bool",), id="sum_bool"),
    OpSample("sum", [T((2, 3))], kwargs={"dtype": "float64"}, dtypes=INTS, id="sum_dtype"),
    OpSample("sum", [T((2, 3))], dtypes=("int8", "int16", "uint8"), id="sum_small_int", grad=False),
    OpSample("mean", [T((2, 3), kind="bool")], dtypes=("bool",), id="mean_bool"),
    OpSample("mean", [T((2, 3))], kwargs={"dtype": "float64"}, dtypes=INTS, id="mean_dtype"),
    OpSample("prod", [T((2, 3))], kwargs={"dtype": "int64"}, dtypes=("int32",), id="prod_dtype"),
    OpSample("all", [T((2, 3), kind="bool")], dtypes=("bool",)),
    OpSample("all", [T((2, 3), kind="bool")], kwargs={"axis": 1, "keepdim": True}, dtypes=("bool",),
             id="all_axis"),
    OpSample("all", [T((2, 3), low=0, high=2)], dtypes=FLOATS + INTS, id="all_numeric"),
    OpSample("any", [T((2, 3), kind="bool")], dtypes=("bool",)),
    OpSample("any", [T((2, 3), kind="bool")], kwargs={"axis": 0}, dtypes=("bool",), id="any_axis"),
    OpSample("any", [T((2, 3), low=0, high=2)], dtypes=FLOATS + INTS, id="any_numeric"),
    OpSample("logsumexp", [T((3, 4))], dtypes=FLOATS + INTS),
    OpSample("logsumexp", [T((3, 4))], kwargs={"axis": 1, "keepdim": True}, id="logsumexp_axis"),
    OpSample("nansum", [T((4,), value=[1.0, float("nan"), 2.0, -4.0])]),
    OpSample("nansum", [T((3, 4))], kwargs={"axis": 1}, dtypes=FLOATS + INTS, id="nansum_axis"),
    OpSample("nanmean", [T((4,), value=[1.0, float("nan"), 2.0, -4.0])]),
    OpSample("nanmean", [T((3, 4))], kwargs={"axis": 0, "keepdim": True},
             dtypes=FLOATS + ("int64",), id="nanmean_axis"),  # Paddle's int32 nanmean fails
    OpSample("count_nonzero", [T((3, 4), low=0, high=2)], dtypes=FLOATS + INTS),
    OpSample("count_nonzero", [T((3, 4), low=0, high=2)], kwargs={"axis": 1, "keepdim": True},
             dtypes=FLOATS + INTS, id="count_nonzero_axis"),
    OpSample("Tensor.sum", [T((3, 4))], kwargs={"axis": -1}, dtypes=FLOATS + INTS, id="method_sum"),
]
