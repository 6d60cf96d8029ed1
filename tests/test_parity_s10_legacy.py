"""Session-10 parity sweep of Paddle's legacy layer (``paddle.base``): VarDesc.VarType as a
dtype, the ``base.framework`` / ``base.core`` / ``base.dygraph.base`` helpers scripts reach for."""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

DTYPE_MEMBERS = ["FP32", "FP64", "FP16", "BF16", "INT64", "INT32", "INT16", "INT8", "UINT8",
                 "BOOL", "COMPLEX64", "COMPLEX128"]


def _vt(fw):
    return fw.base.core.VarDesc.VarType


@pytest.mark.parametrize("name", DTYPE_MEMBERS + ["DENSE_TENSOR", "SELECTED_ROWS", "RAW", "STRING",
                                                  "UINT16", "FP8_E4M3FN", "LOD_TENSOR"])
def test_vartype_member_forms(name):
    ours, theirs = both(lambda fw: getattr(_vt(fw), name))
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert int(ours) == int(theirs) and hash(ours) == hash(theirs)
    assert ours == int(theirs) and ours.name == theirs.name


def test_vartype_comparisons_and_lookup():
    ref = paddle_ref()
    VT, RVT = _vt(pagaie), _vt(ref)
    assert (VT.FP32 == pagaie.float32) == (RVT.FP32 == ref.float32) is False
    assert (VT.FP32 != VT.FP64) and VT.FP32 == VT.FP32
    assert repr(VT(5)) == repr(RVT(5))
    assert sorted(VT.__members__) == sorted(RVT.__members__)
    assert (pagaie.ones([1]).type == VT.DENSE_TENSOR) and (ref.ones([1]).type == RVT.DENSE_TENSOR)
    # (repr(VarType) itself is left out: Paddle's changes once paddle.dtype has been set up by
    # some of its APIs, so it depends on what ran before)
    with pytest.raises(AttributeError):
        VT.FOO


@pytest.mark.parametrize("name", DTYPE_MEMBERS)
@pytest.mark.parametrize("api", ["cast", "zeros", "astype", "full"])
def test_vartype_as_dtype(name, api):
    calls = {"cast": lambda fw, d: fw.cast(fw.to_tensor([1.0, 0.0]), d),
             "zeros": lambda fw, d: fw.zeros([2], dtype=d),
             "astype": lambda fw, d: fw.ones([2]).astype(d),
             "full": lambda fw, d: fw.full([2], 1, dtype=d)}
    ours, theirs = both(lambda fw: calls[api](fw, getattr(_vt(fw), name)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("name", ["FP32", "FP64", "INT64", "BOOL", "BF16", "INT8"])
def test_vartype_to_tensor_dtype(name):
    ours, theirs = both(lambda fw: fw.to_tensor(np.array([1.0, 2.0]), dtype=getattr(_vt(fw), name)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("name", ["FP32", "BF16", "INT8", "BOOL", "FP8_E5M2"])
def test_convert_dtype_vartype(name):
    ours, theirs = both(lambda fw: fw.base.data_feeder.convert_dtype(getattr(_vt(fw), name)))
    assert ours == theirs


@pytest.mark.parametrize("name", ["DENSE_TENSOR", "UINT16"])
def test_convert_dtype_vartype_rejects(name):
    same_exception(lambda fw: fw.base.data_feeder.convert_dtype(getattr(_vt(fw), name)))


def test_core_datatype_members():
    ref = paddle_ref()
    for name in ["FLOAT32", "BFLOAT16", "INT64", "BOOL", "UINT8", "COMPLEX128", "PSTRING"]:
        assert repr(getattr(pagaie.base.core.DataType, name)) == repr(getattr(ref.base.core.DataType, name))
    assert pagaie.base.core.DataType.FLOAT32 is pagaie.float32


@pytest.mark.parametrize("arg", ["float32", "Float64 ", "bfloat16", "int", "bool"])
def test_convert_np_dtype_to_dtype(arg):
    ours, theirs = both(lambda fw: fw.base.framework.convert_np_dtype_to_dtype_(arg))
    assert repr(ours) == repr(theirs)


def test_convert_np_dtype_to_dtype_types():
    ours, theirs = both(lambda fw: fw.base.framework.convert_np_dtype_to_dtype_(np.int64))
    assert repr(ours) == repr(theirs)
    same_exception(lambda fw: fw.base.framework.convert_np_dtype_to_dtype_("foo"))
    same_exception(lambda fw: fw.base.framework.convert_np_dtype_to_dtype_("uint32"))
    same_exception(lambda fw: fw.base.framework.convert_np_dtype_to_dtype_(_vt(fw).FP32))


def test_framework_helpers():
    for expr in [lambda fw: repr(fw.base.framework._current_expected_place()),
                 lambda fw: repr(fw.base.framework._current_expected_place_()),
                 lambda fw: repr(fw.base.framework._get_paddle_place("CPU")),
                 lambda fw: repr(fw.base.framework._get_paddle_place(fw.CPUPlace())),
                 lambda fw: fw.base.framework._get_paddle_place(None),
                 lambda fw: fw.base.framework.use_pir_api(),
                 lambda fw: fw.base.framework.grad_var_name("x"),
                 lambda fw: fw.base.framework.dtype_is_floating(_vt(fw).FP32),
                 lambda fw: fw.base.framework.dtype_is_floating(_vt(fw).INT32),
                 lambda fw: fw.base.framework.dtype_is_floating("float32"),
                 lambda fw: fw.base.framework.dygraph_only(lambda: 7)(),
                 lambda fw: fw.base.framework._global_flags()["FLAGS_check_nan_inf"],
                 lambda fw: "FLAGS_check_nan_inf" in fw.base.framework._global_flags(),
                 lambda fw: fw.base.framework.unique_name.generate("zz")[:3],
                 lambda fw: fw.base.framework.core.is_compiled_with_cuda()]:
        ours, theirs = both(expr)
        assert ours == theirs


@pytest.mark.parametrize("place", ["foo", 3, "xpu:0", "ipu"])
def test_get_paddle_place_errors(place):
    same_exception(lambda fw: fw.base.framework._get_paddle_place(place))


def test_static_only_in_dygraph():
    same_exception(lambda fw: fw.base.framework.static_only(lambda: 1)())


def test_core_queries():
    for expr in [lambda fw: fw.base.core.is_float16_supported(fw.CPUPlace()),
                 lambda fw: fw.base.core.is_bfloat16_supported(fw.CPUPlace()),
                 lambda fw: fw.base.core.size_of_dtype(fw.bfloat16),
                 lambda fw: fw.base.core.size_of_dtype(_vt(fw).FP64),
                 lambda fw: fw.base.core.globals()["FLAGS_check_nan_inf"],
                 lambda fw: fw.base.core.supports_bfloat16(),
                 lambda fw: fw.base.core.is_compiled_with_dist(),
                 lambda fw: fw.base.core.is_compiled_with_nccl(),
                 lambda fw: fw.base.core.is_compiled_with_mpi()]:
        ours, theirs = both(expr)
        assert ours == theirs
    assert isinstance(pagaie.base.core.is_compiled_with_mkldnn(), bool)
    same_exception(lambda fw: fw.base.core.globals()["FLAGS_not_a_flag"])


def test_core_globals_sets_flags():
    g = pagaie.base.core.globals()
    g["FLAGS_check_nan_inf"] = True
    try:
        assert pagaie.get_flags("FLAGS_check_nan_inf") == {"FLAGS_check_nan_inf": True}
    finally:
        g["FLAGS_check_nan_inf"] = False


def test_dygraph_base_module():
    ref = paddle_ref()
    import pagaie.base.dygraph.base as ours_mod
    theirs_mod = ref.base.dygraph.base
    for name in ["guard", "enabled", "no_grad_", "enable_dygraph", "disable_dygraph",
                 "in_to_static_mode", "param_guard", "_get_paddle_place"]:
        assert hasattr(ours_mod, name) and hasattr(theirs_mod, name), name
    assert ours_mod.in_to_static_mode() == theirs_mod.in_to_static_mode()
    assert ours_mod.enabled() == theirs_mod.enabled()
    layer = pagaie.nn.Linear(2, 2)
    with ours_mod.param_guard(layer._parameters):
        assert layer(pagaie.ones([1, 2])).shape == [1, 2]
    with ours_mod.guard():
        assert pagaie.in_dynamic_mode()
