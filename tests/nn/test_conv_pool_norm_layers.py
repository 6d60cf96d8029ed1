"""Conv, pooling and normalisation layers vs real Paddle: parameters (names, shapes,
default initialisers' statistics), outputs, gradients, reprs and BatchNorm running stats."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.nn.helpers import compare_layer, copy_params
from tests.reference import paddle_ref

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype("float32")


@pytest.mark.parametrize("build,shape", [
    (lambda nn: nn.Conv1D(3, 4, 3, padding=1), (2, 3, 7)),
    (lambda nn: nn.Conv2D(3, 4, [3, 2], stride=2, padding="SAME"), (2, 3, 7, 6)),
    (lambda nn: nn.Conv2D(4, 6, 3, groups=2, bias_attr=False, data_format="NHWC"), (2, 5, 5, 4)),
    (lambda nn: nn.Conv2D(3, 4, 3, padding=1, padding_mode="reflect"), (1, 3, 5, 5)),
    (lambda nn: nn.Conv3D(2, 3, 2, stride=[1, 2, 1]), (1, 2, 3, 4, 3)),
    (lambda nn: nn.Conv1DTranspose(3, 2, 3, stride=2), (2, 3, 5)),
    (lambda nn: nn.Conv2DTranspose(3, 4, 3, stride=2, padding=1, output_padding=1), (2, 3, 4, 4)),
    (lambda nn: nn.Conv3DTranspose(2, 2, 2, stride=2), (1, 2, 2, 2, 2)),
])
def test_conv_layers(build, shape):
    compare_layer(build, [_x(*shape)], rtol=1e-4, atol=1e-5)


def test_conv_default_init_statistics():
    pagaie.seed(1)
    conv = pagaie.nn.Conv2D(16, 32, 3)
    std = float(conv.weight.numpy().std())
    assert abs(std - (2.0 / (16 * 9)) ** 0.5) < 0.01
    assert float(np.abs(conv.bias.numpy()).max()) == 0.0


def test_conv_transpose_output_size_forward():
    compare_layer(lambda nn: nn.Conv2DTranspose(3, 2, 3, stride=2), [_x(1, 3, 4, 4)],
                  rtol=1e-4, atol=1e-5, output_size=[10, 10])


@pytest.mark.parametrize("build,shape", [
    (lambda nn: nn.MaxPool1D(3, 2, 1), (2, 3, 9)),
    (lambda nn: nn.MaxPool2D(3, 2, padding=[1, 0, 0, 1], ceil_mode=True), (2, 3, 7, 6)),
    (lambda nn: nn.MaxPool2D(2, return_mask=True), (2, 3, 6, 6)),
    (lambda nn: nn.MaxPool3D(2), (1, 2, 4, 4, 4)),
    (lambda nn: nn.AvgPool1D(3, 2, 1, exclusive=False), (2, 3, 9)),
    (lambda nn: nn.AvgPool2D(3, 2, 1, divisor_override=3), (2, 3, 7, 6)),
    (lambda nn: nn.AvgPool3D(2, ceil_mode=True), (1, 2, 5, 4, 3)),
    (lambda nn: nn.AdaptiveAvgPool1D(4), (2, 3, 9)),
    (lambda nn: nn.AdaptiveAvgPool2D([2, 3]), (2, 3, 7, 6)),
    (lambda nn: nn.AdaptiveAvgPool3D(2), (1, 2, 4, 4, 4)),
    (lambda nn: nn.AdaptiveMaxPool1D(3, return_mask=True), (2, 3, 9)),
    (lambda nn: nn.AdaptiveMaxPool2D(3), (2, 3, 7, 6)),
    (lambda nn: nn.AdaptiveMaxPool3D(2), (1, 2, 4, 4, 4)),
    (lambda nn: nn.LPPool1D(2, 3, 2), (2, 3, 9)),
    (lambda nn: nn.LPPool2D(3, 2), (2, 3, 6, 6)),
    (lambda nn: nn.FractionalMaxPool2D(3, kernel_size=2, random_u=0.3), (1, 2, 7, 7)),
    (lambda nn: nn.FractionalMaxPool3D(2, kernel_size=2, random_u=0.6), (1, 1, 5, 5, 5)),
])
def test_pool_layers(build, shape):
    x = np.abs(_x(*shape)) + 0.1
    compare_layer(build, [x], rtol=1e-4, atol=1e-5)


def test_max_unpool_layers():
    paddle = paddle_ref()
    x = _x(1, 2, 4, 4)
    for fw in (pagaie, paddle):
        out, mask = fw.nn.MaxPool2D(2, return_mask=True)(fw.to_tensor(x))
        y = fw.nn.MaxUnPool2D(2)(out, mask)
        if fw is pagaie:
            ours = y.numpy()
        else:
            np.testing.assert_allclose(ours, y.numpy())
    assert repr(pagaie.nn.MaxUnPool2D(2)) == repr(paddle.nn.MaxUnPool2D(2))


@pytest.mark.parametrize("build,shape", [
    (lambda nn: nn.LayerNorm([4, 3]), (2, 5, 4, 3)),
    (lambda nn: nn.LayerNorm(3, elementwise_affine=False), (2, 3)),
    (lambda nn: nn.GroupNorm(2, 4), (2, 4, 3, 3)),
    (lambda nn: nn.InstanceNorm1D(3), (2, 3, 5)),
    (lambda nn: nn.InstanceNorm2D(3, weight_attr=False, bias_attr=False), (2, 3, 4, 4)),
    (lambda nn: nn.InstanceNorm3D(2), (1, 2, 2, 3, 3)),
    (lambda nn: nn.LocalResponseNorm(3), (2, 5, 3, 3)),
])
def test_norm_layers(build, shape):
    compare_layer(build, [_x(*shape)], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("build,shape", [
    (lambda nn: nn.BatchNorm1D(3), (6, 3)),
    (lambda nn: nn.BatchNorm1D(3, momentum=0.5, data_format="NLC"), (4, 5, 3)),
    (lambda nn: nn.BatchNorm2D(3), (4, 3, 2, 2)),
    (lambda nn: nn.BatchNorm2D(3, data_format="NHWC", epsilon=1e-3), (4, 2, 2, 3)),
    (lambda nn: nn.BatchNorm3D(2, use_global_stats=True), (2, 2, 2, 2, 2)),
    (lambda nn: nn.BatchNorm(3, act="relu"), (4, 3, 2, 2)),
])
def test_batch_norm_training_running_stats(build, shape):
    """Several training steps, then eval: outputs, grads and running stats agree."""
    paddle = paddle_ref()
    ours, theirs = compare_layer(build, [_x(*shape)], rtol=1e-4, atol=1e-5, train=True)
    for _ in range(3):
        x = _x(*shape)
        a, b = ours(pagaie.to_tensor(x)), theirs(paddle.to_tensor(x))
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5)
    for k, v in theirs.state_dict().items():
        np.testing.assert_allclose(ours.state_dict()[k].numpy(), v.numpy(), rtol=1e-5, atol=1e-6,
                                   err_msg=k)
    ours.eval()
    theirs.eval()
    x = _x(*shape)
    np.testing.assert_allclose(ours(pagaie.to_tensor(x)).numpy(), theirs(paddle.to_tensor(x)).numpy(),
                               rtol=1e-4, atol=1e-5)


def test_batch_norm_parameters_like_paddle():
    paddle = paddle_ref()
    for build in (lambda nn: nn.BatchNorm2D(3), lambda nn: nn.BatchNorm(3),
                  lambda nn: nn.BatchNorm2D(3, weight_attr=False, bias_attr=False)):
        ours, theirs = build(pagaie.nn), build(paddle.nn)
        assert [(n, p.stop_gradient) for n, p in ours.named_parameters()] == \
            [(n, p.stop_gradient) for n, p in theirs.named_parameters()]
        assert list(ours.state_dict()) == list(theirs.state_dict())


def test_sync_batch_norm_single_process_is_batch_norm():
    # Real Paddle has no CPU kernel for SyncBatchNorm: compare with BatchNorm1D instead.
    sync, plain = pagaie.nn.SyncBatchNorm(3), pagaie.nn.BatchNorm1D(3)
    sync.set_state_dict(plain.state_dict())
    for _ in range(2):
        x = pagaie.to_tensor(_x(4, 3, 5))
        np.testing.assert_allclose(sync(x).numpy(), plain(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(sync._mean.numpy(), plain._mean.numpy(), rtol=1e-6)
    assert repr(sync) == repr(paddle_ref().nn.SyncBatchNorm(3))


def test_convert_sync_batchnorm():
    net = pagaie.nn.Sequential(pagaie.nn.Conv2D(3, 4, 3), pagaie.nn.BatchNorm2D(4))
    w = net[1].weight
    conv = pagaie.nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert isinstance(conv[1], pagaie.nn.SyncBatchNorm)
    assert conv[1].weight is w
    assert list(conv.state_dict()) == list(net.state_dict())


def test_spectral_norm_layer():
    paddle = paddle_ref()
    theirs = paddle.nn.SpectralNorm([3, 4, 2], dim=1, power_iters=3)
    ours = pagaie.nn.SpectralNorm([3, 4, 2], dim=1, power_iters=3)
    copy_params(theirs, ours)
    w = _x(3, 4, 2)
    np.testing.assert_allclose(ours(pagaie.to_tensor(w)).numpy(), theirs(paddle.to_tensor(w)).numpy(),
                               rtol=1e-4, atol=1e-5)


def test_rms_norm_functional():
    x = _x(2, 3, 4)
    w = _x(3, 4)
    out = pagaie.nn.functional.rms_norm(pagaie.to_tensor(x), [3, 4], pagaie.to_tensor(w), 1e-5)[0].numpy()
    ref = x / np.sqrt((x ** 2).mean(axis=(1, 2), keepdims=True) + 1e-5) * w
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)
