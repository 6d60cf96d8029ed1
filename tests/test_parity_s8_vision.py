"""Session-8 sweep of paddle.vision.transforms and paddle.vision.ops against real Paddle 3.3.1."""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

RNG = np.random.RandomState(8)
CHW = RNG.rand(3, 7, 9).astype("float32")
X = RNG.normal(0, 1, (2, 8, 10, 10)).astype("float32")
BOXES = np.array([[1, 1, 5, 5], [0, 0, 7, 7], [2, 1, 6, 3], [3.5, 2.2, 9, 8.7]], "float32")
NUM = np.array([1, 3], "int32")
NMS_BOXES = np.concatenate([RNG.uniform(0, 30, (20, 2)), np.zeros((20, 2))], 1).astype("float32")
NMS_BOXES[:, 2:] = NMS_BOXES[:, :2] + RNG.uniform(3, 12, (20, 2))
NMS_SCORES = RNG.rand(20).astype("float32")
NMS_CATS = RNG.randint(0, 3, 20).astype("int64")


def _t(fw, a):
    return fw.to_tensor(a)


# erase on a Tensor image: a value that does not broadcast to the erased region is Paddle's ValueError.

@pytest.mark.parametrize("value", [
    lambda fw: fw.to_tensor([1.0, 2.0, 3.0]),
    lambda fw: fw.to_tensor(np.ones((2, 3, 3, 4), "float32")),
    lambda fw: np.ones(2, "float32"),
], ids=["tensor_3", "tensor_4d", "ndarray_2"])
def test_erase_tensor_value_not_broadcastable_is_value_error(value):
    same_exception(lambda fw: fw.vision.transforms.erase(fw.to_tensor(CHW), 1, 2, 3, 4, value(fw)))


@pytest.mark.parametrize("value", [
    lambda fw: fw.to_tensor([1.0, 2.0, 3.0, 4.0]),
    lambda fw: fw.to_tensor([[[1.0]], [[2.0]], [[3.0]]]),
    lambda fw: np.ones(4, "float32"),
], ids=["tensor_row", "tensor_per_channel", "ndarray_row"])
def test_erase_tensor_broadcast_value(value):
    ours, theirs = both(lambda fw: fw.vision.transforms.erase(fw.to_tensor(CHW), 1, 2, 3, 4, value(fw)))
    assert_same(ours, theirs)


# nms: bad boxes/scores/top_k are Paddle's ValueErrors.

@pytest.mark.parametrize("call", [
    lambda fw: fw.vision.ops.nms(NMS_BOXES, 0.3),
    lambda fw: fw.vision.ops.nms(_t(fw, NMS_BOXES), 0.3, _t(fw, NMS_SCORES[:, None])),
    lambda fw: fw.vision.ops.nms(_t(fw, NMS_BOXES), 0.3, _t(fw, NMS_SCORES), _t(fw, NMS_CATS), [0, 1, 2], 0),
    lambda fw: fw.vision.ops.nms(_t(fw, NMS_BOXES), 0.3, _t(fw, NMS_SCORES), _t(fw, NMS_CATS), [0, 1, 2], -2),
    lambda fw: fw.vision.ops.nms(_t(fw, NMS_BOXES), 0.3, _t(fw, NMS_SCORES), _t(fw, NMS_CATS), [7], 3),
], ids=["ndarray_boxes", "scores_2d", "top_k_0", "top_k_negative", "nothing_kept_top_k"])
def test_nms_bad_input_is_value_error(call):
    assert str(same_exception(call)).startswith("paddle.vision.ops.nms")


@pytest.mark.parametrize("cats,top_k", [([0], 1), ([0, 2], 4), ([7], None)])
def test_nms_categories_top_k(cats, top_k):
    ours, theirs = both(lambda fw: fw.vision.ops.nms(_t(fw, NMS_BOXES), 0.3, _t(fw, NMS_SCORES),
                                                     _t(fw, NMS_CATS), cats, top_k))
    assert_same(ours, theirs)


# read_file: a str path only; an empty file is a [0] uint8 tensor.

def test_read_file_empty_file(tmp_path):
    path = tmp_path / "empty.bin"
    path.write_bytes(b"")
    ours, theirs = both(lambda fw: fw.vision.ops.read_file(str(path)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("arg", [lambda p: 3, lambda p: str(p).encode(), lambda p: p], ids=["int", "bytes", "Path"])
def test_read_file_non_str_is_type_error(tmp_path, arg):
    path = tmp_path / "f.bin"
    path.write_bytes(b"\x01\x02")
    same_exception(lambda fw: fw.vision.ops.read_file(arg(path)))


# RoI ops refuse spatial_scale <= 0 (roi_pool with Paddle's OutOfRange: IndexError).

@pytest.mark.parametrize("scale", [0.0, -1.0])
@pytest.mark.parametrize("call", [
    lambda fw, s: fw.vision.ops.roi_align(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), 2, s),
    lambda fw, s: fw.vision.ops.roi_pool(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), 2, s),
    lambda fw, s: fw.vision.ops.psroi_pool(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), 2, s),
    lambda fw, s: fw.vision.ops.RoIPool(2, s)(_t(fw, X), _t(fw, BOXES), _t(fw, NUM)),
], ids=["roi_align", "roi_pool", "psroi_pool", "RoIPool"])
def test_roi_nonpositive_spatial_scale(call, scale):
    assert "spatial_scale" in str(same_exception(lambda fw: call(fw, scale)))


# distribute_fpn_proposals reads only the RoIs rois_num counts; more than there are is IndexError.

FPN_ROIS = np.array([[0, 0, 10, 10], [0, 0, 100, 100], [5, 5, 300, 300], [1, 1, 30, 50]], "float32")


def test_distribute_fpn_proposals_reads_counted_rois_only():
    ours, theirs = both(lambda fw: fw.vision.ops.distribute_fpn_proposals(
        _t(fw, FPN_ROIS), 2, 5, 4, 224, rois_num=_t(fw, np.array([1, 1], "int32"))))
    assert_same(list(ours[0]) + [ours[1]] + list(ours[2]), list(theirs[0]) + [theirs[1]] + list(theirs[2]))


def test_distribute_fpn_proposals_too_many_counted_is_index_error():
    same_exception(lambda fw: fw.vision.ops.distribute_fpn_proposals(
        _t(fw, FPN_ROIS), 2, 5, 4, 224, rois_num=_t(fw, np.array([3, 3], "int32"))))



# Batched (4-D) Tensor images: pad only in 'constant' mode; the unsupported-image error names paddle.Tensor.

BATCH = RNG.rand(2, 3, 7, 9).astype("float32")


@pytest.mark.parametrize("mode", ["edge", "reflect"])
def test_pad_batched_tensor_non_constant_is_assertion_error(mode):
    same_exception(lambda fw: fw.vision.transforms.pad(fw.to_tensor(BATCH), (1, 2), padding_mode=mode))


def test_pad_batched_tensor_constant():
    ours, theirs = both(lambda fw: fw.vision.transforms.pad(fw.to_tensor(BATCH), (1, 2), fill=3))
    assert_same(ours, theirs)


def test_two_dim_tensor_image_error_names_paddle_tensor():
    msg = str(same_exception(lambda fw: fw.vision.transforms.functional.adjust_saturation(fw.to_tensor(BATCH[0, 0]), 1.5)))
    assert "paddle.Tensor" in msg
