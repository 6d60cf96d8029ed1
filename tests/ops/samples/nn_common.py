from tests.ops.samples import FLOATS, INTS, OpSample, T

F = "nn.functional."


def _s(name, *args, **kw):
    ident = kw.pop("id", "")
    opts = {k: kw.pop(k) for k in ("dtypes", "grad", "rtol", "atol") if k in kw}
    return OpSample(F + name, list(args), kw, id=ident, **opts)


SAMPLES = [
    _s("linear", T((4, 3)), T((3, 5)), T((5,))),
    _s("linear", T((2, 4, 3)), T((3, 5)), id="linear_3d_nobias"),
    _s("linear", T((3,)), T((3, 2)), T((2,)), id="linear_1d"),
    _s("bilinear", T((4, 3)), T((4, 2)), T((5, 3, 2)), T((1, 5))),
    _s("dropout", T((3, 4)), 0.5, training=False, id="dropout_eval"),
    _s("dropout", T((3, 4)), 0.3, training=False, mode="downscale_in_infer", id="dropout_downscale_eval"),
    _s("dropout", T((3, 4)), 0.0, id="dropout_p0"),
    _s("dropout2d", T((2, 3, 4, 4)), 0.5, training=False),
    _s("dropout3d", T((2, 3, 2, 2, 2)), 0.5, training=False),
    _s("alpha_dropout", T((3, 4)), 0.5, training=False),
    _s("feature_alpha_dropout", T((2, 3, 4)), 0.5, training=False),
    _s("embedding", T((2, 3), kind="index", high=6, dtype="int64", grad=False), T((6, 4))),
    _s("embedding", T((5,), kind="index", high=6, dtype="int32", grad=False), T((6, 4)), padding_idx=2,
       id="embedding_padding"),
    _s("embedding", T((5,), kind="index", high=6, dtype="int64", grad=False), T((6, 4)), padding_idx=-1,
       id="embedding_padding_neg"),
    _s("one_hot", T((2, 3), kind="index", high=5), 5, dtypes=INTS, grad=False),
    _s("cosine_similarity", T((3, 4)), T((3, 4))),
    _s("cosine_similarity", T((3, 4, 2)), T((3, 4, 2)), axis=2, id="cosine_similarity_axis"),
    _s("pairwise_distance", T((3, 4)), T((3, 4))),
    _s("pairwise_distance", T((3, 4)), T((3, 4)), p=1.0, keepdim=True, id="pairwise_distance_p1"),
    _s("pairwise_distance", T((3, 4)), T((3, 4)), p=float("inf"), id="pairwise_distance_inf"),
    _s("pairwise_distance", T((4,)), T((4,)), p=3.0, id="pairwise_distance_1d"),
    _s("normalize", T((3, 4))),
    _s("normalize", T((3, 4)), p=1, axis=0, id="normalize_p1"),
    _s("normalize", T((5,)), axis=0, id="normalize_1d"),
    _s("label_smooth", T((3, 4), kind="unit")),
    _s("label_smooth", T((2, 3, 4), kind="unit"), epsilon=0.3, id="label_smooth_eps"),
    _s("label_smooth", T((3, 4), kind="unit"), T((1, 4), kind="unit"), id="label_smooth_prior"),
    # padding
    _s("pad", T((2, 3, 4)), [1, 2]),
    _s("pad", T((2, 3, 4)), [1, 0, 0, 2], value=1.5, id="pad_4_values"),
    _s("pad", T((2, 3)), [1, 0, 0, 2], id="pad_2d_from_left"),
    _s("pad", T((2, 3)), [1, 0, 0, 2], pad_from_left_axis=False, id="pad_2d_from_right"),
    _s("pad", T((2, 3, 4, 5)), [1, 2, 0, 0, 0, 0, 0, 0], id="pad_4d_all_dims"),
    _s("pad", T((2, 3, 4, 5)), [1, 1, 2, 0], mode="reflect", id="pad_reflect_2d"),
    _s("pad", T((2, 4, 5, 3)), [1, 1, 2, 0], mode="reflect", data_format="NHWC", id="pad_reflect_nhwc"),
    _s("pad", T((2, 3, 5)), [2, 1], mode="replicate", id="pad_replicate_1d"),
    _s("pad", T((2, 3, 4, 5)), [1, 1, 1, 1], mode="circular", id="pad_circular_2d"),
    _s("pad", T((1, 2, 3, 4, 5)), [1, 0, 2, 0, 0, 1], mode="reflect", id="pad_reflect_3d"),
    _s("pad", T((1, 2, 3, 4, 5)), [1, 0, 2, 0, 0, 1], id="pad_constant_3d"),
    _s("pad", T((1, 2, 5), dtype="int64", grad=False), [1, 1], value=3, dtypes=("int64",), id="pad_int"),
    _s("zeropad2d", T((1, 2, 3, 3)), [1, 0, 2, 1]),
    # resampling
    _s("interpolate", T((1, 2, 3, 4)), size=[5, 7], mode="nearest", id="interp_nearest"),
    _s("interpolate", T((1, 2, 3, 4)), scale_factor=1.7, mode="nearest", id="interp_nearest_scale"),
    _s("interpolate", T((1, 2, 3, 4)), size=[5, 7], mode="bilinear", id="interp_bilinear"),
    _s("interpolate", T((1, 2, 3, 4)), size=[5, 7], mode="bilinear", align_corners=True,
       id="interp_bilinear_corners"),
    _s("interpolate", T((1, 2, 3, 4)), size=[5, 7], mode="bilinear", align_mode=1, id="interp_bilinear_mode1"),
    _s("interpolate", T((1, 2, 4, 6)), scale_factor=[0.5, 1.5], mode="bilinear", id="interp_bilinear_scale"),
    _s("interpolate", T((1, 3, 4, 2)), size=[6, 5], mode="bilinear", data_format="NHWC",
       id="interp_bilinear_nhwc"),
    _s("interpolate", T((1, 2, 5)), size=[8], mode="linear", id="interp_linear"),
    _s("interpolate", T((1, 2, 5)), scale_factor=2, mode="linear", align_mode=1, id="interp_linear_mode1"),
    _s("interpolate", T((1, 2, 3, 3, 4)), size=[4, 5, 6], mode="trilinear", id="interp_trilinear"),
    _s("interpolate", T((1, 2, 3, 3, 4)), size=[4, 5, 6], mode="trilinear", align_corners=True,
       id="interp_trilinear_corners"),
    _s("interpolate", T((1, 2, 3, 3, 4)), scale_factor=2, mode="nearest", id="interp_nearest_3d"),
    _s("interpolate", T((1, 2, 4, 5)), size=[6, 8], mode="bicubic", id="interp_bicubic", rtol=1e-4, atol=1e-5),
    _s("interpolate", T((1, 2, 4, 5)), size=[6, 8], mode="bicubic", align_corners=True,
       id="interp_bicubic_corners", rtol=1e-4, atol=1e-5),
    _s("interpolate", T((1, 2, 6, 8)), size=[3, 5], mode="area", id="interp_area"),
    _s("upsample", T((1, 2, 3, 4)), scale_factor=2, mode="nearest"),
    _s("pixel_shuffle", T((2, 8, 3, 3)), 2),
    _s("pixel_shuffle", T((2, 3, 3, 8)), 2, data_format="NHWC", id="pixel_shuffle_nhwc"),
    _s("pixel_unshuffle", T((2, 2, 4, 6)), 2),
    _s("channel_shuffle", T((2, 6, 2, 2)), 3),
    _s("channel_shuffle", T((2, 2, 2, 6)), 2, data_format="NHWC", id="channel_shuffle_nhwc"),
    _s("unfold", T((2, 3, 5, 5)), [2, 3]),
    _s("unfold", T((2, 3, 5, 5)), 2, strides=2, paddings=1, dilations=1, id="unfold_args"),
    _s("unfold", T((1, 2, 4, 4)), 2, paddings=[1, 0, 1, 0], id="unfold_asym"),
    _s("fold", T((2, 12, 9)), [4, 4], 2),
    _s("fold", T((1, 8, 24)), [5, 5], [2, 2], strides=1, paddings=[1, 0, 1, 0], id="fold_4pads"),
]

del FLOATS
