"""paddle.vision.transforms: pagaie vs real Paddle 3.3.1 on numpy (cv2), PIL and Tensor images."""
import random

import numpy as np
import pytest
from PIL import Image

import pagaie
from tests.reference import assert_same, paddle_ref

pytest.importorskip("cv2")

RS = np.random.RandomState(7)
IMG = RS.randint(0, 256, (10, 12, 3)).astype("uint8")     # HWC uint8
GRAY = RS.randint(0, 256, (10, 12, 1)).astype("uint8")
CHW = RS.rand(3, 10, 12).astype("float32")                 # CHW float


def _inputs(fw, kind):
    if kind == "np":
        return IMG.copy()
    if kind == "gray":
        return GRAY.copy()
    if kind == "pil":
        return Image.fromarray(IMG)
    return fw.to_tensor(CHW)


def _out(v):
    if isinstance(v, Image.Image):
        return np.asarray(v)
    if isinstance(v, tuple):
        return tuple(_out(e) for e in v)
    if hasattr(v, "numpy") and not isinstance(v, np.ndarray):
        return v.numpy()
    return np.asarray(v)


def check(call, kind, seed=3, atol=1e-5):
    """call(transforms_module, image) with both frameworks on the same image and seeds."""
    ref = paddle_ref()
    outs = []
    for fw in (pagaie, ref):
        random.seed(seed)
        np.random.seed(seed)
        outs.append(call(fw.vision.transforms, _inputs(fw, kind)))
    ours, theirs = outs
    if isinstance(theirs, Image.Image):
        assert isinstance(ours, Image.Image) and ours.mode == theirs.mode and ours.size == theirs.size
    if hasattr(theirs, "dtype") and not isinstance(theirs, np.ndarray):
        assert str(ours.dtype) == str(theirs.dtype)
    a, b = _out(ours), _out(theirs)
    assert a.shape == b.shape
    assert a.dtype == b.dtype
    np.testing.assert_allclose(a.astype("float64"), b.astype("float64"), atol=atol, rtol=1e-5)


KINDS = ["np", "pil", "tensor"]

FUNCTIONAL = {
    "hflip": lambda T, x: T.hflip(x),
    "vflip": lambda T, x: T.vflip(x),
    "resize_hw": lambda T, x: T.resize(x, (7, 9)),
    "resize_int": lambda T, x: T.resize(x, 5),
    "resize_nearest": lambda T, x: T.resize(x, (13, 17), "nearest"),
    "resize_bicubic": lambda T, x: T.resize(x, (6, 5), "bicubic"),
    "crop": lambda T, x: T.crop(x, 1, 2, 5, 6),
    "center_crop": lambda T, x: T.center_crop(x, (5, 7)),
    "pad_int": lambda T, x: T.pad(x, 2, fill=3),
    "pad_edge": lambda T, x: T.pad(x, (1, 2), padding_mode="edge"),
    "pad_reflect": lambda T, x: T.pad(x, [1, 2, 3, 4], padding_mode="reflect"),
    "rotate": lambda T, x: T.rotate(x, 30),
    "rotate_expand": lambda T, x: T.rotate(x, 45, expand=True),
    "rotate_center_bilinear": lambda T, x: T.rotate(x, -20, "bilinear", center=(3, 4)),
    "affine": lambda T, x: T.affine(x, 15, (1, 2), 1.2, (5, 3)),
    "affine_bilinear": lambda T, x: T.affine(x, -10, [0, 1], 0.9, 4.0, "bilinear"),
    "perspective": lambda T, x: T.perspective(x, [[0, 0], [11, 0], [11, 9], [0, 9]],
                                              [[1, 1], [10, 0], [11, 8], [0, 9]]),
    "to_grayscale": lambda T, x: T.to_grayscale(x),
    "to_grayscale3": lambda T, x: T.to_grayscale(x, 3),
    "brightness": lambda T, x: T.adjust_brightness(x, 1.4),
    "contrast": lambda T, x: T.adjust_contrast(x, 0.6),
    "hue": lambda T, x: T.adjust_hue(x, 0.2),
    "hue_neg": lambda T, x: T.adjust_hue(x, -0.35),
    "to_tensor": lambda T, x: T.to_tensor(x),
    "to_tensor_hwc": lambda T, x: T.to_tensor(x, "HWC"),
    "normalize": lambda T, x: T.normalize(x, [0.4, 0.5, 0.6], [0.2, 0.3, 0.4]),
    "normalize_hwc_rgb": lambda T, x: T.normalize(x, [1, 2, 3], [2, 3, 4], "HWC", True),
}
# Functions real Paddle cannot run on one backend (or that differ by design there).
SKIP = {("normalize", "np"): "CHW mean on HWC",
        ("normalize", "pil"): "CHW mean on HWC", ("normalize_hwc_rgb", "tensor"): "CHW tensor"}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(FUNCTIONAL))
def test_functional(name, kind):
    if (name, kind) in SKIP:
        pytest.skip(SKIP[name, kind])
    check(FUNCTIONAL[name], kind)


def test_functional_gray_numpy_keeps_channel():
    for name in ("hflip", "vflip", "resize_hw", "pad_int", "rotate", "brightness", "contrast", "perspective"):
        check(FUNCTIONAL[name], "gray")


U8T = RS.randint(0, 256, (3, 10, 12)).astype("uint8")
BATCH = RS.rand(2, 3, 10, 12).astype("float32")


@pytest.mark.parametrize("name", ["resize_hw", "resize_nearest", "hue", "crop", "to_tensor"])
def test_functional_uint8_tensor(name):
    ref = paddle_ref()
    a = FUNCTIONAL[name](pagaie.vision.transforms, pagaie.to_tensor(U8T))
    b = FUNCTIONAL[name](ref.vision.transforms, ref.to_tensor(U8T))
    assert str(a.dtype) == str(b.dtype)
    np.testing.assert_allclose(a.numpy().astype("int64"), b.numpy().astype("int64"), atol=1)


@pytest.mark.parametrize("name", ["hflip", "vflip", "affine", "perspective", "brightness", "hue"])
def test_functional_batched_tensor(name):
    ref = paddle_ref()
    a = FUNCTIONAL[name](pagaie.vision.transforms, pagaie.to_tensor(BATCH))
    b = FUNCTIONAL[name](ref.vision.transforms, ref.to_tensor(BATCH))
    np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-5)


def test_saturation_numpy_draws_like_paddle():
    check(lambda T, x: T.functional.adjust_saturation(x, 0.5), "np")
    check(lambda T, x: T.functional.adjust_saturation(x, 0.5), "pil")
    check(lambda T, x: T.functional.adjust_saturation(x, 1.7), "tensor")


def test_erase():
    check(lambda T, x: T.erase(x, 1, 2, 3, 4, 7), "np")
    check(lambda T, x: T.erase(x, 1, 2, 3, 4, np.array([1, 2, 3])), "pil")
    check(lambda T, x: T.erase(x, 1, 2, 3, 4, 0.5), "tensor")
    x = pagaie.to_tensor(CHW)
    assert pagaie.vision.transforms.erase(x, 0, 0, 2, 2, 0.0, inplace=True) is x
    assert float(x[:, :2, :2].abs().sum()) == 0.0


CLASSES = {
    "Compose": lambda T: T.Compose([T.Resize((8, 8)), T.CenterCrop(6), T.ToTensor()]),
    "Resize": lambda T: T.Resize(6),
    "CenterCrop": lambda T: T.CenterCrop(4),
    "RandomCrop": lambda T: T.RandomCrop((6, 7)),
    "RandomCrop_pad": lambda T: T.RandomCrop(12, padding=2, pad_if_needed=True),
    "RandomResizedCrop": lambda T: T.RandomResizedCrop(5),
    "RandomHorizontalFlip": lambda T: T.RandomHorizontalFlip(0.5),
    "RandomVerticalFlip": lambda T: T.RandomVerticalFlip(0.5),
    "Pad": lambda T: T.Pad([1, 2], fill=4),
    "Transpose": lambda T: T.Transpose(),
    "BrightnessTransform": lambda T: T.BrightnessTransform(0.4),
    "ContrastTransform": lambda T: T.ContrastTransform(0.4),
    "HueTransform": lambda T: T.HueTransform(0.3),
    "ColorJitter": lambda T: T.ColorJitter(0.4, 0.4, 0.0, 0.2),
    "RandomRotation": lambda T: T.RandomRotation(40),
    "RandomAffine": lambda T: T.RandomAffine(20, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(-5, 5, -3, 3)),
    "RandomPerspective": lambda T: T.RandomPerspective(prob=1.0),
    "Grayscale": lambda T: T.Grayscale(3),
    "RandomErasing": lambda T: T.RandomErasing(prob=1.0, value=(1, 2, 3)),
    "ToTensor": lambda T: T.ToTensor(),
    "Normalize": lambda T: T.Normalize(0.5, 0.25),
}
CLASS_SKIP = {("Normalize", "np"): "CHW mean on HWC", ("Normalize", "pil"): "CHW mean on HWC"}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(CLASSES))
@pytest.mark.parametrize("seed", [1, 5])
def test_classes(name, kind, seed):
    if (name, kind) in CLASS_SKIP:
        pytest.skip(CLASS_SKIP[name, kind])
    check(lambda T, x: CLASSES[name](T)(x), kind, seed=seed)


def test_flip_probability_extremes():
    T = pagaie.vision.transforms
    x = IMG.copy()
    np.testing.assert_array_equal(T.RandomHorizontalFlip(1.0)(x), x[:, ::-1])
    np.testing.assert_array_equal(T.RandomVerticalFlip(0.0)(x), x)
    assert T.RandomPerspective(prob=0.0)(x) is x


def test_keys_and_extra_inputs():
    T = pagaie.vision.transforms
    out = T.Resize((4, 4))((IMG, "label"))
    assert out[0].shape == (4, 4, 3) and out[1] == "label"
    with pytest.raises(NotImplementedError):
        T.Resize(4, keys=("boxes2",))


def test_random_erasing_tensor_random_value():
    T = pagaie.vision.transforms
    out = T.RandomErasing(prob=1.0, value="random")(pagaie.to_tensor(CHW))
    assert out.shape == [3, 10, 12]
    assert not np.allclose(out.numpy(), CHW)


def test_compose_repr_and_errors():
    T = pagaie.vision.transforms
    assert repr(T.Compose([T.Resize(3)])).startswith("Compose(\n")
    with pytest.raises(TypeError):
        T.hflip([1, 2, 3])
    with pytest.raises(ValueError):
        T.adjust_hue(IMG, 0.7)
    with pytest.raises(ValueError):
        T.ColorJitter(brightness=-1)(IMG)
    with pytest.raises(ValueError):
        T.Pad((1, 2, 3))
    with pytest.raises(ValueError):
        T.pad(pagaie.to_tensor(CHW), 1, padding_mode="symmetric")


def test_tensor_transforms_keep_gradients():
    x = pagaie.to_tensor(CHW, stop_gradient=False)
    y = pagaie.vision.transforms.rotate(pagaie.vision.transforms.resize(x, (8, 8)), 10, "bilinear")
    y.sum().backward()
    assert x.grad is not None and x.grad.shape == [3, 10, 12]


def test_image_backend():
    ref = paddle_ref()
    assert pagaie.vision.get_image_backend() == ref.vision.get_image_backend() == "pil"
    pagaie.vision.set_image_backend("cv2")
    assert pagaie.vision.get_image_backend() == "cv2"
    pagaie.vision.set_image_backend("pil")
    with pytest.raises(ValueError):
        pagaie.vision.set_image_backend("foo")


def test_image_load(tmp_path):
    ref = paddle_ref()
    path = str(tmp_path / "x.png")
    Image.fromarray(IMG).save(path)
    for backend in ("pil", "cv2"):
        a, b = pagaie.vision.image_load(path, backend), ref.vision.image_load(path, backend)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert pagaie.vision.image_load(path, "tensor") is None


def test_namespace_matches_paddle():
    ref = paddle_ref()
    assert sorted(pagaie.vision.transforms.__all__) == sorted(ref.vision.transforms.__all__)
    for n in ref.vision.transforms.__all__:
        assert hasattr(pagaie.vision.transforms, n), n
    assert_same(1, 1)
