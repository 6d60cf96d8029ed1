"""Differential tests against real Paddle: uint8 linear resampling (interpolate and the
Tensor form of vision.transforms.resize), the public vision.transforms.functional_tensor
module over Tensors, and the argument errors of the Tensor transforms."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _both(fn):
    """fn(module) for Paddle and pagaie: (value or exception type) for each."""
    out = []
    for m in (paddle, pagaie):
        try:
            out.append(fn(m))
        except Exception as exc:  # noqa: BLE001 - the type is what is compared
            out.append(type(exc))
    return out


# --- uint8 linear / bilinear / trilinear interpolate ----------------------------------------

_UINT8_CASES = [
    # (input shape, size, mode, align_corners, align_mode)
    ((1, 2, 6, 8), [3, 5], "bilinear", False, 0),
    ((1, 2, 3, 5), [14, 12], "bilinear", False, 1),
    ((1, 2, 8, 9), [15, 14], "bilinear", True, 1),
    ((1, 2, 7, 8), [11, 8], "bilinear", True, 0),
    ((1, 2, 9), [13], "linear", False, 0),
    ((1, 2, 9), [5], "linear", True, 0),
    ((1, 2, 9), [4], "linear", False, 1),
    ((1, 2, 4, 5, 6), [7, 3, 9], "trilinear", False, 0),
    ((1, 2, 4, 5, 6), [5, 8, 4], "trilinear", True, 1),
]


@pytest.mark.parametrize("shape,size,mode,align_corners,align_mode", _UINT8_CASES)
def test_uint8_linear_interpolate_matches_paddle(shape, size, mode, align_corners, align_mode):
    x = np.random.RandomState(sum(shape) + sum(size)).randint(0, 256, shape).astype("uint8")
    kw = dict(size=size, mode=mode, align_corners=align_corners, align_mode=align_mode)
    want, got = (m.nn.functional.interpolate(m.to_tensor(x), **kw) for m in (paddle, pagaie))
    assert str(got.dtype).endswith("uint8")
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_uint8_bilinear_scale_factor_channel_last_matches_paddle():
    x = np.random.RandomState(3).randint(0, 256, (1, 5, 7, 3)).astype("uint8")
    kw = dict(scale_factor=1.5, mode="bilinear", data_format="NHWC")
    want, got = (m.nn.functional.interpolate(m.to_tensor(x), **kw) for m in (paddle, pagaie))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("size", [(3, 5), (5, 7), (12, 10)])
def test_resize_of_uint8_tensor_image_matches_paddle(size):
    x = np.random.RandomState(0).randint(0, 256, (6, 8, 3)).astype("uint8").transpose(2, 0, 1)
    want, got = (m.vision.transforms.resize(m.to_tensor(x), size) for m in (paddle, pagaie))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


# --- functional_tensor over Tensors ---------------------------------------------------------

_IMG = np.random.RandomState(1).rand(3, 6, 8).astype("float32")
_FT_CALLS = {
    "hflip": lambda F, t: F.hflip(t),
    "vflip_hwc": lambda F, t: F.vflip(t.transpose([1, 2, 0]), "HWC"),
    "pad": lambda F, t: F.pad(t, (1, 2), fill=0.5),
    "resize": lambda F, t: F.resize(t, (3, 5)),
    "to_grayscale": lambda F, t: F.to_grayscale(t, 3),
    "adjust_brightness": lambda F, t: F.adjust_brightness(t, 1.3),
    "adjust_contrast": lambda F, t: F.adjust_contrast(t, 0.6),
    "adjust_saturation": lambda F, t: F.adjust_saturation(t, 1.4),
    "adjust_hue": lambda F, t: F.adjust_hue(t, 0.2),
    "rotate": lambda F, t: F.rotate(t, 30, expand=True, fill=[0.1, 0.2, 0.3]),
    "perspective": lambda F, t: F.perspective(t, [1, 0.1, 0, 0.1, 1, 0, 0.01, 0.01], "bilinear"),
    "crop": lambda F, t: F.crop(t, 1, 2, 3, 4),
    "center_crop": lambda F, t: F.center_crop(t, 3),
    "normalize": lambda F, t: F.normalize(t, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]),
}


@pytest.mark.parametrize("name", sorted(_FT_CALLS))
def test_functional_tensor_takes_tensors(name):
    want, got = (_FT_CALLS[name](m.vision.transforms.functional_tensor, m.to_tensor(_IMG))
                 for m in (paddle, pagaie))
    assert isinstance(got, pagaie.Tensor)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("inplace", [False, True])
def test_functional_tensor_erase_inplace(inplace):
    def run(m):
        img = m.to_tensor(_IMG)
        out = m.vision.transforms.functional_tensor.erase(img, 1, 2, 3, 2, 0.0, inplace=inplace)
        return out.numpy(), img.numpy()
    (want_out, want_img), (got_out, got_img) = run(paddle), run(pagaie)
    np.testing.assert_array_equal(got_out, want_out)
    np.testing.assert_array_equal(got_img, want_img)


# --- argument errors of the Tensor transforms -----------------------------------------------

def test_warp_fill_per_channel_mismatch_is_value_error():
    img = np.random.RandomState(2).rand(1, 6, 8).astype("float32")
    want, got = _both(lambda m: m.vision.transforms.affine(m.to_tensor(img), 10, (1, 1), 1.0, 0,
                                                           fill=(1, 2, 3)))
    assert want is got is ValueError
    with pytest.raises(ValueError, match=r"paddle\.vision\.transforms\.affine: fill"):
        pagaie.vision.transforms.affine(pagaie.to_tensor(img), 10, (1, 1), 1.0, 0, fill=(1, 2, 3))


@pytest.mark.parametrize("call,api", [
    (lambda T, t: T.to_grayscale(t, 2), "to_grayscale"),
    (lambda T, t: T.pad(t, 1, fill="a"), "pad"),
    (lambda T, t: T.pad(t, (1, 2, 3)), "pad"),
])
def test_tensor_transform_argument_errors_name_the_api(call, api):
    img = np.zeros((3, 4, 4), "float32")
    want, got = _both(lambda m: call(m.vision.transforms, m.to_tensor(img)))
    assert want is got is ValueError
    with pytest.raises(ValueError, match=rf"^paddle\.vision\.transforms\.{api}: "):
        call(pagaie.vision.transforms, pagaie.to_tensor(img))
