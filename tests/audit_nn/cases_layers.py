"""Layer cases: every class of ``paddle.nn`` built with several constructor patterns."""
from __future__ import annotations

import numpy as np

from tests.audit_nn.cases_functional import ints, pos, probs
from tests.audit_nn.harness import E, L


def _act_layers():
    A = []
    for n in ("ReLU", "ReLU6", "Sigmoid", "Tanh", "SiLU", "Silu", "Mish", "Softsign", "Tanhshrink",
              "LogSigmoid", "Hardsigmoid", "Hardswish", "SELU", "ELU", "CELU", "GELU", "Softplus",
              "Softshrink", "Hardshrink", "Hardtanh", "LeakyReLU", "Swish", "ThresholdedReLU",
              "Softmax", "LogSoftmax", "Identity"):
        A.append(L(n, lambda nn, n=n: getattr(nn, n)(), [(3, 5)]))
    A += [
        L("ELU_a", lambda nn: nn.ELU(0.5), [(3, 4)]),
        L("CELU_a", lambda nn: nn.CELU(0.4), [(3, 4)]),
        L("GELU_approx", lambda nn: nn.GELU(approximate=True), [(3, 4)]),
        L("Softplus_b", lambda nn: nn.Softplus(beta=2, threshold=3), [(3, 4)]),
        L("Softshrink_t", lambda nn: nn.Softshrink(0.3), [(3, 4)]),
        L("Hardshrink_t", lambda nn: nn.Hardshrink(0.3), [(3, 4)]),
        L("Hardtanh_mm", lambda nn: nn.Hardtanh(-0.2, 0.4), [(3, 4)]),
        L("LeakyReLU_s", lambda nn: nn.LeakyReLU(0.2), [(3, 4)]),
        L("ThresholdedReLU_v", lambda nn: nn.ThresholdedReLU(0.4, 1.0), [(3, 4)]),
        L("Softmax_ax", lambda nn: nn.Softmax(axis=0), [(3, 4)]),
        L("LogSoftmax_ax", lambda nn: nn.LogSoftmax(axis=1), [(2, 3, 4)]),
        L("Softmax2D", lambda nn: nn.Softmax2D(), [(2, 3, 4, 4)]),
        L("Softmax2D_3d", lambda nn: nn.Softmax2D(), [(3, 4, 4)]),
        L("SELU_args", lambda nn: nn.SELU(1.1, 1.6), [(3, 4)]),
        L("GLU", lambda nn: nn.GLU(), [(3, 4)]),
        L("GLU_ax", lambda nn: nn.GLU(axis=0), [(4, 3)]),
        L("Maxout", lambda nn: nn.Maxout(2), [(2, 4, 3, 3)]),
        L("Maxout_ax", lambda nn: nn.Maxout(3, axis=-1), [(2, 3, 3, 6)]),
        L("PReLU", lambda nn: nn.PReLU(), [(2, 3, 4)]),
        L("PReLU_ch", lambda nn: nn.PReLU(3, 0.1), [(2, 3, 4)]),
        L("PReLU_nhwc", lambda nn: nn.PReLU(3, data_format="NHWC"), [(2, 4, 4, 3)]),
        L("RReLU", lambda nn: nn.RReLU(), [(3, 4)], modes=("eval",)),
        L("RReLU_lu", lambda nn: nn.RReLU(0.1, 0.2), [(3, 4)], modes=("eval",)),
        L("Identity_args", lambda nn: nn.Identity(3, k=1), [(3, 4)]),
    ]
    return A


def _common_layers():
    C = [
        L("Linear", lambda nn: nn.Linear(3, 5), [(4, 3)]),
        L("Linear_nob", lambda nn: nn.Linear(3, 5, bias_attr=False), [(2, 4, 3)]),
        L("Linear_name", lambda nn: nn.Linear(3, 2, name="fc"), [(2, 3)]),
        L("Linear_f64", lambda nn: nn.Linear(3, 2), [(2, 3)], dtypes=("float64",)),
        L("Linear_b1", lambda nn: nn.Linear(3, 2), [(1, 3)]),
        L("Linear_empty", lambda nn: nn.Linear(3, 2), [(0, 3)], grad=False),
        L("Bilinear", lambda nn: nn.Bilinear(3, 4, 5), [(2, 3), (2, 4)]),
        L("Bilinear_nob", lambda nn: nn.Bilinear(3, 4, 5, bias_attr=False), [(2, 3), (2, 4)]),
        L("Embedding", lambda nn: nn.Embedding(10, 4), [ints((2, 3), 10)]),
        L("Embedding_pad", lambda nn: nn.Embedding(10, 4, padding_idx=2), [np.array([2, 3, 2], "int64")]),
        L("Embedding_padneg", lambda nn: nn.Embedding(10, 4, padding_idx=-1), [np.array([9, 3, 2], "int64")]),
        L("Embedding_sparse", lambda nn: nn.Embedding(10, 4, sparse=True), [np.array([1, 3], "int64")]),
        L("Flatten", lambda nn: nn.Flatten(), [(2, 3, 4, 5)]),
        L("Flatten_ax", lambda nn: nn.Flatten(0, 2), [(2, 3, 4, 5)]),
        L("Unflatten", lambda nn: nn.Unflatten(1, [2, 3]), [(4, 6, 2)]),
        L("Unflatten_neg", lambda nn: nn.Unflatten(-1, (2, -1)), [(4, 6)]),
        L("Dropout_eval", lambda nn: nn.Dropout(0.4), [(3, 4)], modes=("eval",)),
        L("Dropout_p0", lambda nn: nn.Dropout(0.0), [(3, 4)]),
        L("Dropout_down", lambda nn: nn.Dropout(0.4, mode="downscale_in_infer"), [(3, 4)], modes=("eval",)),
        L("Dropout_axis", lambda nn: nn.Dropout(0.4, axis=[0, 1]), [(3, 4)], modes=("eval",)),
        L("Dropout2D", lambda nn: nn.Dropout2D(0.3), [(2, 3, 4, 4)], modes=("eval",)),
        L("Dropout2D_nhwc", lambda nn: nn.Dropout2D(0.3, data_format="NHWC"), [(2, 3, 4, 4)], modes=("eval",)),
        L("Dropout3D", lambda nn: nn.Dropout3D(0.3), [(2, 3, 2, 2, 2)], modes=("eval",)),
        L("AlphaDropout", lambda nn: nn.AlphaDropout(0.3), [(3, 4)], modes=("eval",)),
        L("FeatureAlphaDropout", lambda nn: nn.FeatureAlphaDropout(0.3), [(2, 3, 4)], modes=("eval",)),
        L("Pad1D", lambda nn: nn.Pad1D([1, 2], mode="reflect"), [(2, 3, 5)]),
        L("Pad1D_int", lambda nn: nn.Pad1D(2, value=1.0), [(2, 3, 5)]),
        L("Pad2D", lambda nn: nn.Pad2D(1, value=2.0), [(2, 3, 4, 4)]),
        L("Pad2D_nhwc", lambda nn: nn.Pad2D([1, 0, 2, 1], mode="replicate", data_format="NHWC"), [(2, 4, 4, 3)]),
        L("Pad3D", lambda nn: nn.Pad3D([1, 0, 0, 1, 1, 1], mode="replicate"), [(1, 2, 3, 3, 3)]),
        L("Pad3D_circ", lambda nn: nn.Pad3D(1, mode="circular"), [(1, 2, 3, 3, 3)]),
        L("ZeroPad1D", lambda nn: nn.ZeroPad1D(2), [(2, 3, 5)]),
        L("ZeroPad2D", lambda nn: nn.ZeroPad2D([1, 0, 2, 1]), [(2, 3, 4, 4)]),
        L("ZeroPad3D", lambda nn: nn.ZeroPad3D(1), [(1, 2, 2, 2, 2)]),
        L("ConstantPad1D", lambda nn: nn.ConstantPad1D([1, 2], 0.5), [(2, 3, 4)]),
        L("ConstantPad2D", lambda nn: nn.ConstantPad2D(1, 3.0), [(1, 2, 3, 3)]),
        L("ConstantPad3D", lambda nn: nn.ConstantPad3D([1, 0, 1, 0, 0, 1], 1.0), [(1, 2, 3, 3, 3)]),
        L("ReflectionPad1D", lambda nn: nn.ReflectionPad1D(2), [(2, 3, 5)]),
        L("ReflectionPad2D", lambda nn: nn.ReflectionPad2D([1, 1, 2, 0]), [(1, 2, 4, 4)]),
        L("ReflectionPad3D", lambda nn: nn.ReflectionPad3D(1), [(1, 2, 3, 3, 3)]),
        L("ReplicationPad1D", lambda nn: nn.ReplicationPad1D(2, data_format="NLC"), [(1, 5, 3)]),
        L("ReplicationPad2D", lambda nn: nn.ReplicationPad2D(1), [(1, 2, 3, 3)]),
        L("ReplicationPad3D", lambda nn: nn.ReplicationPad3D([1, 2, 0, 1, 1, 0]), [(1, 2, 3, 3, 3)]),
        L("CircularPad1D", lambda nn: nn.CircularPad1D(1), [(1, 2, 4)]),
        L("CircularPad2D", lambda nn: nn.CircularPad2D(1), [(1, 2, 3, 3)]),
        L("CircularPad3D", lambda nn: nn.CircularPad3D(1), [(1, 2, 3, 3, 3)]),
        L("Upsample", lambda nn: nn.Upsample(scale_factor=2), [(1, 2, 3, 3)]),
        L("Upsample_bil", lambda nn: nn.Upsample(size=[5, 7], mode="bilinear", align_corners=True), [(1, 2, 3, 3)]),
        L("Upsample_lin", lambda nn: nn.Upsample(scale_factor=1.5, mode="linear", data_format="NCW"), [(1, 2, 4)]),
        L("Upsample_tri", lambda nn: nn.Upsample(size=[3, 4, 5], mode="trilinear", data_format="NCDHW"),
          [(1, 2, 2, 2, 2)]),
        L("Upsample_bic", lambda nn: nn.Upsample(scale_factor=2, mode="bicubic", align_mode=1), [(1, 2, 3, 3)]),
        L("UpsamplingNearest2D", lambda nn: nn.UpsamplingNearest2D(scale_factor=2), [(1, 2, 3, 3)]),
        L("UpsamplingBilinear2D", lambda nn: nn.UpsamplingBilinear2D(size=[4, 5]), [(1, 2, 3, 3)]),
        L("UpsamplingBilinear2D_nhwc", lambda nn: nn.UpsamplingBilinear2D(scale_factor=2, data_format="NHWC"),
          [(1, 3, 3, 2)]),
        L("PixelShuffle", lambda nn: nn.PixelShuffle(2), [(1, 8, 2, 3)]),
        L("PixelShuffle_nhwc", lambda nn: nn.PixelShuffle(2, data_format="NHWC"), [(1, 2, 3, 8)]),
        L("PixelUnshuffle", lambda nn: nn.PixelUnshuffle(2), [(1, 2, 4, 4)]),
        L("ChannelShuffle", lambda nn: nn.ChannelShuffle(3), [(1, 6, 2, 2)]),
        L("ChannelShuffle_nhwc", lambda nn: nn.ChannelShuffle(2, "NHWC"), [(1, 2, 2, 6)]),
        L("Unfold", lambda nn: nn.Unfold([2, 2], strides=2), [(1, 3, 4, 4)]),
        L("Unfold_all", lambda nn: nn.Unfold(2, dilations=2, paddings=1, strides=1), [(1, 3, 5, 5)]),
        L("Fold", lambda nn: nn.Fold([4, 5], [2, 2]), [(1, 8, 12)]),
        L("Fold_all", lambda nn: nn.Fold([5, 5], 2, strides=2, paddings=1), [(1, 8, 9)]),
        L("CosineSimilarity", lambda nn: nn.CosineSimilarity(axis=0), [(3, 4), (3, 4)]),
        L("CosineSimilarity_def", lambda nn: nn.CosineSimilarity(), [(3, 4), (3, 4)]),
        L("PairwiseDistance", lambda nn: nn.PairwiseDistance(p=1.0, epsilon=1e-5, keepdim=True), [(3, 4), (3, 4)]),
        L("PairwiseDistance_def", lambda nn: nn.PairwiseDistance(), [(3, 4), (3, 4)]),
    ]
    return C


def _conv_layers():
    C = []
    for nd, sp in ((1, (7,)), (2, (6, 5)), (3, (4, 4, 3))):
        cl = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[nd]
        x = (2, 4) + sp
        xcl = (2,) + sp + (4,)
        tol = dict(rtol=1e-4, atol=1e-5)
        for base in (f"Conv{nd}D", f"Conv{nd}DTranspose"):
            C += [
                L(base, lambda nn, b=base: getattr(nn, b)(4, 6, 3), [x], **tol),
                L(f"{base}_s2p1", lambda nn, b=base: getattr(nn, b)(4, 6, 3, stride=2, padding=1), [x], **tol),
                L(f"{base}_groups_nob", lambda nn, b=base: getattr(nn, b)(4, 6, 3, groups=2, bias_attr=False),
                  [x], **tol),
                L(f"{base}_cl", lambda nn, b=base, d=cl: getattr(nn, b)(4, 6, 3, padding=1, data_format=d),
                  [xcl], **tol),
                L(f"{base}_dil", lambda nn, b=base: getattr(nn, b)(4, 2, 2, dilation=2), [x], **tol),
                L(f"{base}_k_list", lambda nn, b=base, k=nd: getattr(nn, b)(4, 3, [2, 3, 1][:k], padding="SAME"
                                                                            if "Trans" not in b else 0), [x], **tol),
                L(f"{base}_f64", lambda nn, b=base: getattr(nn, b)(4, 3, 3), [x], dtypes=("float64",)),
            ]
            if "Trans" not in base:
                C += [
                    L(f"{base}_pm_reflect", lambda nn, b=base: getattr(nn, b)(4, 3, 3, padding=1,
                                                                              padding_mode="reflect"), [x], **tol),
                    L(f"{base}_pm_circular", lambda nn, b=base: getattr(nn, b)(4, 3, 3, padding=1,
                                                                               padding_mode="circular"), [x], **tol),
                    L(f"{base}_pm_replicate", lambda nn, b=base: getattr(nn, b)(4, 3, 3, padding=2,
                                                                                padding_mode="replicate"), [x], **tol),
                    L(f"{base}_valid", lambda nn, b=base: getattr(nn, b)(4, 3, 3, padding="VALID"), [x], **tol),
                ]
            else:
                C += [
                    L(f"{base}_op", lambda nn, b=base: getattr(nn, b)(4, 3, 3, stride=2, output_padding=1), [x], **tol),
                    L(f"{base}_outsize", lambda nn, b=base: getattr(nn, b)(4, 3, 3, stride=2), [x],
                      kwargs={"output_size": [2 * v + 1 for v in sp]}, **tol),
                ]
    C += [
        L("Conv2d_alias", lambda nn: nn.Conv2d(4, 2, 3), [(1, 4, 5, 5)], rtol=1e-4, atol=1e-5),
        L("Conv1d_alias", lambda nn: nn.Conv1d(4, 2, 3), [(1, 4, 5)], rtol=1e-4, atol=1e-5),
        L("Conv3d_alias", lambda nn: nn.Conv3d(4, 2, 3), [(1, 4, 3, 3, 3)], rtol=1e-4, atol=1e-5),
    ]
    return C


def _pool_layers():
    P = []
    for nd, sp in ((1, (9,)), (2, (7, 6)), (3, (5, 4, 5))):
        x = (2, 3) + sp
        P += [
            L(f"MaxPool{nd}D", lambda nn, n=nd: getattr(nn, f"MaxPool{n}D")(2), [x]),
            L(f"MaxPool{nd}D_all", lambda nn, n=nd: getattr(nn, f"MaxPool{n}D")(3, stride=2, padding=1, ceil_mode=True),
              [x]),
            L(f"MaxPool{nd}D_mask", lambda nn, n=nd: getattr(nn, f"MaxPool{n}D")(2, return_mask=True), [x]),
            L(f"AvgPool{nd}D", lambda nn, n=nd: getattr(nn, f"AvgPool{n}D")(2), [x]),
            L(f"AvgPool{nd}D_all", lambda nn, n=nd: getattr(nn, f"AvgPool{n}D")(3, stride=2, padding=1, ceil_mode=True,
                                                                                 exclusive=False), [x]),
            L(f"AdaptiveAvgPool{nd}D", lambda nn, n=nd: getattr(nn, f"AdaptiveAvgPool{n}D")(3), [x]),
            L(f"AdaptiveMaxPool{nd}D", lambda nn, n=nd: getattr(nn, f"AdaptiveMaxPool{n}D")(3), [x]),
            L(f"AdaptiveMaxPool{nd}D_mask", lambda nn, n=nd: getattr(nn, f"AdaptiveMaxPool{n}D")(2, return_mask=True),
              [x]),
        ]
        if nd > 1:
            P += [
                L(f"AvgPool{nd}D_div", lambda nn, n=nd: getattr(nn, f"AvgPool{n}D")(2, divisor_override=3), [x]),
                L(f"AvgPool{nd}D_cl", lambda nn, n=nd: getattr(nn, f"AvgPool{n}D")(
                    2, data_format="NHWC" if n == 2 else "NDHWC"), [(2,) + sp + (3,)]),
                L(f"MaxPool{nd}D_cl", lambda nn, n=nd: getattr(nn, f"MaxPool{n}D")(
                    2, data_format="NHWC" if n == 2 else "NDHWC"), [(2,) + sp + (3,)]),
                L(f"AdaptiveAvgPool{nd}D_cl", lambda nn, n=nd: getattr(nn, f"AdaptiveAvgPool{n}D")(
                    2, data_format="NHWC" if n == 2 else "NDHWC"), [(2,) + sp + (3,)]),
            ]
        P.append(L(f"MaxUnPool{nd}D", lambda nn, n=nd: _Unpool(nn, n), [(2, 3) + (4,) * nd]))
    P += [
        L("AdaptiveMaxPool2d_alias", lambda nn: nn.AdaptiveMaxPool2d(2), [(1, 2, 5, 5)]),
        L("LPPool1D", lambda nn: nn.LPPool1D(2, 3, stride=2), [(2, 3, 8)], kind="pos"),
        L("LPPool2D", lambda nn: nn.LPPool2D(3, 2), [(2, 3, 6, 6)], kind="pos"),
        L("LPPool2D_nhwc", lambda nn: nn.LPPool2D(2, [2, 3], stride=1, ceil_mode=True, data_format="NHWC"),
          [(2, 6, 5, 3)], kind="pos"),
        L("LPPool1d_alias", lambda nn: nn.LPPool1d(1, 2), [(2, 3, 8)], kind="pos"),
        L("FractionalMaxPool2D", lambda nn: nn.FractionalMaxPool2D(3, random_u=0.3), [(1, 2, 7, 7)]),
        L("FractionalMaxPool2D_mask", lambda nn: nn.FractionalMaxPool2D([3, 4], kernel_size=2, random_u=0.6,
                                                                        return_mask=True), [(1, 2, 8, 9)]),
        L("FractionalMaxPool3D", lambda nn: nn.FractionalMaxPool3D(2, random_u=0.4), [(1, 2, 5, 5, 5)]),
    ]
    return P


def _Unpool(nn, n):
    """A tiny layer: max pool with mask, then MaxUnPool<n>D."""
    pool = getattr(nn, f"MaxPool{n}D")(2, return_mask=True)
    unpool = getattr(nn, f"MaxUnPool{n}D")(2)
    seq = nn.Sequential()

    class Both(nn.Layer):
        def __init__(self):
            super().__init__()
            self.pool, self.unpool = pool, unpool

        def forward(self, x):
            return self.unpool(*self.pool(x))
    del seq
    return Both()


def _norm_layers():
    N = []
    for nd, x in ((1, (4, 3, 5)), (2, (4, 3, 3, 2)), (3, (2, 3, 2, 2, 2))):
        b = f"BatchNorm{nd}D"
        cl = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[nd]
        N += [
            L(b, lambda nn, b=b: getattr(nn, b)(3), [x]),
            L(f"{b}_mom", lambda nn, b=b: getattr(nn, b)(3, momentum=0.5, epsilon=1e-3), [x]),
            L(f"{b}_noaffine", lambda nn, b=b: getattr(nn, b)(3, weight_attr=False, bias_attr=False), [x]),
            L(f"{b}_global", lambda nn, b=b: getattr(nn, b)(3, use_global_stats=True), [x]),
            L(f"{b}_cl", lambda nn, b=b, d=cl: getattr(nn, b)(3, data_format=d), [x[:1] + x[2:] + (3,)]),
            L(f"{b}_f64", lambda nn, b=b: getattr(nn, b)(3), [x], dtypes=("float64",)),
            L(f"InstanceNorm{nd}D", lambda nn, n=nd: getattr(nn, f"InstanceNorm{n}D")(3), [x]),
            L(f"InstanceNorm{nd}D_noaff", lambda nn, n=nd: getattr(nn, f"InstanceNorm{n}D")(
                3, weight_attr=False, bias_attr=False), [x]),
        ]
    N += [
        L("BatchNorm1D_2d", lambda nn: nn.BatchNorm1D(3), [(4, 3)]),
        L("BatchNorm1D_b1_eval", lambda nn: nn.BatchNorm1D(3), [(1, 3, 4)], modes=("eval",)),
        L("BatchNorm", lambda nn: nn.BatchNorm(3), [(4, 3, 2, 2)]),
        L("BatchNorm_act", lambda nn: nn.BatchNorm(3, act="relu", momentum=0.8), [(4, 3, 2)]),
        L("BatchNorm_istest", lambda nn: nn.BatchNorm(3, is_test=True), [(4, 3, 2, 2)]),
        L("BatchNorm_nhwc", lambda nn: nn.BatchNorm(3, data_layout="NHWC"), [(4, 2, 2, 3)]),
        L("LayerNorm", lambda nn: nn.LayerNorm(4), [(3, 2, 4)]),
        L("LayerNorm_2d", lambda nn: nn.LayerNorm([2, 4], epsilon=1e-3), [(3, 2, 4)]),
        L("LayerNorm_noaff", lambda nn: nn.LayerNorm(4, weight_attr=False, bias_attr=False), [(3, 4)]),
        L("LayerNorm_nobias", lambda nn: nn.LayerNorm(4, bias_attr=False), [(3, 4)]),
        L("GroupNorm", lambda nn: nn.GroupNorm(2, 4), [(2, 4, 3, 3)]),
        L("GroupNorm_nhwc", lambda nn: nn.GroupNorm(2, 4, data_format="NHWC"), [(2, 3, 3, 4)]),
        L("GroupNorm_3d", lambda nn: nn.GroupNorm(3, 6, epsilon=1e-3), [(2, 6, 5)]),
        L("GroupNorm_noaff", lambda nn: nn.GroupNorm(2, 4, weight_attr=False, bias_attr=False), [(2, 4, 3)],
          grad=False),
        L("LocalResponseNorm", lambda nn: nn.LocalResponseNorm(3), [(2, 5, 4, 4)]),
        L("LocalResponseNorm_args", lambda nn: nn.LocalResponseNorm(2, 0.01, 0.5, 2.0), [(2, 5, 4)]),
        L("SpectralNorm", lambda nn: nn.SpectralNorm([3, 4], power_iters=2), [(3, 4)], modes=("eval",), grad=False),
        # Paddle has no CPU kernel for sync_batch_norm: state dict and repr only
        L("SyncBatchNorm", lambda nn: nn.SyncBatchNorm(3), [(4, 3, 2, 2)], modes=()),
        L("SyncBatchNorm_noaff", lambda nn: nn.SyncBatchNorm(3, weight_attr=False, bias_attr=False), [(4, 3, 2)],
          modes=()),
        L("SyncBatchNorm_now", lambda nn: nn.SyncBatchNorm(3, weight_attr=False), [(4, 3, 2)], modes=()),
        L("BatchNorm2D_now", lambda nn: nn.BatchNorm2D(3, weight_attr=False), [(4, 3, 2, 2)]),
        L("BatchNorm1D_nob", lambda nn: nn.BatchNorm1D(3, bias_attr=False), [(4, 3)]),

    ]
    return N


def _sync_tails(ours, theirs):
    """Paddle keeps the tail weights in a plain list, outside the state dict."""
    for o_pair, t_pair in zip(ours.tail_weights, theirs.tail_weights):
        for o, t in zip(o_pair, t_pair):
            o.set_value(t.numpy())


def _loss_layers():
    lab = ints((4,), 5)
    L_ = []
    for red in ("mean", "sum", "none"):
        L_ += [
            L(f"CrossEntropyLoss_{red}", lambda nn, r=red: nn.CrossEntropyLoss(reduction=r), [(4, 5), lab]),
            L(f"MSELoss_{red}", lambda nn, r=red: nn.MSELoss(reduction=r), [(4, 3), (4, 3)]),
            L(f"L1Loss_{red}", lambda nn, r=red: nn.L1Loss(reduction=r), [(4, 3), (4, 3)]),
            L(f"BCELoss_{red}", lambda nn, r=red: nn.BCELoss(reduction=r), [probs((4, 3)), probs((4, 3), 9)]),
            L(f"BCEWithLogitsLoss_{red}", lambda nn, r=red: nn.BCEWithLogitsLoss(reduction=r), [(4, 3), probs((4, 3))]),
            L(f"NLLLoss_{red}", lambda nn, r=red: nn.NLLLoss(reduction=r), [(4, 5), lab]),
            L(f"KLDivLoss_{red}", lambda nn, r=red: nn.KLDivLoss(reduction=r), [(4, 3), probs((4, 3))]),
            L(f"SmoothL1Loss_{red}", lambda nn, r=red: nn.SmoothL1Loss(reduction=r, delta=0.5), [(4, 3), (4, 3)]),
            L(f"MarginRankingLoss_{red}", lambda nn, r=red: nn.MarginRankingLoss(0.1, reduction=r),
              [(4,), (4,), np.array([1, -1, 1, -1], "float32")]),
            L(f"HingeEmbeddingLoss_{red}", lambda nn, r=red: nn.HingeEmbeddingLoss(0.5, reduction=r),
              [(4, 3), np.sign(np.random.default_rng(2).standard_normal((4, 3))).astype("float32")]),
            L(f"CosineEmbeddingLoss_{red}", lambda nn, r=red: nn.CosineEmbeddingLoss(0.1, reduction=r),
              [(4, 5), (4, 5), np.array([1, -1, 1, -1], "int64")]),
            L(f"SoftMarginLoss_{red}", lambda nn, r=red: nn.SoftMarginLoss(reduction=r),
              [(4, 3), np.sign(np.random.default_rng(2).standard_normal((4, 3))).astype("float32")]),
            L(f"MultiLabelSoftMarginLoss_{red}", lambda nn, r=red: nn.MultiLabelSoftMarginLoss(reduction=r),
              [(4, 3), (np.random.default_rng(2).random((4, 3)) > .5).astype("float32")]),
            L(f"MultiMarginLoss_{red}", lambda nn, r=red: nn.MultiMarginLoss(reduction=r), [(4, 5), lab]),
            L(f"MultiLabelMarginLoss_{red}", lambda nn, r=red: nn.MultiLabelMarginLoss(reduction=r),
              [(2, 5), np.array([[1, 2, -1, 0, 0], [4, 3, 2, 1, 0]], "int64")]),
            L(f"PoissonNLLLoss_{red}", lambda nn, r=red: nn.PoissonNLLLoss(reduction=r), [(4, 3), pos((4, 3))]),
            L(f"GaussianNLLLoss_{red}", lambda nn, r=red: nn.GaussianNLLLoss(reduction=r),
              [(4, 3), (4, 3), pos((4, 3))]),
            L(f"TripletMarginLoss_{red}", lambda nn, r=red: nn.TripletMarginLoss(reduction=r),
              [(4, 5), (4, 5), (4, 5)]),
            L(f"TripletMarginWithDistanceLoss_{red}", lambda nn, r=red: nn.TripletMarginWithDistanceLoss(
                reduction=r), [(4, 5), (4, 5), (4, 5)]),
        ]
    L_ += [
        L("CrossEntropyLoss_w", lambda nn: nn.CrossEntropyLoss(weight=nn.Layer().create_parameter(
            [5], default_initializer=nn.initializer.Constant(0.5))), [(4, 5), lab]),
        L("CrossEntropyLoss_soft", lambda nn: nn.CrossEntropyLoss(soft_label=True), [(4, 5), probs((4, 5))]),
        L("CrossEntropyLoss_ls", lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=1),
          [(4, 5), lab]),
        L("CrossEntropyLoss_axis", lambda nn: nn.CrossEntropyLoss(axis=1), [(4, 5, 3), ints((4, 3), 5)]),
        L("CrossEntropyLoss_nosoftmax", lambda nn: nn.CrossEntropyLoss(use_softmax=False), [probs((4, 5)), lab]),
        L("BCEWithLogitsLoss_posw", lambda nn: nn.BCEWithLogitsLoss(pos_weight=nn.Layer().create_parameter(
            [3], default_initializer=nn.initializer.Constant(2.0))), [(4, 3), probs((4, 3))]),
        L("CTCLoss", lambda nn: nn.CTCLoss(), [
            lambda rng, dt: np.log(np.random.default_rng(1).dirichlet(np.ones(4), (6, 2))).astype(dt),
            np.array([[1, 2, 0], [3, 1, 1]], "int32"), np.array([6, 5], "int64"), np.array([2, 3], "int64")]),
        L("CTCLoss_blank", lambda nn: nn.CTCLoss(blank=3, reduction="sum"), [
            lambda rng, dt: np.log(np.random.default_rng(1).dirichlet(np.ones(4), (6, 2))).astype(dt),
            np.array([[1, 2, 0], [0, 1, 1]], "int32"), np.array([6, 5], "int64"), np.array([2, 3], "int64")]),
        L("RNNTLoss", lambda nn: nn.RNNTLoss(), [(2, 4, 3, 5), np.array([[1, 2], [3, 0]], "int32"),
                                                 np.array([4, 3], "int32"), np.array([2, 1], "int32")],
          rtol=1e-4, atol=1e-5),
        L("HSigmoidLoss", lambda nn: nn.HSigmoidLoss(3, 5), [(4, 3), ints((4,), 5)]),
        L("HSigmoidLoss_nob", lambda nn: nn.HSigmoidLoss(3, 6, bias_attr=False), [(4, 3), ints((4,), 6)]),
        L("AdaptiveLogSoftmaxWithLoss", lambda nn: nn.AdaptiveLogSoftmaxWithLoss(4, 8, [2, 5], div_value=2.0),
          [(5, 4), np.array([0, 1, 3, 7, 2], "int64")], sync=_sync_tails),
        L("AdaptiveLogSoftmaxWithLoss_hb", lambda nn: nn.AdaptiveLogSoftmaxWithLoss(4, 8, [3], head_bias=True),
          [(5, 4), np.array([0, 1, 3, 7, 2], "int64")], sync=_sync_tails),
    ]
    return L_


def _first(out):
    return out[0]


def _rnn_layers():
    R = []
    # Paddle's fused RNN backward fails when both the outputs and the final states are used,
    # and in eval mode
    tol = dict(rtol=1e-4, atol=1e-5, select=_first, eval_grad=False)
    for cell in ("SimpleRNN", "LSTM", "GRU"):
        R += [
            L(cell, lambda nn, c=cell: getattr(nn, c)(3, 4), [(2, 5, 3)], **tol),
            L(f"{cell}_2l_bi", lambda nn, c=cell: getattr(nn, c)(3, 4, num_layers=2, direction="bidirect"),
              [(2, 5, 3)], **tol),
            L(f"{cell}_tm", lambda nn, c=cell: getattr(nn, c)(3, 4, time_major=True, direction="bidirectional"),
              [(5, 2, 3)], **tol),
            L(f"{cell}Cell_nobias", lambda nn, c=cell: getattr(nn, f"{c}Cell")(3, 4, bias_ih_attr=False,
                                                                              bias_hh_attr=False), [(2, 3)], **tol),
            L(f"{cell}Cell", lambda nn, c=cell: getattr(nn, f"{c}Cell")(3, 4), [(2, 3)], **tol),
        ]
    R += [
        L("SimpleRNN_relu", lambda nn: nn.SimpleRNN(3, 4, activation="relu"), [(2, 5, 3)], **tol),
        L("SimpleRNNCell_relu", lambda nn: nn.SimpleRNNCell(3, 4, activation="relu"), [(2, 3)], **tol),
        L("LSTM_proj", lambda nn: nn.LSTM(3, 4, proj_size=2), [(2, 5, 3)], **tol),
        L("LSTMCell_proj", lambda nn: nn.LSTMCell(3, 4, proj_size=2), [(2, 3)], **tol),
        L("SimpleRNN_states", lambda nn: nn.SimpleRNN(3, 4, num_layers=2), [(2, 5, 3), (2, 2, 4)], **tol),
        L("GRU_states", lambda nn: nn.GRU(3, 4, direction="bidirect"), [(2, 5, 3), (2, 2, 4)], **tol),
        L("RNN_lstmcell", lambda nn: nn.RNN(nn.LSTMCell(3, 4)), [(2, 5, 3)], **tol),
        L("RNN_grucell_rev", lambda nn: nn.RNN(nn.GRUCell(3, 4), is_reverse=True, time_major=True), [(5, 2, 3)], **tol),
        L("BiRNN", lambda nn: nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(3, 4)), [(2, 5, 3)], **tol),
    ]
    tol = dict(rtol=1e-4, atol=1e-5)
    R += [
        L("MultiHeadAttention", lambda nn: nn.MultiHeadAttention(8, 2), [(2, 3, 8)], **tol),
        L("MultiHeadAttention_kv", lambda nn: nn.MultiHeadAttention(8, 2, kdim=4, vdim=6, need_weights=True),
          [(2, 3, 8), (2, 5, 4), (2, 5, 6)], **tol),
        L("MultiHeadAttention_mask", lambda nn: nn.MultiHeadAttention(8, 2), [(2, 3, 8), (2, 3, 8), (2, 3, 8),
                                                                              (2, 1, 3, 3)], **tol),
        L("MultiHeadAttention_nob", lambda nn: nn.MultiHeadAttention(8, 4, bias_attr=False), [(1, 3, 8)], **tol),
        L("TransformerEncoderLayer", lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), [(2, 3, 8)],
          **tol),
        L("TransformerEncoderLayer_pre", lambda nn: nn.TransformerEncoderLayer(
            8, 2, 16, dropout=0.0, activation="gelu", normalize_before=True), [(2, 3, 8)], **tol),
        L("TransformerDecoderLayer", lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
          [(2, 3, 8), (2, 4, 8)], **tol),
        L("TransformerEncoder", lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2),
          [(2, 3, 8)], **tol),
        L("TransformerEncoder_norm", lambda nn: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, norm=nn.LayerNorm(8)), [(2, 3, 8)], **tol),
        L("TransformerDecoder", lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2),
          [(2, 3, 8), (2, 4, 8)], **tol),
        L("Transformer", lambda nn: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0), [(2, 3, 8), (2, 4, 8)], **tol),
    ]
    return R


def _container_layers():
    return [
        L("Sequential", lambda nn: nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), [(2, 3)]),
        L("Sequential_named", lambda nn: nn.Sequential(("fc", nn.Linear(3, 4)), ("act", nn.Tanh())), [(2, 3)]),
        L("Sequential_nested", lambda nn: nn.Sequential(nn.Sequential(nn.Linear(3, 3)), nn.BatchNorm1D(3)), [(4, 3)]),
    ]


LAYERS = (_act_layers() + _common_layers() + _conv_layers() + _pool_layers() + _norm_layers() + _loss_layers()
          + _rnn_layers() + _container_layers())

LAYER_ERRORS = [
    E("Linear_neg", lambda fw: fw.nn.Linear(-1, 3)),
    E("Conv2D_groups", lambda fw: fw.nn.Conv2D(4, 6, 3, groups=3)),
    E("Conv2D_pm", lambda fw: fw.nn.Conv2D(4, 6, 3, padding_mode="wrap")),
    E("Conv2D_fmt", lambda fw: fw.nn.Conv2D(4, 6, 3, data_format="NCWH")),
    E("Conv2D_in0", lambda fw: fw.nn.Conv2D(0, 6, 3)),
    E("Embedding_pad", lambda fw: fw.nn.Embedding(4, 3, padding_idx=5)),
    E("Dropout_p", lambda fw: fw.nn.Dropout(1.5)),
    E("Dropout_mode", lambda fw: fw.nn.Dropout(0.5, mode="x")),
    E("InstanceNorm2D_now", lambda fw: fw.nn.InstanceNorm2D(3, weight_attr=False)),
    E("GroupNorm_div", lambda fw: fw.nn.GroupNorm(3, 4)),
    E("BatchNorm2D_fmt", lambda fw: fw.nn.BatchNorm2D(3, data_format="NCL")),
    E("LayerNorm_mismatch", lambda fw: fw.nn.LayerNorm(4)(fw.ones([2, 3]))),
    E("Linear_mismatch", lambda fw: fw.nn.Linear(4, 2)(fw.ones([2, 3]))),
    E("Conv2D_rank", lambda fw: fw.nn.Conv2D(4, 2, 3)(fw.ones([4, 5, 5]))),
    E("CrossEntropyLoss_red", lambda fw: fw.nn.CrossEntropyLoss(reduction="avg")),
    E("MSELoss_red", lambda fw: fw.nn.MSELoss(reduction="avg")),
    E("L1Loss_red", lambda fw: fw.nn.L1Loss(reduction="avg")),
    E("BCELoss_red", lambda fw: fw.nn.BCELoss(reduction="avg")),
    E("NLLLoss_red", lambda fw: fw.nn.NLLLoss(reduction="avg")),
    E("LSTM_dir", lambda fw: fw.nn.LSTM(3, 4, direction="both")),
    E("SimpleRNN_act", lambda fw: fw.nn.SimpleRNN(3, 4, activation="sigmoid")),
    E("MHA_heads", lambda fw: fw.nn.MultiHeadAttention(8, 3)),
    E("Upsample_mode", lambda fw: fw.nn.Upsample(scale_factor=2, mode="cubic")(fw.ones([1, 1, 2, 2]))),
    E("PixelShuffle_fmt", lambda fw: fw.nn.PixelShuffle(2, data_format="NCWH")),
    E("MaxPool2D_fmt", lambda fw: fw.nn.MaxPool2D(2, data_format="NCWH")(fw.ones([1, 1, 4, 4]))),
    E("Pad2D_mode", lambda fw: fw.nn.Pad2D(1, mode="wrap")),
    E("Softmax2D_rank", lambda fw: fw.nn.Softmax2D()(fw.ones([2, 3]))),
    E("PReLU_fmt", lambda fw: fw.nn.PReLU(data_format="NCWH")),
    E("Flatten_bad", lambda fw: fw.nn.Flatten(2, 1)(fw.ones([2, 3, 4]))),
    E("Sequential_idx", lambda fw: fw.nn.Sequential(fw.nn.ReLU())[3]),
    E("LayerList_idx", lambda fw: fw.nn.LayerList([fw.nn.ReLU()])[2]),
]

# Deliberate differences from Paddle 3.3.1: {case id: reason}. These cases are skipped.
LAYER_SKIP: dict = {
    "Embedding_sparse": "Paddle's sparse gradient is a SelectedRows of the looked-up rows; pagaie's is dense",
    "LSTMCell_proj": "Paddle bug: LSTMCell(proj_size>0) builds default states of the wrong size and raises",
}
