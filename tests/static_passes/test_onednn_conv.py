"""Inference convolutions through oneDNN with prepacked weights (``_ops/onednn_conv.py``)."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from pagaie._ops.onednn_conv import prepacked_conv2d

pytestmark = pytest.mark.skipif(not torch.backends.mkldnn.is_available(),
                                reason="oneDNN is not available in this torch build")


def _ref(x, w, b, r, stride, padding, dilation, groups, act):
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    if r is not None:
        y = y + r
    return torch.relu(y) if act == "relu" else y


@pytest.mark.parametrize("stride,padding,dilation,groups", [
    (1, 0, 1, 1), (2, 1, 1, 1), ([1, 2], [1, 0], 1, 1), (1, 2, 2, 1), (1, 1, 1, 4),
    (1, [1, 1, 2, 2], 1, 1)])
@pytest.mark.parametrize("act", [None, "relu"])
@pytest.mark.parametrize("residual", [False, True])
def test_matches_aten_convolution(stride, padding, dilation, groups, act, residual):
    torch.manual_seed(0)
    x = torch.randn(2, 8, 11, 9)
    w = torch.randn(12, 8 // groups, 3, 3)
    b = torch.randn(12)
    pad = padding if not (isinstance(padding, list) and len(padding) == 4) else \
        [padding[0], padding[2]]
    ref = _ref(x, w, b, None, stride, pad, dilation, groups, None)
    r = torch.randn_like(ref) if residual else None
    ref = _ref(x, w, b, r, stride, pad, dilation, groups, act)
    with torch.no_grad():
        out = prepacked_conv2d(x, w, b, r, stride, padding, dilation, groups, "NCHW", act)
    assert out is not None and out.shape == ref.shape
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)


def test_repacks_after_the_weight_changes():
    x, w = torch.randn(1, 3, 6, 6), torch.randn(4, 3, 3, 3)
    with torch.no_grad():
        first = prepacked_conv2d(x, w, None, None, 1, 1, 1, 1, "NCHW", None)
        w.mul_(2.0)                                    # in place: a new version
        second = prepacked_conv2d(x, w, None, None, 1, 1, 1, 1, "NCHW", None)
        bigger = torch.randn(2, 3, 7, 7)               # another input shape
        third = prepacked_conv2d(bigger, w, None, None, 1, 1, 1, 1, "NCHW", None)
    torch.testing.assert_close(second, 2 * first, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(third, F.conv2d(bigger, w, None, 1, 1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("case", ["grad", "float64", "nhwc", "asymmetric", "same", "gelu",
                                  "residual_shape"])
def test_declines_what_it_does_not_handle(case):
    x, w = torch.randn(1, 3, 6, 6), torch.randn(4, 3, 3, 3)
    args = dict(x=x, weight=w, bias=None, residual=None, stride=1, padding=1, dilation=1,
                groups=1, data_format="NCHW", act=None)
    if case == "grad":
        args["weight"] = w.requires_grad_()
        assert prepacked_conv2d(**args) is None
        return
    args.update({"float64": dict(x=x.double(), weight=w.double()),
                 "nhwc": dict(data_format="NHWC"),
                 "asymmetric": dict(padding=[1, 0, 1, 1]),
                 "same": dict(padding="SAME"),
                 "gelu": dict(act="gelu"),
                 "residual_shape": dict(residual=torch.randn(1, 4, 5, 5))}[case])
    with torch.no_grad():
        assert prepacked_conv2d(**args) is None
