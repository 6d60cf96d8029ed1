"""A table of bad calls: pagaie must raise the exception type real Paddle raises, with a
message that names the API and says nothing about torch."""
import numpy as np
import pytest

import pagaie
from tests.reference import same_exception


def _f(pd, data=((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))):
    return pd.to_tensor(np.array(data, dtype="float32"))


def _i(pd):
    return pd.to_tensor(np.array([[1, 2, 3], [4, 5, 6]], dtype="int64"))


# (id, names that must exist in pagaie (top level or "Tensor.x"), the bad call,
#  a word the message must contain, or None when the message is not checked)
CASES = [
    ("add_shape_mismatch", ["add"], lambda pd: pd.add(_f(pd), pd.ones([4])), "add"),
    ("add_int_float_tensors", ["add"], lambda pd: pd.add(_f(pd), _i(pd)), "add"),
    ("matmul_shape_mismatch", ["matmul"], lambda pd: pd.matmul(_f(pd), _f(pd)), "matmul"),
    ("reshape_bad_numel", ["reshape"], lambda pd: pd.reshape(_f(pd), [4, 2]), "reshape"),
    ("reshape_two_minus_one", ["reshape"], lambda pd: pd.reshape(_f(pd), [-1, -1]), "reshape"),
    ("transpose_bad_perm", ["transpose"], lambda pd: pd.transpose(_f(pd), [0, 0]), "transpose"),
    ("concat_rank_mismatch", ["concat"], lambda pd: pd.concat([_f(pd), pd.ones([3])]), "concat"),
    ("concat_bad_axis", ["concat"], lambda pd: pd.concat([_f(pd), _f(pd)], axis=5), "concat"),
    ("stack_shape_mismatch", ["stack"], lambda pd: pd.stack([_f(pd), pd.ones([3, 2])]), "stack"),
    ("squeeze_bad_axis", ["squeeze"], lambda pd: pd.squeeze(_f(pd), axis=4), "squeeze"),
    ("unsqueeze_bad_axis", ["unsqueeze"], lambda pd: pd.unsqueeze(_f(pd), axis=7), "unsqueeze"),
    ("split_uneven", ["split"], lambda pd: pd.split(_f(pd), 4, axis=1), "split"),
    ("sum_bad_axis", ["sum"], lambda pd: pd.sum(_f(pd), axis=3), "sum"),
    ("mean_bad_axis", ["mean"], lambda pd: pd.mean(_f(pd), axis=-4), "mean"),
    ("max_bad_axis", ["max"], lambda pd: pd.max(_f(pd), axis=2), "max"),
    ("argmax_bad_axis", ["argmax"], lambda pd: pd.argmax(_f(pd), axis=2), "argmax"),
    ("gather_index_out_of_range", ["gather"],
     lambda pd: pd.gather(_f(pd), pd.to_tensor([5])), None),
    ("index_select_float_index", ["index_select"],
     lambda pd: pd.index_select(_f(pd), pd.to_tensor([0.0])), "index_select"),
    ("getitem_out_of_range", ["Tensor.__getitem__"], lambda pd: _f(pd)[5], None),
    ("flatten_bad_axes", ["flatten"], lambda pd: pd.flatten(_f(pd), start_axis=1, stop_axis=0),
     "flatten"),
    ("expand_incompatible", ["expand"], lambda pd: pd.expand(_f(pd), [3, 3]), "expand"),
    ("broadcast_to_incompatible", ["broadcast_to"],
     lambda pd: pd.broadcast_to(_f(pd), [4, 3, 2]), "broadcast_to"),
    ("tile_bad_repeat", ["tile"], lambda pd: pd.tile(_f(pd), [-1, 2]), "tile"),
    ("full_bad_shape", ["full"], lambda pd: pd.full([2, -3], 1.0), "full"),
    ("zeros_bad_dtype", ["zeros"], lambda pd: pd.zeros([2], dtype="float17"), None),
    ("to_tensor_ragged", ["to_tensor"], lambda pd: pd.to_tensor([[1, 2], [3]]), None),
    ("arange_zero_step", ["arange"], lambda pd: pd.arange(0, 10, 0), "arange"),
    ("eye_negative", ["eye"], lambda pd: pd.eye(-2), "eye"),
    ("linspace_negative_num", ["linspace"], lambda pd: pd.linspace(0, 1, -1), "linspace"),
    ("topk_k_too_large", ["topk"], lambda pd: pd.topk(_f(pd), k=5), "topk"),
    ("sort_bad_axis", ["sort"], lambda pd: pd.sort(_f(pd), axis=3), "sort"),
    ("inverse_non_square", ["linalg.inv"], lambda pd: pd.linalg.inv(_f(pd)), "inv"),
    ("cholesky_non_square", ["linalg.cholesky"], lambda pd: pd.linalg.cholesky(_f(pd)), "cholesky"),
    ("dot_shape_mismatch", ["dot"], lambda pd: pd.dot(pd.ones([3]), pd.ones([4])), "dot"),
    ("bmm_rank", ["bmm"], lambda pd: pd.bmm(_f(pd), _f(pd)), "bmm"),
    ("where_shape_mismatch", ["where"],
     lambda pd: pd.where(pd.to_tensor([True, False]), _f(pd), pd.ones([4, 5])), "where"),
    ("cast_bad_dtype", ["cast"], lambda pd: pd.cast(_f(pd), "float17"), None),
    ("item_many_elements", ["Tensor.item"], lambda pd: _f(pd).item(), None),
    ("set_flags_not_dict", ["set_flags"], lambda pd: pd.set_flags("FLAGS_check_nan_inf"), "set_flags"),
    ("get_flags_unknown", ["get_flags"], lambda pd: pd.get_flags("FLAGS_no_such_flag"), "FLAGS_no_such_flag"),
    ("get_flags_bad_type", ["get_flags"], lambda pd: pd.get_flags(3), "get_flags"),
    ("set_device_unknown", ["set_device"], lambda pd: pd.set_device("tpu"), None),
    ("is_complex_not_tensor", ["is_complex"], lambda pd: pd.is_complex([1.0]), None),
    ("batch_zero_size", ["batch"], lambda pd: pd.batch(lambda: iter([1]), 0), "batch"),
    ("require_version_bad_type", ["utils.require_version"],
     lambda pd: pd.utils.require_version(2), "require_version"),
    ("try_import_missing", ["utils.try_import"],
     lambda pd: pd.utils.try_import("no_such_module_xyz"), "no_such_module_xyz"),
    ("grad_unused_input", ["grad"],
     lambda pd: pd.grad((_f(pd) * 2.0).sum(), [pd.to_tensor([1.0], stop_gradient=False)]), None),
    ("jacobian_batch_axis", ["autograd.jacobian"],
     lambda pd: pd.autograd.jacobian(_f(pd), _f(pd), batch_axis=1), "batch_axis"),
    ("xpu_place", ["device.XPUPlace"], lambda pd: pd.device.XPUPlace(0), None),
    ("softmax_bad_axis", ["nn.functional.softmax"],
     lambda pd: pd.nn.functional.softmax(_f(pd), axis=3), None),
    ("linear_shape_mismatch", ["nn.functional.linear"],
     lambda pd: pd.nn.functional.linear(_f(pd), pd.ones([4, 2])), None),
]


def _has(name: str) -> bool:
    obj = pagaie.Tensor if name.startswith("Tensor.") else pagaie
    for part in (name[len("Tensor."):] if name.startswith("Tensor.") else name).split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def test_table_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("case_id,needs,call,word", CASES, ids=[c[0] for c in CASES])
def test_bad_call_raises_like_paddle(case_id, needs, call, word):
    missing = [n for n in needs if not _has(n)]
    if missing:
        pytest.skip(f"not declared in pagaie yet: {missing}")
    exc = same_exception(call)
    msg = str(exc)
    assert msg, "empty error message"
    if word is not None:
        assert word in msg, f"the message should name {word!r}: {msg}"
