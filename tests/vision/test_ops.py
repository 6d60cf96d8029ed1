"""paddle.vision.ops against real Paddle 3.3.1 on random detection inputs."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref

RNG = np.random.default_rng(0)


def _boxes(n, lo=0.0, hi=50.0, smin=5.0, smax=20.0, rng=RNG):
    xy = rng.uniform(lo, hi, (n, 2))
    return np.concatenate([xy, xy + rng.uniform(smin, smax, (n, 2))], 1).astype("float32")


def _both(fn, *arrays):
    """Run ``fn(ops, *tensors)`` in both frameworks; returns (ours, theirs)."""
    ref = paddle_ref()
    return (fn(pagaie.vision.ops, *[pagaie.to_tensor(a) for a in arrays]),
            fn(ref.vision.ops, *[ref.to_tensor(a) for a in arrays]))


def check(fn, *arrays, rtol=1e-5, atol=1e-5):
    ours, theirs = _both(fn, *arrays)
    assert_same(ours, theirs, rtol=rtol, atol=atol)


BOXES = _boxes(30)
SCORES = RNG.uniform(0, 1, 30).astype("float32")
CATS = RNG.integers(0, 3, 30).astype("int64")


@pytest.mark.parametrize("kw", [{}, {"scores": True}, {"cats": [0, 1, 2], "top_k": 10}, {"cats": [0, 1]}])
def test_nms(kw):
    def fn(ops, b, s, c):
        if not kw:
            return ops.nms(b, 0.3)
        if "cats" not in kw:
            return ops.nms(b, 0.3, s)
        return ops.nms(b, 0.4, s, c, kw["cats"], kw.get("top_k"))
    check(fn, BOXES, SCORES, CATS)


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("var", ["tensor", "list"])
def test_box_coder(normalized, var):
    prior, target = BOXES[:5], BOXES[5:12]
    pv = RNG.uniform(0.1, 0.3, (5, 4)).astype("float32")
    d0 = RNG.normal(0, 0.5, (7, 5, 4)).astype("float32")
    d1 = RNG.normal(0, 0.5, (5, 7, 4)).astype("float32")

    def v(pvt):
        return pvt if var == "tensor" else [0.1, 0.2, 0.3, 0.4]
    check(lambda ops, p, t, pvt: ops.box_coder(p, v(pvt), t, box_normalized=normalized), prior, target, pv)
    check(lambda ops, p, t, pvt: ops.box_coder(p, v(pvt), t, "decode_center_size", normalized, 0), prior, d0, pv)
    check(lambda ops, p, t, pvt: ops.box_coder(p, v(pvt), t, "decode_center_size", normalized, 1), prior, d1, pv)


@pytest.mark.parametrize("kw", [
    {"min_sizes": [4.0]},
    {"min_sizes": [4.0, 8.0], "max_sizes": [9.0, 16.0], "aspect_ratios": [2.0, 3.0], "flip": True, "clip": True},
    {"min_sizes": [4.0, 8.0], "max_sizes": [9.0, 16.0], "aspect_ratios": [2.0], "flip": True,
     "min_max_aspect_ratios_order": True, "steps": [8.0, 9.0], "offset": 0.3},
])
def test_prior_box(kw):
    check(lambda ops, f, i: ops.prior_box(f, i, **kw), np.zeros((1, 4, 3, 5), "float32"),
          np.zeros((1, 3, 30, 50), "float32"))


@pytest.mark.parametrize("kw", [{}, {"clip_bbox": False, "scale_x_y": 1.2}, {"iou_aware": True, "iou_aware_factor": 0.4}])
def test_yolo_box(kw):
    ch = 6 + 3 if kw.get("iou_aware") else 5 + 3
    x = RNG.normal(0, 1, (2, 2 * ch, 4, 5)).astype("float32")
    size = np.array([[64, 80], [50, 60]], "int32")
    check(lambda ops, a, s: ops.yolo_box(a, s, [10, 13, 16, 30], 3, 0.4, 16, **kw), x, size)


FEAT = RNG.normal(0, 1, (2, 8, 12, 14)).astype("float32")
ROIS = np.array([[1, 1, 10, 8], [0.5, 2.3, 7.7, 11.2], [3, 3, 3.5, 4], [-2, -1, 20, 15], [4, 5, 13, 11]], "float32")
ROIS_NUM = np.array([2, 3], "int32")


@pytest.mark.parametrize("kw", [{"output_size": 2}, {"output_size": (3, 2), "spatial_scale": 0.5, "sampling_ratio": 2},
                                {"output_size": 3, "aligned": False},
                                {"output_size": (2, 3), "spatial_scale": 0.7, "aligned": False}])
def test_roi_align(kw):
    check(lambda ops, x, b, n: ops.roi_align(x, b, n, **kw), FEAT, ROIS, ROIS_NUM)


def test_roi_align_grad_and_layer():
    # Paddle's backward disagrees with its own forward on RoIs smaller than a bin
    # (ROIS[2] here); pagaie's gradient is the forward's true one, so compare without it.
    ref = paddle_ref()
    rois, nums = ROIS[[0, 1, 3, 4]], np.array([2, 2], "int32")
    grads = []
    for fw in (pagaie, ref):
        x = fw.to_tensor(FEAT)
        x.stop_gradient = False
        out = fw.vision.ops.RoIAlign((2, 3), 0.5)(x, fw.to_tensor(rois), fw.to_tensor(nums))
        (out * out).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kw", [{"output_size": 2}, {"output_size": (3, 2), "spatial_scale": 0.5},
                                {"output_size": 4, "spatial_scale": 0.7}])
def test_roi_pool(kw):
    check(lambda ops, x, b, n: ops.roi_pool(x, b, n, **kw), FEAT, ROIS, ROIS_NUM)
    check(lambda ops, x, b, n: ops.RoIPool(kw["output_size"], kw.get("spatial_scale", 1.0))(x, b, n),
          FEAT, ROIS, ROIS_NUM)


@pytest.mark.parametrize("kw", [{"output_size": 2}, {"output_size": (2, 1), "spatial_scale": 0.5},
                                {"output_size": 2, "spatial_scale": 0.7}])
def test_psroi_pool(kw):
    check(lambda ops, x, b, n: ops.psroi_pool(x, b, n, **kw), FEAT, ROIS, ROIS_NUM)
    check(lambda ops, x, b, n: ops.PSRoIPool(kw["output_size"], kw.get("spatial_scale", 1.0))(x, b, n),
          FEAT, ROIS, ROIS_NUM)


@pytest.mark.parametrize("kw", [{"stride": 1, "padding": 1, "groups": 2, "deformable_groups": 2},
                                {"stride": 2, "padding": (1, 0), "dilation": (1, 2), "groups": 1,
                                 "deformable_groups": 1}])
@pytest.mark.parametrize("modulated", [False, True])
def test_deform_conv2d(kw, modulated):
    ref = paddle_ref()
    x = RNG.normal(0, 1, (2, 4, 7, 6)).astype("float32")
    w = RNG.normal(0, 1, (6, 4 // kw["groups"], 3, 3)).astype("float32")
    b = RNG.normal(0, 1, 6).astype("float32")
    shape = ref.nn.functional.conv2d(ref.to_tensor(x), ref.to_tensor(w), stride=kw["stride"], padding=kw["padding"],
                                     dilation=kw.get("dilation", 1), groups=kw["groups"]).shape
    dg = kw["deformable_groups"]
    off = RNG.normal(0, 1.5, (2, 2 * dg * 9, shape[2], shape[3])).astype("float32")
    m = RNG.uniform(0, 1, (2, dg * 9, shape[2], shape[3])).astype("float32")
    grads = []
    outs = []
    for fw in (pagaie, ref):
        ts = [fw.to_tensor(a) for a in (x, off, w, b, m)]
        for t in ts:
            t.stop_gradient = False
        out = fw.vision.ops.deform_conv2d(ts[0], ts[1], ts[2], ts[3], mask=ts[4] if modulated else None, **kw)
        (out * out).sum().backward()
        outs.append(out)
        grads.append([t.grad.numpy() for t in ts[:4]])
    assert_same(outs[0], outs[1], rtol=1e-4, atol=1e-4)
    for g0, g1 in zip(*grads):
        np.testing.assert_allclose(g0, g1, rtol=1e-3, atol=1e-3)


def test_deform_conv2d_layer():
    ref = paddle_ref()
    layers = [fw.vision.ops.DeformConv2D(4, 6, 3, stride=1, padding=1, deformable_groups=2, groups=2)
              for fw in (pagaie, ref)]
    assert [(k, list(v.shape)) for k, v in layers[0].state_dict().items()] == \
        [(k, list(v.shape)) for k, v in layers[1].state_dict().items()]
    layers[0].set_state_dict({k: v.numpy() for k, v in layers[1].state_dict().items()})
    x = RNG.normal(0, 1, (1, 4, 5, 5)).astype("float32")
    off = RNG.normal(0, 1, (1, 36, 5, 5)).astype("float32")
    assert_same(layers[0](pagaie.to_tensor(x), pagaie.to_tensor(off)),
                layers[1](ref.to_tensor(x), ref.to_tensor(off)), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("pixel_offset", [False, True])
def test_distribute_fpn_proposals(pixel_offset):
    rois = _boxes(12, 0, 300, 1, 250)
    check(lambda ops, r, n: ops.distribute_fpn_proposals(r, 2, 5, 4, 224, pixel_offset, n), rois,
          np.array([5, 7], "int32"))


@pytest.mark.parametrize("kw", [{}, {"pre_nms_top_n": 20, "post_nms_top_n": 7, "nms_thresh": 0.4, "min_size": 2.0,
                                     "pixel_offset": True},
                                {"eta": 0.8, "nms_thresh": 0.7, "pre_nms_top_n": 30}])
def test_generate_proposals(kw):
    rng = np.random.default_rng(1)
    n, a, h, w = 2, 3, 4, 5
    scores = rng.uniform(0, 1, (n, a, h, w)).astype("float32")
    deltas = rng.normal(0, 0.5, (n, 4 * a, h, w)).astype("float32")
    size = np.array([[40, 50], [30, 45]], "float32")
    base = np.array([[-4, -4, 4, 4], [-8, -4, 8, 4], [-6, -10, 6, 10]], "float32")
    ctr = np.stack(np.meshgrid(np.arange(w) * 8 + 4, np.arange(h) * 8 + 4), -1).astype("float32")
    anchors = np.concatenate([ctr[:, :, None, :] + base[None, None, :, :2],
                              ctr[:, :, None, :] + base[None, None, :, 2:]], -1)
    var = (np.full((h, w, a, 4), [0.1, 0.1, 0.2, 0.2]) + rng.uniform(0, 0.1, (h, w, a, 4))).astype("float32")
    check(lambda ops, *t: ops.generate_proposals(*t, return_rois_num=True, **kw), scores, deltas, size, anchors, var)


@pytest.mark.parametrize("kw", [{}, {"use_gaussian": True, "gaussian_sigma": 3.0, "return_index": True},
                                {"background_label": -1, "normalized": False, "return_index": True,
                                 "return_rois_num": False}])
def test_matrix_nms(kw):
    rng = np.random.default_rng(2)
    xy = rng.uniform(0, 0.6, (2, 20, 2))
    boxes = np.concatenate([xy, xy + rng.uniform(0.05, 0.4, (2, 20, 2))], -1).astype("float32")
    scores = rng.uniform(0, 1, (2, 4, 20)).astype("float32")
    check(lambda ops, b, s: ops.matrix_nms(b, s, 0.3, 0.2, 10, 15, **kw), boxes, scores)
    check(lambda ops, b, s: ops.matrix_nms(b, s, 0.99999, 0.2, 10, 15, return_index=True), boxes, scores)


def test_read_file_and_decode_jpeg(tmp_path):
    from PIL import Image
    ref = paddle_ref()
    img = (np.random.default_rng(3).uniform(0, 255, (5, 7, 3))).astype("uint8")
    path = str(tmp_path / "a.jpg")
    Image.fromarray(img).save(path)
    data = pagaie.vision.ops.read_file(path)
    assert_same(data, ref.vision.ops.read_file(path))
    decoded = np.asarray(Image.open(path))
    out = pagaie.vision.ops.decode_jpeg(data)
    assert str(out.dtype) == "paddle.uint8"
    np.testing.assert_array_equal(out.numpy(), decoded.transpose(2, 0, 1))
    gray = pagaie.vision.ops.decode_jpeg(data, mode="gray")
    np.testing.assert_array_equal(gray.numpy()[0], np.asarray(Image.open(path).convert("L")))


def test_public_names_and_signatures():
    ref = paddle_ref()
    assert sorted(pagaie.vision.ops.__all__) == sorted(ref.vision.ops.__all__)
    for name in ref.vision.ops.__all__:
        a, b = getattr(pagaie.vision.ops, name), getattr(ref.vision.ops, name)
        pa = [(k, v.default) for k, v in inspect.signature(a).parameters.items()]
        pb = [(k, v.default) for k, v in inspect.signature(b).parameters.items()]
        assert pa == pb, name
