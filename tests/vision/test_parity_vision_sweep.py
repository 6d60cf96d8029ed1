"""paddle.vision transforms, datasets and ops: edge cases found by a sweep against real Paddle 3.3.1."""
import os
import random

import numpy as np
import pytest
from PIL import Image

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

RS = np.random.RandomState(17)
CHW = RS.rand(3, 10, 12).astype("float32")
CHW64 = CHW.astype("float64")
U8 = RS.randint(0, 256, (3, 10, 12)).astype("uint8")
IMG = RS.randint(0, 256, (10, 12, 3)).astype("uint8")
GRAY = RS.randint(0, 256, (10, 12)).astype("uint8")
PTS = ([[0, 0], [11, 0], [11, 9], [0, 9]], [[1, 1], [10, 0], [11, 8], [0, 9]])


# normalize on Tensors builds mean/std with paddle.to_tensor and subtracts: Paddle's promotion rules apply.

@pytest.mark.parametrize("img", [CHW, U8], ids=["float32", "uint8"])
@pytest.mark.parametrize("call", [
    lambda T, x: T.normalize(x, [1, 2, 3], [2, 3, 4]),                 # int64 mean
    lambda T, x: T.normalize(x, 1, 2),
    lambda T, x: T.normalize(x, [1, 2.0, 3], [2, 3, 4]),               # float mean, int std
    lambda T, x: T.Normalize([1, 2, 3], [2, 3, 4])(x),
    lambda T, x: T.normalize(x, [1, 2, 3], [2, 3, 4], "CHW", True),
], ids=["int_list", "int_scalar", "int_std", "class", "to_rgb"])
def test_normalize_integer_stats_are_type_errors(img, call):
    same_exception(lambda fw: call(fw.vision.transforms, fw.to_tensor(img)))


@pytest.mark.parametrize("call", [
    lambda T, x: T.normalize(x, 0.5, 0.25),
    lambda T, x: T.Normalize()(x),
], ids=["float_scalar", "default"])
def test_normalize_uint8_tensor_is_type_error(call):
    same_exception(lambda fw: call(fw.vision.transforms, fw.to_tensor(U8)))


@pytest.mark.parametrize("img", [CHW, CHW64], ids=["float32", "float64"])
@pytest.mark.parametrize("stats", [
    (0.5, 2.0), ([0.1, 0.2, 0.3], [0.5, 0.6, 0.7]),
    (np.array([1., 2, 3]), np.array([2., 3, 4])),                            # float64 arrays promote
    (np.array([1., 2, 3], "float32"), np.array([2., 3, 4], "float32")),
], ids=["scalar", "list", "np64", "np32"])
def test_normalize_tensor_result_dtype(img, stats):
    ours, theirs = both(lambda fw: fw.vision.transforms.normalize(fw.to_tensor(img), *stats))
    assert_same(ours, theirs)


# erase on Tensors: Paddle's __setitem__ rules for the value.

@pytest.mark.parametrize("img", [CHW, U8], ids=["float32", "uint8"])
@pytest.mark.parametrize("v", [(1, 2, 3), [1, 2, 3]], ids=["tuple", "list"])
def test_erase_tensor_sequence_value_is_value_error(img, v):
    same_exception(lambda fw: fw.vision.transforms.erase(fw.to_tensor(img), 1, 2, 3, 4, v))


def test_erase_tensor_numpy_value():
    v = np.array([1., 2, 3]).reshape(3, 1, 1)
    ours, theirs = both(lambda fw: fw.vision.transforms.erase(fw.to_tensor(CHW), 1, 2, 3, 4, v))
    assert_same(ours, theirs)
    same_exception(lambda fw: fw.vision.transforms.erase(fw.to_tensor(U8), 1, 2, 3, 4, v))


# Grid-sampled warps of Tensor images.

WARPS = {
    "rotate": lambda T, x, m: T.rotate(x, 33, m),
    "rotate_expand": lambda T, x, m: T.rotate(x, 60, m, expand=True, center=(2, 3)),
    "affine": lambda T, x, m: T.affine(x, 25, (2, -1), 0.8, 5, m),
    "perspective": lambda T, x, m: T.perspective(x, *PTS, m),
}


@pytest.mark.parametrize("mode", ["bicubic", "area", "foo"])
@pytest.mark.parametrize("img", [CHW, CHW[:1], U8], ids=["chw", "one_channel", "uint8"])
@pytest.mark.parametrize("name", sorted(WARPS))
def test_warp_mode_other_than_grid_sample_is_value_error(name, img, mode):
    same_exception(lambda fw: WARPS[name](fw.vision.transforms, fw.to_tensor(img), mode))


@pytest.mark.parametrize("mode", ["nearest", "bicubic"])
@pytest.mark.parametrize("name", sorted(WARPS))
def test_warp_2d_tensor_is_index_error(name, mode):
    same_exception(lambda fw: WARPS[name](fw.vision.transforms, fw.to_tensor(CHW[0]), mode))


@pytest.mark.parametrize("name", sorted(WARPS))
def test_warp_empty_tensor(name):
    ours, theirs = both(lambda fw: WARPS[name](fw.vision.transforms, fw.zeros([3, 0, 5]), "nearest"))
    assert_same(ours, theirs)


def test_warp_batched_tensor():
    x = RS.rand(2, 3, 6, 7).astype("float32")
    for name in ("affine", "perspective"):
        ours, theirs = both(lambda fw: WARPS[name](fw.vision.transforms, fw.to_tensor(x), "bilinear"))
        assert_same(ours, theirs, atol=1e-5)


# resize / crop argument errors on Tensor images.

@pytest.mark.parametrize("size", [-3, (0, 3)])
def test_resize_tensor_nonpositive_size_is_assertion_error(size):
    same_exception(lambda fw: fw.vision.transforms.resize(fw.to_tensor(CHW), size))


def test_resize_empty_tensor_int_size_is_not_implemented():
    same_exception(lambda fw: fw.vision.transforms.resize(fw.zeros([3, 0, 5]), 3))


def test_crop_tensor_float_index_is_value_error():
    same_exception(lambda fw: fw.vision.transforms.crop(fw.to_tensor(CHW), 0.5, 0, 2, 2))


# RandomErasing on 2-D (HW) images: Paddle fails reading the channel count.

@pytest.mark.parametrize("kind", ["np", "pil"])
def test_random_erasing_2d_image_is_index_error(kind):
    def call(fw):
        random.seed(0)
        np.random.seed(0)
        img = GRAY.copy() if kind == "np" else Image.fromarray(GRAY)
        return fw.vision.transforms.RandomErasing(prob=1.0)(img)
    same_exception(call)


# paddle.vision.ops.read_file: a missing file.

def test_read_file_missing_is_runtime_error(tmp_path):
    exc = same_exception(lambda fw: fw.vision.ops.read_file(str(tmp_path / "nope.bin")))
    assert isinstance(exc, FileNotFoundError) and "nope.bin" in str(exc)


# Behaviours the sweep found already equal, pinned so they stay so.

def _out(v):
    if isinstance(v, Image.Image):
        return ("PIL", v.mode, v.size, np.asarray(v))
    if isinstance(v, np.ndarray):
        return ("np", str(v.dtype), v.shape, v)
    return ("T", str(v.dtype).replace("paddle.", ""), tuple(v.shape), v.numpy())


@pytest.mark.parametrize("mode", ["I", "F", "1", "RGBA", "P", "LA", "I;16"])
@pytest.mark.parametrize("fn", [
    lambda T, x: T.to_tensor(x),
    lambda T, x: T.to_tensor(x, "HWC"),
    lambda T, x: T.resize(x, (3, 7)),
    lambda T, x: T.to_grayscale(x, 3),
    lambda T, x: T.pad(x, 1, padding_mode="reflect"),
    lambda T, x: T.rotate(x, 20, fill=2),
], ids=["to_tensor", "to_tensor_hwc", "resize", "gray3", "pad_reflect", "rotate_fill"])
def test_pil_modes(mode, fn):
    arrays = {"I": RS.randint(0, 70000, (4, 5)).astype("int32"), "F": RS.rand(4, 5).astype("float32"),
              "1": RS.rand(4, 5) > 0.5, "RGBA": RS.randint(0, 256, (4, 5, 4)).astype("uint8"),
              "P": GRAY[:4, :5], "LA": RS.randint(0, 256, (4, 5, 4)).astype("uint8"),
              "I;16": RS.randint(0, 60000, (4, 5)).astype("uint16")}

    def pic():
        img = Image.fromarray(arrays[mode])
        return img.convert(mode) if mode in ("P", "LA") else img
    ref = paddle_ref()
    try:
        theirs = _out(fn(ref.vision.transforms, pic()))
    except Exception:  # noqa: BLE001  (Pillow itself refuses some fills for some modes)
        same_exception(lambda fw: fn(fw.vision.transforms, pic()))
        return
    ours = _out(fn(pagaie.vision.transforms, pic()))
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(np.asarray(ours[3], "float64"), np.asarray(theirs[3], "float64"), atol=1e-6)


def test_base_transform_keys_and_compose():
    def run(fw):
        T = fw.vision.transforms

        class My(T.BaseTransform):
            def _get_params(self, inputs):
                return len(inputs) if isinstance(inputs, (list, tuple)) else 1

            def _apply_image(self, img):
                return ("img", np.asarray(img).shape, self.params)

            def _apply_boxes(self, b):
                return ("boxes", b)

            def _apply_mask(self, m):
                return ("mask", m)
        calls = [lambda: My()(IMG), lambda: My()((IMG, 3)), lambda: My()([IMG, 3]),
                 lambda: My(keys=("image", "boxes", "mask"))((IMG, 1, 2)),
                 lambda: My(keys=("image", "boxes", "mask"))((IMG, 1)), lambda: My(keys=("image",))((IMG, 1, 2)),
                 lambda: My(keys=("image", "label"))((IMG, 1)),
                 lambda: [type(x).__name__ for x in T.Compose([T.Resize(4), T.ToTensor()])((IMG, 7))],
                 lambda: [type(x).__name__ for x in T.ToTensor(keys=("image", "mask"))((IMG, GRAY))]]
        outs = []
        for call in calls:
            try:
                outs.append(repr(call()))
            except Exception as exc:  # noqa: BLE001
                outs.append(type(exc).__name__)
        return outs
    ours, theirs = both(run)
    assert ours == theirs


@pytest.fixture()
def folders(tmp_path):
    rs = np.random.RandomState(0)

    def save(path, ext=".png", shape=(5, 4, 3)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        Image.fromarray(rs.randint(0, 256, shape).astype("uint8")).save(path + ext)
    root, flat = tmp_path / "root", tmp_path / "flat"
    for c in ["b", "A", "a", "10", "2"]:
        for i in range(2):
            save(f"{root}/{c}/{i}")
    save(f"{root}/a/deep/x", ".JPG")
    save(f"{root}/a/g", ".png", (5, 4))
    (root / "a" / "t.txt").write_text("hello")
    for i in range(3):
        save(f"{flat}/{i}")
    save(f"{flat}/sub/z")
    return str(root), str(flat)


def test_dataset_folder_options(folders):
    root, flat = folders

    def run(fw):
        D = fw.vision.datasets

        def rel(samples):
            return [(os.path.relpath(p, root), t) if isinstance(p, str) else (os.path.relpath(p[0], root), p[1])
                    for p in [(s if isinstance(s, tuple) else (s, None)) for s in samples]]
        df = D.DatasetFolder(root)
        return repr([
            df.classes, df.class_to_idx, rel(df.samples), df.targets,
            rel(D.DatasetFolder(root, extensions=(".jpg", ".txt")).samples),
            rel(D.DatasetFolder(root, is_valid_file=lambda p: p.endswith("1.png")).samples),
            D.DatasetFolder(root, loader=os.path.basename)[0],
            [(x.mode, x.size) if hasattr(x, "mode") else x
             for x in D.DatasetFolder(root, is_valid_file=lambda p: p.endswith("g.png"))[0]],
            rel(D.ImageFolder(flat, is_valid_file=lambda p: "1" in p).samples),
            D.ImageFolder(flat, loader=lambda p: 5, transform=lambda x: x + 1)[0],
        ])
    ours, theirs = both(run)
    assert ours == theirs
