"""Functional cases: every name of ``paddle.nn.functional`` with several argument patterns."""
from __future__ import annotations

import numpy as np

from tests.audit_nn.harness import E, F

I64 = "int64"


def ints(shape, high, low=0, dtype=I64, seed=3):
    return np.random.default_rng(seed).integers(low, high, shape).astype(dtype)


def probs(shape, seed=4):
    return lambda rng, dt: np.random.default_rng(seed).uniform(0.05, 0.95, shape).astype(dt)


def pos(shape, seed=5):
    return lambda rng, dt: np.random.default_rng(seed).uniform(0.2, 2.0, shape).astype(dt)


def f(name, **kw):
    return lambda fw, *a: getattr(fw.nn.functional, name)(*a, **kw)


def _acts():
    out = []
    simple = ["relu", "relu6", "sigmoid", "tanh", "silu", "mish", "softsign", "tanhshrink", "log_sigmoid",
              "logsigmoid", "hardsigmoid", "hardswish", "selu", "elu", "celu", "gelu", "softplus",
              "softshrink", "hardshrink", "hardtanh", "leaky_relu", "swish", "thresholded_relu"]
    for n in simple:
        out.append(F(f"{n}", f(n), [(3, 5)]))
        out.append(F(f"{n}_0d", f(n), [()], dtypes=("float32",)))
        out.append(F(f"{n}_empty", f(n), [(0, 3)], dtypes=("float32",)))
    out += [
        F("elu_alpha", f("elu", alpha=0.5), [(4, 3)]),
        F("celu_alpha", f("celu", alpha=0.3), [(4, 3)]),
        F("gelu_approx", f("gelu", approximate=True), [(4, 3)]),
        F("softplus_beta", f("softplus", beta=2, threshold=1.0), [(4, 3)]),
        F("softshrink_thr", f("softshrink", threshold=0.8), [(4, 3)]),
        F("hardshrink_thr", f("hardshrink", threshold=0.2), [(4, 3)]),
        F("hardtanh_minmax", f("hardtanh", min=-0.5, max=0.3), [(4, 3)]),
        F("leaky_relu_slope", f("leaky_relu", negative_slope=0.3), [(4, 3)]),
        F("thresholded_relu_v", f("thresholded_relu", threshold=0.5, value=2.0), [(4, 3)]),
        F("hardsigmoid_sl", f("hardsigmoid", slope=0.2, offset=0.4), [(4, 3)]),
        F("selu_sc", f("selu", scale=1.2, alpha=1.5), [(4, 3)]),
        F("softmax", f("softmax"), [(3, 5)]),
        F("softmax_ax0", f("softmax", axis=0), [(3, 5)]),
        F("softmax_dtype", f("softmax", dtype="float64"), [(3, 5)], dtypes=("float32",)),
        F("softmax_0d", f("softmax"), [()], dtypes=("float32",)),
        F("log_softmax", f("log_softmax", axis=1), [(2, 3, 4)]),
        F("log_softmax_dtype", f("log_softmax", dtype="float64"), [(3, 5)], dtypes=("float32",)),
        F("glu", f("glu"), [(3, 6)]),
        F("glu_ax0", f("glu", axis=0), [(4, 3)]),
        F("maxout", f("maxout", groups=2), [(2, 4, 3, 3)]),
        F("maxout_ax", f("maxout", groups=3, axis=-1), [(2, 3, 3, 6)]),
        F("prelu", lambda fw, x, w: fw.nn.functional.prelu(x, w), [(2, 3, 4), (1,)]),
        F("prelu_ch", lambda fw, x, w: fw.nn.functional.prelu(x, w), [(2, 3, 4), (3,)]),
        F("prelu_nhwc", lambda fw, x, w: fw.nn.functional.prelu(x, w, data_format="NHWC"), [(2, 4, 4, 3), (3,)]),
        F("rrelu_eval", f("rrelu", training=False), [(4, 5)]),
        F("rrelu_eval_b", f("rrelu", lower=0.1, upper=0.2, training=False), [(4, 5)]),
        F("swiglu_1", f("swiglu"), [(3, 8)]),
        F("swiglu_2", lambda fw, x, y: fw.nn.functional.swiglu(x, y), [(3, 4), (3, 4)]),
        F("gumbel_softmax_hard_shape", lambda fw, x: fw.nn.functional.gumbel_softmax(x, hard=True).sum(-1),
          [(3, 5)], grad=False),
    ]
    return out


def _errors_act():
    return [
        E("softmax_bad_axis", lambda fw: fw.nn.functional.softmax(fw.ones([2, 3]), axis=3)),
        E("glu_odd", lambda fw: fw.nn.functional.glu(fw.ones([2, 3]))),
        E("maxout_bad", lambda fw: fw.nn.functional.maxout(fw.ones([2, 3, 2, 2]), groups=2)),
        E("elu_neg_alpha_inplace", lambda fw: fw.nn.functional.elu_(fw.ones([2]), alpha=-1.0)),
        E("celu_zero", lambda fw: fw.nn.functional.celu(fw.ones([2]), alpha=0.0)),
        E("rrelu_bad", lambda fw: fw.nn.functional.rrelu(fw.ones([2]), lower=0.5, upper=0.2)),
        E("softshrink_neg", lambda fw: fw.nn.functional.softshrink(fw.ones([2]), threshold=-1.0)),
        E("prelu_bad_format", lambda fw: fw.nn.functional.prelu(fw.ones([2, 3, 4]), fw.ones([3]),
                                                                  data_format="NWC")),
        E("relu_int", lambda fw: fw.nn.functional.relu(fw.to_tensor([1, -2]))),
        E("gelu_int", lambda fw: fw.nn.functional.gelu(fw.ones([2], dtype="int32"))),
    ]


def _conv():
    c = []
    for nd, sp in ((1, (7,)), (2, (6, 5)), (3, (4, 5, 3))):
        fn = f"conv{nd}d"
        tfn = f"conv{nd}d_transpose"
        x = (2, 4) + sp
        w = (6, 4) + (3,) * nd
        wt = (4, 3) + (3,) * nd
        cl = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[nd]
        xcl = (2,) + sp + (4,)
        c += [
            F(f"{fn}", lambda fw, a, b, n=fn: getattr(fw.nn.functional, n)(a, b), [x, w]),
            F(f"{fn}_bias_pad", lambda fw, a, b, bb, n=fn: getattr(fw.nn.functional, n)(a, b, bb, padding=1),
              [x, w, (6,)]),
            F(f"{fn}_same_s2", lambda fw, a, b, n=fn: getattr(fw.nn.functional, n)(a, b, stride=2, padding="SAME"),
              [x, w]),
            F(f"{fn}_valid_dil", lambda fw, a, b, n=fn: getattr(fw.nn.functional, n)(a, b, padding="VALID",
                                                                                      dilation=1), [x, w]),
            F(f"{fn}_groups", lambda fw, a, b, n=fn: getattr(fw.nn.functional, n)(a, b, groups=2, padding=1),
              [x, (6, 2) + (3,) * nd]),
            F(f"{fn}_cl", lambda fw, a, b, n=fn, d=cl: getattr(fw.nn.functional, n)(a, b, padding=1, data_format=d),
              [xcl, w]),
            F(f"{fn}_padlist", lambda fw, a, b, n=fn, k=nd: getattr(fw.nn.functional, n)(a, b, padding=[1, 0] * k),
              [x, w]),
            F(f"{tfn}", lambda fw, a, b, n=tfn: getattr(fw.nn.functional, n)(a, b), [x, wt]),
            F(f"{tfn}_s2_op", lambda fw, a, b, bb, n=tfn: getattr(fw.nn.functional, n)(
                a, b, bb, stride=2, padding=1, output_padding=1), [x, wt, (3,)]),
            F(f"{tfn}_groups", lambda fw, a, b, n=tfn: getattr(fw.nn.functional, n)(a, b, groups=2, stride=2),
              [x, (4, 2) + (3,) * nd]),
            F(f"{tfn}_cl", lambda fw, a, b, n=tfn, d=cl: getattr(fw.nn.functional, n)(a, b, data_format=d),
              [xcl, wt]),
            F(f"{tfn}_same", lambda fw, a, b, n=tfn: getattr(fw.nn.functional, n)(a, b, padding="SAME", stride=2),
              [x, wt]),
            F(f"{tfn}_outsize", lambda fw, a, b, n=tfn, s=sp: getattr(fw.nn.functional, n)(
                a, b, stride=2, output_size=[2 * v + 2 for v in s]), [x, wt], rtol=1e-4, atol=1e-5),
            F(f"{tfn}_dil", lambda fw, a, b, n=tfn: getattr(fw.nn.functional, n)(a, b, dilation=2, padding=1),
              [x, wt]),
        ]
    c += [
        F("conv2d_pad4", lambda fw, a, b: fw.nn.functional.conv2d(a, b, padding=[1, 2, 0, 1]), [(1, 4, 5, 5), (2, 4, 3, 3)]),
        F("conv2d_padnested", lambda fw, a, b: fw.nn.functional.conv2d(a, b, padding=[[0, 0], [0, 0], [1, 2], [0, 1]]),
          [(1, 4, 5, 5), (2, 4, 3, 3)]),
        F("conv2d_padnested_nhwc", lambda fw, a, b: fw.nn.functional.conv2d(
            a, b, padding=[[0, 0], [1, 2], [0, 1], [0, 0]], data_format="NHWC"), [(1, 5, 5, 4), (2, 4, 3, 3)]),
        F("conv2d_b1_odd", lambda fw, a, b: fw.nn.functional.conv2d(a, b, stride=[2, 3], padding=[1, 2]),
          [(1, 4, 7, 9), (2, 4, 3, 2)]),
        F("conv2d_empty_batch", lambda fw, a, b: fw.nn.functional.conv2d(a, b), [(0, 4, 5, 5), (2, 4, 3, 3)],
          grad=False, dtypes=("float32",)),
        F("conv2d_same_dil", lambda fw, a, b: fw.nn.functional.conv2d(a, b, padding="SAME", dilation=2),
          [(1, 4, 6, 6), (2, 4, 3, 3)]),
        F("conv1d_same_even_k", lambda fw, a, b: fw.nn.functional.conv1d(a, b, padding="same"),
          [(1, 4, 7), (2, 4, 4)]),
        F("conv2d_transpose_pad4", lambda fw, a, b: fw.nn.functional.conv2d_transpose(a, b, padding=[1, 0, 0, 1], stride=2),
          [(1, 4, 3, 3), (4, 2, 3, 3)]),
        F("conv2d_transpose_outsize_int", lambda fw, a, b: fw.nn.functional.conv2d_transpose(a, b, stride=2, output_size=8),
          [(1, 4, 3, 3), (4, 2, 3, 3)]),
    ]
    for case in c:  # float32 accumulation order differs between the backends' 3-D kernels
        if "3d" in case.id:
            case.rtol, case.atol = 1e-4, 1e-5
    return c


def _errors_conv():
    return [
        E("conv2d_bad_format", lambda fw: fw.nn.functional.conv2d(fw.ones([1, 4, 5, 5]), fw.ones([2, 4, 3, 3]),
                                                                   data_format="NCWH")),
        E("conv2d_chan_mismatch", lambda fw: fw.nn.functional.conv2d(fw.ones([1, 3, 5, 5]), fw.ones([2, 4, 3, 3]))),
        E("conv2d_bad_pad_str", lambda fw: fw.nn.functional.conv2d(fw.ones([1, 4, 5, 5]), fw.ones([2, 4, 3, 3]),
                                                                    padding="FULL")),
        E("conv2d_groups_bad", lambda fw: fw.nn.functional.conv2d(fw.ones([1, 4, 5, 5]), fw.ones([3, 4, 3, 3]),
                                                                   groups=3)),
        E("conv2d_3d_input", lambda fw: fw.nn.functional.conv2d(fw.ones([4, 5, 5]), fw.ones([2, 4, 3, 3]))),
        E("conv1d_bad_rank", lambda fw: fw.nn.functional.conv1d(fw.ones([1, 4, 5, 5]), fw.ones([2, 4, 3]))),
        E("conv2d_stride0", lambda fw: fw.nn.functional.conv2d(fw.ones([1, 4, 5, 5]), fw.ones([2, 4, 3, 3]),
                                                                stride=0)),
        E("conv2d_transpose_outsize_bad", lambda fw: fw.nn.functional.conv2d_transpose(
            fw.ones([1, 4, 3, 3]), fw.ones([4, 2, 3, 3]), stride=2, output_size=20)),
    ]


def _pool():
    P = []
    for nd, sp in ((1, (9,)), (2, (7, 6)), (3, (5, 4, 5))):
        x = (2, 3) + sp
        cl = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[nd]
        xcl = (2,) + sp + (3,)
        for kind in ("avg", "max"):
            n = f"{kind}_pool{nd}d"
            P += [
                F(n, lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 2), [x]),
                F(f"{n}_s1_p1", lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 3, stride=1, padding=1), [x]),
                F(f"{n}_ceil", lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 3, stride=2, ceil_mode=True), [x]),
                F(f"{n}_same", lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 3, stride=2, padding="SAME"), [x]),
                F(f"{n}_valid", lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 2, padding="VALID"), [x]),
                F(f"{n}_padlist", lambda fw, a, n=n, k=nd: getattr(fw.nn.functional, n)(a, 3, stride=2,
                                                                                        padding=[1] * k), [x]),
            ]
            if nd > 1:
                P.append(F(f"{n}_cl", lambda fw, a, n=n, d=cl: getattr(fw.nn.functional, n)(
                    a, 2, data_format=d), [xcl]))
            else:
                P.append(F(f"{n}_nlc_absent", lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 2), [x]))
            if kind == "avg":
                P += [
                    F(f"{n}_excl", lambda fw, a, n=n: getattr(fw.nn.functional, n)(
                        a, 3, stride=2, padding=1, exclusive=False), [x]),
                    F(f"{n}_ceil_pad", lambda fw, a, n=n: getattr(fw.nn.functional, n)(
                        a, 3, stride=2, padding=1, ceil_mode=True), [x]),
                ]
                if nd > 1:
                    P.append(F(f"{n}_divisor", lambda fw, a, n=n: getattr(fw.nn.functional, n)(
                        a, 2, divisor_override=3), [x]))
            else:
                P += [
                    F(f"{n}_mask", lambda fw, a, n=n: getattr(fw.nn.functional, n)(a, 2, return_mask=True), [x]),
                    F(f"{n}_mask_pad", lambda fw, a, n=n: getattr(fw.nn.functional, n)(
                        a, 3, stride=2, padding=1, return_mask=True), [x]),
                ]
            an = f"adaptive_{kind}_pool{nd}d"
            P += [
                F(an, lambda fw, a, n=an: getattr(fw.nn.functional, n)(a, 3), [x]),
                F(f"{an}_1", lambda fw, a, n=an: getattr(fw.nn.functional, n)(a, 1), [x]),
                F(f"{an}_odd", lambda fw, a, n=an, k=nd: getattr(fw.nn.functional, n)(a, [4, 3, 2][:k]), [x]),
            ]
            if nd > 1:
                P.append(F(f"{an}_none", lambda fw, a, n=an, k=nd: getattr(fw.nn.functional, n)(
                    a, [None, 2, 2][:k]), [x]))
            if kind == "max":
                P.append(F(f"{an}_mask", lambda fw, a, n=an: getattr(fw.nn.functional, n)(
                    a, 2, return_mask=True), [x]))
            elif nd > 1:
                P.append(F(f"{an}_cl", lambda fw, a, n=an, d=cl: getattr(fw.nn.functional, n)(
                    a, 2, data_format=d), [xcl]))
    P += [
        F("lp_pool1d", f("lp_pool1d", norm_type=2, kernel_size=3, stride=2), [(2, 3, 8)], kind="pos"),
        F("lp_pool1d_ceil", f("lp_pool1d", norm_type=3, kernel_size=3, stride=2, ceil_mode=True), [(2, 3, 8)],
          kind="pos"),
        F("lp_pool1d_nlc", f("lp_pool1d", norm_type=1, kernel_size=2, data_format="NLC"), [(2, 8, 3)], kind="pos"),
        F("lp_pool2d", f("lp_pool2d", norm_type=2, kernel_size=2), [(2, 3, 6, 5)], kind="pos"),
        F("lp_pool2d_inf", f("lp_pool2d", norm_type=float("inf"), kernel_size=2), [(2, 3, 6, 6)], kind="pos"),
        F("lp_pool2d_nhwc", f("lp_pool2d", norm_type=2, kernel_size=[2, 3], stride=1, data_format="NHWC"),
          [(2, 6, 5, 3)], kind="pos"),
        F("max_unpool2d", lambda fw, x: fw.nn.functional.max_unpool2d(
            *fw.nn.functional.max_pool2d(x, 2, return_mask=True), kernel_size=2), [(2, 3, 6, 6)]),
        F("max_unpool2d_os", lambda fw, x: fw.nn.functional.max_unpool2d(
            *fw.nn.functional.max_pool2d(x, 2, return_mask=True), kernel_size=2, output_size=[7, 7]), [(2, 3, 7, 7)]),
        F("max_unpool1d", lambda fw, x: fw.nn.functional.max_unpool1d(
            *fw.nn.functional.max_pool1d(x, 2, return_mask=True), kernel_size=2), [(2, 3, 8)]),
        F("max_unpool3d", lambda fw, x: fw.nn.functional.max_unpool3d(
            *fw.nn.functional.max_pool3d(x, 2, return_mask=True), kernel_size=2), [(1, 2, 4, 4, 4)]),
        F("fractional_max_pool2d_shape", lambda fw, x: fw.nn.functional.fractional_max_pool2d(x, output_size=3).shape,
          [(1, 2, 7, 7)], grad=False, dtypes=("float32",)),
        F("fractional_max_pool2d_u", lambda fw, x: fw.nn.functional.fractional_max_pool2d(
            x, output_size=3, random_u=0.3), [(1, 2, 7, 7)]),
        F("fractional_max_pool2d_u_mask", lambda fw, x: fw.nn.functional.fractional_max_pool2d(
            x, output_size=[3, 4], kernel_size=2, random_u=0.6, return_mask=True), [(1, 2, 8, 9)]),
        F("fractional_max_pool3d_u", lambda fw, x: fw.nn.functional.fractional_max_pool3d(
            x, output_size=2, random_u=0.4, return_mask=True), [(1, 2, 5, 5, 5)]),
    ]
    return P


def _errors_pool():
    return [
        E("max_pool2d_bad_fmt", lambda fw: fw.nn.functional.max_pool2d(fw.ones([1, 2, 4, 4]), 2, data_format="NWHC")),
        E("avg_pool2d_k0", lambda fw: fw.nn.functional.avg_pool2d(fw.ones([1, 2, 4, 4]), 0)),
        E("max_pool2d_mask_nhwc", lambda fw: fw.nn.functional.max_pool2d(fw.ones([1, 4, 4, 2]), 2,
                                                                           return_mask=True, data_format="NHWC")),
        E("max_pool1d_rank", lambda fw: fw.nn.functional.max_pool1d(fw.ones([1, 2, 4, 4]), 2)),
        E("avg_pool2d_pad_str", lambda fw: fw.nn.functional.avg_pool2d(fw.ones([1, 2, 4, 4]), 2, padding="FULL")),
        E("adaptive_avg_pool2d_fmt", lambda fw: fw.nn.functional.adaptive_avg_pool2d(fw.ones([1, 2, 4, 4]), 2,
                                                                                      data_format="NCWH")),
    ]


def _norm():
    N = []
    N += [
        F("batch_norm_eval", lambda fw, x, m, v, w, b: fw.nn.functional.batch_norm(x, m, v, w, b),
          [(4, 3, 5), (3,), pos((3,)), (3,), (3,)]),
        F("batch_norm_train", lambda fw, x, m, v, w, b: fw.nn.functional.batch_norm(x, m, v, w, b, training=True),
          [(4, 3, 5), (3,), pos((3,)), (3,), (3,)]),
        F("batch_norm_train_running", lambda fw, x, m, v: (
            fw.nn.functional.batch_norm(x, m, v, training=True, momentum=0.8), m, v),
          [(4, 3), (3,), pos((3,))], grad=False),
        F("batch_norm_nhwc", lambda fw, x, m, v, w, b: fw.nn.functional.batch_norm(
            x, m, v, w, b, training=True, data_format="NHWC"), [(2, 3, 4, 3), (3,), pos((3,)), (3,), (3,)]),
        F("batch_norm_global", lambda fw, x, m, v, w, b: fw.nn.functional.batch_norm(
            x, m, v, w, b, training=True, use_global_stats=True), [(4, 3, 5), (3,), pos((3,)), (3,), (3,)]),
        F("batch_norm_nowb", lambda fw, x, m, v: fw.nn.functional.batch_norm(x, m, v, epsilon=1e-3),
          [(4, 3, 2, 2), (3,), pos((3,))]),
        F("layer_norm", lambda fw, x, w, b: fw.nn.functional.layer_norm(x, [4], w, b), [(3, 2, 4), (4,), (4,)]),
        F("layer_norm_2d", lambda fw, x, w, b: fw.nn.functional.layer_norm(x, [2, 4], w, b, epsilon=1e-3),
          [(3, 2, 4), (8,), (8,)]),
        F("layer_norm_int", lambda fw, x: fw.nn.functional.layer_norm(x, 4), [(3, 4)]),
        F("layer_norm_noaff", lambda fw, x: fw.nn.functional.layer_norm(x, [3, 4]), [(2, 3, 4)]),
        F("rms_norm", lambda fw, x, w: fw.nn.functional.rms_norm(x, [4], w), [(3, 2, 4), (4,)]),
        F("rms_norm_noweight", lambda fw, x: fw.nn.functional.rms_norm(x, 4, eps=1e-3), [(3, 4)]),
        F("instance_norm", lambda fw, x: fw.nn.functional.instance_norm(x), [(2, 3, 5)]),
        F("instance_norm_wb", lambda fw, x, w, b: fw.nn.functional.instance_norm(x, weight=w, bias=b, eps=1e-3),
          [(2, 3, 4, 4), (3,), (3,)]),
        F("instance_norm_nhwc", lambda fw, x: fw.nn.functional.instance_norm(x, data_format="NHWC"), [(2, 4, 4, 3)]),
        F("group_norm", lambda fw, x, w, b: fw.nn.functional.group_norm(x, 2, weight=w, bias=b),
          [(2, 4, 3, 3), (4,), (4,)]),
        F("group_norm_nhwc", lambda fw, x, w: fw.nn.functional.group_norm(x, 2, weight=w, data_format="NHWC"),
          [(2, 3, 3, 4), (4,)]),
        F("group_norm_3d", lambda fw, x, w, b: fw.nn.functional.group_norm(x, 3, epsilon=1e-3, weight=w, bias=b),
          [(2, 6, 5), (6,), (6,)]),
        F("group_norm_noweight_fwd", lambda fw, x: fw.nn.functional.group_norm(x, 3), [(2, 6, 5)], grad=False),
        F("group_norm_noweight_grad", lambda fw, x: fw.nn.functional.group_norm(x, 3), [(2, 6, 5)]),
        F("local_response_norm", f("local_response_norm", size=3), [(2, 5, 4, 4)]),
        F("local_response_norm_3d", f("local_response_norm", size=2, alpha=0.01, beta=0.5, k=2.0), [(2, 5, 4)]),
        F("local_response_norm_nhwc", f("local_response_norm", size=3, data_format="NHWC"), [(2, 4, 4, 5)]),
        F("normalize", f("normalize"), [(3, 4)]),
        F("normalize_p1", f("normalize", p=1, axis=0), [(3, 4)]),
        F("normalize_1d", f("normalize", axis=0), [(5,)]),
        F("normalize_pinf", f("normalize", p=float("inf"), axis=-1), [(3, 4)]),
    ]
    return N


def _errors_norm():
    return [
        E("batch_norm_bad_fmt", lambda fw: fw.nn.functional.batch_norm(fw.ones([2, 3]), fw.zeros([3]), fw.ones([3]),
                                                                        data_format="NWC")),
        E("layer_norm_2d_weight", lambda fw: fw.nn.functional.layer_norm(fw.ones([2, 3, 4]), [3, 4],
                                                                            fw.ones([3, 4]))),
        E("layer_norm_bad_shape", lambda fw: fw.nn.functional.layer_norm(fw.ones([2, 3]), [4])),
        E("group_norm_bad", lambda fw: fw.nn.functional.group_norm(fw.ones([2, 3, 4]), 2)),
        E("normalize_bad_axis", lambda fw: fw.nn.functional.normalize(fw.ones([2, 3]), axis=3)),
        E("local_response_norm_rank", lambda fw: fw.nn.functional.local_response_norm(fw.ones([2, 3]), 3)),
    ]


def _loss():
    lab = ints((4,), 5)
    lab2 = ints((4, 3), 5)
    soft = probs((4, 5))
    L_ = []
    for red in ("mean", "sum", "none"):
        L_ += [
            F(f"cross_entropy_{red}", lambda fw, x, y, r=red: fw.nn.functional.cross_entropy(x, y, reduction=r),
              [(4, 5), lab]),
            F(f"mse_loss_{red}", lambda fw, x, y, r=red: fw.nn.functional.mse_loss(x, y, reduction=r), [(4, 3), (4, 3)]),
            F(f"l1_loss_{red}", lambda fw, x, y, r=red: fw.nn.functional.l1_loss(x, y, reduction=r), [(4, 3), (4, 3)]),
            F(f"smooth_l1_loss_{red}", lambda fw, x, y, r=red: fw.nn.functional.smooth_l1_loss(
                x, y, reduction=r, delta=0.5), [(4, 3), (4, 3)]),
            F(f"nll_loss_{red}", lambda fw, x, y, r=red: fw.nn.functional.nll_loss(x, y, reduction=r), [(4, 5), lab]),
            F(f"bce_{red}", lambda fw, x, y, r=red: fw.nn.functional.binary_cross_entropy(x, y, reduction=r),
              [probs((4, 3)), probs((4, 3), 9)]),
            F(f"bce_logits_{red}", lambda fw, x, y, r=red: fw.nn.functional.binary_cross_entropy_with_logits(
                x, y, reduction=r), [(4, 3), probs((4, 3))]),
            F(f"kl_div_{red}", lambda fw, x, y, r=red: fw.nn.functional.kl_div(x, y, reduction=r),
              [(4, 3), probs((4, 3))]),
            F(f"margin_ranking_{red}", lambda fw, a, b, y, r=red: fw.nn.functional.margin_ranking_loss(
                a, b, y, margin=0.2, reduction=r), [(4,), (4,), np.array([1, -1, 1, -1], "float32")], dtypes=("float32",)),
            F(f"hinge_embedding_{red}", lambda fw, x, y, r=red: fw.nn.functional.hinge_embedding_loss(
                x, y, reduction=r), [(4, 3), lambda rng, dt: np.sign(np.random.default_rng(2).standard_normal((4, 3))).astype(dt)]),
            F(f"cosine_embedding_{red}", lambda fw, a, b, y, r=red: fw.nn.functional.cosine_embedding_loss(
                a, b, y, margin=0.1, reduction=r), [(4, 5), (4, 5), np.array([1, -1, 1, -1], "int64")]),
            F(f"soft_margin_{red}", lambda fw, x, y, r=red: fw.nn.functional.soft_margin_loss(x, y, reduction=r),
              [(4, 3), lambda rng, dt: np.sign(np.random.default_rng(2).standard_normal((4, 3))).astype(dt)]),
            F(f"multi_label_soft_margin_{red}", lambda fw, x, y, r=red: fw.nn.functional.multi_label_soft_margin_loss(
                x, y, reduction=r), [(4, 3), lambda rng, dt: (np.random.default_rng(2).random((4, 3)) > .5).astype(dt)]),
            F(f"multi_margin_{red}", lambda fw, x, y, r=red: fw.nn.functional.multi_margin_loss(x, y, reduction=r),
              [(4, 5), lab]),
            F(f"multi_label_margin_{red}", lambda fw, x, y, r=red: fw.nn.functional.multi_label_margin_loss(
                x, y, reduction=r), [(4, 5), np.array([[1, 2, -1, 0, 0], [0, -1, 0, 0, 0], [4, 3, 2, 1, 0],
                                                       [-1, 0, 0, 0, 0]], "int64")]),
            F(f"poisson_nll_{red}", lambda fw, x, y, r=red: fw.nn.functional.poisson_nll_loss(x, y, reduction=r),
              [(4, 3), pos((4, 3))]),
            F(f"gaussian_nll_{red}", lambda fw, x, y, v, r=red: fw.nn.functional.gaussian_nll_loss(
                x, y, v, reduction=r), [(4, 3), (4, 3), pos((4, 3))]),
            F(f"triplet_margin_{red}", lambda fw, a, p, n, r=red: fw.nn.functional.triplet_margin_loss(
                a, p, n, reduction=r), [(4, 5), (4, 5), (4, 5)]),
            F(f"triplet_margin_dist_{red}", lambda fw, a, p, n, r=red: fw.nn.functional.triplet_margin_with_distance_loss(
                a, p, n, reduction=r), [(4, 5), (4, 5), (4, 5)]),
            F(f"sigmoid_focal_{red}", lambda fw, x, y, r=red: fw.nn.functional.sigmoid_focal_loss(x, y, reduction=r),
              [(4, 3), lambda rng, dt: (np.random.default_rng(2).random((4, 3)) > .5).astype(dt)]),
            F(f"sigmoid_focal_norm_{red}", lambda fw, x, y, nm, r=red: fw.nn.functional.sigmoid_focal_loss(
                x, y, normalizer=nm, reduction=r), [(4, 3), lambda rng, dt: (np.random.default_rng(2).random((4, 3)) > .5)
                                                    .astype(dt), lambda rng, dt: np.array([3.0], dt)]),
        ]
    L_ += [
        F("cross_entropy_soft", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y, soft_label=True), [(4, 5), soft]),
        F("cross_entropy_weight", lambda fw, x, y, w: fw.nn.functional.cross_entropy(x, y, weight=w), [(4, 5), lab, pos((5,))]),
        F("cross_entropy_weight_none", lambda fw, x, y, w: fw.nn.functional.cross_entropy(
            x, y, weight=w, reduction="none"), [(4, 5), lab, pos((5,))]),
        F("cross_entropy_ignore", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y, ignore_index=1),
          [(4, 5), np.array([1, 2, 1, 0], "int64")]),
        F("cross_entropy_ignore_w", lambda fw, x, y, w: fw.nn.functional.cross_entropy(x, y, weight=w, ignore_index=1),
          [(4, 5), np.array([1, 2, 1, 0], "int64"), pos((5,))]),
        F("cross_entropy_lab2d", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y), [(4, 5), lab[:, None]]),
        F("cross_entropy_3d", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y), [(4, 3, 5), lab2]),
        F("cross_entropy_axis1", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y, axis=1), [(4, 5, 3), lab2]),
        F("cross_entropy_nosoftmax", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y, use_softmax=False),
          [probs((4, 5)), lab]),
        F("cross_entropy_ls", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y, label_smoothing=0.1), [(4, 5), lab]),
        F("cross_entropy_ls_w", lambda fw, x, y, w: fw.nn.functional.cross_entropy(x, y, weight=w, label_smoothing=0.2),
          [(4, 5), lab, pos((5,))]),
        F("cross_entropy_soft_w", lambda fw, x, y, w: fw.nn.functional.cross_entropy(x, y, weight=w, soft_label=True),
          [(4, 5), soft, pos((5,))]),
        F("cross_entropy_int32", lambda fw, x, y: fw.nn.functional.cross_entropy(x, y),
          [(4, 5), lab.astype("int32")]),
        F("softmax_with_ce", lambda fw, x, y: fw.nn.functional.softmax_with_cross_entropy(x, y), [(4, 5), lab[:, None]]),
        F("softmax_with_ce_ret", lambda fw, x, y: fw.nn.functional.softmax_with_cross_entropy(
            x, y, return_softmax=True), [(4, 5), lab[:, None]]),
        F("softmax_with_ce_soft", lambda fw, x, y: fw.nn.functional.softmax_with_cross_entropy(
            x, y, soft_label=True), [(4, 5), soft]),
        F("softmax_with_ce_ignore", lambda fw, x, y: fw.nn.functional.softmax_with_cross_entropy(
            x, y, ignore_index=2), [(4, 5), np.array([[2], [1], [2], [0]], "int64")]),
        F("nll_weight", lambda fw, x, y, w: fw.nn.functional.nll_loss(x, y, weight=w), [(4, 5), lab, pos((5,))]),
        F("nll_ignore", lambda fw, x, y: fw.nn.functional.nll_loss(x, y, ignore_index=1),
          [(4, 5), np.array([1, 2, 1, 0], "int64")]),
        F("nll_4d", lambda fw, x, y: fw.nn.functional.nll_loss(x, y), [(2, 5, 3, 3), ints((2, 3, 3), 5)]),
        F("bce_weight", lambda fw, x, y, w: fw.nn.functional.binary_cross_entropy(x, y, weight=w),
          [probs((4, 3)), probs((4, 3), 9), pos((3,))]),
        F("bce_logits_posw", lambda fw, x, y, w, pw: fw.nn.functional.binary_cross_entropy_with_logits(
            x, y, weight=w, pos_weight=pw), [(4, 3), probs((4, 3)), pos((4, 3)), pos((3,), 7)]),
        F("kl_div_log_target", lambda fw, x, y: fw.nn.functional.kl_div(x, y, reduction="batchmean", log_target=True),
          [(4, 3), (4, 3)]),
        F("kl_div_batchmean", lambda fw, x, y: fw.nn.functional.kl_div(x, y, reduction="batchmean"),
          [(4, 3), probs((4, 3))]),
        F("log_loss", lambda fw, x, y: fw.nn.functional.log_loss(x, y), [probs((4, 1)), probs((4, 1), 7)],
          dtypes=("float32",)),
        F("log_loss_eps", lambda fw, x, y: fw.nn.functional.log_loss(x, y, epsilon=0.01),
          [probs((4, 1)), probs((4, 1), 7)], dtypes=("float32",)),
        F("square_error_cost", lambda fw, x, y: fw.nn.functional.square_error_cost(x, y), [(4, 3), (4, 3)]),
        F("dice_loss", lambda fw, x, y: fw.nn.functional.dice_loss(x, y), [probs((2, 3, 4)), ints((2, 3, 1), 4)]),
        F("npair_loss", lambda fw, a, p, y: fw.nn.functional.npair_loss(a, p, y),
          [(4, 3), (4, 3), np.array([1, 2, 1, 3], "float32")], dtypes=("float32",)),
        F("label_smooth", lambda fw, x: fw.nn.functional.label_smooth(x, epsilon=0.2), [probs((3, 4))]),
        F("label_smooth_prior", lambda fw, x, p: fw.nn.functional.label_smooth(x, prior_dist=p, epsilon=0.1),
          [probs((3, 4)), probs((1, 4), 2)]),
        F("multi_margin_p2_w", lambda fw, x, y, w: fw.nn.functional.multi_margin_loss(x, y, p=2, margin=0.5, weight=w),
          [(4, 5), lab, pos((5,))]),
        F("poisson_nll_nolog", lambda fw, x, y: fw.nn.functional.poisson_nll_loss(x, y, log_input=False, full=True),
          [pos((4, 3)), pos((4, 3), 8)]),
        F("gaussian_nll_full_bcast", lambda fw, x, y, v: fw.nn.functional.gaussian_nll_loss(x, y, v, full=True),
          [(4, 3), (4, 3), pos((4, 1))]),
        F("triplet_margin_swap", lambda fw, a, p, n: fw.nn.functional.triplet_margin_loss(
            a, p, n, margin=0.5, p=1, swap=True), [(4, 5), (4, 5), (4, 5)]),
        F("triplet_dist_swap", lambda fw, a, p, n: fw.nn.functional.triplet_margin_with_distance_loss(
            a, p, n, margin=0.3, swap=True), [(4, 5), (4, 5), (4, 5)]),
        F("hsigmoid_loss", lambda fw, x, y, w, b: fw.nn.functional.hsigmoid_loss(x, y, 5, w, b),
          [(4, 3), ints((4,), 5), (4, 3), (4, 1)]),
        F("hsigmoid_loss_nobias", lambda fw, x, y, w: fw.nn.functional.hsigmoid_loss(x, y, 6, w),
          [(4, 3), ints((4,), 6), (5, 3)]),
        F("ctc_loss", lambda fw, lp, lab_, il, ll: fw.nn.functional.ctc_loss(lp, lab_, il, ll),
          [lambda rng, dt: np.log(np.random.default_rng(1).dirichlet(np.ones(4), (6, 2))).astype(dt),
           np.array([[1, 2, 0], [3, 1, 1]], "int32"), np.array([6, 5], "int64"), np.array([2, 3], "int64")],
          dtypes=("float32",)),
        F("ctc_loss_sum", lambda fw, lp, lab_, il, ll: fw.nn.functional.ctc_loss(lp, lab_, il, ll, blank=3, reduction="sum"),
          [lambda rng, dt: np.log(np.random.default_rng(1).dirichlet(np.ones(4), (6, 2))).astype(dt),
           np.array([[1, 2, 0], [0, 1, 1]], "int32"), np.array([6, 5], "int64"), np.array([2, 3], "int64")],
          dtypes=("float32",)),
        F("ctc_loss_none", lambda fw, lp, lab_, il, ll: fw.nn.functional.ctc_loss(lp, lab_, il, ll, reduction="none"),
          [lambda rng, dt: np.log(np.random.default_rng(1).dirichlet(np.ones(4), (6, 2))).astype(dt),
           np.array([[1, 2, 0], [3, 1, 1]], "int32"), np.array([6, 5], "int64"), np.array([2, 3], "int64")],
          dtypes=("float32",)),
        F("rnnt_loss", lambda fw, x, lab_, il, ll: fw.nn.functional.rnnt_loss(x, lab_, il, ll),
          [(2, 4, 3, 5), np.array([[1, 2], [3, 0]], "int32"), np.array([4, 3], "int32"), np.array([2, 1], "int32")],
          dtypes=("float32",), rtol=1e-4, atol=1e-5),
        F("rnnt_loss_none", lambda fw, x, lab_, il, ll: fw.nn.functional.rnnt_loss(
            x, lab_, il, ll, reduction="none", fastemit_lambda=0.0), [(2, 4, 3, 5), np.array([[1, 2], [3, 0]], "int32"),
                                                                       np.array([4, 3], "int32"), np.array([2, 1], "int32")],
          dtypes=("float32",), rtol=1e-4, atol=1e-5),
        F("adaptive_log_softmax", lambda fw, x, y, w, t0, t1, t2, t3: fw.nn.functional.adaptive_log_softmax_with_loss(
            x, y, w, [[t0, t1], [t2, t3]], [2, 4, 6]),
          [(5, 4), np.array([0, 1, 3, 5, 2], "int64"), (4, 4), (4, 2), (2, 2), (4, 1), (1, 2)], dtypes=("float32",)),
    ]
    return L_


def _errors_loss():
    return [
        E("ce_bad_reduction", lambda fw: fw.nn.functional.cross_entropy(fw.ones([2, 3]), fw.zeros([2], "int64"),
                                                                         reduction="avg")),
        E("mse_bad_reduction", lambda fw: fw.nn.functional.mse_loss(fw.ones([2, 3]), fw.ones([2, 3]), reduction="x")),
        E("l1_bad_reduction", lambda fw: fw.nn.functional.l1_loss(fw.ones([2, 3]), fw.ones([2, 3]), reduction="x")),
        E("bce_bad_reduction", lambda fw: fw.nn.functional.binary_cross_entropy(
            fw.full([2], 0.5), fw.full([2], 0.5), reduction="x")),
        E("nll_bad_reduction", lambda fw: fw.nn.functional.nll_loss(fw.ones([2, 3]), fw.zeros([2], "int64"),
                                                                     reduction="x")),
        E("kl_bad_reduction", lambda fw: fw.nn.functional.kl_div(fw.ones([2, 3]), fw.ones([2, 3]), reduction="x")),
        E("ce_label_shape", lambda fw: fw.nn.functional.cross_entropy(fw.ones([2, 3]), fw.zeros([3], "int64"))),
        E("ce_soft_shape", lambda fw: fw.nn.functional.cross_entropy(fw.ones([2, 3]), fw.ones([2, 4]),
                                                                      soft_label=True)),
        E("nll_rank1", lambda fw: fw.nn.functional.nll_loss(fw.ones([3]), fw.zeros([1], "int64"))),
        E("margin_ranking_bad", lambda fw: fw.nn.functional.margin_ranking_loss(fw.ones([2]), fw.ones([2]),
                                                                                fw.ones([2]), reduction="x")),
        E("smooth_l1_bad", lambda fw: fw.nn.functional.smooth_l1_loss(fw.ones([2]), fw.ones([2]), reduction="x")),
        E("hinge_bad", lambda fw: fw.nn.functional.hinge_embedding_loss(fw.ones([2]), fw.ones([2]), reduction="x")),
        E("poisson_bad", lambda fw: fw.nn.functional.poisson_nll_loss(fw.ones([2]), fw.ones([2]), reduction="x")),
        E("gaussian_neg_var", lambda fw: fw.nn.functional.gaussian_nll_loss(fw.ones([2]), fw.ones([2]),
                                                                            -fw.ones([2]))),
        E("triplet_bad", lambda fw: fw.nn.functional.triplet_margin_loss(fw.ones([2, 3]), fw.ones([2, 3]),
                                                                         fw.ones([2, 3]), reduction="x")),
        E("ce_ls_bad", lambda fw: fw.nn.functional.cross_entropy(fw.ones([2, 3]), fw.zeros([2], "int64"),
                                                                  label_smoothing=1.5)),
        E("cosine_emb_bad", lambda fw: fw.nn.functional.cosine_embedding_loss(fw.ones([2, 3]), fw.ones([2, 3]),
                                                                              fw.ones([2]), reduction="x")),
    ]


def _common():
    C = [
        F("linear", lambda fw, x, w, b: fw.nn.functional.linear(x, w, b), [(2, 3), (3, 4), (4,)]),
        F("linear_nob", lambda fw, x, w: fw.nn.functional.linear(x, w), [(2, 5, 3), (3, 4)]),
        F("linear_1d", lambda fw, x, w: fw.nn.functional.linear(x, w), [(3,), (3, 4)]),
        F("bilinear", lambda fw, a, b, w, bb: fw.nn.functional.bilinear(a, b, w, bb), [(2, 3), (2, 4), (5, 3, 4), (1, 5)]),
        F("bilinear_nob", lambda fw, a, b, w: fw.nn.functional.bilinear(a, b, w), [(2, 3), (2, 4), (5, 3, 4)]),
        F("embedding", lambda fw, i, w: fw.nn.functional.embedding(i, w), [ints((2, 3), 6), (6, 4)]),
        F("embedding_pad", lambda fw, i, w: fw.nn.functional.embedding(i, w, padding_idx=2),
          [np.array([[2, 1], [0, 2]], "int64"), (6, 4)]),
        F("embedding_pad_neg", lambda fw, i, w: fw.nn.functional.embedding(i, w, padding_idx=-1),
          [np.array([[5, 1], [0, 5]], "int64"), (6, 4)]),
        F("embedding_maxnorm", lambda fw, i, w: fw.nn.functional.embedding(i, w, max_norm=1.0),
          [np.array([[1, 1], [0, 5]], "int64"), (6, 4)], grad=False),
        F("embedding_int32", lambda fw, i, w: fw.nn.functional.embedding(i, w), [ints((3,), 6, dtype="int32"), (6, 4)]),
        F("one_hot", lambda fw, i: fw.nn.functional.one_hot(i, 5), [ints((2, 3), 5)], grad=False, dtypes=("float32",)),
        F("one_hot_int32", lambda fw, i: fw.nn.functional.one_hot(i, 4), [ints((3,), 4, dtype="int32")], grad=False,
          dtypes=("float32",)),
        F("pad_const", lambda fw, x: fw.nn.functional.pad(x, [1, 2], value=1.5), [(2, 3, 4)]),
        F("pad_const4", lambda fw, x: fw.nn.functional.pad(x, [1, 2, 0, 1]), [(2, 3, 4, 4)]),
        F("pad_full", lambda fw, x: fw.nn.functional.pad(x, [0, 1, 1, 0, 2, 2]), [(2, 3, 4)]),
        F("pad_full_4d", lambda fw, x: fw.nn.functional.pad(x, [0, 0, 0, 0, 1, 2, 0, 1]), [(2, 3, 4, 4)]),
        F("pad_2d_input", lambda fw, x: fw.nn.functional.pad(x, [1, 2, 3, 0]), [(3, 4)]),
        F("pad_reflect", lambda fw, x: fw.nn.functional.pad(x, [1, 2, 2, 1], mode="reflect"), [(2, 3, 4, 4)]),
        F("pad_replicate", lambda fw, x: fw.nn.functional.pad(x, [1, 2], mode="replicate"), [(2, 3, 4)]),
        F("pad_circular", lambda fw, x: fw.nn.functional.pad(x, [1, 1, 1, 0, 0, 1], mode="circular"), [(1, 2, 3, 3, 3)]),
        F("pad_nhwc", lambda fw, x: fw.nn.functional.pad(x, [1, 0, 1, 2], mode="reflect", data_format="NHWC"),
          [(2, 4, 4, 3)]),
        F("pad_nlc", lambda fw, x: fw.nn.functional.pad(x, [1, 2], data_format="NLC"), [(2, 4, 3)]),
        F("pad_ndhwc", lambda fw, x: fw.nn.functional.pad(x, [1, 0, 1, 0, 0, 1], mode="replicate",
                                                          data_format="NDHWC"), [(1, 3, 3, 3, 2)]),
        F("pad_tensor_pad", lambda fw, x: fw.nn.functional.pad(x, fw.to_tensor([1, 2], "int32")), [(2, 3, 4)]),
        F("pad_1d_full", lambda fw, x: fw.nn.functional.pad(x, [1, 2]), [(4,)]),
        F("zeropad2d", lambda fw, x: fw.nn.functional.zeropad2d(x, [1, 0, 2, 1]), [(2, 3, 4, 4)]),
        F("zeropad2d_nhwc", lambda fw, x: fw.nn.functional.zeropad2d(x, [1, 1, 0, 2], data_format="NHWC"),
          [(2, 4, 4, 3)]),
        F("dropout_p0", lambda fw, x: fw.nn.functional.dropout(x, 0.0), [(3, 4)]),
        F("dropout_p1", lambda fw, x: fw.nn.functional.dropout(x, 1.0), [(3, 4)]),
        F("dropout_eval", lambda fw, x: fw.nn.functional.dropout(x, 0.5, training=False), [(3, 4)]),
        F("dropout_eval_down", lambda fw, x: fw.nn.functional.dropout(x, 0.3, training=False,
                                                                      mode="downscale_in_infer"), [(3, 4)]),
        F("dropout_p1_down", lambda fw, x: fw.nn.functional.dropout(x, 1.0, mode="downscale_in_infer"), [(3, 4)]),
        F("dropout2d_eval", lambda fw, x: fw.nn.functional.dropout2d(x, 0.5, training=False), [(2, 3, 4, 4)]),
        F("dropout3d_eval", lambda fw, x: fw.nn.functional.dropout3d(x, 0.5, training=False), [(2, 3, 2, 2, 2)]),
        F("dropout1d_eval", lambda fw, x: fw.nn.functional.dropout1d(x, 0.5, training=False), [(2, 3, 4)]),
        F("alpha_dropout_eval", lambda fw, x: fw.nn.functional.alpha_dropout(x, 0.5, training=False), [(2, 3)]),
        F("feature_alpha_dropout_eval", lambda fw, x: fw.nn.functional.feature_alpha_dropout(
            x, 0.5, training=False), [(2, 3, 4)]),
        F("dropout_stats", lambda fw, x: ((fw.nn.functional.dropout(x, 0.5) == 0).astype("float32").mean() > 0.4,
                                          fw.nn.functional.dropout(x, 0.5).max() > 1.5),
          [lambda rng, dt: np.ones((200, 50), dt)], grad=False, dtypes=("float32",)),
        F("dropout_axis_pattern", lambda fw, x: (fw.nn.functional.dropout(x, 0.5, axis=1) == 0).astype("int32")
          .sum(0).numpy().tolist().count(0) >= 0, [(50, 8)], grad=False, dtypes=("float32",)),
        F("cosine_similarity", lambda fw, a, b: fw.nn.functional.cosine_similarity(a, b), [(3, 4), (3, 4)]),
        F("cosine_similarity_ax0", lambda fw, a, b: fw.nn.functional.cosine_similarity(a, b, axis=0, eps=1e-6),
          [(3, 4), (1, 4)]),
        F("pairwise_distance", lambda fw, a, b: fw.nn.functional.pairwise_distance(a, b), [(3, 4), (3, 4)]),
        F("pairwise_distance_p1", lambda fw, a, b: fw.nn.functional.pairwise_distance(a, b, p=1, keepdim=True),
          [(3, 4), (3, 4)]),
        F("pairwise_distance_inf", lambda fw, a, b: fw.nn.functional.pairwise_distance(a, b, p=float("inf")),
          [(3, 4), (3, 4)]),
        F("pairwise_distance_1d", lambda fw, a, b: fw.nn.functional.pairwise_distance(a, b), [(4,), (4,)]),
        F("pixel_shuffle", lambda fw, x: fw.nn.functional.pixel_shuffle(x, 2), [(1, 8, 2, 3)]),
        F("pixel_shuffle_nhwc", lambda fw, x: fw.nn.functional.pixel_shuffle(x, 2, "NHWC"), [(1, 2, 3, 8)]),
        F("pixel_unshuffle", lambda fw, x: fw.nn.functional.pixel_unshuffle(x, 2), [(1, 2, 4, 6)]),
        F("pixel_unshuffle_nhwc", lambda fw, x: fw.nn.functional.pixel_unshuffle(x, 2, "NHWC"), [(1, 4, 6, 2)]),
        F("channel_shuffle", lambda fw, x: fw.nn.functional.channel_shuffle(x, 3), [(1, 6, 2, 2)]),
        F("channel_shuffle_nhwc", lambda fw, x: fw.nn.functional.channel_shuffle(x, 2, "NHWC"), [(1, 2, 2, 6)]),
        F("unfold", lambda fw, x: fw.nn.functional.unfold(x, 2), [(1, 3, 4, 4)]),
        F("unfold_all", lambda fw, x: fw.nn.functional.unfold(x, [2, 3], strides=[1, 2], paddings=[1, 0, 1, 2],
                                                                 dilations=[1, 2]), [(2, 3, 5, 6)]),
        F("unfold_pad2", lambda fw, x: fw.nn.functional.unfold(x, 3, paddings=[1, 2]), [(1, 2, 4, 4)]),
        F("fold", lambda fw, x: fw.nn.functional.fold(x, [4, 5], 2), [(1, 12, 12)]),
        F("fold_all", lambda fw, x: fw.nn.functional.fold(x, [5, 5], [2, 2], strides=2, paddings=1, dilations=1),
          [(2, 8, 9)]),
        F("interp_nearest", lambda fw, x: fw.nn.functional.interpolate(x, scale_factor=2), [(1, 2, 3, 3)]),
        F("interp_nearest_size", lambda fw, x: fw.nn.functional.interpolate(x, size=[5, 7]), [(1, 2, 3, 4)]),
        F("interp_bilinear", lambda fw, x: fw.nn.functional.interpolate(x, size=[5, 7], mode="bilinear"), [(1, 2, 3, 4)]),
        F("interp_bilinear_ac", lambda fw, x: fw.nn.functional.interpolate(x, size=[5, 7], mode="bilinear",
                                                                           align_corners=True), [(1, 2, 3, 4)]),
        F("interp_bilinear_am0", lambda fw, x: fw.nn.functional.interpolate(x, scale_factor=1.7, mode="bilinear",
                                                                            align_mode=0), [(1, 2, 3, 4)]),
        F("interp_bilinear_am1", lambda fw, x: fw.nn.functional.interpolate(x, scale_factor=[1.5, 2.5], mode="bilinear",
                                                                            align_mode=1), [(1, 2, 3, 4)]),
        F("interp_bicubic", lambda fw, x: fw.nn.functional.interpolate(x, size=[6, 5], mode="bicubic"), [(1, 2, 3, 4)]),
        F("interp_bicubic_ac", lambda fw, x: fw.nn.functional.interpolate(x, size=[6, 5], mode="bicubic",
                                                                          align_corners=True), [(1, 2, 3, 4)]),
        F("interp_linear", lambda fw, x: fw.nn.functional.interpolate(x, size=[7], mode="linear", data_format="NCW"),
          [(1, 2, 4)]),
        F("interp_linear_nwc", lambda fw, x: fw.nn.functional.interpolate(x, scale_factor=2, mode="linear",
                                                                          data_format="NWC"), [(1, 4, 2)]),
        F("interp_trilinear", lambda fw, x: fw.nn.functional.interpolate(x, size=[3, 4, 5], mode="trilinear",
                                                                          data_format="NCDHW"), [(1, 2, 2, 3, 3)]),
        F("interp_nearest_nhwc", lambda fw, x: fw.nn.functional.interpolate(x, size=[5, 6], data_format="NHWC"),
          [(1, 3, 4, 2)]),
        F("interp_bilinear_nhwc", lambda fw, x: fw.nn.functional.interpolate(x, size=[5, 6], mode="bilinear",
                                                                             data_format="NHWC"), [(1, 3, 4, 2)]),
        F("interp_area", lambda fw, x: fw.nn.functional.interpolate(x, size=[2, 3], mode="area"), [(1, 2, 5, 6)]),
        F("interp_nearest_down", lambda fw, x: fw.nn.functional.interpolate(x, scale_factor=0.5), [(1, 2, 5, 7)]),
        F("interp_size_tensor", lambda fw, x: fw.nn.functional.interpolate(x, size=fw.to_tensor([4, 4], "int32"),
                                                                           mode="bilinear"), [(1, 2, 3, 3)]),
        F("interp_recompute", lambda fw, x: fw.nn.functional.interpolate(x, scale_factor=1.5, mode="bilinear",
                                                                         recompute_scale_factor=True), [(1, 2, 3, 3)]),
        F("upsample", lambda fw, x: fw.nn.functional.upsample(x, scale_factor=2, mode="nearest"), [(1, 2, 3, 3)]),
        F("affine_grid", lambda fw, t: fw.nn.functional.affine_grid(t, [1, 2, 3, 4]), [(1, 2, 3)]),
        F("affine_grid_ac", lambda fw, t: fw.nn.functional.affine_grid(t, [2, 2, 3, 4], align_corners=False),
          [(2, 2, 3)]),
        F("affine_grid_3d", lambda fw, t: fw.nn.functional.affine_grid(t, [1, 2, 2, 3, 4]), [(1, 3, 4)]),
        F("grid_sample", lambda fw, x, g: fw.nn.functional.grid_sample(x, g), [(1, 2, 4, 5), probs((1, 3, 3, 2))]),
        F("grid_sample_nearest", lambda fw, x, g: fw.nn.functional.grid_sample(x, g, mode="nearest", align_corners=False),
          [(1, 2, 4, 5), probs((1, 3, 3, 2))], grad=False),
        F("grid_sample_border", lambda fw, x, g: fw.nn.functional.grid_sample(x, g, padding_mode="border"),
          [(1, 2, 4, 5), lambda rng, dt: np.random.default_rng(3).uniform(-1.5, 1.5, (1, 3, 3, 2)).astype(dt)]),
        F("grid_sample_reflection", lambda fw, x, g: fw.nn.functional.grid_sample(x, g, padding_mode="reflection",
                                                                                  align_corners=False),
          [(1, 2, 4, 5), lambda rng, dt: np.random.default_rng(3).uniform(-1.5, 1.5, (1, 3, 3, 2)).astype(dt)]),
        F("grid_sample_3d", lambda fw, x, g: fw.nn.functional.grid_sample(x, g), [(1, 2, 3, 4, 5), probs((1, 2, 3, 3, 3))]),
        F("temporal_shift", lambda fw, x: fw.nn.functional.temporal_shift(x, 2), [(4, 4, 3, 3)]),
        F("temporal_shift_r", lambda fw, x: fw.nn.functional.temporal_shift(x, 2, shift_ratio=0.4), [(4, 4, 3, 3)]),
        F("temporal_shift_nhwc", lambda fw, x: fw.nn.functional.temporal_shift(x, 2, data_format="NHWC"), [(4, 3, 3, 4)]),
        F("sequence_mask", lambda fw, x: fw.nn.functional.sequence_mask(x), [np.array([1, 3, 2], "int64")],
          grad=False, dtypes=("float32",)),
        F("sequence_mask_max", lambda fw, x: fw.nn.functional.sequence_mask(x, 5, dtype="float32"),
          [np.array([[1, 3], [2, 0]], "int32")], grad=False, dtypes=("float32",)),
        F("sequence_mask_float", lambda fw, x: fw.nn.functional.sequence_mask(x, 3),
          [np.array([1.5, 2.0], "float32")], grad=False, dtypes=("float32",)),
        F("gather_tree", lambda fw, i, p: fw.nn.functional.gather_tree(i, p),
          [ints((3, 2, 2), 4), ints((3, 2, 2), 2, seed=5)], grad=False, dtypes=("float32",)),
        F("sdpa", lambda fw, q, k, v: fw.nn.functional.scaled_dot_product_attention(q, k, v),
          [(2, 4, 2, 8), (2, 4, 2, 8), (2, 4, 2, 8)], rtol=1e-4, atol=1e-5),
        F("sdpa_causal", lambda fw, q, k, v: fw.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True),
          [(2, 4, 2, 8), (2, 4, 2, 8), (2, 4, 2, 8)], rtol=1e-4, atol=1e-5),
        F("sdpa_mask", lambda fw, q, k, v, m: fw.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m),
          [(2, 4, 2, 8), (2, 3, 2, 8), (2, 3, 2, 8), (2, 2, 4, 3)], rtol=1e-4, atol=1e-5),
        F("sdpa_boolmask", lambda fw, q, k, v, m: fw.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m),
          [(2, 4, 2, 8), (2, 3, 2, 8), (2, 3, 2, 8), np.tril(np.ones((4, 3), bool))], rtol=1e-4, atol=1e-5,
          dtypes=("float32",)),
        F("sdpa_scale", lambda fw, q, k, v: fw.nn.functional.scaled_dot_product_attention(q, k, v, scale=0.3),
          [(1, 3, 1, 4), (1, 3, 1, 4), (1, 3, 1, 4)], rtol=1e-4, atol=1e-5, dtypes=("float32",)),
    ]
    return C


def _errors_common():
    return [
        E("pad_bad_mode", lambda fw: fw.nn.functional.pad(fw.ones([1, 2, 3]), [1, 1], mode="wrap")),
        E("pad_reflect_too_big", lambda fw: fw.nn.functional.pad(fw.ones([1, 2, 3]), [4, 4], mode="reflect")),
        E("pad_bad_len", lambda fw: fw.nn.functional.pad(fw.ones([1, 2, 3, 3]), [1, 1, 1], mode="reflect")),
        E("interp_bad_mode", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 2, 3, 3]), size=[4, 4], mode="cubic")),
        E("interp_both_none", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 2, 3, 3]))),
        E("interp_bad_fmt", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 2, 3, 3]), size=[4, 4],
                                                                     data_format="NCW")),
        E("interp_linear_4d", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 2, 3, 3]), size=[4, 4], mode="linear")),
        E("interp_ac_nearest", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 2, 3, 3]), size=[4, 4],
                                                                        align_corners=True)),
        E("dropout_bad_p", lambda fw: fw.nn.functional.dropout(fw.ones([2]), 1.5)),
        E("dropout_bad_mode", lambda fw: fw.nn.functional.dropout(fw.ones([2]), 0.5, mode="up")),
        E("dropout_p_str", lambda fw: fw.nn.functional.dropout(fw.ones([2]), "0.5")),
        E("dropout2d_rank", lambda fw: fw.nn.functional.dropout2d(fw.ones([2, 3]), 0.5)),
        E("alpha_dropout_bad_p", lambda fw: fw.nn.functional.alpha_dropout(fw.ones([2]), -0.1)),
        E("one_hot_float", lambda fw: fw.nn.functional.one_hot(fw.ones([2]), 3)),
        E("embedding_float_idx", lambda fw: fw.nn.functional.embedding(fw.ones([2]), fw.ones([4, 3]))),
        E("embedding_pad_oob", lambda fw: fw.nn.functional.embedding(fw.zeros([2], "int64"), fw.ones([4, 3]),
                                                                      padding_idx=7)),
        E("pixel_shuffle_bad", lambda fw: fw.nn.functional.pixel_shuffle(fw.ones([1, 6, 2, 2]), 2)),
        E("pixel_shuffle_fmt", lambda fw: fw.nn.functional.pixel_shuffle(fw.ones([1, 8, 2, 2]), 2, "NCWH")),
        E("channel_shuffle_bad", lambda fw: fw.nn.functional.channel_shuffle(fw.ones([1, 6, 2, 2]), 4)),
        E("unfold_rank", lambda fw: fw.nn.functional.unfold(fw.ones([3, 4, 4]), 2)),
        E("linear_mismatch", lambda fw: fw.nn.functional.linear(fw.ones([2, 3]), fw.ones([4, 5]))),
        E("grid_sample_bad_mode", lambda fw: fw.nn.functional.grid_sample(fw.ones([1, 1, 3, 3]), fw.zeros([1, 2, 2, 2]),
                                                                           mode="bicubic")),
        E("temporal_shift_ratio", lambda fw: fw.nn.functional.temporal_shift(fw.ones([4, 4, 2, 2]), 2,
                                                                              shift_ratio=0.5)),
        E("temporal_shift_bad", lambda fw: fw.nn.functional.temporal_shift(fw.ones([3, 4, 2, 2]), 2)),
        E("cosine_sim_mismatch", lambda fw: fw.nn.functional.cosine_similarity(fw.ones([2, 3]), fw.ones([2, 4]))),
        E("fold_bad", lambda fw: fw.nn.functional.fold(fw.ones([1, 12, 13]), [4, 5], 2)),
        E("affine_grid_bad", lambda fw: fw.nn.functional.affine_grid(fw.ones([1, 3, 3]), [1, 2, 3, 4])),
    ]


def _edge():
    """Edge cases: batch size 1 / one element per channel, empty batches, broadcasting,
    mixed dtypes, tensor-valued arguments, label range errors."""
    def G(id_, fn, grad=False):
        return F(id_, lambda fw, *a: fn(fw), [], dtypes=("float32",), grad=grad)
    x13 = np.random.default_rng(0).standard_normal((1, 3)).astype("float32")
    return [
        F("bn_one_per_channel", lambda fw, x, w, b: fw.nn.functional.batch_norm(
            x, fw.zeros([3]), fw.ones([3]), w, b, training=True), [(1, 3), (3,), (3,)]),
        F("bn_one_per_channel_4d", lambda fw, x: fw.nn.functional.batch_norm(
            x, fw.zeros([3]), fw.ones([3]) * 2, training=True), [(1, 3, 1, 1)]),
        F("bn_stats_after_one", _bn_stats, [(1, 3)], grad=False),
        F("bn_stats_after_batch", _bn_stats, [(4, 3)], grad=False, dtypes=("float32",)),
        F("bn_stats_after_batch_f64", _bn_stats, [(4, 3)], grad=False, dtypes=("float64",)),
        F("instance_norm_one_spatial", lambda fw, x, w, b: fw.nn.functional.instance_norm(x, weight=w, bias=b),
          [(2, 3, 1), (3,), (3,)]),
        G("bn1d_layer_b1_train", lambda fw: fw.nn.BatchNorm1D(3)(fw.to_tensor(x13))),
        G("ce_empty_mean", lambda fw: fw.nn.functional.cross_entropy(fw.ones([0, 3]), fw.zeros([0], "int64"))),
        G("mse_empty_mean", lambda fw: fw.nn.functional.mse_loss(fw.ones([0, 3]), fw.ones([0, 3]))),
        G("ce_all_ignored", lambda fw: fw.nn.functional.cross_entropy(fw.ones([2, 3]), fw.to_tensor([-100, -100]))),
        G("kl_neg_label", lambda fw: fw.nn.functional.kl_div(fw.ones([2]), fw.to_tensor([0.0, -1.0]),
                                                            reduction="none")),
        G("mse_mixed", lambda fw: fw.nn.functional.mse_loss(fw.ones([2, 3]), fw.ones([2, 3], "float64"))),
        G("l1_mixed", lambda fw: fw.nn.functional.l1_loss(fw.ones([2, 3]), fw.ones([2, 3], "float64"))),
        G("softmax_int_dtype", lambda fw: fw.nn.functional.softmax(fw.to_tensor([1, 2, 3]), dtype="float32")),
        G("pad_int", lambda fw: fw.nn.functional.pad(fw.to_tensor([[[1, 2]]]), [1, 1])),
        G("pad_reflect_int", lambda fw: fw.nn.functional.pad(fw.to_tensor([[[1, 2, 3]]]), [1, 1], mode="reflect")),
        G("interp_int", lambda fw: fw.nn.functional.interpolate(fw.to_tensor(np.ones((1, 1, 2, 2), "int64")),
                                                                 scale_factor=2)),
        G("interp_scale_list", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 3]), scale_factor=[2, 3])),
        G("interp_size_tlist", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 3]),
                                                                        size=[fw.to_tensor(4), 5])),
        G("interp_scale_tensor", lambda fw: fw.nn.functional.interpolate(fw.ones([1, 1, 2, 3]),
                                                                          scale_factor=fw.to_tensor([2.0, 2.0]))),
        G("one_hot_nc_tensor", lambda fw: fw.nn.functional.one_hot(fw.to_tensor([0, 2]), fw.to_tensor(3))),
        G("dropout_p0_int", lambda fw: fw.nn.functional.dropout(fw.to_tensor([1, 2, 3]), 0.0)),
        G("dropout_axis_neg", lambda fw: fw.nn.functional.dropout(fw.ones([2, 3]), 0.0, axis=-1)),
        G("normalize_zero", lambda fw: fw.nn.functional.normalize(fw.zeros([2, 3]))),
        G("cos_sim_zero", lambda fw: fw.nn.functional.cosine_similarity(fw.zeros([2, 3]), fw.ones([2, 3]))),
        G("bce_saturated", lambda fw: fw.nn.functional.binary_cross_entropy(fw.to_tensor([0.0, 1.0]),
                                                                            fw.to_tensor([1.0, 0.0]))),
        G("square_error_cost_bcast", lambda fw: fw.nn.functional.square_error_cost(fw.ones([2, 3]), fw.ones([3]))),
        G("mse_bcast", lambda fw: fw.nn.functional.mse_loss(fw.ones([2, 3]), fw.ones([3]))),
        G("l1_bcast", lambda fw: fw.nn.functional.l1_loss(fw.ones([2, 3]), fw.ones([1, 3]))),
        G("sdpa_gqa", lambda fw: fw.nn.functional.scaled_dot_product_attention(
            fw.ones([1, 2, 4, 4]), fw.ones([1, 2, 2, 4]), fw.ones([1, 2, 2, 4]))),
        G("sdpa_dropout_eval", lambda fw: fw.nn.functional.scaled_dot_product_attention(
            fw.ones([1, 2, 1, 4]), fw.ones([1, 2, 1, 4]), fw.ones([1, 2, 1, 4]), dropout_p=0.5, training=False)),
        G("softmax_ce_axis", lambda fw: fw.nn.functional.softmax_with_cross_entropy(
            fw.ones([2, 3, 4]), fw.zeros([2, 1, 4], "int64"), axis=1)),
        G("ce_weight_hard_3d", lambda fw: fw.nn.functional.cross_entropy(
            fw.ones([2, 3, 4]), fw.zeros([2, 4], "int64"), weight=fw.ones([3]), axis=1)),
        G("ce_w_ignore_mean", lambda fw: fw.nn.functional.cross_entropy(
            fw.to_tensor([[1., 2., 3.], [1., 0., 0.]]), fw.to_tensor([0, -100]), weight=fw.to_tensor([1., 2., 3.]))),
        G("ce_ls_ignore", lambda fw: fw.nn.functional.cross_entropy(
            fw.to_tensor([[1., 2., 3.], [1., 0., 0.]]), fw.to_tensor([0, 1]), ignore_index=1, label_smoothing=0.1)),
        G("ce_ls_soft", lambda fw: fw.nn.functional.cross_entropy(
            fw.to_tensor([[1., 2., 3.], [1., 0., 0.]]), fw.to_tensor([[0.2, 0.3, 0.5], [1., 0, 0]]), soft_label=True,
            label_smoothing=0.1)),
        G("ce_nosoftmax_w", lambda fw: fw.nn.functional.cross_entropy(
            fw.to_tensor([[.1, .2, .7], [.3, .3, .4]]), fw.to_tensor([2, 1]), use_softmax=False,
            weight=fw.to_tensor([1., 2., 3.]))),
        G("ce_w_none_2d", lambda fw: fw.nn.functional.cross_entropy(
            fw.to_tensor([[.1, .2, .7], [.3, .3, .4]]), fw.to_tensor([[2], [1]]), weight=fw.to_tensor([1., 2., 3.]),
            reduction="none")),
        G("ce_1d_input", lambda fw: fw.nn.functional.cross_entropy(fw.to_tensor([1.0, 2.0]), fw.to_tensor(1))),
        G("ce_1d_input_lab1", lambda fw: fw.nn.functional.cross_entropy(fw.to_tensor([1.0, 2.0]), fw.to_tensor([1]))),
    ]


def _bn_stats(fw, x):
    """The running statistics after one training batch."""
    m, v = fw.zeros([3]), fw.ones([3])
    fw.nn.functional.batch_norm(x, m, v, training=True, momentum=0.7)
    return m, v


def _errors_edge():
    return [
        E("linear_mixed", lambda fw: fw.nn.functional.linear(fw.ones([2, 2]), fw.ones([2, 2], "float64"))),
        E("ce_label_oob", lambda fw: fw.nn.functional.cross_entropy(fw.ones([2, 3]), fw.to_tensor([0, 3]))),
        E("nll_label_oob", lambda fw: fw.nn.functional.nll_loss(fw.ones([2, 3]), fw.to_tensor([0, 3]))),
        E("log_loss_2cols", lambda fw: fw.nn.functional.log_loss(fw.full([2, 2], 0.5), fw.ones([2, 2]))),
        E("log_loss_1d", lambda fw: fw.nn.functional.log_loss(fw.full([2], 0.5), fw.ones([2]))),
        E("one_hot_oob", lambda fw: fw.nn.functional.one_hot(fw.to_tensor([0, 3]), 3)),
        E("embedding_oob", lambda fw: fw.nn.functional.embedding(fw.to_tensor([0, 5]), fw.ones([4, 2]))),
        E("dropout_axis_bad", lambda fw: fw.nn.functional.dropout(fw.ones([2, 3]), 0.5, axis=3)),
        E("ce_0d_input", lambda fw: fw.nn.functional.cross_entropy(fw.to_tensor(1.0), fw.to_tensor(0))),
        E("pad_bool", lambda fw: fw.nn.functional.pad(fw.to_tensor([[[True, False]]]), [1, 1])),
        E("maxpool_int", lambda fw: fw.nn.functional.max_pool2d(fw.to_tensor(np.arange(16).reshape(1, 1, 4, 4)), 2)),
        E("avgpool_int", lambda fw: fw.nn.functional.avg_pool2d(fw.to_tensor(np.arange(16).reshape(1, 1, 4, 4)), 2)),
        E("adapt_avg_int", lambda fw: fw.nn.functional.adaptive_avg_pool2d(
            fw.to_tensor(np.arange(16).reshape(1, 1, 4, 4)), 2)),
        E("dropout_eval_int", lambda fw: fw.nn.functional.dropout(fw.to_tensor([1, 2, 3]), 0.5, training=False)),
        E("label_smooth_int", lambda fw: fw.nn.functional.label_smooth(fw.to_tensor([[0, 1]]))),
        E("gelu_f16", lambda fw: fw.nn.functional.gelu(fw.ones([2], "float16"))),
        E("smooth_l1_int", lambda fw: fw.nn.functional.smooth_l1_loss(fw.to_tensor([1, 2]), fw.to_tensor([0, 0]))),
    ]


# Deliberate differences from Paddle 3.3.1: {case id: reason}. These cases are skipped.
SKIP = {
    "rms_norm": "Paddle 3.3.1 has no CPU kernel for rms_norm",
    "rms_norm_noweight": "Paddle 3.3.1 has no CPU kernel for rms_norm",
    "group_norm_noweight_grad": "Paddle bug: group_norm's input gradient is wrong when weight is None",
    "gelu_int": "Paddle raises RuntimeError (no int kernel); pagaie raises TypeError for non-float input",
    "kl_bad_reduction": "Paddle bug: kl_div silently treats an unknown reduction as 'none'",
    "cosine_emb_bad": "Paddle bug: cosine_embedding_loss returns None for an unknown reduction",
    "affine_grid_bad": "Paddle does not validate theta's shape and returns garbage; pagaie raises",
    "bn_stats_after_batch_f64": "Paddle bug: a float64 batch leaves float32 running statistics unchanged",
    # pagaie runs these dtypes where Paddle 3.3.1 has no CPU kernel (RuntimeError (NotFound))
    "pad_bool": "pagaie pads bool tensors; Paddle has no bool pad kernel",
    "maxpool_int": "pagaie max-pools integer tensors; Paddle has no int pool kernel",
    "avgpool_int": "pagaie average-pools integer tensors (torch semantics); Paddle has no int pool kernel",
    "adapt_avg_int": "Paddle raises RuntimeError (no int kernel); pagaie raises TypeError",
    "dropout_eval_int": "pagaie passes integer tensors through eval dropout; Paddle has no int kernel",
    "label_smooth_int": "pagaie smooths integer labels to float; Paddle has no int kernel",
    "gelu_f16": "pagaie computes float16 gelu on CPU; Paddle has no CPU float16 gelu kernel",
    "smooth_l1_int": "Paddle raises RuntimeError (no int kernel); pagaie raises TypeError",
}

FUNCTIONAL = _acts() + _conv() + _pool() + _norm() + _loss() + _common() + _edge()
ERRORS = (_errors_act() + _errors_conv() + _errors_pool() + _errors_norm() + _errors_loss() + _errors_common()
          + _errors_edge())
