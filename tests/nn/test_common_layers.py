"""Common layers against real Paddle: outputs, parameter gradients, input gradients, reprs."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.nn.helpers import compare_layer
from tests.reference import both, paddle_ref, same_exception

rng = np.random.default_rng(0)


def _x(*shape, dtype="float32"):
    return rng.standard_normal(shape).astype(dtype)


CASES = [
    ("linear", lambda nn: nn.Linear(3, 5), [_x(4, 3)]),
    ("linear_nobias", lambda nn: nn.Linear(3, 5, bias_attr=False), [_x(2, 4, 3)]),
    ("linear_named", lambda nn: nn.Linear(3, 2, name="fc"), [_x(2, 3)]),
    ("bilinear", lambda nn: nn.Bilinear(3, 4, 5), [_x(2, 3), _x(2, 4)]),
    ("embedding", lambda nn: nn.Embedding(10, 4), [np.array([[1, 2], [9, 0]], "int64")]),
    ("embedding_pad", lambda nn: nn.Embedding(10, 4, padding_idx=2),
     [np.array([2, 3, 2], "int64")]),
    ("dropout_eval", lambda nn: nn.Dropout(0.4).eval(), [_x(3, 4)]),
    ("dropout_axis", lambda nn: nn.Dropout(0.4, axis=1, mode="downscale_in_infer").eval(), [_x(3, 4)]),
    ("dropout2d", lambda nn: nn.Dropout2D(0.3).eval(), [_x(2, 3, 4, 4)]),
    ("dropout3d", lambda nn: nn.Dropout3D(0.3).eval(), [_x(2, 3, 2, 2, 2)]),
    ("alpha_dropout", lambda nn: nn.AlphaDropout(0.3).eval(), [_x(3, 4)]),
    ("feature_alpha_dropout", lambda nn: nn.FeatureAlphaDropout(0.3).eval(), [_x(2, 3, 4)]),
    ("identity", lambda nn: nn.Identity(3, foo=1), [_x(3, 4)]),
    ("pad1d", lambda nn: nn.Pad1D([1, 2], mode="reflect"), [_x(2, 3, 5)]),
    ("pad2d", lambda nn: nn.Pad2D(1, value=2.0), [_x(2, 3, 4, 4)]),
    ("pad3d", lambda nn: nn.Pad3D([1, 0, 0, 1, 1, 1], mode="replicate"), [_x(1, 2, 3, 3, 3)]),
    ("zeropad1d", lambda nn: nn.ZeroPad1D(2), [_x(2, 3, 5)]),
    ("zeropad2d", lambda nn: nn.ZeroPad2D([1, 0, 2, 1]), [_x(2, 3, 4, 4)]),
    ("zeropad3d", lambda nn: nn.ZeroPad3D(1), [_x(1, 2, 2, 2, 2)]),
    ("constantpad2d", lambda nn: nn.ConstantPad2D(1, 3.0), [_x(1, 2, 3, 3)]),
    ("reflectionpad2d", lambda nn: nn.ReflectionPad2D([1, 1, 2, 0]), [_x(1, 2, 4, 4)]),
    ("replicationpad1d", lambda nn: nn.ReplicationPad1D(2, data_format="NLC"), [_x(1, 5, 3)]),
    ("circularpad2d", lambda nn: nn.CircularPad2D(1), [_x(1, 2, 3, 3)]),
    ("circularpad3d", lambda nn: nn.CircularPad3d(1), [_x(1, 2, 3, 3, 3)]),
    ("upsample_nearest", lambda nn: nn.Upsample(scale_factor=2), [_x(1, 2, 3, 3)]),
    ("upsample_bilinear", lambda nn: nn.Upsample(size=[5, 7], mode="bilinear", align_corners=True),
     [_x(1, 2, 3, 3)]),
    ("upsample_linear", lambda nn: nn.Upsample(scale_factor=1.5, mode="linear", data_format="NCW"),
     [_x(1, 2, 4)]),
    ("upsampling_nearest2d", lambda nn: nn.UpsamplingNearest2D(scale_factor=2), [_x(1, 2, 3, 3)]),
    ("upsampling_bilinear2d", lambda nn: nn.UpsamplingBilinear2D(size=[4, 5]), [_x(1, 2, 3, 3)]),
    ("pixel_shuffle", lambda nn: nn.PixelShuffle(2), [_x(1, 8, 2, 3)]),
    ("pixel_shuffle_nhwc", lambda nn: nn.PixelShuffle(2, data_format="NHWC"), [_x(1, 2, 3, 8)]),
    ("pixel_unshuffle", lambda nn: nn.PixelUnshuffle(2), [_x(1, 2, 4, 4)]),
    ("channel_shuffle", lambda nn: nn.ChannelShuffle(3), [_x(1, 6, 2, 2)]),
    ("unfold", lambda nn: nn.Unfold([2, 2], strides=2), [_x(1, 3, 4, 4)]),
    ("fold", lambda nn: nn.Fold([4, 5], [2, 2]), [_x(1, 8, 12)]),
    ("cosine_similarity", lambda nn: nn.CosineSimilarity(axis=0), [_x(3, 4), _x(3, 4)]),
    ("pairwise_distance", lambda nn: nn.PairwiseDistance(p=1.0, epsilon=1e-5, keepdim=True),
     [_x(3, 4), _x(3, 4)]),
]


@pytest.mark.parametrize("build,arrays", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_layer_matches_paddle(build, arrays):
    compare_layer(build, arrays)


def test_flatten_unflatten():
    if not hasattr(pagaie, "flatten") or not hasattr(pagaie, "unflatten"):
        pytest.skip("paddle.flatten / paddle.unflatten not built yet")
    compare_layer(lambda nn: nn.Flatten(), [_x(2, 3, 4)])
    compare_layer(lambda nn: nn.Flatten(0, 1), [_x(2, 3, 4)])
    compare_layer(lambda nn: nn.Unflatten(1, [2, 3]), [_x(4, 6)])


def test_linear_weight_layout_and_default_init():
    fc = pagaie.nn.Linear(300, 200)
    assert fc.weight.shape == [300, 200] and fc.bias.shape == [200]
    assert not fc.bias.numpy().any()
    limit = np.sqrt(6 / 500)
    w = fc.weight.numpy()
    assert abs(w).max() <= limit and abs(w.std() - limit / np.sqrt(3)) < 0.003


def test_embedding_padding_row_and_grad():
    emb = pagaie.nn.Embedding(5, 3, padding_idx=-2)
    assert emb._padding_idx == -2 and not emb.weight.numpy()[3].any()  # kept as given, as in Paddle
    out = emb(pagaie.to_tensor([[3, 1]]))
    out.sum().backward()
    g = emb.weight.grad.numpy()
    assert not g[3].any() and g[1].tolist() == [1.0, 1.0, 1.0]


def test_embedding_sparse_forward():
    compare_layer(lambda nn: nn.Embedding(10, 4, padding_idx=2, sparse=True), [np.array([2, 3, 2], "int64")],
                  grad=False)


def test_embedding_weight_and_freeze():
    w = pagaie.to_tensor(np.arange(6, dtype="float32").reshape(3, 2))
    emb = pagaie.nn.Embedding(3, 2, _weight=w, _freeze=True)
    assert emb.weight.numpy().tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]] and emb.weight.stop_gradient


def test_dropout_training_statistics():
    x = pagaie.ones([200, 200])
    d = pagaie.nn.Dropout(0.3)
    y = d(x).numpy()
    assert np.all(np.isclose(y, 0.0) | np.isclose(y, 1 / 0.7))
    assert abs((y == 0).mean() - 0.3) < 0.02
    y = pagaie.nn.Dropout(0.3, axis=0)(x).numpy()
    assert all(len(set(row)) == 1 for row in y[:20])  # whole rows kept or dropped
    y = pagaie.nn.Dropout2D(0.5)(pagaie.ones([4, 50, 3, 3])).numpy()
    assert all(len(np.unique(y[i, c])) == 1 for i in range(4) for c in range(50))
    y = pagaie.nn.AlphaDropout(0.2)(pagaie.to_tensor(np.random.randn(500, 500).astype("float32"))).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.03


@pytest.mark.parametrize("case", [
    lambda fw: fw.nn.functional.dropout(fw.ones([2]), p=1.5),
    lambda fw: fw.nn.functional.dropout(fw.ones([2]), mode="bad"),
    lambda fw: fw.nn.functional.dropout(fw.ones([2, 2]), axis=[3]),
    lambda fw: fw.nn.functional.embedding(fw.to_tensor([5]), fw.ones([3, 2])),
    lambda fw: fw.nn.functional.embedding(fw.to_tensor([1]), fw.ones([3, 2]), padding_idx=7),
    lambda fw: fw.nn.functional.one_hot(fw.to_tensor([1, 7]), 4),
    lambda fw: fw.nn.functional.pad(fw.ones([2, 3]), [1, 1], mode="reflect"),
    lambda fw: fw.nn.functional.pad(fw.ones([1, 2, 3]), [1, 0, 1, 1, 1, 1], mode="reflect"),
    lambda fw: fw.nn.functional.pad(fw.ones([1, 2, 3]), [1, 1], mode="bad"),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2]), size=[3, 3], scale_factor=2),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2])),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2]), size=[3, 3], mode="linear"),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2]), size=[3], mode="nearest"),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2]), size=[3, 3], align_corners=True),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2]), size=[3, 3], mode="bilinear",
                                            align_mode=2),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2]), size=[3], mode="bilinear"),
    lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2]), size=[3], mode="linear", data_format="NCHW"),
    lambda fw: fw.nn.functional.pixel_shuffle(fw.ones([1, 3, 2, 2]), 2),
    lambda fw: fw.nn.functional.channel_shuffle(fw.ones([1, 4, 2, 2]), 3),
    lambda fw: fw.nn.functional.label_smooth(fw.ones([2, 2]), epsilon=1.5),
    lambda fw: fw.nn.Embedding(0, 2),
], ids=["dropout_p", "dropout_mode", "dropout_axis", "embedding_oob",
        "embedding_padding_idx", "one_hot_oob", "pad_reflect_2d", "pad_reflect_len", "pad_mode",
        "interp_both", "interp_none", "interp_linear_rank", "interp_nearest_rank", "interp_nearest_corners",
        "interp_align_mode", "interp_size_len", "interp_format", "pixel_shuffle", "channel_shuffle",
        "label_smooth_eps", "embedding_zero"])
def test_errors_match_paddle(case):
    same_exception(case)


def test_one_hot_and_pad_tensor_arguments():
    def get(fw):
        a = fw.nn.functional.one_hot(fw.to_tensor([1, 3]), fw.to_tensor(4)).numpy().tolist()
        b = fw.nn.functional.pad(fw.ones([1, 1, 2, 2]), fw.to_tensor([1, 0, 0, 1], dtype='int32')).numpy().tolist()
        c = fw.nn.functional.interpolate(fw.ones([1, 1, 2, 2]), size=fw.to_tensor([3, 4])).shape
        return a, b, list(c)
    ours, theirs = both(get)
    assert ours == theirs


def test_parameter_names_and_attrs():
    paddle = paddle_ref()

    def get(fw):
        attr = fw.ParamAttr(learning_rate=0.5, trainable=False, need_clip=False)
        fc = fw.nn.Linear(2, 2, weight_attr=attr, bias_attr=False)
        return (fc.bias is None, fc.weight.stop_gradient, fc.weight.trainable, fc.weight.need_clip,
                fc.weight.optimize_attr["learning_rate"], [n for n, _ in fc.named_parameters()])
    ours, theirs = both(get)
    assert ours == theirs
    del paddle
